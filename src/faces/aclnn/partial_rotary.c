/* aclnnInplacePartialRotaryMul and aclnnInplacePartialRotaryMulGrad (SPEC §3, §4): CANN's
 * restrictions as the operator's policy, CANN's check orders and codes as data, and one
 * phase 1 for both entry points. */
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"

#include "faces/aclnn/entries.h"
#include "faces/aclnn/partial_rotary.h"
#include "faces/aclnn/partial_rotary_cann.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "runtime/acl_objects.h"

#define RK_FORWARD_CODE_(rule, forward, gradient, fault) [RK_PR_RULE_##rule] = ACLNN_ERR_##forward,
#define RK_GRADIENT_CODE_(rule, forward, gradient, fault)                                          \
    [RK_PR_RULE_##rule] = ACLNN_ERR_##gradient,
#define RK_FAULT_(rule, forward, gradient, fault) [RK_PR_RULE_##rule] = ACL_ERROR_##fault,
#define RK_ROW_(rule, forward, gradient, fault) +1
_Static_assert(0 RK_ACLNN_PR_CODES(RK_ROW_) == RK_PR_RULE_COUNT - 1,
               "every partial-rotary rule has a row in RK_ACLNN_PR_CODES");
static const aclnnStatus rk_forward_codes[RK_PR_RULE_COUNT] = {RK_ACLNN_PR_CODES(RK_FORWARD_CODE_)};
static const aclnnStatus rk_gradient_codes[RK_PR_RULE_COUNT] = {
    RK_ACLNN_PR_CODES(RK_GRADIENT_CODE_)};
static const aclError rk_faults[RK_PR_RULE_COUNT] = {RK_ACLNN_PR_CODES(RK_FAULT_)};

/* The mode CANN implements for this operator, and what its message tells the user. */
#define RK_CANN_MODE_RULE                                                                          \
    "only 1 (interleave) is supported by this CANN operator; ropekit_partial_rotary accepts 0-3"

/* SPEC §4.3's order: the gradient checks mode and slice before the shapes, and cos's
 * length against D before its no-op exit. */
static const enum rk_pr_step rk_gradient_order[] = {
    RK_PR_STEP_NULL,    RK_PR_STEP_DTYPE,       RK_PR_STEP_MODE,       RK_PR_STEP_SLICE,
    RK_PR_STEP_SHAPES,  RK_PR_STEP_CS_LEN_LE_D, RK_PR_STEP_NOOP,       RK_PR_STEP_CS_LEN,
    RK_PR_STEP_MAX_D,   RK_PR_STEP_D_EVEN,      RK_PR_STEP_L_MULTIPLE, RK_PR_STEP_BROADCAST,
    RK_PR_STEP_OVERLAP,
};

static const struct rk_pr_policy rk_forward_policy = {
    .x_name = "xRef",
    .mode_name = "rotary_mode",
    .mode_mask = 1u << ROPEKIT_ROTARY_INTERLEAVE,
    .mode_rule = RK_CANN_MODE_RULE,
    /* (x, cos/sin): (f16,f16) (bf16,bf16) (f32,f32) (f16,f32) (bf16,f32) */
    .pair_mask = RK_PR_PAIR(RK_KDT_F32, RK_KDT_F32) | RK_PR_PAIR(RK_KDT_F16, RK_KDT_F16) |
                 RK_PR_PAIR(RK_KDT_BF16, RK_KDT_BF16) | RK_PR_PAIR(RK_KDT_F16, RK_KDT_F32) |
                 RK_PR_PAIR(RK_KDT_BF16, RK_KDT_F32),
    .max_d = ROPEKIT_CANN_PARTIAL_ROTARY_MAX_D,
    .rank = 4,
    .require_d_even = true,
};

static const struct rk_pr_policy rk_gradient_policy = {
    .x_name = "dyRef",
    .mode_name = "rotaryMode",
    .mode_mask = 1u << ROPEKIT_ROTARY_INTERLEAVE,
    .mode_rule = RK_CANN_MODE_RULE,
    .pair_mask = RK_PR_F32_F16_BF16_PAIRS,
    .max_d = ROPEKIT_CANN_PARTIAL_ROTARY_MAX_D,
    .rank = 4,
    .order = rk_gradient_order,
    .order_len = sizeof rk_gradient_order / sizeof rk_gradient_order[0],
};

/* IR: inputs x (0), cos (1), sin (2); output x (0), the same memory as input 0. */
#define RK_PR_ENTRY(api, policy_, codes_)                                                          \
    {                                                                                              \
        .name = api, .phase1_name = api "GetWorkspaceSize", .op = &rk_op_partial_rotary,           \
        .policy = &policy_, .codes = codes_, .faults = rk_faults,                                  \
        .input_slot = {RK_PR_X, RK_PR_COS, RK_PR_SIN, -1, -1, -1, -1, -1},                         \
        .output_slot = {RK_PR_X, -1, -1, -1, -1, -1, -1, -1},                                      \
    }
const struct rk_aclnn_entry rk_aclnn_partial_rotary_mul =
    RK_PR_ENTRY("aclnnInplacePartialRotaryMul", rk_forward_policy, rk_forward_codes);
const struct rk_aclnn_entry rk_aclnn_partial_rotary_mul_grad =
    RK_PR_ENTRY("aclnnInplacePartialRotaryMulGrad", rk_gradient_policy, rk_gradient_codes);

struct rk_pr_problem rk_aclnn_pr_problem(const struct rk_aclnn_entry *entry,
                                         const ropekit_tensor *x, const ropekit_tensor *cos,
                                         const ropekit_tensor *sin, int64_t mode,
                                         const int64_t *slice, uint64_t slice_len) {
    return (struct rk_pr_problem){
        .api = entry->phase1_name,
        .x = x,
        .cos = cos,
        .sin = sin,
        .mode = mode,
        .direction =
            entry == &rk_aclnn_partial_rotary_mul_grad ? ROPEKIT_BACKWARD : ROPEKIT_FORWARD,
        .slice = slice,
        .slice_len = slice ? slice_len : 0,
    };
}

/* Phase 1 of both entry points. */
static aclnnStatus rk_phase1(const struct rk_aclnn_entry *entry, const aclTensor *x,
                             const aclTensor *cos, const aclTensor *sin, int64_t mode,
                             const aclIntArray *slice, uint64_t *workspace_size,
                             aclOpExecutor **executor) {
    ropekit_tensor vx, vc, vs;
    struct rk_pr_problem prob = rk_aclnn_pr_problem(
        entry, rk_acl_view_or_null(x, &vx), rk_acl_view_or_null(cos, &vc),
        rk_acl_view_or_null(sin, &vs), mode, slice ? slice->values : NULL, slice ? slice->size : 0);
    prob.missing_arg = !workspace_size ? "workspaceSize" : !executor ? "executor" : NULL;
    prob.check_data = true;
    const aclTensor *const tensors[RK_EXEC_MAX_ADDR] = {
        [RK_PR_X] = x, [RK_PR_COS] = cos, [RK_PR_SIN] = sin};
    return rk_executor_prepare(entry, &prob, tensors, workspace_size, executor);
}

#define RK_FWD (&rk_aclnn_partial_rotary_mul)
#define RK_GRAD (&rk_aclnn_partial_rotary_mul_grad)

aclnnStatus aclnnInplacePartialRotaryMulGetWorkspaceSize(
    const aclTensor *xRef, const aclTensor *cos, const aclTensor *sin, int64_t rotary_mode,
    const aclIntArray *partialSlice, uint64_t *workspaceSize, aclOpExecutor **executor) {
    return rk_phase1(RK_FWD, xRef, cos, sin, rotary_mode, partialSlice, workspaceSize, executor);
}

aclnnStatus aclnnInplacePartialRotaryMulGradGetWorkspaceSize(
    aclTensor *dyRef, const aclTensor *cos, const aclTensor *sin, int64_t rotaryMode,
    const aclIntArray *partialSlice, uint64_t *workspaceSize, aclOpExecutor **executor) {
    return rk_phase1(RK_GRAD, dyRef, cos, sin, rotaryMode, partialSlice, workspaceSize, executor);
}

RK_ACLNN_PHASE2(aclnnInplacePartialRotaryMul, RK_FWD)
RK_ACLNN_PHASE2(aclnnInplacePartialRotaryMulGrad, RK_GRAD)
