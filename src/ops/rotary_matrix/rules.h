/* The rotary-matrix validation rules (aclnnRotaryPositionEmbeddingV2 with its rotate
 * matrix: y = x*cos + (x @ rotate)*sin): the one table from which the rule enum, the rule
 * descriptions and the statuses are made. Listed in the operator's one check order
 * (SPEC §15.4).
 *
 * X(rule, status, meaning)
 *   status: ROPEKIT_<status> a failure returns
 * Every use pastes `rule` (never expands it alone: one rule is named NULL). */
#ifndef ROPEKIT_OPS_ROTARY_MATRIX_RULES_H_
#define ROPEKIT_OPS_ROTARY_MATRIX_RULES_H_

#define RK_RM_RULES(X)                                                                             \
    X(NULL, NULL_POINTER, "a tensor descriptor or a required argument is NULL")                    \
    X(LAYOUT, INVALID_ARGUMENT, "bad rank, negative dim or size overflow")                         \
    X(DATA_NULL, NULL_POINTER, "a non-empty tensor without data (when data is checked)")           \
    X(X_DTYPE, INVALID_ARGUMENT, "x dtype not one the policy takes")                               \
    X(DTYPE, INVALID_ARGUMENT, "cos, sin, rotate or out dtype not x's")                            \
    X(MODE, INVALID_ARGUMENT, "mode not one the policy takes")                                     \
    X(RANK, INVALID_ARGUMENT, "x, cos, sin, out of the wrong rank, or rotate not 2-D")             \
    X(OUT_SHAPE, INVALID_ARGUMENT, "out shape != x shape")                                         \
    X(MAX_D, INVALID_ARGUMENT, "D above the policy's largest")                                     \
    X(D_EVEN, INVALID_ARGUMENT, "D odd (when the policy requires it even)")                        \
    X(CS_SHAPE, INVALID_ARGUMENT, "sin shape != cos shape")                                        \
    X(ROTATE_SHAPE, INVALID_ARGUMENT, "rotate not [D, D]")                                         \
    X(CS_LEN, INVALID_ARGUMENT, "cos last dim != D")                                               \
    X(BROADCAST, INVALID_ARGUMENT,                                                                 \
      "a cos/sin leading dim neither 1 nor x's (or a layout the "                                  \
      "policy's mode refuses)")                                                                    \
    X(OVERLAP, INVALID_ARGUMENT,                                                                   \
      "out overlaps itself, or x (other than in place), cos, sin or "                              \
      "rotate")                                                                                    \
    X(NO_MEMORY, NO_MEMORY, "out of memory")

#endif /* ROPEKIT_OPS_ROTARY_MATRIX_RULES_H_ */
