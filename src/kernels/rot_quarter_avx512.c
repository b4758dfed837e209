/* AVX-512 quarter-mode kernels, forward and backward, every dtype pair. */
#include "kernels/rot_avx512_impl.h"
#include "kernels/kernel_list.h"

#define RK_DEFINE_QUARTER(m, xd, cd) RK_DEFINE_AVX512_KERNELS(m, 2, xd, cd)
RK_DTYPE_PAIRS(RK_DEFINE_QUARTER, quarter)
