/* GPU test: the L2 flush reads every 16 bytes of its buffer (a word set to
 * the key anywhere makes the sink written, and a zeroed buffer never does),
 * and it evicts: a copy of a quarter of the L2 takes longer after a flush
 * than straight after the same copy. The timing is skipped when
 * LADDER_UNDER_SANITIZER is set (scripts/gpu-check.sh sets it): memcheck's
 * own work between the calls blurs warm and cold. Exits 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "l2_flush.h"
#include "stats.h"
#include "harness/testing/test_util.h"

/* The sink after one flush of `buffer` with the key at word `key_word`
 * (or none when key_word < 0). */
static unsigned sink_after_flush(unsigned *buffer, size_t bytes, long long key_word, unsigned *sink, int blocks)
{
    const unsigned zero = 0, key = LADDER_L2_FLUSH_KEY;
    CUDA_CHECK(cudaMemset(buffer, 0, bytes));
    CUDA_CHECK(cudaMemcpy(sink, &zero, sizeof zero, cudaMemcpyHostToDevice));
    if (key_word >= 0) CUDA_CHECK(cudaMemcpy(buffer + key_word, &key, sizeof key, cudaMemcpyHostToDevice));
    ladder_l2_flush_read(buffer, bytes, sink, blocks, 0);
    unsigned got;
    CUDA_CHECK(cudaMemcpy(&got, sink, sizeof got, cudaMemcpyDeviceToHost));
    return got;
}

static void test_reads_every_word(int sm_count)
{
    /* Not a multiple of the grid's threads: the last pass is partial. */
    const size_t bytes = ((size_t)1 << 20) + 48, words = bytes / sizeof(unsigned);
    unsigned *buffer, *sink;
    CUDA_CHECK(cudaMalloc((void **)&buffer, bytes));
    CUDA_CHECK(cudaMalloc((void **)&sink, sizeof *sink));
    const int blocks[] = {1, 8 * sm_count};
    for (int b = 0; b < 2; ++b) {
        EXPECT(sink_after_flush(buffer, bytes, -1, sink, blocks[b]) == 0);
        const long long at[] = {0, 3, (long long)words / 2 + 1, (long long)words - 4, (long long)words - 1};
        for (int i = 0; i < 5; ++i)
            EXPECTF(sink_after_flush(buffer, bytes, at[i], sink, blocks[b]) == LADDER_L2_FLUSH_KEY,
                    "%d blocks: the key at word %lld of %zu was not read", blocks[b], at[i], words);
    }
    CUDA_CHECK(cudaFree(buffer));
    CUDA_CHECK(cudaFree(sink));
}

/* Median time of a device-to-device copy of `bytes`, after a flush or not. */
static double copy_ms(void *dst, const void *src, size_t bytes, const void *flush_buffer, size_t flush_bytes,
                      unsigned *sink, int blocks, int flush)
{
    enum { SAMPLES = 21 };
    double ms[SAMPLES];
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < SAMPLES; ++i) {
        if (flush) ladder_l2_flush_read(flush_buffer, flush_bytes, sink, blocks, 0);
        else CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0)); /* leaves both in L2 */
        CUDA_CHECK(cudaEventRecord(start, 0));
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        ms[i] = t;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return ladder_summarize(ms, SAMPLES).median;
}

static void test_evicts(const ladder_device *device)
{
    const size_t copy_bytes = device->l2_bytes / 4 / 16 * 16, flush_bytes = 2 * device->l2_bytes / 16 * 16;
    void *src, *dst, *flush_buffer;
    unsigned *sink;
    CUDA_CHECK(cudaMalloc(&src, copy_bytes));
    CUDA_CHECK(cudaMalloc(&dst, copy_bytes));
    CUDA_CHECK(cudaMalloc(&flush_buffer, flush_bytes));
    CUDA_CHECK(cudaMalloc((void **)&sink, sizeof *sink));
    CUDA_CHECK(cudaMemset(src, 1, copy_bytes));
    CUDA_CHECK(cudaMemset(flush_buffer, 0, flush_bytes));
    const int blocks = 8 * device->sm_count;
    double warm = copy_ms(dst, src, copy_bytes, flush_buffer, flush_bytes, sink, blocks, 0);
    double cold = copy_ms(dst, src, copy_bytes, flush_buffer, flush_bytes, sink, blocks, 1);
    printf("copy of %.1f MB (a quarter of the L2): %.1f us straight after the same copy, %.1f us after a flush\n",
           copy_bytes / 1e6, 1e3 * warm, 1e3 * cold);
    EXPECTF(cold > 1.1 * warm, "the flush left the copy's data in L2: %.2f us after it, %.2f us warm", 1e3 * cold,
            1e3 * warm);
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    CUDA_CHECK(cudaFree(flush_buffer));
    CUDA_CHECK(cudaFree(sink));
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    test_reads_every_word(device.sm_count);
    if (ladder_under_sanitizer()) printf("eviction timing skipped under the sanitizer\n");
    else test_evicts(&device);
    return test_result("l2_flush_gpu_test");
}
