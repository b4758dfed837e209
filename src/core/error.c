#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char rk_error_buffer[RK_ERROR_MSG_CAP];

ropekit_status rk_error_set(ropekit_status status, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(rk_error_buffer, sizeof rk_error_buffer, fmt, args);
    va_end(args);
    return status;
}

void rk_error_set_text(const char *msg) {
    snprintf(rk_error_buffer, sizeof rk_error_buffer, "%s", msg ? msg : "");
}

const char *rk_error_text(void) {
    return rk_error_buffer;
}
