/* Scalar interleave-half kernels (DeepSeek layout), forward and backward, every dtype
 * pair. */
#include "kernels/kernel_list.h"
#include "kernels/rot_scalar_impl.h"

#define RK_DEFINE_IHALF(m, xd, cd)                                                                 \
    RK_KERNEL void rk_rot_##m##_fwd_##xd##cd##__scalar(const struct rk_rot_rows *a) {              \
        rk_rot_rows_ihalf(a, 0, RK_DT_##xd, RK_DT_##cd);                                           \
    }                                                                                              \
    RK_KERNEL void rk_rot_##m##_bwd_##xd##cd##__scalar(const struct rk_rot_rows *a) {              \
        rk_rot_rows_ihalf(a, 1, RK_DT_##xd, RK_DT_##cd);                                           \
    }
RK_DTYPE_PAIRS(RK_DEFINE_IHALF, ihalf)
