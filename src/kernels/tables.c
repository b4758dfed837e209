/* The kernel tables of every kernel set compiled into this build: scalar (complete, the
 * fallback on every CPU) and, on x86-64, AVX2, AVX-512 and AVX-512 + BF16. */
#include "kernels/kernel_list.h"

const rk_rot_table rk_rot_table_scalar = {RK_ROT_MODES(RK_ROT_MODE_ENTRIES_scalar)};
const rk_rope_table rk_rope_table_scalar = {RK_ROPE_STYLES(RK_ROPE_STYLE_ENTRIES_scalar)};

#if defined(ROPEKIT_X86_KERNELS)
const rk_rot_table rk_rot_table_avx2 = {RK_ROT_MODES(RK_ROT_MODE_ENTRIES_avx2)};
const rk_rope_table rk_rope_table_avx2 = {RK_ROPE_STYLES(RK_ROPE_STYLE_ENTRIES_avx2)};
const rk_rot_table rk_rot_table_avx512 = {RK_ROT_MODES(RK_ROT_MODE_ENTRIES_avx512)};
const rk_rope_table rk_rope_table_avx512 = {RK_ROPE_STYLES(RK_ROPE_STYLE_ENTRIES_avx512)};
const rk_rot_table rk_rot_table_avx512bf16 = {RK_ROT_MODES(RK_ROT_MODE_ENTRIES_avx512bf16)};
const rk_rope_table rk_rope_table_avx512bf16 = {RK_ROPE_STYLES(RK_ROPE_STYLE_ENTRIES_avx512bf16)};
#endif
