/* Pieces of the partial-rotary operator shared between its source files. */
#ifndef ROPEKIT_OPS_PARTIAL_ROTARY_INTERNAL_H_
#define ROPEKIT_OPS_PARTIAL_ROTARY_INTERNAL_H_

#include "core/error.h"
#include "ops/partial_rotary.h"

/* Fails with `rule_id`: stores it in `*rule` and returns the rule's status with the
 * message. */
#define RK_PR_FAIL(rule_id, ...)                                                                   \
    do {                                                                                           \
        *rule = (rule_id);                                                                         \
        return rk_error_set(rk_pr_rule_status(rule_id), __VA_ARGS__);                              \
    } while (0)

/* What validation derives: the slice and whether the call is a no-op. */
struct rk_pr_checked {
    int64_t start;
    int64_t len;
    bool noop;
    struct rk_view_geom *geom; /* 3 entries (the plan's): x, cos, sin, written when not noop */
};

ropekit_status rk_pr_validate(const struct rk_pr_problem *problem,
                              const struct rk_pr_policy *policy, struct rk_pr_checked *out,
                              enum rk_pr_rule *rule);

#endif /* ROPEKIT_OPS_PARTIAL_ROTARY_INTERNAL_H_ */
