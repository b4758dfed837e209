/* Forwarding header: CANN installs operator headers under aclnnop/ and aclnnop/level2/. */
#ifndef ROPEKIT_ACLNNOP_LEVEL2_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_GRAD_H_
#define ROPEKIT_ACLNNOP_LEVEL2_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_GRAD_H_
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#endif
