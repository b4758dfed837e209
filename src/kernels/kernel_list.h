/* The one list of kernels: a row per kernel, naming it in full with its ISA, mode (or
 * style), direction and dtype pair, so that a kernel's name greps to the row that makes
 * it. Declarations (below), each ISA file's definitions, the kernel tables (tables.c)
 * and the kernel tests all expand these rows; adding a kernel is adding a row.
 *
 *   RK_ROT_KERNELS_<ISA>(X):  X(isa, name, mode, direction, x dtype, cos/sin dtype)
 *   RK_ROPE_KERNELS_<ISA>(X): X(isa, name, style, x dtype, cos/sin dtype)
 *
 * Names: rk_rot_<mode>_<fwd|bwd>_<x dtype><cos/sin dtype>__<isa> and
 * rk_rope_<style>_<x dtype><cos/sin dtype>__<isa>. float64 pairs with itself only and has
 * scalar and AVX2 kernels (the AVX-512 sets have none: their plans take AVX2's). */
#ifndef ROPEKIT_KERNELS_KERNEL_LIST_H_
#define ROPEKIT_KERNELS_KERNEL_LIST_H_

#include "kernels/rope_kernel.h"
#include "kernels/rot_kernel.h"
#include "ropekit/ropekit.h"

/* The rows are a table, one kernel a line, wider than the format's column limit. */
/* clang-format off */
#define RK_ROT_KERNELS_SCALAR(X)                                                                                                          \
    X(scalar,     rk_rot_half_fwd_f32f32__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_half_bwd_f32f32__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_half_fwd_f32f16__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_half_bwd_f32f16__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_half_fwd_f32bf16__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_half_bwd_f32bf16__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_half_fwd_f16f32__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_half_bwd_f16f32__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_half_fwd_f16f16__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_half_bwd_f16f16__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_half_fwd_f16bf16__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_half_bwd_f16bf16__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_half_fwd_bf16f32__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_half_bwd_bf16f32__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_half_fwd_bf16f16__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_half_bwd_bf16f16__scalar,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_half_fwd_bf16bf16__scalar,           ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_half_bwd_bf16bf16__scalar,           ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_half_fwd_f64f64__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rot_half_bwd_f64f64__scalar,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rot_interleave_fwd_f32f32__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_interleave_bwd_f32f32__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_interleave_fwd_f32f16__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_interleave_bwd_f32f16__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_interleave_fwd_f32bf16__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_interleave_bwd_f32bf16__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_interleave_fwd_f16f32__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_interleave_bwd_f16f32__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_interleave_fwd_f16f16__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_interleave_bwd_f16f16__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_interleave_fwd_f16bf16__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_interleave_bwd_f16bf16__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_interleave_fwd_bf16f32__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_interleave_bwd_bf16f32__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_interleave_fwd_bf16f16__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_interleave_bwd_bf16f16__scalar,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_interleave_fwd_bf16bf16__scalar,     ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_interleave_bwd_bf16bf16__scalar,     ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_interleave_fwd_f64f64__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rot_interleave_bwd_f64f64__scalar,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rot_quarter_fwd_f32f32__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_quarter_bwd_f32f32__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_quarter_fwd_f32f16__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_quarter_bwd_f32f16__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_quarter_fwd_f32bf16__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_quarter_bwd_f32bf16__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_quarter_fwd_f16f32__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_quarter_bwd_f16f32__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_quarter_fwd_f16f16__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_quarter_bwd_f16f16__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_quarter_fwd_f16bf16__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_quarter_bwd_f16bf16__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_quarter_fwd_bf16f32__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_quarter_bwd_bf16f32__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_quarter_fwd_bf16f16__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_quarter_bwd_bf16f16__scalar,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_quarter_fwd_bf16bf16__scalar,        ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_quarter_bwd_bf16bf16__scalar,        ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_quarter_fwd_f64f64__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rot_quarter_bwd_f64f64__scalar,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rot_ihalf_fwd_f32f32__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_ihalf_bwd_f32f32__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rot_ihalf_fwd_f32f16__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_ihalf_bwd_f32f16__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rot_ihalf_fwd_f32bf16__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_ihalf_bwd_f32bf16__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rot_ihalf_fwd_f16f32__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_ihalf_bwd_f16f32__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rot_ihalf_fwd_f16f16__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_ihalf_bwd_f16f16__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rot_ihalf_fwd_f16bf16__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_ihalf_bwd_f16bf16__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rot_ihalf_fwd_bf16f32__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_ihalf_bwd_bf16f32__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rot_ihalf_fwd_bf16f16__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_ihalf_bwd_bf16f16__scalar,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rot_ihalf_fwd_bf16bf16__scalar,          ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_ihalf_bwd_bf16bf16__scalar,          ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rot_ihalf_fwd_f64f64__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rot_ihalf_bwd_f64f64__scalar,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64) 

