/* aclnnRotaryPositionEmbedding (SPEC §15): one test per row of the validation table (code,
 * message naming the GetWorkspaceSize and the argument, nothing written: no buffer, no
 * executor, no workspace size), the empty-x exit, in place (out is x), and results
 * against the float64 reference for every mode, dtype and cos/sin layout the doc lists,
 * contiguous and strided. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "common/acl_fixture.h"
#include "common/aclnn_case.h"
#include "ropekit/ropekit_cann.h"
#include "testkit/reference.h"
#include "testkit/tolerance.h"

enum rpe_null { N_NONE, N_X, N_COS, N_SIN, N_OUT, N_WS, N_EXEC };
enum rpe_alias { A_NONE, A_OUT_IS_X, A_OUT_SHIFTED_X, A_OUT_IS_COS, A_OUT_SELF };

struct rpe_case {
    aclDataType xdt, cdt, sdt, odt;
    int64_t xnd, cnd, snd, ond;
    int64_t xd[8], cd[8], sd[8], od[8];
    int64_t mode;
    enum rpe_null null_arg;
    int no_data; /* x's data pointer NULL */
    enum rpe_alias alias;
    int x_strided; /* x every other element of a row twice as long (non-contiguous) */
};

/* x f32 [2,3,4,16], cos/sin [1,3,1,16] (1S1D), out [2,3,4,16], half. */
static struct rpe_case rpe_default(void) {
    struct rpe_case k;
    memset(&k, 0, sizeof k);
    k.xdt = k.cdt = k.sdt = k.odt = ACL_FLOAT;
    k.xnd = k.cnd = k.snd = k.ond = 4;
    fx_set4(k.xd, 2, 3, 4, 16);
    fx_set4(k.od, 2, 3, 4, 16);
    fx_set4(k.cd, 1, 3, 1, 16);
    fx_set4(k.sd, 1, 3, 1, 16);
    return k;
}

struct rpe_bufs {
    size_t xb, cb, sb, ob;
    unsigned char *x, *c, *s, *o;
    unsigned char *x0, *c0, *s0, *o0; /* copies taken before the call */
    aclTensor *tx, *tc, *ts, *to;
};

/* A view over storage of `storage` elements (contiguous when strides is NULL). */
static void bufs_make(struct rpe_bufs *b, const struct rpe_case *k) {
    memset(b, 0, sizeof *b);
    const int64_t xn = fx_count(k->xnd, k->xd) * (k->x_strided ? 2 : 1);
    b->xb = (size_t)xn * fx_elem_size(k->xdt) + 64;
    b->cb = (size_t)fx_count(k->cnd, k->cd) * fx_elem_size(k->cdt) + 64;
    b->sb = (size_t)fx_count(k->snd, k->sd) * fx_elem_size(k->sdt) + 64;
    b->ob = (size_t)fx_count(k->ond, k->od) * fx_elem_size(k->odt) + 64;
    b->x = calloc(1, b->xb), b->c = calloc(1, b->cb), b->s = calloc(1, b->sb);
    b->o = calloc(1, b->ob);
    fx_fill_random(b->x, (b->xb - 64) / fx_elem_size(k->xdt), k->xdt, 1);
    fx_fill_random(b->c, (b->cb - 64) / fx_elem_size(k->cdt), k->cdt, 2);
    fx_fill_random(b->s, (b->sb - 64) / fx_elem_size(k->sdt), k->sdt, 3);
    memset(b->o, 0x5a, b->ob);
    int64_t xst[4];
    if (k->x_strided) {
        xst[3] = 2;
        xst[2] = 2 * k->xd[3];
        xst[1] = xst[2] * k->xd[2];
        xst[0] = xst[1] * k->xd[1];
    }
    void *odata = b->o;
    const int64_t *ost = NULL;
    int64_t self_st[4] = {0, 0, 0, 1};
    if (k->alias == A_OUT_IS_X)
        odata = b->x, ost = k->x_strided ? xst : NULL;
    else if (k->alias == A_OUT_SHIFTED_X)
        odata = b->x + 4 * fx_elem_size(k->xdt);
    else if (k->alias == A_OUT_IS_COS)
        odata = b->c;
    else if (k->alias == A_OUT_SELF)
        ost = self_st;
    b->tx = fx_view_over(k->xnd, k->xd, k->xdt, k->no_data ? NULL : b->x, k->x_strided ? xst : NULL,
                         xn);
    b->tc = fx_view_over(k->cnd, k->cd, k->cdt, b->c, NULL, fx_count(k->cnd, k->cd));
    b->ts = fx_view_over(k->snd, k->sd, k->sdt, b->s, NULL, fx_count(k->snd, k->sd));
    b->to = fx_view_over(k->ond, k->od, k->odt, odata, ost,
                         k->alias == A_OUT_IS_X ? xn : fx_count(k->ond, k->od));
    b->x0 = malloc(b->xb), b->c0 = malloc(b->cb), b->s0 = malloc(b->sb), b->o0 = malloc(b->ob);
    memcpy(b->x0, b->x, b->xb);
    memcpy(b->c0, b->c, b->cb);
    memcpy(b->s0, b->s, b->sb);
    memcpy(b->o0, b->o, b->ob);
}

