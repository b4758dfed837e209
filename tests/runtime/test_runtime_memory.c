/* ACL memory functions (SPEC §2.2, §2.3): device memory is 64-byte-aligned host
 * memory, size 0 gives a unique valid pointer, bad or double frees are errors (not
 * crashes), host and device allocations do not mix, memcpy/memset bounds. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "common/acl_fixture.h"

static void assert_message(void) {
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_true(strlen(m) > 0);
}

/* ---- before aclInit ---- */

static void test_malloc_before_init(void **state) {
    (void)state;
    void *p = (void *)&p;
    assert_int_equal(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    assert_message();
    assert_ptr_equal(p, (void *)&p); /* output not written */
    assert_int_equal(aclrtMallocHost(&p, 16), ACL_ERROR_UNINITIALIZE);
    assert_ptr_equal(p, (void *)&p);
}

/* ---- after aclInit ---- */

static void test_malloc_alignment(void **state) {
    (void)state;
    static const size_t sizes[] = {1, 3, 63, 64, 65, 100, 4096, 4097, 1u << 20};
    static const aclrtMemMallocPolicy policies[] = {
        ACL_MEM_MALLOC_HUGE_FIRST,    ACL_MEM_MALLOC_HUGE_ONLY,
        ACL_MEM_MALLOC_NORMAL_ONLY,   ACL_MEM_MALLOC_HUGE_FIRST_P2P,
        ACL_MEM_MALLOC_HUGE_ONLY_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        void *p = NULL;
        assert_int_equal(aclrtMalloc(&p, sizes[i], policies[i % 6]), ACL_SUCCESS);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 64, 0);
        memset(p, 0x5a, sizes[i]); /* the whole size is usable */
        assert_int_equal(((unsigned char *)p)[sizes[i] - 1], 0x5a);
        assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    }
}

static void test_malloc_host(void **state) {
    (void)state;
    void *p = NULL;
    assert_int_equal(aclrtMallocHost(&p, 200), ACL_SUCCESS);
    assert_non_null(p);
    memset(p, 1, 200);
    assert_int_equal(aclrtFreeHost(p), ACL_SUCCESS);
}

