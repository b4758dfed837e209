/* Forwarding header: CANN installs operator headers under aclnnop/ and aclnnop/level2/. */
#ifndef ROPEKIT_ACLNNOP_LEVEL2_ACLNN_APPLY_ROTARY_POS_EMB_H_
#define ROPEKIT_ACLNNOP_LEVEL2_ACLNN_APPLY_ROTARY_POS_EMB_H_
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#endif
