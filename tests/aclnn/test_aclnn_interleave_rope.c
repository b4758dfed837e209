/* aclnnInterleaveRope (SPEC §17): one test per row of the validation table (code, message
 * naming the GetWorkspaceSize and what is wrong, nothing written: no buffer, no executor, no
 * workspace size; the CANN-rules plan refusing alike), and results for f16 and bf16 over the
 * shapes of CANN's unit tests and tiling paths, contiguous and as non-contiguous views,
 * against a float64 model of CANN's formula (even elements, then odd ones, rotated as
 * halves). The aclnn call, its CANN-rules plan and the native call that expresses it
 * (ropekit_partial_rotary_out, interleave-half over [0, D)) write the same bytes. */
#include "pr_harness.h"

#include <stdlib.h>

#include "aclnnop/aclnn_interleave_rope.h"
#include "common/aclnn_case.h"
#include "testkit/tolerance.h"

enum { T_X, T_COS, T_SIN, T_OUT, T_COUNT };
enum ir_null { N_NONE, N_X, N_COS, N_SIN, N_OUT, N_WS, N_EXEC };
/* out over another tensor's memory: x itself (same view), x shifted by 4 elements, cos, or a
 * view whose elements share one address */
enum ir_alias { A_NONE, A_OUT_IS_X, A_OUT_SHIFTED_X, A_OUT_IS_COS, A_OUT_SELF };
/* How a tensor is laid out: contiguous, rows pitched D + 8 apart, every other element, or
 * dims 1 and 2 swapped in memory (x [B,N,S,D] stored as [B,S,N,D]). */
enum ir_pad { P_DENSE, P_PITCH, P_STEP2, P_SWAP12 };

struct ir_case {
    aclDataType dt[T_COUNT];
    int64_t nd[T_COUNT];
    int64_t dims[T_COUNT][8];
    enum ir_pad pad[T_COUNT];
    int64_t offset[T_COUNT];
    enum ir_null null_arg;
    int no_data; /* T_<tensor> + 1 whose data pointer is NULL; 0: none */
    enum ir_alias alias;
};

/* x and out [b,n,s,64], cos and sin [b,1,cs,64]: all f16, contiguous. */
static struct ir_case ir_shape(aclDataType dt, int64_t b, int64_t n, int64_t s, int64_t cs) {
    struct ir_case k;
    memset(&k, 0, sizeof k);
    for (int t = 0; t < T_COUNT; t++) {
        k.dt[t] = dt;
        k.nd[t] = 4;
    }
    fx_set4(k.dims[T_X], b, n, s, 64);
    fx_set4(k.dims[T_OUT], b, n, s, 64);
    fx_set4(k.dims[T_COS], b, 1, cs, 64);
    fx_set4(k.dims[T_SIN], b, 1, cs, 64);
    return k;
}

/* CANN's op_api unit test: x [8,1,1,64], cos/sin [8,1,1,64], f16. */
static struct ir_case ir_default(void) {
    return ir_shape(ACL_FLOAT16, 8, 1, 1, 1);
}

static void ir_strides(const struct ir_case *k, int t, int64_t *st) {
    const int64_t *d = k->dims[t];
    const int64_t nd = k->nd[t];
    int64_t run = 1;
    for (int64_t i = nd - 1; i >= 0; i--) {
        st[i] = run * (k->pad[t] == P_STEP2 ? 2 : 1);
        run *= d[i] > 1 ? d[i] : 1;
        if (i == nd - 1 && k->pad[t] == P_PITCH)
            run += 8;
    }
    if (k->pad[t] == P_SWAP12 && nd == 4) {
        st[3] = 1;
        st[1] = d[3];
        st[2] = d[3] * (d[1] > 1 ? d[1] : 1);
        st[0] = st[2] * (d[2] > 1 ? d[2] : 1);
    }
}

struct ir_built {
    struct fx_tensor t[T_COUNT];
    aclTensor *alias_out; /* out over another tensor's memory (alias cases) */
    void *orig[T_COUNT];  /* the storages before the call */
};

