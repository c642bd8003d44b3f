/* The occupancy calculator against the textbook, against hand-worked cases on
 * the architectures people use, against a brute-force definition (add blocks
 * until one resource runs out), and on inputs that mean nothing. */
#include <stdlib.h>
#include <string.h>

#include "occupancy_calc.h"
#include "harness/check/rng.h"
#include "harness/testing/test_util.h"

static ladder_occupancy occupancy_at(int major, int minor, int threads, int regs, long long smem)
{
    ladder_sm_limits limits;
    ladder_occupancy r;
    char err[160];
    memset(&r, 0, sizeof r);
    if (ladder_sm_limits_for(major, minor, &limits) != 0) {
        fprintf(stderr, "no limits for %d.%d\n", major, minor);
        ++test_failures;
        return r;
    }
    if (ladder_occupancy_compute(&limits, threads, regs, smem, &r, err, sizeof err) != 0) {
        fprintf(stderr, "%d.%d %d threads %d regs %lld bytes: %s\n", major, minor, threads, regs, smem, err);
        ++test_failures;
    }
    return r;
}

/* blocks, warps, limiter, and the occupancy to 1e-9. */
static void expect_occupancy(int major, int minor, int threads, int regs, long long smem, int blocks,
                             ladder_limiter limiter, double occupancy)
{
    ladder_occupancy r = occupancy_at(major, minor, threads, regs, smem);
    char what[160];
    snprintf(what, sizeof what, "cc %d.%d, %d threads, %d regs, %lld B: %d blocks (%s), occupancy %.3f", major, minor,
             threads, regs, smem, blocks, ladder_limiter_name(limiter), occupancy);
    expect(r.blocks_per_sm == blocks && r.limiter == limiter && fabs(r.occupancy - occupancy) < 1e-9 &&
               r.warps_per_sm == blocks * ((threads + 31) / 32),
           what);
    if (r.blocks_per_sm != blocks || r.limiter != limiter)
        fprintf(stderr, "  got %d blocks (%s), occupancy %.4f\n", r.blocks_per_sm, ladder_limiter_name(r.limiter),
                r.occupancy);
}

static void test_textbook(void)
{
    /* G80: 768 threads, 8 blocks, 8K registers per SM. 256 threads at 10
     * registers: 3 x 2560 = 7680 registers, 3 blocks (the threads run out
     * at the same time); at 11: 2816 per block, a third does not fit. */
    expect_occupancy(1, 0, 256, 10, 0, 3, LADDER_LIMIT_THREADS, 1.0);
    expect_occupancy(1, 0, 256, 11, 0, 2, LADDER_LIMIT_REGISTERS, 16.0 / 24);
    expect_occupancy(1, 0, 64, 10, 0, 8, LADDER_LIMIT_BLOCKS, 16.0 / 24);
    /* GT200: twice the registers, 1024 threads */
    expect_occupancy(1, 3, 256, 16, 0, 4, LADDER_LIMIT_THREADS, 1.0);
    expect_occupancy(1, 3, 256, 17, 0, 3, LADDER_LIMIT_REGISTERS, 24.0 / 32);
    /* 1.x counts a block's warps in pairs: 3 warps cost as much as 4 */
    expect_occupancy(1, 0, 96, 16, 0, 4, LADDER_LIMIT_REGISTERS, 12.0 / 24);
    /* shared memory in 512-byte units: 5000 B takes 5120 */
    expect_occupancy(1, 0, 32, 4, 5000, 3, LADDER_LIMIT_SHARED_MEMORY, 3.0 / 24);
}

