/* One test per defect fuzz_aclnn_partial_rotary found in the InplacePartialRotaryMul
 * aclnn face, named for the defect; its input is also kept in
 * tests/fuzz/regressions/fuzz_aclnn_partial_rotary/. */
#include "pr_harness.h"

/* A repeatable executor whose x address was rebound to NULL with aclSetInputTensorAddr
 * was refused by phase 2 with a message naming "x", a name neither operator has: the
 * message now names the parameter as phase 1 does (xRef, dyRef). The overlap check of
 * rebound addresses named it "x" too. */
static void rebound_null_data_names_the_parameter(void **state) {
    (void)state;
    static const char *names[] = {"xRef", "dyRef"};
    for (int op = PR_FWD; op <= PR_GRAD; op++) {
        struct pr_case k = pr_default();
        struct pr_built b;
        pr_build(&k, &b);
        uint64_t ws = 1;
        aclOpExecutor *e = NULL;
        assert_int_equal(pr_phase1((enum pr_op)op, b.x.t, b.c.t, b.s.t, k.mode, b.slice, &ws, &e),
                         ACLNN_SUCCESS);
        assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
        assert_int_equal(aclSetInputTensorAddr(e, 0, b.x.t, NULL), ACLNN_SUCCESS);
        assert_int_equal(pr_phase2((enum pr_op)op, e, pr_stream), ACLNN_ERR_PARAM_NULLPTR);
        const char *msg = aclGetRecentErrMsg();
        if (!strstr(msg, names[op]) || strstr(msg, ": x data"))
            print_error("message \"%s\" does not name %s\n", msg, names[op]);
        assert_non_null(strstr(msg, names[op]));
        assert_null(strstr(msg, ": x data"));
        pr_assert_same(b.x.buf, b.x0, b.x.bytes, "x storage");

        /* rebound onto cos's storage: x now overlaps cos */
        assert_int_equal(aclSetInputTensorAddr(e, 0, b.x.t, b.c.buf), ACLNN_SUCCESS);
        aclnnStatus st = pr_phase2((enum pr_op)op, e, pr_stream);
        assert_int_equal(st, op == PR_FWD ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_INNER_TILING_ERROR);
        msg = aclGetRecentErrMsg();
        if (!strstr(msg, names[op]))
            print_error("message \"%s\" does not name %s\n", msg, names[op]);
        assert_non_null(strstr(msg, names[op]));
        pr_assert_same(b.c.buf, b.c0, b.c.bytes, "cos storage");
        assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
        pr_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rebound_null_data_names_the_parameter),
    };
    return cmocka_run_group_tests(tests, pr_group_setup, pr_group_teardown);
}
