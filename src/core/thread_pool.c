#define _GNU_SOURCE /* pthread_setname_np, sched_getcpu */
#include "core/thread_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "core/futex.h"

#define RK_POOL_SLOTS 16 /* calls that can have helpers at once */
#define RK_POOL_MAX_WORKERS 255
#define RK_POOL_MAX_RANGES 32
#define RK_POOL_MAX_TASKS 0xffffff
/* An idle worker spins this long, then keeps polling with sched_yield (so a thread of
 * the host's that is ready on its core runs first) until RK_POOL_IDLE_YIELD_NS, then
 * sleeps: long enough for the next call of a decode loop, short enough that the 10 ms
 * after the last call cost almost nothing. A worker woken from sleep is often put on the
 * waking caller's core, where it could only take turns with the caller: it yields until
 * the scheduler moves it (or the call ends) instead of joining there. */
#define RK_POOL_IDLE_SPIN_NS 20000
#define RK_POOL_IDLE_YIELD_NS 150000
/* A caller spins this long for tasks its helpers are running before it sleeps. */
#define RK_POOL_DONE_SPIN_NS 20000

/* A job's tasks are split into one range per participant (the caller's is range 0, a
 * worker's is fixed by its number), so each thread takes the same tasks, and so the same
 * cached rows, call after call. A thread runs its own range from the front, then takes
 * tasks from the back of the others' ranges: whatever a helper has not started, the
 * others do. Each range is one word, [63:48] generation, [47:24] next, [23:0] end, and
 * every claim is a compare-and-swap of the whole word. */
#define RK_RANGE_GEN(w) ((uint32_t)((w) >> 48))
#define RK_RANGE_NEXT(w) ((uint32_t)((w) >> 24) & 0xffffffu)
#define RK_RANGE_END(w) ((uint32_t)(w)&0xffffffu)
#define RK_RANGE_MAKE(gen, next, end)                                                              \
    (((uint64_t)(gen) << 48) | ((uint64_t)(next) << 24) | (uint64_t)(end))

/* The job's head word: [63:48] generation, [47:32] ranges, [31:16] helpers that joined. */
#define RK_HEAD_GEN(w) ((uint32_t)((w) >> 48))
#define RK_HEAD_RANGES(w) ((uint32_t)((w) >> 32) & 0xffffu)
#define RK_HEAD_HELPERS(w) ((uint32_t)((w) >> 16) & 0xffffu)
#define RK_HEAD_ONE_HELPER ((uint64_t)1 << 16)
#define RK_HEAD_MAKE(gen, ranges) (((uint64_t)(gen) << 48) | ((uint64_t)(ranges) << 32))

struct rk_range {
    _Alignas(64) _Atomic uint64_t word; /* a line each: ranges are claimed from different cores */
};

struct rk_job_slot {
    _Alignas(64) _Atomic uint64_t head;
    atomic_uint done;        /* tasks finished; the owner sleeps on it */
    atomic_uint owner_waits; /* the owner is (about to be) asleep on `done` */
    atomic_uint max_helpers;
    atomic_uint tasks;
    atomic_int owner_cpu; /* where the caller runs (-1: unknown) */
    atomic_bool taken;    /* held by a running call */
    /* Written by the owner before it publishes the head; read by a thread only after it
     * has claimed a task, so they stay put while read. */
    rk_task_fn fn;
    void *ctx;
    struct rk_range range[RK_POOL_MAX_RANGES];
};

static struct {
    struct rk_job_slot slots[RK_POOL_SLOTS];
    _Alignas(64) atomic_uint epoch; /* bumped by every publication; sleepers wait on it */
    atomic_int sleepers;
    atomic_int working; /* callers with a published job + workers in one */
    atomic_int workers; /* started */
    atomic_bool stop;
    pthread_mutex_t start_lock;
    pthread_t threads[RK_POOL_MAX_WORKERS];
} rk_pool = {.start_lock = PTHREAD_MUTEX_INITIALIZER};

