/* The attention ladder's baseline: cuDNN 9's fused scaled-dot-product
 * attention, reached through the backend (graph) API in C. The graph is the
 * one cuDNN's fused flash-attention engines match (the one its C++ frontend
 * builds for SDPA inference): S = Q K^T (FP32), S * scale, for the causal
 * form a mask from generated row and column indices (row >= column, else the
 * lowest float), the softmax as max, subtract, exp, sum and divide (with its
 * statistics, max + log sum, as a virtual output), P in BF16, then O = P V.
 * Heuristics rank the engine configurations and the first that finalizes
 * is the plan. Built with LADDER_HAVE_CUDNN only; without it every call
 * says so. */
#include "attention.h"

#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/check/check.h"

#ifdef LADDER_HAVE_CUDNN
#include <cudnn.h>
#endif

#ifndef LADDER_HAVE_CUDNN

attention_cudnn *attention_cudnn_create(const attention_problem *problem, long long batch, long long heads_per_batch,
                                        char *err, size_t err_len)
{
    (void)problem;
    (void)batch;
    (void)heads_per_batch;
    snprintf(err, err_len, "built without cuDNN");
    return NULL;
}

void attention_cudnn_run(attention_cudnn *plan, const attention_problem *problem, cudaStream_t stream)
{
    (void)plan;
    (void)problem;
    (void)stream;
    ladder_die("attention: the cuDNN baseline ran in a build without cuDNN");
}

void attention_cudnn_destroy(attention_cudnn *plan)
{
    (void)plan;
}

#else

/* The tensors the variant pack names. */
enum { UID_Q = 1, UID_K, UID_V, UID_O, UID_SCALE, UID_LOWEST, UID_VIRTUAL = 100 };

#define MAX_DESCRIPTORS 96

struct attention_cudnn {
    cudnnHandle_t handle;
    cudnnBackendDescriptor_t plan, pack; /* the pack: the problem's buffers, fixed for its life */
    void *workspace;
    float scale, lowest;
    /* Every descriptor made while building, freed at the end. */
    cudnnBackendDescriptor_t made[MAX_DESCRIPTORS];
    int made_count;
    int64_t next_virtual;
    cudnnStatus_t status; /* the first failure */
    char failed_at[80];
};

static cudnnBackendDescriptor_t make(attention_cudnn *c, cudnnBackendDescriptorType_t type, const char *what)
{
    cudnnBackendDescriptor_t d = NULL;
    if (c->status != CUDNN_STATUS_SUCCESS) return NULL;
    if (c->made_count == MAX_DESCRIPTORS) ladder_die("attention: more cuDNN descriptors than %d", MAX_DESCRIPTORS);
    c->status = cudnnBackendCreateDescriptor(type, &d);
    if (c->status != CUDNN_STATUS_SUCCESS) {
        snprintf(c->failed_at, sizeof c->failed_at, "creating %s", what);
        return NULL;
    }
    c->made[c->made_count++] = d;
    return d;
}

static void set(attention_cudnn *c, cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                cudnnBackendAttributeType_t type, int64_t count, const void *values, const char *what)
{
    if (c->status != CUDNN_STATUS_SUCCESS) return;
    c->status = cudnnBackendSetAttribute(d, name, type, count, values);
    if (c->status != CUDNN_STATUS_SUCCESS) snprintf(c->failed_at, sizeof c->failed_at, "setting %s", what);
}

static void finalize(attention_cudnn *c, cudnnBackendDescriptor_t d, const char *what)
{
    if (c->status != CUDNN_STATUS_SUCCESS) return;
    c->status = cudnnBackendFinalize(d);
    if (c->status != CUDNN_STATUS_SUCCESS) snprintf(c->failed_at, sizeof c->failed_at, "finalizing %s", what);
}

/* A 4D tensor; uid 0 makes a virtual one (an intermediate of the fusion). */
static cudnnBackendDescriptor_t tensor(attention_cudnn *c, int64_t uid, cudnnDataType_t type, const int64_t dims[4],
                                       const int64_t strides[4], int by_value)
{
    cudnnBackendDescriptor_t t = make(c, CUDNN_BACKEND_TENSOR_DESCRIPTOR, "a tensor");
    int64_t id = uid ? uid : c->next_virtual++, alignment = 16;
    bool is_virtual = uid == 0, is_by_value = by_value != 0;
    set(c, t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &id, "tensor uid");
    set(c, t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type, "tensor type");
    set(c, t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dims, "tensor dimensions");
    set(c, t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, strides, "tensor strides");
    set(c, t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment, "tensor alignment");
    set(c, t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual, "tensor virtual");
    if (by_value) set(c, t, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &is_by_value, "tensor by value");
    finalize(c, t, "a tensor");
    return t;
}

