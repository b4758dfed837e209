/* aclnnApplyRotaryPosEmb and aclnnApplyRotaryPosEmbV2 (SPEC §14): one test per row of
 * the validation table (SPEC §14.4) for each entry point: the code, a message naming the
 * GetWorkspaceSize, the argument and the rule, neither output written, every buffer
 * unchanged, and the CANN-rules plan (ropekit_cann.h) refusing the call with the same
 * code and message. Then the results of both entry points, phase 1 + phase 2 on a stream,
 * against the float64 reference for each layout, dtype and mode, with strided views. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "common/acl_fixture.h"
#include "ropekit/ropekit_cann.h"
#include "testkit/apply_rotary_reference.h"
#include "testkit/tolerance.h"

enum { Q, K, C, S, NT };
enum ar_null {
    AR_NULL_NONE,
    AR_NULL_Q,
    AR_NULL_K,
    AR_NULL_COS,
    AR_NULL_SIN,
    AR_NULL_MODE,
    AR_NULL_WS,
    AR_NULL_EXEC
};

struct ar_case {
    bool v2;
    aclDataType dt[NT];
    int64_t nd[NT];
    int64_t dims[NT][8];
    const int64_t *strides[NT]; /* NULL: contiguous */
    int64_t layout;
    const char *mode;
    enum ar_null null_arg;
    int no_data; /* -1: none, else the tensor without data */
};

static const char *const ar_names[NT] = {"queryRef", "keyRef", "cos", "sin"};

/* q [2, 3, 4, 128], k [2, 3, 2, 128], cos/sin [2, 3, 1, 128] f32, BSND, "half". */
static struct ar_case ar_default(bool v2) {
    struct ar_case k;
    memset(&k, 0, sizeof k);
    k.v2 = v2;
    const int64_t d[NT][4] = {{2, 3, 4, 128}, {2, 3, 2, 128}, {2, 3, 1, 128}, {2, 3, 1, 128}};
    for (int i = 0; i < NT; i++) {
        k.dt[i] = ACL_FLOAT;
        k.nd[i] = 4;
        memcpy(k.dims[i], d[i], sizeof d[i]);
    }
    k.layout = 1;
    k.mode = "half";
    k.no_data = -1;
    return k;
}

static void ar_set(struct ar_case *k, int t, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
    k->nd[t] = 4;
    k->dims[t][0] = d0, k->dims[t][1] = d1, k->dims[t][2] = d2, k->dims[t][3] = d3;
}

static aclrtStream ar_stream;

static int group_setup(void **state) {
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        return -1;
    return aclrtCreateStream(&ar_stream) == ACL_SUCCESS ? 0 : -1;
}

static int group_teardown(void **state) {
    (void)state;
    int bad = aclrtDestroyStream(ar_stream) != ACL_SUCCESS;
    bad |= aclrtResetDevice(0) != ACL_SUCCESS;
    bad |= aclFinalize() != ACL_SUCCESS;
    return bad ? -1 : 0;
}

struct ar_built {
    struct fx_tensor t[NT];
    void *copy[NT];
};

static void ar_build(const struct ar_case *k, struct ar_built *b) {
    for (int i = 0; i < NT; i++) {
        assert_int_equal(fx_tensor_init(&b->t[i], k->dt[i], k->nd[i], k->dims[i], k->strides[i], 0,
                                        k->no_data != i),
                         0);
        /* distinct values per tensor, so that swapping two would show */
        if (k->dt[i] == ACL_FLOAT || k->dt[i] == ACL_FLOAT16 || k->dt[i] == ACL_BF16)
            for (size_t e = 0; e < b->t[i].bytes / tk_acl_item(k->dt[i]); e++)
                fx_store(k->dt[i], b->t[i].buf, e,
                         fx_pattern(e, 101u * (unsigned)i + 7u) / (i >= C ? 4.0f : 1.0f));
        b->copy[i] = malloc(b->t[i].bytes ? b->t[i].bytes : 1);
        assert_non_null(b->copy[i]);
        memcpy(b->copy[i], b->t[i].buf, b->t[i].bytes);
    }
}

static void ar_free(struct ar_built *b) {
    for (int i = 0; i < NT; i++) {
        fx_tensor_free(&b->t[i]);
        free(b->copy[i]);
    }
}

