/* --ncu without ncu: the CSV reader on a report shaped like ncu's raw page
 * (messages, header, units row, quoted template names with commas, numbers
 * with thousands separators, n/a), the marker grouping, the derived ratios,
 * the errors, and how ncu is found. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ncu.h"
#include "harness/testing/test_util.h"

/* Columns in the order ncu might print them, with extras the parser ignores. */
static const char header[] =
    "\"ID\",\"Process ID\",\"Kernel Name\",\"Grid Size\",\"launch__grid_size\",\"gpu__time_duration.sum\","
    "\"dram__bytes_read.sum\",\"dram__bytes_write.sum\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\","
    "\"lts__t_sectors_srcunit_tex_op_read.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\","
    "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\","
    "\"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum\","
    "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"smsp__sass_inst_executed_op_shared_ld.sum\","
    "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum\",\"sm__warps_active.avg.pct_of_peak_sustained_active\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"nsecond\",\"byte\",\"byte\",\"%\",\"sector\",\"sector\",\"request\",\"sector\",\"request\",\"\",\"inst\",\"\",\"%\"\n";

static const char messages[] =
    "==PROF== Connected to process 4242 (/opt/ladder/build/ladder)\n"
    "==PROF== Profiling \"ladder_ncu_variant_marker\": 0%....50%....100% - 1 pass\n";

static const char rows[] =
    /* before any marker: not a variant's */
    "\"0\",\"4242\",\"fill_kernel(float *, unsigned long, unsigned long)\",\"(9, 1, 1)\",\"9\",\"5,000\","
    "\"1\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\"\n"
    /* variant 0: marker, then nothing (a cudaMemcpy) */
    "\"1\",\"4242\",\"ladder_ncu_variant_marker()\",\"(1, 1, 1)\",\"1\",\"1,024\","
    "\"0\",\"0\",\"0.1\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"1\"\n"
    /* variant 2: two kernels */
    "\"2\",\"4242\",\"ladder_ncu_variant_marker()\",\"(3, 1, 1)\",\"3\",\"1,024\","
    "\"0\",\"0\",\"0.1\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"1\"\n"
    "\"3\",\"4242\",\"void tile<64, 4>(const float *, float *, \"\"quoted\"\")\",\"(8, 1, 1)\",\"8\",\"3,000\","
    "\"1,610,634,496\",\"100,000,000\",\"90\",\"25,165,824\",\"25,165,824\",\"786,432\","
    "\"3,145,728\",\"786,432\","
    "\"100\",\"50\",\"7\",\"60\"\n"
    "\"4\",\"4242\",\"void reduce_tail(float *)\",\"(1, 1, 1)\",\"1\",\"1,000\","
    "\"1,000\",\"2,000\",\"10\",\"n/a\",\"8\",\"2\",\"32\",\"1\",\"0\",\"0\",\"1\",\"20\"\n"
    "==PROF== Disconnected from process 4242\n";

int main(void)
{
    char text[8192], err[256];
    snprintf(text, sizeof text, "%s%s%s", messages, header, rows);
    ladder_counters c[4];
    int seen[4];
    EXPECT(ladder_ncu_parse(text, c, seen, 4, err, sizeof err) == 0);
    EXPECT(seen[0] && !seen[1] && seen[2] && !seen[3]);

    /* A marker with nothing after it: no kernels, every counter unknown. */
    EXPECT(c[0].kernels == 0);
    EXPECT(isnan(c[0].dram_bytes_read) && isnan(c[0].duration_ms) && isnan(c[0].global_load_sectors_per_request));

    /* Two kernels: sums, ratios of sums, percentages weighted by duration. */
    EXPECT(c[2].kernels == 2);
    EXPECT_NEAR(c[2].duration_ms, 4000e-6, 1e-12);
    EXPECT_NEAR(c[2].dram_bytes_read, 1610634496.0 + 1000, 0);
    EXPECT_NEAR(c[2].dram_bytes_written, 100002000, 0);
    EXPECT_NEAR(c[2].dram_throughput_pct, (90 * 3000 + 10 * 1000) / 4000.0, 1e-9);
    EXPECT_NEAR(c[2].l2_read_bytes, 25165824.0 * 32, 0); /* n/a in one kernel: the other's */
    EXPECT_NEAR(c[2].global_load_sectors_per_request, (25165824.0 + 8) / (786432 + 2), 1e-12);
    EXPECT_NEAR(c[2].global_store_sectors_per_request, (3145728.0 + 32) / (786432 + 1), 1e-12);
    EXPECT_NEAR(c[2].shared_load_wavefronts_per_instruction, 2.0, 1e-12);
    EXPECT_NEAR(c[2].shared_bank_conflicts, 8, 0);
    EXPECT_NEAR(c[2].achieved_occupancy_pct, (60 * 3000 + 20 * 1000) / 4000.0, 1e-9);

    /* A marker for a variant the case does not have is a broken report. */
    ladder_counters small[2];
    EXPECT(ladder_ncu_parse(text, small, seen, 2, err, sizeof err) == -1);
    EXPECTF(strstr(err, "variant 2") != NULL, "got: %s", err);

    /* ncu that failed before writing a table. */
    EXPECT(ladder_ncu_parse("==ERROR== ERR_NVGPUCTRPERM - no permission\n", c, seen, 4, err, sizeof err) == -1);
    EXPECTF(strstr(err, "no counters") != NULL, "got: %s", err);

    /* The metric list carries every column the parser reads, once. */
    const char *metrics = ladder_ncu_metrics();
    EXPECT(strstr(metrics, "launch__grid_size") != NULL);
    EXPECT(strstr(metrics, "dram__bytes_read.sum") != NULL);
    EXPECT(strstr(metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") != NULL);
    EXPECT(strstr(metrics, ",,") == NULL && metrics[strlen(metrics) - 1] != ',');

    /* Finding ncu: LADDER_NCU first, then PATH. */
    char dir[] = "/tmp/ladder_ncu_test_XXXXXX", path[4096], fake[4096];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(fake, sizeof fake, "%s/ncu", dir);
    FILE *f = fopen(fake, "w");
    EXPECT(f != NULL);
    if (f) fclose(f);
    setenv("PATH", dir, 1);
    unsetenv("LADDER_NCU");
    EXPECT(ladder_ncu_find(path, sizeof path, err, sizeof err) == -1); /* not executable */
    EXPECTF(strstr(err, "not found") != NULL, "got: %s", err);
    chmod(fake, 0755);
    EXPECT(ladder_ncu_find(path, sizeof path, err, sizeof err) == 0 && strcmp(path, fake) == 0);
    setenv("LADDER_NCU", "/nonexistent/ncu", 1);
    EXPECT(ladder_ncu_find(path, sizeof path, err, sizeof err) == -1);
    EXPECTF(strstr(err, "LADDER_NCU") != NULL, "got: %s", err);
    remove(fake);
    rmdir(dir);
    return test_result("ncu_test");
}
