/* Device and host memory of the ACL surface (both are host memory here). */
#ifndef ROPEKIT_RUNTIME_MEMORY_H_
#define ROPEKIT_RUNTIME_MEMORY_H_

#include "acl/acl_rt.h"

/* Argument checks shared by aclrtMemcpy and aclrtMemcpyAsync (message set on error). */
aclError rk_memcpy_check(void *dst, size_t destMax, const void *src, size_t count,
                         aclrtMemcpyKind kind, const char *api);

#endif /* ROPEKIT_RUNTIME_MEMORY_H_ */