static void fill_random(struct fx_tensor *f, uint32_t seed) {
    const size_t n = f->bytes / tk_acl_item(f->dt);
    if (f->dt != ACL_FLOAT16 && f->dt != ACL_BF16 && f->dt != ACL_FLOAT)
        return;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        fx_store(f->dt, f->buf, i, ((float)(seed >> 8 & 0xffff) - 32768.0f) / 16384.0f);
    }
}

static void ir_build(const struct ir_case *k, struct ir_built *b) {
    memset(b, 0, sizeof *b);
    for (int t = 0; t < T_COUNT; t++) {
        int64_t st[8];
        ir_strides(k, t, st);
        assert_int_equal(fx_tensor_init(&b->t[t], k->dt[t], k->nd[t], k->dims[t], st, k->offset[t],
                                        k->no_data != t + 1),
                         0);
        fill_random(&b->t[t], 11u + 7u * (unsigned)t);
    }
    memset(b->t[T_OUT].buf, 0x5a, b->t[T_OUT].bytes);
    const struct fx_tensor *x = &b->t[T_X], *o = &b->t[T_OUT];
    if (k->alias == A_OUT_IS_X)
        b->alias_out = aclCreateTensor(x->dims, (uint64_t)x->ndim, x->dt, x->strides, x->offset,
                                       ACL_FORMAT_ND, NULL, 0, x->buf);
    else if (k->alias == A_OUT_SHIFTED_X)
        b->alias_out = aclCreateTensor(o->dims, (uint64_t)o->ndim, o->dt, o->strides, 0,
                                       ACL_FORMAT_ND, NULL, 0, (char *)x->buf + 4 * 2);
    else if (k->alias == A_OUT_IS_COS)
        b->alias_out = aclCreateTensor(o->dims, (uint64_t)o->ndim, o->dt, o->strides, 0,
                                       ACL_FORMAT_ND, NULL, 0, b->t[T_COS].buf);
    else if (k->alias == A_OUT_SELF) {
        const int64_t st[4] = {0, 0, 0, 1};
        b->alias_out = aclCreateTensor(o->dims, (uint64_t)o->ndim, o->dt, st, 0, ACL_FORMAT_ND,
                                       NULL, 0, o->buf);
    }
    if (k->alias != A_NONE)
        assert_non_null(b->alias_out);
    for (int t = 0; t < T_COUNT; t++)
        b->orig[t] = pr_dup(b->t[t].buf, b->t[t].bytes);
}

static void ir_free(struct ir_built *b) {
    for (int t = 0; t < T_COUNT; t++) {
        fx_tensor_free(&b->t[t]);
        free(b->orig[t]);
    }
    if (b->alias_out)
        aclDestroyTensor(b->alias_out);
}

/* The native view of out, and its data, for the CANN-rules plan and the native call. */
static ropekit_tensor ir_out_view(const struct ir_case *k, const struct ir_built *b, void **data) {
    const struct fx_tensor *x = &b->t[T_X], *o = &b->t[T_OUT];
    const int64_t self_st[4] = {0, 0, 0, 1};
    ropekit_tensor v = pr_native_view(o, o->buf);
    if (k->alias == A_OUT_IS_X)
        v = pr_native_view(x, x->buf);
    else if (k->alias == A_OUT_SHIFTED_X)
        v.data = (char *)x->buf + 4 * 2;
    else if (k->alias == A_OUT_IS_COS)
        v.data = b->t[T_COS].buf;
    else if (k->alias == A_OUT_SELF)
        memcpy(v.strides, self_st, sizeof self_st);
    *data = v.data;
    return v;
}

static aclnnStatus ir_phase1(const struct ir_case *k, const struct ir_built *b, uint64_t *ws,
                             aclOpExecutor **exec) {
    aclTensor *out = b->alias_out ? b->alias_out : b->t[T_OUT].t;
    return aclnnInterleaveRopeGetWorkspaceSize(
        k->null_arg == N_X ? NULL : b->t[T_X].t, k->null_arg == N_COS ? NULL : b->t[T_COS].t,
        k->null_arg == N_SIN ? NULL : b->t[T_SIN].t, k->null_arg == N_OUT ? NULL : out,
        k->null_arg == N_WS ? NULL : ws, k->null_arg == N_EXEC ? NULL : exec);
}

