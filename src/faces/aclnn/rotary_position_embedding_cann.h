/* CANN's codes for the partial-rotary rules under aclnnRotaryPositionEmbedding (SPEC §15.3),
 * one row per rule of the operator's table (src/ops/partial_rotary/rules.h): 161001 for
 * nulls, 161002 for dtypes (the op definition's table), 561002 from its tiling for shapes
 * and the mode. Rules the entry point cannot break (it has no slice) keep the tiling's
 * code.
 *
 * X(rule, code, fault)
 *   code: ACLNN_ERR_<code> of the GetWorkspaceSize
 *   fault: ACL_ERROR_<fault> the stream reports when the rule fails as the work runs */
#ifndef ROPEKIT_FACES_ACLNN_ROTARY_POSITION_EMBEDDING_CANN_H_
#define ROPEKIT_FACES_ACLNN_ROTARY_POSITION_EMBEDDING_CANN_H_

#define RK_ACLNN_RPE_CODES(X)                                                                      \
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
    X(MODE, INNER_TILING_ERROR, RT_FAILURE)                                                        \
    X(SLICE_SIZE, INNER_TILING_ERROR, RT_FAILURE)       /* never: no slice */                      \
    X(SLICE_RANGE, INNER_TILING_ERROR, RT_FAILURE)      /* never: no slice */                      \
    X(CS_LEN_EXCEEDS_D, INNER_TILING_ERROR, RT_FAILURE) /* never: not in the order */              \
    X(MAX_D, INNER_TILING_ERROR, RT_FAILURE)                                                       \
    X(D_EVEN, INNER_TILING_ERROR, RT_FAILURE)                                                      \
    X(L_MULTIPLE, INNER_TILING_ERROR, RT_FAILURE)                                                  \
    X(CS_LEN, INNER_TILING_ERROR, RT_FAILURE)                                                      \
    X(BROADCAST, INNER_TILING_ERROR, RT_FAILURE)                                                   \
    X(OVERLAP, PARAM_INVALID, RT_FAILURE)                                                          \
    X(EMPTY_X, INNER_TILING_ERROR, RT_FAILURE) /* never: an empty x is the exit */                 \
    X(D_VALUE, INNER_TILING_ERROR, RT_FAILURE) /* never: not in the order */                       \
    X(NO_MEMORY, INNER, BAD_ALLOC)

/* aclnnRotaryPositionEmbeddingGrad (SPEC §16.3): the forward's rows for dy, cos, sin and
 * dx, then the rules of x, dcos and dsin: dtypes from the op definition (161002), shapes
 * from the tiling (561002). */
#define RK_ACLNN_RPE_GRAD_CODES(X)                                                                 \
    RK_ACLNN_RPE_CODES(X)                                                                          \
    X(FWD_X_DTYPE, PARAM_INVALID, RT_FAILURE)                                                      \
    X(FWD_X_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                                 \
    X(CS_GRAD_DTYPE, PARAM_INVALID, RT_FAILURE)                                                    \
    X(CS_GRAD_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                               \
    X(CS_GRAD_OVERLAP, PARAM_INVALID, RT_FAILURE)

/* The largest D of CANN's rotate-matrix tiling (aclnnRotaryPositionEmbeddingV2 with a
 * rotate matrix). */
#define ROPEKIT_CANN_ROTARY_MATRIX_MAX_D 896

/* aclnnRotaryPositionEmbeddingV2 with a rotate matrix (SPEC §15.4), one row per rule of
 * the rotary-matrix table (src/ops/rotary_matrix/rules.h): the op definition's nulls
 * (161001) and dtypes (161002), the tiling's mode and shapes (561002). */
#define RK_ACLNN_RPE_MATRIX_CODES(X)                                                               \
    X(NULL, PARAM_NULLPTR, RT_FAILURE)                                                             \
    X(LAYOUT, PARAM_INVALID, RT_FAILURE)                                                           \
    X(DATA_NULL, PARAM_NULLPTR, RT_FAILURE)                                                        \
    X(X_DTYPE, PARAM_INVALID, RT_FAILURE)                                                          \
    X(DTYPE, PARAM_INVALID, RT_FAILURE)                                                            \
    X(MODE, INNER_TILING_ERROR, RT_FAILURE)                                                        \
    X(RANK, INNER_TILING_ERROR, RT_FAILURE)                                                        \
    X(OUT_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                                   \
    X(MAX_D, INNER_TILING_ERROR, RT_FAILURE)                                                       \
    X(D_EVEN, INNER_TILING_ERROR, RT_FAILURE)                                                      \
    X(CS_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                                    \
    X(ROTATE_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                                \
    X(CS_LEN, INNER_TILING_ERROR, RT_FAILURE)                                                      \
    X(BROADCAST, INNER_TILING_ERROR, RT_FAILURE)                                                   \
    X(OVERLAP, PARAM_INVALID, RT_FAILURE)                                                          \
    X(NO_MEMORY, INNER, BAD_ALLOC)

#endif /* ROPEKIT_FACES_ACLNN_ROTARY_POSITION_EMBEDDING_CANN_H_ */
