/* The p2p study (SPEC §15): what it costs to move bytes from one GPU to
 * another in the same host, and how close each way comes to the links.
 *
 * Topology first: for every ordered pair of the run's GPUs, whether CUDA
 * grants peer access, and how NVML says they are joined (NVLinks, their count
 * and per-link rate, or no NVLink: PCIe through the host bridge). These land
 * in the summaries, with "unknown" where NVML does not answer.
 *
 * The ladder, for the pair (A, B) = the run's GPU and the next one, each rung
 * swept 4 KiB to 1 GiB:
 *   staged             A -> pinned host memory -> B: two PCIe crossings, in series
 *   peer_copy_no_access cudaMemcpyPeerAsync with peer access disabled: the
 *                      driver stages it through host memory itself
 *   peer_copy          the same call with peer access enabled: one copy-engine
 *                      transfer over the link
 *   peer_load          a kernel on B loads A's memory and stores locally
 *   peer_store         a kernel on A loads locally and stores into B's memory
 *   peer_copy_both_ways A -> B and B -> A at once: the link's two directions
 * then a matrix: a peer copy of the case size between every ordered pair of
 * the run's GPUs (all pairs, for more than two GPUs).
 *
 * Timing. The harness times the run's stream (on A) with events; a rung with
 * work on another GPU forks to that GPU's stream after the start event and
 * joins back before the stop event (gpus.h), so the events span the first
 * GPU's start to the last GPU's end. Only A's L2 is flushed before a sample.
 *
 * Peer access is switched on or off by prepare(), outside the timed region:
 * enabling it maps the peer's memory into the context, which takes
 * milliseconds. Destinations are poisoned by fill_inputs, on their own GPU
 * (the harness's poison is a cudaMemset on the run's GPU); output() therefore
 * names zero bytes. */
#include "p2p.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/device/gpus.h"
#include "harness/check/rng.h"
#include "harness/measure/sweep.h"

#define POISON 0xA5
#define M LADDER_MAX_GPUS
#define SWEEP_POINTS (P2P_SWEEP_MAX_LOG2 - P2P_SWEEP_MIN_LOG2 + 1)

typedef struct p2p_state {
    size_t bytes;        /* the case size: the largest transfer, the matrix's transfer */
    size_t padded_bytes; /* rounded up to whole floats: the sources hold random floats */
    int n;
    int gpu[M];          /* the run's GPUs, the run's device first */
    char bus_id[M][32];
    int can_access[M][M];
    int access_on[M][M]; /* peer access from gpu[i] to gpu[j] enabled now */
    char skip[200];      /* why no variant runs here; "" when they can */
    unsigned char *src[M], *dst[M];
    unsigned char *pinned;            /* the staged rung's host buffer */
    unsigned char *host_src[2], *host_got;
    int blocks[M];                    /* the copy kernel's grid on each GPU */
    ladder_gpu_streams streams;
    const ladder_variant *current;    /* set by prepare(): which buffers fill_inputs fills */
} p2p_state;

typedef void p2p_launcher(p2p_state *s, const ladder_variant *v, cudaStream_t stream);

static size_t bytes_of(const p2p_state *s, const ladder_variant *v);
#define route_of p2p_route_of

/* ---- peer access ---- */

static void set_access(p2p_state *s, int i, int j, int on)
{
    if (s->access_on[i][j] == on || !s->can_access[i][j]) return;
    CUDA_CHECK(cudaSetDevice(s->gpu[i]));
    cudaError_t e = on ? cudaDeviceEnablePeerAccess(s->gpu[j], 0) : cudaDeviceDisablePeerAccess(s->gpu[j]);
    /* Another part of the process may have set it already (NCCL enables it). */
    if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled) (void)cudaGetLastError();
    else if (e != cudaSuccess) ladder_cuda_fail(e, on ? "cudaDeviceEnablePeerAccess" : "cudaDeviceDisablePeerAccess",
                                                __FILE__, __LINE__);
    s->access_on[i][j] = on;
    CUDA_CHECK(cudaSetDevice(s->gpu[0]));
}

static void set_pair_access(p2p_state *s, int i, int j, int on)
{
    set_access(s, i, j, on);
    set_access(s, j, i, on);
}

