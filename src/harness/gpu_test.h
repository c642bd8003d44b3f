/* The start of every GPU test (and gpu_validate): GPU 0 opened, or the
 * reason printed and the process ended with 77, which ctest reports as
 * skipped, never passed. */
#ifndef LADDER_GPU_TEST_H
#define LADDER_GPU_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "device.h"

static inline void open_device_or_skip(ladder_device *device)
{
    char err[512];
    if (ladder_device_open(0, device, err, sizeof err) != 0) {
        printf("skipped: %s\n", err);
        exit(LADDER_EXIT_SKIP_TEST);
    }
}

#endif