static aclnnStatus ar_phase1(const struct ar_case *k, const struct ar_built *b, uint64_t *ws,
                             aclOpExecutor **exec) {
    aclTensor *t[NT];
    for (int i = 0; i < NT; i++)
        t[i] = (int)k->null_arg == AR_NULL_Q + i ? NULL : b->t[i].t;
    uint64_t *w = k->null_arg == AR_NULL_WS ? NULL : ws;
    aclOpExecutor **e = k->null_arg == AR_NULL_EXEC ? NULL : exec;
    if (!k->v2)
        return aclnnApplyRotaryPosEmbGetWorkspaceSize(t[Q], t[K], t[C], t[S], k->layout, w, e);
    char mode[32];
    snprintf(mode, sizeof mode, "%s", k->mode ? k->mode : "");
    return aclnnApplyRotaryPosEmbV2GetWorkspaceSize(
        t[Q], t[K], t[C], t[S], k->layout, k->null_arg == AR_NULL_MODE ? NULL : mode, w, e);
}

static ropekit_tensor ar_view(const struct fx_tensor *f, bool with_data) {
    return ropekit_tensor_make(with_data ? f->buf : NULL, (ropekit_dtype)f->dt, (int32_t)f->ndim,
                               f->dims, f->strides);
}

#define WS_SENTINEL UINT64_C(0x5eed5eed5eed5eed)
static max_align_t exec_sentinel_obj;
#define EXEC_SENTINEL ((aclOpExecutor *)(void *)&exec_sentinel_obj)

/* Phase 1 refuses the case with `code` and a message holding every needle (NULL-ended);
 * nothing written; the CANN-rules plan refuses it alike (unless the verdict came from
 * data or from phase 1's own outputs, which a plan does not have). */
static void expect_reject(const struct ar_case *k, aclnnStatus code, ...) {
    struct ar_built b;
    ar_build(k, &b);
    uint64_t ws = WS_SENTINEL;
    aclOpExecutor *exec = EXEC_SENTINEL;
    aclnnStatus st = ar_phase1(k, &b, &ws, &exec);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");
    bool ok = true;
    if (st != code) {
        print_error("code %d, want %d; message \"%s\"\n", (int)st, (int)code, msg);
        ok = false;
    }
    const char *api = k->v2 ? "aclnnApplyRotaryPosEmbV2GetWorkspaceSize"
                            : "aclnnApplyRotaryPosEmbGetWorkspaceSize";
    if (!strstr(msg, api)) {
        print_error("message \"%s\" does not name %s\n", msg, api);
        ok = false;
    }
    va_list ap;
    va_start(ap, code);
    for (const char *needle = va_arg(ap, const char *); needle; needle = va_arg(ap, const char *))
        if (!strstr(msg, needle)) {
            print_error("message \"%s\" does not mention \"%s\"\n", msg, needle);
            ok = false;
        }
    va_end(ap);
    if (ws != WS_SENTINEL || exec != EXEC_SENTINEL) {
        print_error("phase 1 wrote an output although it failed\n");
        ok = false;
    }
    for (int i = 0; i < NT; i++)
        if (memcmp(b.t[i].buf, b.copy[i], b.t[i].bytes) != 0) {
            print_error("%s storage changed\n", ar_names[i]);
            ok = false;
        }
    if (k->null_arg != AR_NULL_WS && k->null_arg != AR_NULL_EXEC && k->no_data < 0) {
        ropekit_tensor v[NT];
        for (int i = 0; i < NT; i++)
            v[i] = ar_view(&b.t[i], true);
        ropekit_plan *plan = NULL;
        int32_t plan_code = -1;
        ropekit_status pst = ropekit_cann_apply_rotary_plan_create(
            k->v2 ? ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2 : ROPEKIT_CANN_APPLY_ROTARY_POS_EMB,
            k->null_arg == AR_NULL_Q ? NULL : &v[Q], k->null_arg == AR_NULL_K ? NULL : &v[K],
            k->null_arg == AR_NULL_COS ? NULL : &v[C], k->null_arg == AR_NULL_SIN ? NULL : &v[S],
            k->layout, k->null_arg == AR_NULL_MODE ? NULL : k->mode, &plan, &plan_code);
        /* the plan sees no data: an overlap of two tensors is refused at its execute */
        if (pst == ROPEKIT_OK && strstr(msg, "overlaps")) {
            ropekit_status est =
                ropekit_apply_rotary_execute(plan, b.t[Q].buf, b.t[K].buf, b.t[C].buf, b.t[S].buf);
            if (est == ROPEKIT_OK) {
                print_error("the CANN-rules plan ran what phase 1 refused\n");
                ok = false;
            }
            ropekit_plan_destroy(plan);
        } else if (pst == ROPEKIT_OK || plan_code != (int32_t)code ||
                   strcmp(ropekit_last_error(), msg) != 0 || plan) {
            print_error("CANN-rules plan: status %d code %d \"%s\"; phase 1 %d \"%s\"\n", (int)pst,
                        (int)plan_code, ropekit_last_error(), (int)code, msg);
            ok = false;
            ropekit_plan_destroy(plan);
        }
    }
    ar_free(&b);
    if (!ok)
        fail();
}