static void bufs_free(struct rpe_bufs *b) {
    aclDestroyTensor(b->tx);
    aclDestroyTensor(b->tc);
    aclDestroyTensor(b->ts);
    aclDestroyTensor(b->to);
    free(b->x), free(b->c), free(b->s), free(b->o);
    free(b->x0), free(b->c0), free(b->s0), free(b->o0);
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

static aclnnStatus phase1(const struct rpe_case *k, struct rpe_bufs *b, uint64_t *ws,
                          aclOpExecutor **e) {
    return aclnnRotaryPositionEmbeddingGetWorkspaceSize(
        k->null_arg == N_X ? NULL : b->tx, k->null_arg == N_COS ? NULL : b->tc,
        k->null_arg == N_SIN ? NULL : b->ts, k->mode, k->null_arg == N_OUT ? NULL : b->to,
        k->null_arg == N_WS ? NULL : ws, k->null_arg == N_EXEC ? NULL : e);
}

/* A call refused with `code` and a message holding `piece`; nothing is written. */
static void expect_refused(const struct rpe_case *k, aclnnStatus code, const char *piece) {
    struct rpe_bufs b;
    bufs_make(&b, k);
    uint64_t ws = FX_WS_UNTOUCHED;
    aclOpExecutor *sentinel = (aclOpExecutor *)&ws, *e = sentinel;
    aclnnStatus got = phase1(k, &b, &ws, &e);
    fx_expect_phase1_refused(got, code, "aclnnRotaryPositionEmbeddingGetWorkspaceSize", piece, ws,
                             e, sentinel);
    assert_memory_equal(b.x, b.x0, b.xb);
    assert_memory_equal(b.c, b.c0, b.cb);
    assert_memory_equal(b.s, b.s0, b.sb);
    assert_memory_equal(b.o, b.o0, b.ob);
    bufs_free(&b);
}

/* Runs an accepted call; returns the buffers for the caller to check (then bufs_free). */
static void run_accepted(const struct rpe_case *k, struct rpe_bufs *b) {
    bufs_make(b, k);
    uint64_t ws = FX_WS_UNTOUCHED;
    aclOpExecutor *e = NULL;
    aclnnStatus got = phase1(k, b, &ws, &e);
    fx_expect_accepted_run(got, ws, e, aclnnRotaryPositionEmbedding, stream);
}

#define REFUSED(code, piece, ...)                                                                  \
    do {                                                                                           \
        struct rpe_case k = rpe_default();                                                         \
        __VA_ARGS__;                                                                               \
        expect_refused(&k, ACLNN_ERR_##code, piece);                                               \
    } while (0)

/* ---- one test per row of SPEC §15.3 ---- */

static void test_null(void **state) {
    (void)state;
    REFUSED(PARAM_NULLPTR, "x = NULL", k.null_arg = N_X);
    REFUSED(PARAM_NULLPTR, "cos = NULL", k.null_arg = N_COS);
    REFUSED(PARAM_NULLPTR, "sin = NULL", k.null_arg = N_SIN);
    REFUSED(PARAM_NULLPTR, "out = NULL", k.null_arg = N_OUT);
    REFUSED(PARAM_NULLPTR, "workspaceSize = NULL", k.null_arg = N_WS);
    REFUSED(PARAM_NULLPTR, "executor = NULL", k.null_arg = N_EXEC);
    /* nulls come before dtypes and shapes */
    REFUSED(PARAM_NULLPTR, "out = NULL", k.null_arg = N_OUT; k.xdt = ACL_INT32; k.mode = 9);
}

/* aclCreateTensor refuses every bad layout, so the rule shows on the CANN-rules plan
 * (ropekit_cann.h), which takes descriptors as they come. */
static void test_layout(void **state) {
    (void)state;
    float x[128], c[16], o[128];
    memset(o, 0, sizeof o);
    const ropekit_tensor tx = {x, ROPEKIT_F32, 4, {2, -3, 4, 16}, {192, 64, 16, 1}};
    const ropekit_tensor tc = {c, ROPEKIT_F32, 4, {1, 1, 1, 16}, {16, 16, 16, 1}};
    const ropekit_tensor to = {o, ROPEKIT_F32, 4, {2, 3, 4, 16}, {192, 64, 16, 1}};
    ropekit_plan *plan = (ropekit_plan *)&tx;
    int32_t code = 0;
    assert_int_equal(
        ropekit_cann_rotary_position_embedding_plan_create(&tx, &tc, &tc, 0, &to, &plan, &code),
        ROPEKIT_INVALID_ARGUMENT);
    assert_int_equal(code, ACLNN_ERR_PARAM_INVALID);
    assert_null(plan);
    assert_non_null(strstr(ropekit_last_error(), "aclnnRotaryPositionEmbeddingGetWorkspaceSize"));
}

/* The CANN-rules plan computes what the aclnn call computes, bit for bit, and refuses
 * with the aclnn code. */
static void test_cann_plan(void **state) {
    (void)state;
    struct rpe_case k = rpe_default();
    k.mode = 3;
    struct rpe_bufs b;
    run_accepted(&k, &b);
    const ropekit_tensor tx = {b.x, ROPEKIT_F32, 4, {2, 3, 4, 16}, {192, 64, 16, 1}};
    const ropekit_tensor tc = {b.c, ROPEKIT_F32, 4, {1, 3, 1, 16}, {48, 16, 16, 1}};
    const ropekit_tensor ts = {b.s, ROPEKIT_F32, 4, {1, 3, 1, 16}, {48, 16, 16, 1}};
    float o[384];
    const ropekit_tensor to = {o, ROPEKIT_F32, 4, {2, 3, 4, 16}, {192, 64, 16, 1}};
    ropekit_plan *plan = NULL;
    int32_t code = -1;
    assert_int_equal(
        ropekit_cann_rotary_position_embedding_plan_create(&tx, &tc, &ts, 3, &to, &plan, &code),
        ROPEKIT_OK);
    assert_int_equal(code, 0);
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, b.x, b.c, b.s, o), ROPEKIT_OK);
    assert_memory_equal(o, b.o, sizeof o);
    /* an in-place execute of an out-of-place plan is refused */
    assert_int_equal(ropekit_partial_rotary_execute(plan, b.x, b.c, b.s), ROPEKIT_INVALID_ARGUMENT);
    ropekit_plan_destroy(plan);
    assert_int_equal(
        ropekit_cann_rotary_position_embedding_plan_create(&tx, &tc, &ts, 5, &to, &plan, &code),
        ROPEKIT_INVALID_ARGUMENT);
    assert_int_equal(code, ACLNN_ERR_INNER_TILING_ERROR);
    /* the slice-taking CANN call does not take this op */
    assert_int_equal(ropekit_cann_partial_rotary_plan_create(ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING,
                                                             &tx, &tc, &ts, 0, NULL, 0, &plan,
                                                             &code),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_int_equal(code, ACLNN_ERR_PARAM_INVALID);
    assert_string_equal(ropekit_cann_op_name(ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING),
                        "aclnnRotaryPositionEmbedding");
    bufs_free(&b);
}

static void test_data_null(void **state) {
    (void)state;
    REFUSED(PARAM_NULLPTR, "x data = NULL", k.no_data = 1);
}

static void test_x_dtype(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "x dtype", k.xdt = ACL_INT32);
    REFUSED(PARAM_INVALID, "x dtype", k.xdt = k.cdt = k.sdt = k.odt = ACL_DOUBLE);
}

