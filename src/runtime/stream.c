#define _GNU_SOURCE /* pthread_setname_np */
#include "runtime/stream.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "runtime/acl_state.h"
#include "runtime/memory.h"
#include "runtime/registry.h"

struct rk_task {
    struct rk_task *next;
    rk_task_run_fn run;
    rk_task_release_fn release;
    void *arg;
};

struct rk_stream {
    pthread_mutex_t lock;
    pthread_cond_t wake;    /* worker: work arrived or stop requested */
    pthread_cond_t drained; /* waiters: queue empty and worker idle */
    pthread_t worker;
    struct rk_task *head, *tail;
    bool busy;
    bool stop;
    struct rk_task_result first_error; /* since the last synchronize */
};

static struct rk_registry rk_streams = RK_REGISTRY_INIT;
static pthread_mutex_t rk_default_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rk_stream *rk_default_stream;

static void *rk_stream_main(void *p) {
    struct rk_stream *s = p;
#if defined(__linux__)
    pthread_setname_np(pthread_self(), "ropekit-stream");
#endif
    pthread_mutex_lock(&s->lock);
    for (;;) {
        /* busy here means a caller is running work on its own thread: wait for it */
        while ((!s->head || s->busy) && !s->stop)
            pthread_cond_wait(&s->wake, &s->lock);
        if (!s->head && s->stop)
            break;
        if (s->busy) /* stop requested while an inline task runs: let it finish */
            continue;
        struct rk_task *t = s->head;
        s->head = t->next;
        if (!s->head)
            s->tail = NULL;
        s->busy = true;
        pthread_mutex_unlock(&s->lock);

        struct rk_task_result result;
        result.code = ACL_SUCCESS;
        result.message[0] = '\0';
        t->run(t->arg, &result);
        if (t->release)
            t->release(t->arg);
        free(t);

        pthread_mutex_lock(&s->lock);
        s->busy = false;
        if (result.code != ACL_SUCCESS && s->first_error.code == ACL_SUCCESS)
            s->first_error = result;
        if (!s->head)
            pthread_cond_broadcast(&s->drained);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static struct rk_stream *rk_stream_new(void) {
    struct rk_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    pthread_cond_init(&s->drained, NULL);
    if (pthread_create(&s->worker, NULL, rk_stream_main, s) != 0) {
        pthread_cond_destroy(&s->drained);
        pthread_cond_destroy(&s->wake);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    return s;
}

static void rk_stream_wait(struct rk_stream *s) {
    pthread_mutex_lock(&s->lock);
    while (s->head || s->busy)
        pthread_cond_wait(&s->drained, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

static void rk_stream_free(struct rk_stream *s) {
    /* Wait for queued work and for a caller still running work inline (another thread's
     * launch in progress), which touches the stream when it ends. */
    rk_stream_wait(s);
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->worker, NULL); /* the worker finishes the queue first */
    pthread_cond_destroy(&s->drained);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static struct rk_stream *rk_default(bool create) {
    pthread_mutex_lock(&rk_default_lock);
    if (!rk_default_stream && create)
        rk_default_stream = rk_stream_new();
    struct rk_stream *s = rk_default_stream;
    pthread_mutex_unlock(&rk_default_lock);
    return s;
}

struct rk_stream *rk_stream_resolve(aclrtStream stream, const char *api) {
    if (stream == NULL) {
        struct rk_stream *s = rk_default(true);
        if (!s)
            rk_error_set(ROPEKIT_NO_MEMORY, "%s: cannot start the default stream", api);
        return s;
    }
    if (!rk_registry_find(&rk_streams, stream, NULL)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "%s: stream = %p: not a live stream (never created or already destroyed)", api,
                     stream);
        return NULL;
    }
    return stream;
}

bool rk_stream_begin_inline(struct rk_stream *s) {
    pthread_mutex_lock(&s->lock);
    bool idle = !s->head && !s->busy;
    if (idle)
        s->busy = true;
    pthread_mutex_unlock(&s->lock);
    return idle;
}

void rk_stream_end_inline(struct rk_stream *s, const struct rk_task_result *result) {
    pthread_mutex_lock(&s->lock);
    s->busy = false;
    if (result->code != ACL_SUCCESS && s->first_error.code == ACL_SUCCESS)
        s->first_error = *result;
    if (s->head)
        pthread_cond_signal(&s->wake);
    else
        pthread_cond_broadcast(&s->drained);
    pthread_mutex_unlock(&s->lock);
}

aclError rk_stream_enqueue(struct rk_stream *s, rk_task_run_fn run, rk_task_release_fn release,
                           void *arg) {
    struct rk_task *t = malloc(sizeof *t);
    if (!t) {
        if (release)
            release(arg);
        rk_error_set(ROPEKIT_NO_MEMORY, "stream submit: out of memory");
        return ACL_ERROR_BAD_ALLOC;
    }
    t->next = NULL;
    t->run = run;
    t->release = release;
    t->arg = arg;
    pthread_mutex_lock(&s->lock);
    if (s->tail)
        s->tail->next = t;
    else
        s->head = t;
    s->tail = t;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return ACL_SUCCESS;
}

aclError rk_stream_submit(aclrtStream stream, rk_task_run_fn run, rk_task_release_fn release,
                          void *arg, const char *api) {
    struct rk_stream *s = rk_stream_resolve(stream, api);
    if (!s) {
        if (release)
            release(arg);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!rk_stream_begin_inline(s))
        return rk_stream_enqueue(s, run, release, arg);
    struct rk_task_result result;
    result.code = ACL_SUCCESS;
    result.message[0] = '\0';
    run(arg, &result);
    if (release)
        release(arg);
    rk_stream_end_inline(s, &result);
    return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *stream) {
    if (!stream) {
        rk_error_set(ROPEKIT_NULL_POINTER, "aclrtCreateStream: stream = NULL: output required");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!rk_acl_require_init("aclrtCreateStream"))
        return ACL_ERROR_UNINITIALIZE;
    struct rk_stream *s = rk_stream_new();
    if (!s || !rk_registry_add(&rk_streams, s, 0)) {
        if (s)
            rk_stream_free(s);
        rk_error_set(ROPEKIT_NO_MEMORY, "aclrtCreateStream: cannot start a stream worker");
        return ACL_ERROR_RT_FAILURE;
    }
    *stream = s;
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    if (!stream || !rk_registry_take(&rk_streams, stream, NULL)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "aclrtDestroyStream: stream = %p: not a live stream (never created or "
                     "already destroyed)",
                     stream);
        return ACL_ERROR_INVALID_PARAM;
    }
    rk_stream_free(stream); /* runs the queued work first */
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    if (!rk_acl_require_init("aclrtSynchronizeStream"))
        return ACL_ERROR_UNINITIALIZE;
    struct rk_stream *s = rk_stream_resolve(stream, "aclrtSynchronizeStream");
    if (!s)
        return ACL_ERROR_INVALID_PARAM;
    rk_stream_wait(s);
    pthread_mutex_lock(&s->lock);
    struct rk_task_result err = s->first_error;
    s->first_error.code = ACL_SUCCESS;
    s->first_error.message[0] = '\0';
    pthread_mutex_unlock(&s->lock);
    if (err.code != ACL_SUCCESS)
        rk_error_set_text(err.message);
    return err.code;
}

static void rk_wait_one(const void *key, uint64_t tag, void *ctx) {
    (void)tag;
    (void)ctx;
    rk_stream_wait((struct rk_stream *)(uintptr_t)key);
}

void rk_stream_drain_all(void) {
    struct rk_stream *d = rk_default(false);
    if (d)
        rk_stream_wait(d);
    rk_registry_each(&rk_streams, rk_wait_one, NULL);
}

void rk_stream_shutdown_default(void) {
    pthread_mutex_lock(&rk_default_lock);
    struct rk_stream *s = rk_default_stream;
    rk_default_stream = NULL;
    pthread_mutex_unlock(&rk_default_lock);
    if (s)
        rk_stream_free(s);
}

/* ---- asynchronous memcpy ---- */

struct rk_copy_task {
    void *dst;
    const void *src;
    size_t count;
};

static void rk_copy_run(void *arg, struct rk_task_result *result) {
    struct rk_copy_task *c = arg;
    (void)result;
    if (c->count > 0) /* NULL pointers are allowed with a count of 0 */
        memmove(c->dst, c->src, c->count);
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
    if (!rk_acl_require_init("aclrtMemcpyAsync"))
        return ACL_ERROR_UNINITIALIZE;
    aclError e = rk_memcpy_check(dst, destMax, src, count, kind, "aclrtMemcpyAsync");
    if (e != ACL_SUCCESS)
        return e;
    struct rk_copy_task *c = malloc(sizeof *c);
    if (!c) {
        rk_error_set(ROPEKIT_NO_MEMORY, "aclrtMemcpyAsync: out of memory");
        return ACL_ERROR_BAD_ALLOC;
    }
    c->dst = dst;
    c->src = src;
    c->count = count;
    return rk_stream_submit(stream, rk_copy_run, free, c, "aclrtMemcpyAsync");
}