#define REJECT(k, code, ...) expect_reject(k, code, __VA_ARGS__, (const char *)NULL)
#define NULLPTR ACLNN_ERR_PARAM_NULLPTR
#define INVALID ACLNN_ERR_PARAM_INVALID

/* Each row of SPEC §14.4 for V1 (v2 false) or V2 (true). */
static void rows_of(bool v2) {
    struct ar_case k;
    /* NULL */
    for (int i = 0; i < NT; i++) {
        k = ar_default(v2);
        k.null_arg = (enum ar_null)(AR_NULL_Q + i);
        char what[32];
        snprintf(what, sizeof what, "%s = NULL", ar_names[i]);
        REJECT(&k, NULLPTR, what);
    }
    k = ar_default(v2);
    k.null_arg = AR_NULL_WS;
    REJECT(&k, NULLPTR, "workspaceSize = NULL");
    k = ar_default(v2);
    k.null_arg = AR_NULL_EXEC;
    REJECT(&k, NULLPTR, "executor = NULL");
    if (v2) {
        k = ar_default(v2);
        k.null_arg = AR_NULL_MODE;
        REJECT(&k, NULLPTR, "rotaryMode = NULL");
    }
    /* LAYOUT: aclCreateTensor refuses a negative dim, so the row is the CANN-rules plan's */
    {
        float buf[4] = {0};
        const int64_t good[4] = {1, 1, 1, 4}, bad[4] = {1, -1, 1, 4}, st[4] = {4, 4, 4, 1};
        ropekit_tensor g = ropekit_tensor_make(buf, ROPEKIT_F32, 4, good, st);
        ropekit_tensor n = ropekit_tensor_make(buf, ROPEKIT_F32, 4, bad, st);
        ropekit_plan *plan = NULL;
        int32_t code = -1;
        assert_int_equal(
            ropekit_cann_apply_rotary_plan_create(v2 ? ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2
                                                     : ROPEKIT_CANN_APPLY_ROTARY_POS_EMB,
                                                  &g, &g, &n, &n, 1, "half", &plan, &code),
            ROPEKIT_INVALID_ARGUMENT);
        assert_int_equal(code, INVALID);
        assert_null(plan);
        assert_non_null(strstr(ropekit_last_error(), "cos"));
    }
    /* DATA_NULL */
    k = ar_default(v2);
    k.no_data = K;
    REJECT(&k, NULLPTR, "keyRef data = NULL");
    /* Q_DTYPE */
    k = ar_default(v2);
    k.dt[Q] = k.dt[K] = k.dt[C] = k.dt[S] = ACL_DOUBLE;
    REJECT(&k, INVALID, "queryRef dtype", "float32, float16 or bfloat16");
    /* DTYPE: each of key, cos, sin of another dtype */
    for (int i = K; i < NT; i++) {
        k = ar_default(v2);
        k.dt[i] = ACL_FLOAT16;
        char what[48];
        snprintf(what, sizeof what, "%s dtype = %d: must equal queryRef dtype", ar_names[i],
                 (int)ACL_FLOAT16);
        REJECT(&k, INVALID, what);
    }
    /* RANK */
    k = ar_default(v2);
    k.nd[K] = 3;
    REJECT(&k, INVALID, "keyRef shape", "must be 4-D");
    k = ar_default(v2);
    k.nd[C] = k.nd[S] = 5;
    k.dims[C][4] = k.dims[S][4] = 1;
    REJECT(&k, INVALID, "cos shape", "must be 4-D");
    /* CS_SHAPE */
    k = ar_default(v2);
    ar_set(&k, S, 1, 3, 1, 128);
    REJECT(&k, INVALID, "sin shape = [1,3,1,128]: must equal cos shape [2,3,1,128]");
    /* EMPTY */
    k = ar_default(v2);
    ar_set(&k, K, 2, 3, 0, 128);
    REJECT(&k, INVALID, "keyRef shape = [2,3,0,128]: must not be empty");
    /* LAYOUT_VALUE */
    k = ar_default(v2);
    k.layout = v2 ? 4 : 2;
    REJECT(&k, INVALID,
           v2 ? "layout = 4: must be 1 (BSND), 2 (SBND), 3 (BNSD)"
              : "layout = 2: must be 1 (BSND)");
    /* MODE (V2; V1 passes "half") */
    if (v2) {
        k = ar_default(v2);
        k.mode = "interleave-half";
        REJECT(&k, INVALID,
               "rotaryMode = \"interleave-half\": must be \"half\", \"interleave\" or "
               "\"quarter\"");
        k = ar_default(v2);
        k.mode = "HALF";
        REJECT(&k, INVALID, "rotaryMode = \"HALF\"");
    }
    /* QK_SHAPE: key's S differs */
    k = ar_default(v2);
    ar_set(&k, K, 2, 4, 2, 128);
    REJECT(&k, INVALID,
           "keyRef shape = [2,4,2,128]: dim 1 (S of BSND) is 4, must equal "
           "queryRef's 3");
    /* CS_DIMS: cos's B differs (both docs: cos's B is query's) */
    k = ar_default(v2);
    ar_set(&k, C, 1, 3, 1, 128);
    ar_set(&k, S, 1, 3, 1, 128);
    REJECT(&k, INVALID,
           "cos shape = [1,3,1,128]: dim 0 (B of BSND) is 1, must equal "
           "queryRef's 2");
    /* D_VALUE */
    k = ar_default(v2);
    for (int i = 0; i < NT; i++)
        k.dims[i][3] = 64;
    REJECT(&k, INVALID, "queryRef last dim D = 64: must be 128");
    /* CS_N */
    k = ar_default(v2);
    ar_set(&k, C, 2, 3, 2, 128);
    ar_set(&k, S, 2, 3, 2, 128);
    REJECT(&k, INVALID, "cos shape = [2,3,2,128]: dim 2 (N of BSND) is 2, must be 1");
    /* OVERLAP: query's N stride 0, and key over query's memory (a view with an offset) */
    k = ar_default(v2);
    static const int64_t self[4] = {3 * 4 * 128, 4 * 128, 0, 1};
    k.strides[Q] = self;
    REJECT(&k, INVALID, "queryRef strides: two elements share one address");
}

