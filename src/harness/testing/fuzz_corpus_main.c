/* Runs a libFuzzer target over a corpus without libFuzzer: every file under
 * the directories given is fed to LLVMFuzzerTestOneInput once. Built with gcc
 * as a ctest, it runs the malformed-input corpus under AddressSanitizer and
 * UBSan (make test-sanitize); `make fuzz` builds the same target with clang's
 * libFuzzer to grow the corpus. An empty corpus fails: a test that cannot
 * fail is a defect. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t capacity = 4096, used = 0;
    unsigned char *data = malloc(capacity);
    size_t got;
    while (data && (got = fread(data + used, 1, capacity - used, f)) > 0) {
        used += got;
        if (used == capacity) {
            unsigned char *grown = realloc(data, capacity *= 2);
            if (!grown) free(data);
            data = grown;
        }
    }
    fclose(f);
    *size = used;
    return data;
}

int main(int argc, char **argv)
{
    int files = 0;
    for (int a = 1; a < argc; ++a) {
        DIR *dir = opendir(argv[a]);
        if (!dir) {
            fprintf(stderr, "fuzz corpus: cannot open directory %s\n", argv[a]);
            return 1;
        }
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], entry->d_name);
            size_t size;
            unsigned char *data = read_whole(path, &size);
            if (!data) {
                fprintf(stderr, "fuzz corpus: cannot read %s\n", path);
                return 1;
            }
            LLVMFuzzerTestOneInput(data, size);
            free(data);
            ++files;
        }
        closedir(dir);
    }
    printf("fuzz corpus: %d inputs, no crash\n", files);
    return files > 0 ? 0 : 1;
}
