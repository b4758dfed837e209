/* aclnnApplyRotaryPosEmb and aclnnApplyRotaryPosEmbV2 (SPEC §14): CANN's restrictions as
 * the operator's policies, CANN's codes as data, one phase 1 for both. V1 is V2 with
 * rotaryMode "half" (CANN's V1 passes it to the same inner operator) and layout 1 only. */
#include <string.h>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"

#include "faces/aclnn/apply_rotary.h"
#include "faces/aclnn/apply_rotary_cann.h"
#include "faces/aclnn/entries.h"
#include "runtime/acl_objects.h"

#define RK_CODE_(rule, code, fault) [RK_AR_RULE_##rule] = ACLNN_ERR_##code,
#define RK_FAULT_(rule, code, fault) [RK_AR_RULE_##rule] = ACL_ERROR_##fault,
#define RK_ROW_(rule, code, fault) +1
_Static_assert(0 RK_ACLNN_AR_CODES(RK_ROW_) == RK_AR_RULE_COUNT - 1,
               "every apply-rotary rule has a row in RK_ACLNN_AR_CODES");
static const aclnnStatus rk_codes[RK_AR_RULE_COUNT] = {RK_ACLNN_AR_CODES(RK_CODE_)};
static const aclError rk_faults[RK_AR_RULE_COUNT] = {RK_ACLNN_AR_CODES(RK_FAULT_)};

/* Both docs: 4-D query, key, cos, sin of one dtype (f16, f32 or bf16), none empty, D 128,
 * cos's N 1 and its other dims query's, key query's but in N. */
#define RK_AR_CANN_POLICY(layouts, modes, mode_rule_)                                              \
    {                                                                                              \
        .q_name = "queryRef", .k_name = "keyRef", .mode_name = "rotaryMode", .mode_mask = modes,   \
        .mode_rule = mode_rule_,                                                                   \
        .pair_mask = RK_PR_PAIR(RK_KDT_F32, RK_KDT_F32) | RK_PR_PAIR(RK_KDT_F16, RK_KDT_F16) |     \
                     RK_PR_PAIR(RK_KDT_BF16, RK_KDT_BF16),                                         \
        .same_dtype = true, .rank = 4, .refuse_empty = true, .layout_mask = layouts,               \
        .d_value = RK_ACLNN_APPLY_ROTARY_D,                                                        \
    }

static const struct rk_ar_policy rk_v1_policy =
    RK_AR_CANN_POLICY(1u << RK_AR_BSND, 1u << ROPEKIT_ROTARY_HALF, "\"half\"");
static const struct rk_ar_policy rk_v2_policy =
    RK_AR_CANN_POLICY((1u << RK_AR_BSND) | (1u << RK_AR_SBND) | (1u << RK_AR_BNSD),
                      (1u << ROPEKIT_ROTARY_HALF) | (1u << ROPEKIT_ROTARY_INTERLEAVE) |
                          (1u << ROPEKIT_ROTARY_QUARTER),
                      "\"half\", \"interleave\" or \"quarter\"");

/* IR: inputs query (0), key (1), cos (2), sin (3); outputs query (0), key (1), the memory of
 * inputs 0 and 1. */
#define RK_AR_ENTRY(api, policy_)                                                                  \
    {                                                                                              \
        .name = api, .phase1_name = api "GetWorkspaceSize", .op = &rk_op_apply_rotary,             \
        .policy = &policy_, .codes = rk_codes, .faults = rk_faults,                                \
        .input_slot = {RK_AR_Q, RK_AR_K, RK_AR_COS, RK_AR_SIN, -1, -1, -1, -1},                    \
        .output_slot = {RK_AR_Q, RK_AR_K, -1, -1, -1, -1, -1, -1},                                 \
    }
const struct rk_aclnn_entry rk_aclnn_apply_rotary_pos_emb =
    RK_AR_ENTRY("aclnnApplyRotaryPosEmb", rk_v1_policy);
