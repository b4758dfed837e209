/* The rotary-gradient validation rules: the partial-rotary table (the rules of dy, cos,
 * sin and dx, which are that operator's x, cos, sin and out), then the rules of the
 * forward input x and of the cos/sin gradients. One table: the rule enum, descriptions
 * and statuses are made from it, and a partial-rotary rule keeps its id here.
 *
 * X(rule, status, meaning) */
#ifndef ROPEKIT_OPS_ROTARY_GRAD_RULES_H_
#define ROPEKIT_OPS_ROTARY_GRAD_RULES_H_

#include "ops/partial_rotary/rules.h"

#define RK_RG_RULES(X)                                                                             \
    RK_PR_RULES(X)                                                                                 \
    X(FWD_X_DTYPE, INVALID_ARGUMENT, "the forward input x dtype != dy dtype")                      \
    X(FWD_X_SHAPE, INVALID_ARGUMENT, "the forward input x shape != dy shape")                      \
    X(CS_GRAD_DTYPE, INVALID_ARGUMENT, "dcos or dsin dtype not the policy's")                      \
    X(CS_GRAD_SHAPE, INVALID_ARGUMENT, "dcos or dsin shape != cos shape (when computed)")          \
    X(CS_GRAD_OVERLAP, INVALID_ARGUMENT, "dcos or dsin overlaps itself, the other, dx or an input")

#endif /* ROPEKIT_OPS_ROTARY_GRAD_RULES_H_ */
