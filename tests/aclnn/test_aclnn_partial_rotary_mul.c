/* aclnnInplacePartialRotaryMul: the validation table of SPEC §3.4 (one test per row,
 * column R codes, messages, nothing written on failure), the no-op rules of §3.2, the
 * interleave math of §3.3, broadcast patterns, dtype pairs and strided views. */
#include "pr_harness.h"

#define OP PR_FWD
#define API_NULL ACLNN_ERR_PARAM_NULLPTR
#define API_INVALID ACLNN_ERR_PARAM_INVALID

/* ---- §3.4 row 1: null pointers ---- */

static void test_row01_null_x(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.null_arg = PR_NULL_X;
    pr_expect_reject(OP, &k, API_NULL, "xRef", NULL);
}

static void test_row01_null_cos(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.null_arg = PR_NULL_COS;
    pr_expect_reject(OP, &k, API_NULL, "cos", NULL);
}

static void test_row01_null_sin(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.null_arg = PR_NULL_SIN;
    pr_expect_reject(OP, &k, API_NULL, "sin", NULL);
}

static void test_row01_null_workspace_size(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.null_arg = PR_NULL_WS;
    pr_expect_reject(OP, &k, API_NULL, "workspaceSize", NULL);
}

static void test_row01_null_executor(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.null_arg = PR_NULL_EXEC;
    pr_expect_reject(OP, &k, API_NULL, "executor", NULL);
}

static void test_row01_null_data(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.no_data = PR_NODATA_X;
    pr_expect_reject(OP, &k, API_NULL, "xRef", "data", NULL);
    k.no_data = PR_NODATA_COS;
    pr_expect_reject(OP, &k, API_NULL, "cos", "data", NULL);
    k.no_data = PR_NODATA_SIN;
    pr_expect_reject(OP, &k, API_NULL, "sin", "data", NULL);
}

/* Null data is only an error for a tensor with elements (row 1). */
static void test_row01_null_data_of_empty_tensor_is_fine(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 0, 4, 16, 2, 1, 4, 8);
    k.no_data = PR_NODATA_X;
    pr_expect_rotation(OP, &k);
}

/* ---- rows 2-4: dtypes ---- */

static void test_row02_x_dtype(void **state) {
    (void)state;
    static const aclDataType bad[] = {ACL_INT32, ACL_DOUBLE, ACL_INT64, ACL_INT8, ACL_UINT16};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct pr_case k = pr_default();
        k.xdt = bad[i];
        pr_expect_reject(OP, &k, API_INVALID, "xRef", "dtype", NULL);
    }
}

static void test_row03_cos_dtype(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.cdt = k.sdt = ACL_INT32;
    pr_expect_reject(OP, &k, API_INVALID, "cos", "dtype", NULL);
    k = pr_default();
    k.cdt = k.sdt = ACL_DOUBLE;
    pr_expect_reject(OP, &k, API_INVALID, "cos", "dtype", NULL);
}

static void test_row03_sin_dtype_differs(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.sdt = ACL_FLOAT16;
    pr_expect_reject(OP, &k, API_INVALID, "sin", "dtype", NULL);
    k = pr_default();
    k.xdt = k.cdt = ACL_FLOAT16;
    k.sdt = ACL_FLOAT;
    pr_expect_reject(OP, &k, API_INVALID, "sin", "dtype", NULL);
}

static void test_row04_disallowed_pairs(void **state) {
    (void)state;
    static const aclDataType pairs[][2] = {{ACL_FLOAT, ACL_FLOAT16},
                                           {ACL_FLOAT, ACL_BF16},
                                           {ACL_FLOAT16, ACL_BF16},
                                           {ACL_BF16, ACL_FLOAT16}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct pr_case k = pr_default();
        k.xdt = pairs[i][0];
        k.cdt = k.sdt = pairs[i][1];
        print_message("pair (%s, %s)\n", pr_dtype_name(k.xdt), pr_dtype_name(k.cdt));
        pr_expect_reject(OP, &k, API_INVALID, "dtype", NULL);
    }
}

