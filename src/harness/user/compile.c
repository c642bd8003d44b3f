#include "compile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int ladder_nvcc_find(const char *chosen, const char *built_with, char *path, size_t len, char *err, size_t err_len)
{
    if (chosen) {
        if (executable_file(chosen)) {
            snprintf(path, len, "%s", chosen);
            return 0;
        }
        snprintf(err, err_len, "--nvcc %s is not an executable file", chosen);
        return -1;
    }
    if (built_with && *built_with && executable_file(built_with)) {
        snprintf(path, len, "%s", built_with);
        return 0;
    }
    const char *cuda_home = getenv("CUDA_HOME");
    if (cuda_home && *cuda_home) {
        snprintf(path, len, "%s/bin/nvcc", cuda_home);
        if (executable_file(path)) return 0;
    }
    const char *search = getenv("PATH");
    char *dirs = strdup(search ? search : "");
    if (!dirs) {
        snprintf(err, err_len, "out of host memory");
        return -1;
    }
    int found = 0;
    char *save = NULL;
    for (char *dir = strtok_r(dirs, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        snprintf(path, len, "%s/nvcc", *dir ? dir : ".");
        found = executable_file(path);
    }
    free(dirs);
    if (!found)
        snprintf(err, err_len,
                 "no nvcc found: not at %s (the one that built ladder), not in $CUDA_HOME/bin (%s), not on PATH; "
                 "name one with --nvcc PATH",
                 built_with && *built_with ? built_with : "(unknown)",
                 cuda_home && *cuda_home ? cuda_home : "CUDA_HOME is not set");
    return found ? 0 : -1;
}

static char workdir[4096];

void ladder_user_workdir_remove(void)
{
    if (!workdir[0]) return;
    DIR *d = opendir(workdir);
    if (d) {
        /* Only files of ours are in it: shared objects and nvcc's logs. */
        for (struct dirent *e = readdir(d); e; e = readdir(d)) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char file[sizeof workdir + 256];
            snprintf(file, sizeof file, "%s/%s", workdir, e->d_name);
            unlink(file);
        }
        closedir(d);
    }
    rmdir(workdir);
    workdir[0] = '\0';
}

const char *ladder_user_workdir(char *err, size_t err_len)
{
    if (workdir[0]) return workdir;
    const char *tmp = getenv("TMPDIR");
    snprintf(workdir, sizeof workdir, "%s/ladder-try-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(workdir)) {
        snprintf(err, err_len, "cannot make a temporary folder %s: %s", workdir, strerror(errno));
        workdir[0] = '\0';
        return NULL;
    }
    static int registered;
    if (!registered) atexit(ladder_user_workdir_remove);
    registered = 1;
    return workdir;
}

void ladder_nvcc_arch(int major, int minor, char *arch, size_t len)
{
    snprintf(arch, len, "sm_%d%d%s", major, minor, major >= 9 ? "a" : "");
}

static int needs_quotes(const char *word)
{
    if (!*word) return 1;
    for (const char *p = word; *p; ++p)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%", *p)) return 1;
    return 0;
}

void ladder_shell_join(char *const *words, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; words[i] && used + 1 < len; ++i) {
        if (i) used += (size_t)snprintf(out + used, len - used, " ");
        if (used + 1 >= len) break;
        if (!needs_quotes(words[i])) {
            used += (size_t)snprintf(out + used, len - used, "%s", words[i]);
            continue;
        }
        used += (size_t)snprintf(out + used, len - used, "'");
        for (const char *p = words[i]; *p && used + 1 < len; ++p)
            used += (size_t)snprintf(out + used, len - used, *p == '\'' ? "'\\''" : "%c", *p);
        if (used + 1 < len) used += (size_t)snprintf(out + used, len - used, "'");
    }
}

/* The first `lines` lines of a file into out. */
static void head_of_file(const char *path, int lines, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t used = 0;
    char line[1024];
    for (int n = 0; n < lines && fgets(line, sizeof line, f) && used + 1 < len; ++n)
        used += (size_t)snprintf(out + used, len - used, "%s", line);
    fclose(f);
}

int ladder_user_compile(const ladder_compile *job, char *command, size_t command_len, char *diagnostics,
                        size_t diagnostics_len)
{
    char arch[64], include[4200];
    char *argv[24];
    int a = 0;
    argv[a++] = (char *)job->nvcc;
    argv[a++] = "-O3";
    argv[a++] = "-lineinfo";
    if (job->arch) {
        snprintf(arch, sizeof arch, "-arch=%s", job->arch);
        argv[a++] = arch;
    }
    argv[a++] = "-Xcompiler";
    argv[a++] = "-fPIC";
    argv[a++] = "-shared";
    snprintf(include, sizeof include, "-I%s", job->include_dir);
    argv[a++] = include;
    argv[a++] = (char *)job->source;
    argv[a++] = (char *)job->shim;
    argv[a++] = "-o";
    argv[a++] = (char *)job->output;
    argv[a] = NULL;
    ladder_shell_join(argv, command, command_len);

    /* nvcc's output goes to a log beside the object, read back on failure. */
    char log[4200];
    snprintf(log, sizeof log, "%s.log", job->output);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid;
    int rc = posix_spawn(&pid, job->nvcc, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        snprintf(diagnostics, diagnostics_len, "cannot run %s: %s\n", job->nvcc, strerror(rc));
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        unlink(log);
        return 0;
    }
    head_of_file(log, LADDER_NVCC_DIAGNOSTIC_LINES, diagnostics, diagnostics_len);
    if (!diagnostics[0])
        snprintf(diagnostics, diagnostics_len, "%s %s with no message\n", job->nvcc,
                 WIFEXITED(status) ? "failed" : "was killed");
    unlink(log);
    return -1;
}
