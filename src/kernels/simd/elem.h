/* Element helpers of every kernel: element sizes,
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

/* The size in bytes of an element of a kernel dtype. */
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

/* The pair formulas of SPEC §3.3 (forward) and §4.2 (backward) for one element type T:
 * fp32 and float64 here, the SIMD vectors in simd/simd_avx2.h, simd/f64_avx2.h and
 * simd/simd_avx512.h (GCC and Clang give vector types these operators, each one
 * instruction: vmulps, vaddps, vsubps and their double and 512-bit forms). Each product
 * is rounded to T and each output is one add or subtract, never an FMA (the kernels are
 * built with -ffp-contract=off) and never a negation (negating a NaN would flip its sign
 * where the subtraction keeps it).
 *   forward:  [oa; ob] = [[cp, -sp], [sr, cr]] [a; b]
 *   backward (its transpose): [oa; ob] = [[cp, sr], [-sp, cr]] [a; b]
 * `either` is the one of the two `dir` names. */
#define RK_DEFINE_PAIR_FORMULAS(T, forward, backward, either)                                      \
    RK_INLINE void forward(T a, T b, T cp, T sp, T cr, T sr, T *oa, T *ob) {                       \
        T ac = a * cp, bs = b * sp;                                                                \
        T bc = b * cr, as = a * sr;                                                                \
        *oa = ac - bs;                                                                             \
        *ob = bc + as;                                                                             \
    }                                                                                              \
    RK_INLINE void backward(T a, T b, T cp, T sp, T cr, T sr, T *oa, T *ob) {                      \
        T ac = a * cp, bs = b * sr;                                                                \
        T bc = b * cr, as = a * sp;                                                                \
        *oa = ac + bs;                                                                             \
        *ob = bc - as;                                                                             \
    }                                                                                              \
    RK_INLINE void either(ropekit_direction dir, T a, T b, T cp, T sp, T cr, T sr, T *oa, T *ob) { \
        if (dir == ROPEKIT_BACKWARD)                                                               \
            backward(a, b, cp, sp, cr, sr, oa, ob);                                                \
        else                                                                                       \
            forward(a, b, cp, sp, cr, sr, oa, ob);                                                 \
    }
RK_DEFINE_PAIR_FORMULAS(float, rk_pair_forward, rk_pair_backward, rk_pair)
RK_DEFINE_PAIR_FORMULAS(double, rk_pair_forward_f64, rk_pair_backward_f64, rk_pair_f64)

/* The same formulas on one vector of interleaved pairs v = (a0 b0 a1 b1 ..) with
 * coefficients c, s indexed like v, for a SIMD type T given its lane swap (v1 v0 v3 v2 ..)
 * and its mixed add/subtracts (each one instruction or a blend of two):
 *   forward:  even v[p]c[p] - v[r]s[p], odd v[r]c[r] + v[p]s[r]
 *   backward: even g[p]c[p] + g[r]s[r], odd g[r]c[r] - g[p]s[p] */
#define RK_DEFINE_ROTATE_PAIRS(T, name, swap_pairs, sub_even_add_odd, add_even_sub_odd)            \
    RK_INLINE T name(T v, T c, T s, ropekit_direction dir) {                                       \
        const T p1 = v * c;                                                                        \
        if (dir == ROPEKIT_BACKWARD)                                                               \
            return add_even_sub_odd(p1, swap_pairs(v * s));                                        \
        return sub_even_add_odd(p1, swap_pairs(v) * s);                                            \
    }

/* One float64 pair in memory: read at ia/ib (both before anything is written), rotated
 * with cp/sp (position of a) and cr/sr (position of b), written to oa/ob. */
static inline void rk_rotate_pair_f64(const char *ia, const char *ib, char *oa, char *ob,
                                      const char *cp, const char *sp, const char *cr,
                                      const char *sr, ropekit_direction dir) {
    double a = rk_load_f64(ia), b = rk_load_f64(ib), ra, rb;
    double c0 = rk_load_f64(cp), s0 = rk_load_f64(sp), c1 = rk_load_f64(cr), s1 = rk_load_f64(sr);
    rk_pair_f64(dir, a, b, c0, s0, c1, s1, &ra, &rb);
    rk_store_f64(oa, ra);
    rk_store_f64(ob, rb);
}

