/* BF16 on the host, as bit patterns (C has no BF16 type): the inputs of the
 * tensor-core work are rounded here, so that the host holds the exact
 * values the GPU multiplies. */
#ifndef LADDER_BF16_H
#define LADDER_BF16_H

#include <stdint.h>
#include <string.h>

/* To nearest, ties to even, for finite x: adding 0x7FFF plus the lowest
 * kept bit carries into the kept bits exactly when the dropped half is
 * above half, or half with the kept part odd. */
static inline uint16_t ladder_to_bf16(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return (uint16_t)(bits >> 16);
}

static inline float ladder_from_bf16(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

#endif
