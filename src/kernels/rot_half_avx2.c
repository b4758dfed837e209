/* AVX2 half-mode kernels, forward and backward, every dtype pair. */
#include "kernels/rot_avx2_impl.h"
#include "kernels/kernel_list.h"

#define RK_DEFINE_HALF(m, xd, cd) RK_DEFINE_AVX2_KERNELS(m, 0, xd, cd)
RK_DTYPE_PAIRS(RK_DEFINE_HALF, half)
