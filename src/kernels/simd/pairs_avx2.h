/* The pair loops of both operator families on AVX2 (+F16C): partial rotary's rows
 * (rot/rot_avx2.c) and rope's heads (rope/rope_avx2.c), each in -> out, possibly in place,
 * are the same rotation and differ only in where a pair's members take their
 * coefficients (enum rk_coeffs, simd/elem.h). Each loop reads its pairs from `in` and
 * writes them to `out` (which may be `in`: every block is read before it is written), and
 * the kernels pass the family's constants, which the compiler folds. Full blocks of 8
 * lanes (4 for float64) run in vectors; the pairs left at the end of a row go through
 * rk_rot_pairs (simd/elem.h), so nothing is read or written past the row and results equal
 * the scalar kernels bit for bit. Only include this header from files compiled with
 * -mavx2 -mf16c. */
#ifndef ROPEKIT_KERNELS_SIMD_PAIRS_AVX2_H_
#define ROPEKIT_KERNELS_SIMD_PAIRS_AVX2_H_

#include "kernels/simd/elem.h"
#include "kernels/simd/f64_avx2.h"
#include "kernels/simd/simd_avx2.h"

/* float64: four doubles a vector, coefficients read as they are (the row and head drivers
 * never widen float64's). Each returns where its blocks stopped: a pair for rotate-half,
 * an element for interleaved pairs (pair i is elements 2i, 2i + 1; the loops count
 * elements). */

/* Rotate-half blocks: pairs (j, j + h). */
RK_INLINE int64_t rk256d_half_blocks(const char *in, char *out, const char *c, const char *s,
                                     int64_t h, enum rk_coeffs coeffs, ropekit_direction dir) {
    int64_t j = 0;
    for (; j + 4 <= h; j += 4) {
        __m256d cp = rk256d_load(c + 8 * j), sp = rk256d_load(s + 8 * j);
        __m256d cr = coeffs == RK_COEFFS_SHARED ? cp : rk256d_load(c + 8 * (j + h));
        __m256d sr = coeffs == RK_COEFFS_SHARED ? sp : rk256d_load(s + 8 * (j + h));
        __m256d oa, ob;
        rk256d_pair(dir, rk256d_load(in + 8 * j), rk256d_load(in + 8 * (j + h)), cp, sp, cr, sr,
                    &oa, &ob);
        rk256d_store(out + 8 * j, oa);
        rk256d_store(out + 8 * (j + h), ob);
    }
    return j;
}

/* The coefficients of four interleaved elements at k per vector: per member one vector
 * (v[0]); shared, the four pairs' c[k / 2 ..] duplicated onto both members fill two
 * (v[0], v[1]: eight elements). */
RK_INLINE void rk256d_interleave_coeffs(const char *p, int64_t k, enum rk_coeffs coeffs,
                                        __m256d v[2]) {
    if (coeffs == RK_COEFFS_SHARED)
        rk256d_duplicate(rk256d_load(p + RK_SHARED_COEFF_AT(k, 8)), &v[0], &v[1]);
    else
        v[0] = rk256d_load(p + 8 * k);
}

/* Interleaved blocks of h pairs (2i, 2i + 1). */
RK_INLINE int64_t rk256d_interleave_blocks(const char *in, char *out, const char *c, const char *s,
                                           int64_t h, enum rk_coeffs coeffs,
                                           ropekit_direction dir) {
    const int64_t n = 2 * h, step = coeffs == RK_COEFFS_SHARED ? 8 : 4; /* elements a load */
    int64_t k = 0;
    for (; k + step <= n; k += step) {
        __m256d cv[2], sv[2];
        rk256d_interleave_coeffs(c, k, coeffs, cv);
        rk256d_interleave_coeffs(s, k, coeffs, sv);
        for (int64_t u = 0; u < step; u += 4)
            rk256d_store(out + 8 * (k + u), rk256d_rotate_pairs(rk256d_load(in + 8 * (k + u)),
                                                                cv[u / 4], sv[u / 4], dir));
    }
    return k;
}

