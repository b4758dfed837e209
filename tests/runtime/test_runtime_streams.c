/* Streams (SPEC §2.3): in-order asynchronous queues; synchronize, destroy with queued
 * work, invalid handles, two streams; plus aclInit/aclFinalize and device rules. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "common/acl_fixture.h"

static void assert_message(void) {
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_true(strlen(m) > 0);
}

enum { N = 16, LEN = 8, STEPS = 40 };

/* A repeatable rotation of x[0..N) (one row, slice [4, 4+LEN)). */
struct rotor {
    float x[N];
    float c[LEN], s[LEN];
    aclOpExecutor *e;
};

static void rotor_init(struct rotor *r) {
    for (int i = 0; i < N; i++)
        r->x[i] = (float)i - 5.5f;
    for (int i = 0; i < LEN; i++) {
        r->c[i] = (float)cos(0.4 * i + 0.1);
        r->s[i] = (float)sin(0.4 * i + 0.1);
    }
    int64_t xd[4] = {1, 1, 1, N}, cd[4] = {1, 1, 1, LEN}, sl[2] = {4, 4 + LEN};
    aclTensor *tx = aclCreateTensor(xd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 4, r->x);
    aclTensor *tc = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, r->c);
    aclTensor *ts = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, r->s);
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    uint64_t ws = 0;
    r->e = NULL;
    assert_int_equal(aclnnInplacePartialRotaryMulGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &r->e),
                     ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(r->e), ACLNN_SUCCESS);
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
}

static void rotor_reference_step(float *x, const struct rotor *r) {
    float u[LEN];
    tk_ref32_interleave(0, LEN, x + 4, r->c, r->s, u);
    memcpy(x + 4, u, sizeof u);
}

/* Snapshots taken by async copies between rotations: snapshot i must equal the
 * state after exactly i rotations, which only holds if the stream runs in order. */
static void test_in_order_execution(void **state) {
    (void)state;
    aclrtStream st = NULL;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    struct rotor r;
    rotor_init(&r);
    static float snap[STEPS + 1][N];
    float dev_scratch[N];
    for (int i = 0; i < STEPS; i++) {
        /* a detour through a scratch buffer: two copies whose order matters */
        assert_int_equal(aclrtMemcpyAsync(dev_scratch, sizeof dev_scratch, r.x, sizeof r.x,
                                          ACL_MEMCPY_DEVICE_TO_DEVICE, st),
                         ACL_SUCCESS);
        assert_int_equal(aclrtMemcpyAsync(snap[i], sizeof snap[i], dev_scratch, sizeof dev_scratch,
                                          ACL_MEMCPY_DEVICE_TO_HOST, st),
                         ACL_SUCCESS);
        assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, r.e, st), ACLNN_SUCCESS);
    }
    assert_int_equal(aclrtMemcpyAsync(snap[STEPS], sizeof snap[STEPS], r.x, sizeof r.x,
                                      ACL_MEMCPY_DEVICE_TO_HOST, st),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(st), ACL_SUCCESS);
    float want[N];
    for (int i = 0; i < N; i++)
        want[i] = (float)i - 5.5f;
    for (int i = 0; i <= STEPS; i++) {
        assert_memory_equal(snap[i], want, sizeof want);
        rotor_reference_step(want, &r);
    }
    assert_int_equal(aclDestroyAclOpExecutor(r.e), ACLNN_SUCCESS);
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
}

/* Copies chained through one cell: the log receives values in queue order. */
static void test_in_order_copies(void **state) {
    (void)state;
    aclrtStream st = NULL;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    enum { K = 500 };
    static int32_t values[K], log_[K];
    int32_t cell = -1;
    for (int i = 0; i < K; i++) {
        values[i] = i * 31 + 7;
        log_[i] = -1;
        assert_int_equal(aclrtMemcpyAsync(&cell, sizeof cell, &values[i], sizeof cell,
                                          ACL_MEMCPY_HOST_TO_DEVICE, st),
                         ACL_SUCCESS);
        assert_int_equal(aclrtMemcpyAsync(&log_[i], sizeof cell, &cell, sizeof cell,
                                          ACL_MEMCPY_DEVICE_TO_HOST, st),
                         ACL_SUCCESS);
    }
    assert_int_equal(aclrtSynchronizeStream(st), ACL_SUCCESS);
    assert_memory_equal(log_, values, sizeof values);
    assert_int_equal(cell, values[K - 1]);
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
}

static void test_synchronize_returns_success(void **state) {
    (void)state;
    aclrtStream st = NULL;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    assert_non_null(st);
    assert_int_equal(aclrtSynchronizeStream(st), ACL_SUCCESS); /* empty */
    assert_int_equal(aclrtSynchronizeStream(st), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS); /* default stream */
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
}

/* Destroying a stream runs the work still queued on it first. */
static void test_destroy_runs_queued_work(void **state) {
    (void)state;
    aclrtStream st = NULL;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    enum { K = 200 };
    static int64_t src[K], dst[K];
    for (int i = 0; i < K; i++) {
        src[i] = (int64_t)i * 1000003;
        dst[i] = 0;
        assert_int_equal(aclrtMemcpyAsync(&dst[i], sizeof dst[i], &src[i], sizeof src[i],
                                          ACL_MEMCPY_HOST_TO_DEVICE, st),
                         ACL_SUCCESS);
    }
    struct rotor r;
    rotor_init(&r);
    for (int i = 0; i < 3; i++)
        assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, r.e, st), ACLNN_SUCCESS);
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
    assert_memory_equal(dst, src, sizeof src);
    float want[N];
    for (int i = 0; i < N; i++)
        want[i] = (float)i - 5.5f;
    for (int i = 0; i < 3; i++)
        rotor_reference_step(want, &r);
    assert_memory_equal(r.x, want, sizeof want);
    assert_int_equal(aclDestroyAclOpExecutor(r.e), ACLNN_SUCCESS);
}

