/* aclnnRotaryPositionEmbeddingV2 (SPEC §15.4): without rotate the bytes of
 * aclnnRotaryPositionEmbedding in every mode; with the rotate matrix of a mode (as CANN's
 * doc builds it) the same values; with any matrix the float64 reference of
 * y = x*cos + (x @ rotate)*sin; in place; the same bytes on 1 and 2 threads; and one test
 * per row of the rotate-matrix rules (code, message, nothing written). */
#include <math.h>
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
#include "aclnnop/aclnn_rotary_position_embedding_v2.h"
#include "common/acl_fixture.h"
#include "ropekit/ropekit.h"

#define V2_PHASE1 "aclnnRotaryPositionEmbeddingV2GetWorkspaceSize"

static aclrtStream g_stream;

static int setup(void **state) {
    if (fx_acl_init_group(state))
        return -1;
    return aclrtCreateStream(&g_stream) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
    aclrtDestroyStream(g_stream);
    return fx_acl_finalize_group(state);
}

/* Runs V2 (rotate may be NULL) or, with v1 set, V1; returns the phase-1 code. */
static aclnnStatus run(const struct fx_tensor *x, const struct fx_tensor *c,
                       const struct fx_tensor *s, int64_t mode, const struct fx_tensor *rotate,
                       const struct fx_tensor *out, int v1) {
    uint64_t ws = 0;
    aclOpExecutor *exec = NULL;
    aclnnStatus st = v1 ? aclnnRotaryPositionEmbeddingGetWorkspaceSize(x->t, c->t, s->t, mode,
                                                                       out->t, &ws, &exec)
                        : aclnnRotaryPositionEmbeddingV2GetWorkspaceSize(x->t, c->t, s->t, mode,
                                                                         rotate ? rotate->t : NULL,
                                                                         out->t, &ws, &exec);
    if (st != ACLNN_SUCCESS)
        return st;
    assert_int_equal(ws, 0);
    st = v1 ? aclnnRotaryPositionEmbedding(NULL, 0, exec, g_stream)
            : aclnnRotaryPositionEmbeddingV2(NULL, 0, exec, g_stream);
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    return ACLNN_SUCCESS;
}

/* A [d, d] tensor of dt holding `m` (row-major). */
static void matrix_tensor(struct fx_tensor *f, aclDataType dt, int64_t d, const float *m) {
    int64_t dims[2] = {d, d};
    assert_int_equal(fx_tensor_init(f, dt, 2, dims, NULL, 0, true), 0);
    for (int64_t i = 0; i < d * d; i++)
        fx_store(dt, f->buf, (size_t)i, m[i]);
}

/* CANN's doc's generators: x @ M is rotate_half(x) (half) or the pairs (-x1, x0). */
static float *mode_matrix(int64_t d, int mode) {
    float *m = calloc((size_t)(d * d), sizeof(float));
    if (mode == 0)
        for (int64_t j = 0; j < d / 2; j++) {
            m[j * d + j + d / 2] = 1.0f;
            m[(j + d / 2) * d + j] = -1.0f;
        }
    else
        for (int64_t i = 0; i < d; i += 2) {
            m[i * d + i + 1] = 1.0f;
            m[(i + 1) * d + i] = -1.0f;
        }
    return m;
}

static void tensors(struct fx_tensor *x, struct fx_tensor *c, struct fx_tensor *s,
                    struct fx_tensor *out, aclDataType dt, const int64_t *xd, const int64_t *cd) {
    assert_int_equal(fx_tensor_init(x, dt, 4, xd, NULL, 0, true), 0);
    assert_int_equal(fx_tensor_init(c, dt, 4, cd, NULL, 0, true), 0);
    assert_int_equal(fx_tensor_init(s, dt, 4, cd, NULL, 0, true), 0);
    for (size_t i = 0; i < (size_t)fx_numel(cd, 4); i++)
        fx_store(dt, s->buf, i, fx_pattern(i, 99));
    assert_int_equal(fx_tensor_init(out, dt, 4, xd, NULL, 0, true), 0);
    memset(out->buf, 0x5a, out->bytes);
}

