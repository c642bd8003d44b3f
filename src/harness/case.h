/* The contract between the harness and a case study.
 *
 * A case is a ladder: an ordered table of variants, from the naive version to
 * the fastest we can write, plus the vendor baseline. The case owns its data
 * (inputs, outputs, CPU reference) and its kernels; the harness owns everything
 * that measures: poisoning, validation order, timing, statistics, ceilings and
 * the result records. A case never times or validates by itself.
 *
 * To add a case: make a folder src/cases/NAME/ with NAME.c (this interface,
 * the variant table and the CPU reference), NAME.h and NAME_kernels.cu
 * (kernels behind extern "C" launchers), then add its descriptor to
 * src/cases/registry.c. CMake finds the folder's files and adds a GPU
 * validation test for each registered case by itself. */
#ifndef LADDER_CASE_H
#define LADDER_CASE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "harness/record/results.h"
#include "harness/run/size.h"

/* A variant's launcher, stored untyped; the case casts it back to its own
 * launcher type in run(). Converting between function pointer types is
 * well-defined C as long as the call goes through the right type. */
typedef void (*ladder_impl)(void);

enum ladder_variant_flags {
    /* Vendor library or cudaMemcpy: the reference, not a rung. The last such
     * row of a table is the baseline; rows so flagged before it are
     * references: vendor calls at a rung's reduced precision (cuBLAS TF32)
     * or with another layout, run and checked as the baseline is, and each
     * compared with the rungs of its precision ("ratio_to_reference"). */
    LADDER_BASELINE = 1u << 0,
    LADDER_HOST = 1u << 1,     /* runs on the CPU: timed with a host clock, no L2 flush */
};

typedef struct ladder_variant {
    const char *name;  /* short, unique within the case: "tile_padded" */
    const char *story; /* one line: what changes over the previous rung, what it should move */
    ladder_impl impl;  /* the case's launcher, of the case's own type */
    int param;         /* a sweep point or a compile-time choice; 0 when unused */
    unsigned flags;    /* enum ladder_variant_flags */
    /* NULL, or a note where the variant computes at a lower precision than
     * the case's own (and is checked against a tolerance of its own):
     * "TF32 (reduced precision)". Shown in the table, "precision" in JSON. */
    const char *precision;
} ladder_variant;

/* A row of a variant table: a rung of the ladder, and the general form for
 * baselines (LADDER_BASELINE) and CPU variants (LADDER_HOST). */
#define LADDER_RUNG(name, story, launcher, param) LADDER_VARIANT(name, story, launcher, param, 0)
#define LADDER_VARIANT(name, story, launcher, param, flags) {name, story, (ladder_impl)(launcher), param, flags}

/* What the "fraction of ceiling" of a case is measured against. */
typedef enum ladder_ceiling_kind {
    LADDER_CEILING_BANDWIDTH, /* best of cudaMemcpy D2D and the copy kernel, GB/s */
    LADDER_CEILING_FP32,      /* the FMA throughput kernel, GFLOP/s */
    LADDER_CEILING_BF16_TENSOR, /* the BF16 tensor-core kernel, GFLOP/s: measured only for runs with
                                   such a case (the runner's tensor ceilings) */
} ladder_ceiling_kind;

/* The least work the problem needs, counted from the problem, not from what a
 * kernel touches: each input read once, each output written once. */
typedef struct ladder_work {
    double bytes;
    double flops;
} ladder_work;

/* Where a checked run's output is: the harness poisons it before each run. */
typedef struct ladder_output {
    void *ptr;           /* the whole output: device memory, host memory for LADDER_HOST */
    size_t bytes;        /* its size in bytes */
    unsigned char poison; /* byte value written over it: 0xFF makes every float NaN */
} ladder_output;

/* Result of comparing one run's output with the CPU reference. */
typedef struct ladder_check {
    double rel_error;  /* ||out - ref|| / ||ref|| (or the case's stated measure) */
    double tolerance;  /* what the case accepts for this size and precision */
    size_t nonfinite;  /* NaN or Inf elements in the output: any fails */
    int passed;
} ladder_check;

typedef enum ladder_status {
    LADDER_OK = 0,
    LADDER_BAD_SIZE,  /* the size spec is malformed for this case or impossible */
    LADDER_NO_MEMORY, /* does not fit in device (or host) memory */
} ladder_status;

