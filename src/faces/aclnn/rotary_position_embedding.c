/* aclnnRotaryPositionEmbedding (SPEC §15): the partial-rotary operator out of place over
 * the whole last dim, with CANN's restrictions as its policy and CANN's codes as data. */
#include "aclnnop/aclnn_rotary_position_embedding.h"

#include "faces/aclnn/entries.h"
#include "faces/aclnn/partial_rotary.h"
#include "faces/aclnn/rotary_position_embedding_cann.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "runtime/acl_objects.h"

#define RK_CODE_(rule, code, fault) [RK_PR_RULE_##rule] = ACLNN_ERR_##code,
#define RK_FAULT_(rule, code, fault) [RK_PR_RULE_##rule] = ACL_ERROR_##fault,
#define RK_ROW_(rule, code, fault) +1
_Static_assert(0 RK_ACLNN_RPE_CODES(RK_ROW_) == RK_PR_RULE_COUNT - 1,
               "every partial-rotary rule has a row in RK_ACLNN_RPE_CODES");
static const aclnnStatus rk_rpe_codes[RK_PR_RULE_COUNT] = {RK_ACLNN_RPE_CODES(RK_CODE_)};
static const aclError rk_rpe_faults[RK_PR_RULE_COUNT] = {RK_ACLNN_RPE_CODES(RK_FAULT_)};

/* SPEC §15.3's order: what the op definition checks (nulls, then dtypes), the exit of an
 * empty x (which the shape rules do not bind), then the tiling's mode and shapes. */
static const enum rk_pr_step rk_rpe_order[] = {
    RK_PR_STEP_NULL,   RK_PR_STEP_DTYPE,      RK_PR_STEP_SLICE,     RK_PR_STEP_NOOP,
    RK_PR_STEP_MODE,   RK_PR_STEP_SHAPES,     RK_PR_STEP_MAX_D,     RK_PR_STEP_D_EVEN,
    RK_PR_STEP_CS_LEN, RK_PR_STEP_L_MULTIPLE, RK_PR_STEP_BROADCAST, RK_PR_STEP_OVERLAP,
};

const struct rk_pr_policy rk_aclnn_rpe_policy = {
    .x_name = "x",
    .mode_name = "mode",
    .mode_mask = RK_PR_ALL_MODES,
    /* x, cos, sin (and out) of one dtype */
    .pair_mask = RK_PR_PAIR(RK_KDT_F32, RK_KDT_F32) | RK_PR_PAIR(RK_KDT_F16, RK_KDT_F16) |
                 RK_PR_PAIR(RK_KDT_BF16, RK_KDT_BF16),
    .max_d = ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_MAX_D,
    .rank = 4,
    .require_d_even = true,
    .noop_x_only = true,
    .no_lone_dim0_broadcast = true,
    .order = rk_rpe_order,
    .order_len = sizeof rk_rpe_order / sizeof rk_rpe_order[0],
};

/* IR: inputs x (0), cos (1), sin (2); output y (0). aclnnRotaryPositionEmbeddingV2 without
 * its rotate matrix is this entry under V2's names. */
#define RK_RPE_ENTRY(api)                                                                          \
    {                                                                                              \
        .name = api, .phase1_name = api "GetWorkspaceSize", .op = &rk_op_partial_rotary,           \
        .policy = &rk_aclnn_rpe_policy, .codes = rk_rpe_codes, .faults = rk_rpe_faults,            \
        .input_slot = {RK_PR_X, RK_PR_COS, RK_PR_SIN, -1, -1, -1, -1, -1},                         \
        .output_slot = {RK_PR_OUT, -1, -1, -1, -1, -1, -1, -1},                                    \
    }
const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding =
    RK_RPE_ENTRY("aclnnRotaryPositionEmbedding");
const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding_v2 =
    RK_RPE_ENTRY("aclnnRotaryPositionEmbeddingV2");

struct rk_pr_problem rk_aclnn_rpe_problem(const ropekit_tensor *x, const ropekit_tensor *cos,
                                          const ropekit_tensor *sin, int64_t mode,
                                          const ropekit_tensor *out) {
    return (struct rk_pr_problem){
        .api = rk_aclnn_rotary_position_embedding.phase1_name,
        .x = x,
        .cos = cos,
        .sin = sin,
        .out = out,
        .with_out = true,
        .mode = mode,
        .direction = ROPEKIT_FORWARD,
        .whole_row = true,
    };
}

aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor *x, const aclTensor *cos,
                                                         const aclTensor *sin, int64_t mode,
                                                         aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor) {
    ropekit_tensor vx, vc, vs, vo;
    struct rk_pr_problem prob =
        rk_aclnn_rpe_problem(rk_acl_view_or_null(x, &vx), rk_acl_view_or_null(cos, &vc),
                             rk_acl_view_or_null(sin, &vs), mode, rk_acl_view_or_null(out, &vo));
    prob.missing_arg = !workspaceSize ? "workspaceSize" : !executor ? "executor" : NULL;
    prob.check_data = true;
    const aclTensor *const tensors[RK_EXEC_MAX_ADDR] = {
        [RK_PR_X] = x, [RK_PR_COS] = cos, [RK_PR_SIN] = sin, [RK_PR_OUT] = out};
    return rk_executor_prepare(&rk_aclnn_rotary_position_embedding, &prob, tensors, workspaceSize,
                               executor);
}

RK_ACLNN_PHASE2(aclnnRotaryPositionEmbedding, &rk_aclnn_rotary_position_embedding)
