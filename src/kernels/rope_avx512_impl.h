/* AVX-512 loops of the rope kernels (heads contiguous, coefficients contiguous). */
#ifndef ROPEKIT_KERNELS_ROPE_AVX512_IMPL_H_
#define ROPEKIT_KERNELS_ROPE_AVX512_IMPL_H_

#include <string.h>

#include "kernels/simd_avx512.h"
#include "kernels/rope_kernel.h"

#define RK_DT_f32 RK_KDT_F32
#define RK_DT_f16 RK_KDT_F16
#define RK_DT_bf16 RK_KDT_BF16
#define RK_SIZE(dt) ((dt) == RK_KDT_F32 ? 4 : 2)

RK_INLINE void rk512_rope_rows(const struct rk_rope_rows *a, int gptj, enum rk_kdtype xdt,
                               enum rk_kdtype cdt) {
    const int64_t h = a->half, xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    const __m512i dup = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    for (int64_t head = 0; head < a->heads; head++) {
        const char *in = a->in + head * a->in_head;
        char *out = a->out + head * a->out_head;
        if (!gptj) {
            for (int64_t j = 0; j < h; j += 16) {
                __mmask16 m = rk512_mask(h - j);
                __m512 xa = rk512_load(in + j * xs, xdt, m);
                __m512 xb = rk512_load(in + (j + h) * xs, xdt, m);
                __m512 c = rk512_load(a->cos + j * cs, cdt, m);
                __m512 s = rk512_load(a->sin + j * cs, cdt, m);
                __m512 oa, ob;
                rk512_pair_forward(xa, xb, c, s, c, s, &oa, &ob);
                rk512_store(out + j * xs, oa, xdt, m);
                rk512_store(out + (j + h) * xs, ob, xdt, m);
            }
        } else {
            for (int64_t k = 0; k < 2 * h; k += 16) {
                __mmask16 m = rk512_mask(2 * h - k);
                __mmask16 mc = rk512_mask((2 * h - k) / 2 < 8 ? (2 * h - k) / 2 : 8);
                __m512 v = rk512_load(in + k * xs, xdt, m);
                __m512 c = _mm512_permutexvar_ps(dup, rk512_load(a->cos + k / 2 * cs, cdt, mc));
                __m512 s = _mm512_permutexvar_ps(dup, rk512_load(a->sin + k / 2 * cs, cdt, mc));
                __m512 p1 = _mm512_mul_ps(v, c);
                __m512 p2 = _mm512_mul_ps(rk512_swap_pairs(v), s);
                rk512_store(out + k * xs, rk512_sub_even_add_odd(p1, p2), xdt, m);
            }
        }
        if (out != in && a->head_size > 2 * h)
            memcpy(out + 2 * h * xs, in + 2 * h * xs, (size_t)((a->head_size - 2 * h) * xs));
    }
}

#define RK_DEFINE_ROPE_AVX512(style_name, style_id, xd, cd)                                        \
    void rk_rope_##style_name##_##xd##cd##__avx512(const struct rk_rope_rows *a) {                 \
        rk512_rope_rows(a, style_id, RK_DT_##xd, RK_DT_##cd);                                      \
    }

#endif /* ROPEKIT_KERNELS_ROPE_AVX512_IMPL_H_ */
