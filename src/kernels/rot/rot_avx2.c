/* The AVX2 (+F16C) partial-rotary kernels, every mode, direction and dtype pair, float64
 * included (contiguous rows only). Half, interleave and quarter rows run the pair loops
 * both families share (simd/pairs_avx2.h), each member with its own position's
 * coefficients; interleave-half's own loops are here. Full 8-lane blocks (4 for float64)
 * run in vectors; the pairs left over at the end of a row go through the scalar helpers,
 * so nothing is read or written past the row and results equal the scalar kernels bit for
 * bit. */
#include "kernels/kernel_list.h"
#include "kernels/simd/pairs_avx2.h"

/* float64 interleave-half, four doubles a vector, coefficients read as they are (never
 * widened): in place, the row is read from a copy in scratch, as outputs land on
 * positions later pairs still read; out of place (scratch NULL), from x. */
RK_INLINE void rk256d_rot_ihalf_row(const char *x, char *y, const char *c, const char *s,
                                    int64_t len, char *scratch, ropekit_direction dir) {
    const int64_t h = len / 2;
    const char *v = x;
    if (scratch)
        v = memcpy(scratch, x, (size_t)(8 * len));
    int64_t j = 0;
    for (; j + 4 <= h; j += 4) {
        __m256d cp = rk256d_load(c + 8 * j), sp = rk256d_load(s + 8 * j);
        __m256d cr = rk256d_load(c + 8 * (j + h)), sr = rk256d_load(s + 8 * (j + h));
        __m256d a, b, oa, ob;
        if (dir == ROPEKIT_BACKWARD) {
            __m256d lo, hi;
            rk256d_pair_backward(rk256d_load(v + 8 * j), rk256d_load(v + 8 * (j + h)), cp, sp, cr,
                                 sr, &oa, &ob);
            rk256d_interleave(oa, ob, &lo, &hi);
            rk256d_store(y + 16 * j, lo);
            rk256d_store(y + 16 * j + 32, hi);
        } else {
            rk256d_deinterleave(rk256d_load(v + 16 * j), rk256d_load(v + 16 * j + 32), &a, &b);
            rk256d_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
            rk256d_store(y + 8 * j, oa);
            rk256d_store(y + 8 * (j + h), ob);
        }
    }
    for (; j < h; j++) {
        const char *cp = c + 8 * j, *sp = s + 8 * j, *cr = c + 8 * (j + h), *sr = s + 8 * (j + h);
        if (dir == ROPEKIT_BACKWARD)
            rk_rotate_pair_f64(v + 8 * j, v + 8 * (j + h), y + 16 * j, y + 16 * j + 8, cp, sp, cr,
                               sr, ROPEKIT_BACKWARD);
        else
            rk_rotate_pair_f64(v + 16 * j, v + 16 * j + 8, y + 8 * j, y + 8 * (j + h), cp, sp, cr,
                               sr, ROPEKIT_FORWARD);
    }
}

/* Interleave-half: in place, the row is widened into scratch first because outputs land
 * on positions later pairs still need; out of place (v NULL) it is read from x. */
