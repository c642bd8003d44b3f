/* Every CUDA and cuBLAS call is checked; a failure names the call's file and
 * line and the library's own error string, then exits. */
#ifndef LADDER_CHECK_H
#define LADDER_CHECK_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes shared by the CLI and the tests. */
enum {
    LADDER_EXIT_FAILURE = 1,   /* runtime error: CUDA, no device, out of memory, I/O */
    LADDER_EXIT_USAGE = 2,     /* bad command line or size */
    LADDER_EXIT_INVALID = 3,   /* a variant produced a wrong result */
    LADDER_EXIT_HUNG = 4,      /* a variant did not finish within its limit (watchdog.h) */
    LADDER_EXIT_USER_FAULT = 5, /* `ladder try`: a tried kernel ended its process (a CUDA error) */
    LADDER_EXIT_SKIP_TEST = 77 /* ctest's "skipped" */
};

void ladder_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* A GPU that will never answer again: the message and the fatal hook as
 * ladder_die, then _exit(code) without the exit handlers, whose CUDA
 * teardown would wait on the kernel that never returns. Safe to call from
 * a thread other than the one that is stuck. */
void ladder_die_unrecoverable(int code, const char *message) __attribute__((noreturn));

/* Called once, with the message, by the first fatal error before the process
 * exits: the run uses it to keep the results it finished. NULL removes it. */
void ladder_on_fatal(void (*hook)(const char *message));
void ladder_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
    __attribute__((noreturn));
void ladder_cublas_fail(int status, const char *call, const char *file, int line)
    __attribute__((noreturn));

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t ladder_err_ = (call);                                       \
        if (ladder_err_ != cudaSuccess)                                         \
            ladder_cuda_fail(ladder_err_, #call, __FILE__, __LINE__);           \
    } while (0)

/* After a kernel launch: launch-configuration errors surface here. */
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

#define CUBLAS_CHECK(call)                                                      \
    do {                                                                        \
        int ladder_status_ = (int)(call);                                       \
        if (ladder_status_ != 0)                                                \
            ladder_cublas_fail(ladder_status_, #call, __FILE__, __LINE__);      \
    } while (0)

/* cudaMalloc that reports running out of memory instead of exiting: returns 0
 * on success, -1 when the device has no room (the sticky error is cleared). */
int ladder_try_cuda_malloc(void **ptr, size_t bytes);

/* malloc that exits with a clear message when the host has no room. */
void *ladder_host_alloc(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