struct ir_run_data {
    void *x, *c, *s, *o;
};
static ropekit_status ir_run_plan(const ropekit_plan *plan, void *ctx) {
    const struct ir_run_data *d = ctx;
    return ropekit_partial_rotary_out_execute(plan, d->x, d->c, d->s, d->o);
}

/* The CANN-rules plan of the call: refused alike (pr_cann_agrees). */
static bool ir_cann_refuses(const struct ir_case *k, struct ir_built *b, aclnnStatus code,
                            const struct pr_message *msg) {
    if (k->null_arg == N_WS || k->null_arg == N_EXEC)
        return true;
    ropekit_tensor v[T_COUNT];
    for (int t = 0; t < T_OUT; t++)
        v[t] = pr_native_view(&b->t[t], k->no_data == t + 1 ? NULL : b->t[t].buf);
    void *odata;
    v[T_OUT] = ir_out_view(k, b, &odata);
    if (k->no_data == T_OUT + 1)
        v[T_OUT].data = NULL;
    struct ir_run_data d = {v[T_X].data, v[T_COS].data, v[T_SIN].data, v[T_OUT].data};
    ropekit_plan *plan = NULL;
    int32_t plan_code = -1;
    ropekit_status st = ropekit_cann_interleave_rope_plan_create(
        k->null_arg == N_X ? NULL : &v[T_X], k->null_arg == N_COS ? NULL : &v[T_COS],
        k->null_arg == N_SIN ? NULL : &v[T_SIN], k->null_arg == N_OUT ? NULL : &v[T_OUT], &plan,
        &plan_code);
    return pr_cann_agrees(st, plan, plan_code, code, msg, k->no_data != 0, ir_run_plan, &d,
                          "refused call");
}

/* Phase 1 refuses with `code` and a message naming the GetWorkspaceSize and holding `piece`;
 * nothing is written; the CANN-rules plan refuses alike. */
static void expect_refused(const struct ir_case *k, aclnnStatus code, const char *piece) {
    struct ir_built b;
    ir_build(k, &b);
    uint64_t ws = PR_WS_SENTINEL;
    aclOpExecutor *exec = PR_EXEC_SENTINEL;
    aclnnStatus got = ir_phase1(k, &b, &ws, &exec);
    const char *msg = aclGetRecentErrMsg();
    const struct pr_message m = pr_message_of(msg);
    bool ok = true;
    if (got != code || !msg || !pr_contains(msg, piece) ||
        !strstr(msg, "aclnnInterleaveRopeGetWorkspaceSize")) {
        print_error("code %d (want %d), message \"%s\" (want \"%s\")\n", (int)got, (int)code,
                    msg ? msg : "(null)", piece);
        ok = false;
    }
    if (ws != PR_WS_SENTINEL || exec != PR_EXEC_SENTINEL) {
        print_error("phase 1 wrote an output although it failed\n");
        ok = false;
        if (got == ACLNN_SUCCESS && exec)
            aclDestroyAclOpExecutor(exec);
    }
    static const char *const names[T_COUNT] = {"x storage", "cos storage", "sin storage",
                                               "out storage"};
    for (int t = 0; t < T_COUNT; t++)
        ok &= pr_same(b.t[t].buf, b.orig[t], b.t[t].bytes, names[t]);
    ok &= ir_cann_refuses(k, &b, got, &m);
    for (int t = 0; t < T_COUNT; t++)
        ok &= pr_same(b.t[t].buf, b.orig[t], b.t[t].bytes, names[t]);
    ir_free(&b);
    if (!ok)
        fail();
}