RK_INLINE void rk256_rot_ihalf_row(const char *x, char *y, const char *c, const char *s,
                                   int64_t len, float *v, ropekit_direction dir, enum rk_kdtype xdt,
                                   enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) {
        rk256d_rot_ihalf_row(x, y, c, s, len, (char *)v, dir);
        return;
    }
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt), h = len / 2;
    const char *row = x;
    enum rk_kdtype rdt = xdt; /* the row as read: x, or its widened copy */
    if (v) {
        int64_t k = 0;
        for (; k + 8 <= len; k += 8)
            _mm256_storeu_ps(v + k, rk256_load(x + k * xs, xdt));
        for (; k < len; k++)
            v[k] = rk_load_elem(x + k * xs, xdt);
        row = (const char *)v;
        rdt = RK_KDT_F32;
    }
    const int64_t rs = RK_SIZE(rdt);
    int64_t j = 0;
    for (; j + 8 <= h; j += 8) {
        __m256 cp = rk256_load(c + j * cs, cdt), sp = rk256_load(s + j * cs, cdt);
        __m256 cr = rk256_load(c + (j + h) * cs, cdt), sr = rk256_load(s + (j + h) * cs, cdt);
        __m256 oa, ob;
        if (dir == ROPEKIT_BACKWARD) {
            __m256 a = rk256_load(row + j * rs, rdt), b = rk256_load(row + (j + h) * rs, rdt);
            __m256 lo, hi;
            rk256_pair_backward(a, b, cp, sp, cr, sr, &oa, &ob);
            if (xdt == RK_KDT_BF16) { /* a pair is one 32-bit word: no lane shuffles */
                rk256_store_bf16_split(y + 2 * j * xs, oa, ob);
                continue;
            }
            rk256_interleave(oa, ob, &lo, &hi);
            rk256_store(y + 2 * j * xs, lo, xdt);
            rk256_store(y + (2 * j + 8) * xs, hi, xdt);
        } else {
            __m256 a, b;
            if (rdt == RK_KDT_BF16)
                rk256_load_bf16_split(row + 2 * j * rs, &a, &b);
            else
                rk256_deinterleave(rk256_load(row + 2 * j * rs, rdt),
                                   rk256_load(row + (2 * j + 8) * rs, rdt), &a, &b);
            rk256_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
            rk256_store(y + j * xs, oa, xdt);
            rk256_store(y + (j + h) * xs, ob, xdt);
        }
    }
    for (; j < h; j++) {
        float cp = rk_load_elem(c + j * cs, cdt), sp = rk_load_elem(s + j * cs, cdt);
        float cr = rk_load_elem(c + (j + h) * cs, cdt), sr = rk_load_elem(s + (j + h) * cs, cdt);
        float oa, ob;
        if (dir == ROPEKIT_BACKWARD) {
            rk_pair_backward(rk_load_elem(row + j * rs, rdt), rk_load_elem(row + (j + h) * rs, rdt),
                             cp, sp, cr, sr, &oa, &ob);
            rk_store_elem(y + 2 * j * xs, oa, xdt);
            rk_store_elem(y + (2 * j + 1) * xs, ob, xdt);
        } else {
            rk_pair_forward(rk_load_elem(row + 2 * j * rs, rdt),
                            rk_load_elem(row + (2 * j + 1) * rs, rdt), cp, sp, cr, sr, &oa, &ob);
            rk_store_elem(y + j * xs, oa, xdt);
            rk_store_elem(y + (j + h) * xs, ob, xdt);
        }
    }
}

/* A broadcast cos/sin row is widened once (rot/rot_rows.h); interleave also gets the sin
 * with the sign of its use, ss[2i] = -s[2i], ss[2i + 1] = s[2i + 1], so each output is one
 * add, equal to the scalar result bit for bit (b*(-s) = -(b*s) exactly, x + (-y) is
 * x - y; NaN results are made canonical when stored). */
RK_INLINE void rk256_widen_row(const char *src, float *dst, int64_t len, int negate_even,
                               enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m256 even_sign = _mm256_castsi256_ps(_mm256_setr_epi32(
        (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0));
    int64_t k = 0;
    for (; k + 8 <= len; k += 8) {
        __m256 v = rk256_load(src + k * cs, cdt);
        _mm256_storeu_ps(dst + k, negate_even ? _mm256_xor_ps(v, even_sign) : v);
    }
    for (; k < len; k++) {
        const float v = rk_load_elem(src + k * cs, cdt);
        dst[k] = negate_even && k % 2 == 0 ? -v : v;
    }
}

/* Widening pays for f16/bf16 coefficients and for the signed sin of fp32 interleave
 * backward; bf16 x keeps its split-lane loads of the original row, fp32 interleave
 * forward its vaddsubps, and float64 its own coefficients. */
RK_INLINE int rk256_rot_hoist_wanted(ropekit_rotary_mode mode, ropekit_direction dir, int split,
                                     enum rk_kdtype xdt, enum rk_kdtype cdt) {
    (void)split;
    return xdt != RK_KDT_BF16 && xdt != RK_KDT_F64 &&
           (cdt != RK_KDT_F32 || (mode == ROPEKIT_ROTARY_INTERLEAVE && dir == ROPEKIT_BACKWARD));
}

#define RKV(name) rk256_##name
#define RKV_IHALF_FROM_X 1
#define RKV_HOIST_ALIGN _Alignof(float)
#include "kernels/rot/rot_rows.h"

#define RK_DEFINE_ROT_AVX2(isa, name, mode, direction, xdt, cdt)                                   \
    RK_KERNEL void name(const struct rk_rot_rows *a) {                                             \
        if (a->y == a->x)                                                                          \
            rk256_rot_rows(a, mode, direction, xdt, cdt, 1);                                       \
        else                                                                                       \
            rk256_rot_rows(a, mode, direction, xdt, cdt, 0);                                       \
    }
RK_ROT_KERNELS_AVX2(RK_DEFINE_ROT_AVX2)
