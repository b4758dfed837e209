/* aclnnRotaryPositionEmbeddingGrad (SPEC §16): one test per row of the validation table
 * (code, message naming the GetWorkspaceSize and the argument, nothing written: no buffer,
 * no executor, no workspace size), CANN's example call (xOptional NULL, empty dcos/dsin
 * without data: dx only), the empty-dy exit, dx in place, and dx, dcos, dsin against the
 * float64 reference for every mode, dtype and cos/sin layout the doc lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "ropekit/ropekit_cann.h"
#include "common/acl_fixture.h"
#include "common/aclnn_case.h"
#include "testkit/reference.h"
#include "testkit/tolerance.h"

/* The tensors in the operator's order. */
enum { T_DY, T_COS, T_SIN, T_X, T_DX, T_DCOS, T_DSIN, T_COUNT };
static const char *const tname[T_COUNT] = {"dy", "cos", "sin", "x", "dx", "dcos", "dsin"};
enum rg_alias { A_NONE, A_DX_IS_DY, A_DX_SHIFTED_DY, A_DX_IS_COS, A_DCOS_IS_DY, A_DSIN_IS_DCOS };

struct rg_case {
    aclDataType dt[T_COUNT];
    int64_t nd[T_COUNT];
    int64_t d[T_COUNT][4];
    int64_t mode;
    int null_tensor; /* T_COUNT: none */
    int null_ws, null_exec;
    int no_data; /* T_COUNT: none; else that tensor's data pointer is NULL */
    enum rg_alias alias;
};

/* dy, x, dx f32 [2,3,4,16]; cos, sin, dcos, dsin [1,3,1,16] (1S1D); half. */
static struct rg_case rg_default(void) {
    struct rg_case k;
    memset(&k, 0, sizeof k);
    for (int t = 0; t < T_COUNT; t++) {
        k.dt[t] = ACL_FLOAT;
        k.nd[t] = 4;
        if (t == T_COS || t == T_SIN || t == T_DCOS || t == T_DSIN)
            fx_set4(k.d[t], 1, 3, 1, 16);
        else
            fx_set4(k.d[t], 2, 3, 4, 16);
    }
    k.null_tensor = T_COUNT;
    k.no_data = T_COUNT;
    return k;
}

static void set_all(struct rg_case *k, aclDataType dt) {
    for (int t = 0; t < T_COUNT; t++)
        k->dt[t] = dt;
}

struct rg_bufs {
    size_t bytes[T_COUNT];
    unsigned char *p[T_COUNT], *p0[T_COUNT]; /* storage; copies taken before the call */
    aclTensor *t[T_COUNT];
};

static void bufs_make(struct rg_bufs *b, const struct rg_case *k) {
    memset(b, 0, sizeof *b);
    for (int t = 0; t < T_COUNT; t++) {
        const int64_t n = fx_count(k->nd[t], k->d[t]);
        b->bytes[t] = (size_t)n * fx_elem_size(k->dt[t]) + 64;
        b->p[t] = malloc(b->bytes[t]);
        fx_fill_random(b->p[t], b->bytes[t] / fx_elem_size(k->dt[t]), k->dt[t], 1u + (uint32_t)t);
    }
    for (int t = 0; t < T_COUNT; t++) {
        int64_t st[4], run = 1, storage = fx_count(k->nd[t], k->d[t]);
        for (int64_t i = k->nd[t] - 1; i >= 0; i--) {
            st[i] = run;
            run *= k->d[t][i] > 0 ? k->d[t][i] : 1;
        }
        void *data = b->p[t];
        if (t == T_DX && k->alias == A_DX_IS_DY)
            data = b->p[T_DY];
        if (t == T_DX && k->alias == A_DX_SHIFTED_DY)
            data = b->p[T_DY] + 4 * fx_elem_size(k->dt[T_DY]);
        if (t == T_DX && k->alias == A_DX_IS_COS)
            data = b->p[T_COS];
        if (t == T_DCOS && k->alias == A_DCOS_IS_DY)
            data = b->p[T_DY];
        if (t == T_DSIN && k->alias == A_DSIN_IS_DCOS)
            data = b->p[T_DCOS];
        if (k->no_data == t)
            data = NULL;
        b->t[t] = aclCreateTensor(k->d[t], (uint64_t)k->nd[t], k->dt[t], st, 0, ACL_FORMAT_ND,
                                  &storage, 1, data);
    }
    for (int t = 0; t < T_COUNT; t++) {
        b->p0[t] = malloc(b->bytes[t]);
        memcpy(b->p0[t], b->p[t], b->bytes[t]);
    }
}

