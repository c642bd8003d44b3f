/* ladder_try.h: the entry points of `ladder try CASE FILE.cu`.
 *
 * Your file includes this header and defines the one entry point of the case
 * you try; ladder compiles the file into a shared object, calls the function
 * on the ladder's own buffers and stream, checks the result against the
 * case's CPU reference and times it as it times every rung (docs/try.md).
 * Start from `ladder try CASE --template`: a file that compiles and passes.
 *
 * What holds for every entry point:
 * - Pointers are device memory from cudaMalloc (256-byte aligned); no other
 *   alignment is promised unless said. Sizes are any value >= 1 unless said:
 *   the check runs at odd sizes (1x1, 33x4097, primes), so handle the edges.
 * - Launch everything on `stream` and return: no synchronization, no
 *   allocation, no host copies (they would be timed). A static buffer
 *   allocated on the first call is yours to manage; where the ladder's rungs
 *   get a workspace, you get `scratch` too (its contents are unspecified at
 *   each call).
 * - The output is poisoned (NaN, or 0xFF bytes) before every checked run:
 *   write every element. NaN or Inf anywhere fails. Inputs are random and
 *   drawn afresh for each check.
 * - Errors are relative: ||out - ref|| / ||ref|| (norm-wise) or, where said,
 *   componentwise. "u" below is FP32's unit roundoff, 2^-24.
 *
 * The declarations are extern "C": a definition whose parameters differ
 * fails to compile ("more than one instance of overloaded function ... has
 * "C" linkage"), and one that leaves out extern "C" with other parameters
 * is a C++ overload, not the entry point (ladder then says it is missing). */
#ifndef LADDER_TRY_H
#define LADDER_TRY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

/* A BF16 element: __nv_bfloat16 in CUDA code; ladder's own C code, which
 * includes this header too, sees the same two bytes as a struct. */
#ifdef __cplusplus
#include <cuda_bf16.h>
typedef __nv_bfloat16 ladder_bf16;
#else
typedef struct ladder_bf16 {
    unsigned short bits;
} ladder_bf16;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* transpose: out = in transposed, FP32. in is rows x cols row-major
 * (in[r * cols + c]); out is cols x rows row-major: out[c * rows + r] =
 * in[r * cols + c]. rows and cols up to 65535 * 32; rows * cols may pass
 * 2^31 (index with size_t). Exact: any difference fails. */
void ladder_try_transpose(const float *in, float *out, int rows, int cols, cudaStream_t stream);

/* reduce: out[0] = in[0] + ... + in[n - 1], FP32, inputs in [0.5, 1.5].
 * scratch holds scratch_floats floats, room for the partial sums of every
 * pass of a tree of 256-element blocks (ceil(n / 256) + ceil(n / 256^2) +
 * ... while more than one is left). A sum
 * that accumulates into out[0] must first set it (out is NaN-poisoned).
 * Tolerance: relative error <= 8 u sqrt(n). */
void ladder_try_reduce(const float *in, float *out, long long n, float *scratch, size_t scratch_floats,
                       cudaStream_t stream);

/* sgemm: C = A B, FP32 in, FP32 math (TF32 fails the tolerance), all
 * row-major: A is m x k (a[i * k + p]), B is k x n (b[p * n + j]), C is
 * m x n (c[i * n + j]). Inputs in [-1, 1]. Tolerance: norm-wise relative
 * error <= 8 u sqrt(k) (large sizes compare sampled whole rows and columns). */
void ladder_try_sgemm(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream);

/* hgemm: C = A B on BF16 inputs with FP32 accumulation, C in FP32, the
 * "TN" layout: A is m x k row-major, B is stored as its transpose, n x k
 * row-major, both with rows ld elements apart (ld = k rounded up to a
 * multiple of 8, so every row starts 16-byte aligned; the padding is zero):
 * c[i * n + j] = sum over p < k of a[i * ld + p] * b[j * ld + p]. C is
 * m x n row-major, rows n floats apart. Inputs in [-1, 1]. Tolerance:
 * norm-wise relative error <= max(k 2^-23, 8 u sqrt(k)). */
