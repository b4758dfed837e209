/* aclnnRopeWithSinCosCache and its V2 (SPEC §5): CANN's restrictions as the operator's
 * policy, CANN's codes and mrope sections as data, one phase 1 for both. V1 is V2 with
 * cacheMode 0 (SPEC §5.1). */
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"

#include "faces/aclnn/entries.h"
#include "faces/aclnn/rope.h"
#include "faces/aclnn/rope_cann.h"
#include "runtime/acl_objects.h"

#define RK_CODE_(rule, code, fault) [RK_ROPE_RULE_##rule] = ACLNN_ERR_##code,
#define RK_FAULT_(rule, code, fault) [RK_ROPE_RULE_##rule] = ACL_ERROR_##fault,
#define RK_ROW_(rule, code, fault) +1
_Static_assert(0 RK_ACLNN_ROPE_CODES(RK_ROW_) == RK_ROPE_RULE_COUNT - 1,
               "every rope rule has a row in RK_ACLNN_ROPE_CODES");
static const aclnnStatus rk_codes[RK_ROPE_RULE_COUNT] = {RK_ACLNN_ROPE_CODES(RK_CODE_)};
static const aclError rk_faults[RK_ROPE_RULE_COUNT] = {RK_ACLNN_ROPE_CODES(RK_FAULT_)};

#define RK_SECTIONS_ROW_(count, s0, s1, s2, s3) {count, {s0, s1, s2, s3}},
static const struct rk_rope_sections rk_cann_sections[] = {
    RK_ACLNN_MROPE_SECTIONS(RK_SECTIONS_ROW_)};

/* SPEC §5.5: 2-D [T, H*headSize] query/key of one dtype with the cache, no empty input,
 * sections of 3 or 4 from CANN's list, cache modes 0 and 1, the tiling's alignment. */
static const struct rk_rope_policy rk_cann_policy = {
    .last_cache_mode = ROPEKIT_MROPE_QWEN3_VL,
    .max_token_dims = 1,
    .section_counts = (1u << 3) | (1u << 4),
    .section_lists = rk_cann_sections,
    .section_list_count = sizeof rk_cann_sections / sizeof rk_cann_sections[0],
    .section_lists_lead = "CANN supports ",
    .section_lists_tail = "; ropekit_rope accepts any sections",
    .align_f32 = 16,
    .align_16bit = 32,
    .align_note = "CANN's tiling alignment",
};

/* IR: inputs positions (0), queryIn (1), keyIn (2), cosSinCache (3); outputs queryOut (0),
 * keyOut (1). */
#define RK_ROPE_ENTRY(api)                                                                         \
    {                                                                                              \
        .name = api, .phase1_name = api "GetWorkspaceSize", .op = &rk_op_rope,                     \
        .policy = &rk_cann_policy, .codes = rk_codes, .faults = rk_faults,                         \
        .input_slot = {RK_ROPE_POS, RK_ROPE_Q_IN, RK_ROPE_K_IN, RK_ROPE_CACHE, -1, -1, -1, -1},    \
        .output_slot = {RK_ROPE_Q_OUT, RK_ROPE_K_OUT, -1, -1, -1, -1, -1, -1},                     \
    }
const struct rk_aclnn_entry rk_aclnn_rope_with_sin_cos_cache =
    RK_ROPE_ENTRY("aclnnRopeWithSinCosCache");
const struct rk_aclnn_entry rk_aclnn_rope_with_sin_cos_cache_v2 =
    RK_ROPE_ENTRY("aclnnRopeWithSinCosCacheV2");

