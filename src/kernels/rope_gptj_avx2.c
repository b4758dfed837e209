/* AVX2 gptj-style rope kernels, every dtype pair. */
#include "kernels/kernel_list.h"
#include "kernels/rope_avx2_impl.h"

#define RK_DEFINE_GPTJ(s, xd, cd) RK_DEFINE_ROPE_AVX2(s, 1, xd, cd)
RK_DTYPE_PAIRS(RK_DEFINE_GPTJ, gptj)
