/* Running a partial-rotary case through the native face and the aclnn face. */
#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "testkit/pr_case.h"
#include "testkit/rules.h"

ropekit_status tk_pr_native_run(const struct tk_pr_case *pc, void *xbuf, bool via_plan) {
    ropekit_tensor x = tk_tensor_native(&pc->x, xbuf);
    ropekit_tensor c = tk_tensor_native(&pc->cos, pc->cos.buf);
    ropekit_tensor s = tk_tensor_native(&pc->sin, pc->sin.buf);
    ropekit_rotary_mode mode = (ropekit_rotary_mode)pc->mode;
    ropekit_direction dir = (ropekit_direction)pc->direction;
    if (!via_plan)
        return ropekit_partial_rotary(&x, &c, &s, mode, pc->start, pc->end, dir);
    ropekit_plan *plan = NULL;
    ropekit_status st =
        ropekit_partial_rotary_plan_create(&x, &c, &s, mode, pc->start, pc->end, dir, &plan);
    if (st != ROPEKIT_OK)
        return st;
    st = ropekit_partial_rotary_execute(plan, x.data, c.data, s.data);
    ropekit_plan_destroy(plan);
    return st;
}

/* SPEC §3.4 rule 4 (forward pairs) and §4.3 rule 2 (every grad pair). */
static bool pr_aclnn_pair_ok(const struct tk_pr_case *pc) {
    ropekit_dtype x = pc->x.dtype, c = pc->cos.dtype;
    if (pc->direction == ROPEKIT_BACKWARD)
        return true;
    return x == c || c == ROPEKIT_F32;
}

int tk_pr_aclnn_rule(const struct tk_pr_case *pc) {
    const struct tk_tensor *all[3] = {&pc->x, &pc->cos, &pc->sin};
    const bool grad = pc->direction == ROPEKIT_BACKWARD;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < all[i]->ndim; k++)
            if (all[i]->strides[k] < 0)
                return -1;
    /* Rules before the no-op exit: dtype pair, ranks, mode. */
    if (!pr_aclnn_pair_ok(pc))
        return TK_PR_RULE_DTYPE_PAIR;
    for (int i = 0; i < 3; i++)
        if (all[i]->ndim != 4)
            return TK_PR_RULE_RANK;
    if (pc->mode != ROPEKIT_ROTARY_INTERLEAVE)
        return TK_PR_RULE_MODE;
    if (pc->end == pc->start || tk_tensor_numel(&pc->x) == 0 || tk_tensor_numel(&pc->cos) == 0)
        return TK_PR_RULE_NONE;
    /* After it: D <= 1024, D even (forward only); L is always even here. */
    const int64_t d = pc->x.shape[3];
    if (d > 1024)
        return TK_PR_RULE_MAX_D;
    if (!grad && d % 2 != 0)
        return TK_PR_RULE_D_EVEN;
    return TK_PR_RULE_NONE;
}

int tk_pr_aclnn_expected(const struct tk_pr_case *pc) {
    /* Forward: every non-null rule is 161002; grad: 561002 after the dtype pair (SPEC §4.3). */
    const int rule = tk_pr_aclnn_rule(pc);
    return rule < 0 ? -1
                    : tk_pr_rule_code((enum tk_pr_rule)rule, pc->direction == ROPEKIT_BACKWARD);
}

bool tk_pr_aclnn_accepts(const struct tk_pr_case *pc) {
    return tk_pr_aclnn_expected(pc) == 0;
}

const char *tk_pr_aclnn_name(const struct tk_pr_case *pc) {
    return pc->direction == ROPEKIT_BACKWARD ? "aclnnInplacePartialRotaryMulGrad"
                                             : "aclnnInplacePartialRotaryMul";
}

