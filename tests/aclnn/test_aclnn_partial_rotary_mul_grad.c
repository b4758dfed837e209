/* aclnnInplacePartialRotaryMulGrad: the validation table of SPEC §4.3 (161001 nulls,
 * 161002 dtypes, 561002 everything else; nothing written on failure), the no-op rules,
 * the interleave gradient of §4.2 and its relation to the forward (the adjoint). */
#include "pr_harness.h"

#define OP PR_GRAD
#define API_NULL ACLNN_ERR_PARAM_NULLPTR
#define API_DTYPE ACLNN_ERR_PARAM_INVALID
#define API_TILING ACLNN_ERR_INNER_TILING_ERROR

/* ---- §4.3 row 1: null pointers ---- */

static void test_row01_nulls(void **state) {
    (void)state;
    static const struct {
        enum pr_null which;
        const char *name;
    } cases[] = {{PR_NULL_X, "dyRef"},
                 {PR_NULL_COS, "cos"},
                 {PR_NULL_SIN, "sin"},
                 {PR_NULL_WS, "workspaceSize"},
                 {PR_NULL_EXEC, "executor"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pr_case k = pr_default();
        k.null_arg = cases[i].which;
        pr_expect_reject(OP, &k, API_NULL, cases[i].name, NULL);
    }
}

static void test_row01_null_data(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.no_data = PR_NODATA_X;
    pr_expect_reject(OP, &k, API_NULL, "dyRef", "data", NULL);
    k.no_data = PR_NODATA_COS;
    pr_expect_reject(OP, &k, API_NULL, "cos", "data", NULL);
    k.no_data = PR_NODATA_SIN;
    pr_expect_reject(OP, &k, API_NULL, "sin", "data", NULL);
    /* empty tensors need no data */
    k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 0, 3, 4, 8);
    k.no_data = PR_NODATA_COS;
    pr_expect_rotation(OP, &k);
}

/* ---- row 2: dtypes ---- */

static void test_row02_dy_dtype(void **state) {
    (void)state;
    static const aclDataType bad[] = {ACL_INT32, ACL_DOUBLE, ACL_INT64, ACL_INT8};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct pr_case k = pr_default();
        k.xdt = bad[i];
        pr_expect_reject(OP, &k, API_DTYPE, "dyRef", "dtype", NULL);
    }
}

static void test_row02_cos_sin_dtype(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.cdt = k.sdt = ACL_INT32;
    pr_expect_reject(OP, &k, API_DTYPE, "cos", "dtype", NULL);
    k = pr_default();
    k.sdt = ACL_BF16;
    pr_expect_reject(OP, &k, API_DTYPE, "sin", "dtype", NULL);
    k = pr_default();
    k.cdt = ACL_FLOAT16;
    k.sdt = ACL_BF16;
    pr_expect_reject(OP, &k, API_DTYPE, "sin", "dtype", NULL);
}

/* All 9 (dy, cos/sin) combinations are legal for the gradient. */
static void test_row02_all_nine_pairs_accepted(void **state) {
    (void)state;
    static const aclDataType f[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            struct pr_case k = pr_default();
            k.xdt = f[a];
            k.cdt = k.sdt = f[b];
            print_message("pair (%s, %s)\n", pr_dtype_name(k.xdt), pr_dtype_name(k.cdt));
            pr_expect_rotation(OP, &k);
        }
}

/* ---- rows 3-6 ---- */

static void test_row03_rotary_mode(void **state) {
    (void)state;
    static const int64_t bad[] = {0, 2, 3, -1, 4};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct pr_case k = pr_default();
        k.mode = bad[i];
        pr_expect_reject(OP, &k, API_TILING, "rotaryMode", NULL);
    }
}

static void test_row04_slice_size(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.nslice = 1;
    pr_expect_reject(OP, &k, API_TILING, "partialSlice", NULL);
    k.nslice = 3;
    k.slice[2] = 0;
    pr_expect_reject(OP, &k, API_TILING, "partialSlice", NULL);
}

