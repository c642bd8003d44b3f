/* The all-reduce study (SPEC §15): every GPU of the run holds a float32
 * buffer; afterwards every GPU holds their element-wise sum, in place, the
 * same bits on every GPU, checked against a sum in double on the CPU.
 *
 * The ladder, each rung swept over messages of 8 B to 1 GiB:
 *   host             every GPU copies to pinned host memory, the CPU sums,
 *                    every GPU copies the sum back: two PCIe crossings per
 *                    GPU and a CPU pass, the route with no peer support
 *   gather_broadcast peer copies of every buffer into GPU 0, one sum kernel,
 *                    peer copies of the result back out: GPU 0's links carry
 *                    everything, n - 1 buffers each way
 *   ring             reduce-scatter then all-gather around the ring r -> r+1,
 *                    2 (n - 1) steps of peer copies (and sum kernels in the
 *                    first half): every link busy, each GPU sending
 *                    2 (n - 1) / n of the buffer, NCCL's large-message shape
 *   one_shot         each GPU copies its buffer aside, then sums every GPU's
 *                    copy by peer loads into its own buffer: one step, n - 1
 *                    buffers over the links per GPU, for small messages
 *   two_shot         GPU r sums chunk r of every GPU by peer loads and stores
 *                    the sum into chunk r of every GPU: the ring's traffic in
 *                    one step and one kernel
 *   one_shot_signal  one_shot with its barrier inside the kernel: each GPU
 *                    pushes its buffer into a slot on every GPU, raises a
 *                    flag there, and sums its own slots once every flag is
 *                    up; no event wait between GPUs, local loads for the sum
 *                    (messages up to 64 MiB: the slots hold n copies)
 *   nccl             ncclAllReduce, one communicator per GPU (ncclCommInitAll,
 *                    made in create(), outside the timed region), one grouped
 *                    call per sample; "built without NCCL" when it is missing
 *                    (allreduce_nccl.c)
 *
 * Timing, as nccl-tests reports it: the harness's events on the run's stream
 * (GPU 0 of the run) span the first GPU's start to the last GPU's end, since
 * every rung forks every other GPU's stream from it and joins them back
 * (gpus.h); the harness waits for the stop event between samples, so the
 * GPUs start each sample together. Records carry algbw as GB/s (bytes of the
 * message / time); bus bandwidth, algbw x 2 (n - 1) / n, is in the
 * summaries, per size, for the best rung and for NCCL, with the fitted
 * latency and bandwidth of each rung. Only GPU 0's L2 is flushed before a
 * sample; the other GPUs' L2 may still hold the buffer (nccl-tests flushes
 * none). Samples follow each other in place, so the buffer grows n-fold per
 * sample (to infinity after ~128 / log2 n samples): float adds take the same
 * time on infinities, and every check refills the inputs.
 *
 * The in-place buffer is the output: the harness's poison would destroy the
 * inputs, so output() names zero bytes. Every rung writes every element of
 * every GPU's buffer; an element left alone keeps its input, which differs
 * from the sum by at least 0.5 (inputs are in [0.5, 1.5)), and fails the
 * check. Scratch buffers are poisoned by fill_inputs so that a rung reading
 * scratch it never wrote fails too. */
#include "allreduce.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/device/gpus.h"
#include "harness/check/rng.h"
#include "harness/measure/sweep.h"
#include "harness/check/validate.h"

#define M ALLREDUCE_MAX_GPUS
#define POISON 0xFF
/* The flag rung's slots: n copies of up to this many bytes on every GPU. */
#define SIGNAL_MAX_BYTES (1 << 26)

