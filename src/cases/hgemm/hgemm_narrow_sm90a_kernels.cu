/* HGEMM rung 13, narrow tiles of B (M from 65 to 256): the product
 * unswapped, B's tiles as narrow as fill the SMs, on the warp-specialized
 * kernel of hgemm_warp_specialized.cuh. sm_90a only, as
 * hgemm_sm90a_kernels.cu. */
#include "hgemm_warp_specialized.cuh"

/* ---- Rung 13: narrow tiles of B -------------------------------------------- */

/* Rung 13, narrow_tiles: for M from 129 to 256 (from 65: the end of this
 * comment) the product unswapped again, as rung 10 runs it (A's rows in
 * two tile rows of 128, whose two blocks form a cluster and share B's tile
 * by multicast), but with B's tiles 80 wide (wgmma m64n80k16, 8 stages of
 * 26 KB): 2 x N / 80 tiles, where swap_ab's 64- to 192-row tiles of B come
 * in steps too coarse to fill a wave (250 x 5000 x 3000: 126 tiles here,
 * 80 there). cuBLAS's own choice at that shape (Nsight Compute, H100:
 * nvjet 80x128, 128 blocks in clusters of two). A's rows past M (6 at M =
 * 250, 96 at M = 160) are wasted work. Measured (H100, one call, ratio to
 * cuBLAS, against swap_ab):
 *   250 x 5000 x 3000   0.698 against 0.627     200 x 5000 x 3000   0.817 against 0.710
 *   256 x 5000 x 3000   0.695 against 0.630     160 x 5000 x 3000   0.576 against 0.545
 *   240 x 5120 x 4096   0.884 against 0.815     250 x 5000 x 8192   1.090 against 0.977
 *   250 x 4096 x 4096   0.944 against 0.963     256 x 4096 x 4096   0.918 against 0.939
 * A second call, the rung built: 0.691 against 0.634, 0.985 against 0.805
 * at 240 x 5120 x 4096, 0.795 against 0.716 at 200 x 5000 x 3000. It wins
 * where its tiles outnumber swap_ab's within a wave, and loses where
 * swap_ab's 64-row tiles already fill one (128 tiles at N = 4096 against
 * its 104). cuBLAS is still 1.4x faster at 250 x 5000 x 3000 (K = 3000:
 * rows 6000 bytes apart, so a 128-byte box row spans two L2 lines; rung 12
 * tells what that costs). Nsight Compute there (H100): this rung 126
 * blocks, 2.28M L2 read requests, 4.44M sectors, 46.4K cycles a busy SM;
 * cuBLAS 128 blocks, 1.88M, 3.92M, 32.2K. Its clusters of two lie along
 * B's rows and share A's tile (128 + 80 / 2 box rows a block a k-tile here,
 * 128 / 2 + 80 there). That orientation was tried and dropped (the kernel
 * taking SHARE_A: a unit is two tiles side by side in one tile row, each
 * block bringing 64 of A's 128 rows into both): H100, one call, 0.769
 * against 0.698 at 250 x 5000 x 3000, but 0.760 against 0.873 at 240 x
 * 5120 x 4096, 0.740 against 0.813 at 200 x 5000 x 3000, 0.844 against
 * 0.955 at 250 x 5000 x 3072, 0.474 against 0.582 at 160 x 5000 x 3000.
 * Then as wide as a wave needs (hgemm_narrow_width): 80 wide fills one
 * wave up to N = 5280 on 132 SMs; past it the tiles ran in 1.2 to 2 waves
 * (216 x 9216: 232 tiles), where a tile 144 wide gives 128 in one
 * (cuBLAS's 144 x 128 there), each tile column read by all of A's rows.
 * H200, one call, two rounds, ratio to cuBLAS against 80 wide: 0.913-0.927
 * against 0.67-0.71 at 216 x 9216 x 4096 (144 wide), 0.903-0.907 against
 * 0.58 at 256 x 11008 x 4096 (176), 1.027-1.029 against 0.79-0.80 at 256 x
 * 14336 x 4096 (224). Not kept: 64 wide where N <= 4224 (0.94 against 0.88
 * at 250 x 4096 x 4096, still behind swap_ab's 0.96), and cuBLAS's form at
 * 240 x 5120 x 4096, four blocks along N sharing A's tile (39.3 against
 * 24.2 us: 32 clusters of four where 30 fit at once).
 * Then past 256 wide, 272 to 320 (wgmma_k_tile: two wgmmas of half the
 * width a k-step, 144 to 160 accumulators within the kernel's 168
 * registers, no spills; 4 stages): 256 x 18000 x 4096 makes 126 tiles of
 * 128 x 288 in one wave, as cuBLAS's nvjet 288x128 does (Nsight Compute,
 * H200), where swap_ab ran 132 tiles of 128 x 256 whole and the last 9 in
 * 14 slices of K, their partials summed by a second kernel: 12.4 us for
 * the last 7% of the work (50.4 us for 256 x 16896 x 4096, one wave of
 * those tiles). H200, one call, two rounds, ratio to cuBLAS, against
 * swap_ab (the better rung before):
 *   256 x 17024 x 4096   0.979-0.984 against 0.907-0.911 (272 wide)
 *   256 x 18000 x 4096   0.955-0.957 against 0.871-0.876 (288)
 *   256 x 19008 x 4096   0.944 against 0.836-0.838 (288)
 *   256 x 20000 x 4096   1.002-1.004 against 0.902-0.905 (304)
 *   256 x 21000 x 4096   0.975-0.979 against 0.877-0.878 (320)
 *   240 x 20000 x 4096   1.005-1.010 against 0.930-0.936 (304)
 *   256 x 17500 x 2048   3.22 against 2.92 (cuBLAS slow there)
 * behind swap_ab where A's rows are far from 256 (0.93 against 0.96-0.97
 * at 200 x 20480 x 4096, 0.84-0.86 against 0.87-0.97 at 192 x 19000 x 4096
 * and 176 x 18000 x 8192). Nsight Compute at 256 x 18000 x 4096 (the
 * profiler's clocks): 71.4-71.8 us against cuBLAS's 67.5, the tensor pipe
 * busy 84-85% of the active cycles against 88%.
 * Then, where A's rows are 192 or fewer, one tile row of 192 (three
 * consumers, no cluster, 80 to 192 wide) where an SM makes fewer elements
 * with it (hgemm_narrow_rows): at 192 x 19000, 132 tiles of 192 x 144, where
 * two rows of 128 took 126 of 128 x 288 and swap_ab 99 of 192 x 192. H200,
 * one call, two rounds, ratio to cuBLAS, against two tile rows of 128 (a
 * scratch switch), and swap_ab's in the same call:
 *   192 x 19000 x 4096   0.979-0.987 against 0.842-0.844 (swap_ab 0.872-0.873)
 *   176 x 18000 x 8192   1.015-1.056 against 0.850-0.865 (0.944-0.950)
 *   192 x 24576 x 4096   0.953-0.954 against 0.616-0.617 (0.960-0.961)
 *   150 x 22000 x 4096   0.882-0.887 against 0.549-0.550 (0.990-0.992)
 *   160 x 16384 x 4096   0.831-0.845 against 0.785-0.786 (0.982-1.001)
 *   160 x 9216 x 4096    0.809-0.833 against 0.717-0.720 (1.004-1.006)
 *   129 x 20000 x 4096   0.790-0.805 against 0.784-0.789 (1.022-1.023)
 *   129 x 12000 x 4096   0.641-0.645 against 0.568-0.573 (0.949-0.952)
 * and faster at the four other shapes measured (144 x 11008, 160 x 14336,
 * 192 x 12288 x 4096, 137 x 8500 x 3072): where swap_ab's tiles fill a wave
 * it stays ahead; the tall tiles fill the waves it cannot.
 * Then down to 65 of A's rows, in one tile row of 128 (the rows past M
 * zeros from the copy engine), its tiles side by side in pairs: a cluster
 * of two along B's rows that share A's tile, each block bringing 64 of its
 * rows into both (a_rows64). cuBLAS's form there: nvjet 288x128 2x1 at
 * 120 x 36000 x 3000, 136x128 2x1 at 110 x 17000 x 3000, 126 blocks in one
 * wave (Nsight Compute, H200), where swap_ab's 64-row tiles in fours took
 * 80.5 against 64.3 us and 48.0 against 34.8. Past 256 wide, B's tile
 * comes in two boxes (a box spans HGEMM_MAX_BOX_ROWS). The widths are the
 * two tile rows' rule with one (hgemm_narrow_width). K = 3000 puts rows
 * off the 128-byte grid (2.25 requests a box row), and the copy engine's
 * requests bound these tiles: a block asks for 288 + 64 box rows a k-tile
 * in a pair, 288 + 128 alone. H200, one call, two rounds, ratio to cuBLAS,
 * in pairs against alone (a scratch switch; swap_ab's in the same call):
 *   120 x 36000 x 3000   0.966-0.971 against 0.926 (swap_ab 0.879)
 *   100 x 34000 x 3000   0.979 against 0.938 (0.884)
 *   110 x 17000 x 3000   0.940-0.951 against 0.810 (0.829)
 *   120 x 18000 x 3000   0.971-0.972 against 0.820 (0.817)
 *   128 x 20000 x 8192   0.990-1.023 against 1.009 (0.952)
 *   128 x 33000 x 2500   2.02 against 1.83 (1.74; cuBLAS slow there)
 * level with swap_ab at 96 x 36000 x 6000 (1.02) and 128 x 16384 x 4096
 * (0.99), and behind it where its tiles fill a wave and these do not
 * (80 wide at the narrowest): 0.81 against 1.00 at 100 x 8000 x 4096,
 * 0.80 against 0.99 at 128 x 4096 x 4096; and 0.905-0.939 against 0.994
 * at 77 x 20000 x 3000, 0.963 against 0.992 at 70 x 30000 x 5000, where
 * A's rows fill little more than half the tile. Not kept: in one tile row,
 * widths in wgmma's steps of 8 up to 256 (the narrowest in a wave; 136 at
 * 110 x 17000, cuBLAS's): H200, one call, two rounds, us, against the
 * steps of 16: 35.6-35.7 against 36.5-36.6 at 110 x 17000 x 3000 (136,
 * 125 tiles; 144, 119), but 59.0-59.1 against 55.8-55.9 at 104 x 19200 x
 * 5120 (152; 160), 32.3-32.4 against 31.7 at 100 x 11000 x 4096 (88; 96),
 * 42.0-42.1 against 41.3-41.4 at 87 x 17001 x 3000 (136; 144), 42.6
 * against 42.1-42.3 at 77 x 20000 x 3000 (152; 160), level at 70 x 30000
 * x 5000, 128 x 20000 x 8192 and 66 x 22000 x 8192. */
