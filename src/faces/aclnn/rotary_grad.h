/* The aclnn face's rotary-gradient problem, shared by phase 1 and the CANN-rules plan. */
#ifndef ROPEKIT_FACES_ACLNN_ROTARY_GRAD_H_
#define ROPEKIT_FACES_ACLNN_ROTARY_GRAD_H_

#include "ops/rotary_grad/rotary_grad.h"

/* The problem of aclnnRotaryPositionEmbeddingGrad from its arguments as views, by slot
 * (RK_RG_DY ... RK_RG_DSIN; x NULL: dx only). Data is not checked, no argument is missing. */
struct rk_rg_problem rk_aclnn_rpe_grad_problem(const ropekit_tensor *const t[RK_RG_TENSORS],
                                               int64_t mode);

#endif /* ROPEKIT_FACES_ACLNN_ROTARY_GRAD_H_ */