#define RK_ROT_KERNELS_AVX2(X)                                                                                                            \
    X(avx2,       rk_rot_half_fwd_f32f32__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_half_bwd_f32f32__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_half_fwd_f32f16__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_half_bwd_f32f16__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_half_fwd_f32bf16__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_half_bwd_f32bf16__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_half_fwd_f16f32__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_half_bwd_f16f32__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_half_fwd_f16f16__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_half_bwd_f16f16__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_half_fwd_f16bf16__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_half_bwd_f16bf16__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_half_fwd_bf16f32__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_half_bwd_bf16f32__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_half_fwd_bf16f16__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_half_bwd_bf16f16__avx2,              ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_half_fwd_bf16bf16__avx2,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_half_bwd_bf16bf16__avx2,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_half_fwd_f64f64__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rot_half_bwd_f64f64__avx2,               ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rot_interleave_fwd_f32f32__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_interleave_bwd_f32f32__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_interleave_fwd_f32f16__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_interleave_bwd_f32f16__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_interleave_fwd_f32bf16__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_interleave_bwd_f32bf16__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_interleave_fwd_f16f32__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_interleave_bwd_f16f32__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_interleave_fwd_f16f16__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_interleave_bwd_f16f16__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_interleave_fwd_f16bf16__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_interleave_bwd_f16bf16__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_interleave_fwd_bf16f32__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_interleave_bwd_bf16f32__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_interleave_fwd_bf16f16__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_interleave_bwd_bf16f16__avx2,        ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_interleave_fwd_bf16bf16__avx2,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_interleave_bwd_bf16bf16__avx2,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_interleave_fwd_f64f64__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rot_interleave_bwd_f64f64__avx2,         ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rot_quarter_fwd_f32f32__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_quarter_bwd_f32f32__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_quarter_fwd_f32f16__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_quarter_bwd_f32f16__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_quarter_fwd_f32bf16__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_quarter_bwd_f32bf16__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_quarter_fwd_f16f32__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_quarter_bwd_f16f32__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_quarter_fwd_f16f16__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_quarter_bwd_f16f16__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_quarter_fwd_f16bf16__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_quarter_bwd_f16bf16__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_quarter_fwd_bf16f32__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_quarter_bwd_bf16f32__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_quarter_fwd_bf16f16__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_quarter_bwd_bf16f16__avx2,           ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_quarter_fwd_bf16bf16__avx2,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_quarter_bwd_bf16bf16__avx2,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_quarter_fwd_f64f64__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rot_quarter_bwd_f64f64__avx2,            ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rot_ihalf_fwd_f32f32__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_ihalf_bwd_f32f32__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rot_ihalf_fwd_f32f16__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_ihalf_bwd_f32f16__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rot_ihalf_fwd_f32bf16__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_ihalf_bwd_f32bf16__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rot_ihalf_fwd_f16f32__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_ihalf_bwd_f16f32__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rot_ihalf_fwd_f16f16__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_ihalf_bwd_f16f16__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rot_ihalf_fwd_f16bf16__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_ihalf_bwd_f16bf16__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rot_ihalf_fwd_bf16f32__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_ihalf_bwd_bf16f32__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rot_ihalf_fwd_bf16f16__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_ihalf_bwd_bf16f16__avx2,             ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rot_ihalf_fwd_bf16bf16__avx2,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_ihalf_bwd_bf16bf16__avx2,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rot_ihalf_fwd_f64f64__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rot_ihalf_bwd_f64f64__avx2,              ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F64,  RK_KDT_F64) 

