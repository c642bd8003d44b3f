#include "gpus.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/check/check.h"
#include "nvml.h"

int ladder_run_gpus(int *ordinals, int max)
{
    int count = 0, current = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || max < 1) {
        (void)cudaGetLastError();
        return 0;
    }
    if (cudaGetDevice(&current) != cudaSuccess) return 0;
    int n = 0;
    ordinals[n++] = current;
    for (int d = 0; d < count && n < max; ++d)
        if (d != current) ordinals[n++] = d;
    return n;
}

void ladder_gpu_streams_create(ladder_gpu_streams *s, const int *gpus, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int i = 0; i < n; ++i) {
        s->gpu[i] = gpus[i];
        CUDA_CHECK(cudaSetDevice(gpus[i]));
        if (i > 0) CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream[i], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&s->mark[i], cudaEventDisableTiming));
    }
    if (n > 0) CUDA_CHECK(cudaSetDevice(gpus[0]));
}

void ladder_gpu_streams_destroy(ladder_gpu_streams *s)
{
    for (int i = 0; i < s->n; ++i) {
        if (s->gpu[i] >= 0) cudaSetDevice(s->gpu[i]);
        if (i > 0 && s->stream[i]) cudaStreamDestroy(s->stream[i]);
        if (s->mark[i]) cudaEventDestroy(s->mark[i]);
    }
    if (s->n > 0) cudaSetDevice(s->gpu[0]);
    memset(s, 0, sizeof *s);
}

void ladder_gpu_streams_use(const ladder_gpu_streams *s, int i) { CUDA_CHECK(cudaSetDevice(s->gpu[i])); }

void ladder_gpu_streams_mark(ladder_gpu_streams *s, int i)
{
    ladder_gpu_streams_use(s, i);
    CUDA_CHECK(cudaEventRecord(s->mark[i], s->stream[i]));
}

void ladder_gpu_streams_wait(ladder_gpu_streams *s, int i, int j)
{
    ladder_gpu_streams_use(s, i);
    CUDA_CHECK(cudaStreamWaitEvent(s->stream[i], s->mark[j], 0));
}

void ladder_gpu_streams_fork(ladder_gpu_streams *s, cudaStream_t run_stream)
{
    s->stream[0] = run_stream;
    ladder_gpu_streams_mark(s, 0);
    for (int i = 1; i < s->n; ++i) ladder_gpu_streams_wait(s, i, 0);
    ladder_gpu_streams_use(s, 0);
}

void ladder_gpu_streams_join(ladder_gpu_streams *s)
{
    for (int i = 1; i < s->n; ++i) {
        ladder_gpu_streams_mark(s, i);
        ladder_gpu_streams_wait(s, 0, i);
    }
    ladder_gpu_streams_use(s, 0);
}

void ladder_gpu_streams_barrier(ladder_gpu_streams *s)
{
    /* All marks first: each wait then takes the mark of this barrier. */
    for (int i = 0; i < s->n; ++i) ladder_gpu_streams_mark(s, i);
    for (int i = 0; i < s->n; ++i)
        for (int j = 0; j < s->n; ++j)
            if (i != j) ladder_gpu_streams_wait(s, i, j);
    ladder_gpu_streams_use(s, 0);
}

int ladder_parse_pci_address(const char *text, ladder_pci_address *out)
{
    unsigned domain, bus, device, function;
    int used = 0;
    /* Hex digits and separators only: sscanf's %x would take "0x" and signs. */
    if (!text || text[strspn(text, "0123456789abcdefABCDEF:.")] != '\0') return -1;
    if (sscanf(text, "%x:%x:%x.%x%n", &domain, &bus, &device, &function, &used) != 4 || text[used] != '\0')
        return -1;
    if (bus > 0xff || device > 0x1f || function > 7) return -1;
    *out = (ladder_pci_address){domain, bus, device, function};
    return 0;
}

/* The function number is left out: NVML's remote PCI info names the GPU by
 * domain, bus and device. */
static int same_gpu(const ladder_pci_address *x, const ladder_pci_address *y)
{
    return x->domain == y->domain && x->bus == y->bus && x->device == y->device;
}

ladder_link ladder_link_from_ports(const ladder_nvlink_port *ports, int port_count, const ladder_pci_address *b)
{
    ladder_link link = {1, 0, 0, NAN};
    int to_switch = 0;
    for (int i = 0; i < port_count; ++i) {
        if (!ports[i].active) continue;
        if (ports[i].remote_type == LADDER_REMOTE_SWITCH) ++to_switch;
        else if (ports[i].remote_type != LADDER_REMOTE_CPU && same_gpu(&ports[i].remote, b)) ++link.nvlinks;
    }
    if (link.nvlinks == 0 && to_switch > 0) {
        link.nvlinks = to_switch;
        link.through_switch = 1;
    }
    return link;
}

