/* Streams: in-order asynchronous task queues, each served by its own worker thread.
 * aclrtStream NULL is the process's default stream. */
#ifndef ROPEKIT_RUNTIME_STREAM_H_
#define ROPEKIT_RUNTIME_STREAM_H_

#include <stdbool.h>

#include "acl/acl_base.h"
#include "core/error.h"

/* A task reports failure by setting code != 0 and a message. */
struct rk_task_result {
    aclError code;
    char message[RK_ERROR_MSG_CAP];
};

typedef void (*rk_task_run_fn)(void *arg, struct rk_task_result *result);
typedef void (*rk_task_release_fn)(void *arg);

/* Queues run(arg) on the stream; release(arg) (if not NULL) is called after it has
 * run, or at once when queuing fails. A `small` task finds the stream idle more often
 * than not and then runs at once on the calling thread (same order, no hand-off).
 * Returns ACL_SUCCESS, or ACL_ERROR_INVALID_PARAM for an unknown stream, or
 * ACL_ERROR_BAD_ALLOC (message set in both cases). */
aclError rk_stream_submit(aclrtStream stream, rk_task_run_fn run, rk_task_release_fn release,
                          void *arg, bool small);

/* Waits for every live stream to drain (used by aclFinalize / aclrtResetDevice). */
void rk_stream_drain_all(void);

/* Destroys the default stream (aclFinalize). */
void rk_stream_shutdown_default(void);

#endif /* ROPEKIT_RUNTIME_STREAM_H_ */
