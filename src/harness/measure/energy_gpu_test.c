/* GPU test: the energy figures are plausible on a real board. The idle
 * power is positive and under the board's limit; the FMA ceiling kernel,
 * sgemm's naive rung and cuBLAS each get a positive energy per run at an
 * average power between the idle power and the limit; the FMA kernel does
 * more GFLOP per joule than the naive rung (it does nothing but FMAs; the
 * naive rung spends its watts waiting on memory); in a chain between two
 * one-block launches, the FMA kernel's power is its power alone. Then the real driver
 * with counters that fail after the calibration: a counter that stands
 * still or goes backwards mid-window gives empty figures with the reason.
 * Exits 77 without a GPU or without an energy counter. Under
 * compute-sanitizer (LADDER_UNDER_SANITIZER, set by scripts/gpu-check.sh)
 * every step still runs, for the tool to check, but the readings are not
 * held to anything: the tool's own work sets the watts and the timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/device/ceiling_kernels.h"
#include "energy.h"
#include "harness/testing/gpu_test.h"
#include "cases/registry.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "timing.h"

static double median_ms(ladder_fma_launch *f)
{
    const ladder_timing_options options = {
        .min_samples = 10, .max_samples = 50, .target_spread = 0.01, .time_cap_s = 0.3, .warmup_runs = 2};
    return ladder_time_device(ladder_launch_fma, f, &options).ms.median;
}

/* Whether the readings are the board's: not under the sanitizer. */
static int measuring;

static void expect_plausible(const char *what, double watts, double joules, double per_joule, const ladder_device *d)
{
    printf("%-22s %7.1f W, %.4g J a run, %.4g GFLOP/J\n", what, watts, joules, per_joule);
    if (!measuring) return;
    EXPECTF(joules > 0 && per_joule > 0, "%s: %.4g J, %.4g GFLOP/J", what, joules, per_joule);
    EXPECTF(watts > d->idle_power_w, "%s: %.1f W, not above the idle %.1f W", what, watts, d->idle_power_w);
    /* The limit holds on average over a window; 5 % for the counter's own error. */
    if (isfinite(d->power_limit_w))
        EXPECTF(watts <= 1.05 * d->power_limit_w, "%s: %.1f W above the %.0f W limit", what, watts, d->power_limit_w);
}

/* NVML's counter, failing on demand once the calibration is over. */
typedef struct failing_counter {
    ladder_energy_counter nvml;
    enum { WORKING, STILL, BACKWARDS } mode;
    unsigned long long frozen;
} failing_counter;

