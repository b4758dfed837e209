/* Many streams and native callers at once on the one thread pool: every result is
 * bit-identical to the same call made alone on one thread, whether it ran on the caller
 * (idle stream), on a stream's worker (queued behind another thread's work on the same
 * stream), from a repeatable executor with rebound addresses, or through the native
 * face. Also: idle streams use no CPU, and aclFinalize / aclInit again leave a working
 * runtime. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "ropekit/ropekit.h"

enum { TOKENS = 96, QH = 8, KH = 2, HS = 128, ROT = 96, MAXPOS = 512 };
enum { STREAMS = 3, LAUNCHERS_PER_STREAM = 2, NATIVE_CALLERS = 2, ROUNDS = 12 };
enum { CALLERS = STREAMS * LAUNCHERS_PER_STREAM + NATIVE_CALLERS };

static const int64_t q_elems = TOKENS * QH * HS, k_elems = TOKENS * KH * HS;

/* The shared inputs: positions, cache; each caller has its own q/k and outputs. */
static int64_t positions[TOKENS];
static float cache[MAXPOS * ROT];

struct caller {
    int id;
    aclrtStream stream; /* NULL: a native caller */
    bool repeatable;    /* reuse one executor, rebinding its output addresses */
    float *q, *k, *q_out, *k_out, *q_ref, *k_ref;
    int mismatches;
    int failures;
};

static struct caller callers[CALLERS];
static aclrtStream streams[STREAMS];

static float pattern(int64_t i, int salt) {
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(salt * 40503u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    return (float)(h >> 8) / 16777216.0f - 0.5f;
}

static void rope_native(const struct caller *c, float *q_out, float *k_out) {
    int64_t ps[1] = {TOKENS}, qs[2] = {TOKENS, QH * HS}, ks[2] = {TOKENS, KH * HS},
            cs[2] = {MAXPOS, ROT};
    ropekit_tensor p = ropekit_tensor_make(positions, ROPEKIT_I64, 1, ps, NULL);
    ropekit_tensor qi = ropekit_tensor_make(c->q, ROPEKIT_F32, 2, qs, NULL);
    ropekit_tensor ki = ropekit_tensor_make(c->k, ROPEKIT_F32, 2, ks, NULL);
    ropekit_tensor ca = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cs, NULL);
    ropekit_tensor qo = ropekit_tensor_make(q_out, ROPEKIT_F32, 2, qs, NULL);
    ropekit_tensor ko = ropekit_tensor_make(k_out, ROPEKIT_F32, 2, ks, NULL);
    ropekit_rope_config cfg = {.head_size = HS,
                               .style = c->id % 2 ? ROPEKIT_ROPE_GPTJ : ROPEKIT_ROPE_NEOX};
    assert_int_equal(ropekit_rope(&p, &qi, &ki, &ca, &qo, &ko, &cfg), ROPEKIT_OK);
}

static aclTensor *tensor2(void *data, aclDataType dt, int64_t d0, int64_t d1) {
    int64_t dims[2] = {d0, d1};
    return aclCreateTensor(dims, 2, dt, NULL, 0, ACL_FORMAT_ND, dims, 2, data);
}

/* GetWorkspaceSize + execute on the caller's stream (no sync: other threads share it). */
static aclnnStatus rope_aclnn_launch(struct caller *c, aclOpExecutor **keep) {
    aclTensor *p = aclCreateTensor((int64_t[]){TOKENS}, 1, ACL_INT64, NULL, 0, ACL_FORMAT_ND,
                                   (int64_t[]){TOKENS}, 1, positions);
    aclTensor *qi = tensor2(c->q, ACL_FLOAT, TOKENS, QH * HS);
    aclTensor *ki = tensor2(c->k, ACL_FLOAT, TOKENS, KH * HS);
    aclTensor *ca = tensor2(cache, ACL_FLOAT, MAXPOS, ROT);
    aclTensor *qo = tensor2(c->q_out, ACL_FLOAT, TOKENS, QH * HS);
    aclTensor *ko = tensor2(c->k_out, ACL_FLOAT, TOKENS, KH * HS);
    uint64_t ws = 0;
    aclOpExecutor *e = keep ? *keep : NULL;
    aclnnStatus st = ACLNN_SUCCESS;
    if (!e) {
        st = aclnnRopeWithSinCosCacheGetWorkspaceSize(p, qi, ki, ca, NULL, HS, c->id % 2 == 0, qo,
                                                      ko, &ws, &e);
        if (st == ACLNN_SUCCESS && keep) {
            st = aclSetAclOpExecutorRepeatable(e);
            *keep = e;
        }
    } else { /* rebind the outputs (the same buffers: the address path is what is tested) */
        st = aclSetOutputTensorAddr(e, 0, qo, c->q_out);
        if (st == ACLNN_SUCCESS)
            st = aclSetOutputTensorAddr(e, 1, ko, c->k_out);
    }
    if (st == ACLNN_SUCCESS)
        st = aclnnRopeWithSinCosCache(NULL, ws, e, c->stream);
    aclDestroyTensor(p);
    aclDestroyTensor(qi);
    aclDestroyTensor(ki);
    aclDestroyTensor(ca);
    aclDestroyTensor(qo);
    aclDestroyTensor(ko);
    return st;
}

