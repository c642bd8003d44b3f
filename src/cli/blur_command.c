/* `ladder blur IN OUT`: a real image through a rung of the blur ladder. */
#include <stdio.h>
#include <string.h>

#include "cases/blur/blur.h"
#include "cli.h"
#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/record/atomic_file.h"
#include "harness/run/runner.h"
#include "io/netpbm.h"

/* `ladder blur IN OUT`: a real image through a rung of the blur ladder, or
 * through the CPU reference where there is no GPU; the output is written
 * whole or not at all, in the input's format. */
int command_blur(int argc, char **argv)
{
    const char *paths[2], *variant = blur_default_variant;
    int path_count = 0, device_ordinal = 0, device_given = 0;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--variant") == 0) {
            variant = option_value(argc, argv, &i);
        } else if (strcmp(argv[i], "--device") == 0) {
            device_ordinal = (int)parse_count("--device", option_value(argc, argv, &i), 0, 1024);
            device_given = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage_error("unknown option '%s' for blur", argv[i]);
        } else if (path_count == 2) {
            usage_error("blur takes one input and one output, not '%s'", argv[i]);
        } else {
            paths[path_count++] = argv[i];
        }
    }
    if (path_count != 2) usage_error("blur needs IN and OUT image paths%s", "");
    char err[512];
    if (ladder_check_writable(paths[1], err, sizeof err) != 0) ladder_die("%s", err);
    int index = ladder_find_variant(&blur_case, variant);
    if (index < 0 || (blur_case.variants[index].flags & LADDER_BASELINE))
        usage_error("no blur rung '%s' (see ladder list blur)", variant);

    netpbm_image image;
    if (netpbm_read(paths[0], &image, err, sizeof err) != 0) ladder_die("%s", err);
    netpbm_image smoothed = image;
    smoothed.samples = ladder_host_alloc(netpbm_sample_count(&image) * (size_t)image.sample_bytes);
    ladder_device device;
    if (ladder_device_open(device_ordinal, &device, err, sizeof err) != 0) {
        if (device_given) ladder_die("%s", err);
        fprintf(stderr, "ladder blur: %s; smoothing on the CPU (OpenMP reference)\n", err);
        blur_reference(image.samples, smoothed.samples, image.width, image.height, image.channels, image.sample_bytes);
    } else {
        const ladder_variant *v = &blur_case.variants[index];
        const char *ran = blur_samples_on_gpu(image.samples, smoothed.samples, image.width, image.height,
                                              image.channels, image.sample_bytes, v, err, sizeof err);
        if (!ran) ladder_die("%s", err);
        if (strcmp(ran, v->name) != 0)
            fprintf(stderr, "ladder blur: %s takes 8-bit RGB; this %d-bit %d-channel image ran the %s kernel\n",
                    v->name, 8 * image.sample_bytes, image.channels, ran);
    }
    if (ladder_write_atomically(paths[1], netpbm_emit, &smoothed, err, sizeof err) != 0) ladder_die("%s", err);
    netpbm_free(&smoothed);
    netpbm_free(&image);
    return 0;
}
