/* aclOpExecutor semantics (SPEC §2.3): single use, repeatable executors, address
 * rebinding, operator mismatch, lifetime of the objects phase 1 was given, and the
 * default stream. */
#include "pr_harness.h"

enum { ROWS = 3, D = 8, L = 4, START = 2 };

/* x f32 [1,ROWS,1,D] over `x`, cos/sin f32 [1,ROWS,1,L]; slice [START, START+L). */
struct ex_op {
    float x[ROWS * D];
    float c[ROWS * L];
    float s[ROWS * L];
    aclTensor *tx, *tc, *ts;
    aclIntArray *slice;
};

static void ex_fill(float *x, unsigned salt) {
    for (int i = 0; i < ROWS * D; i++)
        x[i] = fx_pattern((size_t)i, salt);
}

static void ex_init(struct ex_op *o) {
    ex_fill(o->x, 1);
    for (int i = 0; i < ROWS * L; i++) {
        o->c[i] = (float)cos(0.3 * i + 0.2);
        o->s[i] = (float)sin(0.3 * i + 0.2);
    }
    int64_t xd[4] = {1, ROWS, 1, D}, cd[4] = {1, ROWS, 1, L}, sl[2] = {START, START + L};
    o->tx = aclCreateTensor(xd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 4, o->x);
    o->tc = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, o->c);
    o->ts = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, o->s);
    o->slice = aclCreateIntArray(sl, 2);
    assert_non_null(o->tx);
    assert_non_null(o->tc);
    assert_non_null(o->ts);
    assert_non_null(o->slice);
}

static void ex_release(struct ex_op *o) {
    aclDestroyTensor(o->tx);
    aclDestroyTensor(o->tc);
    aclDestroyTensor(o->ts);
    aclDestroyIntArray(o->slice);
    o->tx = o->tc = o->ts = NULL;
    o->slice = NULL;
}

static aclOpExecutor *ex_phase1(struct ex_op *o, enum pr_op op) {
    uint64_t ws = 7;
    aclOpExecutor *e = NULL;
    aclnnStatus st = pr_phase1(op, o->tx, o->tc, o->ts, 1, o->slice, &ws, &e);
    if (st != ACLNN_SUCCESS)
        print_error("phase 1: %d \"%s\"\n", (int)st, aclGetRecentErrMsg());
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_true(ws == 0);
    assert_non_null(e);
    return e;
}

/* Applies the reference forward (or gradient) `times` times to x in place. */
static void ex_reference(float *x, const float *c, const float *s, int times, bool grad) {
    for (int t = 0; t < times; t++)
        for (int r = 0; r < ROWS; r++) {
            float u[L];
            if (grad)
                tk_ref32_interleave(1, L, x + r * D + START, c + r * L, s + r * L, u);
            else
                tk_ref32_interleave(0, L, x + r * D + START, c + r * L, s + r * L, u);
            memcpy(x + r * D + START, u, sizeof u);
        }
}

static void ex_expect_rotated(const float *got, unsigned salt, const float *c, const float *s,
                              int times) {
    float want[ROWS * D];
    ex_fill(want, salt);
    ex_reference(want, c, s, times, false);
    pr_assert_same(got, want, sizeof want, "x");
}

static void test_phase2_null_executor(void **state) {
    (void)state;
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, NULL, pr_stream),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, NULL, pr_stream),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
}

static void test_phase2_unknown_executor(void **state) {
    (void)state;
    static max_align_t not_an_executor;
    aclOpExecutor *bogus = (aclOpExecutor *)(void *)&not_an_executor;
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, bogus, pr_stream),
                     ACLNN_ERR_PARAM_INVALID);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
}

static void test_non_repeatable_runs_once(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    aclOpExecutor *e = ex_phase1(&o, PR_FWD);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_ERR_PARAM_INVALID);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    ex_expect_rotated(o.x, 1, o.c, o.s, 1);
    /* a consumed executor can no longer be made repeatable or destroyed */
    assert_int_not_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_not_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    ex_release(&o);
}

