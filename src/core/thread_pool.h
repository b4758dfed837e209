/* The library's one intra-op thread pool, shared by every face: native calls, aclnn
 * calls on the caller's thread and every stream's worker.
 *
 * A call publishes its tasks; the calling thread and idle workers claim them one at a
 * time, so the caller never waits for a helper that has not started (whatever nobody has
 * claimed, the caller runs itself) and a 2-thread call on a loaded machine costs at most
 * about its 1-thread time. Workers are started on first use, up to the thread budget
 * minus one, and join a call only while fewer than `budget` threads are working on
 * library calls. Idle workers spin for a few tens of microseconds (a decode loop calls
 * again that soon), then sleep on a futex: no CPU is used once calls have stopped. */
#ifndef ROPEKIT_CORE_THREAD_POOL_H_
#define ROPEKIT_CORE_THREAD_POOL_H_

#include <stdint.h>

#include "core/parallel.h"

/* Runs fn(ctx, t) for every t in [0, tasks) once, on the calling thread and up to
 * `threads` - 1 workers; returns when all have run. */
void rk_pool_run(int64_t tasks, int threads, rk_task_fn fn, void *ctx);

/* Workers started so far (tests). */
int rk_pool_workers(void);

#endif /* ROPEKIT_CORE_THREAD_POOL_H_ */
