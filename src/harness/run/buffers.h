/* A case's buffers, asked for together. Each request is tried only while the
 * earlier ones succeeded (after a failure the pointer is left NULL, which the
 * case's destroy frees harmlessly); the totals make the one out-of-memory
 * message every case gives. Host requests beyond 80 % of the physical memory
 * fail before malloc, whose overcommit would let the first touch, not the
 * request, run the machine out of memory. */
#ifndef LADDER_BUFFERS_H
#define LADDER_BUFFERS_H

#include <stddef.h>

#include "harness/case.h"

typedef struct ladder_buffers {
    double host_bytes, pinned_bytes, device_bytes; /* asked for, together */
    int failed;
} ladder_buffers;

void ladder_buffers_host(ladder_buffers *b, void **ptr, size_t bytes);
void ladder_buffers_pinned(ladder_buffers *b, void **ptr, size_t bytes); /* cudaMallocHost */
void ladder_buffers_device(ladder_buffers *b, void **ptr, size_t bytes);
/* One array on both sides: a host copy and a device copy of `bytes` each. */
void ladder_buffers_pair(ladder_buffers *b, void **host, void **device, size_t bytes);

/* 0 when every request was met; else LADDER_NO_MEMORY in *status and, in
 * err, "8192x8192 needs 0.54 GB of host memory and 0.54 GB of device memory;
 * not available" (the pinned part of the host memory said where there is some). */
int ladder_buffers_missing(const ladder_buffers *b, const ladder_size *size, ladder_status *status, char *err,
                           size_t err_len);

#endif