static void test_cs_dtype(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "cos dtype", k.cdt = ACL_INT32);
    REFUSED(PARAM_INVALID, "sin dtype", k.sdt = ACL_FLOAT16);
}

static void test_dtype_pair(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "(x, cos) dtypes", k.xdt = k.odt = ACL_FLOAT16);
    REFUSED(PARAM_INVALID, "(x, cos) dtypes", k.cdt = k.sdt = ACL_BF16);
}

static void test_out_dtype(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "out dtype", k.odt = ACL_FLOAT16);
    /* dtypes come before the mode and the shapes */
    REFUSED(PARAM_INVALID, "out dtype", k.odt = ACL_BF16; k.mode = 7; k.xd[3] = 15);
}

static void test_mode(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "mode = 4", k.mode = 4);
    REFUSED(INNER_TILING_ERROR, "mode = -1", k.mode = -1);
}

static void test_rank(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "must be 4-D", k.xnd = k.ond = 3; fx_set4(k.xd, 6, 4, 16, 0);
            fx_set4(k.od, 6, 4, 16, 0));
    REFUSED(INNER_TILING_ERROR, "cos shape", k.cnd = k.snd = 3; fx_set4(k.cd, 3, 1, 16, 0);
            fx_set4(k.sd, 3, 1, 16, 0));
}

