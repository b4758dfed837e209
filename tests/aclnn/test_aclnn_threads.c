/* Threads against the ACL runtime: both operators launched on one shared stream from
 * several threads, executors made on one thread and launched on another, synchronize,
 * destroy and aclFinalize from a thread other than the launcher while work is queued,
 * the thread budget changed while calls run, and the native table builders called at
 * once. Every result is compared bit for bit with the same calls made on one thread.
 *
 * Work is made to queue deterministically with a gate: a parallel-for hook (see
 * ropekit_set_parallel_for) that holds the first `armed` calls until released. A
 * launch on an idle stream runs on the launching thread, so a launch held at the gate
 * keeps its stream busy and everything launched behind it is queued. Every test runs
 * under a watchdog (alarm) and every wait is bounded, so a hang fails the test. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "ropekit/ropekit.h"

enum { TOKENS = 32, HEADS = 4, KHEADS = 2, HS = 64, MAXPOS = 128, ROUNDS = 6, WORKERS = 4 };
enum { BIG_TOKENS = 512, BIG_HEADS = 8 };
enum { WATCHDOG_SECONDS = 240, GATE_WAIT_SECONDS = 30 };

static const int64_t x_elems = TOKENS * HEADS * HS, k_elems = TOKENS * KHEADS * HS;

/* Shared read-only inputs. */
static int64_t positions[TOKENS], bad_positions[TOKENS];
static float cache[MAXPOS * HS];
static float cos_rows[TOKENS * HS], sin_rows[TOKENS * HS];

/* One launcher's buffers: x is rotated in place (partial rotary) and then read as the
 * rope query of the same round, so a result depends on the order of its launches. */
struct lane {
    float x[TOKENS * HEADS * HS];
    float k[TOKENS * KHEADS * HS];
    float q_out[ROUNDS][TOKENS * HEADS * HS];
    float k_out[ROUNDS][TOKENS * KHEADS * HS];
};

static struct lane lanes[WORKERS], expected;