/* ---- the rungs: A = GPU 0 of the run, B = GPU 1 ---- */

static void staged(p2p_state *s, const ladder_variant *v, cudaStream_t stream)
{
    size_t bytes = bytes_of(s, v);
    ladder_gpu_streams *g = &s->streams;
    ladder_gpu_streams_fork(g, stream);
    CUDA_CHECK(cudaMemcpyAsync(s->pinned, s->src[0], bytes, cudaMemcpyDeviceToHost, stream));
    ladder_gpu_streams_mark(g, 0);
    ladder_gpu_streams_wait(g, 1, 0);
    CUDA_CHECK(cudaMemcpyAsync(s->dst[1], s->pinned, bytes, cudaMemcpyHostToDevice, g->stream[1]));
    ladder_gpu_streams_join(g);
}

/* The same call as peer_copy; prepare() has disabled peer access. The
 * driver then stages the bytes through host memory, possibly with the host
 * thread doing part of it, which would start before the GPU reaches the start
 * event and escape the timing: as transfer's pageable copies do, wait for the
 * stream first, so that the timed region starts when the host starts. */
static void peer_copy_without_access(p2p_state *s, const ladder_variant *v, cudaStream_t stream)
{
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpyPeerAsync(s->dst[1], s->gpu[1], s->src[0], s->gpu[0], bytes_of(s, v), stream));
}

static void peer_copy(p2p_state *s, const ladder_variant *v, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemcpyPeerAsync(s->dst[1], s->gpu[1], s->src[0], s->gpu[0], bytes_of(s, v), stream));
}

static void peer_load(p2p_state *s, const ladder_variant *v, cudaStream_t stream)
{
    ladder_gpu_streams *g = &s->streams;
    ladder_gpu_streams_fork(g, stream);
    ladder_gpu_streams_use(g, 1);
    p2p_copy_kernel(s->dst[1], s->src[0], bytes_of(s, v), s->blocks[1], g->stream[1]);
    ladder_gpu_streams_join(g);
}

static void peer_store(p2p_state *s, const ladder_variant *v, cudaStream_t stream)
{
    p2p_copy_kernel(s->dst[1], s->src[0], bytes_of(s, v), s->blocks[0], stream);
}

static void peer_copy_both_ways(p2p_state *s, const ladder_variant *v, cudaStream_t stream)
{
    size_t bytes = bytes_of(s, v);
    ladder_gpu_streams *g = &s->streams;
    ladder_gpu_streams_fork(g, stream);
    CUDA_CHECK(cudaMemcpyPeerAsync(s->dst[1], s->gpu[1], s->src[0], s->gpu[0], bytes, stream));
    ladder_gpu_streams_use(g, 1);
    CUDA_CHECK(cudaMemcpyPeerAsync(s->dst[0], s->gpu[0], s->src[1], s->gpu[1], bytes, g->stream[1]));
    ladder_gpu_streams_join(g);
}

/* The matrix: GPU i pushes the case size to GPU j on i's stream. */
static void matrix_copy(p2p_state *s, const ladder_variant *v, cudaStream_t stream)
{
    int i = P2P_MATRIX_FROM(v->param), j = P2P_MATRIX_TO(v->param);
    ladder_gpu_streams *g = &s->streams;
    ladder_gpu_streams_fork(g, stream);
    ladder_gpu_streams_use(g, i);
    CUDA_CHECK(cudaMemcpyPeerAsync(s->dst[j], s->gpu[j], s->src[i], s->gpu[i], s->bytes, g->stream[i]));
    ladder_gpu_streams_join(g);
}

#define SWEEP(route, launcher, story) LADDER_SWEEP_4KIB_TO_1GIB(route, story, launcher, LADDER_SWEEP_BYTES)
#define PAIR(i, j) \
    LADDER_RUNG("matrix_" #i "_to_" #j, "peer copy of the case size from GPU " #i " to GPU " #j " of the run", \
                matrix_copy, P2P_MATRIX_PARAM(i, j))
