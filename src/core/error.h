/* Thread-local "most recent failure" message shared by the native API
 * (ropekit_last_error) and the ACL surface (aclGetRecentErrMsg). */
#ifndef ROPEKIT_CORE_ERROR_H_
#define ROPEKIT_CORE_ERROR_H_

#include "ropekit/ropekit.h"

#define RK_ERROR_MSG_CAP 512

#if defined(__GNUC__)
#define RK_PRINTF_LIKE(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define RK_PRINTF_LIKE(fmt_index, first_arg)
#endif

/* Formats the message into the calling thread's buffer and returns `status`, so a
 * failed check is one line: `return rk_error_set(ROPEKIT_INVALID_ARGUMENT, ...);` */
ropekit_status rk_error_set(ropekit_status status, const char *fmt, ...) RK_PRINTF_LIKE(2, 3);

/* Replaces the calling thread's message with a copy of `msg`. */
void rk_error_set_text(const char *msg);

/* The calling thread's message ("" when none). */
const char *rk_error_text(void);

#endif /* ROPEKIT_CORE_ERROR_H_ */
