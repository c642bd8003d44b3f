/* The buffer requests without a GPU: host requests are met or refused (past
 * the physical memory, before malloc's overcommit), every request after a
 * refusal is skipped with its pointer NULL (so no CUDA call is made), and the
 * message names the size and the totals asked for. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "harness/testing/test_util.h"

int main(void)
{
    ladder_size size = {.count = 2, .dim = {300, 7}};
    ladder_status status = LADDER_OK;
    char err[256] = "";

    ladder_buffers met = {0};
    float *a = (float *)1, *b = (float *)1;
    ladder_buffers_host(&met, (void **)&a, 1000 * sizeof(float));
    ladder_buffers_host(&met, (void **)&b, 0); /* an empty array still gets a pointer to free */
    EXPECT(a && b && !met.failed);
    a[999] = 1.0f;
    EXPECT(ladder_buffers_missing(&met, &size, &status, err, sizeof err) == 0 && status == LADDER_OK && !err[0]);
    free(a);
    free(b);

    /* More than the machine has: refused without touching it, then nothing else is tried. */
    ladder_buffers refused = {0};
    void *huge = (void *)1, *pinned = (void *)1, *device = (void *)1, *host = (void *)1, *pair_device = (void *)1;
    ladder_buffers_host(&refused, &huge, (size_t)1 << 62);
    EXPECT(refused.failed && huge == NULL);
    ladder_buffers_pinned(&refused, &pinned, 2000000000);
    ladder_buffers_device(&refused, &device, 3000000000);
    ladder_buffers_pair(&refused, &host, &pair_device, 1000000000);
    EXPECT(pinned == NULL && device == NULL && host == NULL && pair_device == NULL);
    EXPECT(ladder_buffers_missing(&refused, &size, &status, err, sizeof err) == 1);
    EXPECT(status == LADDER_NO_MEMORY);
    char want[256];
    snprintf(want, sizeof want,
             "300x7 needs %.2f GB of host memory (2.00 GB of it pinned) and 4.00 GB of device memory; not available",
             ((double)((size_t)1 << 62) + 3e9) / 1e9);
    EXPECTF(strcmp(err, want) == 0, "message '%s', want '%s'", err, want);

    /* Without pinned memory the message does not mention it. */
    ladder_buffers plain = {.host_bytes = 1e9, .device_bytes = 2e9, .failed = 1};
    ladder_size one = {.count = 1, .dim = {1024}};
    ladder_buffers_missing(&plain, &one, &status, err, sizeof err);
    EXPECTF(strcmp(err, "1024 needs 1.00 GB of host memory and 2.00 GB of device memory; not available") == 0,
            "message '%s'", err);
    return test_result("buffers_test");
}
