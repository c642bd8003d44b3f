#include "gpu_clock.h"

#include <math.h>
#include <stddef.h>

#include "harness/device/nvml.h"

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
    nvml.get_clock = (int (*)(nvml_device, int, unsigned *))ladder_nvml_symbol("nvmlDeviceGetClockInfo");
    nvml.get_reasons =
        (int (*)(nvml_device, unsigned long long *))ladder_nvml_symbol("nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml.get_reasons)
        nvml.get_reasons = (int (*)(nvml_device, unsigned long long *))ladder_nvml_symbol(
            "nvmlDeviceGetCurrentClocksThrottleReasons");
    nvml.device = nvml.get_clock ? ladder_nvml_device(pci_bus_id) : NULL;
    return nvml.device ? 0 : -1;
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