#define REFUSED(code, piece, ...)                                                                  \
    do {                                                                                           \
        struct ir_case k = ir_default();                                                           \
        __VA_ARGS__;                                                                               \
        expect_refused(&k, ACLNN_ERR_##code, piece);                                               \
    } while (0)

/* ---- one test per row of SPEC §17.3 ---- */

static void test_null(void **state) {
    (void)state;
    REFUSED(PARAM_NULLPTR, "x = NULL", k.null_arg = N_X);
    REFUSED(PARAM_NULLPTR, "cos = NULL", k.null_arg = N_COS);
    REFUSED(PARAM_NULLPTR, "sin = NULL", k.null_arg = N_SIN);
    REFUSED(PARAM_NULLPTR, "out = NULL", k.null_arg = N_OUT);
    REFUSED(PARAM_NULLPTR, "workspaceSize = NULL", k.null_arg = N_WS);
    REFUSED(PARAM_NULLPTR, "executor = NULL", k.null_arg = N_EXEC);
    /* nulls come before dtypes and shapes */
    REFUSED(PARAM_NULLPTR, "out = NULL", k.null_arg = N_OUT; k.dt[T_X] = ACL_INT32;
            k.dims[T_X][3] = 32);
}

/* aclCreateTensor refuses every bad layout, so the rule shows on the CANN-rules plan, which
 * takes descriptors as they come. */
static void test_layout(void **state) {
    (void)state;
    uint16_t x[512], c[64], o[512];
    const ropekit_tensor tx = {x, ROPEKIT_F16, 4, {8, -1, 1, 64}, {64, 64, 64, 1}};
    const ropekit_tensor tc = {c, ROPEKIT_F16, 4, {8, 1, 1, 64}, {64, 64, 64, 1}};
    const ropekit_tensor to = {o, ROPEKIT_F16, 4, {8, 1, 1, 64}, {64, 64, 64, 1}};
    ropekit_plan *plan = (ropekit_plan *)&tx;
    int32_t code = 0;
    assert_int_equal(ropekit_cann_interleave_rope_plan_create(&tx, &tc, &tc, &to, &plan, &code),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_int_equal(code, ACLNN_ERR_PARAM_INVALID);
    assert_null(plan);
    assert_non_null(strstr(ropekit_last_error(), "aclnnInterleaveRopeGetWorkspaceSize"));
    /* a NULL plan pointer is reported after the tensors, as phase 1's NULL executor */
    assert_int_equal(ropekit_cann_interleave_rope_plan_create(&tc, &tc, &tc, &tc, NULL, &code),
                     ROPEKIT_NULL_POINTER);
    assert_int_equal(code, ACLNN_ERR_PARAM_NULLPTR);
}

static void test_data_null(void **state) {
    (void)state;
    REFUSED(PARAM_NULLPTR, "x data = NULL", k.no_data = T_X + 1);
    REFUSED(PARAM_NULLPTR, "out data = NULL", k.no_data = T_OUT + 1);
}

static void test_x_dtype(void **state) {
    (void)state;
    /* the op definition takes f16 and bf16 only (the op_api header's comment also names f32) */
    REFUSED(PARAM_INVALID, "x dtype = 0: must be float16 or bfloat16",
            for (int t = 0; t < T_COUNT; t++) k.dt[t] = ACL_FLOAT);
    REFUSED(PARAM_INVALID, "x dtype", k.dt[T_X] = ACL_INT32);
}

static void test_cs_dtype(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "cos dtype = 0: must be float16 or bfloat16", k.dt[T_COS] = ACL_FLOAT);
    REFUSED(PARAM_INVALID, "sin dtype", k.dt[T_SIN] = ACL_BF16);
}

static void test_dtype_pair(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "(x, cos) dtypes", k.dt[T_COS] = k.dt[T_SIN] = ACL_BF16);
}

static void test_out_dtype(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "out dtype", k.dt[T_OUT] = ACL_BF16);
    /* dtypes come before the shapes */
    REFUSED(PARAM_INVALID, "out dtype", k.dt[T_OUT] = ACL_FLOAT; k.dims[T_X][3] = 32);
}

