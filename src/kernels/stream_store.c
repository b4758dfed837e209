/* Output streaming (stream_store.h): the last-level-cache threshold and the non-temporal
 * copy. */
#include "kernels/stream_store.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <emmintrin.h> /* SSE2: part of every x86-64 CPU */
#endif

/* Where the cache size is not known. */
#define RK_STREAM_DEFAULT_LLC (32 * 1024 * 1024)

static int64_t rk_llc_bytes;
static pthread_once_t rk_llc_once = PTHREAD_ONCE_INIT;
static _Atomic int64_t rk_threshold_override = -1;

static void rk_llc_init(void) {
    long n = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    n = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (n <= 0)
        n = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    rk_llc_bytes = n > 0 ? (int64_t)n : RK_STREAM_DEFAULT_LLC;
}

bool rk_stream_wanted(int64_t bytes) {
    const int64_t forced = atomic_load(&rk_threshold_override);
    if (forced >= 0)
        return bytes > forced;
    pthread_once(&rk_llc_once, rk_llc_init);
    return bytes > rk_llc_bytes;
}

void rk_stream_threshold_set(int64_t bytes) {
    atomic_store(&rk_threshold_override, bytes < 0 ? -1 : bytes);
}

void rk_stream_copy(void *dst, const void *src, size_t n) {
#if defined(__x86_64__)
    char *d = dst;
    const char *s = src;
    const size_t lead = (size_t)(-(uintptr_t)d & 15u);
    if (n < lead + 64) {
        memcpy(d, s, n);
        return;
    }
    memcpy(d, s, lead);
    d += lead;
    s += lead;
    n -= lead;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
        _mm_stream_si128((__m128i *)(void *)d, a);
        _mm_stream_si128((__m128i *)(void *)(d + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + 48), e);
    }
    memcpy(d, s, n);
#else
    memcpy(dst, src, n);
#endif
}

void rk_stream_fence(void) {
#if defined(__x86_64__)
    _mm_sfence();
#endif
}
