/* The driver's NVML, loaded at run time: ladder builds, and its CPU tests
 * run, on machines without an NVIDIA driver. One loader serves every reader
 * (the SM clock, the processes sharing the GPU). The few entry points used
 * are declared from NVML's public API reference: the toolkit ships no nvml.h.
 * Return value 0 is NVML_SUCCESS. */
#ifndef LADDER_NVML_H
#define LADDER_NVML_H

typedef struct nvml_device_opaque *nvml_device;

/* NVML's handle of the CUDA device with this PCI bus id ("0000:01:00.0"), or
 * NULL when the library is missing or does not know the device. */
nvml_device ladder_nvml_device(const char *pci_bus_id);

/* An NVML entry point by name, or NULL (library missing or too old). */
void *ladder_nvml_symbol(const char *name);

#endif
