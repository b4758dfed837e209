/* The partial-rotary validation rules: the one table from which the rule enum, the
 * native face's statuses and the aclnn codes are made (and which the test kit's model of
 * CANN's codes reads). Listed in the order the forward checks them (SPEC §3.4); the
 * gradient's order (SPEC §4.3) is a step list in partial_rotary_check.c.
 *
 * X(rule, status, forward_code, gradient_code, fault, meaning)
 *   status:        ROPEKIT_<status> of the native face
 *   forward_code:  ACLNN_ERR_<code> of aclnnInplacePartialRotaryMulGetWorkspaceSize
 *   gradient_code: ACLNN_ERR_<code> of aclnnInplacePartialRotaryMulGradGetWorkspaceSize
 *   fault:         ACL_ERROR_<fault> the stream reports when the rule fails as the work runs
 * Every use pastes `rule` (never expands it alone: one rule is named NULL). */
#ifndef ROPEKIT_OPS_PARTIAL_ROTARY_RULES_H_
#define ROPEKIT_OPS_PARTIAL_ROTARY_RULES_H_

#define RK_PR_RULES(X)                                                                             \
    X(NULL, NULL_POINTER, PARAM_NULLPTR, PARAM_NULLPTR, RT_FAILURE, "a tensor descriptor is NULL") \
    X(LAYOUT, INVALID_ARGUMENT, PARAM_INVALID, PARAM_INVALID, RT_FAILURE,                          \
      "bad rank, negative dim or size overflow")                                                   \
    X(DATA_NULL, NULL_POINTER, PARAM_NULLPTR, PARAM_NULLPTR, RT_FAILURE,                           \
      "a non-empty tensor without data (when data is checked)")                                    \
    X(X_DTYPE, INVALID_ARGUMENT, PARAM_INVALID, PARAM_INVALID, RT_FAILURE,                         \
      "x dtype not f32, f16 or bf16")                                                              \
    X(CS_DTYPE, INVALID_ARGUMENT, PARAM_INVALID, PARAM_INVALID, RT_FAILURE,                        \
      "cos dtype not a float type, or sin dtype != cos dtype")                                     \
    X(DTYPE_PAIR, INVALID_ARGUMENT, PARAM_INVALID, PARAM_INVALID, RT_FAILURE,                      \
      "(x, cos) dtype pair not allowed by the policy")                                             \
    X(RANK, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                       \
      "bad ranks (aclnn: all 4-D)")                                                                \
    X(CS_SHAPE, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                   \
      "sin shape != cos shape")                                                                    \
    X(MODE, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                       \
      "rotary mode not allowed")                                                                   \
    X(SLICE_SIZE, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                 \
      "partialSlice holds neither 0 nor 2 values")                                                 \
    X(SLICE_RANGE, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                \
      "not 0 <= start <= end <= D")                                                                \
    X(CS_LEN_EXCEEDS_D, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,           \
      "cos last dim > D (the gradient checks this before its no-op exit)")                         \
    X(MAX_D, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                      \
      "D above the policy's bound")                                                                \
    X(D_EVEN, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                     \
      "D odd (aclnn forward)")                                                                     \
    X(L_MULTIPLE, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                 \
      "slice length odd (quarter mode: not a multiple of 4)")                                      \
    X(CS_LEN, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                     \
      "cos last dim != slice length")                                                              \
    X(BROADCAST, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                  \
      "a cos/sin leading dim neither 1 nor x's")                                                   \
    X(OVERLAP, INVALID_ARGUMENT, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE,                    \
      "x overlaps itself, cos or sin")                                                             \
    X(NO_MEMORY, NO_MEMORY, INNER, INNER, BAD_ALLOC, "out of memory")

#endif /* ROPEKIT_OPS_PARTIAL_ROTARY_RULES_H_ */