#define FROM(i, a, b, c, d, e, f, g) PAIR(i, a), PAIR(i, b), PAIR(i, c), PAIR(i, d), PAIR(i, e), PAIR(i, f), PAIR(i, g)

static const ladder_variant p2p_variants[] = {
    SWEEP("staged", staged,
          "A to pinned host memory, then host to B: two PCIe copies in series, the route with no peer support"),
    SWEEP("peer_copy_no_access", peer_copy_without_access,
          "cudaMemcpyPeerAsync, peer access disabled: the driver stages through the host for us"),
    SWEEP("peer_copy", peer_copy,
          "the same call with peer access enabled: one copy-engine transfer straight over the link"),
    SWEEP("peer_load", peer_load, "a kernel on B loads A's memory: every SM's loads cross the link, no copy engine"),
    SWEEP("peer_store", peer_store,
          "a kernel on A stores into B's memory: posted writes, no round trip per load over the link"),
    SWEEP("peer_copy_both_ways", peer_copy_both_ways,
          "A to B and B to A at once: both directions of the link busy, twice the bytes"),
    FROM(0, 1, 2, 3, 4, 5, 6, 7), FROM(1, 0, 2, 3, 4, 5, 6, 7), FROM(2, 0, 1, 3, 4, 5, 6, 7),
    FROM(3, 0, 1, 2, 4, 5, 6, 7), FROM(4, 0, 1, 2, 3, 5, 6, 7), FROM(5, 0, 1, 2, 3, 4, 6, 7),
    FROM(6, 0, 1, 2, 3, 4, 5, 7), FROM(7, 0, 1, 2, 3, 4, 5, 6),
};
#define VARIANT_COUNT ((int)(sizeof p2p_variants / sizeof p2p_variants[0]))

p2p_route p2p_route_of(const ladder_variant *v)
{
    p2p_launcher *f = (p2p_launcher *)v->impl;
    if (f == staged) return P2P_STAGED;
    if (f == peer_copy_without_access) return P2P_COPY_NO_ACCESS;
    if (f == peer_copy) return P2P_COPY;
    if (f == peer_load) return P2P_LOAD;
    if (f == peer_store) return P2P_STORE;
    if (f == peer_copy_both_ways) return P2P_BOTH_WAYS;
    return P2P_MATRIX;
}

static size_t bytes_of(const p2p_state *s, const ladder_variant *v)
{
    return route_of(v) == P2P_MATRIX ? s->bytes : (size_t)v->param;
}

/* Source and destination GPUs of a variant; both ways also copies b -> a. */
static void pair_of(const ladder_variant *v, int *a, int *b)
{
    *a = 0;
    *b = 1;
    if (route_of(v) == P2P_MATRIX) {
        *a = P2P_MATRIX_FROM(v->param);
        *b = P2P_MATRIX_TO(v->param);
    }
}

/* ---- the case hooks ---- */

