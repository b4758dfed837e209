/* The soak engine (soak.h): N threads, each with its own M streams, issue the random
 * problems of the verify suites for a fixed time. Every round a thread queues one aclnn
 * call on each of its streams, runs the native face (one-shot or plan) meanwhile, then
 * synchronizes the streams in a random order: valid calls must match the float64
 * reference (native) and the native bytes (aclnn); invalid ones (problems CANN rejects,
 * bad slices, altered rope arguments, positions out of range) must fail with the SPEC's
 * code at the step that causes it, write nothing and leave the other streams' results
 * alone. The process RSS is sampled after a warm-up and at the end. */
#include "testkit/soak.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testkit/pr_case.h"
#include "testkit/rope_case.h"
#include "testkit/rules.h"
#include "testkit/timer.h"
#include "testkit/verify.h"

enum { SOAK_MAX_STREAMS = TK_SOAK_MAX_STREAMS, SOAK_MAX_SHOWN = 5, SOAK_TRIES = 40 };

/* What one thread does on one stream in one round. */
struct soak_job {
    struct tk_rng rng;
    int stream_index;
    aclrtStream stream;
    bool rope, invalid;
    bool native_valid; /* the native call must succeed (else: must fail, nothing written) */
    bool bound, launched;
    int want; /* aclnn: 0, the phase-1 status, 507015 at the sync; -1: no aclnn call */
    void *ws;
    struct tk_pr_case pc;
    struct tk_pr_aclnn pb;
    unsigned char *pr_native;
    struct tk_rope_case rc;
    struct tk_rc_acl_call call;
    struct tk_rc_acl_bound rb;
    struct tk_rc_image native;
    char what[460];
};

struct soak_run {
    const struct tk_soak_opts *o;
    uint64_t deadline_ns;
    atomic_int shown;
    pthread_mutex_t lock; /* printing, and the end-of-run hand-shake below */
    pthread_cond_t cond;
    int finished; /* workers done calling (streams still alive) */
    bool teardown;
};

struct soak_worker {
    struct soak_run *run;
    int index;
    pthread_t thread;
    uint64_t next_job;
    aclrtStream streams[SOAK_MAX_STREAMS];
    struct soak_job jobs[SOAK_MAX_STREAMS];
    struct tk_soak_counts n;
};

/* ---- accounting ---- */

static void soak_fail(struct soak_worker *w, const struct soak_job *j, const char *fmt, ...) {
    w->n.failures++;
    if (w->run->o->quiet || atomic_fetch_add(&w->run->shown, 1) >= SOAK_MAX_SHOWN)
        return;
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&w->run->lock);
    printf("FAIL thread %d stream %d (%s%s): %s\n     %s\n", w->index, j->stream_index,
           j->rope ? "rope" : "partial rotary", j->invalid ? ", invalid" : "", j->what, why);
    fflush(stdout);
    pthread_mutex_unlock(&w->run->lock);
}

static void soak_count_call(struct soak_worker *w, bool aclnn, bool valid) {
    w->n.calls++;
    if (aclnn)
        w->n.aclnn++;
    else
        w->n.native++;
    if (valid)
        w->n.valid++;
    else
        w->n.invalid++;
}

/* An invalid call's outcome: ok when it failed exactly as the contract says. */
static void soak_expected_failure(struct soak_worker *w, bool ok) {
    if (ok)
        w->n.invalid_ok++;
}

/* tk_acl_error writes "<call> = <code>: <aclGetRecentErrMsg()>". */
static bool soak_has_message(const char *err) {
    const char *msg = strstr(err, " = ");
    msg = msg ? strstr(msg, ": ") : NULL;
    return msg && msg[2] != '\0';
}

static void soak_append(struct soak_job *j, const char *fmt, ...) {
    size_t n = strlen(j->what);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->what + n, sizeof j->what - n, fmt, ap);
    va_end(ap);
}

/* ---- partial rotary ---- */

/* An invalid slice on a problem the aclnn face accepts: past D, reversed, or 3 values
 * (SPEC 3.4 rows 8-9, 4.3 rows 4-5). Returns the variant (2: 3 values). */