static void test_v1_rules(void **state) {
    (void)state;
    rows_of(false);
}

static void test_v2_rules(void **state) {
    (void)state;
    rows_of(true);
}

/* V2 with layout 3 (BNSD): the dims are read by the layout. */
static void test_v2_layout_dims(void **state) {
    (void)state;
    struct ar_case k = ar_default(true);
    k.layout = 3;
    ar_set(&k, Q, 2, 4, 3, 128);
    ar_set(&k, K, 2, 2, 3, 128);
    ar_set(&k, C, 2, 1, 3, 128);
    ar_set(&k, S, 2, 1, 3, 128);
    ar_set(&k, C, 2, 2, 3, 128);
    ar_set(&k, S, 2, 2, 3, 128);
    REJECT(&k, INVALID, "cos shape = [2,2,3,128]: dim 1 (N of BNSD) is 2, must be 1");
    k = ar_default(true);
    k.layout = 2; /* SBND: q [S, B, N, D] = [2, 3, 4, 128]; k's B differs */
    ar_set(&k, K, 2, 5, 2, 128);
    REJECT(&k, INVALID, "dim 1 (B of SBND) is 5");
}

/* key and query in one buffer: phase 1 refuses the overlap (the plan at its execute). */
static void test_overlap_of_two(void **state) {
    (void)state;
    float *buf = calloc(2 * 3 * 4 * 128, sizeof(float));
    float *c = calloc(2 * 3 * 128, sizeof(float)), *s = calloc(2 * 3 * 128, sizeof(float));
    assert_non_null(buf);
    const int64_t qd[4] = {2, 3, 4, 128}, qs[4] = {1536, 512, 128, 1};
    const int64_t kd[4] = {2, 3, 2, 128}, ks[4] = {768, 256, 128, 1};
    const int64_t cd[4] = {2, 3, 1, 128}, cs[4] = {384, 128, 128, 1};
    for (int v2 = 0; v2 < 2; v2++) {
        aclTensor *q = aclCreateTensor(qd, 4, ACL_FLOAT, qs, 0, ACL_FORMAT_ND, qd, 4, buf);
        aclTensor *k = aclCreateTensor(kd, 4, ACL_FLOAT, ks, 0, ACL_FORMAT_ND, kd, 4, buf + 128);
        aclTensor *tc = aclCreateTensor(cd, 4, ACL_FLOAT, cs, 0, ACL_FORMAT_ND, cd, 4, c);
        aclTensor *ts = aclCreateTensor(cd, 4, ACL_FLOAT, cs, 0, ACL_FORMAT_ND, cd, 4, s);
        uint64_t ws = WS_SENTINEL;
        aclOpExecutor *exec = EXEC_SENTINEL;
        char mode[] = "half";
        aclnnStatus st =
            v2 ? aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q, k, tc, ts, 1, mode, &ws, &exec)
               : aclnnApplyRotaryPosEmbGetWorkspaceSize(q, k, tc, ts, 1, &ws, &exec);
        assert_int_equal(st, ACLNN_ERR_PARAM_INVALID);
        assert_non_null(strstr(aclGetRecentErrMsg(), "queryRef memory overlaps keyRef"));
        assert_true(ws == WS_SENTINEL && exec == EXEC_SENTINEL);
        aclDestroyTensor(q), aclDestroyTensor(k), aclDestroyTensor(tc), aclDestroyTensor(ts);
    }
    free(buf), free(c), free(s);
}