static void test_modern(void)
{
    /* 2.0: registers per warp in 64s, two sub-partitions: 21 regs -> 704 per
     * warp, 23 warps per half, 46 warps, 5 blocks of 8 warps. */
    expect_occupancy(2, 0, 256, 21, 0, 5, LADDER_LIMIT_REGISTERS, 40.0 / 48);
    /* 6.0 has two sub-partitions, 6.1 four: 48 regs, 2-warp blocks. */
    expect_occupancy(6, 0, 64, 48, 0, 21, LADDER_LIMIT_REGISTERS, 42.0 / 64);
    expect_occupancy(6, 1, 64, 48, 0, 20, LADDER_LIMIT_REGISTERS, 40.0 / 64);
    /* 7.5: 32 warps, 16 blocks per SM */
    expect_occupancy(7, 5, 128, 32, 0, 8, LADDER_LIMIT_THREADS, 1.0);
    expect_occupancy(7, 5, 256, 72, 0, 3, LADDER_LIMIT_REGISTERS, 24.0 / 32);
    expect_occupancy(7, 5, 128, 16, 20000, 3, LADDER_LIMIT_SHARED_MEMORY, 12.0 / 32);
    /* 8.0: 40 regs -> 1280 per warp, 12 warps per sub-partition, 48 warps */
    expect_occupancy(8, 0, 256, 40, 0, 6, LADDER_LIMIT_REGISTERS, 48.0 / 64);
    /* 8.0: 48 KB + the 1 KB reserve = 50176 B, 3 in 164 KB */
    expect_occupancy(8, 0, 128, 32, 48 * 1024, 3, LADDER_LIMIT_SHARED_MEMORY, 12.0 / 64);
    /* 8.6: 1536 threads; 1024-thread blocks leave a third of the warps empty */
    expect_occupancy(8, 6, 1024, 32, 0, 1, LADDER_LIMIT_THREADS, 32.0 / 48);
    expect_occupancy(8, 6, 768, 32, 0, 2, LADDER_LIMIT_THREADS, 1.0);
    expect_occupancy(8, 6, 64, 16, 0, 16, LADDER_LIMIT_BLOCKS, 32.0 / 48);
    expect_occupancy(8, 9, 64, 16, 0, 24, LADDER_LIMIT_THREADS, 1.0);
    /* 9.0 */
    expect_occupancy(9, 0, 1024, 64, 0, 1, LADDER_LIMIT_REGISTERS, 0.5);
    expect_occupancy(9, 0, 96, 40, 0, 16, LADDER_LIMIT_REGISTERS, 48.0 / 64);
    expect_occupancy(9, 0, 128, 0, 227 * 1024, 1, LADDER_LIMIT_SHARED_MEMORY, 4.0 / 64);
    expect_occupancy(9, 0, 256, 32, 0, 8, LADDER_LIMIT_THREADS, 1.0);
    expect_occupancy(12, 0, 32, 8, 0, 24, LADDER_LIMIT_BLOCKS, 0.5);
}

static void test_carveout(void)
{
    ladder_occupancy r = occupancy_at(8, 0, 256, 40, 0); /* 6 blocks x 1 KB reserve: the 8 KB split */
    expect(r.carveout_kb == 8, "8.0, 6 blocks of 1 KB: carveout 8 KB");
    r = occupancy_at(8, 0, 128, 32, 48 * 1024); /* 3 x 50176 B = 147 KB: the 164 KB split */
    expect(r.carveout_kb == 164 && r.smem_per_block == 50176, "8.0, 3 blocks of 49 KB: carveout 164 KB");
    r = occupancy_at(7, 5, 128, 32, 0);
    expect(r.carveout_kb == 32, "7.5, no shared memory: the smaller of its two splits, 32 KB");
    r = occupancy_at(6, 1, 128, 32, 0);
    expect(r.carveout_kb == -1, "6.1: no carveout to choose");
}

static void test_cannot_launch(void)
{
    ladder_occupancy r = occupancy_at(9, 0, 128, 0, 227 * 1024 + 1);
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_SHARED_MEMORY && r.occupancy == 0 &&
               strstr(r.reason, "a block may have 232448"),
           "9.0, one byte over 227 KB: 0 blocks, shared memory, a reason");
    r = occupancy_at(9, 0, 1024, 65, 0); /* 2304 x 32 warps > 65536 */
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_REGISTERS && r.reason[0],
           "9.0, 1024 threads at 65 registers: 0 blocks, registers");
    r = occupancy_at(9, 0, 1025, 16, 0);
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_THREADS && strstr(r.reason, "allows 1024"),
           "9.0, 1025 threads: 0 blocks, threads");
    r = occupancy_at(1, 0, 513, 4, 0);
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_THREADS, "1.0, 513 threads: 0 blocks");
    r = occupancy_at(9, 0, 128, 256, 0);
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_REGISTERS && strstr(r.reason, "allows 255"),
           "9.0, 256 registers per thread: 0 blocks, registers");
    r = occupancy_at(2, 0, 128, 64, 0);
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_REGISTERS, "2.0, 64 registers (63 at most): 0 blocks");
    /* 3.2 lets a block have half the register file; 3.5 all of it */
    r = occupancy_at(3, 2, 1024, 40, 0);
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_REGISTERS, "3.2, 1024 threads at 40 regs: 0 blocks");
    expect_occupancy(3, 5, 1024, 40, 0, 1, LADDER_LIMIT_REGISTERS, 0.5);
    /* several at fault: the first in limiter order is named */
    r = occupancy_at(9, 0, 2048, 300, 1 << 20);
    expect(r.blocks_per_sm == 0 && r.limiter == LADDER_LIMIT_THREADS, "everything too big: threads named first");
}

