#include "check.h"

#include <cublas_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void (*fatal_hook)(const char *message);

void ladder_on_fatal(void (*hook)(const char *message))
{
    fatal_hook = hook;
}

static void report_fatal(const char *message)
{
    fprintf(stderr, "ladder: %s\n", message);
    /* Taken before the call: a hook that fails itself must not loop. */
    void (*hook)(const char *) = fatal_hook;
    fatal_hook = NULL;
    if (hook) hook(message);
}

void ladder_die(const char *fmt, ...)
{
    char message[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    report_fatal(message);
    exit(LADDER_EXIT_FAILURE);
}

void ladder_die_unrecoverable(int code, const char *message)
{
    report_fatal(message);
    fflush(stdout);
    fflush(stderr);
    _exit(code);
}

void ladder_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
    ladder_die("CUDA error %s (%s) in %s at %s:%d", cudaGetErrorName(err), cudaGetErrorString(err),
               call, file, line);
}

void ladder_cublas_fail(int status, const char *call, const char *file, int line)
{
    ladder_die("cuBLAS error %s (%s) in %s at %s:%d", cublasGetStatusName((cublasStatus_t)status),
               cublasGetStatusString((cublasStatus_t)status), call, file, line);
}

int ladder_try_cuda_malloc(void **ptr, size_t bytes)
{
    cudaError_t err = cudaMalloc(ptr, bytes);
    if (err == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *ptr = NULL;
        return -1;
    }
    if (err != cudaSuccess) ladder_cuda_fail(err, "cudaMalloc", __FILE__, __LINE__);
    return 0;
}

void *ladder_host_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) ladder_die("out of host memory allocating %.1f MB", (double)bytes / 1e6);
    return p;
}
