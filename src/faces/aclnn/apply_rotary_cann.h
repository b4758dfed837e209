/* CANN's codes for the apply-rotary rules, one row per rule of the operator's table
 * (src/ops/apply_rotary/rules.h), for aclnnApplyRotaryPosEmb and its V2 (SPEC §14.4: both
 * docs give 161001 for a NULL and 161002 for every other problem).
 *
 * X(rule, code, fault)
 *   code: ACLNN_ERR_<code> of the GetWorkspaceSize
 *   fault: ACL_ERROR_<fault> the stream reports when the rule fails as the work runs
 * The aclnn tests read this table too. */
#ifndef ROPEKIT_FACES_ACLNN_APPLY_ROTARY_CANN_H_
#define ROPEKIT_FACES_ACLNN_APPLY_ROTARY_CANN_H_

/* The one D CANN's ApplyRotaryPosEmb takes (both docs: "D must equal 128"). */
#define RK_ACLNN_APPLY_ROTARY_D 128

#define RK_ACLNN_AR_CODES(X)                                                                       \
    X(NULL, PARAM_NULLPTR, RT_FAILURE)                                                             \
    X(LAYOUT, PARAM_INVALID, RT_FAILURE)                                                           \
    X(DATA_NULL, PARAM_NULLPTR, RT_FAILURE)                                                        \
    X(Q_DTYPE, PARAM_INVALID, RT_FAILURE)                                                          \
    X(DTYPE, PARAM_INVALID, RT_FAILURE)                                                            \
    X(RANK, PARAM_INVALID, RT_FAILURE)                                                             \
    X(CS_SHAPE, PARAM_INVALID, RT_FAILURE)                                                         \
    X(EMPTY, PARAM_INVALID, RT_FAILURE)                                                            \
    X(LAYOUT_VALUE, PARAM_INVALID, RT_FAILURE)                                                     \
    X(MODE, PARAM_INVALID, RT_FAILURE)                                                             \
    X(QK_SHAPE, PARAM_INVALID, RT_FAILURE)                                                         \
    X(CS_DIMS, PARAM_INVALID, RT_FAILURE)                                                          \
    X(D_VALUE, PARAM_INVALID, RT_FAILURE)                                                          \
    X(D_MULTIPLE, PARAM_INVALID, RT_FAILURE)                                                       \
    X(CS_N, PARAM_INVALID, RT_FAILURE)                                                             \
    X(BROADCAST, PARAM_INVALID, RT_FAILURE)                                                        \
    X(OVERLAP, PARAM_INVALID, RT_FAILURE)                                                          \
    X(NO_MEMORY, INNER, BAD_ALLOC)

#endif /* ROPEKIT_FACES_ACLNN_APPLY_ROTARY_CANN_H_ */
