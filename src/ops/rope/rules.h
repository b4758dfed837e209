/* The RopeWithSinCosCache validation rules: the one table from which the rule enum, the
 * rule descriptions and the statuses are made, in the order they are checked (SPEC §5.5).
 * A face maps a rule to its own codes by the rule's name.
 *
 * X(rule, status, meaning)
 *   status: ROPEKIT_<status> a failure returns
 * Every use pastes `rule` (never expands it alone: one rule is named NULL). */
#ifndef ROPEKIT_OPS_ROPE_RULES_H_
#define ROPEKIT_OPS_ROPE_RULES_H_

#define RK_ROPE_RULES(X)                                                                           \
    X(CACHE_MODE, INVALID_ARGUMENT, "cache mode above the policy's last (checked before nulls)")   \
    X(NULL, NULL_POINTER, "a required tensor or argument is NULL")                                 \
    X(LAYOUT, INVALID_ARGUMENT, "bad rank, negative dim, size overflow")                           \
    X(DATA_NULL, NULL_POINTER, "a non-empty tensor has no data")                                   \
    X(POS_DTYPE, INVALID_ARGUMENT, "positions not int64")                                          \
    X(DTYPE, INVALID_ARGUMENT, "query/key/cache/output dtypes")                                    \
    X(RANK, INVALID_ARGUMENT, "query/key/cache ranks, and positions' (which give the token dims)") \
    X(EMPTY, INVALID_ARGUMENT, "an input is empty (when the policy refuses empty inputs)")         \
    X(TOKENS, INVALID_ARGUMENT, "key token dims != query token dims")                              \
    X(OUT_SHAPE, INVALID_ARGUMENT, "output shape != input shape")                                  \
    X(SECTIONS, INVALID_ARGUMENT, "section count, a negative section, or a sum that overflows")    \
    X(SECTION_VALUES, INVALID_ARGUMENT, "2 * sum(sections) != rotary dim, or not a listed one")    \
    X(HEAD_SIZE, INVALID_ARGUMENT, "head size < 1")                                                \
    X(MODE_SECTIONS, INVALID_ARGUMENT,                                                             \
      "sections per cache mode: 1, 2 need 3 (2: s0 == s1), 3: 2-3")                                \
    X(HEADS, INVALID_ARGUMENT, "hidden size not a multiple of head size")                          \
    X(ALIGN, INVALID_ARGUMENT, "head size / rotary dim alignment (when the policy sets one)")      \
    X(ROT_DIM, INVALID_ARGUMENT, "rotary dim odd, zero, or above head size")                       \
    X(POS_SHAPE, INVALID_ARGUMENT, "positions shape != [token dims] or [m, token dims] (mrope)")   \
    X(OFFSETS, INVALID_ARGUMENT, "offsets not int64 or not shaped like positions' token dims")     \
    X(OVERLAP, INVALID_ARGUMENT, "an output overlaps itself or another tensor")                    \
    X(POS_RANGE, OUT_OF_RANGE, "a position outside [0, max positions) (found as the work runs)")   \
    X(NO_MEMORY, NO_MEMORY, "out of memory")

#endif /* ROPEKIT_OPS_ROPE_RULES_H_ */
