/* GPU test of the p2p case (two GPUs with peer access, else skipped): the
 * peer copy kernel at odd sizes and misaligned ends in both roles (loading
 * from and storing to the peer), never writing past its end; a rung that
 * writes nothing caught by the poison; and a whole small run through the
 * harness, the access switched off and on between rungs, every rung valid
 * and the fits real numbers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "p2p.h"

extern const ladder_case p2p_case;

#define GUARD 64

static void enable(int from, int to)
{
    CUDA_CHECK(cudaSetDevice(from));
    cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
    else CUDA_CHECK(e);
}

static void disable(int from, int to)
{
    CUDA_CHECK(cudaSetDevice(from));
    CUDA_CHECK(cudaDeviceDisablePeerAccess(to));
}

/* Copy `bytes` from a + offset_src to b + offset_dst with the kernel run on
 * `runner` (a: store, b: load); the bytes around the destination untouched. */
static void copy_case(int a, int b, int runner, size_t bytes, size_t src_offset, size_t dst_offset)
{
    size_t total = bytes + 2 * GUARD + 16;
    unsigned char *host = malloc(total), *got = malloc(total), *src, *dst;
    for (size_t i = 0; i < total; ++i) host[i] = (unsigned char)(i * 151 + bytes);
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaMalloc((void **)&src, total));
    CUDA_CHECK(cudaMemcpy(src, host, total, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaSetDevice(b));
    CUDA_CHECK(cudaMalloc((void **)&dst, total));
    CUDA_CHECK(cudaMemset(dst, 0xA5, total));
    CUDA_CHECK(cudaSetDevice(runner));
    p2p_copy_kernel(dst + GUARD + dst_offset, src + GUARD + src_offset, bytes, 264, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, dst, total, cudaMemcpyDeviceToHost));
    size_t wrong = 0, outside = 0;
    for (size_t i = 0; i < total; ++i) {
        int inside = i >= GUARD + dst_offset && i < GUARD + dst_offset + bytes;
        if (inside) wrong += got[i] != host[i - dst_offset + src_offset];
        else outside += got[i] != 0xA5;
    }
    EXPECTF(wrong == 0 && outside == 0, "%zu bytes (+%zu -> +%zu) run on GPU %d: %zu wrong, %zu written outside", bytes,
            src_offset, dst_offset, runner, wrong, outside);
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    free(host);
    free(got);
}

static void writes_nothing(void *state, const ladder_variant *v, cudaStream_t stream)
{
    (void)state, (void)v, (void)stream;
}

static const ladder_summary *find_summary(const ladder_results *r, const char *name)
{
    for (size_t i = 0; i < r->summary_count; ++i)
        if (strcmp(r->summaries[i].name, name) == 0) return &r->summaries[i];
    return NULL;
}

int main(void)
{
    ladder_device device;
    int gpus[LADDER_MAX_GPUS];
    open_gpus_or_skip(&device, 2, gpus);
    int a = gpus[0], b = gpus[1];

    enable(a, b);
    enable(b, a);
    const size_t sizes[] = {0, 1, 15, 16, 17, 4099, 65536, (1 << 20) + 3, (1 << 24) + 7};
    const size_t offsets[][2] = {{0, 0}, {1, 0}, {0, 8}, {4, 12}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o) {
            copy_case(a, b, a, sizes[s], offsets[o][0], offsets[o][1]); /* store */
            copy_case(a, b, b, sizes[s], offsets[o][0], offsets[o][1]); /* load */
        }
    disable(a, b);
    disable(b, a);
    CUDA_CHECK(cudaSetDevice(a));

    /* A rung that writes nothing fails: the destination holds the poison. */
    char err[512];
    ladder_size size;
    ladder_status status;
    EXPECT(ladder_parse_size("8195", &size, err, sizeof err) == 0);
    void *state = p2p_case.create(&size, &status, err, sizeof err);
    EXPECT(state != NULL);
    const ladder_variant broken = {"writes_nothing", "", (ladder_impl)writes_nothing, P2P_MATRIX_PARAM(0, 1), 0};
    ladder_check c = ladder_validate_variant(&p2p_case, state, &broken, 3);
    EXPECT(!c.passed && c.rel_error > 0.9);
    p2p_case.destroy(state);

    /* A whole run at an odd size: every rung valid, the fits real numbers. */
    ladder_results results = {0};
    ladder_run_options options = {.seed = 5, .min_samples = 10, .time_cap_s = 0.05};
    EXPECT(ladder_parse_size("2^20+3", &size, err, sizeof err) == 0);
    EXPECT(ladder_run_case(&p2p_case, &size, &device, &options, &results, err, sizeof err) == LADDER_OK);
    int ran = 0;
    for (size_t i = 0; i < results.count; ++i) {
        const ladder_record *rec = &results.records[i];
        ran += !rec->skipped;
        EXPECTF(rec->skipped || (rec->valid && rec->gbps > 0), "%s: valid %d, %.1f GB/s", rec->variant, rec->valid,
                rec->gbps);
    }
    EXPECT(ran >= 6 * 9 + 2); /* six routes of 4 KiB .. 1 MiB, both pairs of the matrix */
    ladder_print_table(stdout, &results, 0);
    ladder_print_summaries(stdout, &results, 0);
    const char *positive[] = {"staged_bandwidth_gbps", "peer_copy_no_access_bandwidth_gbps", "peer_copy_bandwidth_gbps",
                              "peer_load_bandwidth_gbps", "peer_store_bandwidth_gbps",
                              "peer_copy_both_ways_bandwidth_gbps", "matrix_slowest_gbps"};
    for (size_t i = 0; i < sizeof positive / sizeof positive[0]; ++i) {
        const ladder_summary *s = find_summary(&results, positive[i]);
        EXPECTF(s && isfinite(s->value) && s->value > 0, "%s missing or not a positive number", positive[i]);
    }
    ladder_results_free(&results);
    return test_result("p2p_gpu_test");
}
