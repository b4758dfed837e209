/* The aclnn face's entry points as data (executor.h's struct rk_aclnn_entry): what phase
 * 1, phase 2 and the CANN-rules plans (ropekit_cann.h) share. */
#ifndef ROPEKIT_FACES_ACLNN_ENTRIES_H_
#define ROPEKIT_FACES_ACLNN_ENTRIES_H_

#include "faces/aclnn/executor.h"
#include "ropekit/ropekit_cann.h"

extern const struct rk_aclnn_entry rk_aclnn_partial_rotary_mul;
extern const struct rk_aclnn_entry rk_aclnn_partial_rotary_mul_grad;
extern const struct rk_aclnn_entry rk_aclnn_rope_with_sin_cos_cache;
extern const struct rk_aclnn_entry rk_aclnn_rope_with_sin_cos_cache_v2;
extern const struct rk_aclnn_entry rk_aclnn_apply_rotary_pos_emb;
extern const struct rk_aclnn_entry rk_aclnn_apply_rotary_pos_emb_v2;
extern const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding;
extern const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding_v2;
extern const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding_v2_matrix;
extern const struct rk_aclnn_entry rk_aclnn_rotary_position_embedding_grad;
extern const struct rk_aclnn_entry rk_aclnn_interleave_rope;

/* The entry of a ropekit_cann_op; NULL for any other value. */
const struct rk_aclnn_entry *rk_aclnn_entry_of(ropekit_cann_op op);

#endif /* ROPEKIT_FACES_ACLNN_ENTRIES_H_ */
