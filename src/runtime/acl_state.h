/* Process-wide ACL state: whether aclInit has been called. The bottom of the runtime:
 * streams and memory ask it, the lifecycle (acl_lifecycle.c) changes it. */
#ifndef ROPEKIT_RUNTIME_ACL_STATE_H_
#define ROPEKIT_RUNTIME_ACL_STATE_H_

#include <stdbool.h>

/* True after aclInit and before aclFinalize; otherwise sets a message naming `api`. */
bool rk_acl_require_init(const char *api);

/* aclInit's transition: false when already initialised (still initialised after). */
bool rk_acl_state_init(void);

enum rk_acl_finalize_result {
    RK_ACL_FINALIZED,       /* was initialised, now is not */
    RK_ACL_NEVER_INIT,      /* aclInit has not been called */
    RK_ACL_FINALIZED_TWICE, /* aclFinalize again after a finalize */
};

/* aclFinalize's transition. */
enum rk_acl_finalize_result rk_acl_state_finalize(void);

#endif /* ROPEKIT_RUNTIME_ACL_STATE_H_ */