static int soak_pr_bad_slice(struct soak_job *j) {
    struct tk_pr_case *pc = &j->pc;
    const int64_t d = pc->x.shape[pc->x.ndim - 1];
    int variant = (int)tk_rng_below(&j->rng, 3);
    if (variant == 1 && pc->end + 2 > d)
        variant = 0;
    if (variant == 0)
        pc->end = d + 2 * tk_rng_range(&j->rng, 1, 4);
    else if (variant == 1)
        pc->start = pc->end + 2;
    soak_append(j, variant == 2 ? " slice of 3 values" : " slice [%lld,%lld)", (long long)pc->start,
                (long long)pc->end);
    return variant;
}

static int soak_pr_generate(struct soak_job *j) {
    for (int tries = 0; tries < SOAK_TRIES; tries++) {
        tk_pr_case_free(&j->pc);
        if (tk_verify_gen_partial_rotary(&j->rng, &j->pc) != 0)
            return -1;
        if (!j->invalid || tk_pr_aclnn_expected(&j->pc) >= 0)
            return 0;
    }
    j->invalid = false;
    return 0;
}

static void soak_pr_launch(struct soak_worker *w, struct soak_job *j, int slice_variant) {
    char err[400] = "";
    if (tk_pr_aclnn_bind(&j->pb, &j->pc, j->pc.x.buf, err, sizeof err) != 0) {
        soak_fail(w, j, "set-up: %s", err);
        return;
    }
    j->bound = true;
    if (slice_variant == 2) {
        const int64_t three[3] = {j->pc.start, j->pc.end, j->pc.end};
        aclDestroyIntArray(j->pb.slice);
        j->pb.slice = aclCreateIntArray(three, 3);
    }
    int stage;
    const int st = tk_pr_aclnn_launch(&j->pb, &j->pc, j->stream, &stage, &j->ws, err, sizeof err);
    soak_count_call(w, true, j->want == 0);
    if (j->want == 0) {
        j->launched = st == 0;
        if (st != 0)
            soak_fail(w, j, "%s: %s", tk_pr_aclnn_name(&j->pc), err);
        return;
    }
    const bool ok = st == j->want && stage == 1 && soak_has_message(err);
    soak_expected_failure(w, ok);
    if (!ok)
        soak_fail(w, j, "%s: expected %d from phase 1, got %d at step %d (%s)",
                  tk_pr_aclnn_name(&j->pc), j->want, st, stage, st ? err : "accepted");
}

static int soak_pr_start(struct soak_worker *w, struct soak_job *j) {
    if (soak_pr_generate(j) != 0)
        return -1;
    tk_pr_case_describe(&j->pc, j->what, sizeof j->what);
    const int expected = tk_pr_aclnn_expected(&j->pc);
    const bool grad = j->pc.direction == ROPEKIT_BACKWARD;
    int slice_variant = -1;
    j->native_valid = true;
    j->want = expected == 0 ? 0 : -1;
    if (j->invalid && expected > 0) {
        j->want = expected;
    } else if (j->invalid) {
        slice_variant = soak_pr_bad_slice(j);
        j->native_valid = slice_variant == 2; /* 3 values have no native spelling */
        j->want = tk_pr_rule_code(
            slice_variant == 2 ? TK_PR_RULE_SLICE_SIZE : TK_PR_RULE_SLICE_RANGE, grad);
    }
    if (j->want >= 0)
        soak_pr_launch(w, j, slice_variant);
    return 0;
}

static void soak_pr_native(struct soak_worker *w, struct soak_job *j) {
    const struct tk_pr_case *pc = &j->pc;
    const size_t bytes = tk_tensor_bytes(&pc->x);
    const bool via_plan = tk_rng_chance(&j->rng, 50);
    unsigned char *out = malloc(bytes);
    if (!out) {
        soak_fail(w, j, "out of memory");
        return;
    }
    memcpy(out, pc->x.buf, bytes);
    const ropekit_status st = tk_pr_native_run(pc, out, via_plan);
    soak_count_call(w, false, j->native_valid);
    if (!j->native_valid) {
        const bool ok = st != ROPEKIT_OK && memcmp(out, pc->x.buf, bytes) == 0 &&
                        ropekit_last_error()[0] != '\0';
        soak_expected_failure(w, ok);
        if (!ok)
            soak_fail(w, j, "native%s: expected a failure with x untouched, got %s",
                      via_plan ? " (plan)" : "", ropekit_status_name(st));
        free(out);
        return;
    }
    struct tk_pr_check chk;
    char why[400];
    if (st != ROPEKIT_OK)
        soak_fail(w, j, "native%s: %s: %s", via_plan ? " (plan)" : "", ropekit_status_name(st),
                  ropekit_last_error());
    else if (tk_pr_check_output(pc, out, &chk) != 0)
        soak_fail(w, j, "out of memory");
    else if (!tk_pr_check_passed(&chk))
        soak_fail(w, j, "native: %s", tk_pr_check_describe(pc, &chk, why, sizeof why));
    j->pr_native = out;
}