static int read_failing(void *context, unsigned long long *mj)
{
    failing_counter *f = context;
    int status = f->nvml.read_mj(f->nvml.context, mj);
    if (f->mode == STILL) *mj = f->frozen;
    if (f->mode == BACKWARDS) f->frozen -= 1000, *mj = f->frozen;
    return status;
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    measuring = !ladder_under_sanitizer();
    if (!measuring) printf("under the sanitizer: every step runs, no reading is checked\n");
    ladder_energy_open(&device, 1, NULL);
    if (device.energy_note[0]) {
        printf("skipped: %s\n", device.energy_note);
        return LADDER_EXIT_SKIP_TEST;
    }
    printf("%s: board limit %.0f W, idle %.1f W, the counter moves every %.2f ms\n", device.name, device.power_limit_w,
           device.idle_power_w, device.energy_period_ms);
    EXPECT(device.idle_power_w > 0 && device.energy_period_ms > 0);
    if (isfinite(device.power_limit_w)) EXPECT(device.idle_power_w < device.power_limit_w);

    ladder_fma_launch f = {.threads = 256, .iterations = 16384};
    f.blocks = device.sm_count * (device.max_threads_per_sm / f.threads) * 4;
    CUDA_CHECK(cudaMalloc((void **)&f.sink, (size_t)f.blocks * f.threads * sizeof(float)));
    double fma_ms = median_ms(&f);
    double started = ladder_now_seconds();
    ladder_energy fma;
    const ladder_energy_rung fma_rung = {ladder_launch_fma, &f, fma_ms, f.flops, 0};
    ladder_energy_measure_ladder(&fma_rung, 1, &fma);
    printf("FMA alone: %.0f ms of wall time for a %.3f ms kernel\n", 1e3 * (ladder_now_seconds() - started), fma_ms);
    if (measuring) EXPECTF(fma.reason == NULL, "the FMA kernel has no energy: %s", fma.reason ? fma.reason : "");
    expect_plausible("FMA ceiling kernel", fma.watts, fma.joules_per_run, fma.gflop_per_j, &device);
    EXPECT(isnan(fma.gb_per_j)); /* it moves no bytes */

    /* In a chain, each rung gets its own power: the FMA kernel between two
     * rungs of one block (the board near idle) reads as alone. A period
     * given to the wrong rung would read near the idle power. Run to run,
     * the kernel alone read 348-394 W on an H100, and 359 W between two
     * copies against 394 W alone in one run: hence 15 %. */
    ladder_fma_launch one_block = f;
    one_block.blocks = 1;
    double one_block_ms = median_ms(&one_block);
    const ladder_energy_rung chain[] = {{ladder_launch_fma, &one_block, one_block_ms, 0, 0},
                                        fma_rung,
                                        {ladder_launch_fma, &one_block, one_block_ms, 0, 0}};
    ladder_energy in_chain[3];
    ladder_energy_measure_ladder(chain, 3, in_chain);
    printf("chain: one block %.1f W, FMA %.1f W (alone %.1f W), one block %.1f W\n", in_chain[0].watts,
           in_chain[1].watts, fma.watts, in_chain[2].watts);
    if (measuring) {
        for (int i = 0; i < 3; ++i) EXPECTF(in_chain[i].reason == NULL, "chain rung %d: %s", i, in_chain[i].reason);
        EXPECTF(fabs(in_chain[1].watts / fma.watts - 1) < 0.15, "the FMA kernel in a chain: %.1f W, alone %.1f W",
                in_chain[1].watts, fma.watts);
        EXPECTF(in_chain[0].watts < in_chain[1].watts && in_chain[2].watts < in_chain[1].watts,
                "one block draws less than the full kernel: %.1f, %.1f W against %.1f W", in_chain[0].watts,
                in_chain[2].watts, in_chain[1].watts);
    }

    const ladder_case *sgemm = ladder_find_case("sgemm");
    ladder_size size;
    char err[512];
    EXPECT(ladder_parse_size("1024", &size, err, sizeof err) == 0);
    ladder_run_options options = {.seed = 5, .min_samples = 10, .time_cap_s = 0.2, .variant = "naive"};
    ladder_results results = {0};
    EXPECT(ladder_run_case(sgemm, &size, &device, &options, &results, err, sizeof err) == LADDER_OK);
    ladder_print_table(stdout, &results, 0);
    const ladder_record *naive = NULL;
    for (size_t i = 0; i < results.count; ++i) {
        const ladder_record *rec = &results.records[i];
        if (measuring) EXPECTF(rec->energy_reason[0] == '\0', "%s: %s", rec->variant, rec->energy_reason);
        expect_plausible(rec->variant, rec->power_w, rec->energy_j, rec->gflop_per_j, &device);
        if (strcmp(rec->variant, "naive") == 0) naive = rec;
    }
    EXPECT(naive != NULL);
    if (naive && measuring)
        EXPECTF(fma.gflop_per_j > naive->gflop_per_j, "FMA %.4g GFLOP/J, not above the naive rung's %.4g",
                fma.gflop_per_j, naive->gflop_per_j);
    ladder_results_free(&results);

    /* The driver with a counter that breaks after the calibration. */
    failing_counter failing = {.mode = WORKING};
    EXPECT(ladder_energy_nvml_counter(device.pci_bus_id, &failing.nvml, err, sizeof err) == 0);
    ladder_energy_counter counter = {read_failing, &failing};
    ladder_energy_open(&device, 1, &counter);
    EXPECT(device.energy_note[0] == '\0');
    const struct {
        int mode;
        const char *reason;
    } faults[] = {{STILL, "stood still"}, {BACKWARDS, "backwards"}};
    for (int i = 0; i < 2; ++i) {
        failing.mode = WORKING;
        EXPECT(failing.nvml.read_mj(failing.nvml.context, &failing.frozen) == 0);
        failing.mode = faults[i].mode;
        ladder_energy e;
        ladder_energy_measure_ladder(&fma_rung, 1, &e);
        /* Under the sanitizer the chain may not be placed at all, which is a reason of its own. */
        if (measuring)
            EXPECTF(e.reason && strstr(e.reason, faults[i].reason), "a counter that %s: '%s'", faults[i].reason,
                    e.reason ? e.reason : "(measured)");
        EXPECT(isnan(e.joules_per_run) && isnan(e.watts) && isnan(e.gflop_per_j));
    }
    ladder_energy_close();
    CUDA_CHECK(cudaFree(f.sink));
    return test_result("energy_gpu_test");
}
