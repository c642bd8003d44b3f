#include "contention.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/device/nvml.h"

/* nvmlProcessInfo_t as the _v2 and _v3 listing calls fill it. */
typedef struct nvml_process_info {
    unsigned pid;
    unsigned long long used_gpu_memory;
    unsigned gpu_instance_id, compute_instance_id;
} nvml_process_info;

typedef int (*nvml_list_fn)(nvml_device, unsigned *, nvml_process_info *);

#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define MAX_LISTED 64

static struct {
    nvml_device device;
    nvml_list_fn list_compute, list_graphics;
    int (*process_name)(unsigned, char *, unsigned);
    ladder_contention seen;
} state;

static nvml_list_fn list_function(const char *v3, const char *v2)
{
    nvml_list_fn f = (nvml_list_fn)ladder_nvml_symbol(v3);
    return f ? f : (nvml_list_fn)ladder_nvml_symbol(v2);
}

int ladder_contention_open(const char *pci_bus_id)
{
    memset(&state, 0, sizeof state);
    state.list_compute =
        list_function("nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2");
    state.list_graphics =
        list_function("nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2");
    state.process_name = (int (*)(unsigned, char *, unsigned))ladder_nvml_symbol("nvmlSystemGetProcessName");
    state.device = state.list_compute ? ladder_nvml_device(pci_bus_id) : NULL;
    if (!state.device) {
        snprintf(state.seen.note, sizeof state.seen.note,
                 "NVML is not available: whether other processes shared the GPU could not be checked");
        return -1;
    }
    state.seen.checked = 1;
    return 0;
}

int ladder_other_processes(const unsigned *pids, const unsigned long long *memory, int count, unsigned self_pid,
                           ladder_gpu_process *others, int max_others, int *ambiguous)
{
    int self_listed = 0;
    for (int i = 0; i < count; ++i) self_listed |= pids[i] == self_pid;
    *ambiguous = count > 0 && !self_listed;
    int kept = 0, skipped_one = 0;
    for (int i = 0; i < count; ++i) {
        if (pids[i] == self_pid) continue;
        /* Another namespace's pids: ours is one of them, but which is unknown. */
        if (*ambiguous && !skipped_one) {
            skipped_one = 1;
            continue;
        }
        int duplicate = 0; /* a process with compute and graphics work is listed twice */
        for (int k = 0; k < kept; ++k) duplicate |= others[k].pid == pids[i];
        if (duplicate || kept == max_others) continue;
        others[kept] = (ladder_gpu_process){.pid = pids[i], .used_memory_bytes = memory[i]};
        ++kept;
    }
    return kept;
}

static int list_into(nvml_list_fn list, unsigned *pids, unsigned long long *memory, int at)
{
    nvml_process_info infos[MAX_LISTED];
    unsigned count = MAX_LISTED;
    if (!list || list(state.device, &count, infos) != 0) return at;
    for (unsigned i = 0; i < count && at < 2 * MAX_LISTED; ++i, ++at) {
        pids[at] = infos[i].pid;
        memory[at] = infos[i].used_gpu_memory;
    }
    return at;
}

static void announce(ladder_gpu_process *p)
{
    if (!state.process_name || state.process_name(p->pid, p->name, sizeof p->name) != 0 || !p->name[0])
        snprintf(p->name, sizeof p->name, "?");
    char memory[32] = "memory unknown";
    if (p->used_memory_bytes != ~0ull) snprintf(memory, sizeof memory, "%.0f MiB", p->used_memory_bytes / 1048576.0);
    fprintf(stderr,
            "ladder: warning: another process is using the GPU (pid %u, %s, %s): timings are distorted; "
            "records measured meanwhile are marked contended\n",
            p->pid, p->name, memory);
}

int ladder_contention_poll(void)
{
    if (!state.device) return 0;
    unsigned pids[2 * MAX_LISTED];
    unsigned long long memory[2 * MAX_LISTED];
    int listed = list_into(state.list_compute, pids, memory, 0);
    listed = list_into(state.list_graphics, pids, memory, listed);
    ladder_gpu_process others[LADDER_MAX_OTHER_PROCESSES];
    int ambiguous;
    int count = ladder_other_processes(pids, memory, listed, (unsigned)getpid(), others, LADDER_MAX_OTHER_PROCESSES,
                                       &ambiguous);
    if (ambiguous)
        snprintf(state.seen.note, sizeof state.seen.note,
                 "NVML lists processes by pids of another namespace: one listed process was taken to be this run");
    ladder_contention *seen = &state.seen;
    for (int i = 0; i < count; ++i) {
        int known = 0;
        for (int k = 0; k < seen->process_count; ++k) known |= seen->processes[k].pid == others[i].pid;
        if (known || seen->process_count == LADDER_MAX_OTHER_PROCESSES) continue;
        announce(&others[i]);
        seen->processes[seen->process_count++] = others[i];
    }
    return count;
}

const ladder_contention *ladder_contention_seen(void)
{
    return &state.seen;
}