void ladder_try_hgemm(const ladder_bf16 *a, const ladder_bf16 *b, float *c, int m, int n, int k, int ld,
                      cudaStream_t stream);

/* gemv: y = A x, FP32. A is m x n row-major (a[i * n + j]); x has n
 * elements, y has m. No alignment of n is promised: a row starts 16-byte
 * aligned only when n is a multiple of 4. Tolerance, componentwise:
 * |y_i - ref_i| / sum_j |a_ij x_j| <= 8 u sqrt(n). */
void ladder_try_gemv(const float *a, const float *x, float *y, int m, int n, cudaStream_t stream);

/* gemv_t: y = A^T x, FP32, the same row-major m x n A: x has m elements,
 * y has n: y[j] = sum over i of a[i * n + j] x[i]. scratch holds
 * scratch_floats >= ceil(m / 64) n floats (partial sums of row chunks).
 * Tolerance, componentwise: |y_j - ref_j| / sum_i |a_ij x_i| <= 8 u sqrt(m). */
void ladder_try_gemv_t(const float *a, const float *x, float *y, int m, int n, float *scratch,
                       size_t scratch_floats, cudaStream_t stream);

/* spmv: y = A x, A sparse in CSR: row r's entries are val[e] at column
 * col[e] for e in [row_ptr[r], row_ptr[r + 1]), columns sorted within a
 * row; rows may be empty and their lengths skewed (banded or power-law
 * matrices, or a Matrix Market file with --matrix). x has cols elements, y
 * has rows; FP32 values, 32-bit indices. Tolerance, componentwise:
 * |y_r - ref_r| / sum_e |val_e x_col_e| <= 8 u sqrt(longest row). */
void ladder_try_spmv(int rows, int cols, int nnz, const int *row_ptr, const int *col, const float *val,
                     const float *x, float *y, cudaStream_t stream);

/* ado: N data sets, each an L x M matrix: element (row j, column i) of set
 * s at input[s * L * M + j * M + i]. For each s, v[j] = the mean of row j
 * (over its M values), then out[i * N + s] = sum over j of
 * matrix[i * L + j] v[j], with one shared row-major L x L matrix. FP32.
 * scratch holds scratch_floats >= N * L floats (room for every set's
 * means). Tolerance: norm-wise relative error <= 8 u sqrt(L + M). */
void ladder_try_ado(const float *input, const float *matrix, float *out, int L, int M, int N, float *scratch,
                    size_t scratch_floats, cudaStream_t stream);

/* blur: each output sample is the mean of the 3 x 3 neighbourhood of its
 * pixel, per channel, coordinates clamped into the image, rounded as
 * (sum of the 9 samples + 4) / 9 in integers. Packed 8-bit RGB: pixel (x, y)
 * at in[3 * (y * width + x) + channel], rows 3 * width bytes apart, no
 * alignment beyond the base pointer's. width and height up to 2^18.
 * Exact: one sample off by one fails. */
void ladder_try_blur(const unsigned char *in, unsigned char *out, int width, int height, cudaStream_t stream);

/* attention: O = softmax(Q K^T scale) V for each of `heads` independent
 * heads (batch x heads of [B, H, S, D]), BF16 in and out, accumulate in
 * FP32. q, k, v and o are [heads][seq][dim] row-major (D contiguous):
 * element (h, s, d) at h * seq * dim + s * dim + d. dim is 64 or 128;
 * scale = 1 / sqrt(dim); causal: query s sees keys 0..s only. Inputs: Q
 * and K in [-2, 2], V in [-1, 1]. Tolerance: norm-wise relative error
 * <= 2^-8 (large sizes compare a sample of rows; every element is scanned
 * for NaN and Inf). */
void ladder_try_attention(const ladder_bf16 *q, const ladder_bf16 *k, const ladder_bf16 *v, ladder_bf16 *o,
                          int heads, int seq, int dim, int causal, float scale, cudaStream_t stream);

/* smem: out[n - 1 - i] = in[i], FP32 (the reverse the smem ladder stages
 * through shared memory). n up to 2^33. Exact. */
void ladder_try_smem(const float *in, float *out, long long n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
