/* Whether aclInit has been called (see acl_state.h). */
#include "runtime/acl_state.h"

#include <pthread.h>

#include "core/error.h"

static pthread_mutex_t rk_state_lock = PTHREAD_MUTEX_INITIALIZER;
static bool rk_initialized;
static bool rk_finalized;

bool rk_acl_require_init(const char *api) {
    pthread_mutex_lock(&rk_state_lock);
    bool ok = rk_initialized;
    pthread_mutex_unlock(&rk_state_lock);
    if (!ok)
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: aclInit has not been called", api);
    return ok;
}

bool rk_acl_state_init(void) {
    pthread_mutex_lock(&rk_state_lock);
    bool again = rk_initialized;
    rk_initialized = true;
    rk_finalized = false;
    pthread_mutex_unlock(&rk_state_lock);
    return !again;
}

enum rk_acl_finalize_result rk_acl_state_finalize(void) {
    pthread_mutex_lock(&rk_state_lock);
    bool was = rk_initialized, twice = rk_finalized;
    rk_initialized = false;
    rk_finalized = was || twice;
    pthread_mutex_unlock(&rk_state_lock);
    return was ? RK_ACL_FINALIZED : twice ? RK_ACL_FINALIZED_TWICE : RK_ACL_NEVER_INIT;
}
