#include "measure.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

double rkb_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int rkb_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct rkb_timing rkb_time(void (*fn)(void *ctx), void *ctx, double budget_s, int min_runs,
                           int max_runs) {
    struct rkb_timing t = {0, 0, 0};
    double *samples = malloc((size_t)max_runs * sizeof *samples);
    if (!samples)
        return t;
    fn(ctx); /* warm up: page faults, caches, thread pool */
    double start = rkb_now();
    int n = 0;
    while (n < max_runs && (n < min_runs || rkb_now() - start < budget_s)) {
        double t0 = rkb_now();
        fn(ctx);
        samples[n++] = rkb_now() - t0;
    }
    qsort(samples, (size_t)n, sizeof *samples, rkb_cmp_double);
    t.runs = n;
    t.min_s = samples[0];
    t.median_s = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    free(samples);
    return t;
}

/* The rows [*lo, *hi) of `n` that thread t of `threads` takes (a static split). */
static void rkb_split(int64_t n, int threads, int t, int64_t *lo, int64_t *hi) {
    const int64_t chunk = (n + threads - 1) / threads;
    *lo = (int64_t)t * chunk < n ? (int64_t)t * chunk : n;
    *hi = *lo + chunk < n ? *lo + chunk : n;
}

/* A 64-byte aligned buffer of `bytes` (rounded up to whole lines) filled with `fill`. */
static char *rkb_buffer(size_t bytes, int fill) {
    size_t size = (bytes + 63) / 64 * 64;
    char *p = aligned_alloc(64, size ? size : 64);
    if (p)
        memset(p, fill, size);
    return p;
}

/* Bandwidth in bytes/s of fn(ctx) moving `moved` bytes, from its median time. */
static double rkb_bandwidth(void (*fn)(void *ctx), void *ctx, double moved, double budget_s) {
    struct rkb_timing t = rkb_time(fn, ctx, budget_s, 5, 100000);
    return t.median_s > 0 ? moved / t.median_s : 0;
}

/* Baseline results of this run, per (kind, key, threads). */
enum { RKB_BASE_COPY, RKB_BASE_TOUCH };
#define RKB_CACHE 64
static struct {
    int kind;
    double key[3];
    int threads;
    double bandwidth;
} rkb_cache[RKB_CACHE];
static int rkb_cached;

static bool rkb_cache_get(int kind, const double key[3], int threads, double *bw) {
    for (int i = 0; i < rkb_cached; i++)
        if (rkb_cache[i].kind == kind && rkb_cache[i].threads == threads &&
            !memcmp(rkb_cache[i].key, key, sizeof rkb_cache[i].key)) {
            *bw = rkb_cache[i].bandwidth;
            return true;
        }
    return false;
}

static double rkb_cache_put(int kind, const double key[3], int threads, double bw) {
    if (rkb_cached < RKB_CACHE) {
        rkb_cache[rkb_cached].kind = kind;
        memcpy(rkb_cache[rkb_cached].key, key, sizeof rkb_cache[rkb_cached].key);
        rkb_cache[rkb_cached].threads = threads;
        rkb_cache[rkb_cached].bandwidth = bw;
        rkb_cached++;
    }
    return bw;
}

struct rkb_copy_job {
    char *dst;
    const char *src;
    size_t bytes;
    int threads;
};

static void rkb_copy_run(void *ctx) {
    struct rkb_copy_job *j = ctx;
#ifdef _OPENMP
#pragma omp parallel for num_threads(j->threads) schedule(static)
#endif
    for (int t = 0; t < j->threads; t++) {
        int64_t lo, hi;
        rkb_split((int64_t)j->bytes, j->threads, t, &lo, &hi);
        if (lo < hi)
            memcpy(j->dst + lo, j->src + lo, (size_t)(hi - lo));
    }
}

double rkb_copy_bandwidth(double bytes, int threads, double budget_s) {
    const double key[3] = {bytes, 0, 0};
    double bw;
    if (rkb_cache_get(RKB_BASE_COPY, key, threads, &bw))
        return bw;
    size_t half = (size_t)(bytes / 2);
    if (half < 64)
        half = 64;
    char *src = rkb_buffer(half, 1), *dst = rkb_buffer(half, 2);
    bw = 0;
    if (src && dst) {
        struct rkb_copy_job job = {dst, src, half, threads < 1 ? 1 : threads};
        bw = rkb_bandwidth(rkb_copy_run, &job, 2.0 * (double)half, budget_s);
    }
    free(src);
    free(dst);
    return rkb_cache_put(RKB_BASE_COPY, key, threads, bw);
}

/* The library's software prefetch (src/kernels/prefetch.h): for operands of at least
 * this many bytes, the used lines of the row this many bytes ahead. */
#define RKB_PREFETCH_AHEAD_BYTES 4096
#define RKB_PREFETCH_MIN_FOOTPRINT (8 * 1024 * 1024)

struct rkb_touch_job {
    char *buf;
    int64_t rows, stride, used;
    int threads;
};

/* Read once per run: the compiler cannot know it is zero, so the writes stay. */
static volatile uint64_t rkb_touch_zero;

static void rkb_touch_run(void *ctx) {
    struct rkb_touch_job *j = ctx;
    const uint64_t add = rkb_touch_zero;
    const int64_t stride = j->stride, used = j->used, words = used / 8;
    const int64_t ahead = j->rows * stride >= RKB_PREFETCH_MIN_FOOTPRINT
                              ? (RKB_PREFETCH_AHEAD_BYTES + stride - 1) / stride
                              : 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(j->threads) schedule(static)
#endif
    for (int t = 0; t < j->threads; t++) {
        int64_t lo, hi;
        rkb_split(j->rows, j->threads, t, &lo, &hi);
        for (int64_t r = lo; r < hi; r++) {
            unsigned char *row = (unsigned char *)j->buf + r * stride;
#if defined(__GNUC__)
            if (ahead) {
                const uintptr_t p = (uintptr_t)row + (uintptr_t)(stride * ahead);
                for (int64_t off = 0; off < used; off += 64)
                    __builtin_prefetch((const void *)(p + (uintptr_t)off), 1, 3);
            }
#endif
            for (int64_t w = 0; w < words; w++) {
                uint64_t v;
                memcpy(&v, row + 8 * w, 8);
                v += add;
                memcpy(row + 8 * w, &v, 8);
            }
            for (int64_t b = 8 * words; b < used; b++)
                row[b] = (unsigned char)(row[b] + add);
        }
    }
}

double rkb_touch_bandwidth(int64_t rows, int64_t stride, int64_t used, int threads,
                           double budget_s) {
    const double key[3] = {(double)rows, (double)stride, (double)used};
    double bw;
    if (rkb_cache_get(RKB_BASE_TOUCH, key, threads, &bw))
        return bw;
    bw = 0;
    char *buf =
        rows > 0 && used > 0 && stride >= used ? rkb_buffer((size_t)(rows * stride), 3) : NULL;
    if (buf) {
        struct rkb_touch_job job = {buf, rows, stride, used, threads < 1 ? 1 : threads};
        bw = rkb_bandwidth(rkb_touch_run, &job, 2.0 * (double)rows * (double)used, budget_s);
    }
    free(buf);
    return rkb_cache_put(RKB_BASE_TOUCH, key, threads, bw);
}
