/* Declarations of every scalar rope kernel. */
#ifndef ROPEKIT_KERNELS_ROPE_SCALAR_DECLS_H_
#define ROPEKIT_KERNELS_ROPE_SCALAR_DECLS_H_

#include "kernels/rope_kernel.h"

#define RK_DECLARE_ROPE_SCALAR(style_name, xd, cd)                                                 \
    void rk_rope_##style_name##_##xd##cd##__scalar(const struct rk_rope_rows *a);
#define RK_DECLARE_ROPE_SCALAR_STYLE(style_name, style_id)                                         \
    RK_DTYPE_PAIRS(RK_DECLARE_ROPE_SCALAR, style_name)

RK_ROPE_STYLES(RK_DECLARE_ROPE_SCALAR_STYLE)

#endif /* ROPEKIT_KERNELS_ROPE_SCALAR_DECLS_H_ */
