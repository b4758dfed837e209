/* aclnnInplacePartialRotaryMul (SPEC §3): CANN's restrictions and codes (column R of
 * §3.4: every non-null problem is 161002). */
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"

#include "aclnn_face/partial_rotary_common.h"

#define RK_API "aclnnInplacePartialRotaryMul"

#define RK_CODE_(rule, status, forward_code, gradient_code, fault, meaning)                        \
    [RK_PR_RULE_##rule] = ACLNN_ERR_##forward_code,
static const aclnnStatus rk_codes[RK_PR_RULE_COUNT] = {RK_PR_RULES(RK_CODE_)};

static aclnnStatus rk_forward_code(int rule) {
    return rule > RK_PR_RULE_NONE && rule < RK_PR_RULE_COUNT ? rk_codes[rule] : ACLNN_ERR_INNER;
}

static const struct rk_pr_policy rk_forward_policy = {
    .api = RK_API "GetWorkspaceSize",
    .x_name = "xRef",
    .mode_name = "rotary_mode",
    .mode_mask = 1u << ROPEKIT_ROTARY_INTERLEAVE,
    /* (x, cos/sin): (f16,f16) (bf16,bf16) (f32,f32) (f16,f32) (bf16,f32) */
    .pair_mask = RK_PR_PAIR(RK_KDT_F32, RK_KDT_F32) | RK_PR_PAIR(RK_KDT_F16, RK_KDT_F16) |
                 RK_PR_PAIR(RK_KDT_BF16, RK_KDT_BF16) | RK_PR_PAIR(RK_KDT_F16, RK_KDT_F32) |
                 RK_PR_PAIR(RK_KDT_BF16, RK_KDT_F32),
    .max_d = 1024,
    .require_rank4 = true,
    .require_d_even = true,
    .gradient_order = false,
    .check_data = true,
};

static const struct rk_exec_ops rk_forward_ops = {
    .name = RK_API,
    .phase1_name = RK_API "GetWorkspaceSize",
    .input_slot = RK_PR_INPUT_SLOTS,
    .output_slot = RK_PR_OUTPUT_SLOTS,
    .check = rk_aclnn_pr_check,
    .run = rk_aclnn_pr_run,
    .code_of = rk_forward_code,
    .fault_of = rk_aclnn_pr_fault,
};

aclnnStatus aclnnInplacePartialRotaryMulGetWorkspaceSize(
    const aclTensor *xRef, const aclTensor *cos, const aclTensor *sin, int64_t rotary_mode,
    const aclIntArray *partialSlice, uint64_t *workspaceSize, aclOpExecutor **executor) {
    struct rk_aclnn_pr_args args = {xRef,         cos,           sin,     rotary_mode,
                                    partialSlice, workspaceSize, executor};
    return rk_aclnn_pr_prepare(&args, &rk_forward_policy, ROPEKIT_FORWARD, &rk_forward_ops);
}

aclnnStatus aclnnInplacePartialRotaryMul(void *workspace, uint64_t workspaceSize,
                                         aclOpExecutor *executor, aclrtStream stream) {
    return rk_executor_launch(workspace, workspaceSize, executor, stream, &rk_forward_ops);
}
