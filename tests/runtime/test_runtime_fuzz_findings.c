/* Defects the runtime fuzz target (tests/fuzz/fuzz_runtime.c) found, one test each; the
 * inputs that found them are in tests/fuzz/regressions/fuzz_runtime/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "common/acl_fixture.h"
#include "aclnn/acl_meta.h"

/* A count of 0 allows NULL pointers (as aclrtMemcpy does); the queued copy passed them to
 * memmove, which is undefined even for 0 bytes (UBSan: "null pointer passed as argument
 * 1"). Regression input: memcpy-async-null-count-0. */
static void test_memcpy_async_null_with_count_0(void **state) {
    (void)state;
    aclrtStream stream = NULL;
    assert_int_equal(aclrtCreateStream(&stream), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(NULL, SIZE_MAX, NULL, 0, ACL_MEMCPY_HOST_TO_HOST, NULL),
                     ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(NULL, 0, NULL, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* A destroyed stream given to aclrtMemcpyAsync was reported as "stream submit: stream =
 * ...": the message must name the API that was called. Regression input:
 * memcpy-async-dead-stream-message. */
static void test_memcpy_async_dead_stream_names_the_api(void **state) {
    (void)state;
    aclrtStream stream = NULL;
    int32_t src = 7, dst = 0;
    assert_int_equal(aclrtCreateStream(&stream), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(stream), ACL_SUCCESS);
    assert_int_equal(
        aclrtMemcpyAsync(&dst, sizeof dst, &src, sizeof src, ACL_MEMCPY_HOST_TO_HOST, stream),
        ACL_ERROR_INVALID_PARAM);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(strstr(msg, "aclrtMemcpyAsync: stream = "));
    assert_non_null(strstr(msg, "not a live stream"));
    assert_int_equal(dst, 0);
}

/* With a storage shape, the view's last element offset + reach overflowed int64 (signed
 * overflow; wrapped, it passed as inside the storage) for dtypes whose byte span ropekit
 * does not count. Regression input: create-tensor-offset-plus-reach-overflows. */
static void test_create_tensor_offset_plus_reach_overflow(void **state) {
    (void)state;
    const int64_t dims[1] = {INT64_MAX}, storage[3] = {28, 43, 1};
    aclTensor *t =
        aclCreateTensor(dims, 1, ACL_COMPLEX32, NULL, 14, ACL_FORMAT_ND, storage, 3, NULL);
    assert_null(t);
    assert_non_null(strstr(aclGetRecentErrMsg(), "aclCreateTensor"));

    const int64_t two[1] = {2}, five[1] = {5};
    assert_null(aclCreateTensor(two, 1, ACL_INT8, NULL, INT64_MAX, ACL_FORMAT_ND, five, 1, NULL));
    assert_non_null(strstr(aclGetRecentErrMsg(), "aclCreateTensor"));

    /* the same shapes inside their storage are fine */
    const int64_t fits[1] = {7};
    t = aclCreateTensor(two, 1, ACL_INT8, NULL, 5, ACL_FORMAT_ND, fits, 1, NULL);
    assert_non_null(t);
    aclDestroyTensor(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memcpy_async_null_with_count_0),
        cmocka_unit_test(test_memcpy_async_dead_stream_names_the_api),
        cmocka_unit_test(test_create_tensor_offset_plus_reach_overflow),
    };
    return cmocka_run_group_tests(tests, fx_acl_init_group, fx_acl_finalize_group);
}