/* ---- rows 5-9 ---- */

static void test_row05_rank(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.xnd = 3; /* [2,3,4] */
    k.xd[2] = 16;
    pr_expect_reject(OP, &k, API_INVALID, "xRef", NULL);
    k = pr_default();
    k.cnd = k.snd = 5;
    k.cd[4] = k.sd[4] = 8;
    k.cd[3] = k.sd[3] = 1;
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
    k = pr_default();
    k.xnd = 5;
    k.xd[4] = 16;
    k.xd[3] = 1;
    pr_expect_reject(OP, &k, API_INVALID, "xRef", NULL);
    k = pr_default();
    k.cnd = k.snd = 3;
    k.cd[0] = k.sd[0] = 3;
    k.cd[1] = k.sd[1] = 4;
    k.cd[2] = k.sd[2] = 8;
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
}

static void test_row06_cos_sin_shapes_differ(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.sd[1] = 1;
    pr_expect_reject(OP, &k, API_INVALID, "sin", NULL);
    k = pr_default();
    k.snd = 3;
    k.sd[0] = 3, k.sd[1] = 4, k.sd[2] = 8;
    pr_expect_reject(OP, &k, API_INVALID, "sin", NULL);
}

static void test_row07_rotary_mode(void **state) {
    (void)state;
    static const int64_t bad[] = {0, 2, 3, -1, 4, 100};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct pr_case k = pr_default();
        k.mode = bad[i];
        pr_expect_reject(OP, &k, API_INVALID, "rotary_mode", NULL);
    }
}

static void test_row08_slice_size(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.nslice = 1;
    pr_expect_reject(OP, &k, API_INVALID, "partialSlice", NULL);
    k = pr_default();
    k.nslice = 3;
    k.slice[2] = 12;
    pr_expect_reject(OP, &k, API_INVALID, "partialSlice", NULL);
}

static void test_row09_slice_range(void **state) {
    (void)state;
    static const int64_t bad[][2] = {{-2, 6}, {8, 4}, {8, 18}, {17, 17}, {-1, -1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct pr_case k = pr_default();
        pr_set_slice(&k, bad[i][0], bad[i][1]);
        print_message("slice [%lld, %lld)\n", (long long)bad[i][0], (long long)bad[i][1]);
        pr_expect_reject(OP, &k, API_INVALID, "slice", NULL);
    }
}

/* §3.2: the range is validated before the no-op decision ([5,5] with D = 4). */
static void test_row09_range_checked_before_noop(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 1, 2, 2, 4, 1, 2, 2, 0);
    pr_set_slice(&k, 5, 5);
    pr_expect_reject(OP, &k, API_INVALID, "slice", NULL);
}

/* ---- rows 11-16 (checked after the no-op exit) ---- */

static void test_row11_d_max(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 1, 1, 2, 1026, 1, 1, 2, 2);
    pr_set_slice(&k, 0, 2);
    pr_expect_reject(OP, &k, API_INVALID, "1026", NULL);
}

static void test_row11_d_1024_accepted(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 1, 1, 2, 1024, 1, 1, 2, 8);
    pr_set_slice(&k, 1000, 1008);
    pr_expect_rotation(OP, &k);
}

static void test_row12_d_odd(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 1, 1, 2, 5, 1, 1, 2, 2);
    pr_set_slice(&k, 0, 2);
    pr_expect_reject(OP, &k, API_INVALID, "xRef", "5", NULL);
}

static void test_row13_l_odd(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 3);
    pr_set_slice(&k, 0, 3);
    pr_expect_reject(OP, &k, API_INVALID, "slice", "3", NULL);
}

static void test_row14_cos_len_not_l(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 6);
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 16);
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
}

