#include "gpu_clock.h"

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>

/* The few NVML entry points used, declared from NVML's public API reference
 * (the toolkit here ships no nvml.h). Return value 0 is NVML_SUCCESS. */
typedef struct nvml_device_opaque *nvml_device;
#define NVML_CLOCK_SM 1
/* Throttle reasons that mean the clock was pulled down by power, heat or a
 * hardware slowdown, not by idleness or an application clock setting. */
#define NVML_REASON_SW_POWER_CAP 0x4ull
#define NVML_REASON_HW_SLOWDOWN 0x8ull
#define NVML_REASON_SW_THERMAL 0x20ull
#define NVML_REASON_HW_THERMAL 0x40ull
#define NVML_REASON_HW_POWER_BRAKE 0x80ull
#define NVML_THROTTLING_REASONS                                                           \
    (NVML_REASON_SW_POWER_CAP | NVML_REASON_HW_SLOWDOWN | NVML_REASON_SW_THERMAL |      \
     NVML_REASON_HW_THERMAL | NVML_REASON_HW_POWER_BRAKE)

static struct {
    nvml_device device;
    int (*get_clock)(nvml_device, int, unsigned *);
    int (*get_reasons)(nvml_device, unsigned long long *);
} nvml;

int ladder_clock_open(const char *pci_bus_id)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return -1;
    int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    int (*by_bus_id)(const char *, nvml_device *) =
        (int (*)(const char *, nvml_device *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.get_clock = (int (*)(nvml_device, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    nvml.get_reasons = (int (*)(nvml_device, unsigned long long *))dlsym(
        lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml.get_reasons)
        nvml.get_reasons = (int (*)(nvml_device, unsigned long long *))dlsym(
            lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !by_bus_id || !nvml.get_clock || init() != 0 || by_bus_id(pci_bus_id, &nvml.device) != 0) {
        nvml.device = NULL;
        return -1;
    }
    return 0;
}

ladder_clock_sample ladder_clock_read(void)
{
    ladder_clock_sample s = {NAN, 0};
    if (!nvml.device) return s;
    unsigned mhz;
    if (nvml.get_clock(nvml.device, NVML_CLOCK_SM, &mhz) == 0) s.sm_mhz = mhz;
    unsigned long long reasons;
    if (nvml.get_reasons && nvml.get_reasons(nvml.device, &reasons) == 0)
        s.throttled = (reasons & NVML_THROTTLING_REASONS) != 0;
    return s;
}