/* Rotate-half on h pairs (j, j + h). */
RK_INLINE void rk256_half_pairs(const char *in, char *out, const char *c, const char *s, int64_t h,
                                enum rk_coeffs coeffs, ropekit_direction dir, enum rk_kdtype xdt,
                                enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    const int shared = coeffs == RK_COEFFS_SHARED;
    if (xdt == RK_KDT_F64) {
        int64_t j = rk256d_half_blocks(in, out, c, s, h, coeffs, dir);
        rk_rot_pairs(in, xs, out, xs, c, cs, s, cs, j, h, ROPEKIT_ROTARY_HALF, coeffs, dir, xdt,
                     cdt);
        return;
    }
    int64_t j = 0;
    /* bf16: 16 values of each half in split lanes; j pairs with j + h in the same lane */
    for (; xdt == RK_KDT_BF16 && j + 16 <= h; j += 16) {
        __m256 ae, ao, be, bo, cpe, cpo, spe, spo, cre, cro, sre, sro, oae, oao, obe, obo;
        rk256_load_bf16_split(in + 2 * j, &ae, &ao);
        rk256_load_bf16_split(in + 2 * (j + h), &be, &bo);
        rk256_split_values(c + j * cs, cdt, &cpe, &cpo);
        rk256_split_values(s + j * cs, cdt, &spe, &spo);
        if (shared) {
            cre = cpe, cro = cpo, sre = spe, sro = spo;
        } else {
            rk256_split_values(c + (j + h) * cs, cdt, &cre, &cro);
            rk256_split_values(s + (j + h) * cs, cdt, &sre, &sro);
        }
        rk256_pair(dir, ae, be, cpe, spe, cre, sre, &oae, &obe);
        rk256_pair(dir, ao, bo, cpo, spo, cro, sro, &oao, &obo);
        rk256_store_bf16_split(out + 2 * j, oae, oao);
        rk256_store_bf16_split(out + 2 * (j + h), obe, obo);
    }
    for (; j + 8 <= h; j += 8) {
        __m256 a = rk256_load(in + j * xs, xdt), b = rk256_load(in + (j + h) * xs, xdt);
        __m256 cp = rk256_load(c + j * cs, cdt), sp = rk256_load(s + j * cs, cdt);
        __m256 cr = shared ? cp : rk256_load(c + (j + h) * cs, cdt);
        __m256 sr = shared ? sp : rk256_load(s + (j + h) * cs, cdt);
        __m256 oa, ob;
        rk256_pair(dir, a, b, cp, sp, cr, sr, &oa, &ob);
        rk256_store(out + j * xs, oa, xdt);
        rk256_store(out + (j + h) * xs, ob, xdt);
    }
    rk_rot_pairs(in, xs, out, xs, c, cs, s, cs, j, h, ROPEKIT_ROTARY_HALF, coeffs, dir, xdt, cdt);
}

/* The coefficients of eight interleaved elements at k per vector, as
 * rk256d_interleave_coeffs: shared, eight pairs' fill two vectors. */
RK_INLINE void rk256_interleave_coeffs(const char *p, int64_t k, enum rk_coeffs coeffs,
                                       enum rk_kdtype cdt, __m256 v[2]) {
    if (coeffs == RK_COEFFS_SHARED)
        rk256_duplicate(rk256_load(p + RK_SHARED_COEFF_AT(k, RK_SIZE(cdt)), cdt), &v[0], &v[1]);
    else
        v[0] = rk256_load(p + k * RK_SIZE(cdt), cdt);
}

