/* Output streaming (stream_store.h): the last-level-cache threshold and the non-temporal
 * copy. */
#include "kernels/stream_store.h"

#include <pthread.h>
#include <stdio.h>
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

/* The last-level cache's size as Linux's sysfs gives it (what lscpu prints): glibc's
 * sysconf reads CPUID, which some hypervisors fill with the host's figures (a Zen 3
 * guest with a 32 MiB L3: sysconf 256 MiB, so outputs of up to 256 MiB were never
 * streamed). 0 where sysfs does not say. */
static int64_t rk_llc_from_sysfs(void) {
    int64_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[96], text[32];
        int level = 0;
        long long size = 0;
        char unit = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        bool ok = fgets(text, sizeof text, f) && sscanf(text, "%d", &level) == 1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        f = fopen(path, "r");
        if (!f)
            continue;
        ok = ok && fgets(text, sizeof text, f) && sscanf(text, "%lld%c", &size, &unit) >= 1;
        fclose(f);
        if (!ok || size <= 0 || level < best_level)
            continue;
        best_level = level;
        best = (int64_t)size * (unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : 1);
    }
    return best;
}

static void rk_llc_init(void) {
    long n = -1;
    const int64_t sysfs = rk_llc_from_sysfs();
    if (sysfs > 0) {
        rk_llc_bytes = sysfs;
        return;
    }
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
    /* Three quarters, as glibc's memcpy decides: an output of that size is evicted by the
     * inputs streaming through beside it before anything reads it again. */
    return bytes > rk_llc_bytes / 4 * 3;
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