static void test_rank(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "must be 4-D", k.nd[T_X] = k.nd[T_OUT] = 3;
            fx_set4(k.dims[T_X], 8, 1, 64, 0); fx_set4(k.dims[T_OUT], 8, 1, 64, 0));
    REFUSED(INNER_TILING_ERROR, "cos shape", k.nd[T_COS] = k.nd[T_SIN] = 3;
            fx_set4(k.dims[T_COS], 8, 1, 64, 0); fx_set4(k.dims[T_SIN], 8, 1, 64, 0));
    REFUSED(INNER_TILING_ERROR, "must be 4-D", k.nd[T_COS] = k.nd[T_SIN] = 5;
            fx_set4(k.dims[T_COS], 8, 1, 1, 1); fx_set4(k.dims[T_SIN], 8, 1, 1, 1);
            k.dims[T_COS][4] = k.dims[T_SIN][4] = 64);
}

static void test_cs_shape(void **state) {
    (void)state;
    /* CANN's tiling test: sin [33,1,1,64] against cos [32,1,1,64] */
    REFUSED(INNER_TILING_ERROR, "sin shape", k.dims[T_SIN][0] = 9);
}

static void test_out_shape(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "out shape", k.dims[T_OUT][2] = 2);
    REFUSED(INNER_TILING_ERROR, "out shape", k.nd[T_OUT] = 3; fx_set4(k.dims[T_OUT], 8, 1, 64, 0));
}

/* An empty x is no exit: every dim of x must be > 0. */
static void test_empty_x(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "every dim must be > 0", k.dims[T_X][0] = k.dims[T_OUT][0] = 0;
            k.dims[T_COS][0] = k.dims[T_SIN][0] = 0);
    REFUSED(INNER_TILING_ERROR, "every dim must be > 0", k.dims[T_X][1] = k.dims[T_OUT][1] = 0);
    REFUSED(INNER_TILING_ERROR, "every dim must be > 0", k.dims[T_X][2] = k.dims[T_OUT][2] = 0);
    REFUSED(INNER_TILING_ERROR, "every dim must be > 0", k.dims[T_X][3] = k.dims[T_OUT][3] = 0);
}

static void test_d_value(void **state) {
    (void)state;
    /* CANN's tiling test: x [32,32,1,63] */
    REFUSED(INNER_TILING_ERROR, "D = 63: must be 64", k.dims[T_X][3] = k.dims[T_OUT][3] = 63;
            k.dims[T_COS][3] = k.dims[T_SIN][3] = 63);
    REFUSED(INNER_TILING_ERROR, "D = 128: must be 64", k.dims[T_X][3] = k.dims[T_OUT][3] = 128;
            k.dims[T_COS][3] = k.dims[T_SIN][3] = 128);
    /* D is checked before cos's shape */
    REFUSED(INNER_TILING_ERROR, "D = 32: must be 64", k.dims[T_X][3] = k.dims[T_OUT][3] = 32;
            k.dims[T_COS][1] = k.dims[T_SIN][1] = 3);
}

static void test_broadcast(void **state) {
    (void)state;
    /* CANN's tiling tests: cos B 3 against x's 32, cos N 3 */
    REFUSED(INNER_TILING_ERROR, "dim 0 is 3, must be x's 8", k.dims[T_COS][0] = 3;
            k.dims[T_SIN][0] = 3);
    REFUSED(INNER_TILING_ERROR, "dim 0 is 1, must be x's 8", k.dims[T_COS][0] = 1;
            k.dims[T_SIN][0] = 1);
    REFUSED(INNER_TILING_ERROR, "dim 1 is 2, must be 1", k.dims[T_X][1] = k.dims[T_OUT][1] = 2;
            k.dims[T_COS][1] = k.dims[T_SIN][1] = 2);
    REFUSED(INNER_TILING_ERROR, "dim 2 is 2, must be 1 or x's 3",
            k.dims[T_X][2] = k.dims[T_OUT][2] = 3;
            k.dims[T_COS][2] = k.dims[T_SIN][2] = 2);
}