/* Synchronizes the job's stream: the launched call's result must be the native bytes;
 * after a phase-1 rejection x must be untouched and the stream clean. */
static void soak_pr_finish(struct soak_worker *w, struct soak_job *j) {
    if (!j->bound)
        return;
    char err[400] = "";
    const size_t bytes = tk_tensor_bytes(&j->pc.x);
    const aclError rc = aclrtSynchronizeStream(j->stream);
    if (rc != ACL_SUCCESS)
        tk_acl_error(err, sizeof err, "aclrtSynchronizeStream", rc);
    unsigned char *got = malloc(bytes);
    if (!got) {
        soak_fail(w, j, "out of memory");
        return;
    }
    if (rc != ACL_SUCCESS)
        soak_fail(w, j, "%s", err);
    else if (tk_acl_tensor_download(&j->pc.x, &j->pb.x, got, err, sizeof err) != 0)
        soak_fail(w, j, "download: %s", err);
    else if (j->launched && j->pr_native && memcmp(got, j->pr_native, bytes) != 0)
        soak_fail(w, j, "%s differs from the native result", tk_pr_aclnn_name(&j->pc));
    else if (!j->launched && memcmp(got, j->pc.x.buf, bytes) != 0)
        soak_fail(w, j, "%s: rejected but x was modified", tk_pr_aclnn_name(&j->pc));
    free(got);
}

/* ---- rope ---- */

/* The aclnn call of the problem, as verify makes it: V1 or V2, and outputs passed as the
 * input aclTensor objects now and then when in place. */
static void soak_rope_call(struct soak_job *j) {
    const struct tk_rope_case *rc = &j->rc;
    const bool mrope = tk_rc_is_mrope(rc);
    const int version = mrope && rc->cache_mode == 1 ? 2 : 1 + (int)tk_rng_below(&j->rng, 2);
    const int64_t mode = mrope ? rc->cache_mode : (int64_t)tk_rng_below(&j->rng, 2);
    tk_rc_acl_call_make(&j->call, rc, version, version == 2 ? mode : 0);
    for (int o = TK_RC_QO; o <= TK_RC_KO; o++)
        j->call.reuse_input[o] = j->call.view[o].present &&
                                 tk_rc_view_same(&j->call.view[o], &j->call.view[o - 3]) &&
                                 tk_rng_chance(&j->rng, 50);
}

/* A problem without overlapping outputs; for `oor`, one the aclnn face accepts with work
 * to do. Returns 0, 1 when none was found, -1 when out of memory. */
static int soak_rope_generate(struct soak_job *j, bool oor) {
    char layout[48];
    bool found = false;
    for (int tries = 0; tries < SOAK_TRIES && !found; tries++) {
        tk_rope_case_free(&j->rc);
        if (tk_verify_gen_rope(&j->rng, &j->rc, layout, sizeof layout) != 0)
            return -1;
        const int overlap = tk_rc_outputs_overlap(j->rc.view, &j->rc);
        if (overlap < 0)
            return -1;
        if (overlap)
            continue;
        soak_rope_call(j);
        const bool work = j->rc.tokens > 0 && j->rc.q_heads + j->rc.k_heads > 0;
        found = !oor || (work && tk_rc_acl_expected(&j->call, &j->rc) == 0);
    }
    if (!found)
        return 1;
    char desc[340];
    tk_rope_case_describe(&j->rc, desc, sizeof desc);
    snprintf(j->what, sizeof j->what, "%s %s %s", tk_rc_acl_name(&j->call), layout, desc);
    return 0;
}

static void soak_rope_bad_position(struct soak_job *j) {
    struct tk_rope_case *rc = &j->rc;
    const int64_t bad[] = {rc->max_pos, rc->max_pos + 1000, -1, INT64_MIN, INT64_MAX};
    const int row = (int)tk_rng_below(&j->rng, (uint64_t)tk_rc_pos_rows(rc));
    const int64_t t = (int64_t)tk_rng_below(&j->rng, (uint64_t)rc->tokens);
    tk_rc_set_position(rc, row, t, bad[tk_rng_below(&j->rng, 5)]);
    soak_append(j, " positions[%d][%lld]=%lld", row, (long long)t,
                (long long)tk_rc_position(rc, row, t));
}

