#include "nvml.h"

#include <dlfcn.h>
#include <stddef.h>

static void *library;
static int initialized; /* 1 loaded and initialized, -1 failed */

static int nvml_ready(void)
{
    if (initialized) return initialized > 0;
    initialized = -1;
    library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    int (*init)(void) = (int (*)(void))dlsym(library, "nvmlInit_v2");
    if (!init || init() != 0) return 0;
    initialized = 1;
    return 1;
}

void *ladder_nvml_symbol(const char *name)
{
    return nvml_ready() ? dlsym(library, name) : NULL;
}

nvml_device ladder_nvml_device(const char *pci_bus_id)
{
    int (*by_bus_id)(const char *, nvml_device *) =
        (int (*)(const char *, nvml_device *))ladder_nvml_symbol("nvmlDeviceGetHandleByPciBusId_v2");
    nvml_device device;
    return by_bus_id && by_bus_id(pci_bus_id, &device) == 0 ? device : NULL;
}