static int rk_current_cpu(void) {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

static int64_t rk_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Takes a task of generation `gen` from range r: its front when it is the thread's own
 * range, else its back. */
static bool rk_range_claim(struct rk_range *r, uint32_t gen, bool own, uint32_t *task) {
    uint64_t w = atomic_load_explicit(&r->word, memory_order_acquire);
    while (RK_RANGE_GEN(w) == gen && RK_RANGE_NEXT(w) < RK_RANGE_END(w)) {
        const uint64_t taken = own ? w + ((uint64_t)1 << 24) : w - 1;
        if (atomic_compare_exchange_weak_explicit(&r->word, &w, taken, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            *task = own ? RK_RANGE_NEXT(w) : RK_RANGE_END(w) - 1;
            return true;
        }
    }
    return false;
}

/* Claims a task for the thread whose own range is `home`. */
static bool rk_slot_claim(struct rk_job_slot *s, uint32_t gen, uint32_t ranges, uint32_t home,
                          uint32_t *task) {
    if (rk_range_claim(&s->range[home], gen, true, task))
        return true;
    for (uint32_t i = 1; i < ranges; i++)
        if (rk_range_claim(&s->range[(home + i) % ranges], gen, false, task))
            return true;
    return false;
}

/* A worker joins the slot's job while it has room for a helper. */
static bool rk_slot_join(struct rk_job_slot *s, uint32_t *gen, uint32_t *ranges) {
    uint64_t w = atomic_load_explicit(&s->head, memory_order_acquire);
    for (;;) {
        if (RK_HEAD_RANGES(w) == 0 ||
            RK_HEAD_HELPERS(w) >= atomic_load_explicit(&s->max_helpers, memory_order_relaxed))
            return false;
        if (atomic_compare_exchange_weak_explicit(&s->head, &w, w + RK_HEAD_ONE_HELPER,
                                                  memory_order_acq_rel, memory_order_acquire)) {
            *gen = RK_HEAD_GEN(w);
            *ranges = RK_HEAD_RANGES(w);
            return true;
        }
    }
}

static void rk_slot_finished_one(struct rk_job_slot *s, uint32_t tasks) {
    if (atomic_fetch_add_explicit(&s->done, 1, memory_order_acq_rel) + 1 == tasks &&
        atomic_load(&s->owner_waits))
        rk_futex_wake(&s->done, 1);
}

enum rk_help { RK_HELP_NONE, RK_HELP_WORKED, RK_HELP_DEFERRED };

/* One pass over the slots by worker `id` (1, 2, ...): helps every job that has room;
 * DEFERRED when a job it left was its caller's on this very core. */
static enum rk_help rk_pool_help(int id, int budget) {
    enum rk_help result = RK_HELP_NONE;
    for (int i = 0; i < RK_POOL_SLOTS; i++) {
        struct rk_job_slot *s = &rk_pool.slots[i];
        uint32_t gen, ranges, task;
        if (atomic_load(&rk_pool.working) >= budget)
            break;
        if (RK_HEAD_RANGES(atomic_load_explicit(&s->head, memory_order_relaxed)) == 0)
            continue; /* no open job */
        const int owner_cpu = atomic_load_explicit(&s->owner_cpu, memory_order_relaxed);
        if (owner_cpu >= 0 && owner_cpu == rk_current_cpu()) {
            if (result == RK_HELP_NONE)
                result = RK_HELP_DEFERRED;
            continue;
        }
        if (!rk_slot_join(s, &gen, &ranges))
            continue;
        atomic_fetch_add(&rk_pool.working, 1);
        const uint32_t home = ranges > 1 ? 1 + (uint32_t)(id - 1) % (ranges - 1) : 0;
        if (rk_slot_claim(s, gen, ranges, home, &task)) {
            /* the job's fields stay put while it has a claimed task that has not finished */
            const uint32_t tasks = atomic_load_explicit(&s->tasks, memory_order_relaxed);
            do {
                s->fn(s->ctx, task);
                rk_slot_finished_one(s, tasks);
            } while (rk_slot_claim(s, gen, ranges, home, &task));
            result = RK_HELP_WORKED;
        }
        atomic_fetch_sub(&rk_pool.working, 1);
    }
    return result;
}

/* Waits until the epoch differs from `seen`: spins first, then sleeps. */
static void rk_pool_idle(uint32_t seen) {
    const int64_t start = rk_now_ns();
    bool yielding = false;
    for (int i = 1;; i++) {
        if (atomic_load_explicit(&rk_pool.epoch, memory_order_acquire) != seen)
            return;
        if (!yielding && i % 64 != 0) {
            rk_cpu_relax();
            continue;
        }
        const int64_t waited = rk_now_ns() - start;
        if (waited >= RK_POOL_IDLE_YIELD_NS)
            break;
        yielding = waited >= RK_POOL_IDLE_SPIN_NS;
        if (yielding)
            sched_yield();
    }
    atomic_fetch_add(&rk_pool.sleepers, 1);
    if (atomic_load(&rk_pool.epoch) == seen)
        rk_futex_wait(&rk_pool.epoch, seen);
    atomic_fetch_sub(&rk_pool.sleepers, 1);
}

static void *rk_worker_main(void *arg) {
    const int id = (int)(intptr_t)arg;
#if defined(__linux__)
    pthread_setname_np(pthread_self(), "ropekit-pool");
#endif
    for (;;) {
        const uint32_t seen = atomic_load_explicit(&rk_pool.epoch, memory_order_acquire);
        if (atomic_load(&rk_pool.stop))
            break;
        const enum rk_help done = rk_pool_help(id, rk_thread_budget());
        if (done == RK_HELP_DEFERRED)
            sched_yield(); /* let the scheduler move this thread off the caller's core */
        else if (done == RK_HELP_NONE)
            rk_pool_idle(seen);
    }
    return NULL;
}

static void rk_pool_after_fork_child(void) {
    /* Only the forking thread lives on: forget the workers and jobs of the parent. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    rk_pool.start_lock = fresh;
    atomic_store(&rk_pool.workers, 0);
    atomic_store(&rk_pool.sleepers, 0);
    atomic_store(&rk_pool.working, 0);
    for (int i = 0; i < RK_POOL_SLOTS; i++) {
        atomic_store(&rk_pool.slots[i].head, 0);
        atomic_store(&rk_pool.slots[i].taken, false);
    }
}

static void rk_pool_before_fork(void) {
    pthread_mutex_lock(&rk_pool.start_lock);
}

static void rk_pool_after_fork_parent(void) {
    pthread_mutex_unlock(&rk_pool.start_lock);
}

static pthread_once_t rk_pool_once = PTHREAD_ONCE_INIT;

static void rk_pool_register_fork(void) {
    pthread_atfork(rk_pool_before_fork, rk_pool_after_fork_parent, rk_pool_after_fork_child);
}

/* Starts workers until there are `want` (at most RK_POOL_MAX_WORKERS); returns how many
 * there are. */
static int rk_pool_start(int want) {
    if (want > RK_POOL_MAX_WORKERS)
        want = RK_POOL_MAX_WORKERS;
    int have = atomic_load_explicit(&rk_pool.workers, memory_order_acquire);
    if (have >= want || atomic_load(&rk_pool.stop))
        return have;
    pthread_once(&rk_pool_once, rk_pool_register_fork);
    pthread_mutex_lock(&rk_pool.start_lock);
    have = atomic_load(&rk_pool.workers);
    while (have < want && !atomic_load(&rk_pool.stop) &&
           pthread_create(&rk_pool.threads[have], NULL, rk_worker_main,
                          (void *)(intptr_t)(have + 1)) == 0)
        atomic_store_explicit(&rk_pool.workers, ++have, memory_order_release);
    pthread_mutex_unlock(&rk_pool.start_lock);
    return have;
}

#if defined(__GNUC__)
/* At exit (or unload): stop and join the workers, so none runs library code after it. */
__attribute__((destructor)) static void rk_pool_shutdown(void) {
    pthread_mutex_lock(&rk_pool.start_lock);
    atomic_store(&rk_pool.stop, true);
    atomic_fetch_add(&rk_pool.epoch, 1);
    rk_futex_wake(&rk_pool.epoch, RK_POOL_MAX_WORKERS);
    const int n = atomic_load(&rk_pool.workers);
    for (int i = 0; i < n; i++)
        pthread_join(rk_pool.threads[i], NULL);
    atomic_store(&rk_pool.workers, 0);
    pthread_mutex_unlock(&rk_pool.start_lock);
}
#endif

static struct rk_job_slot *rk_slot_take(void) {
    for (int i = 0; i < RK_POOL_SLOTS; i++) {
        bool expected = false;
        if (!atomic_load_explicit(&rk_pool.slots[i].taken, memory_order_relaxed) &&
            atomic_compare_exchange_strong(&rk_pool.slots[i].taken, &expected, true))
            return &rk_pool.slots[i];
    }
    return NULL;
}

static void rk_slot_wait_done(struct rk_job_slot *s, uint32_t tasks) {
    const int64_t until = rk_now_ns() + RK_POOL_DONE_SPIN_NS;
    for (int i = 1; atomic_load_explicit(&s->done, memory_order_acquire) != tasks; i++) {
        rk_cpu_relax();
        if (i % 64 == 0 && rk_now_ns() >= until) {
            atomic_store(&s->owner_waits, 1);
            for (uint32_t d; (d = atomic_load(&s->done)) != tasks;)
                rk_futex_wait(&s->done, d);
            atomic_store(&s->owner_waits, 0);
            return;
        }
    }
}

void rk_pool_run(int64_t tasks, int threads, rk_task_fn fn, void *ctx) {
    /* Plans make a few tasks per thread; a count beyond a range word's field runs alone. */
    int helpers = tasks > RK_POOL_MAX_TASKS ? 0 : (int)(tasks < threads ? tasks : threads) - 1;
    const int budget = rk_thread_budget();
    if (helpers > budget - 1)
        helpers = budget - 1;
    struct rk_job_slot *s = NULL;
    if (helpers > 0 && rk_pool_start(budget - 1) > 0)
        s = rk_slot_take();
    if (!s) {
        for (int64_t t = 0; t < tasks; t++)
            fn(ctx, t);
        return;
    }
    const uint32_t n = (uint32_t)tasks;
    const uint32_t ranges =
        helpers + 1 < RK_POOL_MAX_RANGES ? (uint32_t)helpers + 1 : RK_POOL_MAX_RANGES;
    const uint32_t gen = (RK_HEAD_GEN(atomic_load(&s->head)) + 1) & 0xffffu;
    s->fn = fn;
    s->ctx = ctx;
    atomic_store_explicit(&s->done, 0, memory_order_relaxed);
    atomic_store_explicit(&s->tasks, n, memory_order_relaxed);
    atomic_store_explicit(&s->max_helpers, (unsigned)helpers, memory_order_relaxed);
    atomic_store_explicit(&s->owner_cpu, rk_current_cpu(), memory_order_relaxed);
    for (uint32_t r = 0; r < ranges; r++)
        atomic_store_explicit(
            &s->range[r].word,
            RK_RANGE_MAKE(gen, (uint64_t)n * r / ranges, (uint64_t)n * (r + 1) / ranges),
            memory_order_relaxed);
    atomic_fetch_add(&rk_pool.working, 1);
    atomic_store_explicit(&s->head, RK_HEAD_MAKE(gen, ranges), memory_order_release);
    atomic_fetch_add(&rk_pool.epoch, 1);
    const int sleepers = atomic_load(&rk_pool.sleepers);
    if (sleepers > 0)
        rk_futex_wake(&rk_pool.epoch, sleepers < helpers ? sleepers : helpers);
    uint32_t task;
    while (rk_slot_claim(s, gen, ranges, 0, &task)) {
        fn(ctx, task);
        rk_slot_finished_one(s, n);
    }
    rk_slot_wait_done(s, n);
    atomic_store(&s->head, RK_HEAD_MAKE(gen, 0)); /* closed: no more helpers join */
    atomic_fetch_sub(&rk_pool.working, 1);
    atomic_store(&s->taken, false);
}

int rk_pool_workers(void) {
    return atomic_load(&rk_pool.workers);
}
