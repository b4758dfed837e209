/* Pieces of the RopeWithSinCosCache operator shared between its source files. */
#ifndef ROPEKIT_OPS_ROPE_INTERNAL_H_
#define ROPEKIT_OPS_ROPE_INTERNAL_H_

#include "core/error.h"
#include "ops/rope.h"

/* Fails with `rule_id`: stores it in `*rule` and returns the rule's status with the
 * message. */
#define RK_ROPE_FAIL(rule_id, ...)                                                                 \
    do {                                                                                           \
        *rule = (rule_id);                                                                         \
        return rk_error_set(rk_rope_rule_status(rule_id), __VA_ARGS__);                            \
    } while (0)

/* What validation derives. */
struct rk_rope_checked {
    bool noop;
    bool mrope;
    int nsec;     /* position rows: 1 for rope */
    int tok_dims; /* 1: [T], 2: [B, S] (always 1 on the aclnn face) */
    int64_t tokens;
    int64_t q_heads, k_heads;
    int64_t rot_dim, max_pos;
    bool present[RK_ROPE_TENSORS]; /* in the order of enum RK_ROPE_POS... */
    struct rk_view_geom *geom;     /* RK_ROPE_TENSORS zeroed entries (the plan's) that receive
                                      the views' geometry */
    bool same_layout[2];           /* queryOut, keyOut: the layout of their input */
};

ropekit_status rk_rope_validate(const struct rk_rope_problem *problem,
                                const struct rk_rope_policy *policy, struct rk_rope_checked *out,
                                enum rk_rope_rule *rule);

/* Cache mode 3: fills rows[0, h) with openPangu-VL's greedy sequence for nsec (2 or 3)
 * sections summing to h (ropekit_rope_cache_mode). */
void rk_mrope_pangu_rows(const int64_t *sections, int nsec, int64_t h, uint8_t *rows);

/* The plan's per-coefficient rows for the cache modes that need them (coeff_rows). */
ropekit_status rk_rope_plan_coeff_rows(struct rk_rope_plan *plan, const char *api,
                                       enum rk_rope_rule *rule);

#endif /* ROPEKIT_OPS_ROPE_INTERNAL_H_ */
