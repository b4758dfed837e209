#include "messages.h"

#include <cstdio>
#include <new>
#include <vector>

#include "ge/ge_error_codes.h"

namespace ropekit_ge {

namespace {
thread_local std::string t_errors;
thread_local std::string t_warnings;

void Append(std::string &to, const std::string &line) {
    if (!to.empty())
        to += '\n';
    to += line;
}
} // namespace

std::string Format(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list copy;
    va_copy(copy, ap);
    int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string out;
    if (n > 0) {
        std::vector<char> buf(static_cast<size_t>(n) + 1);
        std::vsnprintf(buf.data(), buf.size(), fmt, ap);
        out.assign(buf.data(), static_cast<size_t>(n));
    }
    va_end(ap);
    return out;
}

ge::Status Fail(ge::Status status, const std::string &message) {
    Append(t_errors, message);
    return status;
}

void Warn(const std::string &message) {
    Append(t_warnings, message);
}

std::string TakeErrors() {
    std::string out;
    out.swap(t_errors);
    return out;
}

std::string TakeWarnings() {
    std::string out;
    out.swap(t_warnings);
    return out;
}

ge::Status FailFromException(const char *api) {
    try {
        throw;
    } catch (const std::bad_alloc &) {
        return Fail(ACL_ERROR_GE_MEMORY_ALLOCATION, Format("%s: out of memory", api));
    } catch (...) {
        return Fail(ACL_ERROR_GE_INTERNAL_ERROR, Format("%s: internal error", api));
    }
}

} // namespace ropekit_ge