/* ---- results ---- */

static void check_results(const struct ar_built *b, int mode, const char *what) {
    for (int i = Q; i <= K; i++) {
        ropekit_tensor x = ar_view(&b->t[i], true);
        ropekit_tensor x0 = ropekit_tensor_make(b->copy[i], x.dtype, x.ndim, x.shape, x.strides);
        ropekit_tensor c = ar_view(&b->t[C], true), s = ar_view(&b->t[S], true);
        int64_t n = fx_numel(b->t[i].dims, b->t[i].ndim);
        double *ref = malloc((size_t)n * sizeof *ref), *mag = malloc((size_t)n * sizeof *mag);
        assert_non_null(ref);
        assert_non_null(mag);
        tk_ref_apply_rotary(mode, 0, &x0, &c, &s, ref, mag);
        struct tk_tol tol = tk_tol_of(x.dtype);
        struct tk_err_stats st;
        tk_err_stats_init(&st);
        for (int64_t e = 0; e < n; e++)
            tk_err_check(&st, &tol, tk_view_load(&x, e), ref[e], mag[e], e);
        if (st.bad)
            fail_msg("%s %s: %lld bad (first %lld: got %g ref %g)", what, ar_names[i],
                     (long long)st.bad, (long long)st.first_bad, st.first_got, st.first_ref);
        free(ref), free(mag);
    }
}

static void run_ok(const struct ar_case *k, int mode, const char *what) {
    struct ar_built b;
    ar_build(k, &b);
    uint64_t ws = WS_SENTINEL;
    aclOpExecutor *exec = NULL;
    aclnnStatus st = ar_phase1(k, &b, &ws, &exec);
    if (st != ACLNN_SUCCESS)
        fail_msg("%s: phase 1 %d: %s", what, (int)st, aclGetRecentErrMsg());
    assert_int_equal(ws, 0);
    st = k->v2 ? aclnnApplyRotaryPosEmbV2(NULL, 0, exec, ar_stream)
               : aclnnApplyRotaryPosEmb(NULL, 0, exec, ar_stream);
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(ar_stream), ACL_SUCCESS);
    check_results(&b, mode, what);
    /* cos and sin are inputs */
    assert_memory_equal(b.t[C].buf, b.copy[C], b.t[C].bytes);
    assert_memory_equal(b.t[S].buf, b.copy[S], b.t[S].bytes);
    ar_free(&b);
}

