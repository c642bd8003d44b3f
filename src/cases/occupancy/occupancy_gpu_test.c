/* GPU test: the calculator against cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * on the probe kernels (registers from the compiler, capped by launch bounds
 * and __maxnreg__; static and dynamic shared memory; odd block sizes), each
 * probe launched and its output checked; then the copy kernel at every level
 * the case forces. Exits 77 without a GPU. */
#include "harness/check/check.h"
#include "harness/testing/test_util.h"
#include "occupancy.h"

static void test_probes(const ladder_sm_limits *limits)
{
    int count = occupancy_probe_count();
    expect(count >= 20, "at least 20 kernel configurations");
    for (int i = 0; i < count; ++i) {
        occupancy_probe p;
        occupancy_probe_run(i, limits->smem_per_block, &p);
        ladder_occupancy r;
        char err[160], what[200];
        int computed = ladder_occupancy_compute(limits, p.threads, p.regs, (long long)p.static_smem + p.dynamic_smem,
                                                &r, err, sizeof err);
        snprintf(what, sizeof what, "%-22s %4d thr %3d regs %6d+%-6d B: API %2d, calculator %2d (%s)%s", p.name,
                 p.threads, p.regs, p.static_smem, p.dynamic_smem, p.api_blocks, r.blocks_per_sm,
                 ladder_limiter_name(r.limiter), p.launched ? ", ran" : "");
        expect(computed == 0 && r.blocks_per_sm == p.api_blocks && p.mismatches == 0, what);
        if (p.api_error) printf("  the occupancy API said: %s\n", p.api_error);
        if (p.mismatches) printf("  %d output elements differ from the host's\n", p.mismatches);
    }
}

static void test_forced_levels(const ladder_sm_limits *limits)
{
    int regs, static_smem;
    occupancy_copy_attributes(&regs, &static_smem);
    occupancy_copy_allow_smem(limits->smem_per_block - static_smem);
    static const int levels[] = {1, 2, 3, 4, 6, 8, 12, 16};
    for (int i = 0; i < 8; ++i) {
        int dynamic = occupancy_forcing_smem(limits, 128, regs, static_smem, levels[i]);
        if (dynamic < 0) continue; /* beyond this GPU's warps or block slots; the case skips it */
        char what[160];
        int api = occupancy_copy_api_blocks(128, dynamic);
        snprintf(what, sizeof what, "copy, 128 threads, %d regs, %d B of dynamic shared memory: %d blocks (API %d)",
                 regs, dynamic, levels[i], api);
        expect(api == levels[i], what);
    }
}

int main(void)
{
    ladder_sm_limits limits;
    char err[512];
    if (ladder_sm_limits_for_device(0, &limits, err, sizeof err) != 0) {
        printf("skipped: %s\n", err);
        return LADDER_EXIT_SKIP_TEST;
    }
    CUDA_CHECK(cudaSetDevice(0));
    printf("device 0: compute capability %d.%d, %d warps, %d blocks, %d registers, %d B shared per SM\n",
           limits.cc_major, limits.cc_minor, limits.max_warps_per_sm, limits.max_blocks_per_sm, limits.regs_per_sm,
           limits.smem_per_sm);
    ladder_sm_limits table;
    if (ladder_sm_limits_for(limits.cc_major, limits.cc_minor, &table) == 0) {
        expect(table.max_warps_per_sm == limits.max_warps_per_sm && table.max_blocks_per_sm == limits.max_blocks_per_sm &&
                   table.regs_per_sm == limits.regs_per_sm && table.regs_per_block == limits.regs_per_block &&
                   table.smem_per_sm == limits.smem_per_sm && table.smem_per_block == limits.smem_per_block &&
                   table.smem_reserved_per_block == limits.smem_reserved_per_block &&
                   table.max_threads_per_block == limits.max_threads_per_block,
               "the table's row for this capability matches what the device reports");
    }
    test_probes(&limits);
    test_forced_levels(&limits);
    return test_result("occupancy_gpu_test");
}
