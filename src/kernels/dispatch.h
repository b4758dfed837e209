/* Kernel selection. Kernel sets (one per ISA variant) are listed best first, scalar
 * last and complete; a plan takes, once, the first set the CPU supports within the ISA
 * cap that has the wanted entry. Execution never decides anything. */
#ifndef ROPEKIT_KERNELS_DISPATCH_H_
#define ROPEKIT_KERNELS_DISPATCH_H_

#include <stdbool.h>
#include <stddef.h>

#include "kernels/rope_kernel.h"
#include "kernels/rot_kernel.h"
#include "ropekit/ropekit.h"

struct rk_kernel_set {
    const char *name; /* "avx512+bf16", "avx512", "avx2", "scalar" */
    ropekit_isa isa;  /* the level ROPEKIT_MAX_ISA caps */
    bool needs_avx512bf16;
    const rk_rot_table *rot;
    const rk_rope_table *rope;
};

/* Every set compiled into this build, best first. */
const struct rk_kernel_set *rk_kernel_sets(size_t *count);

/* Whether this CPU and OS can run the set (the ISA cap is not considered). */
bool rk_kernel_set_supported(const struct rk_kernel_set *set);

struct rk_rot_kernel {
    rk_rot_fn fn;
    const struct rk_kernel_set *set;
};

struct rk_rope_kernel {
    rk_rope_fn fn;
    const struct rk_kernel_set *set;
};

/* unit_stride: rows (heads) and coefficients are contiguous; SIMD sets require it. */
struct rk_rot_kernel rk_rot_kernel_pick(int mode, int direction, ropekit_dtype x_dtype,
                                        ropekit_dtype cs_dtype, bool unit_stride);
struct rk_rope_kernel rk_rope_kernel_pick(int style, ropekit_dtype x_dtype, ropekit_dtype cs_dtype,
                                          bool unit_stride);

/* Table index of a float dtype (f32, f16, bf16, f64); -1 otherwise. */
int rk_kdtype_of(ropekit_dtype dtype);
/* The dtype of a table index in [0, RK_KDT_COUNT). */
ropekit_dtype rk_dtype_of_kdtype(int kdtype);

#endif /* ROPEKIT_KERNELS_DISPATCH_H_ */
