/* Finding nvcc, the private folder, shell quoting, and nvcc itself on a
 * template (compiles) and on a broken file (its first diagnostics come
 * back). The nvcc part needs the toolkit that built ladder, as CI has. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases/registry.h"
#include "harness/testing/test_util.h"
#include "compile.h"
#include "load.h"

static void test_find(void)
{
    char path[4096], err[1024];
    EXPECT(ladder_nvcc_find("/nonexistent/nvcc", LADDER_NVCC, path, sizeof path, err, sizeof err) == -1);
    EXPECT(strstr(err, "--nvcc /nonexistent/nvcc") != NULL);

    /* Nothing anywhere: one line naming every place looked, and --nvcc. */
    setenv("CUDA_HOME", "/nonexistent/cuda", 1);
    setenv("PATH", "/nonexistent/bin", 1);
    EXPECT(ladder_nvcc_find(NULL, "/nonexistent/built/nvcc", path, sizeof path, err, sizeof err) == -1);
    EXPECTF(strstr(err, "/nonexistent/built/nvcc") && strstr(err, "/nonexistent/cuda") && strstr(err, "PATH") &&
                strstr(err, "--nvcc") && !strchr(err, '\n'),
            "message: %s", err);

    /* Each place in its turn: CUDA_HOME, then PATH. */
    char dir[] = "/tmp/compile_test_XXXXXX";
    if (!mkdtemp(dir)) return;
    char bin[256], fake[300];
    snprintf(bin, sizeof bin, "%s/bin", dir);
    mkdir(bin, 0700);
    snprintf(fake, sizeof fake, "%s/nvcc", bin);
    FILE *f = fopen(fake, "w");
    if (f) fclose(f);
    chmod(fake, 0700);
    setenv("CUDA_HOME", dir, 1);
    EXPECT(ladder_nvcc_find(NULL, "/nonexistent/built/nvcc", path, sizeof path, err, sizeof err) == 0 &&
           strcmp(path, fake) == 0);
    setenv("CUDA_HOME", "/nonexistent/cuda", 1);
    setenv("PATH", bin, 1);
    EXPECT(ladder_nvcc_find(NULL, "/nonexistent/built/nvcc", path, sizeof path, err, sizeof err) == 0 &&
           strcmp(path, fake) == 0);
    EXPECT(ladder_nvcc_find(NULL, fake, path, sizeof path, err, sizeof err) == 0 && strcmp(path, fake) == 0);
    unlink(fake);
    rmdir(bin);
    rmdir(dir);
}

static void test_quoting_and_arch(void)
{
    char out[512];
    char *words[] = {"nvcc", "-I/a b", "it's", "x.cu", "", NULL};
    ladder_shell_join(words, out, sizeof out);
    EXPECTF(strcmp(out, "nvcc '-I/a b' 'it'\\''s' x.cu ''") == 0, "%s", out);
    ladder_nvcc_arch(9, 0, out, sizeof out);
    EXPECT(strcmp(out, "sm_90a") == 0);
    ladder_nvcc_arch(8, 6, out, sizeof out);
    EXPECT(strcmp(out, "sm_86") == 0);
}

/* The folder is made once, private, and removed with what is in it. */
static void test_workdir(void)
{
    char err[512];
    const char *dir = ladder_user_workdir(err, sizeof err);
    EXPECT(dir != NULL);
    if (!dir) return;
    char kept[4096];
    snprintf(kept, sizeof kept, "%s", dir);
    struct stat st;
    EXPECT(stat(kept, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 077) == 0);
    EXPECT(ladder_user_workdir(err, sizeof err) == dir);
    char file[4200];
    snprintf(file, sizeof file, "%s/object.so", kept);
    FILE *f = fopen(file, "w");
    if (f) fclose(f);
    ladder_user_workdir_remove();
    EXPECT(stat(kept, &st) != 0);
}

static void test_nvcc(void)
{
    if (access(LADDER_NVCC, X_OK) != 0) {
        printf("no nvcc at %s: the compile checks are left out\n", LADDER_NVCC);
        return;
    }
    char err[512], command[4096], diagnostics[8192];
    const char *dir = ladder_user_workdir(err, sizeof err);
    if (!dir) return;
    char object[4200], include[4200], shim[4200], source[4200], broken[4200];
    snprintf(object, sizeof object, "%s/t.so", dir);
    snprintf(include, sizeof include, "%s/include", LADDER_SOURCE_DIR);
    snprintf(shim, sizeof shim, "%s/src/harness/user/launch_errors.cu", LADDER_SOURCE_DIR);
    snprintf(source, sizeof source, "%s/src/cases/smem/smem_try_template.cu", LADDER_SOURCE_DIR);
    ladder_compile job = {LADDER_NVCC, source, include, shim, NULL, object};
    EXPECTF(ladder_user_compile(&job, command, sizeof command, diagnostics, sizeof diagnostics) == 0, "%s",
            diagnostics);
    EXPECT(strstr(command, "-O3 -lineinfo") && strstr(command, "-shared") && strstr(command, source));

    /* The object loads without a GPU; the entry point is there, another is not. */
    char smem_entry[64];
    ladder_user_entry_name(ladder_find_case("smem"), smem_entry, sizeof smem_entry);
    EXPECTF(strcmp(smem_entry, "ladder_try_smem") == 0, "%s", smem_entry);
    EXPECTF(ladder_user_load(object, smem_entry, err, sizeof err) == 0, "%s", err);
    ladder_user_unload();
    EXPECT(ladder_user_load(object, "ladder_try_transpose", err, sizeof err) == -1);
    EXPECTF(strstr(err, "ladder_try_transpose") && strstr(err, "C linkage"), "%s", err);
    EXPECT(ladder_user_load("/nonexistent/object.so", "ladder_try_smem", err, sizeof err) == -1);

    /* A broken file: nvcc's own first lines, at most LADDER_NVCC_DIAGNOSTIC_LINES. */
    snprintf(broken, sizeof broken, "%s/broken.cu", dir);
    FILE *f = fopen(broken, "w");
    if (!f) return;
    for (int i = 0; i < 40; ++i) fprintf(f, "int x%d = undeclared_%d;\n", i, i);
    fclose(f);
    job.source = broken;
    EXPECT(ladder_user_compile(&job, command, sizeof command, diagnostics, sizeof diagnostics) == -1);
    EXPECTF(strstr(diagnostics, "undeclared_0") != NULL, "%s", diagnostics);
    int lines = 0;
    for (const char *p = diagnostics; *p; ++p) lines += *p == '\n';
    EXPECTF(lines > 0 && lines <= LADDER_NVCC_DIAGNOSTIC_LINES, "%d lines", lines);
    char log[4300];
    snprintf(log, sizeof log, "%s.log", object);
    EXPECT(access(log, F_OK) != 0);
    ladder_user_workdir_remove();
}

int main(void)
{
    test_quoting_and_arch();
    test_workdir();
    test_nvcc();
    test_find(); /* last: it changes PATH */
    return test_result("compile_test");
}
