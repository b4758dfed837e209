/* Native face of RopeWithSinCosCache: any sections, cache modes, ranks, strides and
 * cache dtype; batched [B, S] tokens and offsets; query-only or key-only calls; T == 0
 * as a no-op (SPEC §8). */
#include <stdlib.h>

#include "core/error.h"
#include "ops/plan.h"

static ropekit_status rk_native_rope_plan(const char *api, const ropekit_tensor *positions,
                                          const ropekit_tensor *q_in, const ropekit_tensor *k_in,
                                          const ropekit_tensor *cache, const ropekit_tensor *q_out,
                                          const ropekit_tensor *k_out,
                                          const ropekit_rope_config *config,
                                          struct rk_rope_plan *out) {
    if (!config)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: config = NULL: required", api);
    if ((int)config->style != ROPEKIT_ROPE_NEOX && (int)config->style != ROPEKIT_ROPE_GPTJ)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: style = %d: must be 0 (NeoX) or 1 (GPT-J)", api,
                            (int)config->style);
    if (config->num_sections < 0 || (config->num_sections > 0 && !config->sections))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: num_sections = %d: must be >= 0 with sections given", api,
                            (int)config->num_sections);
    struct rk_rope_problem prob = {
        .positions = positions,
        .query_in = q_in,
        .key_in = k_in,
        .cache = cache,
        .query_out = q_out,
        .key_out = k_out,
        .head_size = config->head_size,
        .style = config->style == ROPEKIT_ROPE_NEOX ? RK_ROPE_NEOX : RK_ROPE_GPTJ,
        .sections = config->num_sections > 0 ? config->sections : NULL,
        .num_sections = (uint64_t)config->num_sections,
        .cache_mode = config->cache_mode,
        .offsets = config->offsets,
    };
    struct rk_rope_policy pol = {.api = api, .aclnn = false, .check_data = false};
    enum rk_rope_rule rule;
    return rk_rope_plan_make(&prob, &pol, out, &rule);
}

ropekit_status
ropekit_rope_plan_create(const ropekit_tensor *positions, const ropekit_tensor *query_in,
                         const ropekit_tensor *key_in, const ropekit_tensor *cos_sin_cache,
                         const ropekit_tensor *query_out, const ropekit_tensor *key_out,
                         const ropekit_rope_config *config, ropekit_plan **plan) {
    static const char api[] = "ropekit_rope_plan_create";
    if (!plan)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: plan = NULL: output pointer required", api);
    *plan = NULL;
    ropekit_plan *p = calloc(1, sizeof *p);
    if (!p)
        return rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
    p->kind = RK_PLAN_ROPE;
    ropekit_status st = rk_native_rope_plan(api, positions, query_in, key_in, cos_sin_cache,
                                            query_out, key_out, config, &p->u.rope);
    if (st != ROPEKIT_OK) {
        free(p);
        return st;
    }
    *plan = p;
    return ROPEKIT_OK;
}

static bool rk_is_rope_plan(const ropekit_plan *plan) {
    return plan && plan->kind == RK_PLAN_ROPE;
}

/* Why rk_is_rope_plan is false. Apart, so the execute calls keep their arguments in
 * registers on the way to the work. */
static ropekit_status rk_rope_plan_error(const ropekit_plan *plan, const char *api) {
    if (!plan)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: plan = NULL: required", api);
    return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: plan kind = %d: not a rope plan", api,
                        (int)plan->kind);
}

ropekit_status ropekit_rope_execute(const ropekit_plan *plan, const int64_t *positions,
                                    const void *query_in, const void *key_in,
                                    const void *cos_sin_cache, void *query_out, void *key_out) {
    static const char api[] = "ropekit_rope_execute";
    if (!rk_is_rope_plan(plan))
        return rk_rope_plan_error(plan, api);
    if (plan->u.rope.offsets)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: plan made with offsets: run it with ropekit_rope_execute_offsets",
                            api);
    const struct rk_rope_data data = {positions, query_in, key_in, cos_sin_cache,
                                      query_out, key_out,  NULL};
    enum rk_rope_rule rule;
    return rk_rope_execute(&plan->u.rope, api, &data, &rule);
}

ropekit_status ropekit_rope_execute_offsets(const ropekit_plan *plan, const int64_t *positions,
                                            const int64_t *offsets, const void *query_in,
                                            const void *key_in, const void *cos_sin_cache,
                                            void *query_out, void *key_out) {
    static const char api[] = "ropekit_rope_execute_offsets";
    if (!rk_is_rope_plan(plan))
        return rk_rope_plan_error(plan, api);
    if (!plan->u.rope.offsets && offsets)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: offsets given to a plan made without offsets (config.offsets = "
                            "NULL): pass NULL or plan with offsets",
                            api);
    const struct rk_rope_data data = {positions, query_in, key_in, cos_sin_cache,
                                      query_out, key_out,  offsets};
    enum rk_rope_rule rule;
    return rk_rope_execute(&plan->u.rope, api, &data, &rule);
}

static void *rk_data_of(const ropekit_tensor *t) {
    return t ? t->data : NULL;
}

ropekit_status ropekit_rope(const ropekit_tensor *positions, const ropekit_tensor *query_in,
                            const ropekit_tensor *key_in, const ropekit_tensor *cos_sin_cache,
                            const ropekit_tensor *query_out, const ropekit_tensor *key_out,
                            const ropekit_rope_config *config) {
    static const char api[] = "ropekit_rope";
    struct rk_rope_plan plan;
    ropekit_status st = rk_native_rope_plan(api, positions, query_in, key_in, cos_sin_cache,
                                            query_out, key_out, config, &plan);
    if (st != ROPEKIT_OK)
        return st;
    const struct rk_rope_data data = {rk_data_of(positions),      rk_data_of(query_in),
                                      rk_data_of(key_in),         rk_data_of(cos_sin_cache),
                                      rk_data_of(query_out),      rk_data_of(key_out),
                                      rk_data_of(config->offsets)};
    enum rk_rope_rule rule;
    st = rk_rope_execute(&plan, api, &data, &rule);
    rk_rope_plan_release(&plan);
    return st;
}
