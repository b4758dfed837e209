/* Row kernels of the partial-rotary family: one call rotates `rows` vectors of
 * length `len`, read from x and written to y. y may be x (in place, the operator's usual
 * call); otherwise y must not share a byte with x, cos or sin.
 *
 * Layout of one vector v[0..len) per mode (h = len/2, q = len/4), pairs (p, r):
 *   half             [a0 a1 .. | b0 b1 ..]            p = j,  r = j + h
 *   interleave       [a0 b0 a1 b1 ..]                 p = 2i, r = 2i + 1
 *   quarter          [a .. | b .. | a' .. | b' ..]    p = j,  r = j + q  (and +2q)
 *   interleave-half  forward reads [a0 b0 a1 b1 ..] and writes [a0' a1' .. | b0' b1' ..];
 *                    backward reads the half layout and writes the interleaved one.
 * cos/sin are indexed like the half layout's positions (the output for forward
 * interleave-half, the input for its backward). Pair arithmetic: SPEC §3.3 / §4.2. */
#ifndef ROPEKIT_KERNELS_ROT_KERNEL_H_
#define ROPEKIT_KERNELS_ROT_KERNEL_H_

#include <stdbool.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

struct rk_rot_rows {
    const char *x; /* element `start` of the first row */
    char *y;       /* where that row's rotation goes: x (in place: then y_row and y_col
                      are x's) or a disjoint row */
    const char *cos;
    const char *sin;
    int64_t rows;
    int64_t len;
    int64_t x_row, y_row, c_row, s_row; /* bytes between consecutive rows (0 = broadcast) */
    int64_t x_col, y_col, c_col, s_col; /* bytes between consecutive elements of a row */
    void *scratch; /* interleave-half only: len * RK_ROT_SCRATCH_ELEM(x element size) bytes */
    bool prefetch; /* request rows ahead (kernels/prefetch.h) */
    bool y_cached; /* y is a scratch in L1 (outputs then streamed out): not prefetched */
};

typedef void (*rk_rot_fn)(const struct rk_rot_rows *args);

/* Dtype indices of the kernel tables. */
enum rk_kdtype {
    RK_KDT_F32 = 0,
    RK_KDT_F16 = 1,
    RK_KDT_BF16 = 2,
    RK_KDT_F64 = 3,
    RK_KDT_COUNT = 4
};

/* Interleave-half scratch bytes per row element: the SIMD kernels widen 16-bit and fp32
 * elements to fp32; float64 rows are kept as stored (8). */
#define RK_ROT_SCRATCH_ELEM(x_size) ((x_size) > 4 ? (x_size) : 4)

#define RK_ROT_MODE_COUNT (ROPEKIT_ROTARY_INTERLEAVE_HALF + 1)
#define RK_DIRECTION_COUNT (ROPEKIT_BACKWARD + 1)

/* One table per ISA: [mode][direction][x dtype][cos/sin dtype] (ropekit_rotary_mode,
 * ropekit_direction, enum rk_kdtype); NULL = not provided. */
typedef rk_rot_fn rk_rot_table[RK_ROT_MODE_COUNT][RK_DIRECTION_COUNT][RK_KDT_COUNT][RK_KDT_COUNT];

#endif /* ROPEKIT_KERNELS_ROT_KERNEL_H_ */