const struct rk_aclnn_entry rk_aclnn_apply_rotary_pos_emb_v2 =
    RK_AR_ENTRY("aclnnApplyRotaryPosEmbV2", rk_v2_policy);

/* rotaryMode's string as a mode: the mode of that name (ropekit_rotary_mode_name), or -1. */
static int64_t rk_mode_of(const char *text) {
    for (int m = 0; m < RK_ROT_MODE_COUNT; m++)
        if (strcmp(text, ropekit_rotary_mode_name((ropekit_rotary_mode)m)) == 0)
            return m;
    return -1;
}

struct rk_ar_problem rk_aclnn_ar_problem(const struct rk_aclnn_entry *entry,
                                         const ropekit_tensor *q, const ropekit_tensor *k,
                                         const ropekit_tensor *cos, const ropekit_tensor *sin,
                                         int64_t layout, const char *rotary_mode) {
    const bool v2 = entry == &rk_aclnn_apply_rotary_pos_emb_v2;
    struct rk_ar_problem prob = {
        .api = entry->phase1_name,
        .q = q,
        .k = k,
        .cos = cos,
        .sin = sin,
        .layout = layout,
        .mode = ROPEKIT_ROTARY_HALF,
        .direction = ROPEKIT_FORWARD,
    };
    if (v2 && !rotary_mode)
        prob.missing_arg = "rotaryMode";
    else if (v2) {
        prob.mode = rk_mode_of(rotary_mode);
        prob.mode_text = rotary_mode;
    }
    return prob;
}

/* Phase 1 of both entry points. */
static aclnnStatus rk_phase1(const struct rk_aclnn_entry *entry, const aclTensor *q,
                             const aclTensor *k, const aclTensor *cos, const aclTensor *sin,
                             int64_t layout, const char *rotary_mode, uint64_t *workspace_size,
                             aclOpExecutor **executor) {
    ropekit_tensor vq, vk, vc, vs;
    struct rk_ar_problem prob = rk_aclnn_ar_problem(
        entry, rk_acl_view_or_null(q, &vq), rk_acl_view_or_null(k, &vk),
        rk_acl_view_or_null(cos, &vc), rk_acl_view_or_null(sin, &vs), layout, rotary_mode);
    if (!prob.missing_arg)
        prob.missing_arg = !workspace_size ? "workspaceSize" : !executor ? "executor" : NULL;
    prob.check_data = true;
    const aclTensor *const tensors[RK_EXEC_MAX_ADDR] = {
        [RK_AR_Q] = q, [RK_AR_K] = k, [RK_AR_COS] = cos, [RK_AR_SIN] = sin};
    return rk_executor_prepare(entry, &prob, tensors, workspace_size, executor);
}

#define RK_V1 (&rk_aclnn_apply_rotary_pos_emb)
#define RK_V2 (&rk_aclnn_apply_rotary_pos_emb_v2)

aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor *queryRef, aclTensor *keyRef,
                                                   const aclTensor *cos, const aclTensor *sin,
                                                   int64_t layout, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
    return rk_phase1(RK_V1, queryRef, keyRef, cos, sin, layout, NULL, workspaceSize, executor);
}

aclnnStatus aclnnApplyRotaryPosEmbV2GetWorkspaceSize(aclTensor *queryRef, aclTensor *keyRef,
                                                     const aclTensor *cos, const aclTensor *sin,
                                                     int64_t layout, char *rotaryMode,
                                                     uint64_t *workspaceSize,
                                                     aclOpExecutor **executor) {
    return rk_phase1(RK_V2, queryRef, keyRef, cos, sin, layout, rotaryMode, workspaceSize,
                     executor);
}

RK_ACLNN_PHASE2(aclnnApplyRotaryPosEmb, RK_V1)
RK_ACLNN_PHASE2(aclnnApplyRotaryPosEmbV2, RK_V2)