int tk_pr_aclnn_bind(struct tk_pr_aclnn *b, const struct tk_pr_case *pc, const void *xbuf,
                     char *err, size_t len) {
    memset(b, 0, sizeof *b);
    if (tk_acl_tensor_upload(&pc->x, xbuf, &b->x, err, len) != 0 ||
        tk_acl_tensor_upload(&pc->cos, pc->cos.buf, &b->cos, err, len) != 0 ||
        tk_acl_tensor_upload(&pc->sin, pc->sin.buf, &b->sin, err, len) != 0) {
        tk_pr_aclnn_unbind(b);
        return -1;
    }
    const int64_t slice[2] = {pc->start, pc->end};
    b->slice = aclCreateIntArray(slice, 2);
    if (!b->slice) {
        tk_acl_error(err, len, "aclCreateIntArray", 0);
        tk_pr_aclnn_unbind(b);
        return -1;
    }
    return 0;
}

int tk_pr_aclnn_launch(struct tk_pr_aclnn *b, const struct tk_pr_case *pc, aclrtStream stream,
                       int *stage, void **ws_out, char *err, size_t len) {
    uint64_t ws_size = 0;
    aclOpExecutor *exec = NULL;
    void *ws = NULL;
    const bool grad = pc->direction == ROPEKIT_BACKWARD;
    *stage = 1;
    *ws_out = NULL;
    aclnnStatus st =
        grad ? aclnnInplacePartialRotaryMulGradGetWorkspaceSize(
                   b->x.tensor, b->cos.tensor, b->sin.tensor, pc->mode, b->slice, &ws_size, &exec)
             : aclnnInplacePartialRotaryMulGetWorkspaceSize(
                   b->x.tensor, b->cos.tensor, b->sin.tensor, pc->mode, b->slice, &ws_size, &exec);
    if (st != ACLNN_SUCCESS) {
        char call[64];
        snprintf(call, sizeof call, "%sGetWorkspaceSize", tk_pr_aclnn_name(pc));
        tk_acl_error(err, len, call, st);
        return st;
    }
    if (ws_size > 0 && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        tk_acl_error(err, len, "aclrtMalloc(workspace)", 0);
        aclDestroyAclOpExecutor(exec);
        return ACL_ERROR_BAD_ALLOC;
    }
    *stage = 2;
    st = grad ? aclnnInplacePartialRotaryMulGrad(ws, ws_size, exec, stream)
              : aclnnInplacePartialRotaryMul(ws, ws_size, exec, stream);
    if (st != ACLNN_SUCCESS) {
        tk_acl_error(err, len, tk_pr_aclnn_name(pc), st);
        if (ws)
            aclrtFree(ws);
        return st;
    }
    *ws_out = ws;
    return 0;
}

int tk_pr_aclnn_call(struct tk_pr_aclnn *b, const struct tk_pr_case *pc, const struct tk_acl *acl,
                     char *err, size_t len) {
    int stage;
    void *ws;
    int st = tk_pr_aclnn_launch(b, pc, acl->stream, &stage, &ws, err, len);
    if (st != 0)
        return stage == 1 ? st : -1;
    aclError rc = aclrtSynchronizeStream(acl->stream);
    if (rc != ACL_SUCCESS)
        tk_acl_error(err, len, "aclrtSynchronizeStream", rc);
    if (ws)
        aclrtFree(ws);
    return rc == ACL_SUCCESS ? 0 : -1;
}

void tk_pr_aclnn_unbind(struct tk_pr_aclnn *b) {
    if (b->slice)
        aclDestroyIntArray(b->slice);
    b->slice = NULL;
    tk_acl_tensor_release(&b->x);
    tk_acl_tensor_release(&b->cos);
    tk_acl_tensor_release(&b->sin);
}

int tk_pr_aclnn_run(const struct tk_pr_case *pc, const struct tk_acl *acl, void *xbuf, char *err,
                    size_t len) {
    struct tk_pr_aclnn b;
    if (tk_pr_aclnn_bind(&b, pc, xbuf, err, len) != 0)
        return -1;
    int rc = tk_pr_aclnn_call(&b, pc, acl, err, len);
    if (rc == 0)
        rc = tk_acl_tensor_download(&pc->x, &b.x, xbuf, err, len);
    tk_pr_aclnn_unbind(&b);
    return rc;
}