#define RK_ROT_KERNELS_AVX512(X)                                                                                                          \
    X(avx512,     rk_rot_half_fwd_f32f32__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_half_bwd_f32f32__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_half_fwd_f32f16__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_half_bwd_f32f16__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_half_fwd_f32bf16__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_half_bwd_f32bf16__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_half_fwd_f16f32__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_half_bwd_f16f32__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_half_fwd_f16f16__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_half_bwd_f16f16__avx512,             ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_half_fwd_f16bf16__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_half_bwd_f16bf16__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_half_fwd_bf16f32__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_half_bwd_bf16f32__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_half_fwd_bf16f16__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_half_bwd_bf16f16__avx512,            ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_half_fwd_bf16bf16__avx512,           ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rot_half_bwd_bf16bf16__avx512,           ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rot_interleave_fwd_f32f32__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_interleave_bwd_f32f32__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_interleave_fwd_f32f16__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_interleave_bwd_f32f16__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_interleave_fwd_f32bf16__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_interleave_bwd_f32bf16__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_interleave_fwd_f16f32__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_interleave_bwd_f16f32__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_interleave_fwd_f16f16__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_interleave_bwd_f16f16__avx512,       ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_interleave_fwd_f16bf16__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_interleave_bwd_f16bf16__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_interleave_fwd_bf16f32__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_interleave_bwd_bf16f32__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_interleave_fwd_bf16f16__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_interleave_bwd_bf16f16__avx512,      ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_interleave_fwd_bf16bf16__avx512,     ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rot_interleave_bwd_bf16bf16__avx512,     ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rot_quarter_fwd_f32f32__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_quarter_bwd_f32f32__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_quarter_fwd_f32f16__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_quarter_bwd_f32f16__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_quarter_fwd_f32bf16__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_quarter_bwd_f32bf16__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_quarter_fwd_f16f32__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_quarter_bwd_f16f32__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_quarter_fwd_f16f16__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_quarter_bwd_f16f16__avx512,          ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_quarter_fwd_f16bf16__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_quarter_bwd_f16bf16__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_quarter_fwd_bf16f32__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_quarter_bwd_bf16f32__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_quarter_fwd_bf16f16__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_quarter_bwd_bf16f16__avx512,         ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_quarter_fwd_bf16bf16__avx512,        ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rot_quarter_bwd_bf16bf16__avx512,        ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rot_ihalf_fwd_f32f32__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_ihalf_bwd_f32f32__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rot_ihalf_fwd_f32f16__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_ihalf_bwd_f32f16__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rot_ihalf_fwd_f32bf16__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_ihalf_bwd_f32bf16__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rot_ihalf_fwd_f16f32__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_ihalf_bwd_f16f32__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rot_ihalf_fwd_f16f16__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_ihalf_bwd_f16f16__avx512,            ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rot_ihalf_fwd_f16bf16__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_ihalf_bwd_f16bf16__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rot_ihalf_fwd_bf16f32__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_ihalf_bwd_bf16f32__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rot_ihalf_fwd_bf16f16__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_ihalf_bwd_bf16f16__avx512,           ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rot_ihalf_fwd_bf16bf16__avx512,          ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rot_ihalf_bwd_bf16bf16__avx512,          ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16)

