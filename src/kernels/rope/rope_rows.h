/* The head driver of the SIMD rope kernels, one shape for AVX2 and AVX-512: coefficients
 * shared by every head of a call are widened once into fp32 on the stack (for GPT-J
 * duplicated onto both pair members, the sin signed as used), heads ahead are
 * prefetched, each head goes to its style's head function, and out of place the
 * pass-through part is copied. rope_avx2.c and rope_avx512.c include it after defining
 * RKV(name) (their prefix, rk256_ or rk512_), RKV_HOIST_ALIGN (the alignment of the
 * widened coefficients) and the functions listed below. With RKV_ROPE_BF16_SPLIT
 * (AVX-512), bf16 x runs on split lanes with widened coefficients too. */
#ifndef ROPEKIT_KERNELS_ROPE_ROPE_ROWS_H_
#define ROPEKIT_KERNELS_ROPE_ROPE_ROWS_H_

#include <string.h>

#include "kernels/prefetch.h"
#include "kernels/rope_kernel.h"
#include "kernels/simd/elem.h"

#if !defined(RKV) || !defined(RKV_HOIST_ALIGN)
#error "define RKV(name) and RKV_HOIST_ALIGN before including rope/rope_rows.h"
#endif

#define RK_ROPE_HOIST_MAX 512

/* The functions the including ISA provides: its pair loops (simd/pairs_avx2.h,
 * simd/pairs_avx512.h), which rope runs with shared coefficients (NeoX heads as
 * rotate-half pairs, GPT-J heads as interleaved ones, always forward), and its own
 * widening. */
#define rkv_rope_hoist_wanted RKV(rope_hoist_wanted)
#define rkv_rope_widen RKV(rope_widen)
#define rkv_half_pairs RKV(half_pairs)
#define rkv_interleave_pairs RKV(interleave_pairs)
#define rkv_interleave_signed RKV(interleave_signed)
#if defined(RKV_ROPE_BF16_SPLIT)
#define rkv_split_to_f32 RKV(split_to_f32)
#define rkv_half_bf16_pairs RKV(half_bf16_pairs)
#define rkv_interleave_bf16_pairs RKV(interleave_bf16_pairs)
#endif

RK_INLINE void RKV(rope_rows)(const struct rk_rope_rows *a, enum rk_rope_style style,
                              enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t h = a->half, xs = RK_SIZE(xdt);
    const int gptj = style == RK_ROPE_GPTJ;
    const int hoist =
        a->heads > 1 && h <= RK_ROPE_HOIST_MAX && rkv_rope_hoist_wanted(style, xdt, cdt);
    _Alignas(RKV_HOIST_ALIGN) float cf[2 * RK_ROPE_HOIST_MAX];
    _Alignas(RKV_HOIST_ALIGN) float sf[2 * RK_ROPE_HOIST_MAX];
#if defined(RKV_ROPE_BF16_SPLIT)
    const int split = xdt == RK_KDT_BF16;
#else
    const int split = 0;
#endif
    const int dup = gptj && !split;
    if (hoist && split && !gptj) {
#if defined(RKV_ROPE_BF16_SPLIT)
        for (int64_t j = 0; j < h; j += 32) {
            rkv_split_to_f32(a->cos + j * RK_SIZE(cdt), h - j, cdt, cf + j);
            rkv_split_to_f32(a->sin + j * RK_SIZE(cdt), h - j, cdt, sf + j);
        }
#endif
    } else if (hoist) {
        rkv_rope_widen(a->cos, a->sin, cf, sf, h, dup, cdt);
    }
    /* Out of place, whole heads are read (the pass-through is copied) and written. */
    const int64_t used = (a->in == a->out ? 2 * h : a->head_size) * xs;
    const int64_t ahead = a->prefetch ? rk_prefetch_rows_ahead(a->in_head) : 0;
    for (int64_t head = 0; head < a->heads; head++) {
        const char *in = a->in + head * a->in_head;
        char *out = a->out + head * a->out_head;
        if (ahead) {
            rk_prefetch_row(in, a->in_head, ahead, used);
            if (out != in)
                rk_prefetch_row(out, a->out_head, ahead, used);
        }
        const enum rk_coeffs sh = RK_COEFFS_SHARED;
        const ropekit_direction fwd = ROPEKIT_FORWARD;
        if (hoist && split && gptj) {
#if defined(RKV_ROPE_BF16_SPLIT)
            rkv_interleave_bf16_pairs(in, out, a->cos, a->sin, cf, sf, 2 * h, sh, fwd, cdt);
#endif
        } else if (hoist && split) {
#if defined(RKV_ROPE_BF16_SPLIT)
            rkv_half_bf16_pairs(in, out, a->cos, a->sin, cf, sf, h, 0, sh, fwd, cdt);
#endif
        } else if (hoist && gptj)
            rkv_interleave_signed(in, out, cf, sf, a->cos, a->sin, h, sh, fwd, xdt, cdt);
        else if (hoist)
            rkv_half_pairs(in, out, (const char *)cf, (const char *)sf, h, sh, fwd, xdt,
                           RK_KDT_F32);
        else if (gptj)
            rkv_interleave_pairs(in, out, a->cos, a->sin, h, sh, fwd, xdt, cdt);
        else
            rkv_half_pairs(in, out, a->cos, a->sin, h, sh, fwd, xdt, cdt);
        if (out != in && a->head_size > 2 * h)
            memcpy(out + 2 * h * xs, in + 2 * h * xs, (size_t)((a->head_size - 2 * h) * xs));
    }
}

#endif /* ROPEKIT_KERNELS_ROPE_ROPE_ROWS_H_ */
