/* Forwarding header: CANN installs operator headers under aclnnop/ and aclnnop/level2/. */
#ifndef ROPEKIT_ACLNNOP_LEVEL2_ACLNN_ROPE_WITH_SIN_COS_CACHE_V2_H_
#define ROPEKIT_ACLNNOP_LEVEL2_ACLNN_ROPE_WITH_SIN_COS_CACHE_V2_H_
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"
#endif
