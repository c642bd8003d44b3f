/* Compiling a user's kernel file for `ladder try` (cli/try_command.c): find
 * the toolkit's nvcc, build the file into a shared object in a private
 * folder that is removed however the process ends, and hand back nvcc's
 * first diagnostics when it fails. Needs no GPU. */
#ifndef LADDER_USER_COMPILE_H
#define LADDER_USER_COMPILE_H

#include <stddef.h>

/* Lines of nvcc's output a failed compile shows: its first diagnostics. */
#define LADDER_NVCC_DIAGNOSTIC_LINES 20

/* Where nvcc is: `chosen` (--nvcc) when given, else the first of `built_with`
 * (the nvcc that built ladder), $CUDA_HOME/bin/nvcc and nvcc on PATH that
 * is executable. Returns 0 with the path, or -1 with one line in err that
 * names every place it looked and --nvcc. */
int ladder_nvcc_find(const char *chosen, const char *built_with, char *path, size_t len, char *err, size_t err_len);

/* The private folder (mkdtemp under $TMPDIR or /tmp), made on the first
 * call and removed with everything in it at exit; after a fatal signal
 * the caller removes it (ladder_user_workdir_remove). Returns its path, or
 * NULL with the reason in err. */
const char *ladder_user_workdir(char *err, size_t err_len);
void ladder_user_workdir_remove(void);

/* nvcc's architecture for a GPU of compute capability major.minor: the
 * arch-specific target from 9.0 on (sm_90a: wgmma, setmaxnreg), which runs
 * on that capability only, as the shared object does. */
void ladder_nvcc_arch(int major, int minor, char *arch, size_t len);

typedef struct ladder_compile {
    const char *nvcc;
    const char *source;      /* the user's .cu */
    const char *include_dir; /* where ladder_try.h is */
    const char *shim;        /* compiled beside it: launch_errors.cu */
    const char *arch;        /* "sm_90a", or NULL for nvcc's default (no GPU to ask) */
    const char *output;      /* the shared object to write */
} ladder_compile;

/* Run nvcc -O3 -lineinfo -arch=ARCH -Xcompiler -fPIC -shared -I INCLUDE
 * SOURCE SHIM -o OUTPUT. The command, shell-quoted, goes to `command`.
 * Returns 0, or -1 with nvcc's first LADDER_NVCC_DIAGNOSTIC_LINES lines of
 * output (or why it could not run) in `diagnostics`. */
int ladder_user_compile(const ladder_compile *job, char *command, size_t command_len, char *diagnostics,
                        size_t diagnostics_len);

/* `words` joined by spaces into out, each quoted for a POSIX shell where it
 * needs it: a command line a user can paste. */
void ladder_shell_join(char *const *words, char *out, size_t len);

#endif