static void destroy(void *opaque)
{
    p2p_state *s = opaque;
    if (!s) return;
    for (int i = 0; i < s->n; ++i)
        for (int j = 0; j < s->n; ++j)
            if (i != j) set_access(s, i, j, 0);
    ladder_gpu_streams_destroy(&s->streams);
    for (int i = 0; i < s->n; ++i) {
        cudaSetDevice(s->gpu[i]);
        cudaFree(s->src[i]);
        cudaFree(s->dst[i]);
    }
    cudaFreeHost(s->pinned);
    free(s->host_src[0]);
    free(s->host_src[1]);
    free(s->host_got);
    if (s->n > 0) cudaSetDevice(s->gpu[0]);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 || size->dim[0] < 1 || size->dim[0] > (1LL << P2P_SWEEP_MAX_LOG2)) {
        snprintf(err, err_len, "p2p takes one size in bytes, 1 to 2^30: the largest transfer");
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
    p2p_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->bytes = (size_t)size->dim[0];
    s->padded_bytes = (s->bytes + sizeof(float) - 1) / sizeof(float) * sizeof(float);
    s->n = ladder_run_gpus(s->gpu, M);
    if (s->n < 2) {
        snprintf(s->skip, sizeof s->skip, "needs two GPUs; this run sees %d", s->n);
        return s;
    }
    for (int i = 0; i < s->n; ++i) {
        CUDA_CHECK(cudaDeviceGetPCIBusId(s->bus_id[i], sizeof s->bus_id[i], s->gpu[i]));
        int sms;
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s->gpu[i]));
        s->blocks[i] = 4 * sms;
        for (int j = 0; j < s->n; ++j)
            if (i != j) CUDA_CHECK(cudaDeviceCanAccessPeer(&s->can_access[i][j], s->gpu[i], s->gpu[j]));
    }
    int fail = 0;
    for (int i = 0; i < s->n && !fail; ++i) {
        CUDA_CHECK(cudaSetDevice(s->gpu[i]));
        fail = ladder_try_cuda_malloc((void **)&s->src[i], s->padded_bytes) ||
               ladder_try_cuda_malloc((void **)&s->dst[i], s->padded_bytes);
    }
    CUDA_CHECK(cudaSetDevice(s->gpu[0]));
    s->host_src[0] = malloc(s->padded_bytes);
    s->host_src[1] = malloc(s->padded_bytes);
    s->host_got = malloc(s->padded_bytes);
    cudaError_t pinned = fail ? cudaSuccess : cudaMallocHost((void **)&s->pinned, s->padded_bytes);
    if (pinned != cudaSuccess) (void)cudaGetLastError();
    if (fail || pinned != cudaSuccess || !s->host_src[0] || !s->host_src[1] || !s->host_got) {
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "%zu bytes need 2 x %.2f GB on each of %d GPUs and 4 x %.2f GB of host memory (1 pinned)",
                 s->bytes, s->padded_bytes / 1e9, s->n, s->padded_bytes / 1e9);
        destroy(s);
        return NULL;
    }
    ladder_gpu_streams_create(&s->streams, s->gpu, s->n);
    return s;
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    p2p_state *s = opaque;
    static char reason[200];
    if (s->skip[0]) return s->skip;
    int a, b;
    pair_of(v, &a, &b);
    if (a >= s->n || b >= s->n) {
        snprintf(reason, sizeof reason, "the run has %d GPUs, no GPU %d", s->n, a > b ? a : b);
        return reason;
    }
    p2p_route r = route_of(v);
    if (r != P2P_MATRIX && bytes_of(s, v) > s->bytes) return "larger than the case size (the largest transfer)";
    if (r != P2P_STAGED && r != P2P_COPY_NO_ACCESS && !(s->can_access[a][b] && s->can_access[b][a])) {
        snprintf(reason, sizeof reason, "no peer access between GPU %d and GPU %d (cudaDeviceCanAccessPeer)", s->gpu[a],
                 s->gpu[b]);
        return reason;
    }
    return NULL;
}

static void prepare(void *opaque, const ladder_variant *v)
{
    p2p_state *s = opaque;
    s->current = v;
    int a, b;
    pair_of(v, &a, &b);
    /* The staged rung does not use the link: leave it as it is. */
    if (route_of(v) != P2P_STAGED) set_pair_access(s, a, b, route_of(v) != P2P_COPY_NO_ACCESS);
}