static void test_row15_broadcast(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 3, 3, 4, 8);
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
    pr_shapes(&k, 2, 3, 4, 16, 2, 2, 4, 8);
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
    pr_shapes(&k, 2, 3, 4, 16, 1, 1, 8, 8);
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
}

/* A zero stride makes two indices of x share one address: rejected. */
static void test_row16_self_overlapping_x(void **state) {
    (void)state;
    static const int64_t zero_lead[4] = {0, 64, 16, 1};
    struct pr_case k = pr_default();
    k.xstrides = zero_lead;
    pr_expect_reject(OP, &k, API_INVALID, "xRef", NULL);
    static const int64_t short_rows[4] = {3 * 4 * 8, 4 * 8, 8, 1}; /* rows of 16 every 8 */
    k.xstrides = short_rows;
    pr_expect_reject(OP, &k, API_INVALID, "xRef", NULL);
}

/* When several rows are violated, the first one in table order decides the code and
 * the message. */
static void test_order_follows_table(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.no_data = PR_NODATA_X; /* row 1 */
    k.xdt = ACL_INT32;       /* row 2 */
    pr_expect_reject(OP, &k, API_NULL, "xRef", "data", NULL);
    k = pr_default();
    k.xdt = ACL_INT32; /* row 2 */
    k.cnd = k.snd = 3; /* row 5 */
    pr_expect_reject(OP, &k, API_INVALID, "xRef", "dtype", NULL);
    k = pr_default();
    k.mode = 3;   /* row 7 */
    k.nslice = 1; /* row 8 */
    pr_expect_reject(OP, &k, API_INVALID, "rotary_mode", NULL);
    k = pr_default();
    pr_shapes(&k, 1, 1, 2, 1025, 1, 1, 2, 3); /* rows 11, 12, 13 */
    pr_set_slice(&k, 0, 3);
    pr_expect_reject(OP, &k, API_INVALID, "1025", NULL);
    pr_shapes(&k, 1, 1, 2, 9, 1, 1, 2, 3); /* rows 12, 13 */
    pr_expect_reject(OP, &k, API_INVALID, "xRef", "9", NULL);
    pr_shapes(&k, 1, 1, 2, 10, 1, 1, 2, 4); /* rows 13, 14 */
    pr_expect_reject(OP, &k, API_INVALID, "slice", "3", NULL);
    static const int64_t zero_lead[4] = {0, 64, 16, 1};
    k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 3, 8); /* row 15 */
    k.xstrides = zero_lead;                 /* row 16 */
    pr_expect_reject(OP, &k, API_INVALID, "cos", NULL);
}

/* ---- success paths ---- */

/* SPEC §3.3 check vector, fp32, exact expected floats fl(fl(a*c) - fl(b*s)). */
static void test_check_vector(void **state) {
    (void)state;
    float v[4] = {1, 2, 3, 4};
    float c[4] = {0.5f, 0.5f, 0.25f, 0.25f};
    float s[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    const float want[4] = {tk_msub32(1, 0.5f, 2, 0.1f), tk_madd32(2, 0.5f, 1, 0.2f),
                           tk_msub32(3, 0.25f, 4, 0.3f), tk_madd32(4, 0.25f, 3, 0.4f)};
    int64_t dims[4] = {1, 1, 1, 4};
    aclTensor *tx = aclCreateTensor(dims, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 4, v);
    aclTensor *tc = aclCreateTensor(dims, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 4, c);
    aclTensor *ts = aclCreateTensor(dims, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 4, s);
    int64_t sl[2] = {0, 4};
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    assert_non_null(tx);
    assert_non_null(tc);
    assert_non_null(ts);
    assert_non_null(slice);
    uint64_t ws = 99;
    aclOpExecutor *e = NULL;
    assert_int_equal(aclnnInplacePartialRotaryMulGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &e),
                     ACLNN_SUCCESS);
    assert_true(ws == 0);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, ws, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    for (int i = 0; i < 4; i++)
        assert_true(tk_f32_bits(v[i]) == tk_f32_bits(want[i]));
    /* and the values the SPEC prints, to fp32 accuracy */
    static const double printed[4] = {0.3, 1.2, -0.45, 2.2};
    for (int i = 0; i < 4; i++)
        assert_true(fabs((double)v[i] - printed[i]) < 1e-6);
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
}

