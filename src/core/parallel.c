#include "core/parallel.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/error.h"
#include "ropekit/ropekit.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static atomic_int rk_threads_override; /* 0: default */

static int rk_default_threads(void) {
    const char *env = getenv("ROPEKIT_NUM_THREADS");
    if (env && *env) {
        char *end = NULL;
        long v = strtol(env, &end, 10);
        if (end && *end == '\0' && v >= 1 && v <= 4096)
            return (int)v;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online >= 1 ? (int)(online > 4096 ? 4096 : online) : 1;
}

int rk_thread_budget(void) {
    int n = atomic_load(&rk_threads_override);
    return n > 0 ? n : rk_default_threads();
}

ropekit_status ropekit_set_num_threads(int threads) {
    if (threads < 0 || threads > 4096)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "ropekit_set_num_threads: threads = %d: must be in [0, 4096]", threads);
    atomic_store(&rk_threads_override, threads);
    return ROPEKIT_OK;
}

int ropekit_get_num_threads(void) {
    return rk_thread_budget();
}

struct rk_split rk_split_work(int64_t work_items, int64_t item_bytes, int64_t min_task_bytes) {
    struct rk_split s = {1, work_items > 0 ? work_items : 1, 1};
    if (work_items <= 1)
        return s;
    if (item_bytes < 1)
        item_bytes = 1;
    int64_t min_items = (min_task_bytes + item_bytes - 1) / item_bytes;
    if (min_items < 1)
        min_items = 1;
    int64_t max_tasks = work_items / min_items;
    int budget = rk_thread_budget();
    if (max_tasks <= 1 || budget <= 1)
        return s;
    int threads = max_tasks < budget ? (int)max_tasks : budget;
    /* Several tasks per thread so uneven rows still balance; ordered chunks keep each
     * thread's memory contiguous. */
    int64_t tasks = (int64_t)threads * 4;
    if (tasks > max_tasks)
        tasks = max_tasks;
    s.items_per_task = (work_items + tasks - 1) / tasks;
    s.tasks = (work_items + s.items_per_task - 1) / s.items_per_task;
    s.threads = threads;
    return s;
}

/* Helper threads (beyond each caller's own) in parallel teams now running, library-wide.
 * Calls from several threads at once (one per aclnn stream, say) share the budget, so
 * they do not put budget x callers threads on the cores; results do not depend on the
 * team size. */
static atomic_int rk_helpers_busy;

static int rk_team_acquire(int want) {
    if (want <= 1)
        return 1;
    const int cap = rk_thread_budget() - 1;
    int busy = atomic_load(&rk_helpers_busy);
    for (;;) {
        int extra = want - 1 < cap - busy ? want - 1 : cap - busy;
        if (extra <= 0)
            return 1;
        if (atomic_compare_exchange_weak(&rk_helpers_busy, &busy, busy + extra))
            return extra + 1;
    }
}

static void rk_team_release(int team) {
    if (team > 1)
        atomic_fetch_sub(&rk_helpers_busy, team - 1);
}

void rk_parallel_for(int64_t tasks, int threads, rk_task_fn fn, void *ctx) {
#ifdef _OPENMP
    const int team = rk_team_acquire(tasks < threads ? (int)tasks : threads);
    if (team > 1) {
#pragma omp parallel for num_threads(team) schedule(static)
        for (int64_t t = 0; t < tasks; t++)
            fn(ctx, t);
        rk_team_release(team);
        return;
    }
#else
    (void)threads;
#endif
    for (int64_t t = 0; t < tasks; t++)
        fn(ctx, t);
}
