/* The RopeWithSinCosCache validation rules: the one table from which the rule enum, the
 * native face's statuses and the aclnn codes are made (and which the test kit's model of
 * CANN's codes reads), in the order of SPEC §5.5, which is the order they are checked.
 *
 * X(rule, status, code, fault, meaning)
 *   status: ROPEKIT_<status> of the native face
 *   code:   ACLNN_ERR_<code> of aclnnRopeWithSinCosCache(V2)GetWorkspaceSize: op_api checks
 *           give PARAM_INVALID, CANN's tiling checks (and ropekit's own) INNER_TILING_ERROR
 *   fault:  ACL_ERROR_<fault> the stream reports when the rule fails as the work runs
 * Every use pastes `rule` (never expands it alone: one rule is named NULL). */
#ifndef ROPEKIT_OPS_ROPE_RULES_H_
#define ROPEKIT_OPS_ROPE_RULES_H_

#define RK_ROPE_RULES(X)                                                                           \
    X(CACHE_MODE, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE,                                     \
      "cache mode not 0 or 1 (native: 0 to 3; V2 checks it before nulls)")                         \
    X(NULL, NULL_POINTER, PARAM_NULLPTR, RT_FAILURE, "a required tensor or output is NULL")        \
    X(LAYOUT, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE,                                         \
      "bad rank, negative dim, size overflow")                                                     \
    X(DATA_NULL, NULL_POINTER, PARAM_NULLPTR, RT_FAILURE, "a non-empty tensor has no data")        \
    X(POS_DTYPE, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE, "positions not int64")               \
    X(DTYPE, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE, "query/key/cache/output dtypes")         \
    X(RANK, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE,                                           \
      "query/key/cache ranks (native: and positions', which gives the token dims)")                \
    X(EMPTY, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE, "an input is empty (aclnn)")             \
    X(TOKENS, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE, "key token dims != query token dims")   \
    X(OUT_SHAPE, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE, "output shape != input shape")       \
    X(SECTIONS, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE,                                       \
      "section count, a negative section, or a sum that overflows")                                \
    X(SECTION_VALUES, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE,                                 \
      "2 * sum of sections != rotary dim, or sections not CANN's (aclnn)")                         \
    X(HEAD_SIZE, INVALID_ARGUMENT, PARAM_INVALID, RT_FAILURE, "head size < 1")                     \
    X(MODE_SECTIONS, INVALID_ARGUMENT, INNER_TILING_ERROR, RT_FAILURE,                             \
      "the sections of the cache mode: 1 and 2 need 3 (2: s0 == s1), 3 needs 2 or 3")              \
    X(HEADS, INVALID_ARGUMENT, INNER_TILING_ERROR, RT_FAILURE,                                     \
      "hidden size not a multiple of head size")                                                   \
    X(ALIGN, INVALID_ARGUMENT, INNER_TILING_ERROR, RT_FAILURE,                                     \
      "head size / rotary dim alignment (aclnn)")                                                  \
    X(ROT_DIM, INVALID_ARGUMENT, INNER_TILING_ERROR, RT_FAILURE,                                   \
      "rotary dim odd, zero, or above head size")                                                  \
    X(POS_SHAPE, INVALID_ARGUMENT, INNER_TILING_ERROR, RT_FAILURE,                                 \
      "positions shape != [T] (rope) or [m, T] (mrope); native: [B, S] or [m, B, S] as well")      \
    X(OFFSETS, INVALID_ARGUMENT, INNER_TILING_ERROR, RT_FAILURE,                                   \
      "offsets not int64 or not shaped like positions' token dims (native only)")                  \
    X(OVERLAP, INVALID_ARGUMENT, INNER_TILING_ERROR, RT_FAILURE,                                   \
      "an output overlaps itself or another tensor")                                               \
    X(POS_RANGE, OUT_OF_RANGE, INNER_TILING_ERROR, RT_AICORE_EXCEPTION,                            \
      "a position outside [0, max positions) (found as the work runs)")                            \
    X(NO_MEMORY, NO_MEMORY, INNER, BAD_ALLOC, "out of memory")

/* CANN's mrope sections (one list for V1 and V2, SPEC §5.5 row 9):
 * X(count, s0, s1, s2, s3), s3 = 0 when count is 3. */
#define RK_ACLNN_MROPE_SECTIONS(X)                                                                 \
    X(3, 16, 24, 24, 0)                                                                            \
    X(3, 8, 12, 12, 0)                                                                             \
    X(3, 24, 20, 20, 0)                                                                            \
    X(3, 11, 11, 10, 0)                                                                            \
    X(4, 16, 16, 16, 16)

#endif /* ROPEKIT_OPS_ROPE_RULES_H_ */
