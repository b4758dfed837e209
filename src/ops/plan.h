/* The native face's opaque plan: one operator's plan behind a kind tag. */
#ifndef ROPEKIT_OPS_PLAN_H_
#define ROPEKIT_OPS_PLAN_H_

#include "ops/partial_rotary.h"
#include "ops/rope.h"

enum rk_plan_kind { RK_PLAN_PARTIAL_ROTARY = 1, RK_PLAN_ROPE = 2 };

struct ropekit_plan {
    enum rk_plan_kind kind;
    union {
        struct rk_pr_plan pr;
        struct rk_rope_plan rope;
    } u;
};

#endif /* ROPEKIT_OPS_PLAN_H_ */
