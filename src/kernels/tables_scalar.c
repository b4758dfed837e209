/* The scalar kernel tables: complete, the fallback on every CPU. */
#include "kernels/kernel_list.h"

const rk_rot_table rk_rot_table_scalar = {RK_ROT_MODES(RK_ROT_MODE_ENTRIES_scalar)};
const rk_rope_table rk_rope_table_scalar = {RK_ROPE_STYLES(RK_ROPE_STYLE_ENTRIES_scalar)};
