/* The thread's GE error and warning messages (GEGetErrorMsgV2, GEGetWarningMsgV2), and
 * the status helpers every public entry point uses. */
#ifndef ROPEKIT_GE_MESSAGES_H_
#define ROPEKIT_GE_MESSAGES_H_

#include <cstdarg>
#include <string>

#include "ge/ge_api_types.h"

namespace ropekit_ge {

/* printf into a std::string. */
std::string Format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends a line to this thread's error messages and returns `status`. */
ge::Status Fail(ge::Status status, const std::string &message);
void Warn(const std::string &message);

/* This thread's messages since the last call, then clears them. */
std::string TakeErrors();
std::string TakeWarnings();

/* Status of an exception escaping a public entry point (out of memory or internal), with
 * the message set; `api` names the entry point. */
ge::Status FailFromException(const char *api);

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_MESSAGES_H_ */
