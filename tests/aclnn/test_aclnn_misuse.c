/* Misuse of the aclnn face: every case returns an error code with a message and
 * changes nothing. Overflowing or out-of-storage tensors, executors used after they
 * were consumed or destroyed, an executor given to another operator's phase 2,
 * inconsistent workspaces, and phase 2 before aclInit or after aclFinalize.
 *
 * Not testable (the library cannot know): an aclTensor or aclIntArray used or destroyed
 * after aclDestroyTensor / aclDestroyIntArray (they are plain allocations, not tracked;
 * freeing twice is a double free, as on CANN), and an executor handle whose address has
 * been reused by a newer executor (the registry then sees a live executor). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "common/acl_fixture.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"

enum { D = 8, T = 2, HS = 16, MAXPOS = 4 };

static void assert_message(void) {
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_true(strlen(m) > 0);
}

/* One in-place partial rotation of x (the whole row) and one rope of q, k. */
static float x[D], c[D], s[D];
static float q[T * HS], k[T * HS], qo[T * HS], ko[T * HS], cache[MAXPOS * HS];
static int64_t pos[T] = {1, 3};

static void fill(void) {
    for (int i = 0; i < D; i++) {
        x[i] = (float)i + 0.5f;
        c[i] = 0.5f;
        s[i] = 0.25f;
    }
    for (int i = 0; i < T * HS; i++) {
        q[i] = (float)i;
        k[i] = (float)-i;
        qo[i] = ko[i] = -7.0f;
    }
    for (int i = 0; i < MAXPOS * HS; i++)
        cache[i] = 0.125f * (float)(i % 7);
}

static aclOpExecutor *pr_plan(bool grad) {
    const int64_t d[4] = {1, 1, 1, D}, sl[2] = {0, D};
    aclTensor *tx = aclCreateTensor(d, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 4, x);
    aclTensor *tc = aclCreateTensor(d, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 4, c);
    aclTensor *ts = aclCreateTensor(d, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 4, s);
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    uint64_t ws = 99;
    aclOpExecutor *e = NULL;
    aclnnStatus st =
        grad ? aclnnInplacePartialRotaryMulGradGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &e)
             : aclnnInplacePartialRotaryMulGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &e);
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_int_equal(ws, 0); /* so a workspaceSize below the reported one cannot exist */
    return e;
}

static aclOpExecutor *rope_plan(bool v2) {
    const int64_t pd[1] = {T}, qd[2] = {T, HS}, cd[2] = {MAXPOS, HS};
    aclTensor *p = aclCreateTensor(pd, 1, ACL_INT64, NULL, 0, ACL_FORMAT_ND, pd, 1, pos);
    aclTensor *tq = aclCreateTensor(qd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, qd, 2, q);
    aclTensor *tk = aclCreateTensor(qd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, qd, 2, k);
    aclTensor *tc = aclCreateTensor(cd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 2, cache);
    aclTensor *tqo = aclCreateTensor(qd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, qd, 2, qo);
    aclTensor *tko = aclCreateTensor(qd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, qd, 2, ko);
    uint64_t ws = 99;
    aclOpExecutor *e = NULL;
    aclnnStatus st = v2 ? aclnnRopeWithSinCosCacheV2GetWorkspaceSize(p, tq, tk, tc, NULL, HS, true,
                                                                     0, tqo, tko, &ws, &e)
                        : aclnnRopeWithSinCosCacheGetWorkspaceSize(p, tq, tk, tc, NULL, HS, true,
                                                                   tqo, tko, &ws, &e);
    aclDestroyTensor(p);
    aclDestroyTensor(tq);
    aclDestroyTensor(tk);
    aclDestroyTensor(tc);
    aclDestroyTensor(tqo);
    aclDestroyTensor(tko);
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_int_equal(ws, 0);
    return e;
}

/* Snapshot of every buffer an operator may write. */
struct snapshot {
    float x[D], qo[T * HS], ko[T * HS];
};

static void snap(struct snapshot *sn) {
    memcpy(sn->x, x, sizeof x);
    memcpy(sn->qo, qo, sizeof qo);
    memcpy(sn->ko, ko, sizeof ko);
}

