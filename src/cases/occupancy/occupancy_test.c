/* CPU tests of the occupancy case: the shared-memory sizes that force each
 * occupancy level, on the architectures with different limits, and the
 * ladder's table. */
#include <string.h>

#include "harness/case.h"
#include "harness/testing/test_util.h"
#include "occupancy.h"

extern const ladder_case occupancy_case;

/* With the size found, `blocks` allocations fit the SM and one more does
 * not; and the calculator agrees. */
static void expect_forced(int major, int minor, int threads, int regs, int static_smem, int blocks)
{
    ladder_sm_limits l;
    EXPECT(ladder_sm_limits_for(major, minor, &l) == 0);
    int dynamic = occupancy_forcing_smem(&l, threads, regs, static_smem, blocks);
    long long unit = l.smem_alloc_unit;
    long long allocation = (dynamic + static_smem + l.smem_reserved_per_block + unit - 1) / unit * unit;
    ladder_occupancy r;
    char err[160], what[160];
    int computed = ladder_occupancy_compute(&l, threads, regs, static_smem + (long long)dynamic, &r, err, sizeof err);
    snprintf(what, sizeof what, "cc %d.%d: %d blocks of %d threads forced by %d bytes", major, minor, blocks, threads,
             dynamic);
    expect(dynamic >= 0 && blocks * allocation <= l.smem_per_sm && (blocks + 1) * allocation > l.smem_per_sm &&
               computed == 0 && r.blocks_per_sm == blocks && r.blocks_by_limit[LADDER_LIMIT_SHARED_MEMORY] == blocks,
           what);
}

static void test_forcing(void)
{
    static const int levels[] = {1, 2, 3, 4, 6, 8, 12, 16};
    for (int i = 0; i < 8; ++i) {
        expect_forced(9, 0, 128, 16, 0, levels[i]);
        expect_forced(8, 0, 128, 16, 0, levels[i]);
        expect_forced(10, 0, 128, 30, 512, levels[i]);
    }
    for (int i = 0; i < 7; ++i) expect_forced(8, 6, 128, 16, 0, levels[i]); /* 48 warps: 12 blocks at most */
    for (int i = 0; i < 6; ++i) expect_forced(7, 5, 128, 16, 0, levels[i]); /* 32 warps: 8 blocks */
    ladder_sm_limits l;
    ladder_sm_limits_for(9, 0, &l);
    expect(occupancy_forcing_smem(&l, 9, 0, 0, 1) == 232448, "9.0, one block: all 227 KB a block may have");
    expect(l.smem_per_sm == 233472, "9.0: 228 KB per SM");
    ladder_sm_limits_for(8, 6, &l);
    expect(occupancy_forcing_smem(&l, 128, 16, 0, 16) == -1, "8.6: 16 blocks of 128 threads cannot be forced (48 warps)");
    ladder_sm_limits_for(7, 5, &l);
    expect(occupancy_forcing_smem(&l, 128, 16, 0, 12) == -1, "7.5: 12 blocks of 128 threads cannot be forced");
    ladder_sm_limits_for(9, 0, &l);
    expect(occupancy_forcing_smem(&l, 128, 200, 0, 4) == -1, "registers allow fewer blocks than asked: -1");
}

static void test_table(void)
{
    int unique = 1, baseline_last = occupancy_case.variants[occupancy_case.variant_count - 1].flags & LADDER_BASELINE;
    for (int i = 0; i < occupancy_case.variant_count; ++i)
        for (int j = i + 1; j < occupancy_case.variant_count; ++j)
            unique &= strcmp(occupancy_case.variants[i].name, occupancy_case.variants[j].name) != 0;
    expect(unique && baseline_last, "variant names unique, the baseline last");
    expect(strcmp(occupancy_case.variants[0].name, "blocks_per_sm_1") == 0, "rung 0: the lowest forced occupancy");
    int blocks_sweep = 0;
    for (int i = 0; i < occupancy_case.variant_count; ++i)
        blocks_sweep += strncmp(occupancy_case.variants[i].name, "block_", 6) == 0 &&
                        occupancy_case.variants[i].param % 32 == 0 && occupancy_case.variants[i].param >= 32 &&
                        occupancy_case.variants[i].param <= 1024;
    expect(blocks_sweep == 8, "block sizes: 8 multiples of 32 from 32 to 1024");
}

int main(void)
{
    test_forcing();
    test_table();
    return test_result("occupancy_test");
}
