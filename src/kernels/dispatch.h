/* Kernel selection: the best kernel the active ISA provides for a (mode, direction,
 * dtype pair), falling back to the always-complete scalar table. Plans call this once;
 * execution never decides anything. */
#ifndef ROPEKIT_KERNELS_DISPATCH_H_
#define ROPEKIT_KERNELS_DISPATCH_H_

#include <stdbool.h>

#include "kernels/rope_kernel.h"
#include "kernels/rot_kernel.h"
#include "ropekit/ropekit.h"

struct rk_rot_kernel {
    rk_rot_fn fn;
    ropekit_isa isa;
};

/* unit_stride: x, cos and sin rows are contiguous (SIMD kernels require it). */
struct rk_rot_kernel rk_rot_kernel_pick(int mode, int direction, ropekit_dtype x_dtype,
                                        ropekit_dtype cs_dtype, bool unit_stride);

struct rk_rope_kernel {
    rk_rope_fn fn;
    ropekit_isa isa;
};

/* unit_stride: heads are contiguous in both tensors and cos/sin are contiguous. */
struct rk_rope_kernel rk_rope_kernel_pick(int style, ropekit_dtype x_dtype, ropekit_dtype cs_dtype,
                                          bool unit_stride);

/* Table index of a float dtype (f32, f16, bf16); -1 otherwise. */
int rk_kdtype_of(ropekit_dtype dtype);

#endif /* ROPEKIT_KERNELS_DISPATCH_H_ */