static void test_basic_rotation(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_expect_rotation(OP, &k);
    pr_set_slice(&k, 0, 16);
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 16);
    pr_expect_rotation(OP, &k);
}

static void test_null_slice_is_noop(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.nslice = -1;
    pr_expect_rotation(OP, &k); /* expectation: x unchanged */
    /* the forward has no "cos last dim <= D" rule before its no-op exit */
    pr_shapes(&k, 2, 3, 4, 16, 2, 3, 4, 18);
    pr_expect_rotation(OP, &k);
}

static void test_empty_slice_array_is_noop(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    k.nslice = 0;
    pr_expect_rotation(OP, &k);
}

static void test_equal_bounds_are_noop(void **state) {
    (void)state;
    static const int64_t ks[] = {0, 3, 8, 16};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        struct pr_case k = pr_default();
        pr_set_slice(&k, ks[i], ks[i]);
        pr_expect_rotation(OP, &k);
    }
}

/* Official UT "cos_sin_empty_d_noop": x [2,4,8,128], cos/sin [2,4,8,0], slice [0,128]. */
static void test_cos_sin_empty_d_noop(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 4, 8, 128, 2, 4, 8, 0);
    pr_set_slice(&k, 0, 128);
    pr_expect_rotation(OP, &k);
}

static void test_empty_x_is_noop(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 0, 3, 4, 16, 1, 3, 4, 8);
    pr_expect_rotation(OP, &k);
    pr_shapes(&k, 2, 3, 0, 16, 2, 3, 1, 8);
    pr_expect_rotation(OP, &k);
    /* empty x with an otherwise invalid cos length: still a no-op */
    pr_shapes(&k, 2, 3, 0, 16, 2, 3, 1, 6);
    pr_expect_rotation(OP, &k);
}

static void test_empty_cos_sin_is_noop(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 2, 3, 4, 16, 0, 3, 4, 8);
    pr_expect_rotation(OP, &k);
}

/* Official tests rotate from odd starts (7 and 25); only L must be even. */
static void test_odd_start(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    pr_shapes(&k, 1, 2, 3, 40, 1, 2, 3, 32);
    pr_set_slice(&k, 7, 39);
    pr_expect_rotation(OP, &k);
    pr_shapes(&k, 2, 1, 3, 64, 2, 1, 3, 8);
    pr_set_slice(&k, 25, 33);
    pr_expect_rotation(OP, &k);
}

/* All 8 broadcast patterns (each leading dim of cos/sin equal to x's or 1). */
static void test_broadcast_patterns(void **state) {
    (void)state;
    for (unsigned m = 0; m < 8; m++) {
        struct pr_case k = pr_default();
        pr_shapes(&k, 2, 3, 4, 16, (m & 1) ? 1 : 2, (m & 2) ? 1 : 3, (m & 4) ? 1 : 4, 8);
        print_message("cos/sin [%lld,%lld,%lld,8]\n", (long long)k.cd[0], (long long)k.cd[1],
                      (long long)k.cd[2]);
        pr_expect_rotation(OP, &k);
    }
}