static void bufs_free(struct rg_bufs *b) {
    for (int t = 0; t < T_COUNT; t++) {
        aclDestroyTensor(b->t[t]);
        free(b->p[t]);
        free(b->p0[t]);
    }
}

static aclrtStream stream;

static int group_setup(void **state) {
    if (fx_acl_init_group(state) != 0)
        return -1;
    return aclrtCreateStream(&stream) == ACL_SUCCESS ? 0 : -1;
}

static int group_teardown(void **state) {
    aclrtDestroyStream(stream);
    return fx_acl_finalize_group(state);
}

static aclnnStatus phase1(const struct rg_case *k, struct rg_bufs *b, uint64_t *ws,
                          aclOpExecutor **e) {
    const aclTensor *t[T_COUNT];
    for (int i = 0; i < T_COUNT; i++)
        t[i] = k->null_tensor == i ? NULL : b->t[i];
    return aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(
        t[T_DY], t[T_COS], t[T_SIN], t[T_X], k->mode, t[T_DX], t[T_DCOS], t[T_DSIN],
        k->null_ws ? NULL : ws, k->null_exec ? NULL : e);
}

/* A call refused with `code` and a message holding `piece`; nothing is written. */
static void expect_refused(const struct rg_case *k, aclnnStatus code, const char *piece) {
    struct rg_bufs b;
    bufs_make(&b, k);
    uint64_t ws = FX_WS_UNTOUCHED;
    aclOpExecutor *sentinel = (aclOpExecutor *)&ws, *e = sentinel;
    aclnnStatus got = phase1(k, &b, &ws, &e);
    fx_expect_phase1_refused(got, code, "aclnnRotaryPositionEmbeddingGradGetWorkspaceSize", piece,
                             ws, e, sentinel);
    for (int t = 0; t < T_COUNT; t++)
        assert_memory_equal(b.p[t], b.p0[t], b.bytes[t]);
    bufs_free(&b);
}

static void run_accepted(const struct rg_case *k, struct rg_bufs *b) {
    bufs_make(b, k);
    uint64_t ws = FX_WS_UNTOUCHED;
    aclOpExecutor *e = NULL;
    aclnnStatus got = phase1(k, b, &ws, &e);
    fx_expect_accepted_run(got, ws, e, aclnnRotaryPositionEmbeddingGrad, stream);
}

#define REFUSED(code, piece, ...)                                                                  \
    do {                                                                                           \
        struct rg_case k = rg_default();                                                           \
        __VA_ARGS__;                                                                               \
        expect_refused(&k, ACLNN_ERR_##code, piece);                                               \
    } while (0)

/* ---- one test per row of SPEC §16.3 ---- */

static void test_null(void **state) {
    (void)state;
    static const int required[] = {T_DY, T_COS, T_SIN, T_DX, T_DCOS, T_DSIN};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        char piece[32];
        snprintf(piece, sizeof piece, "%s = NULL", tname[required[i]]);
        REFUSED(PARAM_NULLPTR, piece, k.null_tensor = required[i]);
    }
    /* dcos, dsin are required also without x */
    REFUSED(PARAM_NULLPTR, "dsin = NULL", k.null_tensor = T_DSIN; k.d[T_X][0] = 9);
    REFUSED(PARAM_NULLPTR, "workspaceSize = NULL", k.null_ws = 1);
    REFUSED(PARAM_NULLPTR, "executor = NULL", k.null_exec = 1);
    /* nulls come before dtypes and shapes */
    REFUSED(PARAM_NULLPTR, "dcos = NULL", k.null_tensor = T_DCOS; k.dt[T_X] = ACL_INT32;
            k.mode = 9);
}