typedef struct ladder_case {
    const char *name;         /* command-line name: "transpose" */
    const char *title;        /* one line for `ladder list` */
    const char *size_help;    /* how --size reads for this case: "ROWSxCOLS" */
    const char *default_size; /* the full-run sizes: one, or a comma-separated list */
    const char *quick_size;   /* --quick */
    const char *size_forms;   /* forms the size may name ("banded powerlaw"), NULL for none */
    const char *test_sizes[10]; /* GPU test sizes (odd ones included), NULL-terminated */
    /* Optional, NULL-terminated: what gpu_validate checks instead of test_sizes under
     * compute-sanitizer (LADDER_UNDER_SANITIZER, gpu_test.h's ladder_validation_sizes), for a
     * case whose test sizes the tools cannot get through in minutes (racecheck instruments
     * every shared-memory access). The smallest sizes that still reach every code path of every
     * rung: the tools check accesses, which a small problem makes as a large one does. Leave it
     * empty to keep test_sizes there too. */
    const char *sanitizer_sizes[8];
    ladder_ceiling_kind ceiling;
    int spans_gpus;           /* uses every GPU of the run at once (p2p, allreduce): with --device
                                 all it runs once, from the first GPU, not once per GPU */

    const ladder_variant *variants; /* the ladder, in order; the baseline last */
    int variant_count;

    /* Nonzero, with a one-line reason in err, when `size` is malformed or
     * impossible for this case (dimension count, limits). Pure: no memory,
     * no GPU, so every size is checked before the device is opened. */
    int (*size_error)(const ladder_size *size, char *err, size_t err_len);

    /* Allocate host and device buffers for `size` (size_error has passed),
     * through buffers.h, which makes the out-of-memory message. On failure
     * return NULL and set *status and a one-line message in err. */
    void *(*create)(const ladder_size *size, ladder_status *status, char *err, size_t err_len);
    void (*destroy)(void *state);

    /* Draw fresh random inputs from `seed`, upload them, and make the CPU
     * reference for them available to check(). Never zeros. */
    void (*fill_inputs)(void *state, uint64_t seed);

    /* NULL if the variant can run on this state's size, else why it cannot.
     * Leave the hook NULL when every variant takes every size. */
    const char *(*unsupported)(void *state, const ladder_variant *variant);

    /* Optional: set up what a variant needs that must stay outside its timed
     * region (peer access enabled or disabled between two GPUs), and learn
     * which variant fill_inputs will fill for. Called before each checked
     * run of the variant, before fill_inputs; the harness times a variant
     * only between two checked runs of it, so the setup holds while timed. */
    void (*prepare)(void *state, const ladder_variant *variant);

    /* Launch (or, for LADDER_HOST, compute) the variant once on `stream`. */
    void (*run)(void *state, const ladder_variant *variant, cudaStream_t stream);

    ladder_output (*output)(void *state, const ladder_variant *variant);
    ladder_check (*check)(void *state, const ladder_variant *variant);
    ladder_work (*work)(void *state);
    /* Optional, for ladders whose variants do different work (a sweep over
     * transfer sizes): when set, it is used instead of work(), which may
     * then be NULL. */
    ladder_work (*variant_work)(void *state, const ladder_variant *variant);

    /* `ladder try` (cli/try_command.c, harness/user/): the case's side of a
     * user's kernel on its ladder. The entry point include/ladder_try.h
     * declares for it is ladder_try_NAME (harness/user/load.h); try_template
     * is the starter file, from src/cases/; try_rung the row the user's code runs as: its
     * impl the case's adapter (of the case's launcher type, calling
     * ladder_user_entry()), its param and flags what the case's hooks need;
     * name and story are filled in with the file's. A case that cannot be
     * tried (a sweep) leaves these NULL and says why in try_refusal. */
    const char *try_template;
    ladder_variant try_rung;
    const char *try_refusal;

    /* Optional: figures of the whole ladder (a model fitted to the sizes, an
     * overlap efficiency), from this size's records [first, count) of
     * `results`, which are in ladder order; add each with
     * ladder_results_add_summary, case_name and size are filled in after. */
    void (*summarize)(void *state, ladder_results *results, size_t first);
} ladder_case;

#endif
