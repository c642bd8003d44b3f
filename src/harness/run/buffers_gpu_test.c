/* The buffer requests on a GPU: a host + device pair and pinned memory are
 * met; a device request larger than the card is refused without leaving a
 * sticky CUDA error, and the requests after it are skipped. */
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "harness/testing/gpu_test.h"
#include "harness/testing/test_util.h"

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    ladder_size size = {.count = 1, .dim = {4096}};
    ladder_status status = LADDER_OK;
    char err[256] = "";

    ladder_buffers met = {0};
    float *host = NULL, *dev = NULL, *pinned = NULL;
    ladder_buffers_pair(&met, (void **)&host, (void **)&dev, 4096 * sizeof(float));
    ladder_buffers_pinned(&met, (void **)&pinned, 4096 * sizeof(float));
    EXPECT(host && dev && pinned && !met.failed);
    EXPECT(ladder_buffers_missing(&met, &size, &status, err, sizeof err) == 0);
    for (int i = 0; i < 4096; ++i) pinned[i] = (float)i;
    CUDA_CHECK(cudaMemcpy(dev, pinned, 4096 * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(host, dev, 4096 * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(host[4095] == 4095.0f);
    free(host);
    CUDA_CHECK(cudaFree(dev));
    CUDA_CHECK(cudaFreeHost(pinned));

    ladder_buffers refused = {0};
    void *too_big = (void *)1, *after = (void *)1;
    size_t card_and_more = device.global_mem_bytes * 2;
    ladder_buffers_device(&refused, &too_big, card_and_more);
    ladder_buffers_device(&refused, &after, 16);
    EXPECT(refused.failed && too_big == NULL && after == NULL);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(ladder_buffers_missing(&refused, &size, &status, err, sizeof err) == 1 && status == LADDER_NO_MEMORY);
    EXPECTF(strstr(err, "4096 needs 0.00 GB of host memory and ") && strstr(err, "not available"), "'%s'", err);
    printf("refused: %s\n", err);
    return test_result("buffers_gpu_test");
}