typedef struct allreduce_state {
    size_t bytes;          /* the case size: the largest message */
    long long floats;      /* bytes / 4 */
    int n;
    int gpu[M];
    char skip[200];        /* why nothing runs here; "" when it can */
    char nccl_skip[200];   /* why the NCCL rung cannot run; "" when it can */
    char kernel_skip[200]; /* why the peer-memory kernels cannot run; "" when they can */
    int can_access[M][M];
    float *data[M];        /* the in-place buffers */
    float *stage[M];       /* one_shot's copies of them */
    float *ring_in[M];     /* the ring's received chunk */
    float *gathered;       /* GPU 0: the n - 1 peers' buffers, gather_broadcast */
    float *slots[M];       /* one_shot_signal: n slots of slot_stride floats on every GPU */
    unsigned *flags[M];    /* one_shot_signal: n x ALLREDUCE_SIGNAL_MAX_BLOCKS flags on every GPU */
    long long slot_stride;
    unsigned epoch;        /* one_shot_signal: raised once per run, so flags never need clearing */
    int signal_blocks;     /* one_shot_signal's most blocks: resident on every GPU at once */
    float *pinned;         /* n host copies, the host rung */
    float *host_in;        /* n inputs as drawn, for the reference */
    float *host_got, *host_first;
    int access_on[M][M];
    int blocks[M];
    long long host_count;  /* the host rung's message, for its host function */
    ladder_gpu_streams streams;
    const ladder_variant *current;
    allreduce_nccl *nccl_comms; /* NULL when nccl_skip says why */
} allreduce_state;

typedef void allreduce_launcher(allreduce_state *s, long long count, cudaStream_t stream);

/* ---- index arithmetic ---- */

static int wrap(int x, int n) { return ((x % n) + n) % n; }

int allreduce_ring_reduce_chunk(int rank, int step, int n) { return wrap(rank - step, n); }
int allreduce_ring_owned_chunk(int rank, int n) { return wrap(rank + 1, n); }
int allreduce_ring_gather_chunk(int rank, int step, int n) { return wrap(rank + 1 - step, n); }

double allreduce_bus_bandwidth(double algbw, int n) { return n > 0 ? algbw * 2.0 * (n - 1) / n : NAN; }

/* ---- the rungs ---- */

static size_t size_of(long long count) { return (size_t)count * sizeof(float); }

/* Runs on a CUDA host thread in stream order: no CUDA calls here. */
static void CUDART_CB host_sum(void *opaque)
{
    allreduce_state *s = opaque;
    long long count = s->host_count;
    float *sum = s->pinned;
#pragma omp parallel for schedule(static) if (count > (1 << 16))
    for (long long i = 0; i < count; ++i) {
        float x = sum[i];
        for (int k = 1; k < s->n; ++k) x += s->pinned[(size_t)k * (size_t)s->floats + (size_t)i];
        sum[i] = x;
    }
}

static void through_host(allreduce_state *s, long long count, cudaStream_t stream)
{
    ladder_gpu_streams *g = &s->streams;
    s->host_count = count;
    ladder_gpu_streams_fork(g, stream);
    for (int k = 0; k < s->n; ++k) {
        ladder_gpu_streams_use(g, k);
        CUDA_CHECK(cudaMemcpyAsync(s->pinned + (size_t)k * (size_t)s->floats, s->data[k], size_of(count),
                                   cudaMemcpyDeviceToHost, g->stream[k]));
    }
    for (int k = 1; k < s->n; ++k) {
        ladder_gpu_streams_mark(g, k);
        ladder_gpu_streams_wait(g, 0, k);
    }
    CUDA_CHECK(cudaLaunchHostFunc(stream, host_sum, s));
    ladder_gpu_streams_mark(g, 0);
    for (int k = 0; k < s->n; ++k) {
        if (k) ladder_gpu_streams_wait(g, k, 0);
        ladder_gpu_streams_use(g, k);
        CUDA_CHECK(cudaMemcpyAsync(s->data[k], s->pinned, size_of(count), cudaMemcpyHostToDevice, g->stream[k]));
    }
    ladder_gpu_streams_join(g);
}