static void test_bad_input(void)
{
    ladder_sm_limits limits;
    expect(ladder_sm_limits_for(4, 0, &limits) != 0, "no 4.0");
    expect(ladder_sm_limits_for(7, 1, &limits) != 0, "no 7.1");
    expect(ladder_sm_limits_for(13, 0, &limits) != 0, "no 13.0");
    EXPECT(ladder_sm_limits_for(9, 0, &limits) == 0);
    ladder_occupancy r;
    char err[160] = "";
    expect(ladder_occupancy_compute(&limits, 0, 32, 0, &r, err, sizeof err) != 0 && strstr(err, "at least 1"),
           "0 threads: an error");
    expect(ladder_occupancy_compute(&limits, -5, 32, 0, &r, err, sizeof err) != 0, "-5 threads: an error");
    expect(ladder_occupancy_compute(&limits, 128, -1, 0, &r, err, sizeof err) != 0 && strstr(err, "registers"),
           "-1 registers: an error");
    expect(ladder_occupancy_compute(&limits, 128, 32, -1, &r, err, sizeof err) != 0 && strstr(err, "shared"),
           "-1 bytes: an error");
    expect(strcmp(ladder_limiter_name(LADDER_LIMIT_THREADS), "threads") == 0 &&
               strcmp(ladder_limiter_name(LADDER_LIMIT_BLOCKS), "blocks") == 0 &&
               strcmp(ladder_limiter_name(LADDER_LIMIT_REGISTERS), "registers") == 0 &&
               strcmp(ladder_limiter_name(LADDER_LIMIT_SHARED_MEMORY), "shared memory") == 0,
           "limiter names");
}

/* The table's rows agree with themselves and with the products they name. */
static void test_table(void)
{
    static const int ccs[][2] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}, {2, 1}, {3, 0}, {3, 2}, {3, 5}, {3, 7},
                                 {5, 0}, {5, 2}, {5, 3}, {6, 0}, {6, 1}, {6, 2}, {7, 0}, {7, 2}, {7, 5}, {8, 0},
                                 {8, 6}, {8, 7}, {8, 9}, {9, 0}, {10, 0}, {10, 3}, {11, 0}, {12, 0}, {12, 1}};
    int consistent = 1;
    for (size_t i = 0; i < sizeof ccs / sizeof ccs[0]; ++i) {
        ladder_sm_limits l;
        if (ladder_sm_limits_for(ccs[i][0], ccs[i][1], &l) != 0) {
            fprintf(stderr, "missing %d.%d\n", ccs[i][0], ccs[i][1]);
            consistent = 0;
            continue;
        }
        int ok = l.cc_major == ccs[i][0] && l.cc_minor == ccs[i][1] && l.max_threads_per_block <= l.max_warps_per_sm * 32 &&
                 l.smem_per_block + l.smem_reserved_per_block <= l.smem_per_sm && l.regs_per_block <= l.regs_per_sm &&
                 (l.carveout_count == 0) == (l.cc_major < 7) &&
                 (l.smem_reserved_per_block == 1024) == (l.cc_major >= 8);
        if (l.carveout_count) ok &= l.carveout_kb[l.carveout_count - 1] * 1024 == l.smem_per_sm;
        /* the smallest block fills every block slot */
        ladder_occupancy r = occupancy_at(ccs[i][0], ccs[i][1], 1, 0, 0);
        ok &= r.blocks_per_sm == l.max_blocks_per_sm && r.limiter == LADDER_LIMIT_BLOCKS;
        if (!ok) fprintf(stderr, "row %d.%d is inconsistent\n", ccs[i][0], ccs[i][1]);
        consistent &= ok;
    }
    expect(consistent, "every row from 1.0 to 12.1 is present and consistent");
    ladder_sm_limits h100, a100, rtx3090, t4;
    ladder_sm_limits_for(9, 0, &h100);
    ladder_sm_limits_for(8, 0, &a100);
    ladder_sm_limits_for(8, 6, &rtx3090);
    ladder_sm_limits_for(7, 5, &t4);
    expect(h100.max_warps_per_sm == 64 && h100.max_blocks_per_sm == 32 && h100.smem_per_sm == 233472 &&
               h100.smem_per_block == 232448,
           "9.0: 2048 threads, 32 blocks, 228 KB per SM, 227 KB per block (cudaDeviceProp of an H100)");
    expect(a100.smem_per_sm == 167936 && a100.smem_per_block == 166912, "8.0: 164 KB per SM, 163 KB per block");
    expect(rtx3090.max_warps_per_sm == 48 && rtx3090.max_blocks_per_sm == 16 && rtx3090.smem_per_sm == 102400,
           "8.6: 1536 threads, 16 blocks, 100 KB");
    expect(t4.max_warps_per_sm == 32 && t4.max_blocks_per_sm == 16 && t4.smem_per_sm == 65536,
           "7.5: 1024 threads, 16 blocks, 64 KB");
}