#define RK_ROT_KERNELS_AVX512BF16(X)                                                                                                      \
    X(avx512bf16, rk_rot_half_fwd_f32f32__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_half_bwd_f32f32__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_half_fwd_f32f16__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_half_bwd_f32f16__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_half_fwd_f32bf16__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_half_bwd_f32bf16__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_half_fwd_f16f32__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_half_bwd_f16f32__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_half_fwd_f16f16__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_half_bwd_f16f16__avx512bf16,         ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_half_fwd_f16bf16__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_half_bwd_f16bf16__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_half_fwd_bf16f32__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_half_bwd_bf16f32__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_half_fwd_bf16f16__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_half_bwd_bf16f16__avx512bf16,        ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_half_fwd_bf16bf16__avx512bf16,       ROPEKIT_ROTARY_HALF,            ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rot_half_bwd_bf16bf16__avx512bf16,       ROPEKIT_ROTARY_HALF,            ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rot_interleave_fwd_f32f32__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_interleave_bwd_f32f32__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_interleave_fwd_f32f16__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_interleave_bwd_f32f16__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_interleave_fwd_f32bf16__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_interleave_bwd_f32bf16__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_interleave_fwd_f16f32__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_interleave_bwd_f16f32__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_interleave_fwd_f16f16__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_interleave_bwd_f16f16__avx512bf16,   ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_interleave_fwd_f16bf16__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_interleave_bwd_f16bf16__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_interleave_fwd_bf16f32__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_interleave_bwd_bf16f32__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_interleave_fwd_bf16f16__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_interleave_bwd_bf16f16__avx512bf16,  ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_interleave_fwd_bf16bf16__avx512bf16, ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rot_interleave_bwd_bf16bf16__avx512bf16, ROPEKIT_ROTARY_INTERLEAVE,      ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rot_quarter_fwd_f32f32__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_quarter_bwd_f32f32__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_quarter_fwd_f32f16__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_quarter_bwd_f32f16__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_quarter_fwd_f32bf16__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_quarter_bwd_f32bf16__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_quarter_fwd_f16f32__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_quarter_bwd_f16f32__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_quarter_fwd_f16f16__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_quarter_bwd_f16f16__avx512bf16,      ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_quarter_fwd_f16bf16__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_quarter_bwd_f16bf16__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_quarter_fwd_bf16f32__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_quarter_bwd_bf16f32__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_quarter_fwd_bf16f16__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_quarter_bwd_bf16f16__avx512bf16,     ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_quarter_fwd_bf16bf16__avx512bf16,    ROPEKIT_ROTARY_QUARTER,         ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rot_quarter_bwd_bf16bf16__avx512bf16,    ROPEKIT_ROTARY_QUARTER,         ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rot_ihalf_fwd_f32f32__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_ihalf_bwd_f32f32__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_ihalf_fwd_f32f16__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_ihalf_bwd_f32f16__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_ihalf_fwd_f32bf16__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_ihalf_bwd_f32bf16__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_ihalf_fwd_f16f32__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_ihalf_bwd_f16f32__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rot_ihalf_fwd_f16f16__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_ihalf_bwd_f16f16__avx512bf16,        ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rot_ihalf_fwd_f16bf16__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_ihalf_bwd_f16bf16__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rot_ihalf_fwd_bf16f32__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_ihalf_bwd_bf16f32__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rot_ihalf_fwd_bf16f16__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_ihalf_bwd_bf16f16__avx512bf16,       ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rot_ihalf_fwd_bf16bf16__avx512bf16,      ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_FORWARD,  RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rot_ihalf_bwd_bf16bf16__avx512bf16,      ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD, RK_KDT_BF16, RK_KDT_BF16)