static void test_allowed_dtype_pairs(void **state) {
    (void)state;
    static const aclDataType pairs[][2] = {{ACL_FLOAT16, ACL_FLOAT16},
                                           {ACL_BF16, ACL_BF16},
                                           {ACL_FLOAT, ACL_FLOAT},
                                           {ACL_FLOAT16, ACL_FLOAT},
                                           {ACL_BF16, ACL_FLOAT}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct pr_case k = pr_default();
        k.xdt = pairs[i][0];
        k.cdt = k.sdt = pairs[i][1];
        print_message("pair (%s, %s)\n", pr_dtype_name(k.xdt), pr_dtype_name(k.cdt));
        pr_expect_rotation(OP, &k);
        pr_shapes(&k, 2, 3, 4, 16, 1, 3, 1, 8);
        pr_expect_rotation(OP, &k);
    }
}

/* Non-contiguous x: padded rows, a non-unit last stride, permuted dims, a reversed
 * dim (negative stride, reached through the view offset), and view offsets. */
static void test_strided_x(void **state) {
    (void)state;
    static const int64_t padded[4] = {3 * 4 * 24, 4 * 24, 24, 1};
    static const int64_t spread[4] = {3 * 4 * 40, 4 * 40, 40, 2};
    static const int64_t permuted[4] = {16, 2 * 16, 2 * 3 * 16, 1}; /* dims 0 and 2 swapped */
    static const int64_t reversed[4] = {3 * 4 * 16, -4 * 16, 16, 1};
    const int64_t *all[4] = {padded, spread, permuted, reversed};
    const int64_t offsets[4] = {0, 5, 0, 2 * 4 * 16};
    for (int i = 0; i < 4; i++) {
        struct pr_case k = pr_default();
        k.xstrides = all[i];
        k.xoffset = offsets[i];
        print_message("layout %d\n", i);
        pr_expect_rotation(OP, &k);
        k.xdt = ACL_BF16;
        k.cdt = k.sdt = ACL_FLOAT;
        pr_expect_rotation(OP, &k);
    }
}

/* An fp16 output is the fp32 result rounded once, to nearest even (SPEC §1 rule 4). */
static void test_fp16_rounding_of_inexact_values(void **state) {
    (void)state;
    uint16_t x[8], c[8], s[8];
    float xf[8], cf[8], sf[8];
    for (int i = 0; i < 8; i++) {
        xf[i] = fx_round_to(ACL_FLOAT16, 1.0f / (float)(i + 3));
        cf[i] = fx_round_to(ACL_FLOAT16, 0.7f + 0.01f * (float)i);
        sf[i] = fx_round_to(ACL_FLOAT16, 0.3f - 0.02f * (float)i);
        x[i] = tk_f32_to_f16(xf[i]);
        c[i] = tk_f32_to_f16(cf[i]);
        s[i] = tk_f32_to_f16(sf[i]);
    }
    float u[8];
    tk_ref32_interleave(0, 8, xf, cf, sf, u);
    int64_t dims[4] = {1, 1, 1, 8};
    aclTensor *tx = aclCreateTensor(dims, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, dims, 4, x);
    aclTensor *tc = aclCreateTensor(dims, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, dims, 4, c);
    aclTensor *ts = aclCreateTensor(dims, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, dims, 4, s);
    int64_t sl[2] = {0, 8};
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    uint64_t ws = 1;
    aclOpExecutor *e = NULL;
    assert_int_equal(aclnnInplacePartialRotaryMulGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &e),
                     ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    for (int i = 0; i < 8; i++)
        assert_int_equal(x[i], tk_f32_to_f16(u[i]));
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
}

/* ropekit reports a workspace of 0 bytes (SPEC §2.3), also for a no-op. */
static void test_workspace_size_is_zero(void **state) {
    (void)state;
    struct pr_built b;
    struct pr_case k = pr_default();
    for (int noop = 0; noop < 2; noop++) {
        if (noop)
            k.nslice = -1;
        pr_build(&k, &b);
        uint64_t ws = PR_WS_SENTINEL;
        aclOpExecutor *e = NULL;
        assert_int_equal(
            aclnnInplacePartialRotaryMulGetWorkspaceSize(b.x.t, b.c.t, b.s.t, 1, b.slice, &ws, &e),
            ACLNN_SUCCESS);
        assert_true(ws == 0);
        assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
        pr_assert_same(b.x.buf, b.x0, b.x.bytes, "x after phase 1 only");
        pr_free(&b);
    }
}