static void test_repeatable_runs_three_times(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    aclOpExecutor *e = ex_phase1(&o, PR_FWD);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    for (int i = 0; i < 3; i++)
        assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    ex_expect_rotated(o.x, 1, o.c, o.s, 3);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    assert_int_not_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
    /* and after destruction it cannot run */
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_ERR_PARAM_INVALID);
    ex_release(&o);
}

static void test_repeatable_gradient(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    aclOpExecutor *e = ex_phase1(&o, PR_GRAD);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    for (int i = 0; i < 2; i++)
        assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    float want[ROWS * D];
    ex_fill(want, 1);
    ex_reference(want, o.c, o.s, 2, true);
    pr_assert_same(o.x, want, sizeof want, "dy");
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    ex_release(&o);
}

static void test_null_executor_management_calls(void **state) {
    (void)state;
    assert_int_equal(aclSetAclOpExecutorRepeatable(NULL), ACLNN_ERR_INNER_NULLPTR);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
    assert_int_equal(aclDestroyAclOpExecutor(NULL), ACLNN_ERR_INNER_NULLPTR);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
    assert_int_not_equal(aclSetInputTensorAddr(NULL, 0, NULL, NULL), ACLNN_SUCCESS);
    assert_int_not_equal(aclSetOutputTensorAddr(NULL, 0, NULL, NULL), ACLNN_SUCCESS);
}

/* aclSetInputTensorAddr(e, 0, ...) moves the next run to a new x buffer; index 1 and 2
 * rebind cos and sin; the in-place output (output 0) is the same slot as input 0. */
static void test_rebind_addresses(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    float x2[ROWS * D], x3[ROWS * D], c2[ROWS * L], s2[ROWS * L];
    ex_fill(x2, 2);
    ex_fill(x3, 3);
    for (int i = 0; i < ROWS * L; i++) {
        c2[i] = (float)cos(1.1 * i);
        s2[i] = (float)sin(1.1 * i);
    }
    aclOpExecutor *e = ex_phase1(&o, PR_FWD);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclSetInputTensorAddr(e, 0, o.tx, x2), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    ex_expect_rotated(o.x, 1, o.c, o.s, 1);
    ex_expect_rotated(x2, 2, o.c, o.s, 1);

    assert_int_equal(aclSetOutputTensorAddr(e, 0, o.tx, x3), ACLNN_SUCCESS);
    assert_int_equal(aclSetInputTensorAddr(e, 1, o.tc, c2), ACLNN_SUCCESS);
    assert_int_equal(aclSetInputTensorAddr(e, 2, o.ts, s2), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    ex_expect_rotated(x3, 3, c2, s2, 1);
    ex_expect_rotated(x2, 2, o.c, o.s, 1); /* untouched by the third run */

    /* indices the operator does not have */
    assert_int_equal(aclSetInputTensorAddr(e, 3, o.tx, x2), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclSetOutputTensorAddr(e, 1, o.tx, x2), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    ex_release(&o);
}

/* A queued run keeps the addresses it was launched with; rebinding only affects later
 * launches. */
static void test_rebind_after_launch_does_not_change_queued_run(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    float x2[ROWS * D];
    ex_fill(x2, 2);
    aclOpExecutor *e = ex_phase1(&o, PR_FWD);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(aclSetInputTensorAddr(e, 0, o.tx, i % 2 ? x2 : o.x), ACLNN_SUCCESS);
        assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    }
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    ex_expect_rotated(o.x, 1, o.c, o.s, 2);
    ex_expect_rotated(x2, 2, o.c, o.s, 2);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    ex_release(&o);
}

/* The address given to aclSetInputTensorAddr is the tensor's storage address (what
 * aclCreateTensor's tensorData was); the view offset still applies on top (SPEC §1:
 * element idx lives at data + (offset + sum idx_k * stride_k) * itemsize). */
static void test_rebind_keeps_view_offset(void **state) {
    (void)state;
    enum { OFF = 5 };
    float buf1[OFF + ROWS * D], buf2[OFF + ROWS * D], c[ROWS * L], s[ROWS * L];
    for (int i = 0; i < OFF + ROWS * D; i++)
        buf1[i] = buf2[i] = fx_pattern((size_t)i, 4);
    for (int i = 0; i < ROWS * L; i++) {
        c[i] = (float)cos(0.5 * i);
        s[i] = (float)sin(0.5 * i);
    }
    int64_t xd[4] = {1, ROWS, 1, D}, cd[4] = {1, ROWS, 1, L}, sl[2] = {START, START + L};
    int64_t storage[1] = {OFF + ROWS * D};
    aclTensor *tx = aclCreateTensor(xd, 4, ACL_FLOAT, NULL, OFF, ACL_FORMAT_ND, storage, 1, buf1);
    aclTensor *tc = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, c);
    aclTensor *ts = aclCreateTensor(cd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 4, s);
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    assert_non_null(tx);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    assert_int_equal(aclnnInplacePartialRotaryMulGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &e),
                     ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclSetInputTensorAddr(e, 0, tx, buf2), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    float want[OFF + ROWS * D];
    for (int i = 0; i < OFF + ROWS * D; i++)
        want[i] = fx_pattern((size_t)i, 4);
    ex_reference(want + OFF, c, s, 1, false);
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
    pr_assert_same(buf1, want, sizeof want, "first storage (offset view)");
    pr_assert_same(buf2, want, sizeof want, "rebound storage (offset view)");
}