static void test_row05_slice_range(void **state) {
    (void)state;
    static const int64_t bad[][2] = {{-2, 6}, {8, 4}, {8, 18}, {17, 17}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct pr_case k = pr_default();
        pr_set_slice(&k, bad[i][0], bad[i][1]);
        pr_expect_reject(OP, &k, API_TILING, "slice", NULL);
    }
    /* checked before the no-op exit: [5,5] with D = 4 */
    struct pr_case k = pr_default();
    pr_shapes(&k, 1, 2, 2, 4, 1, 2, 2, 0);
    pr_set_slice(&k, 5, 5);
    pr_expect_reject(OP, &k, API_TILING, "slice", NULL);
}

static void test_row06_rank(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.xnd = 3;
    k.xd[2] = 16;
    pr_expect_reject(OP, &k, API_TILING, "dyRef", NULL);
    k = pr_default();
    k.cnd = k.snd = 5;
    k.cd[3] = k.sd[3] = 1;
    k.cd[4] = k.sd[4] = 8;
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
}

static void test_row06_cos_sin_shapes_differ(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.sd[2] = 1;
    pr_expect_reject(OP, &k, API_TILING, "sin", NULL);
}

/* cos.shape[3] > D is rejected even when the slice is empty. */
static void test_row06_cos_len_exceeds_d_even_for_empty_slice(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 18);
    pr_set_slice(&k, 0, 0);
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    k.nslice = -1;
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    k.nslice = 0;
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    /* also when dy is empty */
    pr_shapes(&k, 2, 0, 4, 16, 2, 1, 4, 18);
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    /* cos.shape[3] == D with an empty slice is a no-op */
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 16);
    pr_set_slice(&k, 0, 0);
    pr_expect_rotation(OP, &k);
}

/* ---- row 7: no-op exits ---- */

static void test_row07_empty_slices_are_noops(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.nslice = -1;
    pr_expect_rotation(OP, &k);
    k.nslice = 0;
    pr_expect_rotation(OP, &k);
    for (int64_t s = 0; s <= 16; s += 5) {
        pr_set_slice(&k, s, s);
        pr_expect_rotation(OP, &k);
    }
}

static void test_row07_empty_tensors_are_noops(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 0, 4, 16, 2, 1, 4, 8);
    pr_expect_rotation(OP, &k);
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 0, 8);
    pr_expect_rotation(OP, &k);
    pr_shapes(&k, 2, 4, 8, 128, 2, 4, 8, 0);
    pr_set_slice(&k, 0, 128);
    pr_expect_rotation(OP, &k);
}

/* ---- rows 8-12 ---- */

static void test_row08_cos_len_not_l(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 6);
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 10);
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
}

static void test_row09_d_max(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 1, 1, 2, 1026, 1, 1, 2, 2);
    pr_set_slice(&k, 0, 2);
    pr_expect_reject(OP, &k, API_TILING, "1026", NULL);
    pr_shapes(&k, 1, 1, 2, 1024, 1, 1, 2, 2);
    pr_expect_rotation(OP, &k);
}

static void test_row10_l_odd(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 5);
    pr_set_slice(&k, 1, 6);
    pr_expect_reject(OP, &k, API_TILING, "slice", NULL);
}

/* Unlike the forward, the gradient does not check D's parity (only L's). */
static void test_row10_d_odd_accepted_when_l_even(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 5, 2, 3, 4, 4);
    pr_set_slice(&k, 0, 4);
    pr_expect_rotation(OP, &k);
    pr_set_slice(&k, 1, 5);
    pr_expect_rotation(OP, &k);
    pr_shapes(&k, 1, 2, 1, 1023, 1, 1, 1, 8);
    pr_set_slice(&k, 1015, 1023);
    pr_expect_rotation(OP, &k);
}