static void free_all(struct fx_tensor *const *t, int n) {
    for (int i = 0; i < n; i++)
        fx_tensor_free(t[i]);
}

static const aclDataType k_dtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

static void test_no_rotate_is_v1(void **state) {
    (void)state;
    const int64_t xd[4] = {2, 3, 4, 16}, cd[4] = {1, 3, 1, 16};
    for (int mode = 0; mode < 4; mode++)
        for (size_t t = 0; t < 3; t++) {
            struct fx_tensor x, c, s, o1, o2;
            tensors(&x, &c, &s, &o1, k_dtypes[t], xd, cd);
            assert_int_equal(fx_tensor_init(&o2, k_dtypes[t], 4, xd, NULL, 0, true), 0);
            assert_int_equal(run(&x, &c, &s, mode, NULL, &o1, 1), ACLNN_SUCCESS);
            assert_int_equal(run(&x, &c, &s, mode, NULL, &o2, 0), ACLNN_SUCCESS);
            assert_memory_equal(o1.buf, o2.buf, o1.bytes);
            free_all((struct fx_tensor *const[]){&x, &c, &s, &o1, &o2}, 5);
        }
    /* V1's rules under V2's name */
    struct fx_tensor x, c, s, o;
    tensors(&x, &c, &s, &o, ACL_FLOAT, xd, cd);
    assert_int_equal(run(&x, &c, &s, 4, NULL, &o, 0), ACLNN_ERR_INNER_TILING_ERROR);
    assert_non_null(strstr(aclGetRecentErrMsg(), V2_PHASE1));
    free_all((struct fx_tensor *const[]){&x, &c, &s, &o}, 4);
}

/* The doc's matrices give the rotation of their mode: equal values (a zero's sign may
 * differ: the matrix product adds +0 terms the pair formula does not have). */
static void test_mode_matrix_is_the_mode(void **state) {
    (void)state;
    const int64_t xd[4] = {2, 5, 3, 32}, cd[4] = {1, 5, 1, 32}, cd_il[4] = {1, 5, 1, 32};
    for (int mode = 0; mode < 2; mode++)
        for (size_t t = 0; t < 3; t++) {
            struct fx_tensor x, c, s, o1, o2, r;
            tensors(&x, &c, &s, &o1, k_dtypes[t], xd, mode ? cd_il : cd);
            assert_int_equal(fx_tensor_init(&o2, k_dtypes[t], 4, xd, NULL, 0, true), 0);
            float *m = mode_matrix(32, mode);
            matrix_tensor(&r, k_dtypes[t], 32, m);
            free(m);
            assert_int_equal(run(&x, &c, &s, mode, NULL, &o1, 1), ACLNN_SUCCESS);
            assert_int_equal(run(&x, &c, &s, mode, &r, &o2, 0), ACLNN_SUCCESS);
            for (size_t i = 0; i < (size_t)fx_numel(xd, 4); i++)
                assert_true(fx_load(k_dtypes[t], o1.buf, i) == fx_load(k_dtypes[t], o2.buf, i));
            free_all((struct fx_tensor *const[]){&x, &c, &s, &o1, &o2, &r}, 6);
        }
}

