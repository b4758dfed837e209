/* The scalar kernel table: complete (every mode, direction and dtype pair). */
#include "kernels/rot_scalar_decls.h"

#define RK_DT_INDEX_f32 RK_KDT_F32
#define RK_DT_INDEX_f16 RK_KDT_F16
#define RK_DT_INDEX_bf16 RK_KDT_BF16

#define RK_SCALAR_ENTRY(m, xd, cd)                                                                 \
    [RK_MODE_INDEX_##m][0][RK_DT_INDEX_##xd][RK_DT_INDEX_##cd] =                                   \
        rk_rot_##m##_fwd_##xd##cd##__scalar,                                                       \
    [RK_MODE_INDEX_##m][1][RK_DT_INDEX_##xd][RK_DT_INDEX_##cd] =                                   \
        rk_rot_##m##_bwd_##xd##cd##__scalar,
#define RK_MODE_INDEX_half 0
#define RK_MODE_INDEX_interleave 1
#define RK_MODE_INDEX_quarter 2
#define RK_MODE_INDEX_ihalf 3
#define RK_SCALAR_MODE_ENTRIES(m, id) RK_DTYPE_PAIRS(RK_SCALAR_ENTRY, m)

const rk_rot_table rk_rot_table_scalar = {RK_ROT_MODES(RK_SCALAR_MODE_ENTRIES)};
