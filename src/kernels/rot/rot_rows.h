/* The row driver of the SIMD partial-rotary kernels, one shape for AVX2 and AVX-512:
 * rows that share one cos/sin row (a broadcast over heads) get it widened once into fp32
 * on the stack, rows ahead are prefetched, and each row goes from x to y (the same rows in
 * place) through its mode's row function.
 * rot_avx2.c and rot_avx512.c include it after defining RKV(name) (their prefix, rk256_
 * or rk512_), RKV_HOIST_ALIGN (the alignment of the widened rows), RKV_IHALF_FROM_X (1:
 * its interleave-half row reads x itself out of place, given no scratch) and the
 * functions listed below. With RKV_ROT_BF16_SPLIT (AVX-512), bf16 x in half, interleave
 * and quarter mode runs on split lanes, and its broadcast row is widened split alike. */
#ifndef ROPEKIT_KERNELS_ROT_ROT_ROWS_H_
#define ROPEKIT_KERNELS_ROT_ROT_ROWS_H_

#include <stddef.h>

#include "kernels/prefetch.h"
#include "kernels/rot_kernel.h"
#include "kernels/simd/elem.h"

#if !defined(RKV) || !defined(RKV_HOIST_ALIGN) || !defined(RKV_IHALF_FROM_X)
#error "define RKV(name), RKV_HOIST_ALIGN and RKV_IHALF_FROM_X before including rot/rot_rows.h"
#endif

#define RK_ROT_HOIST_MAX 1024

/* The functions the including ISA provides: its pair loops (simd/pairs_avx2.h,
 * simd/pairs_avx512.h), which partial rotary runs with per-member coefficients, and its
 * own widening and interleave-half. */
#define rkv_rot_hoist_wanted RKV(rot_hoist_wanted)
#define rkv_widen_row RKV(widen_row)
#define rkv_half_pairs RKV(half_pairs)
#define rkv_interleave_pairs RKV(interleave_pairs)
#define rkv_interleave_signed RKV(interleave_signed)
#define rkv_rot_ihalf_row RKV(rot_ihalf_row)
#if defined(RKV_ROT_BF16_SPLIT)
#define rkv_split_run RKV(split_run)
#define rkv_half_bf16_pairs RKV(half_bf16_pairs)
#define rkv_interleave_bf16_pairs RKV(interleave_bf16_pairs)
#endif

/* Split coefficients (AVX-512 bf16 x): the row's runs, interleave 1 of len, half 2 of
 * len / 2, quarter 4 of len / 4, each widened at a multiple of its length rounded up to
 * 32. */
static inline int64_t rk_rot_split_runs(ropekit_rotary_mode mode) {
    return mode == ROPEKIT_ROTARY_INTERLEAVE ? 1 : mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
}

/* The rows, each from x to y through its mode's row function. `inplace`, `hoist` and
 * `prefetch` are constants of each call, so each combination gets its own loop, with
 * nothing of the others in it: in place, one pointer for x and y, as before out of place
 * existed (told two pointers, GCC keeps both live and reloads: +9% instructions for bf16
 * interleave rows of 64); hoisted, the widened rows cf, sf and their dtype are constants
 * (a dtype chosen per call left a dtype test and a spill in interleave-half's pair loop);
 * without prefetch, no prefetch state is live across the rows (it was spilled, and the
 * row pointers with it). With the three as variables, P1 (callgrind, AVX2, 1 thread,
 * f16) took 22.4k instructions a call in interleave-half and 14.4k in half mode; as
 * constants, 19.1k and 13.0k. */
