/* Forwarding header: CANN installs operator headers under aclnnop/ and aclnnop/level2/. */
#ifndef ROPEKIT_ACLNNOP_LEVEL2_ACLNN_INTERLEAVE_ROPE_H_
#define ROPEKIT_ACLNNOP_LEVEL2_ACLNN_INTERLEAVE_ROPE_H_
#include "aclnnop/aclnn_interleave_rope.h"
#endif
