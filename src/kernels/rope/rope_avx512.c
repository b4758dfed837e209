/* The AVX-512 rope kernels, both styles and every dtype pair (heads and coefficients
 * contiguous). Heads run the pair loops both families share (simd/pairs_avx512.h), both
 * members of a pair with its one coefficient pair. Built twice: the avx512 set, and with
 * RK512_HW_BF16 and -mavx512bf16 the avx512bf16 set (simd/simd_avx512.h). */
#include "kernels/kernel_list.h"
#include "kernels/rope_kernel.h"
#include "kernels/simd/pairs_avx512.h"

/* Widens h coefficients to fp32; with `dup`, writes each twice (2h values), the first
 * copy negated when `negate_even` (for GPT-J's sin). */
RK_INLINE void rk512_widen_coeffs(const char *src, float *dst, int64_t h, int dup, int negate_even,
                                  enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m512i lo = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    const __m512i hi =
        _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
    for (int64_t j = 0; j < h; j += 16) {
        __mmask16 m = rk512_mask(h - j);
        __m512 v = rk512_load(src + j * cs, cdt, m);
        if (!dup) {
            _mm512_mask_storeu_ps(dst + j, m, v);
            continue;
        }
        __m512 d_lo = _mm512_permutexvar_ps(lo, v), d_hi = _mm512_permutexvar_ps(hi, v);
        if (negate_even) {
            const __m512 sign = _mm512_castsi512_ps(_mm512_set1_epi32((int)0x80000000u));
            d_lo = _mm512_mask_xor_ps(d_lo, (__mmask16)0x5555, d_lo, sign);
            d_hi = _mm512_mask_xor_ps(d_hi, (__mmask16)0x5555, d_hi, sign);
        }
        _mm512_mask_storeu_ps(dst + 2 * j, rk512_mask(2 * (h - j)), d_lo);
        _mm512_mask_storeu_ps(dst + 2 * j + 16, rk512_mask(2 * (h - j) - 16), d_hi);
    }
}

/* Widening pays for f16/bf16 coefficients, for GPT-J (duplicated and signed) and for
 * bf16 x, which works on split lanes (simd/pairs_avx512.h): plain coefficients for GPT-J,
 * split ones for NeoX. */
RK_INLINE int rk512_rope_hoist_wanted(enum rk_rope_style style, enum rk_kdtype xdt,
                                      enum rk_kdtype cdt) {
    return style == RK_ROPE_GPTJ || cdt != RK_KDT_F32 || xdt == RK_KDT_BF16;
}

/* Both coefficient rows; a macro, as an inline function changes the code GCC generates
 * for the hoisted heads. */
#define rk512_rope_widen(cos, sin, cf, sf, h, dup, cdt)                                            \
    (rk512_widen_coeffs(cos, cf, h, dup, 0, cdt), rk512_widen_coeffs(sin, sf, h, dup, dup, cdt))

#define RKV(name) rk512_##name
#define RKV_HOIST_ALIGN 64
#define RKV_ROPE_BF16_SPLIT 1
#include "kernels/rope/rope_rows.h"

#define RK_DEFINE_ROPE_AVX512(isa, name, style, xdt, cdt)                                          \
    RK_KERNEL void name(const struct rk_rope_rows *a) {                                            \
        rk512_rope_rows(a, style, xdt, cdt);                                                       \
    }
#if defined(RK512_HW_BF16)
RK_ROPE_KERNELS_AVX512BF16(RK_DEFINE_ROPE_AVX512)
#else
RK_ROPE_KERNELS_AVX512(RK_DEFINE_ROPE_AVX512)
#endif
