/* aclnnInplacePartialRotaryMulGrad (SPEC §4): 161001 for nulls, 161002 for dtypes,
 * 561002 (tiling) for everything else, as CANN's generated API and tiling return. */
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"

#include "aclnn_face/partial_rotary_common.h"

#define RK_API "aclnnInplacePartialRotaryMulGrad"

#define RK_CODE_(rule, status, forward_code, gradient_code, fault, meaning)                        \
    [RK_PR_RULE_##rule] = ACLNN_ERR_##gradient_code,
static const aclnnStatus rk_codes[RK_PR_RULE_COUNT] = {RK_PR_RULES(RK_CODE_)};

static aclnnStatus rk_grad_code(int rule) {
    return rule > RK_PR_RULE_NONE && rule < RK_PR_RULE_COUNT ? rk_codes[rule] : ACLNN_ERR_INNER;
}

static const struct rk_pr_policy rk_grad_policy = {
    .api = RK_API "GetWorkspaceSize",
    .x_name = "dyRef",
    .mode_name = "rotaryMode",
    .mode_mask = 1u << ROPEKIT_ROTARY_INTERLEAVE,
    .pair_mask = RK_PR_F32_F16_BF16_PAIRS,
    .max_d = 1024,
    .require_rank4 = true,
    .require_d_even = false,
    .gradient_order = true,
    .check_data = true,
};

static const struct rk_exec_ops rk_grad_ops = {
    .name = RK_API,
    .phase1_name = RK_API "GetWorkspaceSize",
    .input_slot = RK_PR_INPUT_SLOTS,
    .output_slot = RK_PR_OUTPUT_SLOTS,
    .check = rk_aclnn_pr_check,
    .run = rk_aclnn_pr_run,
    .code_of = rk_grad_code,
    .fault_of = rk_aclnn_pr_fault,
};

aclnnStatus aclnnInplacePartialRotaryMulGradGetWorkspaceSize(
    aclTensor *dyRef, const aclTensor *cos, const aclTensor *sin, int64_t rotaryMode,
    const aclIntArray *partialSlice, uint64_t *workspaceSize, aclOpExecutor **executor) {
    struct rk_aclnn_pr_args args = {dyRef,        cos,           sin,     rotaryMode,
                                    partialSlice, workspaceSize, executor};
    return rk_aclnn_pr_prepare(&args, &rk_grad_policy, ROPEKIT_BACKWARD, &rk_grad_ops);
}

aclnnStatus aclnnInplacePartialRotaryMulGrad(void *workspace, uint64_t workspaceSize,
                                             aclOpExecutor *executor, aclrtStream stream) {
    return rk_executor_launch(workspace, workspaceSize, executor, stream, &rk_grad_ops);
}
