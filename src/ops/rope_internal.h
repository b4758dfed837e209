/* Pieces of the RopeWithSinCosCache operator shared between its source files. */
#ifndef ROPEKIT_OPS_ROPE_INTERNAL_H_
#define ROPEKIT_OPS_ROPE_INTERNAL_H_

#include "ops/rope.h"

/* What validation derives. */
struct rk_rope_checked {
    bool noop;
    bool mrope;
    int nsec; /* position rows: 1 for rope */
    int64_t tokens;
    int64_t q_heads, k_heads;
    int64_t rot_dim, max_pos;
};

ropekit_status rk_rope_validate(const struct rk_rope_problem *problem,
                                const struct rk_rope_policy *policy, struct rk_rope_checked *out,
                                enum rk_rope_rule *rule);

/* Byte geometry of a view (rows = first dim) for exact overlap tests. */
struct rk_view_geom rk_view_geom_of(const ropekit_tensor *t);

/* True when the two views may share a byte (exact for dense rows with a common row
 * stride, conservative otherwise). */
bool rk_views_overlap(const struct rk_view_geom *a, const void *a_data,
                      const struct rk_view_geom *b, const void *b_data);

#endif /* ROPEKIT_OPS_ROPE_INTERNAL_H_ */