/* One pair in memory, the scalar kernels' own and the SIMD kernels' row ends: its
 * members are read at (ia, ib) and written at (oa, ob), which may be the same addresses
 * (both are read first); cp, sp and cr, sr are the coefficients of the pair's two
 * positions. float64 is computed in double, every other dtype in fp32. */
RK_INLINE void rk_rot_pair(const char *ia, const char *ib, char *oa, char *ob, const char *cp,
                           const char *sp, const char *cr, const char *sr, ropekit_direction dir,
                           enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) { /* validation pairs float64 data with float64 coefficients */
        rk_rotate_pair_f64(ia, ib, oa, ob, cp, sp, cr, sr, dir);
        return;
    }
    float a = rk_load_elem(ia, xdt), b = rk_load_elem(ib, xdt), ra, rb;
    float c0 = rk_load_elem(cp, cdt), s0 = rk_load_elem(sp, cdt), c1 = rk_load_elem(cr, cdt),
          s1 = rk_load_elem(sr, cdt);
    rk_pair(dir, a, b, c0, s0, c1, s1, &ra, &rb);
    rk_store_elem(oa, ra, xdt);
    rk_store_elem(ob, rb, xdt);
}

/* Where the two members of a pair take their coefficients. Partial rotary's cos/sin rows
 * are indexed like the row, so each member has its own position's (SPEC §3.3); rope's
 * cache row has one c[j], s[j] for pair j, which both members use (SPEC §5.4). This is
 * all that tells the two families' pair loops apart (both read `in` and write `out`, which
 * may be `in`), so they share them (here, simd/pairs_avx2.h, simd/pairs_avx512.h) with it
 * as a constant of each kernel. */
enum rk_coeffs { RK_COEFFS_PER_MEMBER = 0, RK_COEFFS_SHARED = 1 };

/* The byte offset of the shared coefficient of the pair at element k, which the SIMD
 * loops only ask at even k (block starts): k * size / 2 folds into the address, where
 * k / 2 * size took two instructions a block. */
#define RK_SHARED_COEFF_AT(k, size) ((k) * ((size) / 2))

/* The pairs of a row or head of h pairs from element `from` on, one at a time: the scalar
 * kernels' loop (from 0, any strides, in bytes) and the SIMD kernels' row ends. Pair j's
 * members are elements (j, j + h) for ROPEKIT_ROTARY_HALF, (2j, 2j + 1) for
 * ROPEKIT_ROTARY_INTERLEAVE (NeoX and GPT-J heads are laid out so), read from `in` and
 * written to `out`, which may be `in`: each pair is read before it is written. The loop
 * steps over the first members' elements (by two when interleaved), as the SIMD loops
 * count: counted in pairs, GCC vectorized it, and that setup cost each AVX2 interleaved
 * row more than its few pairs (5 instructions a row, +4% for 64-element rows). */
RK_INLINE void rk_rot_pairs(const char *in, int64_t in_col, char *out, int64_t out_col,
                            const char *c, int64_t c_col, const char *s, int64_t s_col,
                            int64_t from, int64_t h, ropekit_rotary_mode layout,
                            enum rk_coeffs coeffs, ropekit_direction dir, enum rk_kdtype xdt,
                            enum rk_kdtype cdt) {
    const int64_t il = layout == ROPEKIT_ROTARY_INTERLEAVE;
    const int64_t end = il ? 2 * h : h, step = il ? 2 : 1, partner = il ? 1 : h;
    for (int64_t p = from; p + il < end; p += step) {
        const int64_t r = p + partner;
        const int64_t cp = coeffs == RK_COEFFS_SHARED ? p / step : p;
        const int64_t cr = coeffs == RK_COEFFS_SHARED ? p / step : r;
        rk_rot_pair(in + p * in_col, in + r * in_col, out + p * out_col, out + r * out_col,
                    c + cp * c_col, s + cp * s_col, c + cr * c_col, s + cr * s_col, dir, xdt, cdt);
    }
}

#endif /* ROPEKIT_KERNELS_SIMD_ELEM_H_ */