static void fill_device(p2p_state *s, int gpu, unsigned char *dst, const void *src, size_t bytes, int poison)
{
    CUDA_CHECK(cudaSetDevice(s->gpu[gpu]));
    if (src) CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    else CUDA_CHECK(cudaMemset(dst, poison, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaSetDevice(s->gpu[0]));
}

/* Only the variant's bytes: a 1 GiB fill of every GPU for each 4 KiB check
 * would make the ladder's checks take minutes. */
static void fill_inputs(void *opaque, uint64_t seed)
{
    p2p_state *s = opaque;
    const ladder_variant *v = s->current;
    size_t bytes = bytes_of(s, v);
    size_t words = (bytes + sizeof(float) - 1) / sizeof(float);
    int a, b;
    pair_of(v, &a, &b);
    ladder_fill_uniform((float *)s->host_src[0], words, seed, 1.0f, 2.0f);
    fill_device(s, a, s->src[a], s->host_src[0], bytes, 0);
    fill_device(s, b, s->dst[b], NULL, bytes, POISON);
    if (route_of(v) == P2P_BOTH_WAYS) {
        ladder_fill_uniform((float *)s->host_src[1], words, ladder_hash64(seed), 1.0f, 2.0f);
        fill_device(s, b, s->src[b], s->host_src[1], bytes, 0);
        fill_device(s, a, s->dst[a], NULL, bytes, POISON);
    }
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    ((p2p_launcher *)v->impl)(opaque, v, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    p2p_state *s = opaque;
    /* Poisoned by fill_inputs on the destination's own GPU (see the top). */
    return (ladder_output){s->dst[0], 0, POISON};
}

static ladder_check check_copy(p2p_state *s, const unsigned char *dst, const unsigned char *want, size_t bytes)
{
    CUDA_CHECK(cudaMemcpy(s->host_got, dst, bytes, cudaMemcpyDeviceToHost));
    return ladder_compare_bytes(s->host_got, want, bytes);
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    p2p_state *s = opaque;
    size_t bytes = bytes_of(s, v);
    int a, b;
    pair_of(v, &a, &b);
    ladder_check c = check_copy(s, s->dst[b], s->host_src[0], bytes);
    if (route_of(v) == P2P_BOTH_WAYS) {
        ladder_check back = check_copy(s, s->dst[a], s->host_src[1], bytes);
        c.rel_error = fmax(c.rel_error, back.rel_error);
        c.passed = c.passed && back.passed;
    }
    return c;
}

/* Bytes that crossed the link: twice the size both ways. */
static ladder_work variant_work(void *opaque, const ladder_variant *v)
{
    p2p_state *s = opaque;
    double bytes = (double)bytes_of(s, v);
    return (ladder_work){route_of(v) == P2P_BOTH_WAYS ? 2.0 * bytes : bytes, 0.0};
}

/* ---- the summary ---- */

static const ladder_variant *variant_of(const ladder_record *rec)
{
    return rec->index >= 0 && rec->index < VARIANT_COUNT ? &p2p_variants[rec->index] : NULL;
}

/* The link's rate each way between GPUs i and j, GB/s; NaN when unknown. */
static double link_rate(const ladder_link *l) { return l->nvlinks > 0 ? l->nvlinks * l->link_gbps : NAN; }

static void summarize(void *opaque, ladder_results *r, size_t first)
{
    p2p_state *s = opaque;
    char name[48], note[160];
    ladder_add_summary(r, "gpus", s->n, "", "GPUs of the run: the run's device, then every other visible one");
    if (s->n < 2) return;
    int pairs = 0, granted = 0;
    for (int i = 0; i < s->n; ++i)
        for (int j = 0; j < s->n; ++j)
            if (i != j) {
                ++pairs;
                granted += s->can_access[i][j] != 0;
            }
    snprintf(note, sizeof note, "ordered pairs that cudaDeviceCanAccessPeer grants, of %d", pairs);
    ladder_add_summary(r, "peer_access_pairs", granted, "pairs", note);

    /* The topology of every ordered pair, then the rate the ladder is held to. */
    double rate_ab = NAN;
    for (int i = 0; i < s->n; ++i)
        for (int j = 0; j < s->n; ++j) {
            if (i == j) continue;
            ladder_link l = ladder_link_between(s->bus_id[i], s->bus_id[j]);
            char text[120];
            ladder_describe_link(&l, text, sizeof text);
            snprintf(name, sizeof name, "link_%d_to_%d_gbps", i, j);
            snprintf(note, sizeof note, "GPU %d to %d (NVML): %s", s->gpu[i], s->gpu[j], text);
            ladder_add_summary(r, name, link_rate(&l), "GB/s", note);
            if (i == 0 && j == 1) rate_ab = link_rate(&l);
        }
    p2p_summarize_ladder(r, first, rate_ab);
}

void p2p_summarize_ladder(ladder_results *r, size_t first, double rate_ab)
{
    char name[48], note[160];
    static const struct {
        const char *route;
        p2p_route id;
    } routes[] = {{"staged", P2P_STAGED},      {"peer_copy_no_access", P2P_COPY_NO_ACCESS},
                  {"peer_copy", P2P_COPY},     {"peer_load", P2P_LOAD},
                  {"peer_store", P2P_STORE},   {"peer_copy_both_ways", P2P_BOTH_WAYS}};
    double best_gbps = 0;
    const char *best_route = "none";
    for (size_t k = 0; k < sizeof routes / sizeof routes[0]; ++k) {
        double bytes[SWEEP_POINTS], seconds[SWEEP_POINTS], spread[SWEEP_POINTS], largest_gbps = NAN;
        size_t n = 0, largest = 0;
        for (size_t i = first; i < r->count && n < SWEEP_POINTS; ++i) {
            const ladder_record *rec = &r->records[i];
            const ladder_variant *v = variant_of(rec);
            if (!v || route_of(v) != routes[k].id || !ladder_record_usable(rec)) continue;
            bytes[n] = rec->bytes;
            seconds[n] = rec->median_ms * 1e-3;
            spread[n] = rec->rel_spread;
            if ((size_t)v->param >= largest) {
                largest = (size_t)v->param;
                largest_gbps = rec->gbps;
            }
            ++n;
        }
        ladder_fit fit = ladder_fit_latency_bandwidth(bytes, seconds, spread, n);
        double link = routes[k].id == P2P_BOTH_WAYS ? 2 * rate_ab : rate_ab;
        snprintf(name, sizeof name, "%s_latency_us", routes[k].route);
        snprintf(note, sizeof note, "intercept of time = latency + bytes / bandwidth, %zu sizes, GPU 0 to 1 of the run",
                 fit.points);
        ladder_add_summary(r, name, fit.latency_s * 1e6, "us", note);
        snprintf(name, sizeof name, "%s_bandwidth_gbps", routes[k].route);
        ladder_add_summary(r, name, fit.bandwidth_bps / 1e9, "GB/s", "1 / slope of the same fit; both ways counts both directions");
        snprintf(name, sizeof name, "%s_fraction_of_link", routes[k].route);
        ladder_add_summary(r, name, largest_gbps / link, "ratio",
            "GB/s at the largest size / the links' rate (NVML), both directions for both ways; NaN: rate unknown");
        if (routes[k].id != P2P_BOTH_WAYS && largest_gbps > best_gbps) {
            best_gbps = largest_gbps;
            best_route = routes[k].route;
        }
    }
    snprintf(note, sizeof note, "best one-way rung (%s) at the largest size / the links' rate (target >= 0.90)",
             best_route);
    ladder_add_summary(r, "best_one_way_fraction_of_link", best_gbps > 0 ? best_gbps / rate_ab : NAN, "ratio", note);

    double slowest = NAN, fastest = NAN;
    int slow_i = -1, slow_j = -1;
    for (size_t i = first; i < r->count; ++i) {
        const ladder_record *rec = &r->records[i];
        const ladder_variant *v = variant_of(rec);
        if (!v || route_of(v) != P2P_MATRIX || !ladder_record_usable(rec)) continue;
        if (isnan(slowest) || rec->gbps < slowest) {
            slowest = rec->gbps;
            slow_i = P2P_MATRIX_FROM(v->param);
            slow_j = P2P_MATRIX_TO(v->param);
        }
        if (isnan(fastest) || rec->gbps > fastest) fastest = rec->gbps;
    }
    snprintf(note, sizeof note, "slowest ordered pair of the matrix: GPU %d to GPU %d of the run", slow_i, slow_j);
    ladder_add_summary(r, "matrix_slowest_gbps", slowest, "GB/s", note);
    ladder_add_summary(r, "matrix_fastest_gbps", fastest, "GB/s", "fastest ordered pair of the matrix");
}

const ladder_case p2p_case = {
    .name = "p2p",
    .spans_gpus = 1,
    .title = "GPU to GPU: staged, peer copies with and without peer access, peer loads and stores, the pair matrix",
    .size_help = "BYTES, the largest transfer (1 to 2^30): the sweep runs 4 KiB up to it, the matrix moves it",
    .default_size = "2^30",
    .quick_size = "2^24",
    .test_sizes = {"4099", "65536", "1000003", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_refusal = "p2p measures copies between GPUs over a sweep of sizes and paths: there is no one result to compute",
    .variants = p2p_variants,
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
