/* AVX-512 (F/BW/VL/DQ) building blocks shared by the *_avx512.c kernels: 16-lane loads
 * that widen f16/bf16 exactly, stores that round to nearest even exactly like
 * core/dtype_convert.h, and the pair arithmetic in the scalar operand order.
 *
 * Numerics (SPEC §1): every product is one vmulps, every output one vaddps/vsubps,
 * never an FMA and never a negation (negating a NaN would flip its sign where the
 * scalar subtraction keeps it). bf16 is narrowed with integer arithmetic rather than
 * vcvtneps2bf16, which treats subnormal inputs as zero. Only include this header from
 * files compiled with the AVX-512 flags. */
#ifndef ROPEKIT_KERNELS_SIMD_SIMD_AVX512_H_
#define ROPEKIT_KERNELS_SIMD_SIMD_AVX512_H_

#include <immintrin.h>
#include <stdint.h>

#include "kernels/rot_kernel.h"
#include "kernels/simd/elem.h"

/* Lanes [0, n) of a 16-lane vector (n <= 0: none, n >= 16: all). */
RK_INLINE __mmask16 rk512_mask(int64_t n) {
    return n >= 16 ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* Full blocks use plain loads and stores: masked stores are much slower on some cores
 * (AMD Zen 4), so masks are kept for the tail only. The branch is uniform per row. */
RK_INLINE __m256i rk512_load16(const char *p, __mmask16 m) {
    return m == 0xffff ? _mm256_loadu_si256((const __m256i *)(const void *)p)
                       : _mm256_maskz_loadu_epi16(m, p);
}

RK_INLINE __m512 rk512_load(const char *p, enum rk_kdtype dt, __mmask16 m) {
    switch (dt) {
    case RK_KDT_F16:
        return _mm512_cvtph_ps(rk512_load16(p, m));
    case RK_KDT_BF16:
        return _mm512_castsi512_ps(
            _mm512_slli_epi32(_mm512_cvtepu16_epi32(rk512_load16(p, m)), 16));
    default:
        return m == 0xffff ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(m, p);
    }
}

RK_INLINE void rk512_store16(char *p, __m256i v, __mmask16 m) {
    if (m == 0xffff)
        _mm256_storeu_si256((__m256i *)(void *)p, v);
    else
        _mm256_mask_storeu_epi16(p, m, v);
}

/* The fp32 bits rounded to nearest even at bit 16: the bf16 value is the high half.
 * Exact for every input (NaN lanes must already be canonical, which this keeps). */
RK_INLINE __m512i rk512_round_to_bf16_bits(__m512 v) {
    __m512i u = _mm512_castps_si512(v);
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    return _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), lsb);
}

/* RNE to bf16 with integer arithmetic. */
RK_INLINE __m256i rk512_to_bf16_exact(__m512 v) {
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(rk512_round_to_bf16_bits(v), 16));
}

/* NaN lanes made the canonical quiet NaN. */
RK_INLINE __m512 rk512_canonical_nan(__m512 v) {
    return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q),
                              _mm512_castsi512_ps(_mm512_set1_epi32((int)RK_CANONICAL_NAN_BITS)));
}

#define RK512_CLASS_NAN 0x81       /* vfpclassps: QNaN | SNaN */
#define RK512_CLASS_SUBNORMAL 0x20 /* vfpclassps: denormal */

/* Stores computed values. Lanes that are NaN become the canonical quiet NaN (as
 * rk_store_elem does); such lanes are rare, so one test decides between the plain
 * path and the careful one. With RK512_HW_BF16, vcvtneps2bf16 narrows to bf16: it
 * rounds to nearest even but reads subnormal inputs as zero (SPEC §1 keeps them), so
 * subnormal lanes also take the careful path. */
RK_INLINE void rk512_store_plain(char *p, __m512 v, enum rk_kdtype dt, __mmask16 m) {
    switch (dt) {
    case RK_KDT_F16:
        rk512_store16(p, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT), m);
        break;
    case RK_KDT_BF16:
#if defined(RK512_HW_BF16)
        rk512_store16(p, (__m256i)_mm512_cvtneps_pbh(v), m);
#else
        rk512_store16(p, rk512_to_bf16_exact(v), m);
#endif
        break;
    default:
        if (m == 0xffff)
            _mm512_storeu_ps(p, v);
        else
            _mm512_mask_storeu_ps(p, m, v);
        break;
    }
}

RK_INLINE void rk512_store_careful(char *p, __m512 v, enum rk_kdtype dt, __mmask16 m) {
    v = rk512_canonical_nan(v);
    if (dt == RK_KDT_BF16)
        rk512_store16(p, rk512_to_bf16_exact(v), m);
    else
        rk512_store_plain(p, v, dt, m);
}

/* Lanes of v that need the careful store when narrowed with vcvtneps2bf16. */
RK_INLINE __mmask16 rk512_hw_bf16_subnormals(__m512 v, enum rk_kdtype dt) {
#if defined(RK512_HW_BF16)
    return dt == RK_KDT_BF16 ? _mm512_fpclass_ps_mask(v, RK512_CLASS_SUBNORMAL) : 0;
#else
    (void)v;
    (void)dt;
    return 0;
#endif
}

RK_INLINE void rk512_store(char *p, __m512 v, enum rk_kdtype dt, __mmask16 m) {
    if (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) | rk512_hw_bf16_subnormals(v, dt))
        rk512_store_careful(p, v, dt, m);
    else
        rk512_store_plain(p, v, dt, m);
}

