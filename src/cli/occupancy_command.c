/* `ladder occupancy`: the occupancy calculator (harness/device/occupancy_calc.h)
 * on the command line, for a GPU or for any compute capability without one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "harness/check/check.h"
#include "harness/device/occupancy_calc.h"

static void parse_compute_capability(const char *text, int *major, int *minor)
{
    char *end;
    long whole = strtol(text, &end, 10);
    if (end == text || *end != '.' || whole < 0 || whole > 99) usage_error("--cc needs X.Y, such as 8.6, not '%s'", text);
    const char *fraction = end + 1;
    long part = strtol(fraction, &end, 10);
    if (end == fraction || *end || part < 0 || part > 9) usage_error("--cc needs X.Y, such as 8.6, not '%s'", text);
    *major = (int)whole;
    *minor = (int)part;
}

/* `ladder occupancy`: the calculator on the command line, with a GPU or
 * without one (--cc). Its own options: --json here is a flag. */
int command_occupancy(int argc, char **argv)
{
    int major = -1, minor = 0, device = -1, threads = 0, regs = 0, json = 0;
    long long smem = 0;
    const char *cc_text = NULL;
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_usage(stdout);
            return 0;
        } else if (strcmp(a, "--cc") == 0) {
            cc_text = option_value(argc, argv, &i);
            parse_compute_capability(cc_text, &major, &minor);
        }
        else if (strcmp(a, "--device") == 0) device = (int)parse_count("--device", option_value(argc, argv, &i), 0, 1024);
        else if (strcmp(a, "--threads") == 0) threads = (int)parse_count("--threads", option_value(argc, argv, &i), 1, 1 << 20);
        else if (strcmp(a, "--regs") == 0) regs = (int)parse_count("--regs", option_value(argc, argv, &i), 0, 1 << 16);
        else if (strcmp(a, "--smem") == 0) smem = parse_count("--smem", option_value(argc, argv, &i), 0, 1L << 30);
        else if (strcmp(a, "--json") == 0) json = 1;
        else usage_error("unknown option '%s' for occupancy", a);
    }
    if ((major < 0) == (device < 0)) usage_error("occupancy needs exactly one of --cc X.Y and --device N%s", "");
    if (threads == 0) usage_error("occupancy needs --threads%s", "");
    ladder_sm_limits limits;
    char err[512];
    if (major >= 0 && ladder_sm_limits_for(major, minor, &limits) != 0)
        usage_error("unknown compute capability '%s' (the table has 1.0 to 12.1)", cc_text);
    if (device >= 0 && ladder_sm_limits_for_device(device, &limits, err, sizeof err) != 0) ladder_die("%s", err);
    ladder_occupancy r;
    if (ladder_occupancy_compute(&limits, threads, regs, smem, &r, err, sizeof err) != 0) usage_error("%s", err);
    const char *limiter = ladder_limiter_name(r.limiter);
    if (json) {
        /* a resource the kernel does not use limits nothing: null */
        static const char *const keys[] = {"threads", "blocks", "registers", "shared_memory"};
        printf("{\"cc\": \"%d.%d\", \"threads\": %d, \"regs\": %d, \"smem\": %lld, \"blocks_per_sm\": %d, "
               "\"warps_per_sm\": %d, \"max_warps_per_sm\": %d, \"occupancy\": %.6f, \"limiter\": \"%s\", "
               "\"blocks_by\": {",
               limits.cc_major, limits.cc_minor, threads, regs, smem, r.blocks_per_sm, r.warps_per_sm,
               r.max_warps_per_sm, r.occupancy, limiter);
        for (int k = 0; k < 4; ++k) {
            if (r.blocks_by_limit[k] >= LADDER_UNLIMITED) printf("%s\"%s\": null", k ? ", " : "", keys[k]);
            else printf("%s\"%s\": %d", k ? ", " : "", keys[k], r.blocks_by_limit[k]);
        }
        printf("}, \"regs_per_block\": %d, \"smem_per_block\": %lld, \"carveout_kb\": %d, \"reason\": \"%s\"}\n",
               r.regs_per_block, r.smem_per_block, r.carveout_kb, r.reason);
        return 0;
    }
    printf("compute capability %d.%d: %d threads per block, %d registers per thread, %lld bytes of shared memory\n",
           limits.cc_major, limits.cc_minor, threads, regs, smem);
    static const char *const resources[] = {"warp slots", "block slots", "registers", "shared memory"};
    for (int k = 0; k < 4; ++k) {
        if (r.blocks_by_limit[k] >= LADDER_UNLIMITED) printf("  %-14s no limit\n", resources[k]);
        else printf("  %-14s %d blocks\n", resources[k], r.blocks_by_limit[k]);
    }
    if (r.blocks_per_sm == 0) {
        printf("0 blocks per SM: cannot launch (%s)\n", r.reason);
        return 0;
    }
    printf("%d blocks per SM, %d of %d warps: occupancy %.1f%%, limited by %s\n", r.blocks_per_sm, r.warps_per_sm,
           r.max_warps_per_sm, 100 * r.occupancy, limiter);
    if (r.carveout_kb >= 0)
        printf("shared memory: %lld bytes per block as allocated; the driver picks the %d KB carveout\n",
               r.smem_per_block, r.carveout_kb);
    return 0;
}