/* A repeatable executor survives a failed run; a non-repeatable one is consumed by
 * it (SPEC §2.3). */
static void test_failed_runs_and_consumption(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    static max_align_t not_a_stream;
    aclrtStream bad_stream = (aclrtStream)&not_a_stream;

    aclOpExecutor *e = ex_phase1(&o, PR_FWD);
    assert_int_not_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, bad_stream), ACLNN_SUCCESS);
    assert_true(strlen(aclGetRecentErrMsg()) > 0);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_ERR_PARAM_INVALID);

    e = ex_phase1(&o, PR_FWD);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclSetInputTensorAddr(e, 0, o.tx, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclSetInputTensorAddr(e, 0, o.tx, o.x), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    ex_expect_rotated(o.x, 1, o.c, o.s, 1); /* exactly one successful run */
    ex_release(&o);
}

/* A phase 2 that fails its checks writes nothing and leaves a message (SPEC §1
 * failure atomicity): here x is rebound onto the cos buffer. */
static void test_failed_phase2_writes_nothing(void **state) {
    (void)state;
    for (int dir = 0; dir < 2; dir++) {
        enum pr_op op = dir ? PR_GRAD : PR_FWD;
        struct ex_op o;
        ex_init(&o);
        float c0[ROWS * L], s0[ROWS * L], x0[ROWS * D];
        memcpy(c0, o.c, sizeof c0);
        memcpy(s0, o.s, sizeof s0);
        memcpy(x0, o.x, sizeof x0);
        aclOpExecutor *e = ex_phase1(&o, op);
        assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
        assert_int_equal(aclSetInputTensorAddr(e, 0, o.tx, o.c), ACLNN_SUCCESS);
        aclnnStatus st = pr_phase2(op, e, pr_stream);
        assert_int_equal(st, dir ? ACLNN_ERR_INNER_TILING_ERROR : ACLNN_ERR_PARAM_INVALID);
        assert_true(strlen(aclGetRecentErrMsg()) > 0);
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        pr_assert_same(o.c, c0, sizeof c0, "cos");
        pr_assert_same(o.s, s0, sizeof s0, "sin");
        pr_assert_same(o.x, x0, sizeof x0, "x");
        assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
        ex_release(&o);
    }
}

