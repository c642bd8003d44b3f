/* Files written whole or not at all: a reader (or a failed run) never leaves
 * half a JSON document or half an image behind. */
#ifndef LADDER_ATOMIC_FILE_H
#define LADDER_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the file's contents to `out`; returns 0, or -1 with a one-line
 * reason in err (ferror on `out` is checked as well). */
typedef int (*ladder_emit_fn)(FILE *out, const void *context, char *err, size_t err_len);

/* Emit into a temporary file beside `path`, then rename it into place. On
 * failure the temporary is removed, `path` is untouched, and err says why. */
int ladder_write_atomically(const char *path, ladder_emit_fn emit, const void *context, char *err, size_t err_len);

/* Whether `path` can be written, checked before any work is done (so a run
 * does not measure for minutes and then fail to save): not a directory, and
 * a file can be made beside it. Returns 0, or -1 with a one-line reason. */
int ladder_check_writable(const char *path, char *err, size_t err_len);

#endif