static void test_invalid_stream_handles(void **state) {
    (void)state;
    static max_align_t not_a_stream;
    aclrtStream bogus = (aclrtStream)&not_a_stream;
    int32_t a = 1, b = 2;
    assert_int_not_equal(aclrtSynchronizeStream(bogus), ACL_SUCCESS);
    assert_message();
    assert_int_not_equal(
        aclrtMemcpyAsync(&b, sizeof b, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, bogus), ACL_SUCCESS);
    assert_message();
    assert_int_not_equal(aclrtDestroyStream(bogus), ACL_SUCCESS);
    assert_int_equal(b, 2);
    /* a destroyed stream is no longer a stream */
    aclrtStream st = NULL;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
    assert_int_not_equal(aclrtDestroyStream(st), ACL_SUCCESS);
    assert_int_not_equal(aclrtSynchronizeStream(st), ACL_SUCCESS);
    assert_int_not_equal(aclrtMemcpyAsync(&b, sizeof b, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, st),
                         ACL_SUCCESS);
    assert_int_equal(b, 2);
    assert_int_not_equal(aclrtCreateStream(NULL), ACL_SUCCESS);
    /* argument errors of the async copy are reported at once */
    assert_int_equal(aclrtMemcpyAsync(&b, 2, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, NULL),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(b, 2);
}

/* Two streams each keep their own order; synchronizing one and destroying it leaves
 * the other usable. */
static void test_two_streams(void **state) {
    (void)state;
    aclrtStream s1 = NULL, s2 = NULL;
    assert_int_equal(aclrtCreateStream(&s1), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&s2), ACL_SUCCESS);
    assert_ptr_not_equal(s1, s2);
    enum { K = 100 };
    static int32_t v1[K], v2[K], l1[K], l2[K];
    int32_t c1 = 0, c2 = 0;
    for (int i = 0; i < K; i++) {
        v1[i] = i + 1;
        v2[i] = -(i + 1);
        assert_int_equal(
            aclrtMemcpyAsync(&c1, sizeof c1, &v1[i], sizeof c1, ACL_MEMCPY_HOST_TO_DEVICE, s1),
            ACL_SUCCESS);
        assert_int_equal(
            aclrtMemcpyAsync(&c2, sizeof c2, &v2[i], sizeof c2, ACL_MEMCPY_HOST_TO_DEVICE, s2),
            ACL_SUCCESS);
        assert_int_equal(
            aclrtMemcpyAsync(&l1[i], sizeof c1, &c1, sizeof c1, ACL_MEMCPY_DEVICE_TO_HOST, s1),
            ACL_SUCCESS);
        assert_int_equal(
            aclrtMemcpyAsync(&l2[i], sizeof c2, &c2, sizeof c2, ACL_MEMCPY_DEVICE_TO_HOST, s2),
            ACL_SUCCESS);
    }
    assert_int_equal(aclrtSynchronizeStream(s1), ACL_SUCCESS);
    assert_memory_equal(l1, v1, sizeof v1);
    assert_int_equal(aclrtDestroyStream(s1), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s2), ACL_SUCCESS);
    assert_memory_equal(l2, v2, sizeof v2);
    int32_t one = 1, got = 0;
    assert_int_equal(
        aclrtMemcpyAsync(&got, sizeof got, &one, sizeof one, ACL_MEMCPY_HOST_TO_HOST, s2),
        ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s2), ACL_SUCCESS);
    assert_int_equal(got, 1);
    assert_int_equal(aclrtDestroyStream(s2), ACL_SUCCESS);
}

static void test_init_twice(void **state) {
    (void)state;
    assert_int_equal(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    assert_message();
    /* the runtime stays usable */
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
}

static void test_devices(void **state) {
    (void)state;
    uint32_t count = 0;
    assert_int_equal(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    assert_int_equal(count, 1);
    assert_int_not_equal(aclrtGetDeviceCount(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_not_equal(aclrtSetDevice(1), ACL_SUCCESS);
    assert_message();
    assert_int_not_equal(aclrtSetDevice(-1), ACL_SUCCESS);
    assert_int_not_equal(aclrtResetDevice(1), ACL_SUCCESS);
}

/* aclFinalize twice is an error; afterwards aclInit starts over (a bad config path is
 * refused, NULL is fine). */
static void test_finalize_twice(void **state) {
    (void)state;
    aclrtStream st = NULL;
    int32_t a = 5, b = 0;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(&b, sizeof b, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, NULL),
                     ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(b, 5); /* finalize drained the default stream */
    assert_int_equal(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    assert_message();
    aclrtStream late = NULL;
    assert_int_not_equal(aclrtCreateStream(&late), ACL_SUCCESS);
    assert_null(late);
    assert_int_not_equal(aclInit("no-such-directory/acl.json"), ACL_SUCCESS);
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order_execution),
        cmocka_unit_test(test_in_order_copies),
        cmocka_unit_test(test_synchronize_returns_success),
        cmocka_unit_test(test_destroy_runs_queued_work),
        cmocka_unit_test(test_invalid_stream_handles),
        cmocka_unit_test(test_two_streams),
        cmocka_unit_test(test_init_twice),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_finalize_twice),
    };
    return cmocka_run_group_tests(tests, fx_acl_init_group, fx_acl_finalize_group);
}