/* The definition, without the calculator's shortcuts: add blocks one at a
 * time while every resource still holds them all. Registers: each of the
 * sub-partitions takes its share of the warps, the fullest one must fit. */
static int brute_force_blocks(const ladder_sm_limits *l, int threads, int regs, long long smem)
{
    int warps = (threads + 31) / 32;
    if (threads > l->max_threads_per_block || regs > l->max_regs_per_thread || smem > l->smem_per_block) return 0;
    long long per_warp = (32LL * regs + l->reg_alloc_unit - 1) / l->reg_alloc_unit * l->reg_alloc_unit;
    int sub = l->warp_alloc_granularity;
    if (per_warp * ((warps + sub - 1) / sub * sub) > l->regs_per_block) return 0;
    long long per_block_smem = smem + l->smem_reserved_per_block;
    per_block_smem = (per_block_smem + l->smem_alloc_unit - 1) / l->smem_alloc_unit * l->smem_alloc_unit;
    int blocks = 0;
    for (;;) {
        int b = blocks + 1;
        int fullest_sub_partition = (b * warps + sub - 1) / sub;
        if (b > l->max_blocks_per_sm || b * warps > l->max_warps_per_sm ||
            (long long)fullest_sub_partition * per_warp > l->regs_per_sm / sub || b * per_block_smem > l->smem_per_sm)
            return blocks;
        blocks = b;
    }
}

static void test_brute_force(void)
{
    static const int ccs[][2] = {{2, 0}, {3, 5}, {5, 2}, {6, 0}, {7, 0}, {7, 5}, {8, 0}, {8, 6}, {8, 9}, {9, 0}, {12, 0}};
    int agree = 1, checked = 0;
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0]; ++c) {
        ladder_sm_limits l;
        ladder_sm_limits_for(ccs[c][0], ccs[c][1], &l);
        for (uint64_t k = 0; k < 4000; ++k) {
            int threads = 1 + (int)ladder_random_below(c, 3 * k, 1024);
            int regs = 1 + (int)ladder_random_below(c, 3 * k + 1, 255);
            long long smem = (long long)ladder_random_below(c, 3 * k + 2, (uint64_t)l.smem_per_block / 2 + 1);
            if (k % 4 == 0) smem = 0;
            ladder_occupancy r;
            char err[160];
            ladder_occupancy_compute(&l, threads, regs, smem, &r, err, sizeof err);
            int want = brute_force_blocks(&l, threads, regs, smem);
            if (r.blocks_per_sm != want && agree) {
                fprintf(stderr, "cc %d.%d %d threads %d regs %lld B: calculator %d, brute force %d\n", l.cc_major,
                        l.cc_minor, threads, regs, smem, r.blocks_per_sm, want);
                agree = 0;
            }
            ++checked;
        }
    }
    char what[100];
    snprintf(what, sizeof what, "%d random configurations on 11 capabilities: the brute-force count", checked);
    expect(agree, what);
}

int main(void)
{
    test_textbook();
    test_modern();
    test_carveout();
    test_cannot_launch();
    test_bad_input();
    test_table();
    test_brute_force();
    return test_result("occupancy_calc_test");
}
