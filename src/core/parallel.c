#define _GNU_SOURCE /* sched_getaffinity */
#include "core/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/error.h"
#include "core/thread_pool.h"
#include "ropekit/ropekit.h"

static atomic_int rk_threads_override; /* 0: default */
static int rk_threads_default;
static pthread_once_t rk_threads_once = PTHREAD_ONCE_INIT;

/* ROPEKIT_NUM_THREADS, else the CPUs this process may run on (its affinity mask, as
 * taskset or a container's cpuset set it), else the online CPUs; read once. */
static void rk_threads_default_init(void) {
    int n = 0;
    const char *env = getenv("ROPEKIT_NUM_THREADS");
    if (env && *env) {
        char *end = NULL;
        long v = strtol(env, &end, 10);
        if (end && *end == '\0' && v >= 1 && v <= 4096)
            n = (int)v;
    }
#if defined(__linux__)
    cpu_set_t set;
    if (n == 0 && sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
    if (n == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        n = online >= 1 ? (int)(online > 4096 ? 4096 : online) : 1;
    }
    rk_threads_default = n;
}

int rk_thread_budget(void) {
    int n = atomic_load_explicit(&rk_threads_override, memory_order_relaxed);
    if (n > 0)
        return n;
    pthread_once(&rk_threads_once, rk_threads_default_init);
    return rk_threads_default;
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

static _Atomic(ropekit_parallel_fn) rk_host_run;
static void *_Atomic rk_host_ctx;

ropekit_status ropekit_set_parallel_for(ropekit_parallel_fn run, void *host) {
    atomic_store(&rk_host_ctx, host);
    atomic_store(&rk_host_run, run);
    return ROPEKIT_OK;
}

void rk_parallel_for(int64_t tasks, int threads, rk_task_fn fn, void *ctx) {
    if (threads > 1 && tasks > 1) {
        const ropekit_parallel_fn host = atomic_load_explicit(&rk_host_run, memory_order_acquire);
        if (host)
            host(atomic_load(&rk_host_ctx), tasks, threads, fn, ctx);
        else
            rk_pool_run(tasks, threads, fn, ctx);
        return;
    }
    for (int64_t t = 0; t < tasks; t++)
        fn(ctx, t);
}