static void test_results(void **state) {
    (void)state;
    const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    static const char *const modes[] = {"half", "interleave", "quarter"};
    const int mode_ids[] = {ROPEKIT_ROTARY_HALF, ROPEKIT_ROTARY_INTERLEAVE, ROPEKIT_ROTARY_QUARTER};
    for (int v2 = 0; v2 < 2; v2++)
        for (int layout = 1; layout <= (v2 ? 3 : 1); layout++)
            for (size_t d = 0; d < 3; d++)
                for (int m = 0; m < (v2 ? 3 : 1); m++) {
                    struct ar_case k = ar_default(v2 != 0);
                    k.layout = layout;
                    k.mode = modes[m];
                    /* B 2, S 3, Nq 4, Nk 2 in the layout's order */
                    const int64_t b = 2, s = 3;
                    const int64_t n[2] = {4, 2};
                    for (int i = 0; i < NT; i++) {
                        int64_t nn = i < C ? n[i] : 1;
                        k.dt[i] = dts[d];
                        if (layout == 1)
                            ar_set(&k, i, b, s, nn, 128);
                        else if (layout == 2)
                            ar_set(&k, i, s, b, nn, 128);
                        else
                            ar_set(&k, i, b, nn, s, 128);
                    }
                    char what[96];
                    snprintf(what, sizeof what, "%s layout %d dtype %d mode %s", v2 ? "V2" : "V1",
                             layout, (int)dts[d], modes[m]);
                    run_ok(&k, mode_ids[m], what);
                }
}

/* Non-contiguous views (CANN's docs: non-contiguous tensors are taken): query with
 * padded rows, key transposed (a BSND view of BNSD memory). */
static void test_strided_results(void **state) {
    (void)state;
    struct ar_case k = ar_default(true);
    static const int64_t qs[4] = {3 * 4 * 136, 4 * 136, 136, 1}; /* rows padded to 136 */
    static const int64_t ks[4] = {2 * 3 * 128, 128, 3 * 128, 1}; /* [B, N, S, D] memory */
    k.strides[Q] = qs;
    k.strides[K] = ks;
    k.mode = "interleave";
    run_ok(&k, ROPEKIT_ROTARY_INTERLEAVE, "strided");
}

/* The CANN-rules plan accepts what phase 1 accepts and computes the same bytes. */
static void test_cann_plan_same_bytes(void **state) {
    (void)state;
    struct ar_case k = ar_default(true);
    k.mode = "quarter";
    struct ar_built a, b;
    ar_build(&k, &a);
    ar_build(&k, &b);
    uint64_t ws;
    aclOpExecutor *exec = NULL;
    assert_int_equal(ar_phase1(&k, &a, &ws, &exec), ACLNN_SUCCESS);
    assert_int_equal(aclnnApplyRotaryPosEmbV2(NULL, 0, exec, ar_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(ar_stream), ACL_SUCCESS);
    ropekit_tensor v[NT];
    for (int i = 0; i < NT; i++)
        v[i] = ar_view(&b.t[i], false);
    ropekit_plan *plan = NULL;
    int32_t code = -1;
    assert_int_equal(ropekit_cann_apply_rotary_plan_create(ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2,
                                                           &v[Q], &v[K], &v[C], &v[S], 1, "quarter",
                                                           &plan, &code),
                     ROPEKIT_OK);
    assert_int_equal(code, 0);
    assert_int_equal(
        ropekit_apply_rotary_execute(plan, b.t[Q].buf, b.t[K].buf, b.t[C].buf, b.t[S].buf),
        ROPEKIT_OK);
    assert_memory_equal(a.t[Q].buf, b.t[Q].buf, a.t[Q].bytes);
    assert_memory_equal(a.t[K].buf, b.t[K].buf, a.t[K].bytes);
    ropekit_plan_destroy(plan);
    assert_string_equal(ropekit_cann_op_name(ROPEKIT_CANN_APPLY_ROTARY_POS_EMB),
                        "aclnnApplyRotaryPosEmb");
    assert_int_equal(ropekit_cann_apply_rotary_plan_create(ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE,
                                                           &v[Q], &v[K], &v[C], &v[S], 1, "half",
                                                           &plan, &code),
                     ROPEKIT_INVALID_ARGUMENT);
    ar_free(&a);
    ar_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v1_rules),
        cmocka_unit_test(test_v2_rules),
        cmocka_unit_test(test_v2_layout_dims),
        cmocka_unit_test(test_overlap_of_two),
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_strided_results),
        cmocka_unit_test(test_cann_plan_same_bytes),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