static float pattern(int64_t i, int salt) {
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(salt * 40503u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    return (float)(h >> 8) / 16777216.0f - 0.5f;
}

static void lane_reset(struct lane *l) {
    for (int64_t j = 0; j < x_elems; j++)
        l->x[j] = pattern(j, 1);
    for (int64_t j = 0; j < k_elems; j++)
        l->k[j] = pattern(j, 2);
    memset(l->q_out, 0xff, sizeof l->q_out);
    memset(l->k_out, 0xff, sizeof l->k_out);
}

static void assert_lane_expected(const struct lane *l) {
    assert_memory_equal(l->x, expected.x, sizeof l->x);
    assert_memory_equal(l->q_out, expected.q_out, sizeof l->q_out);
    assert_memory_equal(l->k_out, expected.k_out, sizeof l->k_out);
}

static void assert_message(void) {
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_true(strlen(m) > 0);
}

/* ---- phase 1 of both operators over a lane ---- */

static aclTensor *tensor(void *data, aclDataType dt, uint64_t n, const int64_t *dims) {
    return aclCreateTensor(dims, n, dt, NULL, 0, ACL_FORMAT_ND, dims, n, data);
}

static aclOpExecutor *pr_plan(struct lane *l) {
    const int64_t xd[4] = {1, TOKENS, HEADS, HS}, cd[4] = {1, TOKENS, 1, HS}, sl[2] = {0, HS};
    aclTensor *x = tensor(l->x, ACL_FLOAT, 4, xd);
    aclTensor *c = tensor(cos_rows, ACL_FLOAT, 4, cd);
    aclTensor *s = tensor(sin_rows, ACL_FLOAT, 4, cd);
    aclIntArray *slice = aclCreateIntArray(sl, 2);
    uint64_t ws = 1;
    aclOpExecutor *e = NULL;
    aclnnStatus st = aclnnInplacePartialRotaryMulGetWorkspaceSize(x, c, s, 1, slice, &ws, &e);
    aclDestroyTensor(x);
    aclDestroyTensor(c);
    aclDestroyTensor(s);
    aclDestroyIntArray(slice);
    return st == ACLNN_SUCCESS && ws == 0 ? e : NULL;
}

/* Rope of the lane's current x (as [T, HEADS*HS]) and k into round r's outputs. */
static aclOpExecutor *rope_plan_from(float *q, int64_t tokens, int64_t heads, float *k, float *qo,
                                     float *ko, const int64_t *pos) {
    const int64_t pd[1] = {tokens}, qd[2] = {tokens, heads * HS}, kd[2] = {tokens, KHEADS * HS},
                  cd[2] = {MAXPOS, HS};
    aclTensor *p = tensor((void *)(uintptr_t)pos, ACL_INT64, 1, pd);
    aclTensor *qi = tensor(q, ACL_FLOAT, 2, qd);
    aclTensor *ki = tensor(k, ACL_FLOAT, 2, kd);
    aclTensor *ca = tensor(cache, ACL_FLOAT, 2, cd);
    aclTensor *qt = tensor(qo, ACL_FLOAT, 2, qd);
    aclTensor *kt = tensor(ko, ACL_FLOAT, 2, kd);
    uint64_t ws = 1;
    aclOpExecutor *e = NULL;
    aclnnStatus st =
        aclnnRopeWithSinCosCacheGetWorkspaceSize(p, qi, ki, ca, NULL, HS, true, qt, kt, &ws, &e);
    aclDestroyTensor(p);
    aclDestroyTensor(qi);
    aclDestroyTensor(ki);
    aclDestroyTensor(ca);
    aclDestroyTensor(qt);
    aclDestroyTensor(kt);
    return st == ACLNN_SUCCESS && ws == 0 ? e : NULL;
}

static aclOpExecutor *rope_plan(struct lane *l, int r, const int64_t *pos) {
    return rope_plan_from(l->x, TOKENS, HEADS, l->k, l->q_out[r], l->k_out[r], pos);
}

/* The lane's executors in launch order: PR_0, ROPE_0, PR_1, ROPE_1, ... */
static void lane_plans(struct lane *l, aclOpExecutor **out) {
    for (int r = 0; r < ROUNDS; r++) {
        out[2 * r] = pr_plan(l);
        out[2 * r + 1] = rope_plan(l, r, positions);
    }
}

/* Launches one planned executor (even index: partial rotary, odd: rope). */
static aclnnStatus launch(aclOpExecutor *e, int index, aclrtStream stream) {
    if (!e)
        return ACLNN_ERR_INNER_NULLPTR;
    return index % 2 == 0 ? aclnnInplacePartialRotaryMul(NULL, 0, e, stream)
                          : aclnnRopeWithSinCosCache(NULL, 0, e, stream);
}

/* Plans and launches a lane's whole sequence on `stream`; 0 when every call succeeded. */
static int lane_launch(struct lane *l, aclrtStream stream) {
    int failures = 0;
    for (int r = 0; r < ROUNDS; r++) {
        failures += launch(pr_plan(l), 0, stream) != ACLNN_SUCCESS;
        failures += launch(rope_plan(l, r, positions), 1, stream) != ACLNN_SUCCESS;
    }
    return failures;
}

/* ---- watchdog, bounded waits and threads ---- */

static void watchdog_fired(int sig) {
    static const char msg[] = "test_aclnn_threads: watchdog: a test did not finish in time\n";
    (void)sig;
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(99);
}

static int arm_watchdog(void **state) {
    (void)state;
    alarm(WATCHDOG_SECONDS);
    return 0;
}

static int disarm_watchdog(void **state) {
    (void)state;
    alarm(0);
    return 0;
}

static struct timespec deadline_after(int seconds) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += seconds;
    return t;
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void join(pthread_t t) {
    struct timespec limit = deadline_after(GATE_WAIT_SECONDS * 2);
    int rc = pthread_timedjoin_np(t, NULL, &limit);
    if (rc != 0)
        fail_msg("a thread did not finish in time (pthread_timedjoin_np: %d)", rc);
}

/* ---- the gate ---- */

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_armed, gate_entered;
static bool gate_open = true;

static void gate_parallel_for(void *host, int64_t tasks, int threads, ropekit_task_fn task,
                              void *ctx) {
    (void)host;
    (void)threads;
    pthread_mutex_lock(&gate_lock);
    if (gate_armed > 0) {
        gate_armed--;
        gate_entered++;
        pthread_cond_broadcast(&gate_cond);
        while (!gate_open)
            pthread_cond_wait(&gate_cond, &gate_lock);
    }
    pthread_mutex_unlock(&gate_lock);
    for (int64_t t = 0; t < tasks; t++)
        task(ctx, t);
}

static void gate_close(int holders) {
    pthread_mutex_lock(&gate_lock);
    gate_armed = holders;
    gate_entered = 0;
    gate_open = false;
    pthread_mutex_unlock(&gate_lock);
    /* two threads so that big calls split into several tasks and reach the hook */
    assert_int_equal(ropekit_set_num_threads(2), ROPEKIT_OK);
    assert_int_equal(ropekit_set_parallel_for(gate_parallel_for, NULL), ROPEKIT_OK);
}

static void gate_wait_entered(int holders) {
    struct timespec limit = deadline_after(GATE_WAIT_SECONDS);
    int rc = 0;
    pthread_mutex_lock(&gate_lock);
    while (gate_entered < holders && rc == 0)
        rc = pthread_cond_timedwait(&gate_cond, &gate_lock, &limit);
    int entered = gate_entered;
    pthread_mutex_unlock(&gate_lock);
    if (entered < holders)
        fail_msg("only %d of %d blocking launches reached the gate", entered, holders);
}

static void gate_release(void) {
    pthread_mutex_lock(&gate_lock);
    gate_open = true;
    gate_armed = 0;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
}

static void gate_remove(void) {
    gate_release();
    assert_int_equal(ropekit_set_parallel_for(NULL, NULL), ROPEKIT_OK);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

/* A big rope launch that holds its stream at the gate. */
struct blocker {
    aclrtStream stream;
    float *q, *k, *qo, *ko;
    int64_t *pos;
    aclnnStatus status;
    pthread_t thread;
};

static void *blocker_main(void *arg) {
    struct blocker *b = arg;
    aclOpExecutor *e = rope_plan_from(b->q, BIG_TOKENS, BIG_HEADS, b->k, b->qo, b->ko, b->pos);
    b->status = launch(e, 1, b->stream);
    return NULL;
}

static void blocker_start(struct blocker *b, aclrtStream stream) {
    const size_t q = (size_t)BIG_TOKENS * BIG_HEADS * HS, k = (size_t)BIG_TOKENS * KHEADS * HS;
    memset(b, 0, sizeof *b);
    b->stream = stream;
    b->q = calloc(q, sizeof(float));
    b->qo = calloc(q, sizeof(float));
    b->k = calloc(k, sizeof(float));
    b->ko = calloc(k, sizeof(float));
    b->pos = calloc(BIG_TOKENS, sizeof(int64_t));
    assert_true(b->q && b->qo && b->k && b->ko && b->pos);
    b->status = -1;
    assert_int_equal(pthread_create(&b->thread, NULL, blocker_main, b), 0);
}

static void blocker_finish(struct blocker *b) {
    join(b->thread);
    assert_int_equal(b->status, ACLNN_SUCCESS);
    free(b->q);
    free(b->qo);
    free(b->k);
    free(b->ko);
    free(b->pos);
}

/* A runtime call made on its own thread, to observe that it waits. */
struct waiter {
    aclError (*call)(aclrtStream);
    aclrtStream stream;
    atomic_bool done;
    aclError result;
    char message[256];
    pthread_t thread;
};

static void *waiter_main(void *arg) {
    struct waiter *w = arg;
    w->result = w->call(w->stream);
    snprintf(w->message, sizeof w->message, "%s", aclGetRecentErrMsg());
    atomic_store(&w->done, true);
    return NULL;
}

static void waiter_start(struct waiter *w, aclError (*call)(aclrtStream), aclrtStream stream) {
    w->call = call;
    w->stream = stream;
    w->result = -1;
    w->message[0] = '\0';
    atomic_store(&w->done, false);
    assert_int_equal(pthread_create(&w->thread, NULL, waiter_main, w), 0);
}

static aclError finalize_call(aclrtStream unused) {
    (void)unused;
    return aclFinalize();
}

/* ---- group setup: inputs and the single-threaded reference ---- */

static int group_setup(void **state) {
    (void)state;
    if (signal(SIGALRM, watchdog_fired) == SIG_ERR)
        return -1;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        return -1;
    for (int t = 0; t < TOKENS; t++) {
        positions[t] = (5 * t + 3) % MAXPOS;
        bad_positions[t] = t == TOKENS / 2 ? MAXPOS : positions[t];
    }
    if (ropekit_cos_sin_cache_build(cache, ROPEKIT_F32, MAXPOS, HS, 10000.0, NULL) != ROPEKIT_OK)
        return -1;
    float *c = malloc(sizeof(float) * (size_t)MAXPOS * HS),
          *s = malloc(sizeof(float) * (size_t)MAXPOS * HS);
    if (!c || !s ||
        ropekit_rotary_coeffs_build(c, s, ROPEKIT_F32, MAXPOS, HS, ROPEKIT_ROTARY_INTERLEAVE,
                                    10000.0, NULL) != ROPEKIT_OK)
        return -1;
    for (int t = 0; t < TOKENS; t++) {
        memcpy(cos_rows + t * HS, c + positions[t] * HS, HS * sizeof(float));
        memcpy(sin_rows + t * HS, s + positions[t] * HS, HS * sizeof(float));
    }
    free(c);
    free(s);
    aclrtStream st = NULL;
    if (aclrtCreateStream(&st) != ACL_SUCCESS)
        return -1;
    ropekit_set_num_threads(1);
    lane_reset(&expected);
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        bad |= launch(pr_plan(&expected), 0, st) != ACLNN_SUCCESS;
        bad |= aclrtSynchronizeStream(st) != ACL_SUCCESS;
        bad |= launch(rope_plan(&expected, r, positions), 1, st) != ACLNN_SUCCESS;
        bad |= aclrtSynchronizeStream(st) != ACL_SUCCESS;
    }
    ropekit_set_num_threads(0);
    bad |= aclrtDestroyStream(st) != ACL_SUCCESS;
    /* the reference must have done something */
    bad |= memcmp(expected.q_out[0], expected.q_out[1], sizeof expected.q_out[0]) == 0;
    return bad ? -1 : 0;
}

static int group_teardown(void **state) {
    (void)state;
    int bad = aclrtResetDevice(0) != ACL_SUCCESS;
    bad |= aclFinalize() != ACL_SUCCESS;
    return bad ? -1 : 0;
}

/* ---- tests ---- */

struct launcher {
    struct lane *lane;
    aclrtStream stream;
    aclOpExecutor **plans; /* NULL: plan and launch on this thread */
    int failures;
    pthread_t thread;
};

static void *launcher_main(void *arg) {
    struct launcher *w = arg;
    if (!w->plans) {
        w->failures = lane_launch(w->lane, w->stream);
    } else {
        for (int i = 0; i < 2 * ROUNDS; i++)
            w->failures += launch(w->plans[i], i, w->stream) != ACLNN_SUCCESS;
    }
    w->failures += aclrtSynchronizeStream(w->stream) != ACL_SUCCESS;
    return NULL;
}

static void run_launchers(struct launcher *w, int n) {
    for (int i = 0; i < n; i++) {
        lane_reset(w[i].lane);
        w[i].failures = 0;
    }
    for (int i = 0; i < n; i++)
        assert_int_equal(pthread_create(&w[i].thread, NULL, launcher_main, &w[i]), 0);
    for (int i = 0; i < n; i++)
        join(w[i].thread);
    for (int i = 0; i < n; i++) {
        assert_int_equal(w[i].failures, 0);
        assert_lane_expected(w[i].lane);
    }
}

/* WORKERS threads launch both operators on one stream at once: each thread's order
 * holds and every result equals the single-threaded run. */
static void test_shared_stream_both_operators(void **state) {
    (void)state;
    aclrtStream shared = NULL;
    assert_int_equal(aclrtCreateStream(&shared), ACL_SUCCESS);
    struct launcher w[WORKERS];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < WORKERS; i++)
            w[i] = (struct launcher){&lanes[i], round == 2 ? NULL : shared, NULL, 0, 0};
        run_launchers(w, WORKERS); /* round 2: the default stream */
    }
    assert_int_equal(aclrtDestroyStream(shared), ACL_SUCCESS);
}

