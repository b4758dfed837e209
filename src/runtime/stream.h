/* Streams: in-order task queues, each served by its own worker thread. Work submitted
 * to an idle stream runs at once on the submitting thread (with the library's thread
 * pool), which keeps the stream's order and saves two thread hand-offs; work submitted
 * behind queued or running work waits for the worker. aclrtStream NULL is the process's
 * default stream. */
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

struct rk_stream;

/* The stream (NULL: the default stream, started on first use), or NULL with the message
 * set when it is not a live stream. */
struct rk_stream *rk_stream_resolve(aclrtStream stream, const char *api);

/* Claims an idle stream (nothing queued or running) for work the caller runs now; false
 * when the stream is busy. Every true is followed by rk_stream_end_inline. */
bool rk_stream_begin_inline(struct rk_stream *s);

/* Ends work begun by rk_stream_begin_inline; a failure is kept for the next
 * aclrtSynchronizeStream. */
void rk_stream_end_inline(struct rk_stream *s, const struct rk_task_result *result);

/* Queues run(arg) behind the stream's work; release(arg) (if not NULL) is called after it
 * has run, or at once when queuing fails. ACL_SUCCESS or ACL_ERROR_BAD_ALLOC (message
 * set). */
aclError rk_stream_enqueue(struct rk_stream *s, rk_task_run_fn run, rk_task_release_fn release,
                           void *arg);

/* Runs run(arg) at once when the stream is idle, else queues it; release as above.
 * ACL_ERROR_INVALID_PARAM for an unknown stream (the message names `api`). */
aclError rk_stream_submit(aclrtStream stream, rk_task_run_fn run, rk_task_release_fn release,
                          void *arg, const char *api);

/* Waits for every live stream to drain (used by aclFinalize / aclrtResetDevice). */
void rk_stream_drain_all(void);

/* Destroys the default stream (aclFinalize). */
void rk_stream_shutdown_default(void);

#endif /* ROPEKIT_RUNTIME_STREAM_H_ */
