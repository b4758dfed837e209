/* The parallel-for every operator uses. Tasks are independent and each output element
 * is computed by exactly one task in the same way, so results never depend on the
 * thread count. */
#ifndef ROPEKIT_CORE_PARALLEL_H_
#define ROPEKIT_CORE_PARALLEL_H_

#include <stddef.h>
#include <stdint.h>

typedef void (*rk_task_fn)(void *ctx, int64_t task);

/* Runs fn(ctx, t) for t in [0, tasks) on up to `threads` threads. With threads <= 1
 * or a single task it runs on the calling thread with no synchronization. Concurrent
 * calls share the thread budget: the helper threads of all running teams never exceed
 * rk_thread_budget() - 1, and a call that finds none free runs on its caller alone. */
void rk_parallel_for(int64_t tasks, int threads, rk_task_fn fn, void *ctx);

/* Thread budget per operator call (ropekit_set_num_threads / ROPEKIT_NUM_THREADS /
 * online CPUs). Always >= 1. */
int rk_thread_budget(void);

/* Number of tasks and threads for `work_items` items of `item_bytes` each, so each
 * task moves at least `min_task_bytes`. Small problems get one task on one thread. */
struct rk_split {
    int64_t tasks;
    int64_t items_per_task;
    int threads;
};
struct rk_split rk_split_work(int64_t work_items, int64_t item_bytes, int64_t min_task_bytes);

#endif /* ROPEKIT_CORE_PARALLEL_H_ */