static void test_cs_len(void **state) {
    (void)state;
    /* CANN's tiling test: cos [32,1,1,62] */
    REFUSED(INNER_TILING_ERROR, "cos last dim = 62", k.dims[T_COS][3] = k.dims[T_SIN][3] = 62);
    REFUSED(INNER_TILING_ERROR, "cos last dim = 0", k.dims[T_COS][3] = k.dims[T_SIN][3] = 0);
}

static void test_overlap(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "out memory overlaps x", k.alias = A_OUT_SHIFTED_X);
    REFUSED(PARAM_INVALID, "out memory overlaps cos", k.alias = A_OUT_IS_COS);
    REFUSED(PARAM_INVALID, "out strides", k.alias = A_OUT_SELF);
}

/* ---- results ---- */

/* CANN's formula in float64 for one row: q = cat(x[0::2], x[1::2]),
 * y = q*cos + cat(-q[32:], q[:32])*sin; mag holds |q*cos| + |rotate_half(q)*sin|. */
static void ir_reference(const double *x, const double *c, const double *s, double *y,
                         double *mag) {
    double q[64];
    for (int j = 0; j < 32; j++) {
        q[j] = x[2 * j];
        q[32 + j] = x[2 * j + 1];
    }
    for (int i = 0; i < 64; i++) {
        const double r = i < 32 ? -q[i + 32] : q[i - 32];
        y[i] = q[i] * c[i] + r * s[i];
        mag[i] = fabs(q[i] * c[i]) + fabs(r * s[i]);
    }
}

/* Runs an accepted call and checks it: out against the float64 reference, nothing else
 * written (x, cos, sin and out's storage outside the view), the CANN-rules plan and the
 * native call writing the same bytes into a fresh copy of out's storage. */
