/* Is the GPU the run's own? Other processes on it (another benchmark, a
 * training job, a second `ladder run`) take SMs, bandwidth and L2 and distort
 * every timing, so the run asks NVML which processes hold the GPU before it
 * starts and around every variant, warns once per process it finds, and
 * marks the records measured meanwhile. */
#ifndef LADDER_CONTENTION_H
#define LADDER_CONTENTION_H

#include <stddef.h>

#define LADDER_MAX_OTHER_PROCESSES 16

typedef struct ladder_gpu_process {
    unsigned pid;
    char name[64];
    unsigned long long used_memory_bytes; /* ~0ull when NVML cannot say */
} ladder_gpu_process;

/* What the run saw: every other process found at any check. */
typedef struct ladder_contention {
    int checked;       /* NVML answered: the run knows whether the GPU was its own */
    char note[200];    /* why it could not check, or how the processes were told apart */
    ladder_gpu_process processes[LADDER_MAX_OTHER_PROCESSES];
    int process_count;
} ladder_contention;

/* Bind to the device with this PCI bus id; call after the run's own CUDA
 * context exists. Returns 0 when the check can be made. */
int ladder_contention_open(const char *pci_bus_id);

/* Ask NVML now. Returns the number of other processes on the GPU (0 when
 * none, or when the check cannot be made); each one not seen before is added
 * to the run's list and announced with one warning line on stderr. */
int ladder_contention_poll(void);

const ladder_contention *ladder_contention_seen(void);

/* The pure part of a poll, for the tests. From the processes NVML listed
 * (pids, memory), keep those that are not this process in `others`; returns
 * how many. When `self_pid` is not in the list, the pids come from another
 * PID namespace (a container) and this process cannot be told apart: one
 * entry is taken to be ours (*ambiguous is set). */
int ladder_other_processes(const unsigned *pids, const unsigned long long *memory, int count, unsigned self_pid,
                           ladder_gpu_process *others, int max_others, int *ambiguous);

#endif
