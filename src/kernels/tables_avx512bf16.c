/* The AVX-512 + BF16 kernel tables. */
#include "kernels/kernel_list.h"

const rk_rot_table rk_rot_table_avx512bf16 = {RK_ROT_MODES(RK_ROT_MODE_ENTRIES_avx512bf16)};
const rk_rope_table rk_rope_table_avx512bf16 = {RK_ROPE_STYLES(RK_ROPE_STYLE_ENTRIES_avx512bf16)};
