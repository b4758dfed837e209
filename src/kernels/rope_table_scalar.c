/* The scalar rope kernel table: complete (both styles, every dtype pair). */
#include "kernels/rope_scalar_decls.h"

#define RK_DT_INDEX_f32 RK_KDT_F32
#define RK_DT_INDEX_f16 RK_KDT_F16
#define RK_DT_INDEX_bf16 RK_KDT_BF16
#define RK_STYLE_INDEX_neox RK_ROPE_NEOX
#define RK_STYLE_INDEX_gptj RK_ROPE_GPTJ

#define RK_ROPE_SCALAR_ENTRY(st, xd, cd)                                                           \
    [RK_STYLE_INDEX_##st][RK_DT_INDEX_##xd][RK_DT_INDEX_##cd] = rk_rope_##st##_##xd##cd##__scalar,
#define RK_ROPE_SCALAR_STYLE_ENTRIES(st, id) RK_DTYPE_PAIRS(RK_ROPE_SCALAR_ENTRY, st)

const rk_rope_table rk_rope_table_scalar = {RK_ROPE_STYLES(RK_ROPE_SCALAR_STYLE_ENTRIES)};
