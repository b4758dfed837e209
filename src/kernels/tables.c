/* The kernel tables of every kernel set compiled into this build: scalar (complete, the
 * fallback on every CPU) and, on x86-64, AVX2, AVX-512 and AVX-512 + BF16. */
#include "kernels/kernel_list.h"

const rk_rot_table rk_rot_table_scalar = {RK_ROT_KERNELS_SCALAR(RK_ROT_ENTRY)};
const rk_rope_table rk_rope_table_scalar = {RK_ROPE_KERNELS_SCALAR(RK_ROPE_ENTRY)};

#if defined(ROPEKIT_X86_KERNELS)
const rk_rot_table rk_rot_table_avx2 = {RK_ROT_KERNELS_AVX2(RK_ROT_ENTRY)};
const rk_rope_table rk_rope_table_avx2 = {RK_ROPE_KERNELS_AVX2(RK_ROPE_ENTRY)};
const rk_rot_table rk_rot_table_avx512 = {RK_ROT_KERNELS_AVX512(RK_ROT_ENTRY)};
const rk_rope_table rk_rope_table_avx512 = {RK_ROPE_KERNELS_AVX512(RK_ROPE_ENTRY)};
const rk_rot_table rk_rot_table_avx512bf16 = {RK_ROT_KERNELS_AVX512BF16(RK_ROT_ENTRY)};
const rk_rope_table rk_rope_table_avx512bf16 = {RK_ROPE_KERNELS_AVX512BF16(RK_ROPE_ENTRY)};
#endif
