/* The AVX2 (+F16C) rope kernels, both styles and every dtype pair, float64 included
 * (heads and coefficients contiguous). Heads run the pair loops both families share
 * (simd/pairs_avx2.h), both members of a pair with its one coefficient pair. Full 8-pair
 * blocks (4 for float64) run in vectors; the pairs left over at the end of a head go
 * through the scalar helpers, so nothing is read or written past the rotated part. */
#include "kernels/kernel_list.h"
#include "kernels/rope_kernel.h"
#include "kernels/simd/pairs_avx2.h"

/* Widens h coefficients of cos and sin to fp32; with dup (GPT-J) each is written twice,
 * the first copy of sin negated (the layout rk256_interleave_signed reads). */
RK_INLINE void rk256_rope_widen(const char *cos, const char *sin, float *cf, float *sf, int64_t h,
                                int dup, enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m256 even_sign = _mm256_castsi256_ps(_mm256_setr_epi32(
        (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0));
    int64_t j = 0;
    for (; j + 8 <= h; j += 8) {
        __m256 c = rk256_load(cos + j * cs, cdt), s = rk256_load(sin + j * cs, cdt);
        if (!dup) {
            _mm256_storeu_ps(cf + j, c);
            _mm256_storeu_ps(sf + j, s);
            continue;
        }
        __m256 lo, hi;
        rk256_duplicate(c, &lo, &hi);
        _mm256_storeu_ps(cf + 2 * j, lo);
        _mm256_storeu_ps(cf + 2 * j + 8, hi);
        rk256_duplicate(s, &lo, &hi);
        _mm256_storeu_ps(sf + 2 * j, _mm256_xor_ps(lo, even_sign));
        _mm256_storeu_ps(sf + 2 * j + 8, _mm256_xor_ps(hi, even_sign));
    }
    for (; j < h; j++) {
        const float c = rk_load_elem(cos + j * cs, cdt), s = rk_load_elem(sin + j * cs, cdt);
        if (dup) {
            cf[2 * j] = cf[2 * j + 1] = c;
            sf[2 * j] = -s;
            sf[2 * j + 1] = s;
        } else {
            cf[j] = c;
            sf[j] = s;
        }
    }
}

/* Widening pays for f16/bf16 coefficients and for GPT-J (duplicated and signed as
 * above); bf16 x keeps its split-lane loads of the original coefficients, and float64
 * its own. */
RK_INLINE int rk256_rope_hoist_wanted(enum rk_rope_style style, enum rk_kdtype xdt,
                                      enum rk_kdtype cdt) {
    return xdt != RK_KDT_BF16 && xdt != RK_KDT_F64 && (style == RK_ROPE_GPTJ || cdt != RK_KDT_F32);
}

#define RKV(name) rk256_##name
#define RKV_HOIST_ALIGN _Alignof(float)
#include "kernels/rope/rope_rows.h"

#define RK_DEFINE_ROPE_AVX2(isa, name, style, xdt, cdt)                                            \
    RK_KERNEL void name(const struct rk_rope_rows *a) {                                            \
        rk256_rope_rows(a, style, xdt, cdt);                                                       \
    }
RK_ROPE_KERNELS_AVX2(RK_DEFINE_ROPE_AVX2)
