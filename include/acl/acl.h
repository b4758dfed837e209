/* ACL umbrella header: what CANN client programs include first. */
#ifndef ROPEKIT_ACL_ACL_H_
#define ROPEKIT_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* configPath may be NULL; a non-NULL path must name a readable file. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACL_ACL_H_ */
