/* The apply-rotary validation rules (ApplyRotaryPosEmb: query and key rotated in place
 * by one cos/sin): the one table from which the rule enum, the rule descriptions and the
 * statuses are made. Listed in the operator's one check order (SPEC §14.4).
 *
 * X(rule, status, meaning)
 *   status: ROPEKIT_<status> a failure returns
 * Every use pastes `rule` (never expands it alone: one rule is named NULL). */
#ifndef ROPEKIT_OPS_APPLY_ROTARY_RULES_H_
#define ROPEKIT_OPS_APPLY_ROTARY_RULES_H_

#define RK_AR_RULES(X)                                                                             \
    X(NULL, NULL_POINTER, "a tensor descriptor or a required argument is NULL")                    \
    X(LAYOUT, INVALID_ARGUMENT, "bad rank, negative dim or size overflow")                         \
    X(DATA_NULL, NULL_POINTER, "a non-empty tensor without data (when data is checked)")           \
    X(Q_DTYPE, INVALID_ARGUMENT, "query dtype not one the policy takes")                           \
    X(DTYPE, INVALID_ARGUMENT, "key, cos or sin dtype not allowed with query's")                   \
    X(RANK, INVALID_ARGUMENT, "bad ranks (the policy may fix one rank for all four)")              \
    X(CS_SHAPE, INVALID_ARGUMENT, "sin shape != cos shape")                                        \
    X(EMPTY, INVALID_ARGUMENT, "an empty tensor (when the policy refuses them)")                   \
    X(LAYOUT_VALUE, INVALID_ARGUMENT, "layout not one the policy takes")                           \
    X(MODE, INVALID_ARGUMENT, "rotary mode not allowed")                                           \
    X(QK_SHAPE, INVALID_ARGUMENT, "query and key differ in a dim other than N (with a layout)")    \
    X(CS_DIMS, INVALID_ARGUMENT, "cos differs from query in B, S or D (without a layout: in D)")   \
    X(D_VALUE, INVALID_ARGUMENT, "D not the one the policy requires")                              \
    X(D_MULTIPLE, INVALID_ARGUMENT, "D odd (quarter mode: not a multiple of 4)")                   \
    X(CS_N, INVALID_ARGUMENT, "cos N dim not 1 (with a layout)")                                   \
    X(BROADCAST, INVALID_ARGUMENT, "a cos/sin leading dim neither 1 nor query's or key's")         \
    X(OVERLAP, INVALID_ARGUMENT, "query or key overlaps itself, the other, cos or sin")            \
    X(NO_MEMORY, NO_MEMORY, "out of memory")

#endif /* ROPEKIT_OPS_APPLY_ROTARY_RULES_H_ */
