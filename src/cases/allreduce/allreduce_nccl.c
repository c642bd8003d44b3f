/* The all-reduce ladder's baseline: NCCL's ncclAllReduce over one
 * communicator per GPU, all made at once (ncclCommInitAll) when the case is
 * created, outside the timed region, and one grouped call per sample. Built
 * with LADDER_HAVE_NCCL only; without it the baseline says "built without
 * NCCL". NVLink SHARP stays off (allreduce_keep_nvls_off). */
#include "allreduce.h"

#include <stdio.h>
#include <stdlib.h>

#include "harness/check/check.h"

#ifdef LADDER_HAVE_NCCL
#include <nccl.h>
#endif

void allreduce_keep_nvls_off(void) { setenv("NCCL_NVLS_ENABLE", "0", 0); }

#ifndef LADDER_HAVE_NCCL

allreduce_nccl *allreduce_nccl_create(const int *gpus, int n, char *err, size_t err_len)
{
    (void)gpus, (void)n;
    snprintf(err, err_len, "built without NCCL");
    return NULL;
}

void allreduce_nccl_run(allreduce_nccl *comms, float *const *data, long long count, ladder_gpu_streams *streams,
                        cudaStream_t stream)
{
    (void)comms, (void)data, (void)count, (void)streams, (void)stream; /* unsupported() keeps it from running */
}

void allreduce_nccl_destroy(allreduce_nccl *comms)
{
    (void)comms;
}

#else

struct allreduce_nccl {
    ncclComm_t comms[ALLREDUCE_MAX_GPUS];
    int n;
};

allreduce_nccl *allreduce_nccl_create(const int *gpus, int n, char *err, size_t err_len)
{
    allreduce_keep_nvls_off();
    allreduce_nccl *c = calloc(1, sizeof *c);
    if (!c) ladder_die("out of host memory");
    ncclResult_t e = ncclCommInitAll(c->comms, n, gpus);
    (void)cudaGetLastError(); /* as after each call: see allreduce_nccl_run */
    CUDA_CHECK(cudaSetDevice(gpus[0]));
    if (e != ncclSuccess) {
        snprintf(err, err_len, "ncclCommInitAll: %s", ncclGetErrorString(e));
        free(c);
        return NULL;
    }
    c->n = n;
    return c;
}

void allreduce_nccl_run(allreduce_nccl *c, float *const *data, long long count, ladder_gpu_streams *g,
                        cudaStream_t stream)
{
    ladder_gpu_streams_fork(g, stream);
    if (ncclGroupStart() != ncclSuccess) ladder_die("ncclGroupStart failed");
    for (int k = 0; k < c->n; ++k) {
        ncclResult_t e = ncclAllReduce(data[k], data[k], (size_t)count, ncclFloat, ncclSum, c->comms[k], g->stream[k]);
        if (e != ncclSuccess) ladder_die("ncclAllReduce: %s", ncclGetErrorString(e));
    }
    ncclResult_t e = ncclGroupEnd();
    if (e != ncclSuccess) ladder_die("ncclGroupEnd: %s", ncclGetErrorString(e));
    /* NCCL connects its peers at the first call and may leave "peer access
     * already enabled" (ours) as the runtime's last error; NCCL's own
     * failures came back through its return codes above. */
    (void)cudaGetLastError();
    ladder_gpu_streams_join(g);
}

void allreduce_nccl_destroy(allreduce_nccl *c)
{
    if (!c) return;
    for (int k = 0; k < c->n; ++k) ncclCommDestroy(c->comms[k]);
    free(c);
}

#endif
