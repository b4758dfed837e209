/* Forwarding header: CANN installs operator headers under aclnnop/ and aclnnop/level2/. */
#ifndef ROPEKIT_ACLNNOP_LEVEL2_ACLNN_ROTARY_POSITION_EMBEDDING_GRAD_H_
#define ROPEKIT_ACLNNOP_LEVEL2_ACLNN_ROTARY_POSITION_EMBEDDING_GRAD_H_
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#endif
