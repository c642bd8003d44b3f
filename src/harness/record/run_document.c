#include "run_document.h"

#include <stdio.h>
#include <string.h>

#include "harness/check/check.h"

int ladder_document_save(const ladder_run_document *doc, char *err, size_t err_len)
{
    if (doc->finished_cases == 0) return 0;
    if (doc->json_path && ladder_write_json(doc->json_path, doc->device, doc->results, doc->info, err, err_len) != 0)
        return -1;
    if (doc->csv_path && ladder_write_csv(doc->csv_path, doc->device, doc->results, err, err_len) != 0) return -1;
    return 0;
}

static ladder_run_document *kept;

static void save_on_fatal(const char *message)
{
    static char stopped_by[1100];
    snprintf(stopped_by, sizeof stopped_by, "error: %s", message);
    kept->info->complete = 0;
    kept->info->stopped_by = stopped_by;
    char err[512];
    if (ladder_document_save(kept, err, sizeof err) != 0) fprintf(stderr, "ladder: %s\n", err);
    else ladder_document_announce_kept(kept);
}

void ladder_document_keep_on_error(ladder_run_document *doc)
{
    kept = doc;
    ladder_on_fatal(doc ? save_on_fatal : NULL);
}

void ladder_document_announce_kept(const ladder_run_document *doc)
{
    if (!doc->json_path && !doc->csv_path) return;
    if (doc->finished_cases == 0) {
        fprintf(stderr, "ladder: no case finished; nothing written\n");
        return;
    }
    /* The distinct cases, in run order. */
    char cases[512] = "";
    size_t used = 0;
    const char *last = "";
    for (size_t i = 0; i < doc->results->count && used + 40 < sizeof cases; ++i) {
        const char *name = doc->results->records[i].case_name;
        if (strcmp(name, last) == 0) continue;
        used += (size_t)snprintf(cases + used, sizeof cases - used, "%s%s", used ? ", " : "", name);
        last = name;
    }
    fprintf(stderr, "ladder: kept %zu records (%s%s%s) in %s%s%s\n", doc->results->count, cases,
            doc->info->running_case ? "; unfinished: " : "", doc->info->running_case ? doc->info->running_case : "",
            doc->json_path ? doc->json_path : "", doc->json_path && doc->csv_path ? " and " : "",
            doc->csv_path ? doc->csv_path : "");
}
