/* Native face of RopeWithSinCosCache: any sections, cache modes, ranks, strides and
 * cache dtype; batched [B, S] tokens and offsets; query-only or key-only calls; T == 0
 * as a no-op (SPEC §8). */
#include "core/error.h"
#include "faces/native/plan.h"
#include "ops/rope/rope.h"

static const struct rk_rope_policy rk_native_policy = {
    .last_cache_mode = ROPEKIT_MROPE_PANGU_VL,
    .pairs_optional = true,
    .empty_allowed = true,
    .max_token_dims = 2,
    .split_heads = true,
    .cache_dtype_free = true,
    .float64 = true,
};

/* The problem of the native calls, after the config's own checks. */
static ropekit_status rk_native_problem(const char *api, const ropekit_tensor *positions,
                                        const ropekit_tensor *q_in, const ropekit_tensor *k_in,
                                        const ropekit_tensor *cache, const ropekit_tensor *q_out,
                                        const ropekit_tensor *k_out,
                                        const ropekit_rope_config *config,
                                        struct rk_rope_problem *prob) {
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
    *prob = (struct rk_rope_problem){
        .api = api,
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
    return ROPEKIT_OK;
}

ropekit_status
ropekit_rope_plan_create(const ropekit_tensor *positions, const ropekit_tensor *query_in,
                         const ropekit_tensor *key_in, const ropekit_tensor *cos_sin_cache,
                         const ropekit_tensor *query_out, const ropekit_tensor *key_out,
                         const ropekit_rope_config *config, ropekit_plan **plan) {
    static const char api[] = "ropekit_rope_plan_create";
    struct rk_rope_problem prob;
    ropekit_status st = rk_plan_out_ready(api, plan);
    if (st == ROPEKIT_OK)
        st = rk_native_problem(api, positions, query_in, key_in, cos_sin_cache, query_out, key_out,
                               config, &prob);
    if (st != ROPEKIT_OK)
        return st;
    int rule;
    return rk_plan_make(&rk_op_rope, api, &prob, &rk_native_policy, plan, &rule);
}

/* The slots of a call's data. The inputs are never written through them. */
static struct rk_op_data rk_rope_data(const int64_t *positions, const void *query_in,
                                      const void *key_in, const void *cos_sin_cache,
                                      void *query_out, void *key_out, const int64_t *offsets) {
    struct rk_op_data d = {{NULL}};
    d.ptr[RK_ROPE_POS] = (void *)positions;
    d.ptr[RK_ROPE_Q_IN] = (void *)query_in;
    d.ptr[RK_ROPE_K_IN] = (void *)key_in;
    d.ptr[RK_ROPE_CACHE] = (void *)cos_sin_cache;
    d.ptr[RK_ROPE_Q_OUT] = query_out;
    d.ptr[RK_ROPE_K_OUT] = key_out;
    d.ptr[RK_ROPE_OFF] = (void *)offsets;
    return d;
}

/* Both execute calls: the plan's operator, whether it was made with offsets, then the
 * data's checks and the work. `offsets_call`: ropekit_rope_execute_offsets. */
static ropekit_status rk_execute(const ropekit_plan *plan, const char *api, bool offsets_call,
                                 const struct rk_op_data *data) {
    const struct rk_rope_plan *pl = rk_plan_of(plan, &rk_op_rope);
    if (!pl)
        return rk_plan_error(plan, api, "a rope plan");
    if (pl->offsets && !offsets_call)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: plan made with offsets: run it with ropekit_rope_execute_offsets",
                            api);
    if (!pl->offsets && data->ptr[RK_ROPE_OFF])
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: offsets given to a plan made without offsets (config.offsets = "
                            "NULL): pass NULL or plan with offsets",
                            api);
    int rule;
    return rk_rope_execute(pl, api, data, &rule);
}

ropekit_status ropekit_rope_execute(const ropekit_plan *plan, const int64_t *positions,
                                    const void *query_in, const void *key_in,
                                    const void *cos_sin_cache, void *query_out, void *key_out) {
    const struct rk_op_data data =
        rk_rope_data(positions, query_in, key_in, cos_sin_cache, query_out, key_out, NULL);
    return rk_execute(plan, "ropekit_rope_execute", false, &data);
}

ropekit_status ropekit_rope_execute_offsets(const ropekit_plan *plan, const int64_t *positions,
                                            const int64_t *offsets, const void *query_in,
                                            const void *key_in, const void *cos_sin_cache,
                                            void *query_out, void *key_out) {
    const struct rk_op_data data =
        rk_rope_data(positions, query_in, key_in, cos_sin_cache, query_out, key_out, offsets);
    return rk_execute(plan, "ropekit_rope_execute_offsets", true, &data);
}

static void *rk_data_of(const ropekit_tensor *t) {
    return t ? t->data : NULL;
}

ropekit_status ropekit_rope(const ropekit_tensor *positions, const ropekit_tensor *query_in,
                            const ropekit_tensor *key_in, const ropekit_tensor *cos_sin_cache,
                            const ropekit_tensor *query_out, const ropekit_tensor *key_out,
                            const ropekit_rope_config *config) {
    static const char api[] = "ropekit_rope";
    struct rk_rope_problem prob;
    ropekit_status st = rk_native_problem(api, positions, query_in, key_in, cos_sin_cache,
                                          query_out, key_out, config, &prob);
    if (st != ROPEKIT_OK)
        return st;
    _Alignas(max_align_t) unsigned char plan[RK_OP_MAX_PLAN_SIZE];
    const struct rk_op_data data = rk_rope_data(
        rk_data_of(positions), rk_data_of(query_in), rk_data_of(key_in), rk_data_of(cos_sin_cache),
        rk_data_of(query_out), rk_data_of(key_out), rk_data_of(config->offsets));
    return rk_op_once(&rk_op_rope, api, &prob, &rk_native_policy, plan, &data);
}