struct planner {
    struct lane *lanes;
    aclOpExecutor *(*plans)[2 * ROUNDS];
    int n;
};

static void *planner_main(void *arg) {
    struct planner *p = arg;
    for (int i = 0; i < p->n; i++)
        lane_plans(&p->lanes[i], p->plans[i]);
    return NULL;
}

/* Executors made by one thread are launched by others (one shared stream and one
 * stream each). */
static void test_executors_cross_threads(void **state) {
    (void)state;
    aclOpExecutor *plans[WORKERS][2 * ROUNDS];
    aclrtStream own[2] = {NULL, NULL}, shared = NULL;
    assert_int_equal(aclrtCreateStream(&own[0]), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&own[1]), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&shared), ACL_SUCCESS);
    for (int i = 0; i < WORKERS; i++)
        lane_reset(&lanes[i]);
    struct planner p = {lanes, plans, WORKERS};
    pthread_t planner;
    assert_int_equal(pthread_create(&planner, NULL, planner_main, &p), 0);
    join(planner);
    struct launcher w[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
        for (int j = 0; j < 2 * ROUNDS; j++)
            assert_non_null(plans[i][j]);
        w[i] = (struct launcher){&lanes[i], i < 2 ? own[i] : shared, plans[i], 0, 0};
    }
    for (int i = 0; i < WORKERS; i++)
        assert_int_equal(pthread_create(&w[i].thread, NULL, launcher_main, &w[i]), 0);
    for (int i = 0; i < WORKERS; i++)
        join(w[i].thread);
    for (int i = 0; i < WORKERS; i++) {
        assert_int_equal(w[i].failures, 0);
        assert_lane_expected(&lanes[i]);
    }
    assert_int_equal(aclrtDestroyStream(own[0]), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(own[1]), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(shared), ACL_SUCCESS);
}

