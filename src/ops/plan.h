/* The native face's opaque plan: one operator's plan behind a kind tag. */
#ifndef ROPEKIT_OPS_PLAN_H_
#define ROPEKIT_OPS_PLAN_H_

#include "ops/partial_rotary.h"

enum rk_plan_kind { RK_PLAN_PARTIAL_ROTARY = 1 };

struct ropekit_plan {
    enum rk_plan_kind kind;
    union {
        struct rk_pr_plan pr;
    } u;
};

#endif /* ROPEKIT_OPS_PLAN_H_ */