static void test_malloc_size_zero_is_unique(void **state) {
    (void)state;
    void *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(aclrtMalloc(&a, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&b, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost(&c, 0), ACL_SUCCESS);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_ptr_not_equal(a, b);
    assert_ptr_not_equal(a, c);
    assert_ptr_not_equal(b, c);
    assert_int_equal((uintptr_t)a % 64, 0);
    assert_int_equal((uintptr_t)b % 64, 0);
    assert_int_equal(aclrtFree(a), ACL_SUCCESS);
    assert_int_equal(aclrtFree(b), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(c), ACL_SUCCESS);
}

static void test_malloc_null_output(void **state) {
    (void)state;
    assert_int_not_equal(aclrtMalloc(NULL, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_message();
    assert_int_not_equal(aclrtMallocHost(NULL, 8), ACL_SUCCESS);
}

static void test_free_not_allocated(void **state) {
    (void)state;
    char local[16];
    static max_align_t global;
    assert_int_equal(aclrtFree(local), ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_int_equal(aclrtFree(&global), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFreeHost(local), ACL_ERROR_INVALID_PARAM);
    assert_int_not_equal(aclrtFree(NULL), ACL_SUCCESS);
    assert_int_not_equal(aclrtFreeHost(NULL), ACL_SUCCESS);
    /* an interior pointer is not an allocation either */
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtFree((char *)p + 64), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
}

static void test_double_free(void **state) {
    (void)state;
    void *p = NULL, *h = NULL;
    assert_int_equal(aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_int_equal(aclrtMallocHost(&h, 32), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(h), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM);
}

/* aclrtMallocHost memory is freed with aclrtFreeHost, aclrtMalloc memory with
 * aclrtFree; a mismatch is an error and leaves the allocation alive. */
static void test_host_device_mismatch(void **state) {
    (void)state;
    void *h = NULL, *d = NULL;
    assert_int_equal(aclrtMallocHost(&h, 48), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&d, 48, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtFree(h), ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_int_equal(aclrtFreeHost(d), ACL_ERROR_INVALID_PARAM);
    assert_message();
    memset(h, 2, 48); /* both are still valid */
    memset(d, 3, 48);
    assert_int_equal(aclrtFreeHost(h), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
}

static void test_memcpy_all_kinds(void **state) {
    (void)state;
    void *d = NULL;
    unsigned char src[100], back[100];
    assert_int_equal(aclrtMalloc(&d, sizeof src, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (int kind = ACL_MEMCPY_HOST_TO_HOST; kind <= ACL_MEMCPY_INTER_DEVICE_TO_DEVICE; kind++) {
        for (size_t i = 0; i < sizeof src; i++)
            src[i] = (unsigned char)(i * 7 + (size_t)kind);
        memset(back, 0, sizeof back);
        assert_int_equal(aclrtMemcpy(d, sizeof src, src, sizeof src, (aclrtMemcpyKind)kind),
                         ACL_SUCCESS);
        assert_int_equal(aclrtMemcpy(back, sizeof back, d, sizeof src, (aclrtMemcpyKind)kind),
                         ACL_SUCCESS);
        assert_memory_equal(back, src, sizeof src);
    }
    /* destMax larger than count: only count bytes move */
    memset(back, 0xee, sizeof back);
    assert_int_equal(aclrtMemcpy(back, sizeof back, src, 10, ACL_MEMCPY_DEVICE_TO_HOST),
                     ACL_SUCCESS);
    assert_memory_equal(back, src, 10);
    assert_int_equal(back[10], 0xee);
    /* count 0 is a valid empty copy */
    assert_int_equal(aclrtMemcpy(back, sizeof back, src, 0, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
}

static void test_memcpy_dest_max_too_small(void **state) {
    (void)state;
    unsigned char src[64], dst[64], before[64];
    memset(src, 0x11, sizeof src);
    memset(dst, 0x22, sizeof dst);
    memcpy(before, dst, sizeof dst);
    assert_int_equal(aclrtMemcpy(dst, 32, src, 33, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
    assert_message();
    assert_memory_equal(dst, before, sizeof dst);
    assert_int_equal(aclrtMemcpy(dst, 0, src, 1, ACL_MEMCPY_DEVICE_TO_HOST),
                     ACL_ERROR_INVALID_PARAM);
    assert_memory_equal(dst, before, sizeof dst);
    /* destMax == count is fine */
    assert_int_equal(aclrtMemcpy(dst, 32, src, 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    assert_memory_equal(dst, src, 32);
    assert_int_equal(dst[32], 0x22);
}

static void test_memcpy_null_pointers(void **state) {
    (void)state;
    unsigned char buf[8] = {0};
    assert_int_not_equal(aclrtMemcpy(NULL, 8, buf, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    assert_int_not_equal(aclrtMemcpy(buf, 8, NULL, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void test_memset(void **state) {
    (void)state;
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    unsigned char *p = d;
    memset(p, 0, 64);
    assert_int_equal(aclrtMemset(d, 64, 0xab, 40), ACL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(p[i], i < 40 ? 0xab : 0);
    assert_int_equal(aclrtMemset(d, 64, 0, 64), ACL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(p[i], 0);
    /* count beyond maxCount: an error, nothing written */
    assert_int_equal(aclrtMemset(d, 16, 0x7f, 17), ACL_ERROR_INVALID_PARAM);
    assert_message();
    for (int i = 0; i < 64; i++)
        assert_int_equal(p[i], 0);
    assert_int_equal(aclrtMemset(d, 64, 0x7f, 0), ACL_SUCCESS);
    assert_int_equal(p[0], 0);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
}

static void test_malloc_size_overflow(void **state) {
    (void)state;
    void *p = (void *)&p;
    assert_int_not_equal(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_message();
    assert_ptr_equal(p, (void *)&p);
    assert_int_not_equal(aclrtMallocHost(&p, SIZE_MAX - 3), ACL_SUCCESS);
    assert_ptr_equal(p, (void *)&p);
}

struct thread_probe {
    char first[64]; /* the message a new thread starts with */
    char own[256];  /* the message after its own failure */
};

static void *probe_thread(void *arg) {
    struct thread_probe *t = arg;
    unsigned char a[4] = {0}, b[4] = {0};
    snprintf(t->first, sizeof t->first, "%s", aclGetRecentErrMsg());
    (void)aclrtMemcpy(a, 2, b, 4, ACL_MEMCPY_HOST_TO_HOST);
    snprintf(t->own, sizeof t->own, "%s", aclGetRecentErrMsg());
    return NULL;
}

/* aclGetRecentErrMsg is per thread: another thread's failure does not replace ours. */
static void test_error_message_is_thread_local(void **state) {
    (void)state;
    char local[8];
    assert_int_equal(aclrtFree(local), ACL_ERROR_INVALID_PARAM);
    char mine[256];
    snprintf(mine, sizeof mine, "%s", aclGetRecentErrMsg());
    assert_true(strstr(mine, "aclrtFree") != NULL);
    struct thread_probe t;
    memset(&t, 0, sizeof t);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, probe_thread, &t), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_string_equal(t.first, "");
    assert_true(strstr(t.own, "aclrtMemcpy") != NULL);
    assert_string_equal(aclGetRecentErrMsg(), mine);
}

/* After aclFinalize the runtime is uninitialised again until the next aclInit; memory
 * allocated before stays valid and freeable. */
static void test_malloc_after_finalize(void **state) {
    (void)state;
    void *kept = NULL, *p = NULL;
    assert_int_equal(aclrtMalloc(&kept, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    assert_null(p);
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    assert_int_equal(aclrtFree(kept), ACL_SUCCESS);
}

int main(void) {
    const struct CMUnitTest uninitialised[] = {
        cmocka_unit_test(test_malloc_before_init),
    };
    const struct CMUnitTest initialised[] = {
        cmocka_unit_test(test_malloc_alignment),
        cmocka_unit_test(test_malloc_host),
        cmocka_unit_test(test_malloc_size_zero_is_unique),
        cmocka_unit_test(test_malloc_null_output),
        cmocka_unit_test(test_free_not_allocated),
        cmocka_unit_test(test_double_free),
        cmocka_unit_test(test_host_device_mismatch),
        cmocka_unit_test(test_memcpy_all_kinds),
        cmocka_unit_test(test_memcpy_dest_max_too_small),
        cmocka_unit_test(test_memcpy_null_pointers),
        cmocka_unit_test(test_memset),
        cmocka_unit_test(test_malloc_size_overflow),
        cmocka_unit_test(test_error_message_is_thread_local),
        cmocka_unit_test(test_malloc_after_finalize),
    };
    int failed = cmocka_run_group_tests_name("before aclInit", uninitialised, NULL, NULL);
    failed += cmocka_run_group_tests_name("after aclInit", initialised, fx_acl_init_group,
                                          fx_acl_finalize_group);
    return failed;
}