static void test_data_null(void **state) {
    (void)state;
    REFUSED(PARAM_NULLPTR, "dy data = NULL", k.no_data = T_DY);
    REFUSED(PARAM_NULLPTR, "x data = NULL", k.no_data = T_X);
    REFUSED(PARAM_NULLPTR, "dcos data = NULL", k.no_data = T_DCOS);
}

static void test_dtypes(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "dy dtype", k.dt[T_DY] = ACL_INT32);
    REFUSED(PARAM_INVALID, "dy dtype", set_all(&k, ACL_DOUBLE));
    REFUSED(PARAM_INVALID, "cos dtype", k.dt[T_COS] = ACL_INT32);
    REFUSED(PARAM_INVALID, "sin dtype", k.dt[T_SIN] = ACL_FLOAT16);
    REFUSED(PARAM_INVALID, "(dy, cos) dtypes", k.dt[T_COS] = k.dt[T_SIN] = ACL_BF16);
    REFUSED(PARAM_INVALID, "dx dtype", k.dt[T_DX] = ACL_FLOAT16);
    REFUSED(PARAM_INVALID, "x dtype", k.dt[T_X] = ACL_BF16);
    REFUSED(PARAM_INVALID, "dcos dtype", k.dt[T_DCOS] = ACL_FLOAT16);
    REFUSED(PARAM_INVALID, "dsin dtype", k.dt[T_DSIN] = ACL_BF16);
    /* checked also without x (the op definition's table) */
    REFUSED(PARAM_INVALID, "dsin dtype", k.dt[T_DSIN] = ACL_BF16; k.null_tensor = T_X);
    /* dtypes come before the mode and the shapes */
    REFUSED(PARAM_INVALID, "x dtype", k.dt[T_X] = ACL_FLOAT16; k.mode = 7; k.d[T_DY][3] = 15);
}

static void test_mode(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "mode = 4", k.mode = 4);
    REFUSED(INNER_TILING_ERROR, "mode = -1", k.mode = -1);
}

static void test_shapes(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "must be 4-D", k.nd[T_COS] = k.nd[T_SIN] = 3;
            fx_set4(k.d[T_COS], 3, 1, 16, 0); fx_set4(k.d[T_SIN], 3, 1, 16, 0));
    REFUSED(INNER_TILING_ERROR, "sin shape", fx_set4(k.d[T_SIN], 1, 1, 1, 16));
    REFUSED(INNER_TILING_ERROR, "dx shape", fx_set4(k.d[T_DX], 2, 3, 5, 16));
    REFUSED(INNER_TILING_ERROR, "x shape", fx_set4(k.d[T_X], 2, 3, 5, 16));
    REFUSED(INNER_TILING_ERROR, "dcos shape", fx_set4(k.d[T_DCOS], 1, 1, 1, 16));
    /* CANN's example shape for dcos/dsin without x is refused with x */
    REFUSED(INNER_TILING_ERROR, "dsin shape", fx_set4(k.d[T_DSIN], 1, 1, 1, 0));
    REFUSED(INNER_TILING_ERROR, "must be <= 1024",
            for (int t = 0; t < T_COUNT; t++) k.d[t][3] = 1026);
    REFUSED(INNER_TILING_ERROR, "must be even", for (int t = 0; t < T_COUNT; t++) k.d[t][3] = 15;
            k.mode = 1);
    REFUSED(INNER_TILING_ERROR, "cos last dim = 8", k.d[T_COS][3] = k.d[T_SIN][3] = 8);
    REFUSED(INNER_TILING_ERROR, "multiple of 4 in quarter mode",
            for (int t = 0; t < T_COUNT; t++) k.d[t][3] = 18;
            k.mode = 2);
    REFUSED(INNER_TILING_ERROR, "dim 1 is 2", fx_set4(k.d[T_COS], 1, 2, 1, 16);
            fx_set4(k.d[T_SIN], 1, 2, 1, 16));
    REFUSED(INNER_TILING_ERROR, "broadcasts over dim 0 alone", fx_set4(k.d[T_COS], 1, 3, 4, 16);
            fx_set4(k.d[T_SIN], 1, 3, 4, 16); fx_set4(k.d[T_DCOS], 1, 3, 4, 16);
            fx_set4(k.d[T_DSIN], 1, 3, 4, 16));
}

