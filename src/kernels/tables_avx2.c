/* The AVX2 kernel tables: empty until AVX2 kernels exist; dispatch falls through to
 * the next table for missing entries. */
#include "kernels/kernel_list.h"

const rk_rot_table rk_rot_table_avx2 = {{{{0}}}};
const rk_rope_table rk_rope_table_avx2 = {{{0}}};