static void assert_unchanged(const struct snapshot *sn) {
    assert_memory_equal(sn->x, x, sizeof x);
    assert_memory_equal(sn->qo, qo, sizeof qo);
    assert_memory_equal(sn->ko, ko, sizeof ko);
}

/* ---- before aclInit ---- */

/* Phase 1 is host work and needs no runtime; phase 2 launches on a stream and fails
 * with 361001 until aclInit (the executor is consumed, as by any failed phase 2). */
static void test_phase2_before_init(void **state) {
    (void)state;
    fill();
    struct snapshot sn;
    snap(&sn);
    aclOpExecutor *e = pr_plan(false);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_ERR_RUNTIME_ERROR);
    assert_message();
    assert_true(strstr(aclGetRecentErrMsg(), "aclInit") != NULL);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_ERR_PARAM_INVALID);
    e = rope_plan(false);
    assert_int_equal(aclnnRopeWithSinCosCache(NULL, 0, e, NULL), ACLNN_ERR_RUNTIME_ERROR);
    assert_message();
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    assert_message();
    assert_unchanged(&sn);
}

/* ---- after aclInit ---- */

/* Element counts or byte sizes beyond int64, and offsets that push the view's bytes
 * beyond int64, are refused by aclCreateTensor (so no phase 1 ever sees them). */
