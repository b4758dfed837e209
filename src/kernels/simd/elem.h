/* Element helpers of every kernel: the dtype tokens and sizes the kernel definitions use,
 * load/store of one element by dtype (widening exactly, narrowing with RNE, NaN made
 * canonical) and the two pair formulas of SPEC §1. The scalar kernels are built from them,
 * and the SIMD kernels use them for the pairs at the ends of rows. Each product is its own
 * rounded fp32 multiply and each output one add or subtract; the build uses
 * -ffp-contract=off so no FMA is formed. */
#ifndef ROPEKIT_KERNELS_SIMD_ELEM_H_
#define ROPEKIT_KERNELS_SIMD_ELEM_H_

#include <stdint.h>
#include <string.h>

#include "core/dtype_convert.h"
#include "kernels/rot_kernel.h"

/* Kernel entry points take every helper inline, however large their translation unit:
 * left to GCC's unit-wide inline budget, one file holding all modes of an ISA got the
 * scalar conversions of the AVX2 row tails as calls (f16 rows with tails 40% slower). */
#if defined(__GNUC__)
#define RK_INLINE static inline __attribute__((always_inline))
#define RK_KERNEL __attribute__((flatten))
#else
#define RK_INLINE static inline
#define RK_KERNEL
#endif

/* The dtype of a kernel name's token (f32, f16, bf16, f64) and its size in bytes. */
#define RK_DT_f32 RK_KDT_F32
#define RK_DT_f16 RK_KDT_F16
#define RK_DT_bf16 RK_KDT_BF16
#define RK_DT_f64 RK_KDT_F64
#define RK_SIZE(dt) ((dt) == RK_KDT_F64 ? 8 : (dt) == RK_KDT_F32 ? 4 : 2)

static inline float rk_load_elem(const char *p, enum rk_kdtype dt) {
    uint16_t h;
    float f;
    switch (dt) {
    case RK_KDT_F16:
        memcpy(&h, p, 2);
        return rk_f16_to_f32(h);
    case RK_KDT_BF16:
        memcpy(&h, p, 2);
        return rk_bf16_to_f32(h);
    default:
        memcpy(&f, p, 4);
        return f;
    }
}

/* Every computed NaN is stored as the canonical quiet NaN: which NaN operand an x86
 * add or multiply returns depends on operand order, which compilers may swap, so
 * payloads would otherwise differ between builds and ISAs (SPEC §1 fixes NaN-ness). */
#define RK_CANONICAL_NAN_BITS 0x7fc00000u

static inline void rk_store_elem(char *p, float v, enum rk_kdtype dt) {
    uint16_t h;
    if (v != v)
        v = rk_f32_from_bits(RK_CANONICAL_NAN_BITS);
    switch (dt) {
    case RK_KDT_F16:
        h = rk_f32_to_f16(v);
        memcpy(p, &h, 2);
        break;
    case RK_KDT_BF16:
        h = rk_f32_to_bf16(v);
        memcpy(p, &h, 2);
        break;
    default:
        memcpy(p, &v, 4);
        break;
    }
}

/* float64 elements (scalar kernels only): loaded and stored as they are; a computed NaN
 * is made canonical for the same reason as above. */
#define RK_CANONICAL_NAN_BITS_F64 0x7ff8000000000000ull

static inline double rk_load_f64(const char *p) {
    double d;
    memcpy(&d, p, 8);
    return d;
}

static inline void rk_store_f64(char *p, double v) {
    if (v != v) {
        uint64_t bits = RK_CANONICAL_NAN_BITS_F64;
        memcpy(p, &bits, 8);
        return;
    }
    memcpy(p, &v, 8);
}

/* The pair formulas, once for fp32 (rk_pair_forward, rk_pair_backward) and once for
 * float64 (..._f64): each product is rounded to T, each output is one add or subtract.
 * Forward:  [oa; ob] = [[cp, -sp], [sr, cr]] [a; b].
 * Backward (its transpose): [oa; ob] = [[cp, sr], [-sp, cr]] [a; b]. */
#define RK_DEFINE_PAIR_FORMULAS(T, suffix)                                                         \
    static inline void rk_pair_forward##suffix(T a, T b, T cp, T sp, T cr, T sr, T *oa, T *ob) {   \
        T ac = a * cp, bs = b * sp;                                                                \
        T bc = b * cr, as = a * sr;                                                                \
        *oa = ac - bs;                                                                             \
        *ob = bc + as;                                                                             \
    }                                                                                              \
    static inline void rk_pair_backward##suffix(T a, T b, T cp, T sp, T cr, T sr, T *oa, T *ob) {  \
        T ac = a * cp, bs = b * sr;                                                                \
        T bc = b * cr, as = a * sp;                                                                \
        *oa = ac + bs;                                                                             \
        *ob = bc - as;                                                                             \
    }
RK_DEFINE_PAIR_FORMULAS(float, )
RK_DEFINE_PAIR_FORMULAS(double, _f64)
#undef RK_DEFINE_PAIR_FORMULAS

/* One float64 pair in memory: read at ia/ib (both before anything is written), rotated
 * with cp/sp (position of a) and cr/sr (position of b), written to oa/ob. */
static inline void rk_rotate_pair_f64(const char *ia, const char *ib, char *oa, char *ob,
                                      const char *cp, const char *sp, const char *cr,
                                      const char *sr, int backward) {
    double a = rk_load_f64(ia), b = rk_load_f64(ib), ra, rb;
    double c0 = rk_load_f64(cp), s0 = rk_load_f64(sp), c1 = rk_load_f64(cr), s1 = rk_load_f64(sr);
    if (backward)
        rk_pair_backward_f64(a, b, c0, s0, c1, s1, &ra, &rb);
    else
        rk_pair_forward_f64(a, b, c0, s0, c1, s1, &ra, &rb);
    rk_store_f64(oa, ra);
    rk_store_f64(ob, rb);
}

#endif /* ROPEKIT_KERNELS_SIMD_ELEM_H_ */