static void expect_results(const struct ir_case *k, const char *what) {
    struct ir_built b;
    ir_build(k, &b);
    uint64_t ws = PR_WS_SENTINEL;
    aclOpExecutor *exec = NULL;
    aclnnStatus st = ir_phase1(k, &b, &ws, &exec);
    if (st != ACLNN_SUCCESS) {
        print_error("%s: phase 1: %d \"%s\"\n", what, (int)st, aclGetRecentErrMsg());
        fail();
    }
    assert_true(ws == 0);
    assert_int_equal(aclnnInterleaveRope(NULL, 0, exec, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);

    const bool in_place = k->alias == A_OUT_IS_X;
    const struct fx_tensor *x = &b.t[T_X], *c = &b.t[T_COS], *s = &b.t[T_SIN], *o = &b.t[T_OUT];
    const struct fx_tensor *ov = in_place ? x : o; /* the view written */
    /* expected storage of the written tensor: its original bytes, the view's elements set */
    unsigned char *want = pr_dup(in_place ? b.orig[T_X] : b.orig[T_OUT], ov->bytes);
    const struct tk_tol tol = tk_tol_of(tk_acl_float_dtype(k->dt[T_OUT]));
    struct tk_err_stats es;
    tk_err_stats_init(&es);
    double xv[64], cv[64], sv[64], ref[64], mag[64];
    for (int64_t i0 = 0; i0 < x->dims[0]; i0++)
        for (int64_t i1 = 0; i1 < x->dims[1]; i1++)
            for (int64_t i2 = 0; i2 < x->dims[2]; i2++) {
                for (int64_t j = 0; j < 64; j++) {
                    xv[j] = fx_load(x->dt, b.orig[T_X], fx_at4(x, i0, i1, i2, j));
                    cv[j] = fx_load(c->dt, c->buf, fx_at4_bcast(c, i0, i1, i2, j));
                    sv[j] = fx_load(s->dt, s->buf, fx_at4_bcast(s, i0, i1, i2, j));
                }
                ir_reference(xv, cv, sv, ref, mag);
                for (int64_t j = 0; j < 64; j++) {
                    const size_t at = fx_at4(ov, i0, i1, i2, j);
                    const float got = fx_load(ov->dt, ov->buf, at);
                    tk_err_check(&es, &tol, got, ref[j], mag[j],
                                 ((i0 * x->dims[1] + i1) * x->dims[2] + i2) * 64 + j);
                    fx_store(ov->dt, want, at, got);
                }
            }
    if (es.bad) {
        print_error("%s: %lld of %lld elements off, first %lld: got %g want %g\n", what,
                    (long long)es.bad, (long long)es.checked, (long long)es.first_bad, es.first_got,
                    es.first_ref);
        fail();
    }
    pr_assert_same(ov->buf, want, ov->bytes, "out's storage outside the view");
    if (!in_place) {
        pr_assert_same(x->buf, b.orig[T_X], x->bytes, "x storage");
        pr_assert_same(o->buf, want, o->bytes, "out storage");
    } else {
        pr_assert_same(o->buf, b.orig[T_OUT], o->bytes, "the unused out buffer");
    }
    pr_assert_same(c->buf, b.orig[T_COS], c->bytes, "cos storage");
    pr_assert_same(s->buf, b.orig[T_SIN], s->bytes, "sin storage");

    /* The CANN-rules plan and the native call, on fresh copies of the storages. */
    for (int way = 0; way < 2; way++) {
        void *xs = pr_dup(b.orig[T_X], x->bytes);
        void *os = in_place ? xs : pr_dup(b.orig[T_OUT], o->bytes);
        const ropekit_tensor tx = pr_native_view(x, xs), tc = pr_native_view(c, c->buf),
                             ts = pr_native_view(s, s->buf);
        const ropekit_tensor to = pr_native_view(ov, os);
        if (way == 0) {
            ropekit_plan *plan = NULL;
            int32_t code = -1;
            assert_int_equal(
                ropekit_cann_interleave_rope_plan_create(&tx, &tc, &ts, &to, &plan, &code),
                ROPEKIT_OK);
            assert_int_equal(code, 0);
            assert_int_equal(
                ropekit_partial_rotary_out_execute(plan, tx.data, tc.data, ts.data, to.data),
                ROPEKIT_OK);
            ropekit_plan_destroy(plan);
        } else {
            assert_int_equal(ropekit_partial_rotary_out(&tx, &tc, &ts, &to,
                                                        ROPEKIT_ROTARY_INTERLEAVE_HALF, 0, 64,
                                                        ROPEKIT_FORWARD),
                             ROPEKIT_OK);
        }
        pr_assert_same(os, want, ov->bytes,
                       way == 0 ? "the CANN-rules plan's out" : "ropekit_partial_rotary_out's out");
        if (!in_place) {
            pr_assert_same(xs, b.orig[T_X], x->bytes, "x after the native call");
            free(os);
        }
        free(xs);
    }
    free(want);
    ir_free(&b);
}

/* f16 and bf16 over CANN's shapes: the op_api test's [8,1,1,64]; the tiling tests' fixed
 * [32,32,1,64] against [32,1,1,64], [32,32,4,64] against B11D and B1SD cos; a split over
 * N*S ([2,3,5,64]), one row ([1,1,1,64]) and the long-sequence path (S >= 512, cos B1SD). */
static void test_results(void **state) {
    (void)state;
    static const int64_t shapes[][4] = {{8, 1, 1, 1},   {32, 32, 1, 1},  {32, 32, 4, 1},
                                        {32, 32, 4, 4}, {2, 3, 5, 5},    {2, 3, 5, 1},
                                        {1, 1, 1, 1},   {1, 2, 512, 512}};
    static const aclDataType dts[] = {ACL_FLOAT16, ACL_BF16};
    for (size_t d = 0; d < 2; d++)
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            const int64_t *sh = shapes[i];
            struct ir_case k = ir_shape(dts[d], sh[0], sh[1], sh[2], sh[3]);
            char what[96];
            snprintf(what, sizeof what, "%s [%lld,%lld,%lld,64] cos S %lld", pr_dtype_name(dts[d]),
                     (long long)sh[0], (long long)sh[1], (long long)sh[2], (long long)sh[3]);
            expect_results(&k, what);
        }
}

