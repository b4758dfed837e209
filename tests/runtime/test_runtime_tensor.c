/* aclTensor and the value containers (SPEC §2.2): strides, offsets and storage
 * shapes, NULL strides meaning contiguous, views that leave their storage, rank
 * limits, getters that return caller-owned copies, aclIntArray copy semantics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"

static void assert_message(void) {
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_true(strlen(m) > 0);
}

static void assert_dims(aclnnStatus (*get)(const aclTensor *, int64_t **, uint64_t *),
                        const aclTensor *t, const int64_t *want, uint64_t n) {
    int64_t *got = NULL;
    uint64_t count = 99;
    assert_int_equal(get(t, &got, &count), ACLNN_SUCCESS);
    assert_int_equal(count, n);
    assert_non_null(got);
    if (n)
        assert_memory_equal(got, want, n * sizeof(int64_t));
    free(got);
}

static void test_strides_offset_storage(void **state) {
    (void)state;
    float storage[32];
    int64_t view[2] = {2, 3}, strides[2] = {1, 4}, store[1] = {32};
    aclTensor *t =
        aclCreateTensor(view, 2, ACL_FLOAT16, strides, 5, ACL_FORMAT_NCHW, store, 1, storage);
    assert_non_null(t);
    assert_dims(aclGetViewShape, t, view, 2);
    assert_dims(aclGetViewStrides, t, strides, 2);
    assert_dims(aclGetStorageShape, t, store, 1);
    int64_t off = -1;
    assert_int_equal(aclGetViewOffset(t, &off), ACLNN_SUCCESS);
    assert_int_equal(off, 5);
    aclFormat fmt = ACL_FORMAT_UNDEFINED;
    assert_int_equal(aclGetFormat(t, &fmt), ACLNN_SUCCESS);
    assert_int_equal(fmt, ACL_FORMAT_NCHW);
    aclDataType dt = ACL_DT_UNDEFINED;
    assert_int_equal(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    assert_int_equal(dt, ACL_FLOAT16);
    assert_int_equal(aclDestroyTensor(t), ACLNN_SUCCESS);
}

static void test_null_strides_are_contiguous(void **state) {
    (void)state;
    int64_t view[4] = {2, 3, 4, 5}, want[4] = {60, 20, 5, 1};
    aclTensor *t = aclCreateTensor(view, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, view, 4, NULL);
    assert_non_null(t);
    assert_dims(aclGetViewStrides, t, want, 4);
    aclDestroyTensor(t);
    int64_t one[1] = {7}, one_stride[1] = {1};
    t = aclCreateTensor(one, 1, ACL_BF16, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
    assert_non_null(t);
    assert_dims(aclGetViewStrides, t, one_stride, 1);
    assert_dims(aclGetStorageShape, t, NULL, 0);
    aclDestroyTensor(t);
}

/* A rank-0 tensor (one element) has empty shape and stride lists. */
static void test_rank_zero(void **state) {
    (void)state;
    float v = 1.0f;
    aclTensor *t = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, &v);
    assert_non_null(t);
    assert_dims(aclGetViewShape, t, NULL, 0);
    assert_dims(aclGetViewStrides, t, NULL, 0);
    aclDestroyTensor(t);
}

static void test_view_outside_storage(void **state) {
    (void)state;
    float buf[16];
    int64_t view[2] = {4, 4}, store15[1] = {15}, store16[1] = {16};
    assert_null(aclCreateTensor(view, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, store15, 1, buf));
    assert_message();
    aclTensor *t = aclCreateTensor(view, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, store16, 1, buf);
    assert_non_null(t);
    aclDestroyTensor(t);
    /* the offset counts too */
    assert_null(aclCreateTensor(view, 2, ACL_FLOAT, NULL, 1, ACL_FORMAT_ND, store16, 1, buf));
    assert_message();
    /* and the strides */
    int64_t strides[2] = {5, 1};
    assert_null(aclCreateTensor(view, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, store16, 1, buf));
    assert_message();
    int64_t store2d[2] = {4, 5};
    t = aclCreateTensor(view, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, store2d, 2, buf);
    assert_non_null(t);
    aclDestroyTensor(t);
}

