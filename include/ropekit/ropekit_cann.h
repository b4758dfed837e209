/* ropekit native API: CANN's rules without ACL objects.
 *
 * A plan made here accepts exactly what the named CANN aclnn operator's phase 1
 * (aclnn<Op>GetWorkspaceSize) accepts: CANN's restrictions (ranks, dtypes, modes, D, mrope
 * sections, alignment), checked in CANN's order, with the aclnn face's message (naming
 * that GetWorkspaceSize) and, in *cann_code, the aclnnStatus phase 1 returns (0 on
 * success). Data pointers are ignored, as by every *_plan_create: the plan runs with
 * ropekit_partial_rotary_execute (_out_execute), ropekit_rope_execute or
 * ropekit_apply_rotary_execute, which check the data they are given (pointers present,
 * overlaps; rope: every position) and compute what the aclnn operator computes, bit for bit.
 * For a port that wants to know whether CANN takes a call before it has ACL tensors, and for
 * ropekit's own graph mode (GE), which checks each node this way once per plan.
 *
 * The calling contract of ropekit.h applies (thread safety, nothing written on failure,
 * *plan NULL after a failed create; cann_code may be NULL). */
#ifndef ROPEKIT_ROPEKIT_CANN_H_
#define ROPEKIT_ROPEKIT_CANN_H_

#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest last dim D CANN's InplacePartialRotaryMul and its gradient take. */
#define ROPEKIT_CANN_PARTIAL_ROTARY_MAX_D 1024
/* The largest D aclnnRotaryPositionEmbedding takes (its doc's general constraint). */
#define ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_MAX_D 1024

typedef enum ropekit_cann_op {
    ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL = 0,
    ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL_GRAD = 1,
    ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE = 2,
    ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE_V2 = 3,
    ROPEKIT_CANN_APPLY_ROTARY_POS_EMB = 4,
    ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2 = 5,
    ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING = 6,
    ROPEKIT_CANN_INTERLEAVE_ROPE = 7,
    ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_GRAD = 8
} ropekit_cann_op;

/* "aclnnInplacePartialRotaryMul", ...; "?" for any other value. */
ROPEKIT_API const char *ropekit_cann_op_name(ropekit_cann_op op);

/* op: the forward or the gradient of InplacePartialRotaryMul (any other op:
 * ROPEKIT_INVALID_ARGUMENT). The arguments
 * are the aclnn call's: x is xRef (dyRef), rotary_mode as given, partial_slice NULL for
 * none (CANN's default [0, 0], a no-op) or slice_len values. The plan's direction is the
 * op's. */
ROPEKIT_API ropekit_status ropekit_cann_partial_rotary_plan_create(
    ropekit_cann_op op, const ropekit_tensor *x, const ropekit_tensor *cos,
    const ropekit_tensor *sin, int64_t rotary_mode, const int64_t *partial_slice,
    uint64_t slice_len, ropekit_plan **plan, int32_t *cann_code);

/* aclnnRotaryPositionEmbedding's rules: out = x rotated over its whole last dim (out of
 * place, mode 0-3 as given). The plan runs with ropekit_partial_rotary_out_execute. */
ROPEKIT_API ropekit_status ropekit_cann_rotary_position_embedding_plan_create(
    const ropekit_tensor *x, const ropekit_tensor *cos, const ropekit_tensor *sin, int64_t mode,
    const ropekit_tensor *out, ropekit_plan **plan, int32_t *cann_code);

/* op: RopeWithSinCosCache or its V2 (any other op: ROPEKIT_INVALID_ARGUMENT); cache_mode
 * is V2's argument (V1 takes 0 whatever is passed). mrope_section NULL for none, else
 * num_sections values. */
ROPEKIT_API ropekit_status ropekit_cann_rope_plan_create(
    ropekit_cann_op op, const ropekit_tensor *positions, const ropekit_tensor *query_in,
    const ropekit_tensor *key_in, const ropekit_tensor *cos_sin_cache,
    const ropekit_tensor *query_out, const ropekit_tensor *key_out, const int64_t *mrope_section,
    uint64_t num_sections, int64_t head_size, bool is_neox, int64_t cache_mode, ropekit_plan **plan,
    int32_t *cann_code);

/* op: ApplyRotaryPosEmb or its V2 (any other op: ROPEKIT_INVALID_ARGUMENT). layout is
 * CANN's number (1 BSND, 2 SBND, 3 BNSD); rotary_mode is V2's string ("half",
 * "interleave", "quarter"; V1 takes "half" whatever is passed). The plan's direction is
 * forward. */
ROPEKIT_API ropekit_status ropekit_cann_apply_rotary_plan_create(
    ropekit_cann_op op, const ropekit_tensor *query, const ropekit_tensor *key,
    const ropekit_tensor *cos, const ropekit_tensor *sin, int64_t layout, const char *rotary_mode,
    ropekit_plan **plan, int32_t *cann_code);

/* aclnnRotaryPositionEmbeddingGrad's rules: dx = dy rotated backward over its whole last
 * dim, and with x given dcos and dsin (cos's shape, dy's dtype: the sums over the dims cos
 * broadcasts, SPEC §16); dcos and dsin are required even without x, as CANN's call takes
 * them. The plan runs with ropekit_partial_rotary_grad_execute. */
ROPEKIT_API ropekit_status ropekit_cann_rotary_position_embedding_grad_plan_create(
    const ropekit_tensor *dy, const ropekit_tensor *cos, const ropekit_tensor *sin,
    const ropekit_tensor *x, int64_t mode, const ropekit_tensor *dx, const ropekit_tensor *dcos,
    const ropekit_tensor *dsin, ropekit_plan **plan, int32_t *cann_code);

/* The one last dim D aclnnInterleaveRope takes. */
#define ROPEKIT_CANN_INTERLEAVE_ROPE_D 64

/* aclnnInterleaveRope's rules: out = x rotated over its whole last dim in interleave-half
 * mode (out of place; x [B, N, S, 64], cos and sin [B, 1, S, 64] or [B, 1, 1, 64], all f16
 * or all bf16). The plan runs with ropekit_partial_rotary_out_execute. */
ROPEKIT_API ropekit_status ropekit_cann_interleave_rope_plan_create(
    const ropekit_tensor *x, const ropekit_tensor *cos, const ropekit_tensor *sin,
    const ropekit_tensor *out, ropekit_plan **plan, int32_t *cann_code);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ROPEKIT_CANN_H_ */
