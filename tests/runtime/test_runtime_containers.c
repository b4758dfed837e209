/* The ACL value containers and the aclTensor getters, call by call (SPEC §2.2): every
 * create, size and destroy function of aclIntArray, aclFloatArray, aclBoolArray and
 * aclTensorList with its sizes, its refusals and their messages; the scalar getters of an
 * aclTensor (offset, format, dtype) and the shape getters, with theirs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

static void expect_message(const char *want) {
    assert_string_equal(aclGetRecentErrMsg(), want);
}

/* One container type's create, size and destroy, as function pointers. */
struct container {
    const char *create, *size;
    void *(*make)(const void *values, uint64_t n);
    aclnnStatus (*get_size)(const void *array, uint64_t *n);
    aclnnStatus (*destroy)(const void *array);
    const void *values; /* at least 3 items */
};

static void *make_int(const void *v, uint64_t n) {
    return aclCreateIntArray(v, n);
}
static aclnnStatus size_int(const void *a, uint64_t *n) {
    return aclGetIntArraySize(a, n);
}
static aclnnStatus destroy_int(const void *a) {
    return aclDestroyIntArray(a);
}
static void *make_float(const void *v, uint64_t n) {
    return aclCreateFloatArray(v, n);
}
static aclnnStatus size_float(const void *a, uint64_t *n) {
    return aclGetFloatArraySize(a, n);
}
static aclnnStatus destroy_float(const void *a) {
    return aclDestroyFloatArray(a);
}
static void *make_bool(const void *v, uint64_t n) {
    return aclCreateBoolArray(v, n);
}
static aclnnStatus size_bool(const void *a, uint64_t *n) {
    return aclGetBoolArraySize(a, n);
}
static aclnnStatus destroy_bool(const void *a) {
    return aclDestroyBoolArray(a);
}

static const int64_t ints[3] = {1, -2, 3};
static const float floats[3] = {0.5f, -1.0f, 2.0f};
static const bool bools[3] = {true, false, true};