/* An executor made by the forward's phase 1 is not the gradient's (and vice versa). */
static void test_executor_of_other_operator(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    for (int dir = 0; dir < 2; dir++) {
        enum pr_op made = dir ? PR_GRAD : PR_FWD, used = dir ? PR_FWD : PR_GRAD;
        aclOpExecutor *e = ex_phase1(&o, made);
        assert_int_equal(pr_phase2(used, e, pr_stream), ACLNN_ERR_PARAM_INVALID);
        assert_true(strlen(aclGetRecentErrMsg()) > 0);
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        float x0[ROWS * D];
        ex_fill(x0, 1);
        pr_assert_same(o.x, x0, sizeof x0, "x after a mismatched launch");
        /* the executor was either consumed (then its own phase 2 rejects it too) or
         * left for its own operator to run */
        aclnnStatus st = pr_phase2(made, e, pr_stream);
        assert_true(st == ACLNN_SUCCESS || st == ACLNN_ERR_PARAM_INVALID);
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        ex_fill(o.x, 1);
    }
    ex_release(&o);
}

/* The executor copies what it needs: the aclTensor and aclIntArray objects may be
 * destroyed right after phase 1. */
static void test_destroy_objects_after_phase1(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    aclOpExecutor *e = ex_phase1(&o, PR_FWD);
    ex_release(&o);
    /* churn the allocator so that reuse of the freed objects would show */
    for (int i = 0; i < 8; i++) {
        int64_t junk[4] = {9, 9, 9, 9};
        aclIntArray *a = aclCreateIntArray(junk, 4);
        aclTensor *t = aclCreateTensor(junk, 4, ACL_INT8, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
        aclDestroyIntArray(a);
        aclDestroyTensor(t);
    }
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    ex_expect_rotated(o.x, 1, o.c, o.s, 1);
}

/* stream NULL is the default stream; aclrtSynchronizeStream(NULL) waits for it. */
static void test_default_stream(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    aclOpExecutor *e = ex_phase1(&o, PR_FWD);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    for (int i = 0; i < 5; i++)
        assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    ex_expect_rotated(o.x, 1, o.c, o.s, 5);
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    ex_release(&o);
}

/* A larger repeatable run on a user stream while the host thread queues more work
 * (exercises the queue with many tasks). */
static void test_many_launches_in_order(void **state) {
    (void)state;
    struct ex_op o;
    ex_init(&o);
    aclOpExecutor *fwd = ex_phase1(&o, PR_FWD);
    aclOpExecutor *bwd = ex_phase1(&o, PR_GRAD);
    assert_int_equal(aclSetAclOpExecutorRepeatable(fwd), ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(bwd), ACLNN_SUCCESS);
    float want[ROWS * D];
    ex_fill(want, 1);
    for (int i = 0; i < 50; i++) {
        bool g = (i % 3) == 2;
        assert_int_equal(g ? aclnnInplacePartialRotaryMulGrad(NULL, 0, bwd, pr_stream)
                           : aclnnInplacePartialRotaryMul(NULL, 0, fwd, pr_stream),
                         ACLNN_SUCCESS);
        ex_reference(want, o.c, o.s, 1, g);
    }
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    pr_assert_same(o.x, want, sizeof want, "x after 50 ordered launches");
    assert_int_equal(aclDestroyAclOpExecutor(fwd), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(bwd), ACLNN_SUCCESS);
    ex_release(&o);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phase2_null_executor),
        cmocka_unit_test(test_phase2_unknown_executor),
        cmocka_unit_test(test_non_repeatable_runs_once),
        cmocka_unit_test(test_repeatable_runs_three_times),
        cmocka_unit_test(test_repeatable_gradient),
        cmocka_unit_test(test_null_executor_management_calls),
        cmocka_unit_test(test_rebind_addresses),
        cmocka_unit_test(test_rebind_after_launch_does_not_change_queued_run),
        cmocka_unit_test(test_rebind_keeps_view_offset),
        cmocka_unit_test(test_failed_runs_and_consumption),
        cmocka_unit_test(test_failed_phase2_writes_nothing),
        cmocka_unit_test(test_executor_of_other_operator),
        cmocka_unit_test(test_destroy_objects_after_phase1),
        cmocka_unit_test(test_default_stream),
        cmocka_unit_test(test_many_launches_in_order),
    };
    return cmocka_run_group_tests(tests, pr_group_setup, pr_group_teardown);
}
