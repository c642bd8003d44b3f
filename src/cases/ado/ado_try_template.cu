/* A starting point for `ladder try ado FILE.cu`: the two stages of the
 * workload written plainly, a thread per row mean, then a thread per
 * output. It compiles and passes at every size (the ladder's rung v1 takes
 * L <= 1024 only).
 *
 *   ladder try ado --template > mine.cu
 *   ladder try ado mine.cu --quick
 *
 * The contract is in include/ladder_try.h: for each of N data sets (L x M,
 * row j's M values contiguous), the means of its L rows, then
 * out[i * N + s] = sum over j of matrix[i * L + j] * mean[j]; FP32;
 * scratch holds N * L floats.
 *
 * The means kernel gives a thread a row: a warp's loads land in 32 rows,
 * 32 sectors for 128 useful bytes. The rung to beat next is
 * v3_coalesced_means: lanes along a row (coalesced) and a warp-shuffle sum;
 * then v5_means_then_sgemm, the product as one SGEMM over every data set
 * (`ladder list ado`). */
#include "ladder_try.h"

__global__ void row_means(const float *input, float *means, int L, int M, int N)
{
    long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; /* s * L + j */
    if (row >= (long long)L * N) return;
    const float *values = input + row * M;
    float sum = 0.0f;
    for (int i = 0; i < M; ++i) sum += values[i];
    means[row] = sum / M;
}

__global__ void products(const float *matrix, const float *means, float *out, int L, int N)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= N) return;
    /* A grid holds 65535 blocks along y: larger L loops. */
    for (int i = blockIdx.y; i < L; i += gridDim.y) {
        float sum = 0.0f;
        for (int j = 0; j < L; ++j) sum += matrix[(size_t)i * L + j] * means[(size_t)s * L + j];
        out[(size_t)i * N + s] = sum;
    }
}

void ladder_try_ado(const float *input, const float *matrix, float *out, int L, int M, int N, float *scratch,
                    size_t scratch_floats, cudaStream_t stream)
{
    (void)scratch_floats; /* N * L: every data set's means */
    int threads = 256;
    long long rows = (long long)L * N;
    row_means<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(input, scratch, L, M, N);
    dim3 grid((N + threads - 1) / threads, L < 65535 ? L : 65535);
    products<<<grid, threads, 0, stream>>>(matrix, scratch, out, L, N);
}