struct rk_rope_problem rk_aclnn_rope_problem(const struct rk_aclnn_entry *entry,
                                             const ropekit_tensor *const views[RK_ROPE_OFF],
                                             const int64_t *sections, uint64_t num_sections,
                                             int64_t head_size, bool is_neox, int64_t cache_mode) {
    return (struct rk_rope_problem){
        .api = entry->phase1_name,
        .positions = views[RK_ROPE_POS],
        .query_in = views[RK_ROPE_Q_IN],
        .key_in = views[RK_ROPE_K_IN],
        .cache = views[RK_ROPE_CACHE],
        .query_out = views[RK_ROPE_Q_OUT],
        .key_out = views[RK_ROPE_K_OUT],
        .head_size = head_size,
        .style = is_neox ? RK_ROPE_NEOX : RK_ROPE_GPTJ,
        .sections = sections,
        .num_sections = sections ? num_sections : 0,
        .cache_mode = entry == &rk_aclnn_rope_with_sin_cos_cache_v2 ? cache_mode : 0,
    };
}

/* Phase 1 of V1 and V2 (SPEC §5.5 rows 0-16). */
static aclnnStatus rk_phase1(const struct rk_aclnn_entry *entry, const aclTensor *const t[],
                             const aclIntArray *mropeSection, int64_t headSize, bool isNeoxStyle,
                             int64_t cacheMode, uint64_t *workspace_size,
                             aclOpExecutor **executor) {
    ropekit_tensor v[RK_ROPE_OFF];
    const ropekit_tensor *views[RK_ROPE_OFF];
    for (int i = 0; i < RK_ROPE_OFF; i++)
        views[i] = rk_acl_view_or_null(t[i], &v[i]);
    struct rk_rope_problem prob = rk_aclnn_rope_problem(
        entry, views, mropeSection ? mropeSection->values : NULL,
        mropeSection ? mropeSection->size : 0, headSize, isNeoxStyle, cacheMode);
    prob.missing_arg = !workspace_size ? "workspaceSize" : !executor ? "executor" : NULL;
    prob.check_data = true;
    const aclTensor *tensors[RK_EXEC_MAX_ADDR] = {NULL};
    for (int i = 0; i < RK_ROPE_OFF; i++)
        tensors[i] = t[i];
    return rk_executor_prepare(entry, &prob, tensors, workspace_size, executor);
}

#define RK_V1 (&rk_aclnn_rope_with_sin_cos_cache)
#define RK_V2 (&rk_aclnn_rope_with_sin_cos_cache_v2)

aclnnStatus
aclnnRopeWithSinCosCacheGetWorkspaceSize(const aclTensor *positions, const aclTensor *queryIn,
                                         const aclTensor *keyIn, const aclTensor *cosSinCache,
                                         const aclIntArray *mropeSection, int64_t headSize,
                                         bool isNeoxStyle, aclTensor *queryOut, aclTensor *keyOut,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
    const aclTensor *const t[RK_ROPE_OFF] = {positions,   queryIn,  keyIn,
                                             cosSinCache, queryOut, keyOut};
    return rk_phase1(RK_V1, t, mropeSection, headSize, isNeoxStyle, 0, workspaceSize, executor);
}

/* cacheMode is checked first, before the null checks (SPEC §5.5 row 0); it only matters
 * for mrope. */
aclnnStatus aclnnRopeWithSinCosCacheV2GetWorkspaceSize(
    const aclTensor *positions, const aclTensor *queryIn, const aclTensor *keyIn,
    const aclTensor *cosSinCache, const aclIntArray *mropeSection, int64_t headSize,
    bool isNeoxStyle, int64_t cacheMode, aclTensor *queryOut, aclTensor *keyOut,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
    const aclTensor *const t[RK_ROPE_OFF] = {positions,   queryIn,  keyIn,
                                             cosSinCache, queryOut, keyOut};
    return rk_phase1(RK_V2, t, mropeSection, headSize, isNeoxStyle, cacheMode, workspaceSize,
                     executor);
}

RK_ACLNN_PHASE2(aclnnRopeWithSinCosCache, RK_V1)
RK_ACLNN_PHASE2(aclnnRopeWithSinCosCacheV2, RK_V2)
