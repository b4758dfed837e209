/* aclnnInterleaveRope (SPEC §17): the partial-rotary operator out of place over the whole
 * last dim in interleave-half mode, with CANN's restrictions as its policy and CANN's codes
 * as data. */
#include "aclnnop/aclnn_interleave_rope.h"

#include "faces/aclnn/entries.h"
#include "faces/aclnn/interleave_rope_cann.h"
#include "faces/aclnn/partial_rotary.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "runtime/acl_objects.h"

#define RK_CODE_(rule, code, fault) [RK_PR_RULE_##rule] = ACLNN_ERR_##code,
#define RK_FAULT_(rule, code, fault) [RK_PR_RULE_##rule] = ACL_ERROR_##fault,
#define RK_ROW_(rule, code, fault) +1
_Static_assert(0 RK_ACLNN_IR_CODES(RK_ROW_) == RK_PR_RULE_COUNT - 1,
               "every partial-rotary rule has a row in RK_ACLNN_IR_CODES");
static const aclnnStatus rk_ir_codes[RK_PR_RULE_COUNT] = {RK_ACLNN_IR_CODES(RK_CODE_)};
static const aclError rk_ir_faults[RK_PR_RULE_COUNT] = {RK_ACLNN_IR_CODES(RK_FAULT_)};

/* SPEC §17.3's order: what the op definition checks (nulls, then dtypes), then the
 * tiling's: x 4-D with no zero dim, D, cos and sin alike, cos's B, N and S, cos's D. */
static const enum rk_pr_step rk_ir_order[] = {
    RK_PR_STEP_NULL,      RK_PR_STEP_DTYPE,  RK_PR_STEP_SLICE,
    RK_PR_STEP_SHAPES,    RK_PR_STEP_NOOP,   RK_PR_STEP_D_VALUE,
    RK_PR_STEP_BROADCAST, RK_PR_STEP_CS_LEN, RK_PR_STEP_OVERLAP,
};

static const struct rk_pr_policy rk_ir_policy = {
    .x_name = "x",
    .mode_name = "mode",
    .mode_mask = 1u << ROPEKIT_ROTARY_INTERLEAVE_HALF,
    /* x, cos, sin and out all f16 or all bf16 */
    .pair_mask = RK_PR_PAIR(RK_KDT_F16, RK_KDT_F16) | RK_PR_PAIR(RK_KDT_BF16, RK_KDT_BF16),
    .rank = 4,
    .noop_x_only = true,
    /* cos/sin [B, 1, S or 1, D] against x [B, N, S, D] */
    .cs_lead = {RK_PR_LEAD_X, RK_PR_LEAD_1, RK_PR_LEAD_1_OR_X},
    .refuse_empty_x = true,
    .only_d = ROPEKIT_CANN_INTERLEAVE_ROPE_D,
    .order = rk_ir_order,
    .order_len = sizeof rk_ir_order / sizeof rk_ir_order[0],
};

/* IR: inputs x (0), cos (1), sin (2); output y (0). */
const struct rk_aclnn_entry rk_aclnn_interleave_rope = {
    .name = "aclnnInterleaveRope",
    .phase1_name = "aclnnInterleaveRopeGetWorkspaceSize",
    .op = &rk_op_partial_rotary,
    .policy = &rk_ir_policy,
    .codes = rk_ir_codes,
    .faults = rk_ir_faults,
    .input_slot = {RK_PR_X, RK_PR_COS, RK_PR_SIN, -1, -1, -1, -1, -1},
    .output_slot = {RK_PR_OUT, -1, -1, -1, -1, -1, -1, -1},
};

struct rk_pr_problem rk_aclnn_ir_problem(const ropekit_tensor *x, const ropekit_tensor *cos,
                                         const ropekit_tensor *sin, const ropekit_tensor *out) {
    return (struct rk_pr_problem){
        .api = rk_aclnn_interleave_rope.phase1_name,
        .x = x,
        .cos = cos,
        .sin = sin,
        .out = out,
        .with_out = true,
        .mode = ROPEKIT_ROTARY_INTERLEAVE_HALF,
        .direction = ROPEKIT_FORWARD,
        .whole_row = true,
    };
}

aclnnStatus aclnnInterleaveRopeGetWorkspaceSize(const aclTensor *x, const aclTensor *cos,
                                                const aclTensor *sin, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor) {
    ropekit_tensor vx, vc, vs, vo;
    struct rk_pr_problem prob =
        rk_aclnn_ir_problem(rk_acl_view_or_null(x, &vx), rk_acl_view_or_null(cos, &vc),
                            rk_acl_view_or_null(sin, &vs), rk_acl_view_or_null(out, &vo));
    prob.missing_arg = !workspaceSize ? "workspaceSize" : !executor ? "executor" : NULL;
    prob.check_data = true;
    const aclTensor *const tensors[RK_EXEC_MAX_ADDR] = {
        [RK_PR_X] = x, [RK_PR_COS] = cos, [RK_PR_SIN] = sin, [RK_PR_OUT] = out};
    return rk_executor_prepare(&rk_aclnn_interleave_rope, &prob, tensors, workspaceSize, executor);
}

RK_ACLNN_PHASE2(aclnnInterleaveRope, &rk_aclnn_interleave_rope)
