/* Out-of-place rope whose outputs exceed the last-level cache writes them with
 * non-temporal stores through an L1 scratch (kernels/stream_store.h). With the threshold
 * lowered, small problems take that path: the bytes must equal the ordinary path's, for
 * every style, dtype pair, rotary dim (pass-through columns), GQA and thread count. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/stream_store.h"
#include "testkit/rng.h"
#include "ropekit/ropekit.h"

struct shape {
    int64_t tokens, q_heads, k_heads, head_size, rot_dim;
};

/* Runs one case out of place and returns the outputs (q then k). */
static uint8_t *run(const struct shape *s, ropekit_dtype xd, ropekit_dtype cd, int style,
                    const uint8_t *q, const uint8_t *k, const uint8_t *cache, const int64_t *pos) {
    const size_t xs = ropekit_dtype_size(xd);
    const int64_t qn = s->tokens * s->q_heads * s->head_size,
                  kn = s->tokens * s->k_heads * s->head_size;
    uint8_t *out = malloc((size_t)(qn + kn) * xs + 64);
    assert_non_null(out);
    memset(out, 0x5a, (size_t)(qn + kn) * xs + 64);
    int64_t ps[1] = {s->tokens}, qs[3] = {s->tokens, s->q_heads, s->head_size},
            ks[3] = {s->tokens, s->k_heads, s->head_size}, cs[2] = {64, s->rot_dim};
    ropekit_tensor P = ropekit_tensor_make((void *)pos, ROPEKIT_I64, 1, ps, NULL);
    ropekit_tensor Q = ropekit_tensor_make((void *)q, xd, 3, qs, NULL);
    ropekit_tensor K = ropekit_tensor_make((void *)k, xd, 3, ks, NULL);
    ropekit_tensor C = ropekit_tensor_make((void *)cache, cd, 2, cs, NULL);
    ropekit_tensor QO = ropekit_tensor_make(out, xd, 3, qs, NULL);
    ropekit_tensor KO = ropekit_tensor_make(out + (size_t)qn * xs, xd, 3, ks, NULL);
    ropekit_rope_config cfg = {s->head_size, (ropekit_rope_style)style, NULL, 0, 0, NULL};
    assert_int_equal(ropekit_rope(&P, &Q, &K, &C, &QO, &KO, &cfg), ROPEKIT_OK);
    return out;
}

static void test_streamed_outputs_equal_plain_ones(void **state) {
    (void)state;
    static const struct shape shapes[] = {
        {37, 8, 2, 128, 128}, {19, 4, 4, 64, 32}, {8, 3, 1, 96, 64}, {5, 2, 1, 4096, 64}};
    static const ropekit_dtype pairs[][2] = {{ROPEKIT_F32, ROPEKIT_F32},
                                             {ROPEKIT_F16, ROPEKIT_F16},
                                             {ROPEKIT_BF16, ROPEKIT_BF16},
                                             {ROPEKIT_BF16, ROPEKIT_F32}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
        for (size_t pi = 0; pi < 4; pi++)
            for (int style = 0; style < 2; style++)
                for (int threads = 1; threads <= 3; threads++) {
                    const struct shape *s = &shapes[si];
                    const ropekit_dtype xd = pairs[pi][0], cd = pairs[pi][1];
                    const size_t xs = ropekit_dtype_size(xd), cs = ropekit_dtype_size(cd);
                    const int64_t qn = s->tokens * s->q_heads * s->head_size;
                    const int64_t kn = s->tokens * s->k_heads * s->head_size;
                    uint8_t *q = malloc((size_t)qn * xs), *k = malloc((size_t)kn * xs);
                    uint8_t *cache = malloc((size_t)(64 * s->rot_dim) * cs);
                    int64_t *pos = malloc((size_t)s->tokens * sizeof *pos);
                    assert_true(q && k && cache && pos);
                    tk_fill_finite_bytes(q, (size_t)qn * xs, 1u + (uint32_t)si);
                    tk_fill_finite_bytes(k, (size_t)kn * xs, 7u + (uint32_t)pi);
                    assert_int_equal(
                        ropekit_cos_sin_cache_build(cache, cd, 64, s->rot_dim, 10000.0, NULL),
                        ROPEKIT_OK);
                    for (int64_t t = 0; t < s->tokens; t++)
                        pos[t] = (5 * t + 3) % 64;
                    assert_int_equal(ropekit_set_num_threads(threads), ROPEKIT_OK);
                    rk_stream_threshold_set(-1);
                    uint8_t *plain = run(s, xd, cd, style, q, k, cache, pos);
                    rk_stream_threshold_set(0); /* every out-of-place output streams */
                    uint8_t *streamed = run(s, xd, cd, style, q, k, cache, pos);
                    rk_stream_threshold_set(-1);
                    assert_memory_equal(plain, streamed, (size_t)(qn + kn) * xs + 64);
                    free(plain);
                    free(streamed);
                    free(q);
                    free(k);
                    free(cache);
                    free(pos);
                }
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

/* The copy itself: every length and alignment around the 16-byte and 64-byte steps. */
static void test_stream_copy_every_length_and_alignment(void **state) {
    (void)state;
    uint8_t src[512], dst[600], want[600];
    tk_fill_finite_bytes(src, sizeof src, 3);
    for (size_t off = 0; off < 40; off++)
        for (size_t n = 0; n <= 300; n++) {
            memset(dst, 0xcc, sizeof dst);
            memset(want, 0xcc, sizeof want);
            memcpy(want + off, src + (off % 7), n);
            rk_stream_copy(dst + off, src + (off % 7), n);
            rk_stream_fence();
            assert_memory_equal(dst, want, sizeof dst);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streamed_outputs_equal_plain_ones),
        cmocka_unit_test(test_stream_copy_every_length_and_alignment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
