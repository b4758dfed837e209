/* CANN's codes for the partial-rotary rules under aclnnInterleaveRope (SPEC §17.3), one row
 * per rule of the operator's table (src/ops/partial_rotary/rules.h): 161001 for nulls,
 * 161002 for dtypes (the op definition's table), 561002 from its tiling for shapes. Rules
 * the entry point cannot break (no mode or slice argument, D fixed) keep the tiling's code.
 *
 * X(rule, code, fault)
 *   code: ACLNN_ERR_<code> of the GetWorkspaceSize
 *   fault: ACL_ERROR_<fault> the stream reports when the rule fails as the work runs */
#ifndef ROPEKIT_FACES_ACLNN_INTERLEAVE_ROPE_CANN_H_
#define ROPEKIT_FACES_ACLNN_INTERLEAVE_ROPE_CANN_H_

#define RK_ACLNN_IR_CODES(X)                                                                       \
    X(NULL, PARAM_NULLPTR, RT_FAILURE)                                                             \
    X(LAYOUT, PARAM_INVALID, RT_FAILURE)                                                           \
    X(DATA_NULL, PARAM_NULLPTR, RT_FAILURE)                                                        \
    X(X_DTYPE, PARAM_INVALID, RT_FAILURE)                                                          \
    X(CS_DTYPE, PARAM_INVALID, RT_FAILURE)                                                         \
    X(DTYPE_PAIR, PARAM_INVALID, RT_FAILURE)                                                       \
    X(OUT_DTYPE, PARAM_INVALID, RT_FAILURE)                                                        \
    X(RANK, INNER_TILING_ERROR, RT_FAILURE)                                                        \
    X(CS_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                                    \
    X(OUT_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                                   \
    X(MODE, INNER_TILING_ERROR, RT_FAILURE)             /* never: the mode is fixed */             \
    X(SLICE_SIZE, INNER_TILING_ERROR, RT_FAILURE)       /* never: no slice */                      \
    X(SLICE_RANGE, INNER_TILING_ERROR, RT_FAILURE)      /* never: no slice */                      \
    X(CS_LEN_EXCEEDS_D, INNER_TILING_ERROR, RT_FAILURE) /* never: not in the order */              \
    X(MAX_D, INNER_TILING_ERROR, RT_FAILURE)            /* never: not in the order */              \
    X(D_EVEN, INNER_TILING_ERROR, RT_FAILURE)           /* never: not in the order */              \
    X(L_MULTIPLE, INNER_TILING_ERROR, RT_FAILURE)       /* never: not in the order */              \
    X(CS_LEN, INNER_TILING_ERROR, RT_FAILURE)                                                      \
    X(BROADCAST, INNER_TILING_ERROR, RT_FAILURE)                                                   \
    X(OVERLAP, PARAM_INVALID, RT_FAILURE)                                                          \
    X(EMPTY_X, INNER_TILING_ERROR, RT_FAILURE)                                                     \
    X(D_VALUE, INNER_TILING_ERROR, RT_FAILURE)                                                     \
    X(NO_MEMORY, INNER, BAD_ALLOC)

#endif /* ROPEKIT_FACES_ACLNN_INTERLEAVE_ROPE_CANN_H_ */
