#include "buffers.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness/check/check.h"

/* What the host requests add up to, this one included, within 80 % of the machine. */
static int host_fits(const ladder_buffers *b)
{
    double physical = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    return b->host_bytes + b->pinned_bytes <= 0.8 * physical;
}

void ladder_buffers_host(ladder_buffers *b, void **ptr, size_t bytes)
{
    *ptr = NULL;
    b->host_bytes += (double)bytes;
    if (b->failed) return;
    if (!host_fits(b) || !(*ptr = malloc(bytes ? bytes : 1))) b->failed = 1;
}

void ladder_buffers_pinned(ladder_buffers *b, void **ptr, size_t bytes)
{
    *ptr = NULL;
    b->pinned_bytes += (double)bytes;
    if (b->failed) return;
    if (!host_fits(b)) {
        b->failed = 1;
        return;
    }
    cudaError_t err = cudaMallocHost(ptr, bytes ? bytes : 1);
    if (err == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *ptr = NULL;
        b->failed = 1;
    } else if (err != cudaSuccess) {
        ladder_cuda_fail(err, "cudaMallocHost", __FILE__, __LINE__);
    }
}

void ladder_buffers_device(ladder_buffers *b, void **ptr, size_t bytes)
{
    *ptr = NULL;
    b->device_bytes += (double)bytes;
    if (b->failed) return;
    if (ladder_try_cuda_malloc(ptr, bytes ? bytes : 1) != 0) b->failed = 1;
}

void ladder_buffers_pair(ladder_buffers *b, void **host, void **device, size_t bytes)
{
    ladder_buffers_host(b, host, bytes);
    ladder_buffers_device(b, device, bytes);
}

int ladder_buffers_missing(const ladder_buffers *b, const ladder_size *size, ladder_status *status, char *err,
                           size_t err_len)
{
    if (!b->failed) return 0;
    *status = LADDER_NO_MEMORY;
    char what[64];
    ladder_format_size(size, what, sizeof what);
    char pinned[64] = "";
    if (b->pinned_bytes > 0) snprintf(pinned, sizeof pinned, " (%.2f GB of it pinned)", b->pinned_bytes / 1e9);
    snprintf(err, err_len, "%s needs %.2f GB of host memory%s and %.2f GB of device memory; not available", what,
             (b->host_bytes + b->pinned_bytes) / 1e9, pinned, b->device_bytes / 1e9);
    return 1;
}
