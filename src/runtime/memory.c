/* aclrtMalloc/Free/MallocHost/FreeHost/Memcpy/Memset. Every allocation is registered,
 * so a bad or double free is an error code with a message, not a crash. */
#include "runtime/memory.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "runtime/acl_state.h"
#include "runtime/registry.h"

#define RK_MEM_ALIGN 64

enum rk_mem_kind { RK_MEM_DEVICE = 1, RK_MEM_HOST = 2 };

/* A registry tag: the kind in the low two bits, the requested size above them. */
#define RK_MEM_KIND(tag) ((enum rk_mem_kind)((tag)&3u))
#define RK_MEM_SIZE(tag) ((size_t)((tag) >> 2))

static struct rk_registry rk_allocations = RK_REGISTRY_INIT;

static aclError rk_alloc(void **ptr, size_t size, enum rk_mem_kind kind, const char *api) {
    if (!ptr) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: pointer output = NULL: required", api);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!rk_acl_require_init(api))
        return ACL_ERROR_UNINITIALIZE;
    /* size 0 still gets a unique, valid pointer */
    size_t rounded =
        size == 0 ? RK_MEM_ALIGN : (size + RK_MEM_ALIGN - 1) & ~(size_t)(RK_MEM_ALIGN - 1);
    void *p = rounded >= size ? aligned_alloc(RK_MEM_ALIGN, rounded) : NULL;
    if (!p) {
        rk_error_set(ROPEKIT_NO_MEMORY, "%s: size = %zu: out of memory", api, size);
        return ACL_ERROR_BAD_ALLOC;
    }
    if (!rk_registry_add(&rk_allocations, p, (uint64_t)size << 2 | kind)) {
        free(p);
        rk_error_set(ROPEKIT_NO_MEMORY, "%s: size = %zu: out of memory", api, size);
        return ACL_ERROR_BAD_ALLOC;
    }
    *ptr = p;
    return ACL_SUCCESS;
}

static aclError rk_release(void *ptr, enum rk_mem_kind kind, const char *api) {
    uint64_t tag = 0;
    if (!ptr) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: pointer = NULL", api);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!rk_registry_find(&rk_allocations, ptr, &tag)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "%s: pointer = %p: not allocated by %s, or already freed", api, ptr,
                     kind == RK_MEM_DEVICE ? "aclrtMalloc" : "aclrtMallocHost");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (RK_MEM_KIND(tag) != kind) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: pointer = %p: was allocated by %s", api, ptr,
                     RK_MEM_KIND(tag) == RK_MEM_DEVICE
                         ? "aclrtMalloc (free it with aclrtFree)"
                         : "aclrtMallocHost (free it with aclrtFreeHost)");
        return ACL_ERROR_INVALID_PARAM;
    }
    rk_registry_take(&rk_allocations, ptr, NULL);
    free(ptr);
    return ACL_SUCCESS;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    unsigned p = (unsigned)policy;
    unsigned base = p & 0xffu, type = p & ~0xffu;
    if (base > ACL_MEM_MALLOC_NORMAL_ONLY_P2P ||
        (type != 0 && type != ACL_MEM_TYPE_LOW_BAND_WIDTH &&
         type != ACL_MEM_TYPE_HIGH_BAND_WIDTH)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "aclrtMalloc: policy = %u: not an aclrtMemMallocPolicy", p);
        return ACL_ERROR_INVALID_PARAM;
    }
    return rk_alloc(devPtr, size, RK_MEM_DEVICE, "aclrtMalloc");
}

aclError aclrtFree(void *devPtr) {
    return rk_release(devPtr, RK_MEM_DEVICE, "aclrtFree");
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
    return rk_alloc(hostPtr, size, RK_MEM_HOST, "aclrtMallocHost");
}

aclError aclrtFreeHost(void *hostPtr) {
    return rk_release(hostPtr, RK_MEM_HOST, "aclrtFreeHost");
}

/* When p is the start of an allocation, count must fit in it (pointers into an
 * allocation are not tracked). */
static aclError rk_check_extent(const void *p, size_t count, const char *name, const char *api) {
    uint64_t tag = 0;
    if (count == 0 || !rk_registry_find(&rk_allocations, p, &tag) || count <= RK_MEM_SIZE(tag))
        return ACL_SUCCESS;
    rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                 "%s: count = %zu: exceeds the %zu bytes allocated at %s = %p", api, count,
                 RK_MEM_SIZE(tag), name, p);
    return ACL_ERROR_INVALID_PARAM;
}

aclError rk_memcpy_check(void *dst, size_t destMax, const void *src, size_t count,
                         aclrtMemcpyKind kind, const char *api) {
    if ((unsigned)kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: kind = %d: not an aclrtMemcpyKind", api,
                     (int)kind);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (destMax < count) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: count = %zu: exceeds destMax = %zu", api, count,
                     destMax);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > 0 && (!dst || !src)) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: %s = NULL with count = %zu", api,
                     !dst ? "dst" : "src", count);
        return ACL_ERROR_INVALID_PARAM;
    }
    aclError e = rk_check_extent(dst, count, "dst", api);
    return e != ACL_SUCCESS ? e : rk_check_extent(src, count, "src", api);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind) {
    if (!rk_acl_require_init("aclrtMemcpy"))
        return ACL_ERROR_UNINITIALIZE;
    aclError e = rk_memcpy_check(dst, destMax, src, count, kind, "aclrtMemcpy");
    if (e == ACL_SUCCESS && count > 0)
        memmove(dst, src, count);
    return e;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    if (!rk_acl_require_init("aclrtMemset"))
        return ACL_ERROR_UNINITIALIZE;
    if (count > maxCount) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "aclrtMemset: count = %zu: exceeds maxCount = %zu",
                     count, maxCount);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > 0 && !devPtr) {
        rk_error_set(ROPEKIT_NULL_POINTER, "aclrtMemset: devPtr = NULL with count = %zu", count);
        return ACL_ERROR_INVALID_PARAM;
    }
    aclError e = rk_check_extent(devPtr, count, "devPtr", "aclrtMemset");
    if (e == ACL_SUCCESS && count > 0)
        memset(devPtr, (unsigned char)value, count);
    return e;
}
