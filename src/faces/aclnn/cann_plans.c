/* CANN's rules on the native face (ropekit_cann.h): the aclnn entry points' policies
 * and codes, made into native plan handles without ACL objects or data. */
#include "ropekit/ropekit_cann.h"

#include "core/error.h"
#include "faces/aclnn/apply_rotary.h"
#include "faces/aclnn/entries.h"
#include "faces/aclnn/partial_rotary.h"
#include "faces/aclnn/rope.h"
#include "ops/rotary_grad/rotary_grad.h"
#include "faces/native/plan.h"

static const struct rk_aclnn_entry *const rk_entries[] = {
    [ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL] = &rk_aclnn_partial_rotary_mul,
    [ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL_GRAD] = &rk_aclnn_partial_rotary_mul_grad,
    [ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE] = &rk_aclnn_rope_with_sin_cos_cache,
    [ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE_V2] = &rk_aclnn_rope_with_sin_cos_cache_v2,
    [ROPEKIT_CANN_APPLY_ROTARY_POS_EMB] = &rk_aclnn_apply_rotary_pos_emb,
    [ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2] = &rk_aclnn_apply_rotary_pos_emb_v2,
    [ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING] = &rk_aclnn_rotary_position_embedding,
    [ROPEKIT_CANN_INTERLEAVE_ROPE] = &rk_aclnn_interleave_rope,
    [ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_GRAD] = &rk_aclnn_rotary_position_embedding_grad,
};

const struct rk_aclnn_entry *rk_aclnn_entry_of(ropekit_cann_op op) {
    return (unsigned)op < sizeof rk_entries / sizeof rk_entries[0] ? rk_entries[op] : NULL;
}

const char *ropekit_cann_op_name(ropekit_cann_op op) {
    const struct rk_aclnn_entry *entry = rk_aclnn_entry_of(op);
    return entry ? entry->name : "?";
}

/* The entry of `op` if it is of operator `want`, else NULL with the message set. */
static const struct rk_aclnn_entry *rk_entry_for(ropekit_cann_op op, const struct rk_op *want,
                                                 const char *api, int32_t *cann_code) {
    const struct rk_aclnn_entry *entry = rk_aclnn_entry_of(op);
    if (entry && entry->op == want)
        return entry;
    rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: op = %d: not a %s operator", api, (int)op,
                 want->name);
    if (cann_code)
        *cann_code = ACLNN_ERR_PARAM_INVALID;
    return NULL;
}

/* Makes the plan; the code of a failure is the entry point's. A NULL `plan` is reported
 * after the tensors, as phase 1 reports a NULL executor (the problem says it is missing). */
static ropekit_status rk_cann_plan(const struct rk_aclnn_entry *entry, const void *problem,
                                   ropekit_plan **plan, int32_t *cann_code) {
    int rule = 0;
    if (plan)
        *plan = NULL;
    ropekit_status st =
        rk_plan_make(entry->op, entry->phase1_name, problem, entry->policy, plan, &rule);
    if (cann_code)
        *cann_code = st == ROPEKIT_OK ? ACLNN_SUCCESS : rk_aclnn_code(entry, rule);
    return st;
}

ropekit_status ropekit_cann_partial_rotary_plan_create(
    ropekit_cann_op op, const ropekit_tensor *x, const ropekit_tensor *cos,
    const ropekit_tensor *sin, int64_t rotary_mode, const int64_t *partial_slice,
    uint64_t slice_len, ropekit_plan **plan, int32_t *cann_code) {
    static const char api[] = "ropekit_cann_partial_rotary_plan_create";
    const struct rk_aclnn_entry *entry = rk_entry_for(op, &rk_op_partial_rotary, api, cann_code);
    if (entry == &rk_aclnn_rotary_position_embedding || entry == &rk_aclnn_interleave_rope) {
        /* out of place: its own call */
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: op = %d: %s takes an out tensor; use %s", api,
                     (int)op, entry->name,
                     entry == &rk_aclnn_interleave_rope
                         ? "ropekit_cann_interleave_rope_plan_create"
                         : "ropekit_cann_rotary_position_embedding_plan_create");
        if (cann_code)
            *cann_code = ACLNN_ERR_PARAM_INVALID;
        return ROPEKIT_INVALID_ARGUMENT;
    }
    if (!entry)
        return ROPEKIT_INVALID_ARGUMENT;
    struct rk_pr_problem prob =
        rk_aclnn_pr_problem(entry, x, cos, sin, rotary_mode, partial_slice, slice_len);
    prob.missing_arg = plan ? NULL : "plan";
    return rk_cann_plan(entry, &prob, plan, cann_code);
}