/* aclrtSynchronizeStream on a thread that launched nothing waits for queued work, and
 * a failing task is reported to whichever thread synchronizes first. */
static void test_synchronize_from_other_thread(void **state) {
    (void)state;
    aclrtStream st = NULL;
    assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
    struct blocker b;
    gate_close(1);
    blocker_start(&b, st);
    gate_wait_entered(1);
    lane_reset(&lanes[0]);
    assert_int_equal(lane_launch(&lanes[0], st), 0); /* queued behind the blocker */
    struct waiter w;
    waiter_start(&w, aclrtSynchronizeStream, st);
    sleep_ms(30);
    assert_false(atomic_load(&w.done)); /* the stream is still held */
    gate_release();
    join(w.thread);
    assert_int_equal(w.result, ACL_SUCCESS);
    blocker_finish(&b);
    gate_remove();
    assert_lane_expected(&lanes[0]);

    /* a task fault, synchronized by another thread: it gets 507015 and the message */
    float before[TOKENS * HEADS * HS];
    memcpy(before, lanes[1].q_out[0], sizeof before);
    assert_int_equal(launch(rope_plan(&lanes[1], 0, bad_positions), 1, st), ACLNN_SUCCESS);
    waiter_start(&w, aclrtSynchronizeStream, st);
    join(w.thread);
    assert_int_equal(w.result, ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_true(strlen(w.message) > 0);
    assert_int_equal(aclrtSynchronizeStream(st), ACL_SUCCESS); /* reported once */
    assert_memory_equal(lanes[1].q_out[0], before, sizeof before);
    assert_int_equal(aclrtDestroyStream(st), ACL_SUCCESS);
}

/* aclrtDestroyStream from another thread while work is queued runs the queued work
 * first and returns once it is done; so does destroying a stream while a launch on
 * it is still running on its launcher's thread. Leaks and races are the sanitizers'
 * part of this test. */
static void test_destroy_with_queued_work(void **state) {
    (void)state;
    for (int queued = 1; queued >= 0; queued--) {
        aclrtStream st = NULL;
        assert_int_equal(aclrtCreateStream(&st), ACL_SUCCESS);
        struct blocker b;
        gate_close(1);
        blocker_start(&b, st);
        gate_wait_entered(1);
        lane_reset(&lanes[0]);
        if (queued)
            assert_int_equal(lane_launch(&lanes[0], st), 0);
        struct waiter w;
        waiter_start(&w, aclrtDestroyStream, st);
        sleep_ms(30);
        assert_false(atomic_load(&w.done));
        gate_release();
        join(w.thread);
        assert_int_equal(w.result, ACL_SUCCESS);
        blocker_finish(&b);
        gate_remove();
        if (queued)
            assert_lane_expected(&lanes[0]);
        assert_int_equal(aclrtSynchronizeStream(st), ACL_ERROR_INVALID_PARAM);
        assert_message();
    }
}

/* aclFinalize while other streams have queued work waits for all of it (every
 * launch accepted before aclFinalize completes); afterwards launches, synchronize and
 * async copies fail with "not initialised" codes until the next aclInit, while
 * streams created before may still be destroyed. */
static void test_finalize_with_queued_work(void **state) {
    (void)state;
    aclrtStream st[2] = {NULL, NULL};
    struct blocker b[2];
    assert_int_equal(aclrtCreateStream(&st[0]), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&st[1]), ACL_SUCCESS);
    gate_close(2);
    blocker_start(&b[0], st[0]);
    blocker_start(&b[1], st[1]);
    gate_wait_entered(2);
    for (int i = 0; i < 3; i++)
        lane_reset(&lanes[i]);
    assert_int_equal(lane_launch(&lanes[0], st[0]), 0);
    assert_int_equal(lane_launch(&lanes[1], st[1]), 0);
    assert_int_equal(lane_launch(&lanes[2], NULL), 0); /* the default stream */
    struct waiter w;
    waiter_start(&w, finalize_call, NULL);
    sleep_ms(30);
    assert_false(atomic_load(&w.done));
    gate_release();
    join(w.thread);
    assert_int_equal(w.result, ACL_SUCCESS);
    blocker_finish(&b[0]);
    blocker_finish(&b[1]);
    gate_remove();
    for (int i = 0; i < 3; i++)
        assert_lane_expected(&lanes[i]);

    float q_before[TOKENS * HEADS * HS];
    memcpy(q_before, lanes[0].q_out[0], sizeof q_before);
    aclOpExecutor *e = rope_plan(&lanes[0], 0, positions); /* phase 1 needs no runtime */
    assert_non_null(e);
    assert_int_equal(launch(e, 1, st[0]), ACLNN_ERR_RUNTIME_ERROR);
    assert_message();
    assert_int_equal(launch(e, 1, st[0]), ACLNN_ERR_PARAM_INVALID); /* it was consumed */
    assert_memory_equal(lanes[0].q_out[0], q_before, sizeof q_before);
    assert_int_equal(aclrtSynchronizeStream(st[0]), ACL_ERROR_UNINITIALIZE);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    int32_t a = 1, c = 2;
    assert_int_equal(aclrtMemcpyAsync(&c, sizeof c, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, st[1]),
                     ACL_ERROR_UNINITIALIZE);
    assert_int_equal(c, 2);
    assert_int_equal(aclrtDestroyStream(st[0]), ACL_SUCCESS);
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(&c, sizeof c, &a, sizeof a, ACL_MEMCPY_HOST_TO_HOST, st[1]),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(st[1]), ACL_SUCCESS);
    assert_int_equal(c, 1);
    assert_int_equal(aclrtDestroyStream(st[1]), ACL_SUCCESS);
}

