/* One test per defect the native-operator fuzz target (tests/fuzz/fuzz_native_ops.c)
 * found, named for the defect; its input is also kept in
 * tests/fuzz/regressions/fuzz_native_ops/. Several were signed overflows in planning
 * arithmetic, which only a sanitizer build reports; the tests here pin the calls that
 * reached them and check what a correct library answers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"

static void describe_ok(const ropekit_plan *plan) {
    char text[512];
    size_t n = ropekit_plan_describe(plan, text, sizeof text);
    assert_true(n > 0 && n < sizeof text);
    assert_int_equal(strlen(text), n);
}

/* An empty view whose leading dims multiply past int64 before the 0 is reached,
 * [32, 3074457345618258602, 0], was refused ("element count overflows int64"); it has no
 * element, so the call is a no-op. */
static void empty_view_with_huge_dims_is_a_noop(void **state) {
    (void)state;
    uint16_t x[4] = {1, 2, 3, 4}, cs[2] = {5, 6};
    const int64_t xshape[3] = {32, 3074457345618258602, 0}, cshape[1] = {0};
    ropekit_tensor xt = ropekit_tensor_make(x, ROPEKIT_F16, 3, xshape, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cs, ROPEKIT_F16, 1, cshape, NULL);
    assert_int_equal(
        ropekit_partial_rotary(&xt, &ct, &ct, ROPEKIT_ROTARY_HALF, 0, 0, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    const uint16_t want[4] = {1, 2, 3, 4};
    assert_memory_equal(x, want, sizeof want);
}

/* A no-op rope (0 tokens) with head_size 2^62: planning multiplied head_size by the
 * column stride of the empty query (2^62 * 4 bytes), a stride no check had bounded. */
static void rope_empty_query_huge_head_size_plans(void **state) {
    (void)state;
    const int64_t head = (int64_t)1 << 62;
    float buf[4] = {0};
    int64_t pos[1] = {0};
    const int64_t qshape[2] = {0, 0}, cshape[2] = {2, 2}, pshape[1] = {0};
    ropekit_tensor q = ropekit_tensor_make(buf, ROPEKIT_F32, 2, qshape, NULL);
    ropekit_tensor cache = ropekit_tensor_make(buf, ROPEKIT_F32, 2, cshape, NULL);
    ropekit_tensor p = ropekit_tensor_make(pos, ROPEKIT_I64, 1, pshape, NULL);
    ropekit_rope_config cfg = {.head_size = head, .style = ROPEKIT_ROPE_NEOX};
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_rope_plan_create(&p, &q, &q, &cache, &q, &q, &cfg, &plan), ROPEKIT_OK);
    describe_ok(plan);
    ropekit_plan_destroy(plan);
}

/* Strides of size-1 dims never move the address and are not checked; one token with a
 * token stride of 2^61 elements was multiplied into bytes (overflow) at planning. The
 * call is valid and must rotate as usual. */
static void rope_single_token_huge_token_stride(void **state) {
    (void)state;
    float q[4] = {1, 2, 3, 4}, cache[2] = {0.5f, 0.25f}; /* cos 0.5, sin 0.25 */
    int64_t pos[1] = {0};
    const int64_t qshape[2] = {1, 4}, qstrides[2] = {(int64_t)1 << 61, 1};
    const int64_t cshape[2] = {1, 2}, cstrides[2] = {(int64_t)1 << 61, 1}, pshape[1] = {1};
    const int64_t pstrides[1] = {(int64_t)1 << 61};
    ropekit_tensor qt = ropekit_tensor_make(q, ROPEKIT_F32, 2, qshape, qstrides);
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cshape, cstrides);
    ropekit_tensor pt = ropekit_tensor_make(pos, ROPEKIT_I64, 1, pshape, pstrides);
    ropekit_rope_config cfg = {.head_size = 2, .style = ROPEKIT_ROPE_NEOX};
    assert_int_equal(ropekit_rope(&pt, &qt, NULL, &ct, &qt, NULL, &cfg), ROPEKIT_OK);
    /* two heads of 2: (1,2) -> (1*.5 - 2*.25, 2*.5 + 1*.25), (3,4) likewise */
    const float want[4] = {0.0f, 1.25f, 0.5f, 2.75f};
    assert_memory_equal(q, want, sizeof want);
}

/* Query and key of 2^62 bytes each (valid views): planning added their footprints, and
 * the bytes per token, past int64. Such a plan must be made (its data is never needed). */
static void rope_two_huge_views_plan(void **state) {
    (void)state;
    float buf[4] = {0};
    int64_t pos[1] = {0};
    const int64_t tokens = (int64_t)1 << 21, width = (int64_t)1 << 39;
    const int64_t qshape[2] = {tokens, width}, cshape[2] = {(int64_t)1 << 31, 2};
    const int64_t pshape[1] = {tokens};
    ropekit_tensor q = ropekit_tensor_make(buf, ROPEKIT_F32, 2, qshape, NULL);
    ropekit_tensor k = q, qo = q, ko = q;
    ropekit_tensor cache = ropekit_tensor_make(buf, ROPEKIT_F32, 2, cshape, NULL);
    ropekit_tensor p = ropekit_tensor_make(pos, ROPEKIT_I64, 1, pshape, NULL);
    ropekit_rope_config cfg = {.head_size = 256, .style = ROPEKIT_ROPE_NEOX};
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_rope_plan_create(&p, &q, &k, &cache, &qo, &ko, &cfg, &plan),
                     ROPEKIT_OK);
    describe_ok(plan);
    ropekit_plan_destroy(plan);
}