static void test_row11_broadcast(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 2, 8);
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    pr_shapes(&k, 2, 3, 4, 16, 4, 3, 4, 8);
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    for (unsigned m = 0; m < 8; m++) {
        pr_shapes(&k, 2, 3, 4, 16, (m & 1) ? 1 : 2, (m & 2) ? 1 : 3, (m & 4) ? 1 : 4, 8);
        pr_expect_rotation(OP, &k);
    }
}

static void test_row12_self_overlap(void **state) {
    (void)state;
    static const int64_t zero_stride[4] = {64, 16, 0, 1};
    struct pr_case k = pr_default();
    k.xstrides = zero_stride;
    pr_expect_reject(OP, &k, API_TILING, "dyRef", NULL);
}

/* §4.3 lists the checks in order: rotaryMode (row 3) comes before the shape rules of
 * row 6, so the message must be about rotaryMode. Both give 561002. */
static void test_order_mode_before_shapes(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.mode = 0;
    k.sd[1] = 1; /* cos.shape != sin.shape */
    pr_expect_reject(OP, &k, API_TILING, "rotaryMode", NULL);
}

/* Row 8 (cos.shape[3] == L) precedes rows 9 (D <= 1024) and 10 (L even). */
static void test_order_cos_len_before_d_and_l(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 4);
    pr_set_slice(&k, 0, 3); /* L = 3 odd, cos last dim 4 != L */
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
    pr_shapes(&k, 1, 1, 2, 1026, 1, 1, 2, 4);
    pr_set_slice(&k, 0, 2); /* D = 1026 too large, cos last dim 4 != L = 2 */
    pr_expect_reject(OP, &k, API_TILING, "cos", NULL);
}

/* ---- values ---- */

/* w[2i] = c[2i]g[2i] + s[2i+1]g[2i+1], w[2i+1] = c[2i+1]g[2i+1] - s[2i]g[2i]. */
static void test_interleave_gradient_hand_case(void **state) {
    (void)state;
    float g[6] = {7, 1, 2, 3, 4, 9}; /* slice [1,5) */
    float c[4] = {0.5f, 0.5f, 0.25f, 0.25f};
    float s[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    const float want[6] = {7,
                           tk_madd32(0.5f, 1, 0.2f, 2),
                           tk_msub32(0.5f, 2, 0.1f, 1),
                           tk_madd32(0.25f, 3, 0.4f, 4),
                           tk_msub32(0.25f, 4, 0.3f, 3),
                           9};
    static const double printed[6] = {7, 0.9, 0.9, 2.35, 0.1, 9};
    int64_t gd[4] = {1, 1, 1, 6}, cd[4] = {1, 1, 1, 4};
    aclTensor *tg = aclCreateTensor(gd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, gd, 4, g);
    aclTensor *tc = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, c);
    aclTensor *ts = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, s);
    int64_t sl[2] = {1, 5};
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    uint64_t ws = 5;
    aclOpExecutor *e = NULL;
    assert_int_equal(
        aclnnInplacePartialRotaryMulGradGetWorkspaceSize(tg, tc, ts, 1, slice, &ws, &e),
        ACLNN_SUCCESS);
    assert_true(ws == 0);
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    for (int i = 0; i < 6; i++) {
        assert_true(tk_f32_bits(g[i]) == tk_f32_bits(want[i]));
        assert_true(fabs((double)g[i] - printed[i]) < 1e-6);
    }
    aclDestroyTensor(tg);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
}

static void test_gradient_values_with_broadcast_and_strides(void **state) {
    (void)state;
    static const int64_t strides[4] = {3 * 4 * 20, 4 * 20, 20, 1};
    struct pr_case k = pr_default();
    k.xstrides = strides;
    k.xoffset = 3;
    pr_shapes(&k, 2, 3, 4, 16, 2, 1, 4, 8);
    pr_set_slice(&k, 7, 15);
    pr_expect_rotation(OP, &k);
    k.xdt = ACL_FLOAT16;
    k.cdt = k.sdt = ACL_BF16;
    pr_expect_rotation(OP, &k);
}

