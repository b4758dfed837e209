/* CANN's rules for RopeWithSinCosCache beyond the operator's own: the codes of each rule
 * of the operator's table (src/ops/rope/rules.h) and the mrope sections CANN takes. The
 * test kit's model of CANN's codes reads both.
 *
 * X(rule, code, fault)
 *   code:  ACLNN_ERR_<code> of aclnnRopeWithSinCosCache(V2)GetWorkspaceSize: op_api checks
 *          give PARAM_INVALID, CANN's tiling checks (and ropekit's own) INNER_TILING_ERROR
 *   fault: ACL_ERROR_<fault> the stream reports when the rule fails as the work runs */
#ifndef ROPEKIT_FACES_ACLNN_ROPE_CANN_H_
#define ROPEKIT_FACES_ACLNN_ROPE_CANN_H_

#define RK_ACLNN_ROPE_CODES(X)                                                                     \
    X(CACHE_MODE, PARAM_INVALID, RT_FAILURE)                                                       \
    X(NULL, PARAM_NULLPTR, RT_FAILURE)                                                             \
    X(LAYOUT, PARAM_INVALID, RT_FAILURE)                                                           \
    X(DATA_NULL, PARAM_NULLPTR, RT_FAILURE)                                                        \
    X(POS_DTYPE, PARAM_INVALID, RT_FAILURE)                                                        \
    X(DTYPE, PARAM_INVALID, RT_FAILURE)                                                            \
    X(RANK, PARAM_INVALID, RT_FAILURE)                                                             \
    X(EMPTY, PARAM_INVALID, RT_FAILURE)                                                            \
    X(TOKENS, PARAM_INVALID, RT_FAILURE)                                                           \
    X(OUT_SHAPE, PARAM_INVALID, RT_FAILURE)                                                        \
    X(SECTIONS, PARAM_INVALID, RT_FAILURE)                                                         \
    X(SECTION_VALUES, PARAM_INVALID, RT_FAILURE)                                                   \
    X(HEAD_SIZE, PARAM_INVALID, RT_FAILURE)                                                        \
    X(MODE_SECTIONS, INNER_TILING_ERROR, RT_FAILURE)                                               \
    X(HEADS, INNER_TILING_ERROR, RT_FAILURE)                                                       \
    X(ALIGN, INNER_TILING_ERROR, RT_FAILURE)                                                       \
    X(ROT_DIM, INNER_TILING_ERROR, RT_FAILURE)                                                     \
    X(POS_SHAPE, INNER_TILING_ERROR, RT_FAILURE)                                                   \
    X(OFFSETS, INNER_TILING_ERROR, RT_FAILURE)                                                     \
    X(OVERLAP, INNER_TILING_ERROR, RT_FAILURE)                                                     \
    X(POS_RANGE, INNER_TILING_ERROR, RT_AICORE_EXCEPTION)                                          \
    X(NO_MEMORY, INNER, BAD_ALLOC)

/* CANN's mrope sections (one list for V1 and V2, SPEC §5.5 row 9):
 * X(count, s0, s1, s2, s3), s3 = 0 when count is 3. */
#define RK_ACLNN_MROPE_SECTIONS(X)                                                                 \
    X(3, 16, 24, 24, 0)                                                                            \
    X(3, 8, 12, 12, 0)                                                                             \
    X(3, 24, 20, 20, 0)                                                                            \
    X(3, 11, 11, 10, 0)                                                                            \
    X(4, 16, 16, 16, 16)

#endif /* ROPEKIT_FACES_ACLNN_ROPE_CANN_H_ */
