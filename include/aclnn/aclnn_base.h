/* aclnn base header: status type, codes and meta objects. */
#ifndef ROPEKIT_ACLNN_ACLNN_BASE_H_
#define ROPEKIT_ACLNN_ACLNN_BASE_H_

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"

#endif /* ROPEKIT_ACLNN_ACLNN_BASE_H_ */
