/* The partial-rotary validation rules: the one table from which the rule enum, the rule
 * descriptions and the statuses are made. A face maps a rule to its own codes by the
 * rule's name. Listed in the operator's default check order (SPEC §3.4); a face may check
 * them in another order (SPEC §4.3). EMPTY_X and D_VALUE are checked only where a face's
 * policy asks for them (SPEC §17.3), so the default order has no place for them.
 *
 * X(rule, status, meaning)
 *   status: ROPEKIT_<status> a failure returns
 * Every use pastes `rule` (never expands it alone: one rule is named NULL). */
#ifndef ROPEKIT_OPS_PARTIAL_ROTARY_RULES_H_
#define ROPEKIT_OPS_PARTIAL_ROTARY_RULES_H_

#define RK_PR_RULES(X)                                                                             \
    X(NULL, NULL_POINTER, "a tensor descriptor or a required argument is NULL")                    \
    X(LAYOUT, INVALID_ARGUMENT, "bad rank, negative dim or size overflow")                         \
    X(DATA_NULL, NULL_POINTER, "a non-empty tensor without data (when data is checked)")           \
    X(X_DTYPE, INVALID_ARGUMENT, "x dtype not one the policy takes")                               \
    X(CS_DTYPE, INVALID_ARGUMENT, "cos dtype not one the policy takes, or sin dtype != cos dtype") \
    X(DTYPE_PAIR, INVALID_ARGUMENT, "(x, cos) dtype pair not allowed by the policy")               \
    X(OUT_DTYPE, INVALID_ARGUMENT, "out dtype != x dtype (out of place)")                          \
    X(RANK, INVALID_ARGUMENT, "bad ranks (the policy may fix one rank for all three)")             \
    X(CS_SHAPE, INVALID_ARGUMENT, "sin shape != cos shape")                                        \
    X(OUT_SHAPE, INVALID_ARGUMENT, "out shape != x shape (out of place)")                          \
    X(MODE, INVALID_ARGUMENT, "rotary mode not allowed")                                           \
    X(SLICE_SIZE, INVALID_ARGUMENT, "partialSlice holds neither 0 nor 2 values")                   \
    X(SLICE_RANGE, INVALID_ARGUMENT, "not 0 <= start <= end <= D")                                 \
    X(CS_LEN_EXCEEDS_D, INVALID_ARGUMENT, "cos last dim > D (checked before the no-op exit)")      \
    X(MAX_D, INVALID_ARGUMENT, "D above the policy's bound")                                       \
    X(D_EVEN, INVALID_ARGUMENT, "D odd (when the policy requires it even)")                        \
    X(L_MULTIPLE, INVALID_ARGUMENT, "slice length odd (quarter mode: not a multiple of 4)")        \
    X(CS_LEN, INVALID_ARGUMENT, "cos last dim != slice length")                                    \
    X(BROADCAST, INVALID_ARGUMENT,                                                                 \
      "a cos/sin leading dim neither 1 nor x's, or not the one the policy fixes for that dim")     \
    X(OVERLAP, INVALID_ARGUMENT,                                                                   \
      "the output (x in place, else out) overlaps itself, cos or sin; out shares memory with x "   \
      "without being x")                                                                           \
    X(EMPTY_X, INVALID_ARGUMENT, "x has a zero dim (a policy that takes no empty x)")              \
    X(D_VALUE, INVALID_ARGUMENT, "D not the one value the policy takes")                           \
    X(NO_MEMORY, NO_MEMORY, "out of memory")

#endif /* ROPEKIT_OPS_PARTIAL_ROTARY_RULES_H_ */