/* Interleaved pairs (2i, 2i + 1), h of them. */
RK_INLINE void rk256_interleave_pairs(const char *in, char *out, const char *c, const char *s,
                                      int64_t h, enum rk_coeffs coeffs, ropekit_direction dir,
                                      enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt), n = 2 * h;
    const int64_t step = coeffs == RK_COEFFS_SHARED ? 16 : 8; /* elements a coefficient load */
    if (xdt == RK_KDT_F64) {
        int64_t k = rk256d_interleave_blocks(in, out, c, s, h, coeffs, dir);
        rk_rot_pairs(in, xs, out, xs, c, cs, s, cs, k, h, ROPEKIT_ROTARY_INTERLEAVE, coeffs, dir,
                     xdt, cdt);
        return;
    }
    int64_t k = 0;
    /* bf16: a pair is one 32-bit word, so the split puts pair members in one lane: even
     * c[p], s[p], odd c[r], s[r] per member; shared, pair i's in lane i of both. n is not
     * negative, and against n rounded down to 16 GCC keeps the bound in a register (with
     * k + 16 <= n a 64-element row took 1-2% more instructions) */
    for (const int64_t full = n & ~(int64_t)15; xdt == RK_KDT_BF16 && k < full; k += 16) {
        __m256 a, b, ce, co, se, so, oa, ob;
        rk256_load_bf16_split(in + 2 * k, &a, &b);
        if (coeffs == RK_COEFFS_SHARED) {
            ce = co = rk256_load(c + RK_SHARED_COEFF_AT(k, cs), cdt);
            se = so = rk256_load(s + RK_SHARED_COEFF_AT(k, cs), cdt);
        } else {
            rk256_split_values(c + k * cs, cdt, &ce, &co);
            rk256_split_values(s + k * cs, cdt, &se, &so);
        }
        rk256_pair(dir, a, b, ce, se, co, so, &oa, &ob);
        rk256_store_bf16_split(out + 2 * k, oa, ob);
    }
    for (; k + step <= n; k += step) {
        __m256 cv[2], sv[2];
        rk256_interleave_coeffs(c, k, coeffs, cdt, cv);
        rk256_interleave_coeffs(s, k, coeffs, cdt, sv);
        for (int64_t u = 0; u < step; u += 8)
            rk256_store(
                out + (k + u) * xs,
                rk256_rotate_pairs(rk256_load(in + (k + u) * xs, xdt), cv[u / 8], sv[u / 8], dir),
                xdt);
    }
    rk_rot_pairs(in, xs, out, xs, c, cs, s, cs, k, h, ROPEKIT_ROTARY_INTERLEAVE, coeffs, dir, xdt,
                 cdt);
}

/* Interleaved pairs, h of them, with coefficients widened to fp32 per element (the row
 * and head drivers widen shared ones onto both members) and a sin with the sign of its
 * use, ss[2i] = -s[2i], ss[2i + 1] = s[2i + 1]: each output is then one add, equal to the
 * scalar result bit for bit (b*(-s) = -(b*s) exactly, x + (-y) is x - y; NaN results are
 * made canonical when stored). Forward v*c + swap(v)*ss, backward g*c + swap(g*ss). Pairs
 * left over use the original rows c0, s0 (dtype cdt, indexed per `coeffs`). */
RK_INLINE void rk256_interleave_signed(const char *in, char *out, const float *c, const float *ss,
                                       const char *c0, const char *s0, int64_t h,
                                       enum rk_coeffs coeffs, ropekit_direction dir,
                                       enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt), n = 2 * h;
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256 v = rk256_load(in + k * xs, xdt);
        __m256 sv = _mm256_loadu_ps(ss + k);
        __m256 p2 = dir == ROPEKIT_BACKWARD ? rk256_swap_pairs(_mm256_mul_ps(v, sv))
                                            : _mm256_mul_ps(rk256_swap_pairs(v), sv);
        rk256_store(out + k * xs, _mm256_add_ps(_mm256_mul_ps(v, _mm256_loadu_ps(c + k)), p2), xdt);
    }
    rk_rot_pairs(in, xs, out, xs, c0, cs, s0, cs, k, h, ROPEKIT_ROTARY_INTERLEAVE, coeffs, dir, xdt,
                 cdt);
}

#endif /* ROPEKIT_KERNELS_SIMD_PAIRS_AVX2_H_ */
