/* The AVX2 (+F16C) kernel tables. */
#include "kernels/kernel_list.h"

const rk_rot_table rk_rot_table_avx2 = {RK_ROT_MODES(RK_ROT_MODE_ENTRIES_avx2)};
const rk_rope_table rk_rope_table_avx2 = {RK_ROPE_STYLES(RK_ROPE_STYLE_ENTRIES_avx2)};
