/* The SM clock and throttle state, read through NVML when the driver has it.
 * NVML is loaded at run time so that ladder builds and its CPU tests run on
 * machines without an NVIDIA driver; without it clocks read as unknown. */
#ifndef LADDER_GPU_CLOCK_H
#define LADDER_GPU_CLOCK_H

typedef struct ladder_clock_sample {
    double sm_mhz;   /* current SM clock; NAN when unknown */
    int throttled;   /* power, thermal or hardware slowdown active */
} ladder_clock_sample;

/* Bind to the CUDA device with this PCI bus id ("0000:01:00.0").
 * Returns 0 when clocks can be read. */
int ladder_clock_open(const char *pci_bus_id);
ladder_clock_sample ladder_clock_read(void);

#endif