static void test_cs_shape(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "sin shape", fx_set4(k.sd, 1, 1, 1, 16));
}

static void test_out_shape(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "out shape", fx_set4(k.od, 2, 3, 5, 16));
    REFUSED(INNER_TILING_ERROR, "out shape", k.ond = 3; fx_set4(k.od, 6, 4, 16, 0));
}

static void test_max_d(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "must be <= 1024", k.xd[3] = k.od[3] = k.cd[3] = k.sd[3] = 1026);
    struct rpe_bufs b;
    struct rpe_case k = rpe_default();
    k.xd[3] = k.od[3] = k.cd[3] = k.sd[3] = 1024;
    run_accepted(&k, &b);
    bufs_free(&b);
}

static void test_d_even(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "must be even", k.xd[3] = k.od[3] = k.cd[3] = k.sd[3] = 15;
            k.mode = 1);
}

static void test_cs_len(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "cos last dim = 8", k.cd[3] = k.sd[3] = 8);
    /* an empty cos/sin with a non-empty x is no exit */
    REFUSED(INNER_TILING_ERROR, "cos last dim = 0", k.cd[3] = k.sd[3] = 0);
}

static void test_l_multiple(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "multiple of 4 in quarter mode",
            k.xd[3] = k.od[3] = k.cd[3] = k.sd[3] = 18;
            k.mode = 2);
}

static void test_broadcast(void **state) {
    (void)state;
    REFUSED(INNER_TILING_ERROR, "dim 1 is 2", fx_set4(k.cd, 1, 2, 1, 16);
            fx_set4(k.sd, 1, 2, 1, 16));
    /* (1, S, N, D) against B > 1: the one layout the doc does not list */
    REFUSED(INNER_TILING_ERROR, "broadcasts over dim 0 alone", fx_set4(k.cd, 1, 3, 4, 16);
            fx_set4(k.sd, 1, 3, 4, 16));
}

static void test_overlap(void **state) {
    (void)state;
    REFUSED(PARAM_INVALID, "out memory overlaps x", k.alias = A_OUT_SHIFTED_X);
    REFUSED(PARAM_INVALID, "out memory overlaps cos", k.alias = A_OUT_IS_COS);
    REFUSED(PARAM_INVALID, "out strides", k.alias = A_OUT_SELF);
}

/* An empty x is exempt from the mode and shape rules: success, nothing written. */
static void test_empty_x(void **state) {
    (void)state;
    struct rpe_case k = rpe_default();
    fx_set4(k.xd, 2, 0, 4, 15);
    fx_set4(k.od, 2, 0, 4, 15);
    fx_set4(k.cd, 1, 1, 1, 8);
    fx_set4(k.sd, 1, 1, 1, 8);
    k.mode = 9;
    struct rpe_bufs b;
    run_accepted(&k, &b);
    assert_memory_equal(b.o, b.o0, b.ob);
    bufs_free(&b);
}

/* ---- results ---- */

static ropekit_dtype rk_of(aclDataType dt) {
    return tk_acl_float_dtype(dt);
}