static void test_rank_limit(void **state) {
    (void)state;
    int64_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 2, 3};
    float buf[6];
    assert_null(aclCreateTensor(dims, 9, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_null(aclCreateTensor(dims + 1, 8, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 9, buf));
    assert_message();
    aclTensor *t =
        aclCreateTensor(dims + 1, 8, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims + 1, 8, buf);
    assert_non_null(t);
    assert_dims(aclGetViewShape, t, dims + 1, 8);
    aclDestroyTensor(t);
}

static void test_bad_arguments(void **state) {
    (void)state;
    float buf[8];
    int64_t neg[2] = {2, -1}, ok[2] = {2, 4};
    assert_null(aclCreateTensor(neg, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_null(aclCreateTensor(ok, 2, ACL_FLOAT, NULL, -1, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_null(aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_null(aclCreateTensor(ok, 2, (aclDataType)5, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    /* element counts or byte spans that overflow int64 (DESIGN: errors, never UB) */
    int64_t huge[3] = {INT64_C(1) << 32, INT64_C(1) << 32, 4};
    assert_null(aclCreateTensor(huge, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    int64_t two[1] = {2}, far[1] = {INT64_MAX / 2};
    assert_null(aclCreateTensor(two, 1, ACL_FLOAT, far, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
}

/* Getters hand out fresh arrays (free() them); changing one changes nothing else, and
 * the tensor keeps its own copy of the arrays it was created from. */
static void test_getters_return_copies(void **state) {
    (void)state;
    float buf[24];
    int64_t view[3] = {2, 3, 4}, strides[3] = {12, 4, 1}, store[1] = {24};
    aclTensor *t = aclCreateTensor(view, 3, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, store, 1, buf);
    assert_non_null(t);
    view[0] = 100;
    strides[0] = 100;
    store[0] = 100;
    const int64_t want_view[3] = {2, 3, 4}, want_strides[3] = {12, 4, 1}, want_store[1] = {24};
    int64_t *a = NULL, *b = NULL;
    uint64_t na = 0, nb = 0;
    assert_int_equal(aclGetViewShape(t, &a, &na), ACLNN_SUCCESS);
    assert_int_equal(aclGetViewShape(t, &b, &nb), ACLNN_SUCCESS);
    assert_ptr_not_equal(a, b);
    a[0] = -7;
    assert_memory_equal(b, want_view, sizeof want_view);
    free(a);
    free(b);
    assert_dims(aclGetViewShape, t, want_view, 3);
    int64_t *s = NULL;
    uint64_t ns = 0;
    assert_int_equal(aclGetViewStrides(t, &s, &ns), ACLNN_SUCCESS);
    s[1] = 0;
    free(s);
    assert_dims(aclGetViewStrides, t, want_strides, 3);
    assert_int_equal(aclGetStorageShape(t, &s, &ns), ACLNN_SUCCESS);
    s[0] = 1;
    free(s);
    assert_dims(aclGetStorageShape, t, want_store, 1);
    aclDestroyTensor(t);
}

static void test_getters_reject_null(void **state) {
    (void)state;
    int64_t view[1] = {4};
    float buf[4];
    aclTensor *t = aclCreateTensor(view, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf);
    int64_t *dims = NULL;
    uint64_t n = 0;
    int64_t off = 0;
    assert_int_not_equal(aclGetViewShape(NULL, &dims, &n), ACLNN_SUCCESS);
    assert_int_not_equal(aclGetViewShape(t, NULL, &n), ACLNN_SUCCESS);
    assert_int_not_equal(aclGetViewShape(t, &dims, NULL), ACLNN_SUCCESS);
    assert_int_not_equal(aclGetViewOffset(t, NULL), ACLNN_SUCCESS);
    assert_int_not_equal(aclGetViewOffset(NULL, &off), ACLNN_SUCCESS);
    assert_int_not_equal(aclGetFormat(t, NULL), ACLNN_SUCCESS);
    assert_int_not_equal(aclGetDataType(t, NULL), ACLNN_SUCCESS);
    aclDestroyTensor(t);
}

/* Runs the forward operator on x [1,1,1,8] with `slice` and returns whether x changed. */
static bool rotates(const aclIntArray *slice) {
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, c[8], s[8];
    const float x0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < 8; i++) {
        c[i] = 0.5f;
        s[i] = 0.25f;
    }
    int64_t d[4] = {1, 1, 1, 8};
    aclTensor *tx = aclCreateTensor(d, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 4, x);
    aclTensor *tc = aclCreateTensor(d, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 4, c);
    aclTensor *ts = aclCreateTensor(d, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 4, s);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus st = aclnnInplacePartialRotaryMulGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &e);
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    return memcmp(x, x0, sizeof x) != 0;
}

/* aclCreateIntArray copies its values: later changes to the source do not reach it. */
static void test_int_array_copies_values(void **state) {
    (void)state;
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    int64_t v[2] = {4, 4};
    aclIntArray *noop = aclCreateIntArray(v, 2);
    v[0] = 0;
    v[1] = 8;
    aclIntArray *full = aclCreateIntArray(v, 2);
    v[0] = v[1] = 2;
    assert_non_null(noop);
    assert_non_null(full);
    assert_false(rotates(noop));
    assert_true(rotates(full));
    uint64_t n = 0;
    assert_int_equal(aclGetIntArraySize(full, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 2);
    aclDestroyIntArray(noop);
    aclDestroyIntArray(full);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
}

static void test_int_array_size_zero(void **state) {
    (void)state;
    int64_t v[1] = {3};
    aclIntArray *a = aclCreateIntArray(NULL, 0);
    aclIntArray *b = aclCreateIntArray(v, 0);
    assert_non_null(a);
    assert_non_null(b);
    uint64_t n = 9;
    assert_int_equal(aclGetIntArraySize(a, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 0);
    n = 9;
    assert_int_equal(aclGetIntArraySize(b, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 0);
    aclDestroyIntArray(a);
    aclDestroyIntArray(b);
    assert_null(aclCreateIntArray(NULL, 2));
    assert_message();
    assert_int_not_equal(aclGetIntArraySize(NULL, &n), ACLNN_SUCCESS);
}

static void test_other_containers(void **state) {
    (void)state;
    float f[3] = {1, 2, 3};
    bool b[2] = {true, false};
    uint64_t n = 0;
    aclFloatArray *fa = aclCreateFloatArray(f, 3);
    assert_non_null(fa);
    assert_int_equal(aclGetFloatArraySize(fa, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 3);
    aclDestroyFloatArray(fa);
    aclBoolArray *ba = aclCreateBoolArray(b, 2);
    assert_non_null(ba);
    assert_int_equal(aclGetBoolArraySize(ba, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 2);
    aclDestroyBoolArray(ba);
    double d = 2.5;
    aclScalar *sc = aclCreateScalar(&d, ACL_DOUBLE);
    assert_non_null(sc);
    aclDestroyScalar(sc);
    /* the list owns its tensors: destroying it destroys them */
    int64_t dims[1] = {2};
    const aclTensor *ts[2] = {
        aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, f),
        aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, f + 1)};
    aclTensorList *list = aclCreateTensorList(ts, 2);
    assert_non_null(list);
    assert_int_equal(aclGetTensorListSize(list, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 2);
    aclDestroyTensorList(list);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strides_offset_storage),
        cmocka_unit_test(test_null_strides_are_contiguous),
        cmocka_unit_test(test_rank_zero),
        cmocka_unit_test(test_view_outside_storage),
        cmocka_unit_test(test_rank_limit),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_getters_return_copies),
        cmocka_unit_test(test_getters_reject_null),
        cmocka_unit_test(test_int_array_copies_values),
        cmocka_unit_test(test_int_array_size_zero),
        cmocka_unit_test(test_other_containers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
