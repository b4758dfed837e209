/* CANN's codes for the partial-rotary rules, one row per rule of the operator's table
 * (src/ops/partial_rotary/rules.h), for aclnnInplacePartialRotaryMul (SPEC §3.4: every
 * problem but a NULL is 161002) and aclnnInplacePartialRotaryMulGrad (SPEC §4.3: 161001
 * for nulls, 161002 for dtypes, 561002 from its tiling for the rest).
 *
 * X(rule, forward_code, gradient_code, fault)
 *   forward_code, gradient_code: ACLNN_ERR_<code> of the GetWorkspaceSize
 *   fault: ACL_ERROR_<fault> the stream reports when the rule fails as the work runs
 * The test kit's model of CANN's codes reads this table too. */
#ifndef ROPEKIT_FACES_ACLNN_PARTIAL_ROTARY_CANN_H_
#define ROPEKIT_FACES_ACLNN_PARTIAL_ROTARY_CANN_H_

#define RK_ACLNN_PR_CODES(X)                                                                       \
    X(NULL, PARAM_NULLPTR, PARAM_NULLPTR, RT_FAILURE)                                              \
    X(LAYOUT, PARAM_INVALID, PARAM_INVALID, RT_FAILURE)                                            \
    X(DATA_NULL, PARAM_NULLPTR, PARAM_NULLPTR, RT_FAILURE)                                         \
    X(X_DTYPE, PARAM_INVALID, PARAM_INVALID, RT_FAILURE)                                           \
    X(CS_DTYPE, PARAM_INVALID, PARAM_INVALID, RT_FAILURE)                                          \
    X(DTYPE_PAIR, PARAM_INVALID, PARAM_INVALID, RT_FAILURE)                                        \
    X(OUT_DTYPE, PARAM_INVALID, PARAM_INVALID, RT_FAILURE) /* in place: never */                   \
    X(RANK, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                         \
    X(CS_SHAPE, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                     \
    X(OUT_SHAPE, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE) /* in place: never */              \
    X(MODE, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                         \
    X(SLICE_SIZE, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                   \
    X(SLICE_RANGE, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                  \
    X(CS_LEN_EXCEEDS_D, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                             \
    X(MAX_D, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                        \
    X(D_EVEN, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                       \
    X(L_MULTIPLE, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                   \
    X(CS_LEN, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                       \
    X(BROADCAST, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                    \
    X(OVERLAP, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE)                                      \
    X(EMPTY_X, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE) /* never: not in the orders */       \
    X(D_VALUE, PARAM_INVALID, INNER_TILING_ERROR, RT_FAILURE) /* never: not in the orders */       \
    X(NO_MEMORY, INNER, INNER, BAD_ALLOC)

#endif /* ROPEKIT_FACES_ACLNN_PARTIAL_ROTARY_CANN_H_ */
