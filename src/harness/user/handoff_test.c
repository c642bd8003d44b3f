/* The child's report survives the round trip through its file; a missing,
 * short or foreign file is an error, never garbage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/testing/test_util.h"
#include "handoff.h"

int main(void)
{
    char dir[] = "/tmp/handoff_test_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/report", dir);

    ladder_try_report *out = calloc(1, sizeof *out), *in = calloc(1, sizeof *in);
    snprintf(out->stage, sizeof out->stage, "timing");
    snprintf(out->size, sizeof out->size, "1000x777");
    out->check_count = 2;
    snprintf(out->checks[1].size, sizeof out->checks[1].size, "33x4097");
    out->checks[1].rel_error = 0.25;
    out->checks[1].nonfinite = 12;
    out->has_record = 1;
    snprintf(out->record.variant, sizeof out->record.variant, "mine.cu");
    out->record.median_ms = 1.5;
    out->record.ceiling = "bandwidth_gbps";
    EXPECT(ladder_try_report_write(path, out) == 0);
    EXPECT(ladder_try_report_read(path, in, err, sizeof err) == 0);
    EXPECT(strcmp(in->stage, "timing") == 0 && strcmp(in->size, "1000x777") == 0);
    EXPECT(in->check_count == 2 && in->checks[1].rel_error == 0.25 && in->checks[1].nonfinite == 12);
    EXPECT(in->has_record && in->record.median_ms == 1.5 && strcmp(in->record.variant, "mine.cu") == 0);
    /* The pointer is this process's to make again, never the writer's. */
    EXPECT(in->record.ceiling && in->record.ceiling[0] == '\0');

    /* Rewritten in place: the reader sees the last report whole. */
    snprintf(out->fault, sizeof out->fault, "CUDA error cudaErrorIllegalAddress");
    EXPECT(ladder_try_report_write(path, out) == 0);
    EXPECT(ladder_try_report_read(path, in, err, sizeof err) == 0 && strstr(in->fault, "IllegalAddress"));

    FILE *f = fopen(path, "r+b");
    EXPECT(f && ftruncate(fileno(f), 100) == 0);
    if (f) fclose(f);
    EXPECT(ladder_try_report_read(path, in, err, sizeof err) == -1 && strstr(err, "not one"));
    f = fopen(path, "wb");
    if (f) {
        fputs("not a report at all, but long enough to be read as a header", f);
        fclose(f);
    }
    EXPECT(ladder_try_report_read(path, in, err, sizeof err) == -1);
    unlink(path);
    EXPECT(ladder_try_report_read(path, in, err, sizeof err) == -1 && strstr(err, "no report"));
    rmdir(dir);
    free(out);
    free(in);
    return test_result("handoff_test");
}