static void *caller_main(void *arg) {
    struct caller *c = arg;
    aclOpExecutor *kept = NULL;
    for (int round = 0; round < ROUNDS; round++) {
        memset(c->q_out, 0xff, (size_t)q_elems * sizeof(float));
        memset(c->k_out, 0xff, (size_t)k_elems * sizeof(float));
        if (c->stream) {
            if (rope_aclnn_launch(c, c->repeatable ? &kept : NULL) != ACLNN_SUCCESS ||
                aclrtSynchronizeStream(c->stream) != ACL_SUCCESS)
                c->failures++;
        } else {
            rope_native(c, c->q_out, c->k_out);
        }
        if (memcmp(c->q_out, c->q_ref, (size_t)q_elems * sizeof(float)) != 0 ||
            memcmp(c->k_out, c->k_ref, (size_t)k_elems * sizeof(float)) != 0)
            c->mismatches++;
    }
    if (kept)
        aclDestroyAclOpExecutor(kept);
    return NULL;
}

static float *buffer(int64_t n) {
    float *p = malloc((size_t)n * sizeof(float));
    assert_non_null(p);
    return p;
}

static int setup(void **state) {
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        return -1;
    for (int t = 0; t < TOKENS; t++)
        positions[t] = (7 * t + 3) % MAXPOS;
    if (ropekit_cos_sin_cache_build(cache, ROPEKIT_F32, MAXPOS, ROT, 10000.0, NULL) != ROPEKIT_OK)
        return -1;
    for (int s = 0; s < STREAMS; s++)
        if (aclrtCreateStream(&streams[s]) != ACL_SUCCESS)
            return -1;
    /* references: each caller's own inputs, one thread, native face */
    ropekit_set_num_threads(1);
    for (int i = 0; i < CALLERS; i++) {
        struct caller *c = &callers[i];
        c->id = i;
        c->stream = i < STREAMS * LAUNCHERS_PER_STREAM ? streams[i % STREAMS] : NULL;
        c->repeatable = i % 3 == 2;
        c->q = buffer(q_elems);
        c->k = buffer(k_elems);
        c->q_out = buffer(q_elems);
        c->k_out = buffer(k_elems);
        c->q_ref = buffer(q_elems);
        c->k_ref = buffer(k_elems);
        for (int64_t j = 0; j < q_elems; j++)
            c->q[j] = pattern(j, 2 * i);
        for (int64_t j = 0; j < k_elems; j++)
            c->k[j] = pattern(j, 2 * i + 1);
        rope_native(c, c->q_ref, c->k_ref);
    }
    ropekit_set_num_threads(0);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    for (int i = 0; i < CALLERS; i++) {
        struct caller *c = &callers[i];
        free(c->q);
        free(c->k);
        free(c->q_out);
        free(c->k_out);
        free(c->q_ref);
        free(c->k_ref);
    }
    for (int s = 0; s < STREAMS; s++)
        aclrtDestroyStream(streams[s]);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

static void run_all_callers(void) {
    pthread_t threads[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        callers[i].mismatches = callers[i].failures = 0;
        assert_int_equal(pthread_create(&threads[i], NULL, caller_main, &callers[i]), 0);
    }
    for (int i = 0; i < CALLERS; i++)
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    for (int i = 0; i < CALLERS; i++) {
        if (callers[i].failures || callers[i].mismatches)
            print_error("caller %d (%s): %d failed calls, %d results differ\n", i,
                        callers[i].stream ? "aclnn" : "native", callers[i].failures,
                        callers[i].mismatches);
        assert_int_equal(callers[i].failures, 0);
        assert_int_equal(callers[i].mismatches, 0);
    }
}

/* Thread budgets below, at and above the CPU count: same bytes every time. */
static void test_many_streams_and_native_callers(void **state) {
    (void)state;
    for (int budget = 1; budget <= 4; budget++) {
        assert_int_equal(ropekit_set_num_threads(budget), ROPEKIT_OK);
        run_all_callers();
    }
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Streams with nothing to do, and the pool after the last call, use no CPU. */
static void test_idle_streams_use_no_cpu(void **state) {
    (void)state;
    run_all_callers();
    struct timespec settle = {0, 20 * 1000 * 1000}, wait = {0, 50 * 1000 * 1000};
    nanosleep(&settle, NULL);
    const double c0 = cpu_seconds();
    nanosleep(&wait, NULL);
    const double used_ms = (cpu_seconds() - c0) * 1e3;
    print_message("CPU of %d idle streams and the pool over 50 ms: %.3f ms\n", STREAMS, used_ms);
    assert_true(used_ms < 1.0);
}

/* aclFinalize drains and stops the default stream; a new aclInit starts again. */
static void test_finalize_and_init_again(void **state) {
    (void)state;
    for (int s = 0; s < STREAMS; s++)
        assert_int_equal(aclrtDestroyStream(streams[s]), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    for (int s = 0; s < STREAMS; s++)
        assert_int_equal(aclrtCreateStream(&streams[s]), ACL_SUCCESS);
    for (int i = 0; i < STREAMS * LAUNCHERS_PER_STREAM; i++)
        callers[i].stream = streams[i % STREAMS];
    callers[0].stream = NULL; /* and one launcher on the default stream */
    run_all_callers();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_streams_and_native_callers),
        cmocka_unit_test(test_idle_streams_use_no_cpu),
        cmocka_unit_test(test_finalize_and_init_again),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
