/* The start of every GPU test (and gpu_validate): GPU 0 opened (and for the
 * multi-GPU tests, the other GPUs found), or the reason printed and the
 * process ended with 77, which ctest reports as skipped, never passed. */
#ifndef LADDER_GPU_TEST_H
#define LADDER_GPU_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/device/gpus.h"

static inline void open_device_or_skip(ladder_device *device)
{
    char err[512];
    if (ladder_device_open(0, device, err, sizeof err) != 0) {
        printf("skipped: %s\n", err);
        exit(LADDER_EXIT_SKIP_TEST);
    }
}

/* The case's state at the size `text`, or the reason and exit 1. */
static inline void *create_case_or_die(const ladder_case *c, const char *text)
{
    char err[512];
    ladder_size size;
    ladder_status status;
    if (ladder_parse_size(text, &size, err, sizeof err) != 0) ladder_die("%s", err);
    void *state = c->create(&size, &status, err, sizeof err);
    if (!state) ladder_die("%s %s: %s", c->name, text, err);
    return state;
}

/* The output of the variant's last run, copied to the host (free() it). */
static inline void *copy_output(const ladder_case *c, void *state, const ladder_variant *v)
{
    ladder_output out = c->output(state, v);
    void *host = ladder_host_alloc(out.bytes);
    CUDA_CHECK(cudaMemcpy(host, out.ptr, out.bytes, cudaMemcpyDeviceToHost));
    return host;
}

/* For the multi-GPU tests: GPU 0 opened, and the run's GPUs (gpus.h) into
 * gpus, at least `needed` of them with peer access between every pair, or
 * the reason printed and exit 77. Returns how many GPUs the run has. */
static inline int open_gpus_or_skip(ladder_device *device, int needed, int *gpus)
{
    open_device_or_skip(device);
    int n = ladder_run_gpus(gpus, LADDER_MAX_GPUS);
    if (n < needed) {
        printf("skipped: needs %d GPUs; this machine has %d\n", needed, n);
        exit(LADDER_EXIT_SKIP_TEST);
    }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            int can = 1;
            if (i != j) CUDA_CHECK(cudaDeviceCanAccessPeer(&can, gpus[i], gpus[j]));
            if (!can) {
                printf("skipped: no peer access from GPU %d to GPU %d\n", gpus[i], gpus[j]);
                exit(LADDER_EXIT_SKIP_TEST);
            }
        }
    return n;
}

/* LADDER_SKIP_BASELINES=1: the vendor baselines and references are not
 * run (scripts/gpu-check.sh sets it under racecheck, whose reports inside
 * cuBLAS's own kernels are NVIDIA's to answer, and whose kernel-name
 * filter crashed the tool on an H100 with cuBLAS's BF16 kernels). */
static inline int ladder_skip_baselines(void)
{
    const char *v = getenv("LADDER_SKIP_BASELINES");
    return v && v[0] && v[0] != '0';
}

/* LADDER_UNDER_SANITIZER=1: the process runs under compute-sanitizer
 * (scripts/gpu-check.sh sets it for every tool). The tools slow every kernel
 * many times over (racecheck instruments every shared-memory access), so
 * tests leave out what measures time and what only repeats a check on more
 * data. */
static inline int ladder_under_sanitizer(void)
{
    const char *v = getenv("LADDER_UNDER_SANITIZER");
    return v && v[0] && v[0] != '0';
}

/* The sizes a GPU test validates case c at, NULL-terminated: its
 * sanitizer_sizes under a sanitizer where it has them (case.h), else its
 * test_sizes. */
static inline const char *const *ladder_validation_sizes(const ladder_case *c)
{
    return ladder_under_sanitizer() && c->sanitizer_sizes[0] ? c->sanitizer_sizes : c->test_sizes;
}

/* Fresh input draws a variant is validated with at each size: two, or one
 * under a sanitizer, whose tools check accesses, which the ladder's kernels
 * make the same whatever values are drawn. */
static inline int ladder_validation_draws(void)
{
    return ladder_under_sanitizer() ? 1 : 2;
}

#endif
