/* The AVX-512 partial-rotary kernels, every mode, direction and dtype pair (contiguous
 * rows only). Half, interleave and quarter rows run the pair loops both families share
 * (simd/pairs_avx512.h), each member with its own position's coefficients;
 * interleave-half's own loop is here. Tails use masked loads and stores; results equal
 * the scalar kernels bit for bit. Built twice: the avx512 set, and with RK512_HW_BF16 and
 * -mavx512bf16 the avx512bf16 set (simd/simd_avx512.h). */
#include "kernels/kernel_list.h"
#include "kernels/simd/pairs_avx512.h"

/* Splits `n` coefficients into 32-blocks of fp32 (rk512_split_to_f32) at dst. */
RK_INLINE void rk512_split_run(const char *src, int64_t n, enum rk_kdtype cdt, float *dst) {
    for (int64_t k = 0; k < n; k += 32)
        rk512_split_to_f32(src + k * RK_SIZE(cdt), n - k, cdt, dst + k);
}

/* Widens len coefficients to fp32, negating the even ones when `negate_even`. */
RK_INLINE void rk512_widen_row(const char *src, float *dst, int64_t len, int negate_even,
                               enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m512 sign = _mm512_castsi512_ps(_mm512_set1_epi32((int)0x80000000u));
    for (int64_t k = 0; k < len; k += 16) {
        __mmask16 m = rk512_mask(len - k);
        __m512 v = rk512_load(src + k * cs, cdt, m);
        if (negate_even)
            v = _mm512_mask_xor_ps(v, (__mmask16)0x5555, v, sign);
        _mm512_mask_storeu_ps(dst + k, m, v);
    }
}

/* Interleave-half: the row is widened into scratch first because, in place, outputs land
 * on positions later pairs still need. */
RK_INLINE void rk512_rot_ihalf_row(const char *x, char *y, const char *c, const char *s,
                                   int64_t len, float *scratch, ropekit_direction dir,
                                   enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt), h = len / 2;
    for (int64_t k = 0; k < len; k += 16) {
        __mmask16 m = rk512_mask(len - k);
        __m512 v = rk512_load(x + k * xs, xdt, m);
        if (m == 0xffff)
            _mm512_storeu_ps(scratch + k, v);
        else
            _mm512_mask_storeu_ps(scratch + k, m, v);
    }
    for (int64_t j = 0; j < h; j += 16) {
        __mmask16 m = rk512_mask(h - j);
        __mmask16 m_lo = rk512_mask(2 * (h - j)), m_hi = rk512_mask(2 * (h - j) - 16);
        __m512 cp = rk512_load(c + j * cs, cdt, m), sp = rk512_load(s + j * cs, cdt, m);
        __m512 cr = rk512_load(c + (j + h) * cs, cdt, m);
        __m512 sr = rk512_load(s + (j + h) * cs, cdt, m);
        __m512 oa, ob;
        if (dir == ROPEKIT_BACKWARD) {
            __m512 a = rk512_load((const char *)(scratch + j), RK_KDT_F32, m);
            __m512 b = rk512_load((const char *)(scratch + j + h), RK_KDT_F32, m);
            rk512_pair_backward(a, b, cp, sp, cr, sr, &oa, &ob);
            __m512 lo, hi;
            rk512_interleave(oa, ob, &lo, &hi);
            rk512_store(y + 2 * j * xs, lo, xdt, m_lo);
            rk512_store(y + (2 * j + 16) * xs, hi, xdt, m_hi);
        } else {
            __m512 lo = rk512_load((const char *)(scratch + 2 * j), RK_KDT_F32, m_lo);
            __m512 hi = rk512_load((const char *)(scratch + 2 * j + 16), RK_KDT_F32, m_hi);
            __m512 a, b;
            rk512_deinterleave(lo, hi, &a, &b);
            rk512_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
            rk512_store2(y + j * xs, oa, y + (j + h) * xs, ob, xdt, m);
        }
    }
}

/* A broadcast cos/sin row is widened once (rot/rot_rows.h) for f16/bf16 coefficients,
 * for the signed sin of interleave, and split alike for bf16 x on split lanes. */
RK_INLINE int rk512_rot_hoist_wanted(ropekit_rotary_mode mode, ropekit_direction dir, int split,
                                     enum rk_kdtype xdt, enum rk_kdtype cdt) {
    (void)dir;
    (void)xdt;
    return cdt != RK_KDT_F32 || mode == ROPEKIT_ROTARY_INTERLEAVE || split;
}

#define RKV(name) rk512_##name
#define RKV_IHALF_FROM_X 0
#define RKV_HOIST_ALIGN 64
#define RKV_ROT_BF16_SPLIT 1
#include "kernels/rot/rot_rows.h"

#define RK_DEFINE_ROT_AVX512(isa, name, mode, direction, xdt, cdt)                                 \
    RK_KERNEL void name(const struct rk_rot_rows *a) {                                             \
        if (a->y == a->x)                                                                          \
            rk512_rot_rows(a, mode, direction, xdt, cdt, 1);                                       \
        else                                                                                       \
            rk512_rot_rows(a, mode, direction, xdt, cdt, 0);                                       \
    }
#if defined(RK512_HW_BF16)
RK_ROT_KERNELS_AVX512BF16(RK_DEFINE_ROT_AVX512)
#else
RK_ROT_KERNELS_AVX512(RK_DEFINE_ROT_AVX512)
#endif
