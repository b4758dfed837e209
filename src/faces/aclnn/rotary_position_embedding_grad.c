/* aclnnRotaryPositionEmbeddingGrad (SPEC §16): the rotary gradient with
 * aclnnRotaryPositionEmbedding's restrictions for dy, cos, sin and dx, and CANN's codes
 * as data. */
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"

#include "faces/aclnn/entries.h"
#include "faces/aclnn/partial_rotary.h"
#include "faces/aclnn/rotary_position_embedding_cann.h"
#include "ops/rotary_grad/rotary_grad.h"
#include "runtime/acl_objects.h"

#define RK_CODE_(rule, code, fault) [RK_RG_RULE_##rule] = ACLNN_ERR_##code,
#define RK_FAULT_(rule, code, fault) [RK_RG_RULE_##rule] = ACL_ERROR_##fault,
#define RK_ROW_(rule, code, fault) +1
_Static_assert(0 RK_ACLNN_RPE_GRAD_CODES(RK_ROW_) == RK_RG_RULE_COUNT - 1,
               "every rotary-gradient rule has a row in RK_ACLNN_RPE_GRAD_CODES");
static const aclnnStatus rk_rpe_grad_codes[RK_RG_RULE_COUNT] = {RK_ACLNN_RPE_GRAD_CODES(RK_CODE_)};
static const aclError rk_rpe_grad_faults[RK_RG_RULE_COUNT] = {RK_ACLNN_RPE_GRAD_CODES(RK_FAULT_)};

/* SPEC §16.3's order: the op definition's null checks of every tensor, then its dtype
 * checks, then the forward's checks of dy, cos, sin, dx (the empty-dy exit and the
 * tiling's), then x's and dcos/dsin's shapes and overlaps. */
static const enum rk_rg_step rk_rpe_grad_order[] = {
    RK_RG_STEP_PR_NULL, RK_RG_STEP_NULL,   RK_RG_STEP_PR_DTYPE, RK_RG_STEP_DTYPE,
    RK_RG_STEP_PR_REST, RK_RG_STEP_SHAPES, RK_RG_STEP_OVERLAP,
};

static const struct rk_rg_policy rk_rpe_grad_policy = {
    .pr = &rk_aclnn_rpe_policy,
    .cs_grad_required = true,
    .cs_grad_same_dtype = true,
    .order = rk_rpe_grad_order,
    .order_len = sizeof rk_rpe_grad_order / sizeof rk_rpe_grad_order[0],
};

/* IR: inputs dy (0), cos (1), sin (2), x (3); outputs dx (0), dcos (1), dsin (2). */
const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding_grad = {
    .name = "aclnnRotaryPositionEmbeddingGrad",
    .phase1_name = "aclnnRotaryPositionEmbeddingGradGetWorkspaceSize",
    .op = &rk_op_rotary_grad,
    .policy = &rk_rpe_grad_policy,
    .codes = rk_rpe_grad_codes,
    .faults = rk_rpe_grad_faults,
    .input_slot = {RK_RG_DY, RK_RG_COS, RK_RG_SIN, RK_RG_X, -1, -1, -1, -1},
    .output_slot = {RK_RG_DX, RK_RG_DCOS, RK_RG_DSIN, -1, -1, -1, -1, -1},
};

aclnnStatus aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(
    const aclTensor *dy, const aclTensor *cos, const aclTensor *sin, const aclTensor *xOptional,
    int64_t mode, const aclTensor *dxOut, const aclTensor *dcosOut, const aclTensor *dsinOut,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
    ropekit_tensor v[RK_RG_TENSORS];
    const aclTensor *const tensors[RK_EXEC_MAX_ADDR] = {
        [RK_RG_DY] = dy,    [RK_RG_COS] = cos,      [RK_RG_SIN] = sin,     [RK_RG_X] = xOptional,
        [RK_RG_DX] = dxOut, [RK_RG_DCOS] = dcosOut, [RK_RG_DSIN] = dsinOut};
    const ropekit_tensor *views[RK_RG_TENSORS];
    for (int i = 0; i < RK_RG_TENSORS; i++)
        views[i] = rk_acl_view_or_null(tensors[i], &v[i]);
    struct rk_rg_problem prob =
        rk_rg_problem_of(rk_aclnn_rotary_position_embedding_grad.phase1_name, views, mode, NULL);
    prob.missing_arg = !workspaceSize ? "workspaceSize" : !executor ? "executor" : NULL;
    prob.check_data = true;
    return rk_executor_prepare(&rk_aclnn_rotary_position_embedding_grad, &prob, tensors,
                               workspaceSize, executor);
}

RK_ACLNN_PHASE2(aclnnRotaryPositionEmbeddingGrad, &rk_aclnn_rotary_position_embedding_grad)
