/* `ladder device`: each GPU's properties, theoretical peaks and measured
 * ceilings, with --json/--csv a document without records. */
#include "cli.h"
#include "harness/device/device.h"
#include "harness/measure/timing.h"

int command_device(cli *c, ladder_run_info *info)
{
    if (c->case_count || c->size_count || c->variant || c->ncu)
        usage_error("device takes no cases, sizes, variants or --ncu%s", "");
    if (!c->all_devices) check_outputs(c);
    resolve_devices(c);
    if (c->all_devices) check_outputs(c);
    for (int g = 0; g < c->device_count; ++g) {
        ladder_device device;
        open_gpu(c, c->devices[g], &device, info, 1);
        ladder_results none = {0};
        info->complete = 1;
        char json[4096], csv[4096];
        ladder_run_document doc = {output_for_gpu(c, c->json_path, c->devices[g], json, sizeof json),
                                   output_for_gpu(c, c->csv_path, c->devices[g], csv, sizeof csv), &device, &none,
                                   info, 1};
        save_document(&doc);
        ladder_timing_shutdown();
    }
    return 0;
}
