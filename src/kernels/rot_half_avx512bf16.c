/* half kernels of the AVX-512 + BF16 set: the AVX-512 sources, narrowing to bf16 in
 * hardware. */
#define RK512_HW_BF16 1
#include "kernels/rot_half_avx512.c"
