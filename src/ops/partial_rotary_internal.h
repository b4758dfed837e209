/* Pieces of the partial-rotary operator shared between its source files. */
#ifndef ROPEKIT_OPS_PARTIAL_ROTARY_INTERNAL_H_
#define ROPEKIT_OPS_PARTIAL_ROTARY_INTERNAL_H_

#include "ops/partial_rotary.h"

/* What validation derives: the slice and whether the call is a no-op. */
struct rk_pr_checked {
    int64_t start;
    int64_t len;
    bool noop;
};

ropekit_status rk_pr_validate(const struct rk_pr_problem *problem,
                              const struct rk_pr_policy *policy, struct rk_pr_checked *out,
                              enum rk_pr_rule *rule);

#endif /* ROPEKIT_OPS_PARTIAL_ROTARY_INTERNAL_H_ */
