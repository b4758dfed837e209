/* Names and texts of ropekit_status, generated from ROPEKIT_STATUS_MAP so the enum,
 * the names and the texts cannot drift apart. */
#include "core/error.h"
#include "ropekit/ropekit.h"

const char *ropekit_status_name(ropekit_status status) {
    switch (status) {
#define RK_STATUS_NAME_CASE(name, value, text)                                                     \
    case ROPEKIT_##name:                                                                           \
        return "ROPEKIT_" #name;
        ROPEKIT_STATUS_MAP(RK_STATUS_NAME_CASE)
#undef RK_STATUS_NAME_CASE
    }
    return "ROPEKIT_UNKNOWN_STATUS";
}

const char *ropekit_status_text(ropekit_status status) {
    switch (status) {
#define RK_STATUS_TEXT_CASE(name, value, text)                                                     \
    case ROPEKIT_##name:                                                                           \
        return text;
        ROPEKIT_STATUS_MAP(RK_STATUS_TEXT_CASE)
#undef RK_STATUS_TEXT_CASE
    }
    return "unknown status";
}

const char *ropekit_last_error(void) {
    return rk_error_text();
}

unsigned ropekit_version_number(void) {
    return ROPEKIT_VERSION_NUMBER;
}

const char *ropekit_version_string(void) {
#define RK_STR2(x) #x
#define RK_STR(x) RK_STR2(x)
    return RK_STR(ROPEKIT_VERSION_MAJOR) "." RK_STR(ROPEKIT_VERSION_MINOR) "." RK_STR(
        ROPEKIT_VERSION_PATCH);
#undef RK_STR
#undef RK_STR2
}