static void gather_broadcast(allreduce_state *s, long long count, cudaStream_t stream)
{
    ladder_gpu_streams *g = &s->streams;
    ladder_gpu_streams_fork(g, stream);
    allreduce_inputs in = {{s->data[0]}};
    for (int k = 1; k < s->n; ++k) {
        float *slot = s->gathered + (size_t)(k - 1) * (size_t)s->floats;
        in.p[k] = slot;
        ladder_gpu_streams_use(g, k);
        CUDA_CHECK(cudaMemcpyPeerAsync(slot, s->gpu[0], s->data[k], s->gpu[k], size_of(count), g->stream[k]));
        ladder_gpu_streams_mark(g, k);
        ladder_gpu_streams_wait(g, 0, k);
    }
    ladder_gpu_streams_use(g, 0);
    allreduce_sum((allreduce_outputs){{s->data[0]}}, 1, in, s->n, count, s->blocks[0], stream);
    ladder_gpu_streams_mark(g, 0);
    for (int k = 1; k < s->n; ++k) {
        ladder_gpu_streams_wait(g, k, 0);
        CUDA_CHECK(cudaMemcpyPeerAsync(s->data[k], s->gpu[k], s->data[0], s->gpu[0], size_of(count), g->stream[k]));
    }
    ladder_gpu_streams_join(g);
}

/* Before a ring step: each GPU waits for both neighbours' previous step, so
 * that what it reads from r - 1 is complete and what r + 1 read from it in
 * the previous step (the chunk it may now overwrite) has been read. Within a
 * step a GPU reads and writes different chunks (allreduce_test checks it). */
static void ring_step_boundary(allreduce_state *s)
{
    ladder_gpu_streams *g = &s->streams;
    for (int r = 0; r < s->n; ++r) ladder_gpu_streams_mark(g, r);
    for (int r = 0; r < s->n; ++r) {
        ladder_gpu_streams_wait(g, r, wrap(r - 1, s->n));
        if (s->n > 2) ladder_gpu_streams_wait(g, r, wrap(r + 1, s->n));
    }
}

static void ring(allreduce_state *s, long long count, cudaStream_t stream)
{
    ladder_gpu_streams *g = &s->streams;
    int n = s->n;
    ladder_gpu_streams_fork(g, stream);
    for (int step = 0; step < 2 * (n - 1); ++step) {
        if (step) ring_step_boundary(s);
        int gather = step >= n - 1;
        for (int r = 0; r < n; ++r) {
            int q = wrap(r + 1, n);
            int c = gather ? allreduce_ring_gather_chunk(r, step - (n - 1), n) : allreduce_ring_reduce_chunk(r, step, n);
            long long begin, end;
            allreduce_chunk(count, n, c, &begin, &end);
            if (end == begin) continue;
            ladder_gpu_streams_use(g, q);
            float *into = gather ? s->data[q] + begin : s->ring_in[q];
            CUDA_CHECK(cudaMemcpyPeerAsync(into, s->gpu[q], s->data[r] + begin, s->gpu[r], size_of(end - begin),
                                           g->stream[q]));
            if (!gather)
                allreduce_sum((allreduce_outputs){{s->data[q] + begin}}, 1,
                              (allreduce_inputs){{s->data[q] + begin, s->ring_in[q]}}, 2, end - begin, s->blocks[q],
                              g->stream[q]);
        }
    }
    ladder_gpu_streams_join(g);
}

static void one_shot(allreduce_state *s, long long count, cudaStream_t stream)
{
    ladder_gpu_streams *g = &s->streams;
    ladder_gpu_streams_fork(g, stream);
    allreduce_inputs staged = {{0}};
    for (int k = 0; k < s->n; ++k) {
        ladder_gpu_streams_use(g, k);
        CUDA_CHECK(cudaMemcpyAsync(s->stage[k], s->data[k], size_of(count), cudaMemcpyDeviceToDevice, g->stream[k]));
        staged.p[k] = s->stage[k];
    }
    ladder_gpu_streams_barrier(g);
    for (int k = 0; k < s->n; ++k) {
        ladder_gpu_streams_use(g, k);
        /* Every GPU adds in GPU order, so every GPU gets the same bits. */
        allreduce_sum((allreduce_outputs){{s->data[k]}}, 1, staged, s->n, count, s->blocks[k], g->stream[k]);
    }
    ladder_gpu_streams_join(g);
}

