/* The aclnn face's rope problem, shared by phase 1 and the CANN-rules plans. */
#ifndef ROPEKIT_FACES_ACLNN_ROPE_H_
#define ROPEKIT_FACES_ACLNN_ROPE_H_

#include "faces/aclnn/executor.h"
#include "ops/rope/rope.h"

/* The problem of entry point `entry` (V1 or V2) from its six tensors as views, in slot
 * order (positions, queryIn, keyIn, cosSinCache, queryOut, keyOut; NULL for a NULL
 * argument); sections NULL for none; V1 ignores cache_mode. Data is not checked, no
 * argument is missing. */
struct rk_rope_problem rk_aclnn_rope_problem(const struct rk_aclnn_entry *entry,
                                             const ropekit_tensor *const views[RK_ROPE_OFF],
                                             const int64_t *sections, uint64_t num_sections,
                                             int64_t head_size, bool is_neox, int64_t cache_mode);

#endif /* ROPEKIT_FACES_ACLNN_ROPE_H_ */
