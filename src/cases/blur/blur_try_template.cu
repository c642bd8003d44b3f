/* A starting point for `ladder try blur FILE.cu`: the ladder's rung 0,
 * naive, written plainly. It compiles and passes.
 *
 *   ladder try blur --template > mine.cu
 *   ladder try blur mine.cu --quick
 *
 * The contract is in include/ladder_try.h: each output sample is
 * (the sum of its 3x3 neighbourhood + 4) / 9, per channel, coordinates
 * clamped into the image; packed 8-bit RGB, rows 3 * width bytes apart;
 * exact.
 *
 * One thread per pixel reads its 9 neighbours' 3 bytes each from global
 * memory: 27 one-byte loads per pixel, each input byte loaded 9 times. The
 * rung to beat next is rung 1, shared_tile: stage a 32x8 tile of pixels and
 * a one-pixel halo in shared memory, so each pixel is loaded about 1.3
 * times (`ladder list blur`, down to register windows at copy speed). */
#include "ladder_try.h"

__global__ void blur_naive(const unsigned char *in, unsigned char *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    for (int channel = 0; channel < 3; ++channel) {
        unsigned sum = 0;
        for (int dy = -1; dy <= 1; ++dy) {
            int yy = min(max(y + dy, 0), height - 1);
            for (int dx = -1; dx <= 1; ++dx) {
                int xx = min(max(x + dx, 0), width - 1);
                sum += in[3 * ((size_t)yy * width + xx) + channel];
            }
        }
        out[3 * ((size_t)y * width + x) + channel] = (unsigned char)((sum + 4) / 9);
    }
}

void ladder_try_blur(const unsigned char *in, unsigned char *out, int width, int height, cudaStream_t stream)
{
    dim3 block(32, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    blur_naive<<<grid, block, 0, stream>>>(in, out, width, height);
}