/* ---- NVML, declared from its public API reference (the toolkit here ships
 * no nvml.h); 0 is NVML_SUCCESS ---- */

/* nvmlPciInfo_t: the numeric fields sit after the 16-byte legacy bus id. */
typedef struct nvml_pci_info {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci_info;
/* nvmlFieldValue_t, for NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON. */
typedef struct nvml_field_value {
    unsigned field_id, scope_id;
    long long timestamp, latency_us;
    int value_type, nvml_return;
    union {
        double d;
        unsigned ui;
        unsigned long ul;
        unsigned long long ull;
        long long sll;
    } value;
} nvml_field_value;
#define NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON 90
#define NVML_NVLINK_MAX_LINKS 18

static struct {
    int tried, ready;
    int (*link_state)(nvml_device, unsigned, int *);
    int (*remote_pci)(nvml_device, unsigned, nvml_pci_info *);
    int (*remote_type)(nvml_device, unsigned, int *);
    int (*field_values)(nvml_device, int, nvml_field_value *);
} nvml;

static int nvml_open(void)
{
    if (nvml.tried) return nvml.ready;
    nvml.tried = 1;
    nvml.link_state = (int (*)(nvml_device, unsigned, int *))ladder_nvml_symbol("nvmlDeviceGetNvLinkState");
    nvml.remote_pci =
        (int (*)(nvml_device, unsigned, nvml_pci_info *))ladder_nvml_symbol("nvmlDeviceGetNvLinkRemotePciInfo_v2");
    nvml.remote_type = (int (*)(nvml_device, unsigned, int *))ladder_nvml_symbol("nvmlDeviceGetNvLinkRemoteDeviceType");
    nvml.field_values = (int (*)(nvml_device, int, nvml_field_value *))ladder_nvml_symbol("nvmlDeviceGetFieldValues");
    nvml.ready = nvml.link_state && nvml.remote_pci;
    return nvml.ready;
}

ladder_link ladder_link_between(const char *bus_id_a, const char *bus_id_b)
{
    ladder_link unknown = {0, 0, 0, NAN};
    ladder_pci_address b;
    nvml_device device;
    if (ladder_parse_pci_address(bus_id_b, &b) != 0 || !nvml_open() || !(device = ladder_nvml_device(bus_id_a)))
        return unknown;
    ladder_nvlink_port ports[NVML_NVLINK_MAX_LINKS];
    int count = 0;
    for (unsigned i = 0; i < NVML_NVLINK_MAX_LINKS; ++i) {
        ladder_nvlink_port *p = &ports[count];
        int active = 0;
        /* A GPU without NVLink answers "not supported" for link 0. */
        if (nvml.link_state(device, i, &active) != 0) break;
        *p = (ladder_nvlink_port){active != 0, -1, {0, 0, 0, 0}};
        nvml_pci_info pci;
        if (p->active && nvml.remote_pci(device, i, &pci) == 0) p->remote = (ladder_pci_address){pci.domain, pci.bus, pci.device, 0};
        int type;
        if (p->active && nvml.remote_type && nvml.remote_type(device, i, &type) == 0) p->remote_type = type;
        ++count;
    }
    ladder_link link = ladder_link_from_ports(ports, count, &b);
    nvml_field_value speed = {.field_id = NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON};
    if (link.nvlinks > 0 && nvml.field_values && nvml.field_values(device, 1, &speed) == 0 && speed.nvml_return == 0 &&
        speed.value.ui > 0)
        link.link_gbps = speed.value.ui / 1e3; /* MB/s, 10^6 bytes */
    return link;
}

void ladder_describe_link(const ladder_link *link, char *buf, unsigned long len)
{
    if (!link->nvml) snprintf(buf, len, "unknown (NVML not available)");
    else if (link->nvlinks == 0) snprintf(buf, len, "no NVLink (PCIe or through the host)");
    else if (isnan(link->link_gbps))
        snprintf(buf, len, "%d NVLinks%s, rate not told by NVML", link->nvlinks,
                 link->through_switch ? " through NVSwitch" : "");
    else
        snprintf(buf, len, "%d NVLinks%s of %.1f GB/s each way: %.0f GB/s", link->nvlinks,
                 link->through_switch ? " through NVSwitch" : "", link->link_gbps, link->nvlinks * link->link_gbps);
}
