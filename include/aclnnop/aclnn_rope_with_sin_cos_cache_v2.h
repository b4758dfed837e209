/* aclnnRopeWithSinCosCacheV2: rotates query and key with cos/sin rows of a cache indexed by
 * positions (vLLM rotary_embedding semantics; rope and mrope, NeoX and GPT-J). V2: cacheMode 0
 * (sectioned mrope) or 1 (interleaved mrope, 3 sections). Contract: SPEC section 5. */
#ifndef ROPEKIT_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_V2_H_
#define ROPEKIT_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRopeWithSinCosCacheV2GetWorkspaceSize(
    const aclTensor *positions, const aclTensor *queryIn, const aclTensor *keyIn,
    const aclTensor *cosSinCache, const aclIntArray *mropeSection, int64_t headSize,
    bool isNeoxStyle, int64_t cacheMode, aclTensor *queryOut, aclTensor *keyOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRopeWithSinCosCacheV2(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor,
                                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_V2_H_ */