RK_INLINE void RKV(rot_row_loop)(const struct rk_rot_rows *a, ropekit_rotary_mode mode,
                                 ropekit_direction dir, enum rk_kdtype xdt, enum rk_kdtype cdt,
                                 int inplace, int hoist, int prefetch, const float *cf,
                                 const float *sf) {
    /* A copy: the rows' stores through char pointers may alias *a as far as the compiler
     * knows, which made it load a's fields again after every row. */
    const struct rk_rot_rows rw = *a;
    const int64_t len = rw.len, xs = RK_SIZE(xdt);
#if defined(RKV_ROT_BF16_SPLIT)
    const int split = xdt == RK_KDT_BF16 && mode != ROPEKIT_ROTARY_INTERLEAVE_HALF;
    const int64_t runs = rk_rot_split_runs(mode), run = len / runs;
    const int64_t run32 = (run + 31) / 32 * 32;
    const float *hc = hoist ? cf : NULL, *hs = hoist ? sf : NULL;
#else
    const int split = 0;
#endif
    const enum rk_kdtype kdt = hoist && !split ? RK_KDT_F32 : cdt;
    const int64_t cs = RK_SIZE(kdt);
    const int64_t ahead = prefetch ? rk_prefetch_rows_ahead(rw.x_row) : 0;
    for (int64_t row = 0; row < rw.rows; row++) {
        const char *x = rw.x + row * rw.x_row;
        char *y = inplace ? (char *)x : rw.y + row * rw.y_row;
        if (ahead) {
            rk_prefetch_row(x, rw.x_row, ahead, len * xs);
            if (!inplace && !rw.y_cached) /* out of place: the output rows too */
                rk_prefetch_row(y, rw.y_row, ahead, len * xs);
        }
        const char *c = hoist ? (const char *)cf : rw.cos + row * rw.c_row;
        const char *s = hoist ? (const char *)sf : rw.sin + row * rw.s_row;
#if defined(RKV_ROT_BF16_SPLIT)
        if (split && mode == ROPEKIT_ROTARY_INTERLEAVE) {
            rkv_interleave_bf16_pairs(x, y, c, s, hc, hs, len, RK_COEFFS_PER_MEMBER, dir, cdt);
            continue;
        }
        if (split) { /* half: one rotate-half of run; quarter: two */
            for (int64_t part = 0; part < runs / 2; part++) {
                rkv_half_bf16_pairs(
                    x + 2 * part * run * xs, y + 2 * part * run * xs, c + 2 * part * run * cs,
                    s + 2 * part * run * cs, hc ? hc + 2 * part * run32 : NULL,
                    hs ? hs + 2 * part * run32 : NULL, run, run32, RK_COEFFS_PER_MEMBER, dir, cdt);
            }
            continue;
        }
#endif
        if (mode == ROPEKIT_ROTARY_HALF) {
            rkv_half_pairs(x, y, c, s, len / 2, RK_COEFFS_PER_MEMBER, dir, xdt, kdt);
        } else if (mode == ROPEKIT_ROTARY_INTERLEAVE && hoist) {
            rkv_interleave_signed(x, y, cf, sf, rw.cos, rw.sin, len / 2, RK_COEFFS_PER_MEMBER, dir,
                                  xdt, cdt);
        } else if (mode == ROPEKIT_ROTARY_INTERLEAVE) {
            rkv_interleave_pairs(x, y, c, s, len / 2, RK_COEFFS_PER_MEMBER, dir, xdt, kdt);
        } else if (mode == ROPEKIT_ROTARY_QUARTER) {
            const int64_t q = len / 4;
            rkv_half_pairs(x, y, c, s, q, RK_COEFFS_PER_MEMBER, dir, xdt, kdt);
            rkv_half_pairs(x + 2 * q * xs, y + 2 * q * xs, c + 2 * q * cs, s + 2 * q * cs, q,
                           RK_COEFFS_PER_MEMBER, dir, xdt, kdt);
        } else {
            rkv_rot_ihalf_row(x, y, c, s, len, inplace || !RKV_IHALF_FROM_X ? rw.scratch : NULL,
                              dir, xdt, kdt);
        }
    }
}

/* The loop for a call's prefetch request. */
RK_INLINE void RKV(rot_row_loops)(const struct rk_rot_rows *a, ropekit_rotary_mode mode,
                                  ropekit_direction dir, enum rk_kdtype xdt, enum rk_kdtype cdt,
                                  int inplace, int hoist, const float *cf, const float *sf) {
    if (a->prefetch)
        RKV(rot_row_loop)(a, mode, dir, xdt, cdt, inplace, hoist, 1, cf, sf);
    else
        RKV(rot_row_loop)(a, mode, dir, xdt, cdt, inplace, hoist, 0, cf, sf);
}

/* The kernel body: `inplace` (a constant of each call) says y is x. */
RK_INLINE void RKV(rot_rows)(const struct rk_rot_rows *a, ropekit_rotary_mode mode,
                             ropekit_direction dir, enum rk_kdtype xdt, enum rk_kdtype cdt,
                             int inplace) {
    const int64_t len = a->len;
#if defined(RKV_ROT_BF16_SPLIT)
    const int split = xdt == RK_KDT_BF16 && mode != ROPEKIT_ROTARY_INTERLEAVE_HALF;
#else
    const int split = 0;
#endif
    if (!(a->rows > 1 && a->c_row == 0 && a->s_row == 0 && len <= RK_ROT_HOIST_MAX &&
          rkv_rot_hoist_wanted(mode, dir, split, xdt, cdt))) {
        RKV(rot_row_loops)(a, mode, dir, xdt, cdt, inplace, 0, NULL, NULL);
        return;
    }
    _Alignas(RKV_HOIST_ALIGN) float cf[RK_ROT_HOIST_MAX];
    _Alignas(RKV_HOIST_ALIGN) float sf[RK_ROT_HOIST_MAX];
    if (split) {
#if defined(RKV_ROT_BF16_SPLIT)
        const int64_t runs = rk_rot_split_runs(mode), run = len / runs;
        const int64_t run32 = (run + 31) / 32 * 32, cs_in = RK_SIZE(cdt);
        for (int64_t r = 0; r < runs; r++) {
            rkv_split_run(a->cos + r * run * cs_in, run, cdt, cf + r * run32);
            rkv_split_run(a->sin + r * run * cs_in, run, cdt, sf + r * run32);
        }
#endif
    } else {
        rkv_widen_row(a->cos, cf, len, 0, cdt);
        rkv_widen_row(a->sin, sf, len, mode == ROPEKIT_ROTARY_INTERLEAVE, cdt);
    }
    RKV(rot_row_loops)(a, mode, dir, xdt, cdt, inplace, 1, cf, sf);
}

#endif /* ROPEKIT_KERNELS_ROT_ROT_ROWS_H_ */
