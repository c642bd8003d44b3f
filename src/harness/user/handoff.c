#include "handoff.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The file: a magic word, the struct's size (a stale binary's report is not read), the struct. */
#define HANDOFF_MAGIC 0x4c414444u /* "LADD" */

int ladder_try_report_write(const char *path, const ladder_try_report *report)
{
    char temporary[4200];
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    FILE *f = fopen(temporary, "wb");
    if (!f) return -1;
    uint32_t header[2] = {HANDOFF_MAGIC, (uint32_t)sizeof *report};
    int ok = fwrite(header, sizeof header, 1, f) == 1 && fwrite(report, sizeof *report, 1, f) == 1;
    ok &= fclose(f) == 0;
    return ok && rename(temporary, path) == 0 ? 0 : -1;
}

int ladder_try_report_read(const char *path, ladder_try_report *report, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_len, "the child left no report (%s)", strerror(errno));
        return -1;
    }
    uint32_t header[2];
    int ok = fread(header, sizeof header, 1, f) == 1 && header[0] == HANDOFF_MAGIC &&
             header[1] == (uint32_t)sizeof *report && fread(report, sizeof *report, 1, f) == 1;
    fclose(f);
    if (!ok) {
        snprintf(err, err_len, "the child's report is not one this program wrote");
        return -1;
    }
    report->record.ceiling = "";
    return 0;
}
