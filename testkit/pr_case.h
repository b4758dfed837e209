/* One partial-rotary problem (InplacePartialRotaryMul / ...Grad, SPEC §3-§4) as the
 * test kit sees it: tensors, mode, direction, slice; its check against the float64
 * reference; and how to run it through each face. Shared by `demo` and `verify`. */
#ifndef ROPEKIT_TESTKIT_PR_CASE_H_
#define ROPEKIT_TESTKIT_PR_CASE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "testkit/acl_session.h"
#include "testkit/host_tensor.h"
#include "testkit/tolerance.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tk_pr_case {
    int mode;      /* ropekit_rotary_mode */
    int direction; /* ropekit_direction: 0 forward, 1 backward */
    int64_t start, end;
    struct tk_tensor x, cos, sin; /* x.buf holds the input; never modified by the runners */
};

void tk_pr_case_free(struct tk_pr_case *pc);

/* "fwd interleave x=bf16[2,3,64] cos=f32[3,32] slice=[5,37)" plus strides and offsets
 * when a tensor is not contiguous. */
const char *tk_pr_case_describe(const struct tk_pr_case *pc, char *buf, size_t len);

/* Outcome of checking an output buffer against the reference computed from x.buf. */
struct tk_pr_check {
    struct tk_err_stats err;             /* rotated elements vs float64 (SPEC §6) */
    int64_t first_bad[ROPEKIT_MAX_DIMS]; /* view index of the first failing element */
    int64_t changed_outside;             /* buffer elements outside the slice that changed */
    int64_t first_changed;               /* buffer element index, -1 if none */
};

/* Compares `out` (a whole x buffer after the operation) with the reference. Returns 0,
 * or -1 when out of memory. */
int tk_pr_check_output(const struct tk_pr_case *pc, const unsigned char *out,
                       struct tk_pr_check *chk);
bool tk_pr_check_passed(const struct tk_pr_check *chk);
/* One line explaining the first failure of a check. */
const char *tk_pr_check_describe(const struct tk_pr_case *pc, const struct tk_pr_check *chk,
                                 char *buf, size_t len);

/* ---- Native face (ropekit.h) ---- */

/* Runs the case on xbuf (a copy of x.buf) with ropekit_partial_rotary, or through
 * ropekit_partial_rotary_plan_create + _execute when via_plan. */
ropekit_status tk_pr_native_run(const struct tk_pr_case *pc, void *xbuf, bool via_plan);

/* ---- aclnn face ---- */

/* What the aclnn face must answer for the case at phase 1 under CANN's contract
 * (SPEC §3.4 / §4.3): 0 (accepted: 4-D tensors, mode 1, an allowed dtype pair,
 * D <= 1024 and, forward, even), ACLNN_ERR_PARAM_INVALID (forward) or
 * ACLNN_ERR_INNER_TILING_ERROR (grad) for a rank, mode, dtype-pair or D violation, and
 * -1 when the contract does not say (negative strides: no CANN tensor has them). */
int tk_pr_aclnn_expected(const struct tk_pr_case *pc);
/* The rule behind tk_pr_aclnn_expected: an enum tk_pr_rule (testkit/rules.h), TK_PR_RULE_NONE
 * (0) when accepted, -1 when the contract does not say. */
int tk_pr_aclnn_rule(const struct tk_pr_case *pc);
bool tk_pr_aclnn_accepts(const struct tk_pr_case *pc);
/* "aclnnInplacePartialRotaryMul" or "aclnnInplacePartialRotaryMulGrad". */
const char *tk_pr_aclnn_name(const struct tk_pr_case *pc);

/* The case bound to device memory, ready for repeated two-phase calls. */
struct tk_pr_aclnn {
    struct tk_acl_tensor x, cos, sin;
    aclIntArray *slice;
};

int tk_pr_aclnn_bind(struct tk_pr_aclnn *b, const struct tk_pr_case *pc, const void *xbuf,
                     char *err, size_t len);
/* GetWorkspaceSize and the launch on `stream`, without waiting. Returns 0 (the
 * workspace, NULL when none, in *ws for the caller to free after the sync) or the first
 * non-zero status; *stage tells which step gave it (1 phase 1, 2 the launch). */
int tk_pr_aclnn_launch(struct tk_pr_aclnn *b, const struct tk_pr_case *pc, aclrtStream stream,
                       int *stage, void **ws, char *err, size_t len);
/* GetWorkspaceSize, the launch on the session's stream, aclrtSynchronizeStream.
 * Returns 0, or the first non-zero aclnn/ACL status (its message in err). */
int tk_pr_aclnn_call(struct tk_pr_aclnn *b, const struct tk_pr_case *pc, const struct tk_acl *acl,
                     char *err, size_t len);
void tk_pr_aclnn_unbind(struct tk_pr_aclnn *b);
/* bind + call + copy x back into xbuf (also after a failed call) + unbind. Returns the
 * call's status, or -1 when the set-up itself failed. */
int tk_pr_aclnn_run(const struct tk_pr_case *pc, const struct tk_acl *acl, void *xbuf, char *err,
                    size_t len);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_PR_CASE_H_ */