/* The gradient is the adjoint of the forward: <fwd(v), g> == <v, grad(g)>. */
static void test_gradient_is_adjoint_of_forward(void **state) {
    (void)state;
    enum { N = 3, D = 12, L = 8, START = 2 };
    float v[N * D], g[N * D], v0[N * D], g0[N * D], c[N * L], s[N * L];
    for (int i = 0; i < N * D; i++) {
        v0[i] = v[i] = (float)sin(0.37 * i + 0.1);
        g0[i] = g[i] = (float)cos(0.91 * i + 0.3);
    }
    for (int i = 0; i < N * L; i++) {
        c[i] = (float)cos(0.2 * i);
        s[i] = (float)sin(0.2 * i);
    }
    int64_t xd[4] = {1, N, 1, D}, cd[4] = {1, N, 1, L}, sl[2] = {START, START + L};
    aclTensor *tv = aclCreateTensor(xd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 4, v);
    aclTensor *tg = aclCreateTensor(xd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 4, g);
    aclTensor *tc = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, c);
    aclTensor *ts = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, s);
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    uint64_t ws = 0;
    aclOpExecutor *e1 = NULL, *e2 = NULL;
    assert_int_equal(aclnnInplacePartialRotaryMulGetWorkspaceSize(tv, tc, ts, 1, slice, &ws, &e1),
                     ACLNN_SUCCESS);
    assert_int_equal(
        aclnnInplacePartialRotaryMulGradGetWorkspaceSize(tg, tc, ts, 1, slice, &ws, &e2),
        ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e1, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, e2, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    double lhs = 0, rhs = 0, mag = 0;
    for (int r = 0; r < N; r++)
        for (int j = START; j < START + L; j++) {
            lhs += (double)v[r * D + j] * g0[r * D + j];
            rhs += (double)v0[r * D + j] * g[r * D + j];
            mag += fabs((double)v0[r * D + j] * g0[r * D + j]);
        }
    assert_true(fabs(lhs - rhs) <= 1e-5 * mag);
    for (int r = 0; r < N; r++)
        for (int j = 0; j < D; j++)
            if (j < START || j >= START + L) {
                assert_true(tk_f32_bits(v[r * D + j]) == tk_f32_bits(v0[r * D + j]));
                assert_true(tk_f32_bits(g[r * D + j]) == tk_f32_bits(g0[r * D + j]));
            }
    aclDestroyTensor(tv);
    aclDestroyTensor(tg);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row01_nulls),
        cmocka_unit_test(test_row01_null_data),
        cmocka_unit_test(test_row02_dy_dtype),
        cmocka_unit_test(test_row02_cos_sin_dtype),
        cmocka_unit_test(test_row02_all_nine_pairs_accepted),
        cmocka_unit_test(test_row03_rotary_mode),
        cmocka_unit_test(test_row04_slice_size),
        cmocka_unit_test(test_row05_slice_range),
        cmocka_unit_test(test_row06_rank),
        cmocka_unit_test(test_row06_cos_sin_shapes_differ),
        cmocka_unit_test(test_row06_cos_len_exceeds_d_even_for_empty_slice),
        cmocka_unit_test(test_row07_empty_slices_are_noops),
        cmocka_unit_test(test_row07_empty_tensors_are_noops),
        cmocka_unit_test(test_row08_cos_len_not_l),
        cmocka_unit_test(test_row09_d_max),
        cmocka_unit_test(test_row10_l_odd),
        cmocka_unit_test(test_row10_d_odd_accepted_when_l_even),
        cmocka_unit_test(test_row11_broadcast),
        cmocka_unit_test(test_row12_self_overlap),
        cmocka_unit_test(test_order_mode_before_shapes),
        cmocka_unit_test(test_order_cos_len_before_d_and_l),
        cmocka_unit_test(test_interleave_gradient_hand_case),
        cmocka_unit_test(test_gradient_values_with_broadcast_and_strides),
        cmocka_unit_test(test_gradient_is_adjoint_of_forward),
    };
    return cmocka_run_group_tests(tests, pr_group_setup, pr_group_teardown);
}
