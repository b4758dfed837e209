/* The native face's plan handle: an operator's descriptor and its plan, nothing else
 * (ropekit_plan is opaque to users). Every native entry point, and the CANN-rules plans,
 * make their handles here. */
#ifndef ROPEKIT_FACES_NATIVE_PLAN_H_
#define ROPEKIT_FACES_NATIVE_PLAN_H_

#include <stddef.h>

#include "ops/op.h"
#include "ropekit/ropekit.h"

struct ropekit_plan {
    const struct rk_op *op;
    max_align_t plan[]; /* op->plan_size bytes */
};

/* Checks the out-pointer of a *_plan_create and clears it (NULL_POINTER when it is NULL). */
ropekit_status rk_plan_out_ready(const char *api, ropekit_plan **plan);

/* Makes a handle for `op` from the face's problem and policy into *plan (set only on
 * success; rk_plan_out_ready has cleared it). */
ropekit_status rk_plan_make(const struct rk_op *op, const char *api, const void *problem,
                            const void *policy, ropekit_plan **plan, int *rule);

/* The plan of a handle of `op`; NULL for no handle or one of another operator. */
static inline const void *rk_plan_of(const ropekit_plan *plan, const struct rk_op *op) {
    return plan && plan->op == op ? (const void *)plan->plan : NULL;
}

/* Why rk_plan_of gave NULL (`what` names the plan wanted: "a rope plan"). Apart, so the
 * execute calls keep their arguments in registers on the way to the work. */
ropekit_status rk_plan_error(const ropekit_plan *plan, const char *api, const char *what);

/* The native face's partial-rotary policy (SPEC §8), which the rotary gradient's dy, cos,
 * sin and dx follow too. */
struct rk_pr_policy;
extern const struct rk_pr_policy rk_native_pr_policy;

#endif /* ROPEKIT_FACES_NATIVE_PLAN_H_ */