template <int WIDTH>
struct narrow_tile {
    static constexpr int STAGES = HGEMM_RING_STAGES(2, WIDTH), TALL_STAGES = HGEMM_RING_STAGES(3, WIDTH);
    static constexpr bool TALL = WIDTH <= HGEMM_THREE_CONSUMERS_MAX_WIDTH;
    static void launch(const hgemm_problem *p, cudaStream_t stream)
    {
        if constexpr (TALL)
            if (p->narrow_rows == HGEMM_NARROW_TALL_ROWS) {
                launch_warp_specialized<WIDTH, TALL_STAGES, true, 1, false, 3>(
                    p->a_rows192, p->b_rows_narrow, p->c, nullptr, p->m, p->n, p->k, 1, 0, multiprocessors(), stream);
                return;
            }
        if (hgemm_narrow_tile_rows(p->m) == 1)
            launch_warp_specialized<WIDTH, STAGES, true, 1, false, 2, 0, 2>(
                p->a_rows64, p->b_rows_narrow, p->c, nullptr, p->m, p->n, p->k, 1, 0, multiprocessors(), stream);
        else
            launch_warp_specialized<WIDTH, STAGES, true, 2>(p->a_rows128, p->b_rows_narrow, p->c, nullptr, p->m,
                                                            p->n, p->k, 1, 0, multiprocessors(), stream);
    }
    static constexpr size_t SHARED_BYTES =
        std::max(ws_shape<WIDTH, STAGES>::SHARED_BYTES, TALL ? ws_shape<WIDTH, TALL_STAGES, 3>::SHARED_BYTES : 0);
};

typedef tile_widths<narrow_tile, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 272, 288, 304, 320>
    narrow_widths;
static_assert(HGEMM_NARROW_MIN_WIDTH == 80 && HGEMM_NARROW_MAX_WIDTH == 320, "narrow_widths spans the rule's widths");

extern "C" void hgemm_narrow_tiles(const hgemm_problem *p, cudaStream_t stream)
{
    narrow_widths::launch(p->narrow_width, p, stream);
}

size_t hgemm_narrow_shared_bytes()
{
    return narrow_widths::shared_bytes();
}