/* Any matrix against the float64 reference of the doc's formula. */
static void check_reference(const struct fx_tensor *x, const struct fx_tensor *c,
                            const struct fx_tensor *s, const struct fx_tensor *r, const void *y,
                            aclDataType dt) {
    const int64_t d = x->dims[3];
    const double rtol = dt == ACL_FLOAT ? 1e-5 : dt == ACL_FLOAT16 ? 1e-3 : 8e-3;
    for (int64_t a = 0; a < x->dims[0]; a++)
        for (int64_t b = 0; b < x->dims[1]; b++)
            for (int64_t n = 0; n < x->dims[2]; n++)
                for (int64_t j = 0; j < d; j++) {
                    double xr = 0, mag_xr = 0;
                    for (int64_t i = 0; i < d; i++) {
                        double p = (double)fx_load(dt, x->buf, fx_at4(x, a, b, n, i)) *
                                   (double)fx_load(dt, r->buf, (size_t)(i * d + j));
                        xr += p;
                        mag_xr += fabs(p);
                    }
                    const double xv = fx_load(dt, x->buf, fx_at4(x, a, b, n, j));
                    const double cv = fx_load(dt, c->buf, fx_at4_bcast(c, a, b, n, j));
                    const double sv = fx_load(dt, s->buf, fx_at4_bcast(s, a, b, n, j));
                    const double want = xv * cv + xr * sv;
                    const double mag = fabs(xv * cv) + mag_xr * fabs(sv);
                    const double got = fx_load(dt, y, fx_at4(x, a, b, n, j));
                    if (!(fabs(got - want) <= rtol * mag + 1e-30))
                        fail_msg("(%lld,%lld,%lld,%lld): %.9g, reference %.9g", (long long)a,
                                 (long long)b, (long long)n, (long long)j, got, want);
                }
}

static void test_any_matrix_against_float64(void **state) {
    (void)state;
    const int64_t xd[4] = {2, 4, 3, 24};
    const int64_t layouts[][4] = {{1, 4, 1, 24}, {2, 4, 3, 24}, {2, 1, 3, 24}, {1, 1, 1, 24}};
    for (size_t l = 0; l < 4; l++)
        for (size_t t = 0; t < 3; t++) {
            struct fx_tensor x, c, s, o, r;
            tensors(&x, &c, &s, &o, k_dtypes[t], xd, layouts[l]);
            float m[24 * 24];
            for (int i = 0; i < 24 * 24; i++)
                m[i] = fx_pattern((size_t)i, 5) / 4.0f;
            matrix_tensor(&r, k_dtypes[t], 24, m);
            assert_int_equal(run(&x, &c, &s, 0, &r, &o, 0), ACLNN_SUCCESS);
            check_reference(&x, &c, &s, &r, o.buf, k_dtypes[t]);
            free_all((struct fx_tensor *const[]){&x, &c, &s, &o, &r}, 5);
        }
}

/* out = x: the same bytes as out of place; 1 and 2 threads: the same bytes. */
static void test_in_place_and_threads(void **state) {
    (void)state;
    const int64_t xd[4] = {4, 64, 8, 64}, cd[4] = {1, 64, 1, 64};
    struct fx_tensor x, c, s, o, r, o1;
    tensors(&x, &c, &s, &o, ACL_BF16, xd, cd);
    float *m = mode_matrix(64, 0);
    m[3] = 0.5f; /* not a permutation */
    matrix_tensor(&r, ACL_BF16, 64, m);
    free(m);
    assert_int_equal(fx_tensor_init(&o1, ACL_BF16, 4, xd, NULL, 0, true), 0);
    ropekit_set_num_threads(1);
    assert_int_equal(run(&x, &c, &s, 0, &r, &o1, 0), ACLNN_SUCCESS);
    ropekit_set_num_threads(2);
    assert_int_equal(run(&x, &c, &s, 0, &r, &o, 0), ACLNN_SUCCESS);
    ropekit_set_num_threads(0);
    assert_memory_equal(o1.buf, o.buf, o.bytes);
    check_reference(&x, &c, &s, &r, o.buf, ACL_BF16);
    assert_int_equal(run(&x, &c, &s, 0, &r, &x, 0), ACLNN_SUCCESS);
    assert_memory_equal(x.buf, o.buf, o.bytes);
    free_all((struct fx_tensor *const[]){&x, &c, &s, &o, &r, &o1}, 6);
}

/* ---- the rules: code, message, nothing written ---- */