static atomic_bool budget_stop;

static void *budget_changer_main(void *arg) {
    atomic_int *changes = arg;
    for (int i = 0; !atomic_load(&budget_stop); i++) {
        if (ropekit_set_num_threads(i % 5) != ROPEKIT_OK || ropekit_get_num_threads() < 1)
            atomic_store(changes, -1000000);
        atomic_fetch_add(changes, 1);
        if (i % 8 == 7)
            sleep_ms(1);
    }
    return NULL;
}

/* The budget (ROPEKIT_NUM_THREADS, set to 3 before the first call, and
 * ropekit_set_num_threads) changed from two threads while calls run on several
 * streams: results stay bit-identical. */
static void test_thread_budget_under_contention(void **state) {
    (void)state;
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
    assert_int_equal(ropekit_get_num_threads(), 3); /* from the environment */
    aclrtStream st[2] = {NULL, NULL};
    assert_int_equal(aclrtCreateStream(&st[0]), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&st[1]), ACL_SUCCESS);
    atomic_int changes[2];
    atomic_init(&changes[0], 0);
    atomic_init(&changes[1], 0);
    pthread_t changer[2];
    atomic_store(&budget_stop, false);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&changer[i], NULL, budget_changer_main, &changes[i]), 0);
    /* the calls start only once both changers are changing the budget (on a busy machine
     * a changer may otherwise first run after the calls are done) */
    while (atomic_load(&changes[0]) == 0 || atomic_load(&changes[1]) == 0)
        sleep_ms(1);
    struct launcher w[WORKERS];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < WORKERS; i++)
            w[i] = (struct launcher){&lanes[i], i < 2 ? st[i] : st[round], NULL, 0, 0};
        run_launchers(w, WORKERS);
    }
    atomic_store(&budget_stop, true);
    for (int i = 0; i < 2; i++) {
        join(changer[i]);
        assert_true(atomic_load(&changes[i]) > 0);
    }
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
    assert_int_equal(ropekit_get_num_threads(), 3);
    assert_int_equal(aclrtDestroyStream(st[0]), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(st[1]), ACL_SUCCESS);
}