/* out against the float64 reference; x unchanged (or, in place, x is out). */
static void check_results(const struct rpe_case *k, const struct rpe_bufs *b, const char *what) {
    const int64_t D = k->xd[3], rows = k->xd[0] * k->xd[1] * k->xd[2];
    const struct tk_tol tol = tk_tol_of(rk_of(k->xdt));
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    double v[1024], c[1024], s[1024], ref[1024], mag[1024];
    const int64_t xstep = k->x_strided ? 2 : 1;
    const unsigned char *xin = b->x0; /* x as it was */
    const unsigned char *out = k->alias == A_OUT_IS_X ? b->x : b->o;
    const int64_t ostep = k->alias == A_OUT_IS_X ? xstep : 1;
    for (int64_t r = 0; r < rows; r++) {
        const int64_t i0 = r / (k->xd[1] * k->xd[2]), i1 = r / k->xd[2] % k->xd[1],
                      i2 = r % k->xd[2];
        const int64_t cr =
            ((k->cd[0] == 1 ? 0 : i0) * k->cd[1] + (k->cd[1] == 1 ? 0 : i1)) * k->cd[2] +
            (k->cd[2] == 1 ? 0 : i2);
        for (int64_t j = 0; j < D; j++) {
            v[j] = (double)fx_load(k->xdt, xin, (size_t)((r * D + j) * xstep));
            c[j] = (double)fx_load(k->cdt, b->c, (size_t)(cr * D + j));
            s[j] = (double)fx_load(k->sdt, b->s, (size_t)(cr * D + j));
        }
        tk_ref_rotate((int)k->mode, 0, D, v, c, s, ref, mag, false);
        for (int64_t j = 0; j < D; j++)
            tk_err_check(&st, &tol, (double)fx_load(k->odt, out, (size_t)((r * D + j) * ostep)),
                         ref[j], mag[j], r * D + j);
    }
    if (st.bad) {
        print_error("%s: %lld of %lld elements off, first %lld: got %g want %g\n", what,
                    (long long)st.bad, (long long)st.checked, (long long)st.first_bad, st.first_got,
                    st.first_ref);
        fail();
    }
    if (k->alias != A_OUT_IS_X)
        assert_memory_equal(b->x, b->x0, b->xb);
    assert_memory_equal(b->c, b->c0, b->cb);
    assert_memory_equal(b->s, b->s0, b->sb);
}

/* Every mode, dtype and cos/sin layout of the doc: (1,1,1,D), (B,S,N,D), (B,1,N,D),
 * (B,S,1,D), (1,1,N,D), (1,S,1,D), (B,1,1,D); contiguous and strided x. */
static void test_results(void **state) {
    (void)state;
    static const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    static const int layouts[7][3] = {{0, 0, 0}, {1, 1, 1}, {1, 0, 1}, {1, 1, 0},
                                      {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
    const int64_t x[4] = {2, 3, 4, 40};
    for (int mode = 0; mode < 4; mode++)
        for (size_t d = 0; d < 3; d++)
            for (int l = 0; l < 7; l++)
                for (int strided = 0; strided < 2; strided++) {
                    struct rpe_case k = rpe_default();
                    k.xdt = k.cdt = k.sdt = k.odt = dts[d];
                    k.mode = mode;
                    k.x_strided = strided;
                    fx_set4(k.xd, x[0], x[1], x[2], x[3]);
                    fx_set4(k.od, x[0], x[1], x[2], x[3]);
                    fx_set4(k.cd, layouts[l][0] ? x[0] : 1, layouts[l][1] ? x[1] : 1,
                            layouts[l][2] ? x[2] : 1, x[3]);
                    memcpy(k.sd, k.cd, sizeof k.cd);
                    struct rpe_bufs b;
                    run_accepted(&k, &b);
                    char what[96];
                    snprintf(what, sizeof what, "mode %d dtype %d layout %d strided %d", mode,
                             (int)dts[d], l, strided);
                    check_results(&k, &b, what);
                    /* nothing written past out */
                    assert_memory_equal(b.o + b.ob - 64, b.o0 + b.ob - 64, 64);
                    bufs_free(&b);
                }
}

/* out is x (the same data and strides): in place. */
static void test_out_is_x(void **state) {
    (void)state;
    for (int mode = 0; mode < 4; mode++)
        for (int strided = 0; strided < 2; strided++) {
            struct rpe_case k = rpe_default();
            k.mode = mode;
            k.alias = A_OUT_IS_X;
            k.x_strided = strided;
            struct rpe_bufs b;
            run_accepted(&k, &b);
            check_results(&k, &b, "in place");
            assert_memory_equal(b.o, b.o0, b.ob);
            bufs_free(&b);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null),       cmocka_unit_test(test_layout),
        cmocka_unit_test(test_data_null),  cmocka_unit_test(test_x_dtype),
        cmocka_unit_test(test_cs_dtype),   cmocka_unit_test(test_dtype_pair),
        cmocka_unit_test(test_out_dtype),  cmocka_unit_test(test_mode),
        cmocka_unit_test(test_rank),       cmocka_unit_test(test_cs_shape),
        cmocka_unit_test(test_out_shape),  cmocka_unit_test(test_max_d),
        cmocka_unit_test(test_d_even),     cmocka_unit_test(test_cs_len),
        cmocka_unit_test(test_l_multiple), cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_overlap),    cmocka_unit_test(test_empty_x),
        cmocka_unit_test(test_results),    cmocka_unit_test(test_out_is_x),
        cmocka_unit_test(test_cann_plan),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
