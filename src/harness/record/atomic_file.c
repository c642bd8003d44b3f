#include "atomic_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ladder_write_atomically(const char *path, ladder_emit_fn emit, const void *context, char *err, size_t err_len)
{
    char temporary[4096];
    if ((size_t)snprintf(temporary, sizeof temporary, "%s.tmp.%ld", path, (long)getpid()) >= sizeof temporary) {
        snprintf(err, err_len, "path too long: %.60s...", path);
        return -1;
    }
    FILE *out = fopen(temporary, "wb");
    if (!out) {
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    err[0] = '\0';
    int failed = emit(out, context, err, err_len) != 0;
    int saved_errno = errno;
    failed |= ferror(out);
    failed |= fclose(out) != 0;
    if (!failed && rename(temporary, path) != 0) failed = 1, saved_errno = errno;
    if (failed) {
        if (!err[0]) snprintf(err, err_len, "cannot write %s: %s", path, strerror(saved_errno));
        remove(temporary);
        return -1;
    }
    return 0;
}

int ladder_check_writable(const char *path, char *err, size_t err_len)
{
    struct stat info;
    if (stat(path, &info) == 0 && S_ISDIR(info.st_mode)) {
        snprintf(err, err_len, "cannot write %s: it is a directory", path);
        return -1;
    }
    /* The surest test is the one the writer will make: a file beside it. */
    char temporary[4096];
    if ((size_t)snprintf(temporary, sizeof temporary, "%s.tmp.%ld", path, (long)getpid()) >= sizeof temporary) {
        snprintf(err, err_len, "path too long: %.60s...", path);
        return -1;
    }
    FILE *probe = fopen(temporary, "wb");
    if (!probe) {
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fclose(probe);
    remove(temporary);
    return 0;
}