static void two_shot(allreduce_state *s, long long count, cudaStream_t stream)
{
    ladder_gpu_streams *g = &s->streams;
    ladder_gpu_streams_fork(g, stream);
    for (int r = 0; r < s->n; ++r) {
        long long begin, end;
        allreduce_chunk(count, s->n, r, &begin, &end);
        if (end == begin) continue;
        allreduce_inputs in = {{0}};
        allreduce_outputs out = {{0}};
        for (int k = 0; k < s->n; ++k) {
            in.p[k] = s->data[k] + begin;
            out.p[k] = s->data[k] + begin;
        }
        ladder_gpu_streams_use(g, r);
        allreduce_sum(out, s->n, in, s->n, end - begin, s->blocks[r], g->stream[r]);
    }
    ladder_gpu_streams_join(g);
}

static void one_shot_with_flags(allreduce_state *s, long long count, cudaStream_t stream)
{
    ladder_gpu_streams *g = &s->streams;
    allreduce_outputs slots = {{0}};
    allreduce_flags flags = {{0}};
    for (int k = 0; k < s->n; ++k) {
        slots.p[k] = s->slots[k];
        flags.p[k] = s->flags[k];
    }
    unsigned epoch = ++s->epoch;
    ladder_gpu_streams_fork(g, stream);
    for (int k = 0; k < s->n; ++k) {
        ladder_gpu_streams_use(g, k);
        allreduce_one_shot_signal(s->data[k], count, k, s->n, slots, s->slot_stride, flags, epoch, s->signal_blocks,
                                  g->stream[k]);
    }
    ladder_gpu_streams_join(g);
}

static void nccl(allreduce_state *s, long long count, cudaStream_t stream)
{
    allreduce_nccl_run(s->nccl_comms, s->data, count, &s->streams, stream);
}

#define SWEEP(route, launcher, story)                                          \
    LADDER_SWEEP_8B_TO_2KIB(route, story, launcher, LADDER_SWEEP_BYTES),       \
        LADDER_SWEEP_4KIB_TO_1GIB(route, story, launcher, LADDER_SWEEP_BYTES)

static const ladder_variant allreduce_variants[] = {
    SWEEP("host", through_host, "every GPU to pinned host memory, a CPU sum, back to every GPU: no peer support needed"),
    SWEEP("gather_broadcast", gather_broadcast,
          "peer copies into GPU 0, one sum there, peer copies back out: GPU 0's links carry it all"),
    SWEEP("ring", ring,
          "reduce-scatter then all-gather around the ring: 2(n-1) steps, every link busy, 2(n-1)/n of the data each"),
    SWEEP("one_shot", one_shot,
          "each GPU sums every GPU's copy by peer loads in one kernel: one step, the fewest latencies"),
    SWEEP("two_shot", two_shot,
          "GPU r sums chunk r by peer loads and stores it to every GPU: the ring's traffic in one step"),
    SWEEP("one_shot_signal", one_shot_with_flags,
          "one-shot with the barrier in the kernel: push to every GPU's slot, raise flags, sum locally; no event wait"),
    SWEEP("nccl", nccl, "baseline: ncclAllReduce, one communicator per GPU, grouped calls"),
};
#define VARIANT_COUNT ((int)(sizeof allreduce_variants / sizeof allreduce_variants[0]))
_Static_assert(VARIANT_COUNT == ALLREDUCE_RUNGS * ALLREDUCE_SWEEP_POINTS, "allreduce_summary.c reads the table so");

static long long count_of(const ladder_variant *v) { return (long long)v->param / (long long)sizeof(float); }

