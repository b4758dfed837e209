/* The parallel-for every operator uses. Tasks are independent and each output element
 * is computed by exactly one task in the same way, so results never depend on the
 * thread count. */
#ifndef ROPEKIT_CORE_PARALLEL_H_
#define ROPEKIT_CORE_PARALLEL_H_

#include <stddef.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

typedef ropekit_task_fn rk_task_fn;

/* Runs fn(ctx, t) for t in [0, tasks) on up to `threads` threads: the calling thread
 * and helpers of the library's pool (core/thread_pool.h), or the host's parallel-for
 * (ropekit_set_parallel_for). With threads <= 1 or a single
 * task it runs on the calling thread with no synchronization. Concurrent calls share the
 * thread budget: helpers join only while fewer than rk_thread_budget() threads work on
 * library calls, and a call that gets none runs on its caller alone. */
void rk_parallel_for(int64_t tasks, int threads, rk_task_fn fn, void *ctx);

/* Thread budget per operator call (ropekit_set_num_threads / ROPEKIT_NUM_THREADS read
 * once / the CPUs the process may run on). Always >= 1. */
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
