/* A run keeps what it measured. The results document (--json, --csv) is
 * rewritten whole, atomically, after every case and every size of a case,
 * marked incomplete until the run ends; a fatal error or a stop signal
 * leaves it holding every case that finished. */
#ifndef LADDER_RUN_DOCUMENT_H
#define LADDER_RUN_DOCUMENT_H

#include <stddef.h>

#include "harness/device/device.h"
#include "results.h"

typedef struct ladder_run_document {
    const char *json_path, *csv_path; /* NULL: not asked for */
    const ladder_device *device;
    const ladder_results *results;
    ladder_run_info *info;
    int finished_cases;               /* case sizes done: nothing is written before the first */
} ladder_run_document;

/* Rewrite the files asked for. Returns 0, or -1 with a one-line reason. */
int ladder_document_save(const ladder_run_document *doc, char *err, size_t err_len);

/* From now on, a fatal error (ladder_die) first saves `doc`, stopped by the
 * error, when it holds a finished case. NULL stops that. */
void ladder_document_keep_on_error(ladder_run_document *doc);

/* One line on stderr: what the document kept and where. */
void ladder_document_announce_kept(const ladder_run_document *doc);

#endif