int allreduce_is_nccl(const ladder_variant *v) { return (allreduce_launcher *)v->impl == nccl; }

/* ---- the case hooks ---- */

static void set_access(allreduce_state *s, int i, int j, int on)
{
    if (s->access_on[i][j] == on) return;
    CUDA_CHECK(cudaSetDevice(s->gpu[i]));
    cudaError_t e = on ? cudaDeviceEnablePeerAccess(s->gpu[j], 0) : cudaDeviceDisablePeerAccess(s->gpu[j]);
    if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled) (void)cudaGetLastError();
    else if (e != cudaSuccess) ladder_cuda_fail(e, "cudaDevice{Enable,Disable}PeerAccess", __FILE__, __LINE__);
    s->access_on[i][j] = on;
}

static void destroy(void *opaque)
{
    allreduce_state *s = opaque;
    if (!s) return;
    allreduce_nccl_destroy(s->nccl_comms);
    for (int i = 0; i < s->n; ++i)
        for (int j = 0; j < s->n; ++j)
            if (i != j) set_access(s, i, j, 0);
    ladder_gpu_streams_destroy(&s->streams);
    for (int k = 0; k < s->n; ++k) {
        cudaSetDevice(s->gpu[k]);
        cudaFree(s->data[k]);
        cudaFree(s->stage[k]);
        cudaFree(s->ring_in[k]);
        cudaFree(s->slots[k]);
        cudaFree(s->flags[k]);
    }
    if (s->n > 0) cudaSetDevice(s->gpu[0]);
    cudaFree(s->gathered);
    cudaFreeHost(s->pinned);
    free(s->host_in);
    free(s->host_got);
    free(s->host_first);
    free(s);
}

