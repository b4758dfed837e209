#include "measure.h"

#include "host.h"

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

/* The median of the sorted s[0..n), n > 0. */
static double rkb_median(const double *s, int n) {
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static void rkb_sort(double *s, int n) {
    qsort(s, (size_t)n, sizeof *s, rkb_cmp_double);
}

#define RKB_MAX_ROUNDS 8

bool rkb_time_paired(const struct rkb_task *tasks, int n, int rounds, double budget_s, int min_runs,
                     int max_runs, const struct rkb_between *between, struct rkb_paired *out) {
    memset(out, 0, sizeof *out);
    if (n < 1 || n > RKB_MAX_TASKS)
        return false;
    rounds = rounds < 1 ? 1 : rounds > RKB_MAX_ROUNDS ? RKB_MAX_ROUNDS : rounds;
    min_runs = min_runs < 1 ? 1 : min_runs;
    const int cap = max_runs / rounds > min_runs ? max_runs / rounds : min_runs;
    const double slice = budget_s / rounds;
    /* the samples of task i in round k: cnt[i][k] of them from s + (i * rounds + k) * cap */
    double *s = malloc((size_t)n * (size_t)rounds * (size_t)cap * sizeof *s);
    if (!s)
        return false;
    int cnt[RKB_MAX_TASKS][RKB_MAX_ROUNDS];
    double cpu[RKB_MAX_TASKS] = {0};
    for (int k = 0; k < rounds; k++)
        for (int i = 0; i < n; i++) {
            double *ts = s + ((size_t)i * (size_t)rounds + (size_t)k) * (size_t)cap;
            if (k == 0)
                tasks[i].fn(tasks[i].ctx); /* warm up: page faults, caches, thread pool */
            const double cpu0 = between ? 0 : rkb_library_cpu_s(true);
            const double start = rkb_now();
            int m = 0;
            while (m < cap && (m < min_runs || rkb_now() - start < slice)) {
                if (between)
                    between->fn(between->ctx);
                const double t0 = rkb_now();
                tasks[i].fn(tasks[i].ctx);
                ts[m++] = rkb_now() - t0;
            }
            if (!between)
                cpu[i] += rkb_library_cpu_s(true) - cpu0;
            cnt[i][k] = m;
        }
    /* each round's median, then all the samples of the task together */
    double med[RKB_MAX_TASKS][RKB_MAX_ROUNDS];
    for (int i = 0; i < n; i++) {
        double *all = s + (size_t)i * (size_t)rounds * (size_t)cap;
        int total = 0;
        for (int k = 0; k < rounds; k++) {
            double *ts = all + (size_t)k * (size_t)cap;
            rkb_sort(ts, cnt[i][k]);
            med[i][k] = rkb_median(ts, cnt[i][k]);
            memmove(all + total, ts, (size_t)cnt[i][k] * sizeof *ts);
            total += cnt[i][k];
        }
        rkb_sort(all, total);
        out->t[i].runs = total;
        out->t[i].min_s = all[0];
        out->t[i].median_s = rkb_median(all, total);
        out->t[i].p90_s = all[(total * 9 + 9) / 10 - 1]; /* the ceil(0.9 n)-th smallest */
        out->t[i].cpu_per_run_s = total > 0 ? cpu[i] / total : 0;
        out->bw[i] = out->t[i].median_s > 0 ? tasks[i].bytes / out->t[i].median_s : 0;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (tasks[i].bytes <= 0 || tasks[j].bytes <= 0)
                continue;
            /* in round k, bw_i / bw_j = (bytes_i / med_i) / (bytes_j / med_j) */
            double ratio[RKB_MAX_ROUNDS];
            int nr = 0;
            for (int k = 0; k < rounds; k++)
                if (med[i][k] > 0 && med[j][k] > 0)
                    ratio[nr++] = tasks[i].bytes * med[j][k] / (tasks[j].bytes * med[i][k]);
            rkb_sort(ratio, nr);
            out->ratio[i][j] = nr ? rkb_median(ratio, nr) : 0;
        }
    free(s);
    return true;
}

struct rkb_timing rkb_time(void (*fn)(void *ctx), void *ctx, double budget_s, int min_runs,
                           int max_runs) {
    const struct rkb_task task = {fn, ctx, 0};
    struct rkb_paired p;
    rkb_time_paired(&task, 1, 1, budget_s, min_runs, max_runs, NULL, &p);
    return p.t[0];
}

/* The rows [*lo, *hi) of `n` that thread t of `threads` takes (a static split). */
static void rkb_split(int64_t n, int threads, int t, int64_t *lo, int64_t *hi) {
    const int64_t chunk = (n + threads - 1) / threads;
    *lo = (int64_t)t * chunk < n ? (int64_t)t * chunk : n;
    *hi = *lo + chunk < n ? *lo + chunk : n;
}

/* The baselines' buffers, reused from one task to the next and grown when a task needs
 * more: 64-byte aligned, whole lines, filled once when allocated. */
enum { RKB_BUF_COPY_SRC, RKB_BUF_COPY_DST, RKB_BUF_TOUCH, RKB_NBUF };
static struct {
    char *p;
    size_t size;
} rkb_bufs[RKB_NBUF];

static char *rkb_buffer(int which, size_t bytes, int fill) {
    size_t size = bytes ? (bytes + 63) / 64 * 64 : 64;
    if (rkb_bufs[which].size < size) {
        free(rkb_bufs[which].p);
        rkb_bufs[which].p = aligned_alloc(64, size);
        rkb_bufs[which].size = rkb_bufs[which].p ? size : 0;
        if (rkb_bufs[which].p)
            memset(rkb_bufs[which].p, fill, size);
    }
    return rkb_bufs[which].p;
}

void rkb_baselines_free(void) {
    for (int i = 0; i < RKB_NBUF; i++) {
        free(rkb_bufs[i].p);
        rkb_bufs[i].p = NULL;
        rkb_bufs[i].size = 0;
    }
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
        rkb_host_thread_mark();
        rkb_split((int64_t)j->bytes, j->threads, t, &lo, &hi);
        if (lo < hi)
            memcpy(j->dst + lo, j->src + lo, (size_t)(hi - lo));
    }
}

static struct rkb_copy_job rkb_copy_job;

bool rkb_copy_task(double bytes, int threads, struct rkb_task *task) {
    size_t half = (size_t)(bytes / 2);
    if (half < 64)
        half = 64;
    char *src = rkb_buffer(RKB_BUF_COPY_SRC, half, 1);
    char *dst = rkb_buffer(RKB_BUF_COPY_DST, half, 2);
    if (!src || !dst)
        return false;
    rkb_copy_job = (struct rkb_copy_job){dst, src, half, threads < 1 ? 1 : threads};
    *task = (struct rkb_task){rkb_copy_run, &rkb_copy_job, 2.0 * (double)half};
    return true;
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
        rkb_host_thread_mark();
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

static struct rkb_touch_job rkb_touch_job;

bool rkb_touch_task(int64_t rows, int64_t stride, int64_t used, int threads,
                    struct rkb_task *task) {
    if (rows <= 0 || used <= 0 || stride < used)
        return false;
    char *buf = rkb_buffer(RKB_BUF_TOUCH, (size_t)(rows * stride), 3);
    if (!buf)
        return false;
    rkb_touch_job = (struct rkb_touch_job){buf, rows, stride, used, threads < 1 ? 1 : threads};
    *task = (struct rkb_task){rkb_touch_run, &rkb_touch_job, 2.0 * (double)rows * (double)used};
    return true;
}