/* y = mode(x[, b][, t]) computed in `precision`; NULL operands are left
 * out. GEN_INDEX takes axis. */
static cudnnBackendDescriptor_t pointwise(attention_cudnn *c, cudnnPointwiseMode_t mode, cudnnBackendDescriptor_t x,
                                          cudnnBackendDescriptor_t b, cudnnBackendDescriptor_t t,
                                          cudnnBackendDescriptor_t y, int64_t axis, cudnnDataType_t precision)
{
    cudnnBackendDescriptor_t desc = make(c, CUDNN_BACKEND_POINTWISE_DESCRIPTOR, "a pointwise descriptor");
    set(c, desc, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode, "pointwise mode");
    set(c, desc, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &precision, "pointwise precision");
    if (mode == CUDNN_POINTWISE_GEN_INDEX)
        set(c, desc, CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, 1, &axis, "pointwise axis");
    finalize(c, desc, "a pointwise descriptor");
    cudnnBackendDescriptor_t op = make(c, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, "a pointwise operation");
    set(c, op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &desc, "pointwise op");
    set(c, op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x, "pointwise x");
    if (b) set(c, op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b, "pointwise b");
    if (t) set(c, op, CUDNN_ATTR_OPERATION_POINTWISE_TDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t, "pointwise t");
    set(c, op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y, "pointwise y");
    finalize(c, op, "a pointwise operation");
    return op;
}

static cudnnBackendDescriptor_t reduction(attention_cudnn *c, cudnnReduceTensorOp_t mode, cudnnBackendDescriptor_t x,
                                          cudnnBackendDescriptor_t y)
{
    cudnnBackendDescriptor_t desc = make(c, CUDNN_BACKEND_REDUCTION_DESCRIPTOR, "a reduction descriptor");
    cudnnDataType_t precision = CUDNN_DATA_FLOAT;
    set(c, desc, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &mode, "reduction mode");
    set(c, desc, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &precision, "reduction precision");
    finalize(c, desc, "a reduction descriptor");
    cudnnBackendDescriptor_t op = make(c, CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, "a reduction operation");
    set(c, op, CUDNN_ATTR_OPERATION_REDUCTION_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &desc, "reduction op");
    set(c, op, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x, "reduction x");
    set(c, op, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y, "reduction y");
    finalize(c, op, "a reduction operation");
    return op;
}

static cudnnBackendDescriptor_t matmul(attention_cudnn *c, cudnnBackendDescriptor_t a, cudnnBackendDescriptor_t b,
                                       cudnnBackendDescriptor_t y)
{
    cudnnBackendDescriptor_t desc = make(c, CUDNN_BACKEND_MATMUL_DESCRIPTOR, "a matmul descriptor");
    cudnnDataType_t precision = CUDNN_DATA_FLOAT;
    set(c, desc, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &precision, "matmul precision");
    finalize(c, desc, "a matmul descriptor");
    cudnnBackendDescriptor_t op = make(c, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, "a matmul operation");
    set(c, op, CUDNN_ATTR_OPERATION_MATMUL_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &desc, "matmul op");
    set(c, op, CUDNN_ATTR_OPERATION_MATMUL_ADESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &a, "matmul a");
    set(c, op, CUDNN_ATTR_OPERATION_MATMUL_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b, "matmul b");
    set(c, op, CUDNN_ATTR_OPERATION_MATMUL_CDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y, "matmul c");
    finalize(c, op, "a matmul operation");
    return op;
}

/* The first engine configuration of the heuristics' ranking (mode A, then
 * the fallback list) that makes a plan. */
static void make_plan(attention_cudnn *c, cudnnBackendDescriptor_t graph)
{
    const cudnnBackendHeurMode_t modes[2] = {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK};
    int64_t ranked = 0;
    for (int mode = 0; mode < 2 && c->status == CUDNN_STATUS_SUCCESS; ++mode) {
        cudnnBackendDescriptor_t heuristics = make(c, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, "the heuristics");
        set(c, heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph,
            "heur graph");
        set(c, heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &modes[mode], "heur mode");
        finalize(c, heuristics, "the heuristics");
        enum { CONFIGS = 4 };
        cudnnBackendDescriptor_t configs[CONFIGS];
        for (int i = 0; i < CONFIGS; ++i) configs[i] = make(c, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, "an engine config");
        int64_t found = 0;
        if (c->status == CUDNN_STATUS_SUCCESS &&
            cudnnBackendGetAttribute(heuristics, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, CONFIGS,
                                     &found, configs) != CUDNN_STATUS_SUCCESS)
            found = 0;
        ranked += found;
        for (int64_t i = 0; i < found; ++i) {
            cudnnBackendDescriptor_t plan = make(c, CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "a plan");
            set(c, plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &c->handle, "plan handle");
            set(c, plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &configs[i],
                "plan config");
            if (c->status != CUDNN_STATUS_SUCCESS) return;
            if (cudnnBackendFinalize(plan) == CUDNN_STATUS_SUCCESS) {
                c->plan = plan;
                return;
            }
        }
    }
    if (c->status != CUDNN_STATUS_SUCCESS) return;
    c->status = CUDNN_STATUS_NOT_SUPPORTED;
    snprintf(c->failed_at, sizeof c->failed_at, "finalizing a plan from any of the %lld ranked engines",
             (long long)ranked);
}