/* ---- native table builders at once ---- */

enum { TB_POS = 64, TB_ROT = 32, TB_KINDS = 6, TB_THREADS = 4, TB_ITERS = 4 };

struct tables {
    uint16_t cache16[TB_POS * TB_ROT];
    float cache32[TB_POS * TB_ROT];
    float cos32[TB_POS * TB_ROT], sin32[TB_POS * TB_ROT];
    uint16_t cos16[TB_POS * TB_ROT], sin16[TB_POS * TB_ROT];
    double inv_freq[TB_ROT / 2], inv_freq_yarn[TB_ROT / 2];
};

static int tables_build(struct tables *t) {
    ropekit_rope_scaling yarn, llama3;
    ropekit_rope_scaling_defaults(&yarn, ROPEKIT_SCALING_YARN);
    yarn.factor = 4.0;
    yarn.original_max_position = 16;
    ropekit_rope_scaling_defaults(&llama3, ROPEKIT_SCALING_LLAMA3);
    llama3.factor = 8.0;
    llama3.original_max_position = 16;
    int bad = 0;
    bad |= ropekit_cos_sin_cache_build(t->cache16, ROPEKIT_BF16, TB_POS, TB_ROT, 10000.0, &yarn) !=
           ROPEKIT_OK;
    bad |= ropekit_cos_sin_cache_build(t->cache32, ROPEKIT_F32, TB_POS, TB_ROT, 500000.0,
                                       &llama3) != ROPEKIT_OK;
    bad |= ropekit_rotary_coeffs_build(t->cos32, t->sin32, ROPEKIT_F32, TB_POS, TB_ROT,
                                       ROPEKIT_ROTARY_QUARTER, 10000.0, NULL) != ROPEKIT_OK;
    bad |= ropekit_rotary_coeffs_build(t->cos16, t->sin16, ROPEKIT_F16, TB_POS, TB_ROT,
                                       ROPEKIT_ROTARY_INTERLEAVE, 10000.0, &yarn) != ROPEKIT_OK;
    bad |= ropekit_rope_inv_freq(t->inv_freq, TB_ROT, 10000.0, TB_POS, NULL) != ROPEKIT_OK;
    bad |= ropekit_rope_inv_freq(t->inv_freq_yarn, TB_ROT, 10000.0, TB_POS, &yarn) != ROPEKIT_OK;
    return bad;
}