/* Two results with one test: an unordered compare of a with b finds a NaN in either. */
RK_INLINE void rk512_store2(char *pa, __m512 a, char *pb, __m512 b, enum rk_kdtype dt,
                            __mmask16 m) {
    if (_mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q) | rk512_hw_bf16_subnormals(a, dt) |
        rk512_hw_bf16_subnormals(b, dt)) {
        rk512_store_careful(pa, a, dt, m);
        rk512_store_careful(pb, b, dt, m);
    } else {
        rk512_store_plain(pa, a, dt, m);
        rk512_store_plain(pb, b, dt, m);
    }
}

/* Lanes [0, n) of a 32-lane (16-bit element) mask. */
RK_INLINE __mmask32 rk512_mask32(int64_t n) {
    return n >= 32 ? (__mmask32)0xffffffffu : n <= 0 ? (__mmask32)0 : (__mmask32)((1u << n) - 1u);
}

/* Up to 32 bf16 values at p (w: the words present) as fp32, split into the even-indexed
 * ones (low halves of the 32-bit words, moved up) and the odd-indexed ones (high halves,
 * kept): one load, a shift and an and, where widening takes shuffles. Kernels keep the
 * split through the arithmetic, pairing even lanes with even lanes. */
RK_INLINE void rk512_load_bf16_split(const char *p, __mmask32 w, __m512 *even, __m512 *odd) {
    __m512i v = w == 0xffffffffu ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi16(w, p);
    *even = _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
    *odd = _mm512_castsi512_ps(_mm512_and_si512(v, _mm512_set1_epi32((int)0xffff0000u)));
}

/* Inverse of rk512_load_bf16_split: rounds both halves exactly (integer arithmetic, NaN
 * made canonical), packs them back into words and stores the words present in w. */
RK_INLINE void rk512_store_bf16_split(char *p, __m512 even, __m512 odd, __mmask32 w) {
    if (_mm512_cmp_ps_mask(even, odd, _CMP_UNORD_Q)) {
        even = rk512_canonical_nan(even);
        odd = rk512_canonical_nan(odd);
    }
    __m512i packed = _mm512_or_si512(
        _mm512_srli_epi32(rk512_round_to_bf16_bits(even), 16),
        _mm512_and_si512(rk512_round_to_bf16_bits(odd), _mm512_set1_epi32((int)0xffff0000u)));
    if (w == 0xffffffffu)
        _mm512_storeu_si512(p, packed);
    else
        _mm512_mask_storeu_epi16(p, w, packed);
}

/* The pair formulas (simd/elem.h), sixteen pairs at once. */
RK_DEFINE_PAIR_FORMULAS(__m512, rk512_pair_forward, rk512_pair_backward, rk512_pair)

/* Swaps adjacent lanes: (v0 v1 v2 v3 ..) -> (v1 v0 v3 v2 ..). */
RK_INLINE __m512 rk512_swap_pairs(__m512 v) {
    return _mm512_permute_ps(v, 0xb1);
}

/* Even lanes a - b, odd lanes a + b (an add/sub, never a negation). */
RK_INLINE __m512 rk512_sub_even_add_odd(__m512 a, __m512 b) {
    return _mm512_mask_sub_ps(_mm512_add_ps(a, b), (__mmask16)0x5555, a, b);
}

/* Even lanes a + b, odd lanes a - b. */
RK_INLINE __m512 rk512_add_even_sub_odd(__m512 a, __m512 b) {
    return _mm512_mask_sub_ps(_mm512_add_ps(a, b), (__mmask16)0xaaaa, a, b);
}

/* Eight interleaved pairs (simd/elem.h). */
RK_DEFINE_ROTATE_PAIRS(__m512, rk512_rotate_pairs, rk512_swap_pairs, rk512_sub_even_add_odd,
                       rk512_add_even_sub_odd)

/* Splits 32 interleaved values (lo = v0..v15, hi = v16..v31) into evens and odds. */
RK_INLINE void rk512_deinterleave(__m512 lo, __m512 hi, __m512 *even, __m512 *odd) {
    const __m512i ie = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i io = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    *even = _mm512_permutex2var_ps(lo, ie, hi);
    *odd = _mm512_permutex2var_ps(lo, io, hi);
}

/* Inverse of rk512_deinterleave. */
RK_INLINE void rk512_interleave(__m512 even, __m512 odd, __m512 *lo, __m512 *hi) {
    const __m512i il = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i ih =
        _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    *lo = _mm512_permutex2var_ps(even, il, odd);
    *hi = _mm512_permutex2var_ps(even, ih, odd);
}

/* Up to 32 values at p (n present) of dtype dt as fp32, split like
 * rk512_load_bf16_split into the even- and odd-indexed ones. */
RK_INLINE void rk512_split_values(const char *p, int64_t n, enum rk_kdtype dt, __m512 *even,
                                  __m512 *odd) {
    if (dt == RK_KDT_BF16) {
        rk512_load_bf16_split(p, rk512_mask32(n), even, odd);
        return;
    }
    __m512 lo = rk512_load(p, dt, rk512_mask(n));
    __m512 hi = rk512_load(p + 16 * (dt == RK_KDT_F32 ? 4 : 2), dt, rk512_mask(n - 16));
    rk512_deinterleave(lo, hi, even, odd);
}

/* Writes n values (up to 32) of src, split as above, to dst[0, 16) (even-indexed) and
 * dst[16, 32) (odd-indexed): the fp32 form the split kernels load coefficients from. */
RK_INLINE void rk512_split_to_f32(const char *src, int64_t n, enum rk_kdtype dt, float *dst) {
    __m512 e, o;
    rk512_split_values(src, n, dt, &e, &o);
    _mm512_storeu_ps(dst, e);
    _mm512_storeu_ps(dst + 16, o);
}

#endif /* ROPEKIT_KERNELS_SIMD_SIMD_AVX512_H_ */
