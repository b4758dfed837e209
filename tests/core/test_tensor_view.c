/* Shape/stride arithmetic: element counts, byte spans, overflow and self-overlap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/tensor_view.h"

static ropekit_tensor make(int nd, const int64_t *shape, const int64_t *strides) {
    return ropekit_tensor_make(NULL, ROPEKIT_F32, nd, shape, strides);
}

static void test_contiguous_strides(void **state) {
    (void)state;
    int64_t shape[4] = {2, 3, 4, 5};
    ropekit_tensor t = make(4, shape, NULL);
    assert_int_equal(t.strides[0], 60);
    assert_int_equal(t.strides[3], 1);
    assert_int_equal(rk_tensor_numel(&t), 120);
    struct rk_span s = rk_tensor_span(&t);
    assert_int_equal(s.lo, 0);
    assert_int_equal(s.hi, 480);
    assert_false(rk_tensor_self_overlaps(&t));
}

static void test_negative_and_zero_strides(void **state) {
    (void)state;
    int64_t shape[2] = {3, 4}, neg[2] = {-4, 1}, bcast[2] = {0, 1}, one[2] = {0, 1};
    ropekit_tensor t = make(2, shape, neg);
    struct rk_span s = rk_tensor_span(&t);
    assert_int_equal(s.lo, -32);
    assert_int_equal(s.hi, 16);
    assert_false(rk_tensor_self_overlaps(&t));
    t = make(2, shape, bcast);
    assert_true(rk_tensor_self_overlaps(&t));
    int64_t shape1[2] = {1, 4};
    t = make(2, shape1, one); /* a size-1 dim's stride never matters */
    assert_false(rk_tensor_self_overlaps(&t));
}

static void test_overlapping_views(void **state) {
    (void)state;
    int64_t shape[2] = {4, 8}, rows_overlap[2] = {4, 1}, transposed[2] = {1, 4},
            gapped[2] = {16, 2};
    ropekit_tensor t = make(2, shape, rows_overlap);
    assert_true(rk_tensor_self_overlaps(&t)); /* rows of 8 every 4 elements */
    t = make(2, shape, transposed);           /* column-major: distinct addresses */
    assert_false(rk_tensor_self_overlaps(&t));
    t = make(2, shape, gapped);
    assert_false(rk_tensor_self_overlaps(&t));
}

/* Dims that do not nest are decided element by element: a legal interleaved view used to
 * be refused as overlapping. */
static void test_interleaved_views(void **state) {
    (void)state;
    int64_t shape[2] = {3, 2}, interleaved[2] = {2, 3}, colliding[2] = {2, 2};
    ropekit_tensor t = make(2, shape, interleaved); /* 0 3 2 5 4 7: distinct */
    assert_false(rk_tensor_self_overlaps(&t));
    int64_t negative[2] = {-2, 3};
    t = make(2, shape, negative);
    assert_false(rk_tensor_self_overlaps(&t));
    t = make(2, shape, colliding); /* 0 2 2 4 4 6 */
    assert_true(rk_tensor_self_overlaps(&t));
    int64_t shape3[3] = {5, 3, 2}, strides3[3] = {12, 2, 3}; /* [3,2] blocks 12 apart */
    t = make(3, shape3, strides3);
    assert_false(rk_tensor_self_overlaps(&t));
    strides3[0] = 5; /* blocks of span 8 every 5: the 2nd block's 5 is the 1st's 5 */
    t = make(3, shape3, strides3);
    assert_true(rk_tensor_self_overlaps(&t));
    /* nested dims are decided at once, whatever the size */
    int64_t wide[2] = {1 << 11, 1 << 10}, wide_strides[2] = {1 << 10, 1};
    t = make(2, wide, wide_strides);
    assert_false(rk_tensor_self_overlaps(&t));
    /* past 2^20 elements an interleaved view is reported as overlapping (not decided) */
    int64_t big[3] = {(int64_t)1 << 18, 3, 2}, big_strides[3] = {12, 2, 3};
    t = make(3, big, big_strides);
    assert_true(rk_tensor_self_overlaps(&t));
}

static void test_layout_errors(void **state) {
    (void)state;
    int64_t neg_dim[2] = {2, -1};
    ropekit_tensor t = make(2, neg_dim, NULL);
    assert_int_equal(rk_tensor_check_layout(&t, "test", "x"), ROPEKIT_INVALID_ARGUMENT);
    int64_t huge[3] = {INT64_MAX / 2, 4, 1};
    t = make(3, huge, NULL);
    assert_int_equal(rk_tensor_check_layout(&t, "test", "x"), ROPEKIT_INVALID_ARGUMENT);
    int64_t big[1] = {INT64_MAX / 2}, stride[1] = {8};
    t = make(1, big, stride);
    assert_int_equal(rk_tensor_check_layout(&t, "test", "x"), ROPEKIT_INVALID_ARGUMENT);
    t = make(9, big, NULL);
    assert_int_equal(t.ndim, -1);
    assert_int_equal(rk_tensor_check_layout(&t, "test", "x"), ROPEKIT_INVALID_ARGUMENT);
    int64_t empty[2] = {0, 5};
    t = make(2, empty, NULL);
    assert_int_equal(rk_tensor_check_layout(&t, "test", "x"), ROPEKIT_OK);
    assert_int_equal(rk_tensor_numel(&t), 0);
}

static void test_alias(void **state) {
    (void)state;
    float buf[64];
    int64_t shape[1] = {16};
    ropekit_tensor a = make(1, shape, NULL), b = make(1, shape, NULL);
    assert_true(rk_tensors_may_alias(&a, buf, &b, buf + 15));
    assert_false(rk_tensors_may_alias(&a, buf, &b, buf + 16));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contiguous_strides), cmocka_unit_test(test_negative_and_zero_strides),
        cmocka_unit_test(test_overlapping_views),  cmocka_unit_test(test_interleaved_views),
        cmocka_unit_test(test_layout_errors),      cmocka_unit_test(test_alias),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
