/* aclnnRotaryPositionEmbeddingGrad: the backward of aclnnRotaryPositionEmbedding. dxOut is
 * dy rotated backward; with xOptional (the forward's x) given, dcosOut and dsinOut are the
 * gradients of cos and sin (sums over the dims they broadcast), else they are not written.
 * Contract: SPEC section 16. */
#ifndef ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_GRAD_H_
#define ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_GRAD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(
    const aclTensor *dy, const aclTensor *cos, const aclTensor *sin, const aclTensor *xOptional,
    int64_t mode, const aclTensor *dxOut, const aclTensor *dcosOut, const aclTensor *dsinOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbeddingGrad(void *workspace,
                                                                 uint64_t workspaceSize,
                                                                 aclOpExecutor *executor,
                                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_GRAD_H_ */
