/* aclnnRotaryPositionEmbeddingV2 (SPEC §15.4): without rotate, aclnnRotaryPositionEmbedding
 * under V2's names (the partial-rotary operator and its policy); with rotate, the
 * rotary-matrix operator under CANN's rotate-matrix tiling rules. Two entries, one phase 2
 * that launches the executor of either. */
#include "aclnnop/aclnn_rotary_position_embedding_v2.h"

#include "faces/aclnn/entries.h"
#include "faces/aclnn/partial_rotary.h"
#include "faces/aclnn/rotary_position_embedding_cann.h"
#include "kernels/rot_kernel.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "ops/rotary_matrix/rotary_matrix.h"
#include "runtime/acl_objects.h"

#define RK_CODE_(rule, code, fault) [RK_RM_RULE_##rule] = ACLNN_ERR_##code,
#define RK_FAULT_(rule, code, fault) [RK_RM_RULE_##rule] = ACL_ERROR_##fault,
#define RK_ROW_(rule, code, fault) +1
_Static_assert(0 RK_ACLNN_RPE_MATRIX_CODES(RK_ROW_) == RK_RM_RULE_COUNT - 1,
               "every rotary-matrix rule has a row in RK_ACLNN_RPE_MATRIX_CODES");
static const aclnnStatus rk_matrix_codes[RK_RM_RULE_COUNT] = {RK_ACLNN_RPE_MATRIX_CODES(RK_CODE_)};
static const aclError rk_matrix_faults[RK_RM_RULE_COUNT] = {RK_ACLNN_RPE_MATRIX_CODES(RK_FAULT_)};

/* CANN's rotate-matrix tiling: x, cos, sin 4-D of one dtype with rotate [D, D], D even and
 * at most 896, cos broadcast over x's leading dims (in interleave mode over two of them). */
static const struct rk_rm_policy rk_matrix_policy = {
    .dtype_mask = (1u << RK_KDT_F32) | (1u << RK_KDT_F16) | (1u << RK_KDT_BF16),
    .rank = 4,
    .max_d = ROPEKIT_CANN_ROTARY_MATRIX_MAX_D,
    .require_d_even = true,
    .mode_mask = RK_PR_ALL_MODES,
    .interleave_bcast = true,
};

/* IR: inputs x (0), cos (1), sin (2), rotate (3); output y (0). */
const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding_v2_matrix = {
    .name = "aclnnRotaryPositionEmbeddingV2",
    .phase1_name = "aclnnRotaryPositionEmbeddingV2GetWorkspaceSize",
    .op = &rk_op_rotary_matrix,
    .policy = &rk_matrix_policy,
    .codes = rk_matrix_codes,
    .faults = rk_matrix_faults,
    .input_slot = {RK_RM_X, RK_RM_COS, RK_RM_SIN, RK_RM_ROTATE, -1, -1, -1, -1},
    .output_slot = {RK_RM_OUT, -1, -1, -1, -1, -1, -1, -1},
};

aclnnStatus aclnnRotaryPositionEmbeddingV2GetWorkspaceSize(const aclTensor *x, const aclTensor *cos,
                                                           const aclTensor *sin, int64_t mode,
                                                           const aclTensor *rotate, aclTensor *out,
                                                           uint64_t *workspaceSize,
                                                           aclOpExecutor **executor) {
    ropekit_tensor vx, vc, vs, vr, vo;
    const char *missing = !workspaceSize ? "workspaceSize" : !executor ? "executor" : NULL;
    if (!rotate) {
        struct rk_pr_problem prob = rk_aclnn_rpe_problem(
            rk_acl_view_or_null(x, &vx), rk_acl_view_or_null(cos, &vc),
            rk_acl_view_or_null(sin, &vs), mode, rk_acl_view_or_null(out, &vo));
        prob.api = rk_aclnn_rotary_position_embedding_v2.phase1_name;
        prob.missing_arg = missing;
        prob.check_data = true;
        const aclTensor *const tensors[RK_EXEC_MAX_ADDR] = {
            [RK_PR_X] = x, [RK_PR_COS] = cos, [RK_PR_SIN] = sin, [RK_PR_OUT] = out};
        return rk_executor_prepare(&rk_aclnn_rotary_position_embedding_v2, &prob, tensors,
                                   workspaceSize, executor);
    }
    const struct rk_rm_problem prob = {
        .api = rk_aclnn_rotary_position_embedding_v2_matrix.phase1_name,
        .x = rk_acl_view_or_null(x, &vx),
        .cos = rk_acl_view_or_null(cos, &vc),
        .sin = rk_acl_view_or_null(sin, &vs),
        .rotate = rk_acl_view_or_null(rotate, &vr),
        .out = rk_acl_view_or_null(out, &vo),
        .mode = mode,
        .missing_arg = missing,
        .check_data = true,
    };
    const aclTensor *const tensors[RK_EXEC_MAX_ADDR] = {[RK_RM_X] = x,
                                                        [RK_RM_COS] = cos,
                                                        [RK_RM_SIN] = sin,
                                                        [RK_RM_ROTATE] = rotate,
                                                        [RK_RM_OUT] = out};
    return rk_executor_prepare(&rk_aclnn_rotary_position_embedding_v2_matrix, &prob, tensors,
                               workspaceSize, executor);
}

aclnnStatus aclnnRotaryPositionEmbeddingV2(void *workspace, uint64_t workspaceSize,
                                           aclOpExecutor *executor, aclrtStream stream) {
    const struct rk_aclnn_entry *entry =
        rk_executor_made_by(executor, &rk_aclnn_rotary_position_embedding_v2_matrix)
            ? &rk_aclnn_rotary_position_embedding_v2_matrix
            : &rk_aclnn_rotary_position_embedding_v2;
    return rk_executor_launch(workspace, workspaceSize, executor, stream, entry);
}
