/* Row kernels of the RopeWithSinCosCache family: one call rotates every head of one
 * token with that token's cos/sin (SPEC §5.4), out of place or in place.
 *
 * One head x[0..head_size), h = rotary_dim / 2:
 *   NeoX (rotate-half)   pairs (j, j + h)    [a0 a1 .. | b0 b1 .. | pass ..]
 *   GPT-J (interleaved)  pairs (2j, 2j + 1)  [a0 b0 a1 b1 ..      | pass ..]
 *   out_a = a*c[j] - b*s[j],  out_b = b*c[j] + a*s[j];  both members share c[j], s[j].
 *   x[rotary_dim..head_size) is copied bit for bit. */
#ifndef ROPEKIT_KERNELS_ROPE_KERNEL_H_
#define ROPEKIT_KERNELS_ROPE_KERNEL_H_

#include <stdbool.h>
#include <stdint.h>

#include "kernels/rot_kernel.h"

struct rk_rope_rows {
    const char *in;
    char *out; /* may equal `in` (same layout): in place */
    const char *cos;
    const char *sin; /* h coefficients each */
    int64_t heads;
    int64_t half;              /* h */
    int64_t head_size;         /* elements per head (>= 2h) */
    int64_t in_head, out_head; /* bytes between heads */
    int64_t in_col, out_col;   /* bytes between elements of a head */
    int64_t cs_col;            /* bytes between coefficients */
    bool prefetch;             /* request heads ahead (kernels/prefetch.h) */
};

typedef void (*rk_rope_fn)(const struct rk_rope_rows *args);

enum rk_rope_style { RK_ROPE_NEOX = 0, RK_ROPE_GPTJ = 1, RK_ROPE_STYLE_COUNT = 2 };

/* One table per ISA: [style][x dtype][cos/sin dtype]; NULL = not provided. */
typedef rk_rope_fn rk_rope_table[RK_ROPE_STYLE_COUNT][RK_KDT_COUNT][RK_KDT_COUNT];

#endif /* ROPEKIT_KERNELS_ROPE_KERNEL_H_ */