/* Alters the call until CANN's contract rejects it at phase 1; false if none found. */
static bool soak_rope_perturb(struct soak_job *j) {
    const int version = j->call.version;
    const int64_t cache_mode = j->call.cache_mode;
    for (int tries = 0; tries < 8; tries++) {
        if (tk_verify_rope_perturb(&j->call, &j->rc, &j->rng)) {
            const int rule = tk_rc_acl_rule(&j->call, &j->rc); /* a phase-1 rule */
            if (rule > 0 && rule != TK_ROPE_RULE_POS_RANGE) {
                soak_append(j, " with %s", j->call.change);
                return true;
            }
        }
        const bool reuse_q = j->call.reuse_input[TK_RC_QO], reuse_k = j->call.reuse_input[TK_RC_KO];
        tk_rc_acl_call_make(&j->call, &j->rc, version, cache_mode);
        j->call.reuse_input[TK_RC_QO] = reuse_q;
        j->call.reuse_input[TK_RC_KO] = reuse_k;
    }
    return false;
}

static void soak_rope_launch(struct soak_worker *w, struct soak_job *j) {
    char err[400] = "";
    struct tk_rc_image img;
    if (tk_rc_image_alloc(&img, &j->rc) != 0) {
        soak_fail(w, j, "out of memory");
        return;
    }
    const int bound = tk_rc_acl_bind(&j->rb, &j->call, &j->rc, &img, err, sizeof err);
    tk_rc_image_free(&img);
    if (bound != 0) {
        soak_fail(w, j, "set-up: %s", err);
        return;
    }
    j->bound = true;
    int stage = 0;
    const int st = tk_rc_acl_launch(&j->rb, &j->call, j->stream, &stage, &j->ws, err, sizeof err);
    const bool at_sync = j->want == ACL_ERROR_RT_AICORE_EXCEPTION;
    soak_count_call(w, true, j->want == 0);
    if (j->want == 0 || at_sync) {
        j->launched = st == 0;
        if (st != 0)
            soak_fail(w, j, "%s", err);
        return;
    }
    const bool ok = st == j->want && stage == 1 && soak_has_message(err);
    soak_expected_failure(w, ok);
    if (!ok)
        soak_fail(w, j, "expected %d from phase 1, got %d at step %d (%s)", j->want, st, stage,
                  st ? err : "accepted");
}

static int soak_rope_start(struct soak_worker *w, struct soak_job *j) {
    bool oor = j->invalid && tk_rng_chance(&j->rng, 50);
    int got = soak_rope_generate(j, oor);
    if (got == 1 && oor) {
        oor = false;
        got = soak_rope_generate(j, false);
    }
    if (got != 0)
        return -1;
    j->native_valid = true;
    if (oor) {
        soak_rope_bad_position(j);
        j->native_valid = false;
    } else if (j->invalid && !soak_rope_perturb(j)) {
        j->invalid = false;
    }
    j->want = tk_rc_acl_expected(&j->call, &j->rc);
    if (!j->invalid && j->want != 0)
        j->want = -1; /* a native-only problem */
    if (j->want >= 0)
        soak_rope_launch(w, j);
    return 0;
}

static void soak_rope_native(struct soak_worker *w, struct soak_job *j) {
    const struct tk_rope_case *rc = &j->rc;
    const bool via_plan = tk_rng_chance(&j->rng, 50);
    if (tk_rc_image_alloc(&j->native, rc) != 0) {
        soak_fail(w, j, "out of memory");
        return;
    }
    const ropekit_status st = tk_rc_native_run(rc, &j->native, via_plan);
    soak_count_call(w, false, j->native_valid);
    int wb;
    int64_t we;
    if (!j->native_valid) {
        const bool ok = st == ROPEKIT_OUT_OF_RANGE &&
                        tk_rc_image_untouched(rc, &j->native, &wb, &we) &&
                        ropekit_last_error()[0] != '\0';
        soak_expected_failure(w, ok);
        if (!ok)
            soak_fail(w, j, "native%s: expected OUT_OF_RANGE with nothing written, got %s",
                      via_plan ? " (plan)" : "", ropekit_status_name(st));
        return;
    }
    struct tk_rc_check chk;
    char why[400];
    if (st != ROPEKIT_OK)
        soak_fail(w, j, "native%s: %s: %s", via_plan ? " (plan)" : "", ropekit_status_name(st),
                  ropekit_last_error());
    else if (tk_rc_check_output(rc, &j->native, &chk) != 0)
        soak_fail(w, j, "out of memory");
    else if (!tk_rc_check_passed(&chk))
        soak_fail(w, j, "native: %s", tk_rc_check_describe(&chk, why, sizeof why));
}

