/* aclInit/aclFinalize, devices and aclGetRecentErrMsg: the top of the runtime, which
 * drains the streams it finalises. ropekit exposes one device (id 0): the CPU. */
#include <stdio.h>

#include "acl/acl.h"
#include "core/error.h"
#include "runtime/acl_state.h"
#include "runtime/stream.h"

aclError aclInit(const char *configPath) {
    if (configPath && configPath[0] != '\0') {
        FILE *f = fopen(configPath, "r");
        if (!f) {
            rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                         "aclInit: configPath = \"%s\": cannot be opened for reading", configPath);
            return ACL_ERROR_INVALID_PARAM;
        }
        fclose(f);
    }
    if (!rk_acl_state_init()) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "aclInit: already initialised");
        return ACL_ERROR_REPEAT_INITIALIZE;
    }
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    enum rk_acl_finalize_result r = rk_acl_state_finalize();
    if (r != RK_ACL_FINALIZED) {
        bool twice = r == RK_ACL_FINALIZED_TWICE;
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, twice ? "aclFinalize: already finalised"
                                                     : "aclFinalize: aclInit has not been called");
        return twice ? ACL_ERROR_REPEAT_FINALIZE : ACL_ERROR_UNINITIALIZE;
    }
    rk_stream_drain_all();
    rk_stream_shutdown_default();
    return ACL_SUCCESS;
}

static aclError rk_check_device(int32_t deviceId, const char *api) {
    if (!rk_acl_require_init(api))
        return ACL_ERROR_UNINITIALIZE;
    if (deviceId != 0) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "%s: deviceId = %d: ropekit has one device (the CPU), id 0", api,
                     (int)deviceId);
        return ACL_ERROR_INVALID_DEVICE;
    }
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
    return rk_check_device(deviceId, "aclrtSetDevice");
}

aclError aclrtResetDevice(int32_t deviceId) {
    aclError e = rk_check_device(deviceId, "aclrtResetDevice");
    if (e == ACL_SUCCESS)
        rk_stream_drain_all();
    return e;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
    if (!count) {
        rk_error_set(ROPEKIT_NULL_POINTER, "aclrtGetDeviceCount: count = NULL: output required");
        return ACL_ERROR_INVALID_PARAM;
    }
    *count = 1;
    return ACL_SUCCESS;
}

const char *aclGetRecentErrMsg(void) {
    return rk_error_text();
}