#define RK_ROPE_KERNELS_SCALAR(X)                                                            \
    X(scalar,     rk_rope_neox_f32f32__scalar,       RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rope_neox_f32f16__scalar,       RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rope_neox_f32bf16__scalar,      RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rope_neox_f16f32__scalar,       RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rope_neox_f16f16__scalar,       RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rope_neox_f16bf16__scalar,      RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rope_neox_bf16f32__scalar,      RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rope_neox_bf16f16__scalar,      RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rope_neox_bf16bf16__scalar,     RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rope_neox_f64f64__scalar,       RK_ROPE_NEOX, RK_KDT_F64,  RK_KDT_F64)  \
    X(scalar,     rk_rope_gptj_f32f32__scalar,       RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F32)  \
    X(scalar,     rk_rope_gptj_f32f16__scalar,       RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F16)  \
    X(scalar,     rk_rope_gptj_f32bf16__scalar,      RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_BF16) \
    X(scalar,     rk_rope_gptj_f16f32__scalar,       RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F32)  \
    X(scalar,     rk_rope_gptj_f16f16__scalar,       RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F16)  \
    X(scalar,     rk_rope_gptj_f16bf16__scalar,      RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_BF16) \
    X(scalar,     rk_rope_gptj_bf16f32__scalar,      RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F32)  \
    X(scalar,     rk_rope_gptj_bf16f16__scalar,      RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F16)  \
    X(scalar,     rk_rope_gptj_bf16bf16__scalar,     RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_BF16) \
    X(scalar,     rk_rope_gptj_f64f64__scalar,       RK_ROPE_GPTJ, RK_KDT_F64,  RK_KDT_F64) 

#define RK_ROPE_KERNELS_AVX2(X)                                                              \
    X(avx2,       rk_rope_neox_f32f32__avx2,         RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rope_neox_f32f16__avx2,         RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rope_neox_f32bf16__avx2,        RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rope_neox_f16f32__avx2,         RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rope_neox_f16f16__avx2,         RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rope_neox_f16bf16__avx2,        RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rope_neox_bf16f32__avx2,        RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rope_neox_bf16f16__avx2,        RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rope_neox_bf16bf16__avx2,       RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rope_neox_f64f64__avx2,         RK_ROPE_NEOX, RK_KDT_F64,  RK_KDT_F64)  \
    X(avx2,       rk_rope_gptj_f32f32__avx2,         RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx2,       rk_rope_gptj_f32f16__avx2,         RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx2,       rk_rope_gptj_f32bf16__avx2,        RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx2,       rk_rope_gptj_f16f32__avx2,         RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx2,       rk_rope_gptj_f16f16__avx2,         RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx2,       rk_rope_gptj_f16bf16__avx2,        RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx2,       rk_rope_gptj_bf16f32__avx2,        RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx2,       rk_rope_gptj_bf16f16__avx2,        RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx2,       rk_rope_gptj_bf16bf16__avx2,       RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx2,       rk_rope_gptj_f64f64__avx2,         RK_ROPE_GPTJ, RK_KDT_F64,  RK_KDT_F64) 

#define RK_ROPE_KERNELS_AVX512(X)                                                            \
    X(avx512,     rk_rope_neox_f32f32__avx512,       RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rope_neox_f32f16__avx512,       RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rope_neox_f32bf16__avx512,      RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rope_neox_f16f32__avx512,       RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rope_neox_f16f16__avx512,       RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rope_neox_f16bf16__avx512,      RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rope_neox_bf16f32__avx512,      RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rope_neox_bf16f16__avx512,      RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rope_neox_bf16bf16__avx512,     RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512,     rk_rope_gptj_f32f32__avx512,       RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512,     rk_rope_gptj_f32f16__avx512,       RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512,     rk_rope_gptj_f32bf16__avx512,      RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512,     rk_rope_gptj_f16f32__avx512,       RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512,     rk_rope_gptj_f16f16__avx512,       RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512,     rk_rope_gptj_f16bf16__avx512,      RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512,     rk_rope_gptj_bf16f32__avx512,      RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512,     rk_rope_gptj_bf16f16__avx512,      RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512,     rk_rope_gptj_bf16bf16__avx512,     RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_BF16)

