/* The GPUs of a run (`run` and `device`): whether there is one, which ones
 * --device names, each opened with its measured ceilings; and the output
 * files, one per GPU, checked writable before any work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/measure/contention.h"
#include "harness/measure/energy.h"
#include "harness/measure/timing.h"
#include "harness/record/atomic_file.h"
#include "harness/run/stop.h"

void save_document(const ladder_run_document *doc)
{
    char err[512];
    if (ladder_document_save(doc, err, sizeof err) != 0) ladder_die("%s", err);
}

void end_gpu_run(ladder_run_document *doc, ladder_results *results)
{
    ladder_document_keep_on_error(NULL);
    if (ladder_stop_signal()) {
        doc->info->stopped_by = ladder_stop_signal_name();
        save_document(doc);
        fprintf(stderr, "ladder: stopped by %s\n", doc->info->stopped_by);
        ladder_document_announce_kept(doc);
    } else {
        doc->info->complete = 1;
        save_document(doc);
    }
    ladder_results_free(results);
    ladder_energy_close();
    ladder_timing_shutdown();
}

/* The output file for one GPU of the run: FILE itself with one GPU, else
 * FILE with "-gpuN" before its extension (run.json: run-gpu0.json, ...), one
 * whole document per GPU in the schema of a single-GPU run. */
const char *output_for_gpu(const cli *c, const char *path, int ordinal, char *buf, size_t len)
{
    if (!path || c->device_count == 1) return path;
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    size_t stem = dot && (!slash || dot > slash) && dot[1] ? (size_t)(dot - path) : strlen(path);
    if ((size_t)snprintf(buf, len, "%.*s-gpu%d%s", (int)stem, path, ordinal, path + stem) >= len)
        ladder_die("output path too long: %.60s...", path);
    return buf;
}

/* Before any work: an output that cannot be written fails now, not after
 * minutes of measuring. */
void check_outputs(const cli *c)
{
    for (int g = 0; g < c->device_count; ++g) {
        char json[4096], csv[4096], err[512];
        const char *json_path = output_for_gpu(c, c->json_path, c->devices[g], json, sizeof json);
        const char *csv_path = output_for_gpu(c, c->csv_path, c->devices[g], csv, sizeof csv);
        if (json_path && ladder_check_writable(json_path, err, sizeof err) != 0) ladder_die("%s", err);
        if (csv_path && ladder_check_writable(csv_path, err, sizeof err) != 0) ladder_die("%s", err);
    }
}

/* Without a GPU (or a driver) nothing can be measured: the run fails, and
 * says what works here instead, with the exact commands. */
static void die_without_gpu(cudaError_t e)
{
    /* The commands as they work from here: the path this binary was run by
     * (build/ladder until it is on the PATH). */
    const char *me = ladder_program;
    fprintf(stderr,
            "ladder: no CUDA device found (%s)\n"
            "ladder measures on an NVIDIA GPU: it needs one with its driver (compute capability 7.5 or newer\n"
            "for the default build). Without one, these work:\n"
            "  %s list [CASE]\n"
            "      the cases, and each rung's one-line story\n"
            "  %s report %s/nvidia-h100-80gb-hbm3.json -o report.html\n"
            "      the report of a committed run on a real GPU (others beside it)\n"
            "  %s compare %s/nvidia-h100-80gb-hbm3.json %s/nvidia-h200.json\n"
            "      two committed runs side by side\n"
            "  %s occupancy --cc 9.0 --threads 256 --regs 64 --smem 49152\n"
            "      the occupancy calculator, for any compute capability\n"
            "  %s blur IN.ppm OUT.ppm\n"
            "      smooth a PPM/PAM image with the CPU reference\n",
            ladder_no_gpu_reason(e), me, me, LADDER_RESULTS_DIR, me, LADDER_RESULTS_DIR, LADDER_RESULTS_DIR, me, me);
    exit(LADDER_EXIT_FAILURE);
}

/* Before any work on a GPU: there is one. */
static int require_gpu(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) die_without_gpu(e);
    return count;
}

/* --device all: every GPU the run can see (this needs the driver). */
void resolve_devices(cli *c)
{
    int count = require_gpu();
    if (!c->all_devices) return;
    c->device_count = count < MAX_DEVICES ? count : MAX_DEVICES;
    for (int g = 0; g < c->device_count; ++g) c->devices[g] = g;
}

/* Open one GPU of the run: its properties, whether it is the run's own, its
 * measured ceilings (the tensor ones when `tensor`: a few seconds, spent
 * only where a case is held to them, and by `ladder device`); printed as the
 * header of its block. */
void open_gpu(const cli *c, int ordinal, ladder_device *device, ladder_run_info *info, int tensor)
{
    char err[512];
    if (ladder_device_open(ordinal, device, err, sizeof err) != 0) ladder_die("%s", err);
    if (c->device_count > 1) printf("\n==== GPU %d of this run: %s ====\n", ordinal, device->name);
    ladder_contention_open(device->pci_bus_id);
    info->contention = ladder_contention_seen();
    if (!info->contention->checked) fprintf(stderr, "ladder: %s\n", info->contention->note);
    ladder_contention_poll();
    ladder_device_measure_ceilings(device, c->quick);
    if (tensor) ladder_device_measure_tensor_ceilings(device, c->quick);
    ladder_energy_open(device, !c->no_energy, NULL);
    ladder_print_device(stdout, device);
}