/* The stream's verdict on what the image after it must hold. */
static void soak_rope_check_image(struct soak_worker *w, struct soak_job *j, aclError rc,
                                  const struct tk_rc_image *got) {
    int wb = 0;
    int64_t we = 0;
    const bool at_sync = j->launched && j->want == ACL_ERROR_RT_AICORE_EXCEPTION;
    if (at_sync) {
        const bool ok = rc == ACL_ERROR_RT_AICORE_EXCEPTION &&
                        tk_rc_image_untouched(&j->rc, got, &wb, &we) &&
                        aclrtSynchronizeStream(j->stream) == ACL_SUCCESS;
        soak_expected_failure(w, ok);
        if (!ok)
            soak_fail(w, j,
                      "expected 507015 from the sync with nothing written and a clean "
                      "stream after it, got %d (buffer %d element %lld)",
                      rc, wb, (long long)we);
    } else if (rc != ACL_SUCCESS) {
        soak_fail(w, j, "aclrtSynchronizeStream = %d: %s", rc, aclGetRecentErrMsg());
    } else if (j->launched && j->native.n && !tk_rc_image_same(&j->rc, got, &j->native, &wb, &we)) {
        soak_fail(w, j, "the aclnn result differs from the native one at buffer %d element %lld",
                  wb, (long long)we);
    } else if (!j->launched && !tk_rc_image_untouched(&j->rc, got, &wb, &we)) {
        soak_fail(w, j, "rejected but buffer %d element %lld was modified", wb, (long long)we);
    }
}

static void soak_rope_finish(struct soak_worker *w, struct soak_job *j) {
    if (!j->bound)
        return;
    char err[400] = "";
    const aclError rc = aclrtSynchronizeStream(j->stream);
    struct tk_rc_image got;
    if (tk_rc_image_alloc(&got, &j->rc) != 0) {
        soak_fail(w, j, "out of memory");
        return;
    }
    if (tk_rc_acl_download(&j->rb, &j->rc, &got, err, sizeof err) != 0)
        soak_fail(w, j, "download: %s", err);
    else
        soak_rope_check_image(w, j, rc, &got);
    tk_rc_image_free(&got);
}

/* ---- rounds ---- */

static void soak_job_start(struct soak_worker *w, struct soak_job *j, int s) {
    const struct tk_soak_opts *o = w->run->o;
    memset(j, 0, sizeof *j);
    j->rng = tk_rng_make(
        tk_rng_derive(o->seed ^ ((uint64_t)w->index + 1) * 0x9e3779b97f4a7c15ull, w->next_job++));
    j->stream_index = s;
    j->stream = w->streams[s];
    j->rope = tk_rng_chance(&j->rng, 50);
    j->invalid = tk_rng_chance(&j->rng, (unsigned)o->invalid_percent);
    j->want = -1;
    if ((j->rope ? soak_rope_start(w, j) : soak_pr_start(w, j)) != 0)
        soak_fail(w, j, "out of memory");
}

static void soak_job_end(struct soak_worker *w, struct soak_job *j) {
    if (j->rope)
        soak_rope_finish(w, j);
    else
        soak_pr_finish(w, j);
    if (j->ws)
        aclrtFree(j->ws);
    if (j->rope && j->bound)
        tk_rc_acl_unbind(&j->rb, &j->rc);
    if (!j->rope && j->bound)
        tk_pr_aclnn_unbind(&j->pb);
    free(j->pr_native);
    tk_rc_image_free(&j->native);
    tk_rope_case_free(&j->rc);
    tk_pr_case_free(&j->pc);
}

static void soak_round(struct soak_worker *w) {
    const int m = (int)w->run->o->streams;
    int order[SOAK_MAX_STREAMS];
    for (int s = 0; s < m; s++)
        soak_job_start(w, &w->jobs[s], s);
    for (int s = 0; s < m; s++)
        (w->jobs[s].rope ? soak_rope_native : soak_pr_native)(w, &w->jobs[s]);
    struct tk_rng shuffle = w->jobs[0].rng;
    for (int s = 0; s < m; s++) {
        const int k = (int)tk_rng_below(&shuffle, (uint64_t)s + 1);
        order[s] = order[k];
        order[k] = s;
    }
    for (int s = 0; s < m; s++)
        soak_job_end(w, &w->jobs[order[s]]);
    w->n.rounds++;
}