static int allocate(allreduce_state *s)
{
    size_t bytes = size_of(s->floats);
    long long begin, end;
    allreduce_chunk(s->floats, s->n, 0, &begin, &end);
    size_t chunk_bytes = size_of(end - begin > 0 ? end - begin : 1);
    long long slot_floats = s->floats < SIGNAL_MAX_BYTES / 4 ? s->floats : SIGNAL_MAX_BYTES / 4;
    s->slot_stride = (slot_floats + ALLREDUCE_CHUNK_ALIGN - 1) / ALLREDUCE_CHUNK_ALIGN * ALLREDUCE_CHUNK_ALIGN;
    size_t flag_bytes = (size_t)s->n * ALLREDUCE_SIGNAL_MAX_BLOCKS * sizeof(unsigned);
    for (int k = 0; k < s->n; ++k) {
        CUDA_CHECK(cudaSetDevice(s->gpu[k]));
        if (ladder_try_cuda_malloc((void **)&s->data[k], bytes) || ladder_try_cuda_malloc((void **)&s->stage[k], bytes) ||
            ladder_try_cuda_malloc((void **)&s->ring_in[k], chunk_bytes) ||
            ladder_try_cuda_malloc((void **)&s->slots[k], (size_t)s->n * size_of(s->slot_stride)) ||
            ladder_try_cuda_malloc((void **)&s->flags[k], flag_bytes))
            return -1;
        CUDA_CHECK(cudaMemset(s->flags[k], 0, flag_bytes));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    CUDA_CHECK(cudaSetDevice(s->gpu[0]));
    if (ladder_try_cuda_malloc((void **)&s->gathered, (size_t)(s->n - 1) * bytes)) return -1;
    cudaError_t e = cudaMallocHost((void **)&s->pinned, (size_t)s->n * bytes);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    s->host_in = malloc((size_t)s->n * bytes);
    s->host_got = malloc(bytes);
    s->host_first = malloc(bytes);
    return s->host_in && s->host_got && s->host_first ? 0 : -1;
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 || size->dim[0] < 8 || size->dim[0] > (1LL << 30)) {
        snprintf(err, err_len, "allreduce takes one size in bytes, 8 to 2^30: the largest message");
        return 1;
    }
    return 0;
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size_error(size, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    allreduce_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->bytes = (size_t)size->dim[0];
    s->floats = size->dim[0] / (long long)sizeof(float);
    s->n = ladder_run_gpus(s->gpu, M);
    if (s->n < 2) {
        snprintf(s->skip, sizeof s->skip, "needs two GPUs; this run sees %d", s->n);
        return s;
    }
    for (int i = 0; i < s->n; ++i) {
        int sms;
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s->gpu[i]));
        s->blocks[i] = 4 * sms;
        if (i == 0 || sms < s->signal_blocks) s->signal_blocks = sms;
        if (s->signal_blocks > ALLREDUCE_SIGNAL_MAX_BLOCKS) s->signal_blocks = ALLREDUCE_SIGNAL_MAX_BLOCKS;
        for (int j = 0; j < s->n; ++j) {
            if (i == j) continue;
            CUDA_CHECK(cudaDeviceCanAccessPeer(&s->can_access[i][j], s->gpu[i], s->gpu[j]));
            if (!s->can_access[i][j] && !s->kernel_skip[0])
                snprintf(s->kernel_skip, sizeof s->kernel_skip,
                         "no peer access from GPU %d to GPU %d (cudaDeviceCanAccessPeer): its kernels load or store "
                         "peer memory", s->gpu[i], s->gpu[j]);
        }
    }
    if (allocate(s) != 0) {
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "%zu bytes need 2 x %.2f GB and %d x %.2f GB on each of %d GPUs, %d more on GPU %d, "
                 "and %d x %.2f GB of host memory (%d pinned)", s->bytes, s->bytes / 1e9, s->n,
                 size_of(s->slot_stride) / 1e9, s->n, s->n - 1, s->gpu[0], 2 * s->n + 2, s->bytes / 1e9, s->n);
        destroy(s);
        return NULL;
    }
    for (int i = 0; i < s->n; ++i)
        for (int j = 0; j < s->n; ++j)
            if (i != j && s->can_access[i][j]) set_access(s, i, j, 1);
    CUDA_CHECK(cudaSetDevice(s->gpu[0]));
    ladder_gpu_streams_create(&s->streams, s->gpu, s->n);
    s->nccl_comms = allreduce_nccl_create(s->gpu, s->n, s->nccl_skip, sizeof s->nccl_skip);
    return s;
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    allreduce_state *s = opaque;
    if (s->skip[0]) return s->skip;
    if ((size_t)v->param > s->bytes) return "larger than the case size (the largest message)";
    if ((allreduce_launcher *)v->impl == one_shot_with_flags && v->param > SIGNAL_MAX_BYTES)
        return "above 64 MiB: its slots would hold n copies of the buffer on every GPU (the small-message rung)";
    if (allreduce_is_nccl(v) && s->nccl_skip[0]) return s->nccl_skip;
    /* The copies of the host, gather and ring rungs work without peer
     * access (the driver stages them); the kernels' peer pointers do not. */
    allreduce_launcher *f = (allreduce_launcher *)v->impl;
    if ((f == one_shot || f == two_shot || f == one_shot_with_flags) && s->kernel_skip[0]) return s->kernel_skip;
    return NULL;
}

static void prepare(void *opaque, const ladder_variant *v) { ((allreduce_state *)opaque)->current = v; }

/* The variant's message on every GPU, each GPU's inputs its own draw; the
 * scratch buffers poisoned. */
