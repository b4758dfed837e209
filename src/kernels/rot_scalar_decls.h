/* Declarations of every scalar partial-rotary kernel (expanded from the X-macros). */
#ifndef ROPEKIT_KERNELS_ROT_SCALAR_DECLS_H_
#define ROPEKIT_KERNELS_ROT_SCALAR_DECLS_H_

#include "kernels/rot_kernel.h"

#define RK_DECLARE_SCALAR_PAIR(mode_name, xd, cd)                                                  \
    void rk_rot_##mode_name##_fwd_##xd##cd##__scalar(const struct rk_rot_rows *a);                 \
    void rk_rot_##mode_name##_bwd_##xd##cd##__scalar(const struct rk_rot_rows *a);
#define RK_DECLARE_SCALAR_MODE(mode_name, mode_id) RK_DTYPE_PAIRS(RK_DECLARE_SCALAR_PAIR, mode_name)

RK_ROT_MODES(RK_DECLARE_SCALAR_MODE)

#endif /* ROPEKIT_KERNELS_ROT_SCALAR_DECLS_H_ */