static void check_container(const struct container *c) {
    char want[160];
    uint64_t n = 99;
    void *a = c->make(c->values, 3);
    assert_non_null(a);
    assert_int_equal(c->get_size(a, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 3);
    assert_int_equal(c->destroy(a), ACLNN_SUCCESS);

    /* size 0: with or without values */
    void *empty = c->make(NULL, 0), *empty2 = c->make(c->values, 0);
    assert_non_null(empty);
    assert_non_null(empty2);
    assert_int_equal(c->get_size(empty, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(c->get_size(empty2, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(c->destroy(empty), ACLNN_SUCCESS);
    assert_int_equal(c->destroy(empty2), ACLNN_SUCCESS);
    assert_int_equal(c->destroy(NULL), ACLNN_SUCCESS);

    assert_null(c->make(NULL, 2));
    snprintf(want, sizeof want, "%s: value = NULL with size = 2", c->create);
    expect_message(want);
    assert_null(c->make(c->values, UINT64_MAX));
    snprintf(want, sizeof want, "%s: size = %llu: too large", c->create,
             (unsigned long long)UINT64_MAX);
    expect_message(want);

    n = 7;
    assert_int_equal(c->get_size(NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    snprintf(want, sizeof want, "%s: array = NULL", c->size);
    expect_message(want);
    assert_int_equal(n, 7);
    a = c->make(c->values, 1);
    assert_int_equal(c->get_size(a, NULL), ACLNN_ERR_PARAM_NULLPTR);
    snprintf(want, sizeof want, "%s: size = NULL", c->size);
    expect_message(want);
    assert_int_equal(c->get_size(NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
    snprintf(want, sizeof want, "%s: array = NULL", c->size);
    expect_message(want);
    c->destroy(a);
}

static void test_int_array(void **state) {
    (void)state;
    const struct container c = {
        "aclCreateIntArray", "aclGetIntArraySize", make_int, size_int, destroy_int, ints};
    check_container(&c);
}

static void test_float_array(void **state) {
    (void)state;
    const struct container c = {"aclCreateFloatArray",
                                "aclGetFloatArraySize",
                                make_float,
                                size_float,
                                destroy_float,
                                floats};
    check_container(&c);
}

static void test_bool_array(void **state) {
    (void)state;
    const struct container c = {
        "aclCreateBoolArray", "aclGetBoolArraySize", make_bool, size_bool, destroy_bool, bools};
    check_container(&c);
}

static aclTensor *vector_of(float *data) {
    int64_t dims[1] = {2};
    return aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, data);
}

static void test_tensor_list(void **state) {
    (void)state;
    float f[4] = {1, 2, 3, 4};
    const aclTensor *ts[3] = {vector_of(f), vector_of(f + 2), NULL};
    uint64_t n = 0;
    aclTensorList *list = aclCreateTensorList(ts, 3); /* a NULL entry is kept */
    assert_non_null(list);
    assert_int_equal(aclGetTensorListSize(list, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 3);
    assert_int_equal(aclDestroyTensorList(list), ACLNN_SUCCESS); /* and its tensors */
    assert_int_equal(aclDestroyTensorList(NULL), ACLNN_SUCCESS);

    aclTensorList *empty = aclCreateTensorList(NULL, 0);
    assert_non_null(empty);
    assert_int_equal(aclGetTensorListSize(empty, &n), ACLNN_SUCCESS);
    assert_int_equal(n, 0);
    aclDestroyTensorList(empty);

    assert_null(aclCreateTensorList(NULL, 1));
    expect_message("aclCreateTensorList: value = NULL with size = 1");
    assert_null(aclCreateTensorList(ts, UINT64_MAX));
    expect_message("aclCreateTensorList: size = 18446744073709551615: too large");
    assert_int_equal(aclGetTensorListSize(NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetTensorListSize: array = NULL");
    const aclTensor *one[1] = {vector_of(f)};
    list = aclCreateTensorList(one, 1);
    assert_int_equal(aclGetTensorListSize(list, NULL), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetTensorListSize: size = NULL");
    aclDestroyTensorList(list);
}

static void test_scalar(void **state) {
    (void)state;
    int8_t small = -3;
    aclScalar *s = aclCreateScalar(&small, ACL_INT8);
    assert_non_null(s);
    assert_int_equal(aclDestroyScalar(s), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyScalar(NULL), ACLNN_SUCCESS);
    assert_null(aclCreateScalar(NULL, ACL_FLOAT));
    expect_message("aclCreateScalar: value = NULL");
    assert_null(aclCreateScalar(&small, (aclDataType)-5));
    expect_message("aclCreateScalar: unknown dataType");
}

static void test_tensor_scalar_getters(void **state) {
    (void)state;
    float f[8] = {0};
    int64_t dims[2] = {2, 3}, store[1] = {8};
    aclTensor *t = aclCreateTensor(dims, 2, ACL_BF16, NULL, 2, ACL_FORMAT_NCHW, store, 1, f);
    assert_non_null(t);
    int64_t off = -1;
    aclFormat fmt = ACL_FORMAT_UNDEFINED;
    aclDataType dt = ACL_DT_UNDEFINED;
    assert_int_equal(aclGetViewOffset(t, &off), ACLNN_SUCCESS);
    assert_int_equal(aclGetFormat(t, &fmt), ACLNN_SUCCESS);
    assert_int_equal(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    assert_int_equal(off, 2);
    assert_int_equal(fmt, ACL_FORMAT_NCHW);
    assert_int_equal(dt, ACL_BF16);

    off = 5;
    fmt = ACL_FORMAT_ND;
    dt = ACL_FLOAT;
    assert_int_equal(aclGetViewOffset(NULL, &off), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetViewOffset: tensor = NULL");
    assert_int_equal(aclGetViewOffset(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetViewOffset: offset = NULL");
    assert_int_equal(aclGetViewOffset(NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetViewOffset: tensor = NULL");
    assert_int_equal(aclGetFormat(NULL, &fmt), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetFormat: tensor = NULL");
    assert_int_equal(aclGetFormat(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetFormat: format = NULL");
    assert_int_equal(aclGetDataType(NULL, &dt), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetDataType: tensor = NULL");
    assert_int_equal(aclGetDataType(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    expect_message("aclGetDataType: dataType = NULL");
    assert_int_equal(off, 5); /* the outputs stay as they were */
    assert_int_equal(fmt, ACL_FORMAT_ND);
    assert_int_equal(dt, ACL_FLOAT);
    aclDestroyTensor(t);
}

static void test_tensor_shape_getters(void **state) {
    (void)state;
    float f[8] = {0};
    int64_t dims[2] = {2, 3}, store[1] = {8};
    aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, store, 1, f);
    int64_t *out = NULL;
    uint64_t n = 0;
    static const char *const names[3] = {"aclGetViewShape", "aclGetViewStrides",
                                         "aclGetStorageShape"};
    aclnnStatus (*const get[3])(const aclTensor *, int64_t **, uint64_t *) = {
        aclGetViewShape, aclGetViewStrides, aclGetStorageShape};
    for (int i = 0; i < 3; i++) {
        char want[96];
        assert_int_equal(get[i](NULL, &out, &n), ACLNN_ERR_PARAM_NULLPTR);
        snprintf(want, sizeof want, "%s: tensor = NULL", names[i]);
        expect_message(want);
        assert_int_equal(get[i](t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
        snprintf(want, sizeof want, "%s: output pointer = NULL", names[i]);
        expect_message(want);
        assert_int_equal(get[i](t, &out, NULL), ACLNN_ERR_PARAM_NULLPTR);
        expect_message(want);
        assert_int_equal(get[i](t, &out, &n), ACLNN_SUCCESS);
        assert_int_equal(n, i == 2 ? 1 : 2);
        assert_int_equal(out[0], i == 0 ? 2 : i == 1 ? 3 : 8);
        free(out);
    }
    aclDestroyTensor(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_array),
        cmocka_unit_test(test_float_array),
        cmocka_unit_test(test_bool_array),
        cmocka_unit_test(test_tensor_list),
        cmocka_unit_test(test_scalar),
        cmocka_unit_test(test_tensor_scalar_getters),
        cmocka_unit_test(test_tensor_shape_getters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
