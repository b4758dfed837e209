/* Scalar interleave-mode kernels, forward and backward, every dtype pair. */
#include "kernels/kernel_list.h"
#include "kernels/rot_scalar_impl.h"

#define RK_DEFINE_INTERLEAVE(m, xd, cd) RK_DEFINE_PAIR_KERNELS(m, 1, xd, cd)
RK_DTYPE_PAIRS(RK_DEFINE_INTERLEAVE, interleave)