/* A key view [3, 2^31, 10] with strides [1, 3, 6442450944]: the overlap geometry
 * multiplied a stride by the rows before it past int64 while testing for one constant
 * row stride. */
static void rope_view_geometry_stride_product(void **state) {
    (void)state;
    float buf[4] = {0};
    int64_t pos[3] = {0};
    const int64_t shape[3] = {3, (int64_t)1 << 31, 10};
    const int64_t kstrides[3] = {1, 3, 6442450944};
    const int64_t cshape[2] = {1, 2}, pshape[2] = {1, 3};
    ropekit_tensor q = ropekit_tensor_make(buf, ROPEKIT_F32, 3, shape, NULL);
    ropekit_tensor k = ropekit_tensor_make(buf, ROPEKIT_F32, 3, shape, kstrides);
    ropekit_tensor cache = ropekit_tensor_make(buf, ROPEKIT_F32, 2, cshape, NULL);
    ropekit_tensor p = ropekit_tensor_make(pos, ROPEKIT_I64, 2, pshape, NULL);
    const int64_t sections[1] = {1};
    ropekit_rope_config cfg = {
        .head_size = 10, .style = ROPEKIT_ROPE_GPTJ, .sections = sections, .num_sections = 1};
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_rope_plan_create(&p, &q, &k, &cache, &q, &k, &cfg, &plan), ROPEKIT_OK);
    describe_ok(plan);
    ropekit_plan_destroy(plan);
}

/* A slice of 2^61 elements: the bytes one row moves (len * 2 * (x + cos item sizes))
 * overflowed when planning the task split. */
static void partial_rotary_huge_slice_plans(void **state) {
    (void)state;
    uint16_t x[2] = {0};
    float cs[2] = {0};
    const int64_t xshape[1] = {(int64_t)1 << 61};
    const int64_t start = 12032, end = 2017614550602646372;
    const int64_t cshape[1] = {end - start};
    ropekit_tensor xt = ropekit_tensor_make(x, ROPEKIT_BF16, 1, xshape, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cs, ROPEKIT_F32, 1, cshape, NULL);
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_partial_rotary_plan_create(&xt, &ct, &ct,
                                                        ROPEKIT_ROTARY_INTERLEAVE_HALF, start, end,
                                                        ROPEKIT_BACKWARD, &plan),
                     ROPEKIT_OK);
    describe_ok(plan);
    ropekit_plan_destroy(plan);
}

/* A view reaching 3 * 2^61 bytes below its data pointer and 3 * 2^60 above passed (each
 * end fits int64) although the distance between its ends does not, and planning took
 * that difference. Now refused as a span beyond int64. */
static void view_whose_extent_exceeds_int64_refused(void **state) {
    (void)state;
    uint16_t x[8] = {0}, cs[4] = {0};
    /* elements apart (strides 1, 3 * 2^59, -3 * 2^60); bytes from -3 * 2^61 to 3 * 2^60 */
    const int64_t xshape[3] = {2, 2, 4}, cshape[1] = {4};
    const int64_t xstrides[3] = {-((int64_t)3 << 60), (int64_t)3 << 59, 1};
    ropekit_tensor xt = ropekit_tensor_make(x, ROPEKIT_F16, 3, xshape, xstrides);
    ropekit_tensor ct = ropekit_tensor_make(cs, ROPEKIT_F16, 1, cshape, NULL);
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_partial_rotary_plan_create(&xt, &ct, &ct, ROPEKIT_ROTARY_HALF, 0, 4,
                                                        ROPEKIT_FORWARD, &plan),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_null(plan);
    assert_non_null(strstr(ropekit_last_error(), "byte span overflows int64"));
}

/* A query of 0 heads may come without data; beside a non-empty key each task still
 * formed query addresses from its NULL pointer (undefined behaviour). */
static void rope_empty_query_without_data(void **state) {
    (void)state;
    float k[4] = {1, 2, 3, 4}, cache[2] = {0.5f, 0.25f};
    int64_t pos[1] = {0};
    const int64_t qshape[3] = {1, 0, 4}, kshape[3] = {1, 1, 4}, cshape[2] = {1, 2};
    const int64_t pshape[1] = {1};
    ropekit_tensor qt = ropekit_tensor_make(NULL, ROPEKIT_F32, 3, qshape, NULL);
    ropekit_tensor kt = ropekit_tensor_make(k, ROPEKIT_F32, 3, kshape, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cshape, NULL);
    ropekit_tensor pt = ropekit_tensor_make(pos, ROPEKIT_I64, 1, pshape, NULL);
    ropekit_rope_config cfg = {.head_size = 4, .style = ROPEKIT_ROPE_GPTJ};
    assert_int_equal(ropekit_rope(&pt, &qt, &kt, &ct, &qt, &kt, &cfg), ROPEKIT_OK);
    /* rotary_dim 2: (1,2) -> (1*.5 - 2*.25, 2*.5 + 1*.25); 3 and 4 pass through */
    const float want[4] = {0.0f, 1.25f, 3.0f, 4.0f};
    assert_memory_equal(k, want, sizeof want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_view_with_huge_dims_is_a_noop),
        cmocka_unit_test(rope_empty_query_huge_head_size_plans),
        cmocka_unit_test(rope_single_token_huge_token_stride),
        cmocka_unit_test(rope_two_huge_views_plan),
        cmocka_unit_test(rope_view_geometry_stride_product),
        cmocka_unit_test(partial_rotary_huge_slice_plans),
        cmocka_unit_test(view_whose_extent_exceeds_int64_refused),
        cmocka_unit_test(rope_empty_query_without_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