attention_cudnn *attention_cudnn_create(const attention_problem *p, long long batch, long long heads_per_batch,
                                        char *err, size_t err_len)
{
    attention_cudnn *c = calloc(1, sizeof *c);
    if (!c) ladder_die("out of host memory");
    c->next_virtual = UID_VIRTUAL;
    c->scale = p->scale;
    c->lowest = -FLT_MAX;
    c->status = cudnnCreate(&c->handle);
    if (c->status != CUDNN_STATUS_SUCCESS) {
        snprintf(err, err_len, "cuDNN: cudnnCreate failed: %s", cudnnGetErrorString(c->status));
        free(c);
        return NULL;
    }
    int64_t b = batch, h = heads_per_batch, s = p->seq, d = p->dim;
    const int64_t qkv_dims[4] = {b, h, s, d}, qkv_strides[4] = {h * s * d, s * d, d, 1};
    const int64_t kt_dims[4] = {b, h, d, s}, kt_strides[4] = {h * s * d, s * d, 1, d};
    const int64_t square_dims[4] = {b, h, s, s}, square_strides[4] = {h * s * s, s * s, s, 1};
    const int64_t row_dims[4] = {b, h, s, 1}, row_strides[4] = {h * s, s, 1, 1};
    const int64_t one[4] = {1, 1, 1, 1};
    cudnnBackendDescriptor_t q = tensor(c, UID_Q, CUDNN_DATA_BFLOAT16, qkv_dims, qkv_strides, 0);
    cudnnBackendDescriptor_t kt = tensor(c, UID_K, CUDNN_DATA_BFLOAT16, kt_dims, kt_strides, 0);
    cudnnBackendDescriptor_t v = tensor(c, UID_V, CUDNN_DATA_BFLOAT16, qkv_dims, qkv_strides, 0);
    cudnnBackendDescriptor_t o = tensor(c, UID_O, CUDNN_DATA_BFLOAT16, qkv_dims, qkv_strides, 0);
    cudnnBackendDescriptor_t scale = tensor(c, UID_SCALE, CUDNN_DATA_FLOAT, one, one, 1);
    const cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
    cudnnBackendDescriptor_t ops[16];
    int n = 0;
    cudnnBackendDescriptor_t scores = tensor(c, 0, f32, square_dims, square_strides, 0);
    ops[n++] = matmul(c, q, kt, scores);
    cudnnBackendDescriptor_t scaled = tensor(c, 0, f32, square_dims, square_strides, 0);
    ops[n++] = pointwise(c, CUDNN_POINTWISE_MUL, scores, scale, NULL, scaled, 0, f32);
    if (p->causal) {
        /* Keep (row >= column), else the lowest float: the frontend's mask. */
        cudnnBackendDescriptor_t rows = tensor(c, 0, CUDNN_DATA_INT32, square_dims, square_strides, 0);
        cudnnBackendDescriptor_t cols = tensor(c, 0, CUDNN_DATA_INT32, square_dims, square_strides, 0);
        cudnnBackendDescriptor_t keep = tensor(c, 0, CUDNN_DATA_BOOLEAN, square_dims, square_strides, 0);
        cudnnBackendDescriptor_t lowest = tensor(c, UID_LOWEST, f32, one, one, 1);
        cudnnBackendDescriptor_t masked = tensor(c, 0, f32, square_dims, square_strides, 0);
        ops[n++] = pointwise(c, CUDNN_POINTWISE_GEN_INDEX, scaled, NULL, NULL, rows, 2, CUDNN_DATA_INT32);
        ops[n++] = pointwise(c, CUDNN_POINTWISE_GEN_INDEX, scaled, NULL, NULL, cols, 3, CUDNN_DATA_INT32);
        ops[n++] = pointwise(c, CUDNN_POINTWISE_CMP_GE, rows, cols, NULL, keep, 0, CUDNN_DATA_BOOLEAN);
        ops[n++] = pointwise(c, CUDNN_POINTWISE_BINARY_SELECT, scaled, lowest, keep, masked, 0, f32);
        scaled = masked;
    }
    /* The softmax as the fused engines expect it, with its statistics
     * (max + log sum, virtual here: inference does not keep them). */
    cudnnBackendDescriptor_t top = tensor(c, 0, f32, row_dims, row_strides, 0);
    cudnnBackendDescriptor_t shifted = tensor(c, 0, f32, square_dims, square_strides, 0);
    cudnnBackendDescriptor_t exponent = tensor(c, 0, f32, square_dims, square_strides, 0);
    cudnnBackendDescriptor_t total = tensor(c, 0, f32, row_dims, row_strides, 0);
    cudnnBackendDescriptor_t log_total = tensor(c, 0, f32, row_dims, row_strides, 0);
    cudnnBackendDescriptor_t stats = tensor(c, 0, f32, row_dims, row_strides, 0);
    cudnnBackendDescriptor_t probs = tensor(c, 0, CUDNN_DATA_BFLOAT16, square_dims, square_strides, 0);
    ops[n++] = reduction(c, CUDNN_REDUCE_TENSOR_MAX, scaled, top);
    ops[n++] = pointwise(c, CUDNN_POINTWISE_SUB, scaled, top, NULL, shifted, 0, f32);
    ops[n++] = pointwise(c, CUDNN_POINTWISE_EXP, shifted, NULL, NULL, exponent, 0, f32);
    ops[n++] = reduction(c, CUDNN_REDUCE_TENSOR_ADD, exponent, total);
    ops[n++] = pointwise(c, CUDNN_POINTWISE_LOG, total, NULL, NULL, log_total, 0, f32);
    ops[n++] = pointwise(c, CUDNN_POINTWISE_ADD, top, log_total, NULL, stats, 0, f32);
    ops[n++] = pointwise(c, CUDNN_POINTWISE_DIV, exponent, total, NULL, probs, 0, f32);
    ops[n++] = matmul(c, probs, v, o);
    cudnnBackendDescriptor_t graph = make(c, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, "the graph");
    set(c, graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &c->handle, "graph handle");
    set(c, graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, n, ops, "graph ops");
    finalize(c, graph, "the graph");
    make_plan(c, graph);
    int64_t workspace = 0;
    if (c->status == CUDNN_STATUS_SUCCESS) {
        int64_t count = 0;
        c->status = cudnnBackendGetAttribute(c->plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1,
                                             &count, &workspace);
        if (c->status != CUDNN_STATUS_SUCCESS) snprintf(c->failed_at, sizeof c->failed_at, "asking the workspace");
    }
    if (c->status == CUDNN_STATUS_SUCCESS && workspace > 0 &&
        ladder_try_cuda_malloc(&c->workspace, (size_t)workspace)) {
        c->status = CUDNN_STATUS_ALLOC_FAILED;
        snprintf(c->failed_at, sizeof c->failed_at, "allocating a %.1f MB workspace", workspace / 1e6);
    }
    /* The scalars go by value: the pack holds their host addresses. */
    int64_t uids[6] = {UID_Q, UID_K, UID_V, UID_O, UID_SCALE, UID_LOWEST};
    void *pointers[6] = {(void *)p->q, (void *)p->k, (void *)p->v, p->o, &c->scale, &c->lowest};
    int64_t count = p->causal ? 6 : 5;
    c->pack = make(c, CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "the variant pack");
    set(c, c->pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, count, uids, "pack uids");
    set(c, c->pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, count, pointers, "pack pointers");
    set(c, c->pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &c->workspace, "pack workspace");
    finalize(c, c->pack, "the variant pack");
    if (c->status != CUDNN_STATUS_SUCCESS) {
        snprintf(err, err_len, "cuDNN %zu has no fused attention plan for this problem: %s failed (%s)",
                 cudnnGetVersion(), c->failed_at, cudnnGetErrorString(c->status));
        attention_cudnn_destroy(c);
        return NULL;
    }
    return c;
}

void attention_cudnn_run(attention_cudnn *c, const attention_problem *p, cudaStream_t stream)
{
    (void)p; /* its buffers are in the pack */
    if (cudnnSetStream(c->handle, stream) != CUDNN_STATUS_SUCCESS) ladder_die("attention: cudnnSetStream failed");
    cudnnStatus_t status = cudnnBackendExecute(c->handle, c->plan, c->pack);
    if (status != CUDNN_STATUS_SUCCESS)
        ladder_die("attention: cuDNN execution failed: %s", cudnnGetErrorString(status));
}

void attention_cudnn_destroy(attention_cudnn *c)
{
    if (!c) return;
    for (int i = c->made_count - 1; i >= 0; --i) cudnnBackendDestroyDescriptor(c->made[i]);
    cudaFree(c->workspace);
    if (c->handle) cudnnDestroy(c->handle);
    free(c);
}

#endif
