/* Several GPUs: which GPUs a multi-GPU case spans, and how two of them are
 * joined (NVLink links and their rate, read through NVML at run time by
 * nvml.h's loader, so that ladder builds and tests where there is no driver). */
#ifndef LADDER_GPUS_H
#define LADDER_GPUS_H

#include <cuda_runtime_api.h>

#define LADDER_MAX_GPUS 8

/* The GPUs of a multi-GPU case: the run's device (the current CUDA device,
 * `--device N`) first, then every other visible GPU in ordinal order, at most
 * `max`. Restrict the set with CUDA_VISIBLE_DEVICES. Returns the count; 0
 * when CUDA sees no GPU. */
int ladder_run_gpus(int *ordinals, int max);

/* A stream on each GPU of a multi-GPU variant, so that the harness's events
 * on the run's stream span the work of every GPU: fork makes every other
 * GPU's stream wait for the run's stream (the start event is already on it),
 * join makes the run's stream wait for all of them (the stop event comes
 * after). Between samples the harness waits for the stop event, so the GPUs
 * are idle and synchronized when each sample starts. */
typedef struct ladder_gpu_streams {
    int n;
    int gpu[LADDER_MAX_GPUS];
    cudaStream_t stream[LADDER_MAX_GPUS]; /* [0]: the run's stream, set by fork; the others owned */
    cudaEvent_t mark[LADDER_MAX_GPUS];    /* on each GPU, no timing */
} ladder_gpu_streams;

/* Streams and events on gpus[1..n-1] and an event on gpus[0]; the current
 * device is gpus[0] again on return. */
void ladder_gpu_streams_create(ladder_gpu_streams *s, const int *gpus, int n);
void ladder_gpu_streams_destroy(ladder_gpu_streams *s);
void ladder_gpu_streams_fork(ladder_gpu_streams *s, cudaStream_t run_stream);
void ladder_gpu_streams_join(ladder_gpu_streams *s);
/* Record GPU i's mark after the work queued on its stream so far. */
void ladder_gpu_streams_mark(ladder_gpu_streams *s, int i);
/* GPU i's stream waits for GPU j's latest mark. */
void ladder_gpu_streams_wait(ladder_gpu_streams *s, int i, int j);
/* Every stream waits for every other's work so far. */
void ladder_gpu_streams_barrier(ladder_gpu_streams *s);
/* Make GPU i current (kernels launch on the current device's streams). */
void ladder_gpu_streams_use(const ladder_gpu_streams *s, int i);

/* A PCI address as NVML and CUDA write it, "0000:19:00.0" or
 * "00000000:19:00.0" (NVML pads the domain to 8 digits): 0, or -1 when the
 * text is not one. */
typedef struct ladder_pci_address {
    unsigned domain, bus, device, function;
} ladder_pci_address;
int ladder_parse_pci_address(const char *text, ladder_pci_address *out);

/* One NVLink of a GPU, as NVML reports it. */
enum ladder_nvlink_remote { LADDER_REMOTE_GPU = 0, LADDER_REMOTE_CPU = 1, LADDER_REMOTE_SWITCH = 2 };
typedef struct ladder_nvlink_port {
    int active;
    int remote_type; /* enum ladder_nvlink_remote; -1 when NVML did not say */
    ladder_pci_address remote;
} ladder_nvlink_port;

/* How GPU a reaches GPU b. */
typedef struct ladder_link {
    int nvml;            /* NVML answered for a: otherwise the rest is unknown */
    int nvlinks;         /* a's active links that lead to b: directly, or through NVSwitches */
    int through_switch;  /* the links lead to NVSwitches (any GPU behind them), not to b itself */
    double link_gbps;    /* rate of one link, each way, GB/s; NaN when NVML did not say */
} ladder_link;

/* Count a's links to b from a's ports: those whose remote end is b, or,
 * when none is, every active link to an NVSwitch (an NVSwitch fabric gives
 * each GPU its links' whole rate to any peer). */
ladder_link ladder_link_from_ports(const ladder_nvlink_port *ports, int port_count, const ladder_pci_address *b);

/* Ask NVML about a's ports (PCI bus ids as cudaDeviceGetPCIBusId writes
 * them). Without NVML: nvml = 0, nvlinks = 0, link_gbps NaN. */
ladder_link ladder_link_between(const char *bus_id_a, const char *bus_id_b);

/* Text for a link: "18 NVLinks of 26.6 GB/s", "NVLink through NVSwitch (18
 * links)", "no NVLink (PCIe)", "unknown (NVML not available)". */
void ladder_describe_link(const ladder_link *link, char *buf, unsigned long len);

#endif