/* Non-contiguous views (which CANN's op definition makes contiguous first): x, cos, sin and
 * out pitched, every other element, dims 1 and 2 swapped in memory, with view offsets. */
static void test_results_strided(void **state) {
    (void)state;
    static const aclDataType dts[] = {ACL_FLOAT16, ACL_BF16};
    static const enum ir_pad pads[][T_COUNT] = {
        {P_PITCH, P_DENSE, P_DENSE, P_DENSE},  {P_STEP2, P_DENSE, P_DENSE, P_DENSE},
        {P_SWAP12, P_DENSE, P_DENSE, P_DENSE}, {P_DENSE, P_STEP2, P_PITCH, P_DENSE},
        {P_DENSE, P_DENSE, P_DENSE, P_STEP2},  {P_DENSE, P_DENSE, P_DENSE, P_SWAP12},
        {P_SWAP12, P_PITCH, P_STEP2, P_PITCH},
    };
    for (size_t d = 0; d < 2; d++)
        for (size_t p = 0; p < sizeof pads / sizeof pads[0]; p++)
            for (int cs = 0; cs < 2; cs++) {
                struct ir_case k = ir_shape(dts[d], 2, 3, 5, cs ? 5 : 1);
                memcpy(k.pad, pads[p], sizeof k.pad);
                for (int t = 0; t < T_COUNT; t++)
                    k.offset[t] = 3 * t + (int64_t)p;
                char what[96];
                snprintf(what, sizeof what, "%s layout %zu cos S %d", pr_dtype_name(dts[d]), p,
                         cs ? 5 : 1);
                expect_results(&k, what);
            }
}

/* out is x (the same data and strides): in place, as RotaryPositionEmbedding. */
static void test_out_is_x(void **state) {
    (void)state;
    for (int pad = 0; pad < 2; pad++) {
        struct ir_case k = ir_shape(ACL_BF16, 2, 3, 5, 5);
        k.pad[T_X] = pad ? P_STEP2 : P_DENSE;
        k.alias = A_OUT_IS_X;
        expect_results(&k, "in place");
    }
}

/* The op id, its name, and the slice-taking call refusing this out-of-place op. */
static void test_cann_op(void **state) {
    (void)state;
    assert_int_equal(ROPEKIT_CANN_INTERLEAVE_ROPE, 7);
    assert_string_equal(ropekit_cann_op_name(ROPEKIT_CANN_INTERLEAVE_ROPE), "aclnnInterleaveRope");
    uint16_t x[64] = {0}, c[64] = {0};
    const ropekit_tensor tx = {x, ROPEKIT_F16, 4, {1, 1, 1, 64}, {64, 64, 64, 1}};
    const ropekit_tensor tc = {c, ROPEKIT_F16, 4, {1, 1, 1, 64}, {64, 64, 64, 1}};
    ropekit_plan *plan = NULL;
    int32_t code = 0;
    assert_int_equal(ropekit_cann_partial_rotary_plan_create(ROPEKIT_CANN_INTERLEAVE_ROPE, &tx, &tc,
                                                             &tc, 3, NULL, 0, &plan, &code),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_int_equal(code, ACLNN_ERR_PARAM_INVALID);
    assert_null(plan);
    assert_non_null(strstr(ropekit_last_error(), "ropekit_cann_interleave_rope_plan_create"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_data_null),
        cmocka_unit_test(test_x_dtype),
        cmocka_unit_test(test_cs_dtype),
        cmocka_unit_test(test_dtype_pair),
        cmocka_unit_test(test_out_dtype),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_cs_shape),
        cmocka_unit_test(test_out_shape),
        cmocka_unit_test(test_empty_x),
        cmocka_unit_test(test_d_value),
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_cs_len),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_results_strided),
        cmocka_unit_test(test_out_is_x),
        cmocka_unit_test(test_cann_op),
    };
    return cmocka_run_group_tests(tests, pr_group_setup, pr_group_teardown);
}