static struct tables tables_expected, tables_got[TB_THREADS];

struct table_worker {
    struct tables *out;
    int failures;
};

static void *table_worker_main(void *arg) {
    struct table_worker *w = arg;
    for (int i = 0; i < TB_ITERS; i++) {
        memset(w->out, 0xab, sizeof *w->out);
        w->failures += tables_build(w->out);
        w->failures += memcmp(w->out, &tables_expected, sizeof *w->out) != 0;
    }
    return NULL;
}

static void test_table_builders_concurrently(void **state) {
    (void)state;
    memset(&tables_expected, 0, sizeof tables_expected);
    assert_int_equal(tables_build(&tables_expected), 0);
    pthread_t th[TB_THREADS];
    struct table_worker w[TB_THREADS];
    for (int i = 0; i < TB_THREADS; i++) {
        w[i] = (struct table_worker){&tables_got[i], 0};
        assert_int_equal(pthread_create(&th[i], NULL, table_worker_main, &w[i]), 0);
    }
    for (int i = 0; i < TB_THREADS; i++)
        join(th[i]);
    for (int i = 0; i < TB_THREADS; i++)
        assert_int_equal(w[i].failures, 0);
}

/* ---- one native plan executed from several threads at once ---- */

static ropekit_plan *shared_pr_plan, *shared_rope_plan;