static void test_overlap(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "dx memory overlaps dy", k.alias = A_DX_SHIFTED_DY);
    REFUSED(PARAM_INVALID, "dx memory overlaps", k.alias = A_DX_IS_COS);
    REFUSED(PARAM_INVALID, "dcos memory overlaps dy", k.alias = A_DCOS_IS_DY);
    REFUSED(PARAM_INVALID, "dcos memory overlaps dsin", k.alias = A_DSIN_IS_DCOS);
}

/* ---- results ---- */

static ropekit_dtype rk_of(aclDataType dt) {
    return tk_acl_float_dtype(dt);
}

static void check_close(const char *what, const char *name, struct tk_err_stats *st) {
    if (st->bad) {
        print_error("%s: %s: %lld of %lld elements off, first %lld: got %g want %g\n", what, name,
                    (long long)st->bad, (long long)st->checked, (long long)st->first_bad,
                    st->first_got, st->first_ref);
        fail();
    }
}

/* dx = the backward rotation of dy; dcos, dsin = sums of dy * (x rotated with cos = 1,
 * sin = 0) and dy * (x rotated with cos = 0, sin = 1) over the rows each cos row serves. */
static void check_results(const struct rg_case *k, const struct rg_bufs *b, bool with_cs,
                          const char *what) {
    const int64_t D = k->d[T_DY][3];
    const int64_t *xd = k->d[T_DY], *cd = k->d[T_COS];
    const int64_t rows = xd[0] * xd[1] * xd[2], crows = cd[0] * cd[1] * cd[2];
    const aclDataType dt = k->dt[T_DY];
    const struct tk_tol tol = tk_tol_of(rk_of(dt));
    struct tk_err_stats sx, sc, ss;
    tk_err_stats_init(&sx);
    tk_err_stats_init(&sc);
    tk_err_stats_init(&ss);
    double g[1024], v[1024], c[1024], s[1024], one[1024], zero[1024], ref[1024], mag[1024];
    double xs[1024], xr[1024];
    double *rc = calloc((size_t)(crows * D), sizeof(double));
    double *rs = calloc((size_t)(crows * D), sizeof(double));
    double *mc = calloc((size_t)(crows * D), sizeof(double));
    for (int64_t j = 0; j < D; j++)
        one[j] = 1.0, zero[j] = 0.0;
    const unsigned char *dx = k->alias == A_DX_IS_DY ? b->p[T_DY] : b->p[T_DX];
    for (int64_t r = 0; r < rows; r++) {
        const int64_t i0 = r / (xd[1] * xd[2]), i1 = r / xd[2] % xd[1], i2 = r % xd[2];
        const int64_t cr =
            ((cd[0] == 1 ? 0 : i0) * cd[1] + (cd[1] == 1 ? 0 : i1)) * cd[2] + (cd[2] == 1 ? 0 : i2);
        for (int64_t j = 0; j < D; j++) {
            g[j] = (double)fx_load(dt, b->p0[T_DY], (size_t)(r * D + j));
            v[j] = (double)fx_load(dt, b->p0[T_X], (size_t)(r * D + j));
            c[j] = (double)fx_load(dt, b->p0[T_COS], (size_t)(cr * D + j));
            s[j] = (double)fx_load(dt, b->p0[T_SIN], (size_t)(cr * D + j));
        }
        tk_ref_rotate((int)k->mode, 1, D, g, c, s, ref, mag, false);
        for (int64_t j = 0; j < D; j++)
            tk_err_check(&sx, &tol, (double)fx_load(dt, dx, (size_t)(r * D + j)), ref[j], mag[j],
                         r * D + j);
        tk_ref_rotate((int)k->mode, 0, D, v, one, zero, xs, mag, true);
        tk_ref_rotate((int)k->mode, 0, D, v, zero, one, xr, mag, true);
        for (int64_t j = 0; j < D; j++) {
            rc[cr * D + j] += g[j] * xs[j];
            rs[cr * D + j] += g[j] * xr[j];
            mc[cr * D + j] += (g[j] < 0 ? -g[j] : g[j]) * ((v[j] < 0 ? -v[j] : v[j]) + 1.0);
        }
    }
    check_close(what, "dx", &sx);
    if (with_cs) {
        for (int64_t e = 0; e < crows * D; e++) {
            tk_err_check(&sc, &tol, (double)fx_load(dt, b->p[T_DCOS], (size_t)e), rc[e], mc[e], e);
            tk_err_check(&ss, &tol, (double)fx_load(dt, b->p[T_DSIN], (size_t)e), rs[e], mc[e], e);
        }
        check_close(what, "dcos", &sc);
        check_close(what, "dsin", &ss);
    }
    for (int t = T_DY; t <= T_X; t++)
        if (!(t == T_DY && k->alias == A_DX_IS_DY))
            assert_memory_equal(b->p[t], b->p0[t], b->bytes[t]);
    free(rc);
    free(rs);
    free(mc);
}