/* Phase 1 does not read tensor contents: data filled after phase 1 is what rotates. */
static void test_contents_read_at_run_time(void **state) {
    (void)state;
    struct pr_case k = pr_default();
    struct pr_built b;
    pr_build(&k, &b);
    memset(b.x.buf, 0, b.x.bytes);
    memset(b.c.buf, 0, b.c.bytes);
    memset(b.s.buf, 0, b.s.bytes);
    uint64_t ws = 1;
    aclOpExecutor *e = NULL;
    assert_int_equal(
        aclnnInplacePartialRotaryMulGetWorkspaceSize(b.x.t, b.c.t, b.s.t, 1, b.slice, &ws, &e),
        ACLNN_SUCCESS);
    memcpy(b.x.buf, b.x0, b.x.bytes);
    memcpy(b.c.buf, b.c0, b.c.bytes);
    memcpy(b.s.buf, b.s0, b.s.bytes);
    void *want = pr_dup(b.x.buf, b.x.bytes);
    fx_expect_rotation(&b.x, &b.c, &b.s, 4, 8, false, want);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    pr_assert_same(b.x.buf, want, b.x.bytes, "x");
    free(want);
    pr_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row01_null_x),
        cmocka_unit_test(test_row01_null_cos),
        cmocka_unit_test(test_row01_null_sin),
        cmocka_unit_test(test_row01_null_workspace_size),
        cmocka_unit_test(test_row01_null_executor),
        cmocka_unit_test(test_row01_null_data),
        cmocka_unit_test(test_row01_null_data_of_empty_tensor_is_fine),
        cmocka_unit_test(test_row02_x_dtype),
        cmocka_unit_test(test_row03_cos_dtype),
        cmocka_unit_test(test_row03_sin_dtype_differs),
        cmocka_unit_test(test_row04_disallowed_pairs),
        cmocka_unit_test(test_row05_rank),
        cmocka_unit_test(test_row06_cos_sin_shapes_differ),
        cmocka_unit_test(test_row07_rotary_mode),
        cmocka_unit_test(test_row08_slice_size),
        cmocka_unit_test(test_row09_slice_range),
        cmocka_unit_test(test_row09_range_checked_before_noop),
        cmocka_unit_test(test_row11_d_max),
        cmocka_unit_test(test_row11_d_1024_accepted),
        cmocka_unit_test(test_row12_d_odd),
        cmocka_unit_test(test_row13_l_odd),
        cmocka_unit_test(test_row14_cos_len_not_l),
        cmocka_unit_test(test_row15_broadcast),
        cmocka_unit_test(test_row16_self_overlapping_x),
        cmocka_unit_test(test_order_follows_table),
        cmocka_unit_test(test_check_vector),
        cmocka_unit_test(test_basic_rotation),
        cmocka_unit_test(test_null_slice_is_noop),
        cmocka_unit_test(test_empty_slice_array_is_noop),
        cmocka_unit_test(test_equal_bounds_are_noop),
        cmocka_unit_test(test_cos_sin_empty_d_noop),
        cmocka_unit_test(test_empty_x_is_noop),
        cmocka_unit_test(test_empty_cos_sin_is_noop),
        cmocka_unit_test(test_odd_start),
        cmocka_unit_test(test_broadcast_patterns),
        cmocka_unit_test(test_allowed_dtype_pairs),
        cmocka_unit_test(test_strided_x),
        cmocka_unit_test(test_fp16_rounding_of_inexact_values),
        cmocka_unit_test(test_workspace_size_is_zero),
        cmocka_unit_test(test_contents_read_at_run_time),
    };
    return cmocka_run_group_tests(tests, pr_group_setup, pr_group_teardown);
}
