/* The L2 flush the timing runs before every device sample (l2_flush.cu). */
#ifndef LADDER_L2_FLUSH_H
#define LADDER_L2_FLUSH_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Read every byte of `buffer` (`bytes`, a multiple of 16, 16-byte aligned,
 * zero-filled) through L2 only; `sink` is a word that is never written but
 * keeps the loads from being optimized away: it is written (with the key)
 * only by a thread whose words XOR to LADDER_L2_FLUSH_KEY, which a zeroed
 * buffer never gives. */
#define LADDER_L2_FLUSH_KEY 0x9e3779b9u
void ladder_l2_flush_read(const void *buffer, size_t bytes, unsigned *sink, int blocks, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
