/* AVX2 ihalf-mode kernels, forward and backward, every dtype pair. */
#include "kernels/rot_avx2_impl.h"
#include "kernels/kernel_list.h"

#define RK_DEFINE_IHALF(m, xd, cd) RK_DEFINE_AVX2_KERNELS(m, 3, xd, cd)
RK_DTYPE_PAIRS(RK_DEFINE_IHALF, ihalf)