struct bad_case {
    const char *what;
    aclDataType xdt, rdt;
    int64_t xnd, xd[4], cd[4], sd[4], od[4];
    int64_t rnd, rd[3];
    int64_t mode;
    int null_arg; /* 1 x, 2 cos, 3 sin, 4 out, 5 workspaceSize, 6 executor */
    int out_is_cos;
    aclnnStatus code;
    const char *piece;
};

static void expect_refused(const struct bad_case *k) {
    struct fx_tensor x, c, s, o, r;
    assert_int_equal(fx_tensor_init(&x, k->xdt, k->xnd, k->xd, NULL, 0, true), 0);
    assert_int_equal(fx_tensor_init(&c, k->xdt, 4, k->cd, NULL, 0, true), 0);
    assert_int_equal(fx_tensor_init(&s, k->xdt, 4, k->sd, NULL, 0, true), 0);
    assert_int_equal(fx_tensor_init(&o, k->xdt, 4, k->od, NULL, 0, true), 0);
    assert_int_equal(fx_tensor_init(&r, k->rdt, k->rnd, k->rd, NULL, 0, true), 0);
    memset(o.buf, 0x5a, o.bytes);
    unsigned char *before = malloc(o.bytes), *cos_before = malloc(c.bytes);
    memcpy(before, o.buf, o.bytes);
    memcpy(cos_before, c.buf, c.bytes);
    uint64_t ws = 12345;
    aclOpExecutor *exec = (aclOpExecutor *)(uintptr_t)0x1;
    aclnnStatus got = aclnnRotaryPositionEmbeddingV2GetWorkspaceSize(
        k->null_arg == 1 ? NULL : x.t, k->null_arg == 2 ? NULL : c.t, k->null_arg == 3 ? NULL : s.t,
        k->mode, r.t,
        k->null_arg == 4 ? NULL
        : k->out_is_cos  ? c.t
                         : o.t,
        k->null_arg == 5 ? NULL : &ws, k->null_arg == 6 ? NULL : &exec);
    const char *msg = aclGetRecentErrMsg();
    if (got != k->code || !msg || !strstr(msg, V2_PHASE1) || !strstr(msg, k->piece))
        fail_msg("%s: got %d \"%s\", want %d mentioning \"%s\"", k->what, (int)got,
                 msg ? msg : "(none)", (int)k->code, k->piece);
    assert_int_equal(ws, 12345);
    assert_true(exec == (aclOpExecutor *)(uintptr_t)0x1);
    assert_memory_equal(before, o.buf, o.bytes);
    assert_memory_equal(cos_before, c.buf, c.bytes);
    free(before);
    free(cos_before);
    free_all((struct fx_tensor *const[]){&x, &c, &s, &o, &r}, 5);
}

static struct bad_case good(const char *what) {
    struct bad_case k = {
        .what = what, .xdt = ACL_FLOAT, .rdt = ACL_FLOAT, .xnd = 4, .rnd = 2, .mode = 0};
    const int64_t xd[4] = {2, 3, 4, 16}, cd[4] = {1, 3, 1, 16};
    memcpy(k.xd, xd, sizeof xd), memcpy(k.od, xd, sizeof xd);
    memcpy(k.cd, cd, sizeof cd), memcpy(k.sd, cd, sizeof cd);
    k.rd[0] = k.rd[1] = 16;
    return k;
}