ropekit_status ropekit_cann_rotary_position_embedding_plan_create(
    const ropekit_tensor *x, const ropekit_tensor *cos, const ropekit_tensor *sin, int64_t mode,
    const ropekit_tensor *out, ropekit_plan **plan, int32_t *cann_code) {
    struct rk_pr_problem prob = rk_aclnn_rpe_problem(x, cos, sin, mode, out);
    prob.missing_arg = plan ? NULL : "plan";
    return rk_cann_plan(&rk_aclnn_rotary_position_embedding, &prob, plan, cann_code);
}

ropekit_status ropekit_cann_rotary_position_embedding_grad_plan_create(
    const ropekit_tensor *dy, const ropekit_tensor *cos, const ropekit_tensor *sin,
    const ropekit_tensor *x, int64_t mode, const ropekit_tensor *dx, const ropekit_tensor *dcos,
    const ropekit_tensor *dsin, ropekit_plan **plan, int32_t *cann_code) {
    const ropekit_tensor *const views[RK_RG_TENSORS] = {dy, cos, sin, x, dx, dcos, dsin};
    struct rk_rg_problem prob =
        rk_rg_problem_of(rk_aclnn_rotary_position_embedding_grad.phase1_name, views, mode, NULL);
    prob.missing_arg = plan ? NULL : "plan";
    return rk_cann_plan(&rk_aclnn_rotary_position_embedding_grad, &prob, plan, cann_code);
}

ropekit_status ropekit_cann_interleave_rope_plan_create(const ropekit_tensor *x,
                                                        const ropekit_tensor *cos,
                                                        const ropekit_tensor *sin,
                                                        const ropekit_tensor *out,
                                                        ropekit_plan **plan, int32_t *cann_code) {
    struct rk_pr_problem prob = rk_aclnn_ir_problem(x, cos, sin, out);
    prob.missing_arg = plan ? NULL : "plan";
    return rk_cann_plan(&rk_aclnn_interleave_rope, &prob, plan, cann_code);
}

ropekit_status
ropekit_cann_rope_plan_create(ropekit_cann_op op, const ropekit_tensor *positions,
                              const ropekit_tensor *query_in, const ropekit_tensor *key_in,
                              const ropekit_tensor *cos_sin_cache, const ropekit_tensor *query_out,
                              const ropekit_tensor *key_out, const int64_t *mrope_section,
                              uint64_t num_sections, int64_t head_size, bool is_neox,
                              int64_t cache_mode, ropekit_plan **plan, int32_t *cann_code) {
    static const char api[] = "ropekit_cann_rope_plan_create";
    const struct rk_aclnn_entry *entry = rk_entry_for(op, &rk_op_rope, api, cann_code);
    if (!entry)
        return ROPEKIT_INVALID_ARGUMENT;
    const ropekit_tensor *const views[RK_ROPE_OFF] = {positions,     query_in,  key_in,
                                                      cos_sin_cache, query_out, key_out};
    struct rk_rope_problem prob = rk_aclnn_rope_problem(entry, views, mrope_section, num_sections,
                                                        head_size, is_neox, cache_mode);
    prob.missing_arg = plan ? NULL : "plan";
    return rk_cann_plan(entry, &prob, plan, cann_code);
}

ropekit_status ropekit_cann_apply_rotary_plan_create(
    ropekit_cann_op op, const ropekit_tensor *query, const ropekit_tensor *key,
    const ropekit_tensor *cos, const ropekit_tensor *sin, int64_t layout, const char *rotary_mode,
    ropekit_plan **plan, int32_t *cann_code) {
    static const char api[] = "ropekit_cann_apply_rotary_plan_create";
    const struct rk_aclnn_entry *entry = rk_entry_for(op, &rk_op_apply_rotary, api, cann_code);
    if (!entry)
        return ROPEKIT_INVALID_ARGUMENT;
    struct rk_ar_problem prob =
        rk_aclnn_ar_problem(entry, query, key, cos, sin, layout, rotary_mode);
    if (!prob.missing_arg)
        prob.missing_arg = plan ? NULL : "plan";
    return rk_cann_plan(entry, &prob, plan, cann_code);
}
