/* The one list of kernel variants: declarations of every kernel of every ISA and the
 * designated-initializer entries the per-ISA tables expand. Kernel names follow
 * rk_rot_<mode>_<fwd|bwd>_<x dtype><cos/sin dtype>__<isa> and
 * rk_rope_<style>_<x dtype><cos/sin dtype>__<isa>. */
#ifndef ROPEKIT_KERNELS_KERNEL_LIST_H_
#define ROPEKIT_KERNELS_KERNEL_LIST_H_

#include "kernels/rope_kernel.h"
#include "kernels/rot_kernel.h"

#define RK_DT_INDEX_f32 RK_KDT_F32
#define RK_DT_INDEX_f16 RK_KDT_F16
#define RK_DT_INDEX_bf16 RK_KDT_BF16
#define RK_DT_INDEX_f64 RK_KDT_F64
#define RK_MODE_INDEX_half 0
#define RK_MODE_INDEX_interleave 1
#define RK_MODE_INDEX_quarter 2
#define RK_MODE_INDEX_ihalf 3
#define RK_STYLE_INDEX_neox RK_ROPE_NEOX
#define RK_STYLE_INDEX_gptj RK_ROPE_GPTJ

#define RK_DECLARE_ROT(m, xd, cd, isa)                                                             \
    void rk_rot_##m##_fwd_##xd##cd##__##isa(const struct rk_rot_rows *a);                          \
    void rk_rot_##m##_bwd_##xd##cd##__##isa(const struct rk_rot_rows *a);
#define RK_DECLARE_ROPE(st, xd, cd, isa)                                                           \
    void rk_rope_##st##_##xd##cd##__##isa(const struct rk_rope_rows *a);

