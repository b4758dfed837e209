/* Out-of-place partial rotary whose output exceeds the last-level cache computes whole
 * rows into an L1 scratch and streams them out (kernels/stream_store.h). With the
 * threshold lowered, small problems take that path: out must hold the same bytes as on
 * the ordinary path, and as the in-place call leaves in a copy of x, for every mode,
 * direction, dtype pair, slice (pass-through columns), out row stride (dense or padded),
 * row length (several rows a pass, or one) and thread count. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/stream_store.h"
#include "testkit/rng.h"
#include "ropekit/ropekit.h"

struct pr_case {
    int64_t b, s, n, d, start, end;
    int64_t out_pad; /* elements after each out row (0: out dense) */
};

#define GUARD 64

/* out of x's shape, each row c->d + c->out_pad elements apart, filled with 0x5a. */
static uint8_t *out_alloc(const struct pr_case *c, size_t xs, size_t *bytes) {
    *bytes = (size_t)(c->b * c->s * c->n * (c->d + c->out_pad)) * xs + GUARD;
    uint8_t *out = malloc(*bytes);
    assert_non_null(out);
    memset(out, 0x5a, *bytes);
    return out;
}

static ropekit_tensor out_tensor(const struct pr_case *c, ropekit_dtype xd, uint8_t *data) {
    const int64_t row = c->d + c->out_pad;
    int64_t shape[4] = {c->b, c->s, c->n, c->d};
    int64_t strides[4] = {c->s * c->n * row, c->n * row, row, 1};
    return ropekit_tensor_make(data, xd, 4, shape, strides);
}

static void check_case(const struct pr_case *c, ropekit_dtype xd, ropekit_dtype cd,
                       ropekit_rotary_mode mode, ropekit_direction dir, uint32_t seed) {
    const size_t xs = ropekit_dtype_size(xd), cs = ropekit_dtype_size(cd);
    const int64_t len = c->end - c->start, xn = c->b * c->s * c->n * c->d, cn = c->s * len;
    uint8_t *x = malloc((size_t)xn * xs), *cosv = malloc((size_t)cn * cs);
    uint8_t *sinv = malloc((size_t)cn * cs), *inplace = malloc((size_t)xn * xs);
    assert_true(x && cosv && sinv && inplace);
    tk_fill_finite_bytes(x, (size_t)xn * xs, seed);
    tk_fill_finite_bytes(cosv, (size_t)cn * cs, seed + 11u);
    tk_fill_finite_bytes(sinv, (size_t)cn * cs, seed + 23u);
    memcpy(inplace, x, (size_t)xn * xs);
    int64_t xshape[4] = {c->b, c->s, c->n, c->d}, cshape[4] = {1, c->s, 1, len};
    ropekit_tensor X = ropekit_tensor_make(x, xd, 4, xshape, NULL);
    ropekit_tensor XI = ropekit_tensor_make(inplace, xd, 4, xshape, NULL);
    ropekit_tensor C = ropekit_tensor_make(cosv, cd, 4, cshape, NULL);
    ropekit_tensor S = ropekit_tensor_make(sinv, cd, 4, cshape, NULL);
    size_t bytes;
    uint8_t *plain = out_alloc(c, xs, &bytes), *streamed = out_alloc(c, xs, &bytes);
    ropekit_tensor OP = out_tensor(c, xd, plain), OS = out_tensor(c, xd, streamed);

    rk_stream_threshold_set(INT64_MAX);
    assert_int_equal(ropekit_partial_rotary_out(&X, &C, &S, &OP, mode, c->start, c->end, dir),
                     ROPEKIT_OK);
    rk_stream_threshold_set(0); /* every out-of-place output streams */
    ropekit_plan *plan = NULL;
    assert_int_equal(
        ropekit_partial_rotary_out_plan_create(&X, &C, &S, &OS, mode, c->start, c->end, dir, &plan),
        ROPEKIT_OK);
    char desc[512];
    ropekit_plan_describe(plan, desc, sizeof desc);
    assert_non_null(strstr(desc, "stream-out"));
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, x, cosv, sinv, streamed), ROPEKIT_OK);
    ropekit_plan_destroy(plan);
    rk_stream_threshold_set(-1);
    assert_memory_equal(plain, streamed, bytes);

    /* and both equal the in-place call's rows */
    assert_int_equal(ropekit_partial_rotary(&XI, &C, &S, mode, c->start, c->end, dir), ROPEKIT_OK);
    const int64_t rows = c->b * c->s * c->n;
    for (int64_t r = 0; r < rows; r++)
        assert_memory_equal(streamed + (size_t)(r * (c->d + c->out_pad)) * xs,
                            inplace + (size_t)(r * c->d) * xs, (size_t)c->d * xs);
    free(plain);
    free(streamed);
    free(x);
    free(cosv);
    free(sinv);
    free(inplace);
}

static void test_streamed_rows_equal_plain_and_in_place_ones(void **state) {
    (void)state;
    static const struct pr_case cases[] = {
        {2, 9, 4, 64, 0, 64, 0},     /* whole rows, several a pass */
        {1, 7, 3, 128, 32, 96, 0},   /* pass-through on both sides */
        {2, 5, 2, 96, 0, 48, 5},     /* padded out rows: one copy a row */
        {1, 3, 2, 2048, 0, 1024, 0}, /* f32 rows of 8 KiB: one row a pass */
        {1, 37, 5, 40, 8, 40, 0},    /* tails of the vector loops */
    };
    static const ropekit_dtype pairs[][2] = {{ROPEKIT_F32, ROPEKIT_F32},
                                             {ROPEKIT_F16, ROPEKIT_F16},
                                             {ROPEKIT_BF16, ROPEKIT_BF16},
                                             {ROPEKIT_BF16, ROPEKIT_F32},
                                             {ROPEKIT_F64, ROPEKIT_F64}};
    uint32_t seed = 1;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
        for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++)
            for (int mode = 0; mode <= ROPEKIT_ROTARY_INTERLEAVE_HALF; mode++)
                for (int dir = 0; dir <= ROPEKIT_BACKWARD; dir++) {
                    const struct pr_case *c = &cases[ci];
                    const int64_t len = c->end - c->start;
                    if (len % (mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2) != 0)
                        continue;
                    if (ropekit_dtype_size(pairs[pi][0]) * (size_t)c->d > 8192)
                        continue; /* rows longer than the scratch are not streamed */
                    int threads = 1 + (int)(seed % 3);
                    assert_int_equal(ropekit_set_num_threads(threads), ROPEKIT_OK);
                    check_case(c, pairs[pi][0], pairs[pi][1], (ropekit_rotary_mode)mode,
                               (ropekit_direction)dir, seed++);
                }
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streamed_rows_equal_plain_and_in_place_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
