/* The JSON contract: written whole, parsed back by a real JSON parser
 * (python3), with the documented fields and null for what does not apply. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "harness/testing/test_util.h"

static ladder_device fake_device(void)
{
    ladder_device d = {0};
    snprintf(d.name, sizeof d.name, "Test \"GPU\" \\ 1");
    d.cc_major = 9;
    d.sm_count = 132;
    d.sm_clock_mhz = 1980;
    d.peak_dram_gbps = 3352;
    d.ceilings.memcpy_gbps = 3000;
    d.ceilings.copy_kernel_gbps = 3100;
    d.ceilings.fma_gflops = 60000;
    d.ceilings.sgemm_gflops = 50000;
    d.ceilings.sgemm_n = 4096;
    d.peak_bf16_tensor_gflops = 1070531;
    d.peak_tf32_tensor_gflops = 535265;
    d.ceilings.tensor_bf16_gflops = 966000;
    d.ceilings.cublas_bf16_gflops = 776000;
    d.ceilings.cublas_bf16_n = 8192;
    d.ceilings_measured = 1;
    return d;
}

static void add(ladder_results *r, const char *variant, int index, double ms, int baseline, int skipped)
{
    ladder_record *rec = ladder_results_add(r);
    snprintf(rec->case_name, sizeof rec->case_name, "transpose");
    snprintf(rec->variant, sizeof rec->variant, "%s", variant);
    snprintf(rec->size, sizeof rec->size, "8x8");
    rec->index = index;
    rec->baseline = baseline;
    rec->skipped = skipped;
    if (skipped) {
        snprintf(rec->reason, sizeof rec->reason, "needs \"tiles\"");
        return;
    }
    rec->median_ms = rec->min_ms = rec->max_ms = ms;
    rec->samples = 10;
    rec->bytes = 512;
    rec->valid = 1;
}

int main(void)
{
    ladder_results r = {0};
    add(&r, "naive", 0, 4.0, 0, 0);
    add(&r, "tiled", 1, 1.0, 0, 0);
    add(&r, "odd", 2, 0, 0, 1);
    add(&r, "memcpy", 3, 0.8, 1, 0);
    ladder_results_relate(&r, 0);
    EXPECT_NEAR(r.records[1].speedup, 4.0, 1e-12);
    EXPECT_NEAR(r.records[1].ratio_to_baseline, 0.8, 1e-12);
    EXPECT_NEAR(r.records[0].ratio_to_baseline, 0.2, 1e-12);
    EXPECT(isnan(r.records[2].speedup));

    /* With variant 0 skipped, speedups are against the first rung that ran. */
    ladder_results later = {0};
    add(&later, "cpu_serial", 0, 0, 0, 1);
    add(&later, "tiled", 1, 8.0, 0, 0);
    add(&later, "fast", 2, 2.0, 0, 0);
    add(&later, "cublas", 3, 1.0, 1, 0);
    ladder_results_relate(&later, 0);
    EXPECT_NEAR(later.records[2].speedup, 4.0, 1e-12);
    EXPECT_NEAR(later.records[1].speedup, 1.0, 1e-12);
    EXPECT_NEAR(later.records[2].ratio_to_baseline, 0.5, 1e-12);
    ladder_results_free(&later);

    /* Baseline rows before the last are references: each compared with the
     * rungs of its own precision; the last stays the baseline of all. */
    ladder_results refs = {0};
    add(&refs, "fp32", 0, 4.0, 0, 0);
    add(&refs, "tf32", 1, 1.0, 0, 0);
    add(&refs, "library_tf32", 2, 0.5, 1, 0);
    add(&refs, "library", 3, 2.0, 1, 0);
    snprintf(refs.records[1].precision, sizeof refs.records[1].precision, "TF32");
    snprintf(refs.records[2].precision, sizeof refs.records[2].precision, "TF32");
    ladder_results_relate(&refs, 0);
    EXPECT(refs.records[2].reference && !refs.records[2].baseline);
    EXPECT(refs.records[3].baseline && !refs.records[3].reference);
    EXPECT_NEAR(refs.records[1].ratio_to_baseline, 2.0, 1e-12);
    EXPECT_NEAR(refs.records[1].ratio_to_reference, 0.5, 1e-12);
    EXPECT(strcmp(refs.records[1].reference_variant, "library_tf32") == 0);
    EXPECT(isnan(refs.records[0].ratio_to_reference) && refs.records[0].reference_variant[0] == 0);
    EXPECT(isnan(refs.records[2].ratio_to_reference) && isnan(refs.records[3].ratio_to_reference));
    char *ref_table = NULL;
    size_t ref_table_len = 0;
    FILE *ref_out = open_memstream(&ref_table, &ref_table_len);
    ladder_print_table(ref_out, &refs, 0);
    fclose(ref_out);
    EXPECT(strstr(ref_table, "ok  TF32, 0.500 of library_tf32\n") != NULL);
    EXPECT(strstr(ref_table, "library_tf32 +") != NULL && strstr(ref_table, "library *") != NULL);
    free(ref_table);
    ladder_results_free(&refs);

    /* --ncu counters on one record; a counter no kernel reported is NaN. */
    r.records[1].has_counters = 1;
    r.records[1].counters = (ladder_counters){.kernels = 2, .duration_ms = 0.5, .dram_bytes_read = 1.5e9,
                                              .dram_bytes_written = 1e8, .dram_throughput_pct = 91.5,
                                              .l2_read_bytes = 8e8, .global_load_sectors_per_request = 32,
                                              .global_store_sectors_per_request = 4,
                                              .shared_load_wavefronts_per_instruction = NAN,
                                              .shared_bank_conflicts = 0, .achieved_occupancy_pct = 88};

    /* A reduced-precision variant carries its note. */
    snprintf(r.records[1].precision, sizeof r.records[1].precision, "TF32 (reduced precision)");

    char *table = NULL;
    size_t table_len = 0;
    FILE *table_out = open_memstream(&table, &table_len);
    ladder_print_table(table_out, &r, 0);
    fclose(table_out);
    /* The note follows its record's check, and no other record's. */
    const char *note = strstr(table, "ok  TF32 (reduced precision)\n");
    EXPECT(note != NULL && strstr(table, "reduced") == note + 10 && strstr(note + 11, "reduced") == NULL);
    free(table);

    /* A figure of the whole ladder. */
    ladder_summary *fit = ladder_results_add_summary(&r);
    snprintf(fit->case_name, sizeof fit->case_name, "transpose");
    snprintf(fit->size, sizeof fit->size, "8x8");
    snprintf(fit->name, sizeof fit->name, "h2d_pinned_latency_us");
    fit->value = 9.5;
    snprintf(fit->unit, sizeof fit->unit, "us");
    snprintf(fit->note, sizeof fit->note, "least squares over \"all\" sizes");
    ladder_results_add_summary(&r); /* one that could not be derived: value NaN */

    char dir[] = "/tmp/ladder_results_test_XXXXXX";
    EXPECT(mkdtemp(dir) != NULL);
    char path[256], command[4096], err[512];
    snprintf(path, sizeof path, "%s/out.json", dir);
    ladder_device d = fake_device();
    ladder_run_info info = {.command_line = "ladder run \"transpose\"", .started = 1795313829, .seed = 12345};
    r.records[0].contended = 1;
    r.records[1].noisy = 1;
    /* Energy on one record, a reason on another; the device's counter worked. */
    r.records[1].energy_j = 0.5;
    r.records[1].power_w = 400;
    r.records[1].energy_ms_per_run = 1.25;
    r.records[1].gflop_per_j = 60;
    snprintf(r.records[0].energy_reason, sizeof r.records[0].energy_reason, "the energy counter stood still");
    d.energy_checked = 1;
    d.power_limit_w = 700;
    d.idle_power_w = 121.5;
    d.energy_period_ms = 100;
    EXPECT(ladder_write_json(path, &d, &r, &info, err, sizeof err) == 0);

    /* Parse it back and check the contract's fields and types. */
    snprintf(command, sizeof command,
             "python3 -c '\n"
             "import json, math, sys\n"
             "doc = json.load(open(sys.argv[1]))\n"
             "dev = doc[\"device\"]\n"
             "assert dev[\"name\"] == \"Test \\\"GPU\\\" \\\\ 1\", dev[\"name\"]\n"
             "assert dev[\"cc\"] == \"9.0\"\n"
             "c = dev[\"ceilings\"]\n"
             "for k in (\"memcpy_gbps\", \"copy_kernel_gbps\", \"fma_gflops\", \"sgemm_gflops\"): assert c[k] > 0, k\n"
             "assert c[\"tensor_bf16_gflops\"] == 966000 and c[\"cublas_bf16_n\"] == 8192 and c[\"cublas_bf16_gflops\"] > 0\n"
             "assert dev[\"peak_bf16_tensor_gflops\"] == 1070531 and dev[\"peak_tf32_tensor_gflops\"] == 535265\n"
             "assert doc[\"seed\"] == 12345 and doc[\"schema\"] == 1\n"
             "assert doc[\"date\"] == \"2026-11-22T02:17:09Z\", doc[\"date\"]\n"
             "res = doc[\"results\"]\n"
             "assert len(res) == 4\n"
             "need = \"case variant index size samples median_ms min_ms max_ms rel_spread bytes flops gbps gflops "
             "fraction_of_ceiling fraction_of_bandwidth fraction_of_fp32 ratio_to_baseline reference reference_variant ratio_to_reference baseline rel_error valid throttled skipped reason\".split()\n"
             "for rec in res:\n"
             "    missing = [k for k in need if k not in rec]\n"
             "    assert not missing, missing\n"
             "assert res[1][\"speedup\"] == 4 and res[3][\"baseline\"] is True\n"
             "assert res[2][\"skipped\"] is True and res[2][\"reason\"] == \"needs \\\"tiles\\\"\"\n"
             "assert res[2][\"median_ms\"] is None and res[0][\"gflops\"] is None\n"
             "assert res[0][\"reason\"] is None\n"
             "assert res[1][\"precision\"] == \"TF32 (reduced precision)\" and res[0][\"precision\"] is None\n"
             "assert res[0][\"counters\"] is None\n"
             "assert res[0][\"reference\"] is False and res[0][\"reference_variant\"] is None and res[0][\"ratio_to_reference\"] is None\n"
             "assert res[0][\"contended\"] is True and res[1][\"contended\"] is False\n"
             "assert res[1][\"noisy\"] is True and res[0][\"noisy\"] is False\n"
             "assert res[1][\"energy_j\"] == 0.5 and res[1][\"power_w\"] == 400 and res[1][\"energy_ms_per_run\"] == 1.25\n"
             "assert res[1][\"gflop_per_j\"] == 60 and res[1][\"gb_per_j\"] is None and res[1][\"energy_reason\"] is None\n"
             "assert res[0][\"energy_j\"] is None and res[0][\"energy_reason\"] == \"the energy counter stood still\"\n"
             "assert dev[\"power_limit_w\"] == 700 and dev[\"idle_power_w\"] == 121.5 and dev[\"energy_counter_period_ms\"] == 100\n"
             "assert dev[\"energy_note\"] is None\n"
             "assert doc[\"complete\"] is False and doc[\"running_case\"] is None and doc[\"stopped_by\"] is None\n"
             "assert doc[\"contention\"] == {\"checked\": False, \"note\": \"no GPU was opened\", \"processes\": []}\n"
             "k = res[1][\"counters\"]\n"
             "assert k[\"kernels\"] == 2 and k[\"dram_bytes_read\"] == 1.5e9 and k[\"global_load_sectors_per_request\"] == 32, k\n"
             "assert k[\"shared_load_wavefronts_per_instruction\"] is None and k[\"shared_bank_conflicts\"] == 0, k\n"
             "assert sorted(k) == sorted(\"kernels duration_ms dram_bytes_read dram_bytes_written dram_throughput_pct "
             "l2_read_bytes global_load_sectors_per_request global_store_sectors_per_request shared_load_wavefronts_per_instruction shared_bank_conflicts "
             "achieved_occupancy_pct\".split()), sorted(k)\n"
             "s = doc[\"summaries\"]\n"
             "assert len(s) == 2 and s[0][\"name\"] == \"h2d_pinned_latency_us\" and s[0][\"value\"] == 9.5, s\n"
             "assert s[0][\"case\"] == \"transpose\" and s[0][\"size\"] == \"8x8\" and s[0][\"unit\"] == \"us\", s\n"
             "assert s[0][\"note\"] == \"least squares over \\\"all\\\" sizes\" and s[1][\"value\"] is None, s\n"
             "' %s",
             path);
    EXPECT(system(command) == 0);

    /* A run stopped in its second case, with another process seen on the GPU. */
    ladder_contention seen = {.checked = 1, .process_count = 2};
    seen.processes[0] = (ladder_gpu_process){.pid = 4242, .name = "train.py", .used_memory_bytes = 1u << 30};
    seen.processes[1] = (ladder_gpu_process){.pid = 7, .name = "?", .used_memory_bytes = ~0ull};
    info.contention = &seen;
    info.running_case = "reduce";
    info.stopped_by = "SIGTERM";
    EXPECT(ladder_write_json(path, &d, &r, &info, err, sizeof err) == 0);
    snprintf(command, sizeof command,
             "python3 -c '\n"
             "import json, sys\n"
             "doc = json.load(open(sys.argv[1]))\n"
             "assert doc[\"complete\"] is False and doc[\"running_case\"] == \"reduce\", doc\n"
             "assert doc[\"stopped_by\"] == \"SIGTERM\"\n"
             "c = doc[\"contention\"]\n"
             "assert c[\"checked\"] is True and len(c[\"processes\"]) == 2, c\n"
             "assert c[\"processes\"][0] == {\"pid\": 4242, \"name\": \"train.py\", \"used_memory_bytes\": 1073741824}, c\n"
             "assert c[\"processes\"][1][\"used_memory_bytes\"] is None, c\n"
             "' %s",
             path);
    EXPECT(system(command) == 0);

    /* CSV: a header and one line per record, every line as wide as the header,
     * counters filled only where the record has them. */
    snprintf(path, sizeof path, "%s/out.csv", dir);
    EXPECT(ladder_write_csv(path, &d, &r, err, sizeof err) == 0);
    snprintf(command, sizeof command,
             "python3 -c '\n"
             "import csv, sys\n"
             "rows = list(csv.DictReader(open(sys.argv[1])))\n"
             "assert len(rows) == 4, len(rows)\n"
             "assert all(None not in row and None not in row.values() for row in rows), rows\n"
             "assert rows[0][\"device\"] == \"Test \\\"GPU\\\" \\\\ 1\", rows[0][\"device\"]\n"
             "assert rows[1][\"kernels\"] == \"2\" and float(rows[1][\"dram_bytes_read\"]) == 1.5e9\n"
             "assert rows[1][\"global_store_sectors_per_request\"] == \"4\"\n"
             "assert rows[0][\"kernels\"] == \"\" and rows[1][\"shared_load_wavefronts_per_instruction\"] == \"\"\n"
             "assert rows[0][\"contended\"] == \"1\" and rows[1][\"noisy\"] == \"1\" and rows[1][\"contended\"] == \"0\"\n"
             "assert rows[1][\"precision\"] == \"TF32 (reduced precision)\" and rows[0][\"precision\"] == \"\"\n"
             "assert rows[0][\"reference\"] == \"0\" and rows[0][\"reference_variant\"] == \"\" and rows[0][\"ratio_to_reference\"] == \"\"\n"
             "assert float(rows[1][\"energy_j\"]) == 0.5 and rows[1][\"gb_per_j\"] == \"\" and rows[1][\"energy_reason\"] == \"\"\n"
             "assert rows[0][\"energy_j\"] == \"\" and rows[0][\"energy_reason\"] == \"the energy counter stood still\"\n"
             "' %s",
             path);
    EXPECT(system(command) == 0);

    /* A path that cannot be written fails with a message and leaves nothing. */
    snprintf(path, sizeof path, "%s/missing/out.json", dir);
    EXPECT(ladder_write_json(path, &d, &r, &info, err, sizeof err) == -1);
    EXPECT(strstr(err, "cannot write") != NULL);
    snprintf(command, sizeof command, "rm -rf %s", dir);
    EXPECT(system(command) == 0);

    ladder_results_free(&r);
    return test_result("results_test");
}