/* Every mode, dtype and cos/sin layout of the doc: (1,1,1,D), (B,S,N,D), (B,1,N,D),
 * (B,S,1,D), (1,1,N,D), (1,S,1,D), (B,1,1,D). */
static void test_results(void **state) {
    (void)state;
    static const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    static const int layouts[7][3] = {{0, 0, 0}, {1, 1, 1}, {1, 0, 1}, {1, 1, 0},
                                      {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
    const int64_t x[4] = {2, 3, 4, 40};
    for (int mode = 0; mode < 4; mode++)
        for (size_t d = 0; d < 3; d++)
            for (int l = 0; l < 7; l++) {
                struct rg_case k = rg_default();
                set_all(&k, dts[d]);
                k.mode = mode;
                for (int t = 0; t < T_COUNT; t++) {
                    const bool cs = t == T_COS || t == T_SIN || t == T_DCOS || t == T_DSIN;
                    fx_set4(k.d[t], cs && !layouts[l][0] ? 1 : x[0],
                            cs && !layouts[l][1] ? 1 : x[1], cs && !layouts[l][2] ? 1 : x[2], x[3]);
                }
                struct rg_bufs b;
                run_accepted(&k, &b);
                char what[96];
                snprintf(what, sizeof what, "mode %d dtype %d layout %d", mode, (int)dts[d], l);
                check_results(&k, &b, true, what);
                bufs_free(&b);
            }
}

/* CANN's example: xOptional NULL and dcos/dsin [1,1,1,0] without data: dx only. */
static void test_cann_example_call(void **state) {
    (void)state;
    struct rg_case k = rg_default();
    k.mode = 1;
    k.null_tensor = T_X;
    fx_set4(k.d[T_DCOS], 1, 1, 1, 0);
    fx_set4(k.d[T_DSIN], 1, 1, 1, 0);
    k.no_data = T_DCOS; /* and dsin's is never read */
    struct rg_bufs b;
    run_accepted(&k, &b);
    check_results(&k, &b, false, "example");
    assert_memory_equal(b.p[T_DSIN], b.p0[T_DSIN], b.bytes[T_DSIN]);
    bufs_free(&b);
}

/* The contiguous native view of tensor t of case k over data p. */
static ropekit_tensor view_of(const struct rg_case *k, int t, void *p) {
    int64_t st[4], run = 1;
    for (int64_t i = k->nd[t] - 1; i >= 0; i--) {
        st[i] = run;
        run *= k->d[t][i] > 0 ? k->d[t][i] : 1;
    }
    return ropekit_tensor_make(p, rk_of(k->dt[t]), (int32_t)k->nd[t], k->d[t], st);
}

/* ropekit_cann_rotary_position_embedding_grad_plan_create: the aclnn call's rules and
 * codes, and its results through ropekit_partial_rotary_grad_execute. */
static void test_cann_plan(void **state) {
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        struct rg_case k = rg_default();
        set_all(&k, ACL_BF16);
        k.mode = mode;
        struct rg_bufs a, b;
        run_accepted(&k, &a);
        bufs_make(&b, &k);
        ropekit_tensor v[T_COUNT];
        for (int t = 0; t < T_COUNT; t++)
            v[t] = view_of(&k, t, b.p[t]);
        ropekit_plan *plan = NULL;
        int32_t code = -1;
        assert_int_equal(ropekit_cann_rotary_position_embedding_grad_plan_create(
                             &v[T_DY], &v[T_COS], &v[T_SIN], &v[T_X], mode, &v[T_DX], &v[T_DCOS],
                             &v[T_DSIN], &plan, &code),
                         ROPEKIT_OK);
        assert_int_equal(code, ACLNN_SUCCESS);
        assert_int_equal(ropekit_partial_rotary_grad_execute(plan, b.p[T_DY], b.p[T_COS],
                                                             b.p[T_SIN], b.p[T_X], b.p[T_DX],
                                                             b.p[T_DCOS], b.p[T_DSIN]),
                         ROPEKIT_OK);
        for (int t = T_DX; t < T_COUNT; t++)
            assert_memory_equal(b.p[t], a.p[t], b.bytes[t]);
        ropekit_plan_destroy(plan);
        /* dcos missing: CANN requires it even without x, with the aclnn call's code */
        plan = NULL;
        assert_int_equal(ropekit_cann_rotary_position_embedding_grad_plan_create(
                             &v[T_DY], &v[T_COS], &v[T_SIN], NULL, mode, &v[T_DX], NULL, &v[T_DSIN],
                             &plan, &code),
                         ROPEKIT_NULL_POINTER);
        assert_int_equal(code, ACLNN_ERR_PARAM_NULLPTR);
        assert_null(plan);
        /* f32 cos with bf16 dy: the aclnn call's dtype code */
        v[T_COS].dtype = ROPEKIT_F32;
        assert_int_not_equal(ropekit_cann_rotary_position_embedding_grad_plan_create(
                                 &v[T_DY], &v[T_COS], &v[T_SIN], &v[T_X], mode, &v[T_DX],
                                 &v[T_DCOS], &v[T_DSIN], &plan, &code),
                             ROPEKIT_OK);
        assert_int_equal(code, ACLNN_ERR_PARAM_INVALID);
        assert_null(plan);
        bufs_free(&a);
        bufs_free(&b);
    }
    assert_string_equal(ropekit_cann_op_name(ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_GRAD),
                        "aclnnRotaryPositionEmbeddingGrad");
}

static void test_dx_is_dy(void **state) {
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        struct rg_case k = rg_default();
        k.mode = mode;
        k.alias = A_DX_IS_DY;
        struct rg_bufs b;
        run_accepted(&k, &b);
        check_results(&k, &b, true, "in place");
        assert_memory_equal(b.p[T_DX], b.p0[T_DX], b.bytes[T_DX]);
        bufs_free(&b);
    }
}

/* An empty dy is exempt from the mode and tiling rules; dcos, dsin are zeros. */
static void test_empty_dy(void **state) {
    (void)state;
    struct rg_case k = rg_default();
    for (int t = T_DY; t < T_COUNT; t++)
        if (t == T_DY || t == T_X || t == T_DX)
            k.d[t][0] = 0;
    k.mode = 9;
    struct rg_bufs b;
    run_accepted(&k, &b);
    for (size_t i = 0; i < 48; i++) {
        assert_true(fx_load(ACL_FLOAT, b.p[T_DCOS], i) == 0.0f);
        assert_true(fx_load(ACL_FLOAT, b.p[T_DSIN], i) == 0.0f);
    }
    bufs_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null),      cmocka_unit_test(test_data_null),
        cmocka_unit_test(test_dtypes),    cmocka_unit_test(test_mode),
        cmocka_unit_test(test_shapes),    cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_results),   cmocka_unit_test(test_cann_example_call),
        cmocka_unit_test(test_dx_is_dy),  cmocka_unit_test(test_empty_dy),
        cmocka_unit_test(test_cann_plan),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
