/* GPU test of the HGEMM rungs: every rung that can run here, at sizes small
 * enough for compute-sanitizer (random and odd: partial tiles in M, N and
 * K, a single row, a single column, K of 1), two fresh draws each (one
 * under compute-sanitizer); then each rung run twice on the same inputs
 * must give the same bits (a race or a read of unwritten shared memory
 * shows as a difference), and its error at K = 2048 must stay within 8x
 * cuBLAS's on the same inputs.
 * The vendor rows (cuBLAS, and cuBLAS with C's rows padded) are validated
 * too, unless LADDER_SKIP_BASELINES is set (gpu_test.h).
 * With sizes on the command line, those in place of the list (a sanitizer
 * run that cannot go through the whole list in one sitting).
 * Exits 77 without a GPU or where no rung can run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "hgemm.h"

extern const ladder_case hgemm_case;

int main(int argc, char **argv)
{
    ladder_device device;
    open_device_or_skip(&device);
    /* gemv_mma at 16 rows and at 7 columns with K's last chunk partial;
     * split_k where 4 tiles leave the GPU idle; swap_ab (shapes on 132
     * SMs) in 64-row tiles (64 wide at 16, and at 40 and 17 x 999 in 2
     * slices summed in their clusters of two, C's 16983 floats being no
     * multiple of 4 at 17 x 999; 104 wide at 100 in fours) and, where N is large
     * (8500), in 128-row ones (64 wide at 20; 128 wide at 100); 200 x
     * 8400 in 128-row tiles, two of 100 rows, 128 wide on an H200, 104 on
     * an H100 (rows on the grid at K = 64), else 192-row tiles in eights
     * (K = 70). */
    const char *sizes[] = {"256x256x256", "129x257x95",  "1x256x256",   "256x1x256",  "130x300x1",
                           "16x300x95",   "300x7x1003",  "200x136x4000", "40x1000x700", "17x999x700",
                           "100x300x129", "20x8500x70",  "100x8500x70", "200x8400x70", "200x8400x64",
                           /* swap_ab's 192-row tiles (on 132 SMs): 96 wide (A's rows
                            * two tiles of 69), 128 wide (of 100); 128-row tiles 96
                            * wide, alone (one tile of 90) */
                           "137x8500x100", "200x8500x64", "90x8364x64",
                           /* 128-row tiles two across A's rows as wide as their rows
                            * of A, 72 to 120 (two of 67 rows at 133, N odd): alone
                            * (every size on an H100; N up to 6656 on an H200) and
                            * as a pair (N past 6656 on an H200); 112 wide with 10
                            * k-tiles through its 7-stage ring */
                           "133x7777x128", "129x7001x64", "151x5001x64", "155x7001x80", "169x4501x64",
                           "161x8000x96", "185x7001x112", "201x5003x64", "199x7001x80", "209x7001x624",
                           "219x6001x64", "239x6999x64",
                           /* and in eights where rows take 2.25 requests: 72 wide,
                            * the last cluster two tiles past N; 80 wide with 10
                            * k-tiles through its 9-stage ring; 88 to 120 wide, 120
                            * in 120 blocks */
                           "131x4300x66", "157x6001x600", "171x5003x130", "183x7001x66", "205x6500x200",
                           "217x4501x66", "233x7600x130",
                           /* past 64 k-tiles (65): eights at 1.75 requests (K =
                            * 4112), alone at 1 (4160), a pair at 1.5 on fast DRAM
                            * (4128; the H100's takes the rules before) */
                           "187x6001x4112", "161x4500x4160", "201x6300x4128",
                           /* persistent_multicast's TMA stores: 11 tile rows (the last
                            * cluster's second block wholly past M) by 22 tile columns,
                            * the last 4 wide, 2 rounds of 132 blocks */
                           "1400x5380x72",
                           /* its balanced grid, 224 wide: 189 units, 3 rounds of 63
                            * clusters where 66 fit (on 132 SMs); 224 wide without
                            * TMA stores (C's rows not 16-byte multiples) */
                           "2200x4700x200", "1048x2499x66",
                           /* its last chunks of C held in registers under the next
                            * tile (HOLDS_C): 256 wide, 128 units, 2 a cluster, the
                            * last tile row and column ragged; 11 k-tiles, and 5 (the
                            * held chunks take all of the next tile's) */
                           "2047x4095x641", "4001x2047x300",
                           /* the whole-K ring (2 k-tiles a tile), 224 and 192
                            * wide (1400x5380x72 above: 256) */
                           "2200x4700x100", "2305x2100x128",
                           /* rows off the 128-byte grid: clusters of four, 256
                            * and 224 wide (on 132 SMs; 192 wide at 2305x2100x130,
                            * a case test size), 9 tile rows (the last unit 3 past
                            * M) by 10 columns, the last 204 and 32 wide */
                           "1097x2508x130", "1048x2048x133",
                           /* swap_ab in clusters (rows off the grid): 64-row tiles
                            * 64 wide in fours, 2 slices, and in eights;
                            * fours of 128-row tiles 64 and 144 wide (and
                            * 100x300x129 above: 64-row tiles 104 wide); 80 wide in
                            * eights, two tiles across A's rows, 13 k-tiles through
                            * the 12-stage ring */
                           "31x200x493", "66x200x493", "52x8537x66", "129x12844x66", "150x2500x771",
                           /* in clusters of eight (A's rows in two tiles): 64-row
                            * tiles 104 wide, the last cluster a block past N;
                            * 128-row tiles */
                           "201x2999x130", "250x5001x130",
                           /* 192-row tiles in eights, where 128-row fours do not fit
                            * and A's rows are past 224, or past 132 tiles of 64
                            * rows (96 wide) */
                           "250x8000x66", "178x8453x66",
                           /* 64-row tiles across A's rows, 192 wide, in twos
                            * where fours do not fit (125 tiles on 120 slots) */
                           "161x8000x66",
                           /* two tiles across A's rows in place of two slices:
                            * 64 wide in eights; a pair alone 64 wide on an H200
                            * (72 wide in fours, whole, on an H100) */
                           "100x3000x515", "66x4000x515",
                           /* and in 64-row tiles across A's rows, 192 wide (9
                            * k-tiles: the 7-stage ring wraps) and 224 wide (7
                            * k-tiles, 6 stages; the last tile 25 rows, the last
                            * cluster 2 blocks past N) */
                           "160x4000x66", "177x4001x515", "209x3929x403",
                           /* 64-row tiles as wide as their rows of A: 72 and 112
                            * wide alone, 88 in fours, 120 in eights (above: 72 and
                            * 80 in eights, 104 in fours and eights) */
                           "69x205x64", "107x199x64", "83x211x66", "226x203x66",
                           /* narrow_tiles at every width (on 132 SMs): two tile rows of
                            * 128 (80, 96, 128 and 144 above) 112, 160, 176, 192, 224,
                            * 240; 208 with 7 k-tiles through its 5-stage ring; past
                            * 256, two wgmmas a k-step: 272, 288, 304 with 7 k-tiles
                            * through 4 stages, 320; 256 with 5 through 4; past a
                            * wave, 112 wide in 3 rounds (197 units on 132 SMs);
                            * one tile row of 192 (A's rows up to 192; 144 and 160 at
                            * 129x17001x64 and 160x20000x400 below): 80, 96, 112, 128
                            * with 9 k-tiles through its 5-stage ring, 176, 192 */
                           "129x7001x64", "193x10007x64", "193x11008x64", "193x12301x64", "193x14001x64",
                           "193x15111x64", "193x13001x400", "193x17001x64", "200x18000x64", "224x20000x400",
                           "193x16001x300", "256x22000x300", "131x9001x66", "145x11001x130", "157x14001x64",
                           "163x15111x520", "150x22001x66", "181x24001x130",
                           /* swap_ab's 128-row tiles across all of A's rows as wide
                            * as they are (on 132 SMs; 144 above, alone and in fours):
                            * 160 alone, 8 k-tiles through its 6-stage ring, and 240;
                            * 176, 192, 208 and 224 in fours */
                           "160x13001x500", "240x13500x64", "176x14001x130", "192x12900x66", "200x13001x66",
                           "224x13000x66",
                           /* and in 192-row tiles where 128-row ones pass a wave: 144,
                            * 160 (7 k-tiles through its 5-stage ring), 176 and 192
                            * wide; past 192 of A's rows, 208 wide, two consumers each
                            * all 192 rows by 104 columns (193x17001x64 above: the
                            * second consumer's 89 columns of A's rows; 208 exactly;
                            * 199, with 9 k-tiles through its 4-stage ring) */
                           "129x17001x64", "160x20000x400", "176x18000x64", "192x19000x66", "208x21000x64",
                           "199x23000x520",
                           /* those 128-row tiles past a wave with the last wave's
                            * tiles in slices of K (on 132 SMs): 208 wide past two
                            * waves, 2 tiles in 2; 240 wide, C's columns past the whole tiles ragged
                            * (2105: the sum one float at a time); 64 wide, 25 in 4
                            * (the sum by 8 thread groups a chunk); and all of C
                            * summed a thread a chunk (split_k's 4; swap_ab's 2 slices
                            * there are summed in their clusters) */
                           "200x34000x520", "233x19001x700", "64x20000x1030", "128x4100x1024",
                           /* a tile's slices summed in their cluster (40x1000x700,
                            * 17x999x700 and 128x4100x1024 above: twos): fours, 30
                            * tiles, the last 45 rows, 23 of A's; and one 128-row
                            * tile across all 250 of A's rows in place of two
                            * across, in 3 slices of 16-17 k-tiles (where DRAM is
                            * fast enough for it: the H200's, not the H100's) */
                           "23x1901x1152", "250x4700x3136",
                           /* past a wave of 128-row tiles, rows off the grid: 64-row
                            * tiles in fours, 96 wide (the last cluster two blocks
                            * past N) and 128 wide (three) */
                           "87x17001x136", "121x20011x520",
                           /* narrow_tiles' one tile row, its tiles in pairs: 144 wide
                            * (above: 119 tiles, the last pair's second past N), 96 (115),
                            * 256 (B's tile in one box of 256 rows) and 272 (in two) */
                           "100x11000x72", "70x32001x64", "100x34001x72",
                           /* split_k's and swap_ab's 132 slices of one tile: each
                            * thread of the sum by eight groups adds 16 or 17: the
                            * loop unrolled by 16 and its rest */
                           "64x64x40000",
                           /* persistent_multicast's 256 x 192 tiles in pairs (on 132
                            * SMs): 2 rounds (a consumer's second row group stored
                            * under the next tile's first 3 k-tiles), the last tile
                            * row 8 of 256 rows, the last tile 24 wide and the last
                            * pair's second tile past N; one round, no tile change */
                           "1800x5400x4160", "1000x4500x4096"};
    const char *const *chosen = sizes;
    size_t count = sizeof sizes / sizeof sizes[0];
    if (argc > 1) chosen = (const char *const *)argv + 1, count = (size_t)argc - 1;
    int ran = 0;
    for (size_t i = 0; i < count; ++i) {
        void *state = create_case_or_die(&hgemm_case, chosen[i]);
        for (int r = 0; r < hgemm_case.variant_count; ++r) {
            const ladder_variant *v = &hgemm_case.variants[r];
            const char *reason = hgemm_case.unsupported(state, v);
            if (!reason && (v->flags & LADDER_BASELINE) && ladder_skip_baselines())
                reason = "LADDER_SKIP_BASELINES is set";
            if (reason) {
                printf("%-12s %-20s skipped: %s\n", chosen[i], v->name, reason);
                continue;
            }
            /* one draw under compute-sanitizer: racecheck took 474 s for three quarters of two */
            for (uint64_t draw = 0; draw < (uint64_t)ladder_validation_draws(); ++draw) {
                ladder_check c = ladder_validate_variant(&hgemm_case, state, v, 100 * i + 10 * r + draw);
                printf("%-12s %-20s error %.2e (tolerance %.1e, %zu non-finite) %s\n", chosen[i], v->name,
                       c.rel_error, c.tolerance, c.nonfinite, c.passed ? "ok" : "FAIL");
                EXPECT(c.passed);
                ++ran;
            }
        }
        hgemm_case.destroy(state);
    }
    if (!ran) {
        printf("skipped: no hgemm rung runs on this GPU\n");
        return LADDER_EXIT_SKIP_TEST;
    }

    /* Without cuBLAS (LADDER_SKIP_BASELINES), the repeat check alone. */
    void *state = create_case_or_die(&hgemm_case, "192x320x2048");
    int vendor = !ladder_skip_baselines();
    ladder_check reference = {0};
    if (vendor) {
        const ladder_variant *cublas = &hgemm_case.variants[ladder_find_variant(&hgemm_case, "cublas")];
        reference = ladder_validate_variant(&hgemm_case, state, cublas, 7);
        printf("cuBLAS at 192x320x2048: error %.2e\n", reference.rel_error);
    }
    for (int r = 0; r < hgemm_case.variant_count; ++r) {
        const ladder_variant *v = &hgemm_case.variants[r];
        if (hgemm_case.unsupported(state, v) || (v->flags & LADDER_BASELINE)) continue;
        ladder_check first = ladder_validate_variant(&hgemm_case, state, v, 7);
        float *once = copy_output(&hgemm_case, state, v);
        ladder_check second = ladder_validate_variant(&hgemm_case, state, v, 7);
        float *twice = copy_output(&hgemm_case, state, v);
        int same = memcmp(once, twice, hgemm_case.output(state, v).bytes) == 0;
        printf("%-20s error %.2e (%.2fx cuBLAS), repeat %s\n", v->name, first.rel_error,
               first.rel_error / reference.rel_error, same ? "identical" : "DIFFERS");
        EXPECT(first.passed && second.passed && same);
        if (vendor) EXPECT(first.rel_error <= 8 * reference.rel_error + 1e-7);
        free(once);
        free(twice);
    }
    hgemm_case.destroy(state);
    return test_result("hgemm_gpu_test");
}
