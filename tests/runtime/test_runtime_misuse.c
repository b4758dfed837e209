/* Misuse of the ACL runtime: copies and fills larger than the allocation they target,
 * runtime calls before aclInit and after aclFinalize, and dead stream handles. Each
 * returns an error code with a message and writes nothing.
 *
 * Only the start of an allocation is tracked: a copy through a pointer into the middle
 * of an aclrtMalloc block, or into memory ropekit did not allocate, is bounded by
 * destMax alone (the library cannot know the real extent). aclDestroyTensor and the
 * container destroy functions free untracked objects: destroying one twice cannot be
 * detected (a double free, as on CANN). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "common/acl_fixture.h"

static void assert_message(void) {
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_true(strlen(m) > 0);
}

static void test_runtime_before_init(void **state) {
    (void)state;
    unsigned char a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {0};
    assert_int_equal(aclrtMemcpy(b, sizeof b, a, sizeof a, ACL_MEMCPY_HOST_TO_HOST),
                     ACL_ERROR_UNINITIALIZE);
    assert_message();
    assert_int_equal(aclrtMemcpyAsync(b, sizeof b, a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, NULL),
                     ACL_ERROR_UNINITIALIZE);
    assert_message();
    assert_int_equal(aclrtMemset(b, sizeof b, 0x5a, sizeof b), ACL_ERROR_UNINITIALIZE);
    assert_message();
    for (size_t i = 0; i < sizeof b; i++)
        assert_int_equal(b[i], 0);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    assert_message();
    aclrtStream st = NULL;
    assert_int_equal(aclrtCreateStream(&st), ACL_ERROR_UNINITIALIZE);
    assert_null(st);
    assert_int_equal(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    assert_int_equal(aclFinalize(), ACL_ERROR_UNINITIALIZE);
    assert_message();
}

/* destMax may overstate an aclrtMalloc block: the block's own size still bounds the
 * copy, for the destination and for the source, and for aclrtMemset. */
static void test_copy_beyond_allocation(void **state) {
    (void)state;
    void *d = NULL, *h = NULL;
    unsigned char src[128], dst[128];
    memset(src, 0x11, sizeof src);
    memset(dst, 0x22, sizeof dst);
    assert_int_equal(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost(&h, 10), ACL_SUCCESS);
    memset(d, 0x33, 64);
    assert_int_equal(aclrtMemcpy(d, 128, src, 65, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_true(strstr(aclGetRecentErrMsg(), "64 bytes") != NULL);
    assert_int_equal(aclrtMemcpy(dst, 128, d, 100, ACL_MEMCPY_DEVICE_TO_HOST),
                     ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_int_equal(aclrtMemcpy(h, 64, src, 11, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_int_equal(aclrtMemcpyAsync(d, 128, src, 128, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
                     ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_int_equal(aclrtMemset(d, 1024, 0, 65), ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(((unsigned char *)d)[i], 0x33);
    for (size_t i = 0; i < sizeof dst; i++)
        assert_int_equal(dst[i], 0x22);
    /* exactly the allocation is fine */
    assert_int_equal(aclrtMemcpy(d, 128, src, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(h, 10, 0x44, 10), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(h), ACL_SUCCESS);
}

/* After aclFinalize: copies, fills and synchronize fail; a stream made before may still
 * be destroyed (once); aclInit makes everything work again. */
static void test_runtime_after_finalize(void **state) {
    (void)state;
    aclrtStream st = NULL;
    int32_t a = 7, b = 0;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(&b, sizeof b, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST),
                     ACL_ERROR_UNINITIALIZE);
    assert_message();
    assert_int_equal(aclrtMemcpyAsync(&b, sizeof b, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, st),
                     ACL_ERROR_UNINITIALIZE);
    assert_int_equal(aclrtMemset(&b, sizeof b, 1, sizeof b), ACL_ERROR_UNINITIALIZE);
    assert_int_equal(aclrtSynchronizeStream(st), ACL_ERROR_UNINITIALIZE);
    assert_int_equal(b, 0);
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(st), ACL_ERROR_INVALID_PARAM); /* double destroy */
    assert_message();
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(&b, sizeof b, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    assert_int_equal(b, 7);
    assert_int_equal(aclrtSynchronizeStream(st), ACL_ERROR_INVALID_PARAM); /* still dead */
    assert_message();
}

int main(void) {
    const struct CMUnitTest uninitialised[] = {
        cmocka_unit_test(test_runtime_before_init),
    };
    const struct CMUnitTest initialised[] = {
        cmocka_unit_test(test_copy_beyond_allocation),
        cmocka_unit_test(test_runtime_after_finalize),
    };
    int failed = cmocka_run_group_tests_name("before aclInit", uninitialised, NULL, NULL);
    failed += cmocka_run_group_tests_name("after aclInit", initialised, fx_acl_init_group,
                                          fx_acl_finalize_group);
    return failed;
}