#define RK_ROPE_KERNELS_AVX512BF16(X)                                                        \
    X(avx512bf16, rk_rope_neox_f32f32__avx512bf16,   RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rope_neox_f32f16__avx512bf16,   RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rope_neox_f32bf16__avx512bf16,  RK_ROPE_NEOX, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rope_neox_f16f32__avx512bf16,   RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rope_neox_f16f16__avx512bf16,   RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rope_neox_f16bf16__avx512bf16,  RK_ROPE_NEOX, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rope_neox_bf16f32__avx512bf16,  RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rope_neox_bf16f16__avx512bf16,  RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rope_neox_bf16bf16__avx512bf16, RK_ROPE_NEOX, RK_KDT_BF16, RK_KDT_BF16) \
    X(avx512bf16, rk_rope_gptj_f32f32__avx512bf16,   RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F32)  \
    X(avx512bf16, rk_rope_gptj_f32f16__avx512bf16,   RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_F16)  \
    X(avx512bf16, rk_rope_gptj_f32bf16__avx512bf16,  RK_ROPE_GPTJ, RK_KDT_F32,  RK_KDT_BF16) \
    X(avx512bf16, rk_rope_gptj_f16f32__avx512bf16,   RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F32)  \
    X(avx512bf16, rk_rope_gptj_f16f16__avx512bf16,   RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_F16)  \
    X(avx512bf16, rk_rope_gptj_f16bf16__avx512bf16,  RK_ROPE_GPTJ, RK_KDT_F16,  RK_KDT_BF16) \
    X(avx512bf16, rk_rope_gptj_bf16f32__avx512bf16,  RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F32)  \
    X(avx512bf16, rk_rope_gptj_bf16f16__avx512bf16,  RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_F16)  \
    X(avx512bf16, rk_rope_gptj_bf16bf16__avx512bf16, RK_ROPE_GPTJ, RK_KDT_BF16, RK_KDT_BF16)
/* clang-format on */

#define RK_ROT_DECLARE(isa, name, mode, direction, xdt, cdt) void name(const struct rk_rot_rows *a);
#define RK_ROPE_DECLARE(isa, name, style, xdt, cdt) void name(const struct rk_rope_rows *a);

/* Table entries: expand inside `= { ... }` of an rk_rot_table / rk_rope_table. */
#define RK_ROT_ENTRY(isa, name, mode, direction, xdt, cdt) [mode][direction][xdt][cdt] = name,
#define RK_ROPE_ENTRY(isa, name, style, xdt, cdt) [style][xdt][cdt] = name,

/* Every row this build compiles: the SIMD sets are x86-64 only. */
#if defined(ROPEKIT_X86_KERNELS)
#define RK_ROT_KERNELS(X)                                                                          \
    RK_ROT_KERNELS_SCALAR(X)                                                                       \
    RK_ROT_KERNELS_AVX2(X) RK_ROT_KERNELS_AVX512(X) RK_ROT_KERNELS_AVX512BF16(X)
#define RK_ROPE_KERNELS(X)                                                                         \
    RK_ROPE_KERNELS_SCALAR(X)                                                                      \
    RK_ROPE_KERNELS_AVX2(X) RK_ROPE_KERNELS_AVX512(X) RK_ROPE_KERNELS_AVX512BF16(X)
#else
#define RK_ROT_KERNELS(X) RK_ROT_KERNELS_SCALAR(X)
#define RK_ROPE_KERNELS(X) RK_ROPE_KERNELS_SCALAR(X)
#endif

RK_ROT_KERNELS(RK_ROT_DECLARE)
RK_ROPE_KERNELS(RK_ROPE_DECLARE)

extern const rk_rot_table rk_rot_table_scalar;
extern const rk_rope_table rk_rope_table_scalar;
#if defined(ROPEKIT_X86_KERNELS)
extern const rk_rot_table rk_rot_table_avx2, rk_rot_table_avx512, rk_rot_table_avx512bf16;
extern const rk_rope_table rk_rope_table_avx2, rk_rope_table_avx512, rk_rope_table_avx512bf16;
#endif

#endif /* ROPEKIT_KERNELS_KERNEL_LIST_H_ */
