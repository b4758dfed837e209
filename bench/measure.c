#include "measure.h"

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

struct rkb_copy_job {
    char *dst;
    const char *src;
    size_t bytes;
    int threads;
};

static void rkb_copy_run(void *ctx) {
    struct rkb_copy_job *j = ctx;
    const size_t chunk = (j->bytes + (size_t)j->threads - 1) / (size_t)j->threads;
#ifdef _OPENMP
#pragma omp parallel for num_threads(j->threads) schedule(static)
#endif
    for (int t = 0; t < j->threads; t++) {
        size_t lo = (size_t)t * chunk, hi = lo + chunk < j->bytes ? lo + chunk : j->bytes;
        if (lo < hi)
            memcpy(j->dst + lo, j->src + lo, hi - lo);
    }
}

#define RKB_COPY_CACHE 64
static struct {
    double bytes;
    int threads;
    double bandwidth;
} rkb_copy_cache[RKB_COPY_CACHE];
static int rkb_copy_cached;

double rkb_copy_bandwidth(double bytes, int threads, double budget_s) {
    for (int i = 0; i < rkb_copy_cached; i++)
        if (rkb_copy_cache[i].bytes == bytes && rkb_copy_cache[i].threads == threads)
            return rkb_copy_cache[i].bandwidth;
    size_t half = (size_t)(bytes / 2);
    if (half < 64)
        half = 64;
    char *src = aligned_alloc(64, (half + 63) / 64 * 64),
         *dst = aligned_alloc(64, (half + 63) / 64 * 64);
    if (!src || !dst) {
        free(src);
        free(dst);
        return 0;
    }
    memset(src, 1, half);
    memset(dst, 2, half);
    struct rkb_copy_job job = {dst, src, half, threads < 1 ? 1 : threads};
    struct rkb_timing t = rkb_time(rkb_copy_run, &job, budget_s, 5, 100000);
    free(src);
    free(dst);
    double bw = t.median_s > 0 ? 2.0 * (double)half / t.median_s : 0;
    if (rkb_copy_cached < RKB_COPY_CACHE) {
        rkb_copy_cache[rkb_copy_cached].bytes = bytes;
        rkb_copy_cache[rkb_copy_cached].threads = threads;
        rkb_copy_cache[rkb_copy_cached].bandwidth = bw;
        rkb_copy_cached++;
    }
    return bw;
}
