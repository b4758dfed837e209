/* Process-wide ACL state: initialisation and the current device. */
#ifndef ROPEKIT_RUNTIME_ACL_STATE_H_
#define ROPEKIT_RUNTIME_ACL_STATE_H_

#include <stdbool.h>

/* True after aclInit and before aclFinalize; otherwise sets a message naming `api`. */
bool rk_acl_require_init(const char *api);

#endif /* ROPEKIT_RUNTIME_ACL_STATE_H_ */