static void soak_wait_teardown(struct soak_run *run) {
    pthread_mutex_lock(&run->lock);
    run->finished++;
    pthread_cond_broadcast(&run->cond);
    while (!run->teardown)
        pthread_cond_wait(&run->cond, &run->lock);
    pthread_mutex_unlock(&run->lock);
}

static void *soak_worker_main(void *arg) {
    struct soak_worker *w = arg;
    const int m = (int)w->run->o->streams;
    int made = 0;
    bool ok = aclrtSetDevice(0) == ACL_SUCCESS;
    for (; ok && made < m; made++)
        ok = aclrtCreateStream(&w->streams[made]) == ACL_SUCCESS;
    if (!ok) {
        w->n.failures++;
        fprintf(stderr, "ropekit soak: thread %d: aclrtSetDevice/aclrtCreateStream: %s\n", w->index,
                aclGetRecentErrMsg());
    }
    while (ok && tk_now_ns() < w->run->deadline_ns)
        soak_round(w);
    soak_wait_teardown(w->run);
    for (int s = 0; s < made; s++)
        if (w->streams[s] && aclrtDestroyStream(w->streams[s]) != ACL_SUCCESS)
            w->n.failures++;
    return NULL;
}

/* ---- the run ---- */

static int64_t soak_rss_bytes(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (!f)
        return -1;
    const int n = fscanf(f, "%ld %ld", &size, &resident);
    fclose(f);
    return n == 2 ? (int64_t)resident * (int64_t)sysconf(_SC_PAGESIZE) : -1;
}

static void soak_sleep_until(uint64_t t_ns) {
    for (uint64_t now = tk_now_ns(); now < t_ns; now = tk_now_ns()) {
        const uint64_t left = t_ns - now;
        struct timespec ts = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

/* Waits for the workers to stop calling and samples the RSS while their streams live. */
static int64_t soak_rss_at_end(struct soak_run *run, int started) {
    pthread_mutex_lock(&run->lock);
    while (run->finished < started)
        pthread_cond_wait(&run->cond, &run->lock);
    const int64_t rss = soak_rss_bytes();
    run->teardown = true;
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->lock);
    return rss;
}

static void soak_sum(const struct soak_worker *w, int n, struct tk_soak_counts *t) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < n; i++) {
        t->calls += w[i].n.calls;
        t->native += w[i].n.native;
        t->aclnn += w[i].n.aclnn;
        t->valid += w[i].n.valid;
        t->invalid += w[i].n.invalid;
        t->invalid_ok += w[i].n.invalid_ok;
        t->rounds += w[i].n.rounds;
        t->failures += w[i].n.failures;
    }
}

static int soak_start(struct soak_run *run, struct soak_worker *workers) {
    int started = 0;
    for (; started < run->o->threads; started++) {
        struct soak_worker *w = &workers[started];
        w->run = run;
        w->index = started;
        if (pthread_create(&w->thread, NULL, soak_worker_main, w) != 0) {
            fprintf(stderr, "ropekit soak: cannot start thread %d\n", started);
            break;
        }
    }
    return started;
}

int tk_soak_run(const struct tk_soak_opts *o, struct tk_soak_result *res) {
    memset(res, 0, sizeof *res);
    struct soak_worker *workers = calloc((size_t)o->threads, sizeof *workers);
    if (!workers)
        return -1;
    struct soak_run run = {o, 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false};
    const uint64_t t0 = tk_now_ns(),
                   warm = (uint64_t)(o->seconds < 20 ? o->seconds : 20) * 250000000u;
    run.deadline_ns = t0 + (uint64_t)o->seconds * 1000000000u;
    res->started = soak_start(&run, workers);
    soak_sleep_until(t0 + warm);
    res->rss0 = soak_rss_bytes();
    res->rss1 = soak_rss_at_end(&run, res->started);
    for (int i = 0; i < res->started; i++)
        pthread_join(workers[i].thread, NULL);
    res->secs = (double)(tk_now_ns() - t0) / 1e9;
    soak_sum(workers, res->started, &res->total);
    free(workers);
    return 0;
}