static void fill_inputs(void *opaque, uint64_t seed)
{
    allreduce_state *s = opaque;
    long long count = count_of(s->current);
    for (int k = 0; k < s->n; ++k) {
        float *in = s->host_in + (size_t)k * (size_t)s->floats;
        ladder_fill_uniform(in, (size_t)count, ladder_hash64(seed + (uint64_t)k), 0.5f, 1.5f);
        CUDA_CHECK(cudaSetDevice(s->gpu[k]));
        CUDA_CHECK(cudaMemcpy(s->data[k], in, size_of(count), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(s->stage[k], POISON, size_of(count)));
        long long begin, end;
        allreduce_chunk(count, s->n, 0, &begin, &end);
        CUDA_CHECK(cudaMemset(s->ring_in[k], POISON, size_of(end - begin)));
        CUDA_CHECK(cudaMemset(s->slots[k], POISON, (size_t)s->n * size_of(s->slot_stride)));
        /* cudaMemset is asynchronous to the host; rungs run on other streams. */
        CUDA_CHECK(cudaDeviceSynchronize());
        if (k > 0) {
            CUDA_CHECK(cudaSetDevice(s->gpu[0]));
            CUDA_CHECK(cudaMemset(s->gathered + (size_t)(k - 1) * (size_t)s->floats, POISON, size_of(count)));
        }
        memset(s->pinned + (size_t)k * (size_t)s->floats, POISON, size_of(count));
    }
    CUDA_CHECK(cudaSetDevice(s->gpu[0]));
    CUDA_CHECK(cudaDeviceSynchronize());
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    ((allreduce_launcher *)v->impl)(opaque, count_of(v), stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    allreduce_state *s = opaque;
    return (ladder_output){s->data[0], 0, POISON}; /* in place: see the top */
}

/* GPU 0's result against the sum in double; every other GPU's, bit for bit
 * against GPU 0's: a mismatch counts as a wrong element in rel_error. */
static ladder_check check(void *opaque, const ladder_variant *v)
{
    allreduce_state *s = opaque;
    long long count = count_of(v);
    CUDA_CHECK(cudaMemcpy(s->host_first, s->data[0], size_of(count), cudaMemcpyDeviceToHost));
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)
    for (long long i = 0; i < count; ++i) {
        double ref = 0;
        for (int k = 0; k < s->n; ++k) ref += s->host_in[(size_t)k * (size_t)s->floats + (size_t)i];
        float got = s->host_first[i];
        ref_squared += ref * ref;
        if (!isfinite(got)) ++nonfinite;
        else diff_squared += (got - ref) * (got - ref);
    }
    ladder_check c = ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite},
                                         ladder_fp32_tolerance(s->n));
    for (int k = 1; k < s->n; ++k) {
        CUDA_CHECK(cudaMemcpy(s->host_got, s->data[k], size_of(count), cudaMemcpyDeviceToHost));
        ladder_check same = ladder_compare_bytes(s->host_got, s->host_first, size_of(count));
        if (!same.passed) {
            c.passed = 0;
            c.rel_error = fmax(c.rel_error, same.rel_error);
        }
    }
    return c;
}

/* nccl-tests' algorithm bandwidth: the message's bytes once; n - 1 adds
 * per element. */
static ladder_work variant_work(void *opaque, const ladder_variant *v)
{
    allreduce_state *s = opaque;
    return (ladder_work){(double)v->param, (double)(s->n - 1) * (double)count_of(v)};
}

static void summarize(void *opaque, ladder_results *r, size_t first)
{
    allreduce_summarize(r, first, ((allreduce_state *)opaque)->n);
}

const ladder_case allreduce_case = {
    .name = "allreduce",
    .spans_gpus = 1,
    .title = "sum over the GPUs: through the host, gather and broadcast, ring, one-shot, two-shot, against NCCL",
    .size_help = "BYTES, the largest message (8 to 2^30): the sweep runs 8 B up to it by powers of two",
    .default_size = "2^30",
    .quick_size = "2^24",
    .test_sizes = {"8", "4100", "1000004", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_refusal = "allreduce spans every GPU of the run and its rungs are collectives: a single-GPU entry point cannot take part",
    .variants = allreduce_variants,
    .variant_count = VARIANT_COUNT,
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = unsupported,
    .prepare = prepare,
    .run = run,
    .output = output,
    .check = check,
    .work = NULL, /* every variant has its own: variant_work */
    .variant_work = variant_work,
    .summarize = summarize,
};