static void test_overflowing_shapes(void **state) {
    (void)state;
    float buf[4];
    const int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};  /* 2^80 elements */
    const int64_t bytes[2] = {INT64_C(1) << 31, INT64_C(1) << 31}; /* 2^62 elems, 2^64 B */
    const int64_t one[1] = {1}, three[1] = {3}, wide[1] = {INT64_MAX / 2};
    assert_null(aclCreateTensor(huge, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_null(aclCreateTensor(bytes, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_null(aclCreateTensor(three, 1, ACL_FLOAT, wide, 0, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_null(
        aclCreateTensor(one, 1, ACL_FLOAT, NULL, INT64_MAX / 2, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    assert_true(strstr(aclGetRecentErrMsg(), "offset") != NULL);
    assert_null(aclCreateTensor(one, 1, ACL_FLOAT, NULL, INT64_MAX, ACL_FORMAT_ND, wide, 1, buf));
    assert_message();
    /* an empty view still has its offset scaled to bytes */
    const int64_t empty[1] = {0};
    assert_null(aclCreateTensor(empty, 1, ACL_BF16, NULL, INT64_MAX, ACL_FORMAT_ND, NULL, 0, buf));
    assert_message();
    const int64_t storage[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
    assert_null(aclCreateTensor(one, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 2, buf));
    assert_message();
    assert_null(aclCreateIntArray(one, UINT64_MAX));
    assert_message();
    /* the largest offset that still fits is accepted */
    aclTensor *t =
        aclCreateTensor(one, 1, ACL_FLOAT, NULL, INT64_MAX / 4 - 1, ACL_FORMAT_ND, NULL, 0, buf);
    assert_non_null(t);
    aclDestroyTensor(t);
}

/* Strides and offsets that reach outside the given storage shape. */
static void test_view_outside_storage(void **state) {
    (void)state;
    float buf[8];
    const int64_t four[1] = {4}, st2[1] = {2}, neg[1] = {-1}, s6[1] = {6}, s7[1] = {7}, s8[1] = {8};
    aclTensor *t = aclCreateTensor(four, 1, ACL_FLOAT, st2, 0, ACL_FORMAT_ND, s7, 1, buf);
    assert_non_null(t); /* elements 0, 2, 4, 6 of 7 */
    aclDestroyTensor(t);
    assert_null(aclCreateTensor(four, 1, ACL_FLOAT, st2, 0, ACL_FORMAT_ND, s6, 1, buf));
    assert_message();
    assert_null(aclCreateTensor(four, 1, ACL_FLOAT, NULL, 3, ACL_FORMAT_ND, s6, 1, buf));
    assert_message();
    assert_null(aclCreateTensor(four, 1, ACL_FLOAT, neg, 2, ACL_FORMAT_ND, s8, 1, buf));
    assert_message(); /* a negative stride reaching below element 0 */
    t = aclCreateTensor(four, 1, ACL_FLOAT, neg, 3, ACL_FORMAT_ND, s8, 1, buf);
    assert_non_null(t);
    aclDestroyTensor(t);
    assert_null(aclCreateTensor(four, 1, ACL_FLOAT, NULL, -1, ACL_FORMAT_ND, s8, 1, buf));
    assert_message();
}

/* A consumed or destroyed executor is refused everywhere it is accepted. */
static void test_executor_after_consume_and_destroy(void **state) {
    (void)state;
    fill();
    aclOpExecutor *e = pr_plan(false);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    struct snapshot sn;
    snap(&sn);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclSetInputTensorAddr(e, 0, NULL, x), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_ERR_PARAM_INVALID);
    assert_message();

    e = rope_plan(false);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_ERR_PARAM_INVALID); /* double destroy */
    assert_message();
    assert_int_equal(aclnnRopeWithSinCosCache(NULL, 0, e, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclSetOutputTensorAddr(e, 0, NULL, qo), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_unchanged(&sn);
}

/* An executor given to another operator's phase 2 is refused (161002) and stays
 * usable by its own operator. */
static void test_executor_of_wrong_operator(void **state) {
    (void)state;
    fill();
    struct snapshot sn;
    snap(&sn);
    aclOpExecutor *fwd = pr_plan(false), *grad = pr_plan(true), *v1 = rope_plan(false),
                  *v2 = rope_plan(true);
    assert_int_equal(aclnnRopeWithSinCosCache(NULL, 0, fwd, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclnnRopeWithSinCosCacheV2(NULL, 0, grad, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, fwd, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, v1, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclnnRopeWithSinCosCacheV2(NULL, 0, v1, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclnnRopeWithSinCosCache(NULL, 0, v2, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_message();
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_unchanged(&sn);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, fwd, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, grad, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnRopeWithSinCosCache(NULL, 0, v1, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnRopeWithSinCosCacheV2(NULL, 0, v2, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_not_equal(sn.qo, qo, sizeof qo);
}

/* Workspaces: phase 1 reports 0 bytes, so no size can be too small; NULL with a
 * non-zero size is refused (161001, the executor is consumed, nothing written); a real
 * buffer of any size or alignment is accepted (ropekit never touches it). */
static void test_workspace_arguments(void **state) {
    (void)state;
    fill();
    struct snapshot sn;
    snap(&sn);
    aclOpExecutor *e = pr_plan(false);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 16, e, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_message();
    assert_true(strstr(aclGetRecentErrMsg(), "workspace") != NULL);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_ERR_PARAM_INVALID);
    e = rope_plan(true);
    assert_int_equal(aclnnRopeWithSinCosCacheV2(NULL, UINT64_MAX, e, NULL),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_message();
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_unchanged(&sn);

    static unsigned char ws[64];
    e = pr_plan(false);
    assert_int_equal(aclnnInplacePartialRotaryMul(ws + 1, 7, e, NULL), ACLNN_SUCCESS);
    e = rope_plan(false);
    assert_int_equal(aclnnRopeWithSinCosCache(ws + 3, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_not_equal(sn.x, x, sizeof x);
}

/* After aclFinalize, phase 2 fails as before aclInit; aclInit again restores it. */
static void test_phase2_after_finalize(void **state) {
    (void)state;
    fill();
    struct snapshot sn;
    snap(&sn);
    aclOpExecutor *e = pr_plan(true);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, e, NULL), ACLNN_ERR_RUNTIME_ERROR);
    assert_message();
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    assert_unchanged(&sn);
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    /* a repeatable executor survives the failure */
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_not_equal(sn.x, x, sizeof x);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
}

int main(void) {
    const struct CMUnitTest uninitialised[] = {
        cmocka_unit_test(test_phase2_before_init),
    };
    const struct CMUnitTest initialised[] = {
        cmocka_unit_test(test_overflowing_shapes),
        cmocka_unit_test(test_view_outside_storage),
        cmocka_unit_test(test_executor_after_consume_and_destroy),
        cmocka_unit_test(test_executor_of_wrong_operator),
        cmocka_unit_test(test_workspace_arguments),
        cmocka_unit_test(test_phase2_after_finalize),
    };
    int failed = cmocka_run_group_tests_name("before aclInit", uninitialised, NULL, NULL);
    failed += cmocka_run_group_tests_name("after aclInit", initialised, fx_acl_init_group,
                                          fx_acl_finalize_group);
    return failed;
}