/* The plans' work on one lane: rotate x in place, then rope x and k into round 0. */
static int run_shared_plans(struct lane *l) {
    ropekit_status st = ropekit_partial_rotary_execute(shared_pr_plan, l->x, cos_rows, sin_rows);
    if (st == ROPEKIT_OK)
        st = ropekit_rope_execute(shared_rope_plan, positions, l->x, l->k, cache, l->q_out[0],
                                  l->k_out[0]);
    return st == ROPEKIT_OK ? 0 : 1;
}

static void *shared_plan_main(void *arg) {
    struct lane *l = arg;
    int failures = 0;
    for (int r = 0; r < ROUNDS; r++) {
        lane_reset(l);
        failures += run_shared_plans(l);
    }
    return (void *)(intptr_t)failures;
}

static void test_native_plans_shared_by_threads(void **state) {
    (void)state;
    const int64_t xd[4] = {1, TOKENS, HEADS, HS}, cd[4] = {1, TOKENS, 1, HS};
    ropekit_tensor x = ropekit_tensor_make(NULL, ROPEKIT_F32, 4, xd, NULL);
    ropekit_tensor cs = ropekit_tensor_make(NULL, ROPEKIT_F32, 4, cd, NULL);
    assert_int_equal(ropekit_partial_rotary_plan_create(&x, &cs, &cs, ROPEKIT_ROTARY_INTERLEAVE, 0,
                                                        HS, ROPEKIT_FORWARD, &shared_pr_plan),
                     ROPEKIT_OK);
    const int64_t pd[1] = {TOKENS}, qd[2] = {TOKENS, HEADS * HS}, kd[2] = {TOKENS, KHEADS * HS},
                  cached[2] = {MAXPOS, HS};
    ropekit_tensor p = ropekit_tensor_make(NULL, ROPEKIT_I64, 1, pd, NULL);
    ropekit_tensor q = ropekit_tensor_make(NULL, ROPEKIT_F32, 2, qd, NULL);
    ropekit_tensor k = ropekit_tensor_make(NULL, ROPEKIT_F32, 2, kd, NULL);
    ropekit_tensor c = ropekit_tensor_make(NULL, ROPEKIT_F32, 2, cached, NULL);
    ropekit_rope_config config = {.head_size = HS, .style = ROPEKIT_ROPE_NEOX};
    assert_int_equal(ropekit_rope_plan_create(&p, &q, &k, &c, &q, &k, &config, &shared_rope_plan),
                     ROPEKIT_OK);
    lane_reset(&expected);
    assert_int_equal(run_shared_plans(&expected), 0);
    pthread_t th[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, shared_plan_main, &lanes[i]), 0);
    for (int i = 0; i < WORKERS; i++) {
        void *failures = NULL;
        assert_int_equal(pthread_join(th[i], &failures), 0);
        assert_int_equal((intptr_t)failures, 0);
    }
    for (int i = 0; i < WORKERS; i++) {
        assert_memory_equal(lanes[i].x, expected.x, sizeof expected.x);
        assert_memory_equal(lanes[i].q_out[0], expected.q_out[0], sizeof expected.q_out[0]);
        assert_memory_equal(lanes[i].k_out[0], expected.k_out[0], sizeof expected.k_out[0]);
    }
    ropekit_plan_destroy(shared_pr_plan);
    ropekit_plan_destroy(shared_rope_plan);
}

int main(void) {
    /* the environment default is read once, at the first call */
    setenv("ROPEKIT_NUM_THREADS", "3", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shared_stream_both_operators, arm_watchdog,
                                        disarm_watchdog),
        cmocka_unit_test_setup_teardown(test_executors_cross_threads, arm_watchdog,
                                        disarm_watchdog),
        cmocka_unit_test_setup_teardown(test_synchronize_from_other_thread, arm_watchdog,
                                        disarm_watchdog),
        cmocka_unit_test_setup_teardown(test_destroy_with_queued_work, arm_watchdog,
                                        disarm_watchdog),
        cmocka_unit_test_setup_teardown(test_finalize_with_queued_work, arm_watchdog,
                                        disarm_watchdog),
        cmocka_unit_test_setup_teardown(test_thread_budget_under_contention, arm_watchdog,
                                        disarm_watchdog),
        cmocka_unit_test_setup_teardown(test_table_builders_concurrently, arm_watchdog,
                                        disarm_watchdog),
        cmocka_unit_test_setup_teardown(test_native_plans_shared_by_threads, arm_watchdog,
                                        disarm_watchdog),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