/* Table entries: expand inside `= { ... }` of an rk_rot_table / rk_rope_table. */
#define RK_ROT_ENTRY(m, xd, cd, isa)                                                               \
    [RK_MODE_INDEX_##m][0][RK_DT_INDEX_##xd][RK_DT_INDEX_##cd] =                                   \
        rk_rot_##m##_fwd_##xd##cd##__##isa,                                                        \
    [RK_MODE_INDEX_##m][1][RK_DT_INDEX_##xd][RK_DT_INDEX_##cd] =                                   \
        rk_rot_##m##_bwd_##xd##cd##__##isa,
#define RK_ROPE_ENTRY(st, xd, cd, isa)                                                             \
    [RK_STYLE_INDEX_##st][RK_DT_INDEX_##xd][RK_DT_INDEX_##cd] = rk_rope_##st##_##xd##cd##__##isa,

/* Per-ISA adapters (the X-macros pass three arguments). */
#define RK_DECLARE_ROT_scalar(m, xd, cd) RK_DECLARE_ROT(m, xd, cd, scalar)
#define RK_DECLARE_ROT_avx2(m, xd, cd) RK_DECLARE_ROT(m, xd, cd, avx2)
#define RK_DECLARE_ROT_avx512(m, xd, cd) RK_DECLARE_ROT(m, xd, cd, avx512)
#define RK_DECLARE_ROT_avx512bf16(m, xd, cd) RK_DECLARE_ROT(m, xd, cd, avx512bf16)
#define RK_DECLARE_ROPE_scalar(st, xd, cd) RK_DECLARE_ROPE(st, xd, cd, scalar)
#define RK_DECLARE_ROPE_avx2(st, xd, cd) RK_DECLARE_ROPE(st, xd, cd, avx2)
#define RK_DECLARE_ROPE_avx512(st, xd, cd) RK_DECLARE_ROPE(st, xd, cd, avx512)
#define RK_DECLARE_ROPE_avx512bf16(st, xd, cd) RK_DECLARE_ROPE(st, xd, cd, avx512bf16)
#define RK_ROT_ENTRY_scalar(m, xd, cd) RK_ROT_ENTRY(m, xd, cd, scalar)
#define RK_ROT_ENTRY_avx2(m, xd, cd) RK_ROT_ENTRY(m, xd, cd, avx2)
#define RK_ROT_ENTRY_avx512(m, xd, cd) RK_ROT_ENTRY(m, xd, cd, avx512)
#define RK_ROT_ENTRY_avx512bf16(m, xd, cd) RK_ROT_ENTRY(m, xd, cd, avx512bf16)
#define RK_ROPE_ENTRY_scalar(st, xd, cd) RK_ROPE_ENTRY(st, xd, cd, scalar)
#define RK_ROPE_ENTRY_avx2(st, xd, cd) RK_ROPE_ENTRY(st, xd, cd, avx2)
#define RK_ROPE_ENTRY_avx512(st, xd, cd) RK_ROPE_ENTRY(st, xd, cd, avx512)
#define RK_ROPE_ENTRY_avx512bf16(st, xd, cd) RK_ROPE_ENTRY(st, xd, cd, avx512bf16)

#define RK_ROT_MODE_DECLS_scalar(m, id)                                                            \
    RK_DTYPE_PAIRS(RK_DECLARE_ROT_scalar, m) RK_DTYPE_PAIRS_F64(RK_DECLARE_ROT_scalar, m)
#define RK_ROT_MODE_DECLS_avx2(m, id)                                                              \
    RK_DTYPE_PAIRS(RK_DECLARE_ROT_avx2, m) RK_DTYPE_PAIRS_F64(RK_DECLARE_ROT_avx2, m)
#define RK_ROT_MODE_DECLS_avx512(m, id) RK_DTYPE_PAIRS(RK_DECLARE_ROT_avx512, m)
#define RK_ROT_MODE_DECLS_avx512bf16(m, id) RK_DTYPE_PAIRS(RK_DECLARE_ROT_avx512bf16, m)
#define RK_ROPE_STYLE_DECLS_scalar(st, id)                                                         \
    RK_DTYPE_PAIRS(RK_DECLARE_ROPE_scalar, st) RK_DTYPE_PAIRS_F64(RK_DECLARE_ROPE_scalar, st)
#define RK_ROPE_STYLE_DECLS_avx2(st, id)                                                           \
    RK_DTYPE_PAIRS(RK_DECLARE_ROPE_avx2, st) RK_DTYPE_PAIRS_F64(RK_DECLARE_ROPE_avx2, st)
#define RK_ROPE_STYLE_DECLS_avx512(st, id) RK_DTYPE_PAIRS(RK_DECLARE_ROPE_avx512, st)
#define RK_ROPE_STYLE_DECLS_avx512bf16(st, id) RK_DTYPE_PAIRS(RK_DECLARE_ROPE_avx512bf16, st)

#define RK_ROT_MODE_ENTRIES_scalar(m, id)                                                          \
    RK_DTYPE_PAIRS(RK_ROT_ENTRY_scalar, m) RK_DTYPE_PAIRS_F64(RK_ROT_ENTRY_scalar, m)
#define RK_ROT_MODE_ENTRIES_avx2(m, id)                                                            \
    RK_DTYPE_PAIRS(RK_ROT_ENTRY_avx2, m) RK_DTYPE_PAIRS_F64(RK_ROT_ENTRY_avx2, m)
#define RK_ROT_MODE_ENTRIES_avx512(m, id) RK_DTYPE_PAIRS(RK_ROT_ENTRY_avx512, m)
#define RK_ROT_MODE_ENTRIES_avx512bf16(m, id) RK_DTYPE_PAIRS(RK_ROT_ENTRY_avx512bf16, m)
#define RK_ROPE_STYLE_ENTRIES_scalar(st, id)                                                       \
    RK_DTYPE_PAIRS(RK_ROPE_ENTRY_scalar, st) RK_DTYPE_PAIRS_F64(RK_ROPE_ENTRY_scalar, st)
#define RK_ROPE_STYLE_ENTRIES_avx2(st, id)                                                         \
    RK_DTYPE_PAIRS(RK_ROPE_ENTRY_avx2, st) RK_DTYPE_PAIRS_F64(RK_ROPE_ENTRY_avx2, st)
#define RK_ROPE_STYLE_ENTRIES_avx512(st, id) RK_DTYPE_PAIRS(RK_ROPE_ENTRY_avx512, st)
#define RK_ROPE_STYLE_ENTRIES_avx512bf16(st, id) RK_DTYPE_PAIRS(RK_ROPE_ENTRY_avx512bf16, st)

RK_ROT_MODES(RK_ROT_MODE_DECLS_scalar)
RK_ROPE_STYLES(RK_ROPE_STYLE_DECLS_scalar)
extern const rk_rot_table rk_rot_table_scalar;
extern const rk_rope_table rk_rope_table_scalar;

#if defined(ROPEKIT_X86_KERNELS)
RK_ROT_MODES(RK_ROT_MODE_DECLS_avx2)
RK_ROPE_STYLES(RK_ROPE_STYLE_DECLS_avx2)
RK_ROT_MODES(RK_ROT_MODE_DECLS_avx512)
RK_ROPE_STYLES(RK_ROPE_STYLE_DECLS_avx512)
RK_ROT_MODES(RK_ROT_MODE_DECLS_avx512bf16)
RK_ROPE_STYLES(RK_ROPE_STYLE_DECLS_avx512bf16)
extern const rk_rot_table rk_rot_table_avx2, rk_rot_table_avx512, rk_rot_table_avx512bf16;
extern const rk_rope_table rk_rope_table_avx2, rk_rope_table_avx512, rk_rope_table_avx512bf16;
#endif

#endif /* ROPEKIT_KERNELS_KERNEL_LIST_H_ */