static void test_rules(void **state) {
    (void)state;
    struct bad_case k;
    static const char *const null_names[] = {"",
                                             "x = NULL",
                                             "cos = NULL",
                                             "sin = NULL",
                                             "out = NULL",
                                             "workspaceSize = NULL",
                                             "executor = NULL"};
    for (int n = 1; n <= 6; n++) {
        k = good("NULL"), k.null_arg = n, k.code = ACLNN_ERR_PARAM_NULLPTR;
        k.piece = null_names[n];
        expect_refused(&k);
    }
    k = good("X_DTYPE"), k.xdt = ACL_INT32, k.rdt = ACL_INT32, k.code = ACLNN_ERR_PARAM_INVALID;
    k.piece = "x dtype";
    expect_refused(&k);
    k = good("DTYPE"), k.rdt = ACL_FLOAT16, k.code = ACLNN_ERR_PARAM_INVALID;
    k.piece = "rotate dtype";
    expect_refused(&k);
    k = good("MODE"), k.mode = 4, k.code = ACLNN_ERR_INNER_TILING_ERROR, k.piece = "mode = 4";
    expect_refused(&k);
    k = good("RANK rotate"), k.rnd = 3, k.rd[2] = 1, k.code = ACLNN_ERR_INNER_TILING_ERROR;
    k.piece = "must be 2-D";
    expect_refused(&k);
    k = good("RANK x"), k.xnd = 3, k.xd[0] = 3, k.xd[1] = 4, k.xd[2] = 16;
    k.code = ACLNN_ERR_INNER_TILING_ERROR, k.piece = "must be 4-D";
    expect_refused(&k);
    k = good("OUT_SHAPE"), k.od[2] = 5, k.code = ACLNN_ERR_INNER_TILING_ERROR;
    k.piece = "out shape";
    expect_refused(&k);
    k = good("MAX_D"), k.xd[3] = k.od[3] = k.cd[3] = k.sd[3] = 898, k.rd[0] = k.rd[1] = 898;
    k.code = ACLNN_ERR_INNER_TILING_ERROR, k.piece = "at most 896";
    expect_refused(&k);
    k = good("D_EVEN"), k.xd[3] = k.od[3] = k.cd[3] = k.sd[3] = 15, k.rd[0] = k.rd[1] = 15;
    k.code = ACLNN_ERR_INNER_TILING_ERROR, k.piece = "must be even";
    expect_refused(&k);
    k = good("CS_SHAPE"), k.sd[0] = 2, k.code = ACLNN_ERR_INNER_TILING_ERROR;
    k.piece = "sin shape";
    expect_refused(&k);
    k = good("ROTATE_SHAPE"), k.rd[1] = 18, k.code = ACLNN_ERR_INNER_TILING_ERROR;
    k.piece = "rotate shape";
    expect_refused(&k);
    k = good("CS_LEN"), k.cd[3] = k.sd[3] = 8, k.code = ACLNN_ERR_INNER_TILING_ERROR;
    k.piece = "cos last dim";
    expect_refused(&k);
    k = good("BROADCAST"), k.cd[1] = k.sd[1] = 2, k.code = ACLNN_ERR_INNER_TILING_ERROR;
    k.piece = "must be 1 or x's";
    expect_refused(&k);
    k = good("BROADCAST interleave"), k.mode = 1, k.cd[0] = k.sd[0] = 2;
    k.code = ACLNN_ERR_INNER_TILING_ERROR, k.piece = "interleave mode";
    expect_refused(&k);
    k = good("OVERLAP"), k.od[0] = 1, k.od[2] = 1, k.xd[0] = 1, k.xd[2] = 1, k.out_is_cos = 1;
    k.code = ACLNN_ERR_PARAM_INVALID, k.piece = "overlaps cos";
    expect_refused(&k);
}

/* An empty x succeeds and writes nothing, whatever the shapes the rules would bind. */
static void test_empty_x(void **state) {
    (void)state;
    const int64_t xd[4] = {0, 3, 4, 16}, cd[4] = {1, 3, 1, 16};
    struct fx_tensor x, c, s, o, r;
    tensors(&x, &c, &s, &o, ACL_FLOAT, xd, cd);
    int64_t rd[2] = {5, 5};
    assert_int_equal(fx_tensor_init(&r, ACL_FLOAT, 2, rd, NULL, 0, true), 0);
    assert_int_equal(run(&x, &c, &s, 0, &r, &o, 0), ACLNN_SUCCESS);
    free_all((struct fx_tensor *const[]){&x, &c, &s, &o, &r}, 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_rotate_is_v1),
        cmocka_unit_test(test_mode_matrix_is_the_mode),
        cmocka_unit_test(test_any_matrix_against_float64),
        cmocka_unit_test(test_in_place_and_threads),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_empty_x),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
