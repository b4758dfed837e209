/* verify suite for the whole-row rotary operators (SPEC §14-§17): RotaryPositionEmbedding
 * (ropekit_partial_rotary_out over [0, D)), its gradient's dx (ropekit_partial_rotary_grad
 * without x), InterleaveRope (the same in interleave-half mode, D 64) and ApplyRotaryPosEmb
 * (ropekit_apply_rotary, BSND, SBND or BNSD query and key). Random mode, dtypes, shapes and
 * cos/sin broadcast; the native result is checked against the float64 reference of SPEC
 * §14.2 (testkit/apply_rotary_reference.h) within SPEC §6, and must have the same bytes
 * under every ISA cap and on 1 and 2 threads. Problems of CANN's shapes also run through
 * the operator's aclnn face: when it accepts them it must give the native bytes (the
 * refusals' codes are the tests/aclnn suites' subject). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "aclnnop/aclnn_interleave_rope.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "ropekit/ropekit_cann.h"
#include "testkit/apply_rotary_reference.h"
#include "testkit/everywhere.h"
#include "testkit/half_bits.h"
#include "testkit/tolerance.h"
#include "testkit/verify.h"

enum ro_op { RO_RPE, RO_RPE_GRAD, RO_INTERLEAVE_ROPE, RO_APPLY };

/* The operators: their names and the modes the native face is drawn in. */
static const struct ro_op_row {
    const char *name;
    unsigned modes;  /* bit per ropekit_rotary_mode */
    bool two_inputs; /* query and key */
} ro_ops[] = {
    [RO_RPE] = {"RotaryPositionEmbedding", 0xfu, false},
    [RO_RPE_GRAD] = {"RotaryPositionEmbeddingGrad dx", 0xfu, false},
    [RO_INTERLEAVE_ROPE] = {"InterleaveRope", 1u << ROPEKIT_ROTARY_INTERLEAVE_HALF, false},
    [RO_APPLY] = {"ApplyRotaryPosEmb", 0xfu, true},
};

static const ropekit_dtype ro_dtypes[3] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16};
static const char *const ro_layouts[3] = {"BSND", "SBND", "BNSD"};

struct ro_case {
    enum ro_op op;
    int mode, layout; /* layout: ApplyRotaryPosEmb's (1 BSND, 2 SBND, 3 BNSD) - 1 */
    bool acl_like;
    ropekit_dtype xd, cd;
    int64_t x[4], k[4], cs[4];
    void *xb, *kb, *cb, *sb, *out, *kout; /* inputs, and the native results */
};

static int64_t ro_numel(const int64_t *d) {
    return d[0] * d[1] * d[2] * d[3];
}

static void *ro_random(struct tk_rng *rng, int64_t n, ropekit_dtype dt, double lo, double hi) {
    unsigned char *p = malloc((size_t)(n > 0 ? n : 1) * ropekit_dtype_size(dt));
    for (int64_t i = 0; p && i < n; i++)
        tk_store(p + (size_t)i * ropekit_dtype_size(dt), dt, tk_rng_uniform(rng, lo, hi));
    return p;
}

/* Mode, dtypes, shapes. About half take CANN's shapes and one dtype (the aclnn face runs). */
static bool ro_gen(struct tk_rng *rng, struct ro_case *c) {
    memset(c, 0, sizeof *c);
    c->op = (enum ro_op)tk_rng_below(rng, 4);
    c->acl_like = tk_rng_chance(rng, 50);
    do
        c->mode = (int)tk_rng_below(rng, 4);
    while (!(ro_ops[c->op].modes >> c->mode & 1u));
    c->xd = ro_dtypes[tk_rng_below(rng, 3)];
    c->cd = c->acl_like ? c->xd : ro_dtypes[tk_rng_below(rng, 3)];
    if (c->op == RO_INTERLEAVE_ROPE && c->acl_like && c->xd == ROPEKIT_F32)
        c->xd = c->cd = ROPEKIT_BF16;
    const int64_t m = c->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
    int64_t d = m * tk_rng_range(rng, 1, 48);
    if (c->op == RO_INTERLEAVE_ROPE)
        d = ROPEKIT_CANN_INTERLEAVE_ROPE_D;
    if (c->op == RO_APPLY && c->acl_like)
        d = 128; /* the D both ApplyRotaryPosEmb docs name (SPEC §14) */
    const int64_t b = tk_rng_range(rng, 1, 3), s = tk_rng_range(rng, 1, 6),
                  n = tk_rng_range(rng, 1, 4), nk = tk_rng_range(rng, 1, 3);
    if (c->op == RO_APPLY) {
        c->layout = c->acl_like && c->mode == ROPEKIT_ROTARY_INTERLEAVE_HALF
                        ? -1
                        : (int)tk_rng_below(rng, 3);
        if (c->layout < 0) { /* CANN's V2 takes no interleave-half */
            c->acl_like = false;
            c->layout = 0;
        }
        const int64_t cb = c->acl_like || tk_rng_chance(rng, 50) ? b : 1;
        const int64_t q[3][4] = {{b, s, n, d}, {s, b, n, d}, {b, n, s, d}};
        const int64_t k[3][4] = {{b, s, nk, d}, {s, b, nk, d}, {b, nk, s, d}};
        const int64_t cs[3][4] = {{cb, s, 1, d}, {s, cb, 1, d}, {cb, 1, s, d}};
        memcpy(c->x, q[c->layout], sizeof c->x);
        memcpy(c->k, k[c->layout], sizeof c->k);
        memcpy(c->cs, cs[c->layout], sizeof c->cs);
    } else if (c->op == RO_INTERLEAVE_ROPE) { /* x [B, N, S, 64], cos [B, 1, S or 1, 64] */
        const int64_t x[4] = {b, n, s, d}, cs[4] = {b, 1, tk_rng_chance(rng, 30) ? 1 : s, d};
        memcpy(c->x, x, sizeof x);
        memcpy(c->cs, cs, sizeof cs);
    } else { /* [B, S, N, D] with cos [1 or B, S, 1, D], or any broadcast natively */
        const int64_t x[4] = {b, s, n, d};
        memcpy(c->x, x, sizeof x);
        for (int i = 0; i < 3; i++)
            c->cs[i] = c->acl_like ? (i == 1                             ? s
                                      : i == 0 && tk_rng_chance(rng, 50) ? b
                                                                         : 1)
                                   : (tk_rng_chance(rng, 50) ? x[i] : 1);
        c->cs[3] = d;
    }
    const int64_t xn = ro_numel(c->x), kn = c->op == RO_APPLY ? ro_numel(c->k) : 0,
                  cn = ro_numel(c->cs);
    c->xb = ro_random(rng, xn, c->xd, -2.0, 2.0);
    c->kb = ro_random(rng, kn, c->xd, -2.0, 2.0);
    c->cb = ro_random(rng, cn, c->cd, -1.0, 1.0);
    c->sb = ro_random(rng, cn, c->cd, -1.0, 1.0);
    c->out = malloc((size_t)xn * ropekit_dtype_size(c->xd));
    c->kout = malloc((size_t)(kn > 0 ? kn : 1) * ropekit_dtype_size(c->xd));
    return c->xb && c->kb && c->cb && c->sb && c->out && c->kout;
}

static void ro_free(struct ro_case *c) {
    free(c->xb);
    free(c->kb);
    free(c->cb);
    free(c->sb);
    free(c->out);
    free(c->kout);
}

static void ro_describe(const struct ro_case *c, char *buf, size_t len) {
    int at =
        snprintf(buf, len, "%s %s %s/%s x [%lld,%lld,%lld,%lld] cos [%lld,%lld,%lld,%lld]",
                 ro_ops[c->op].name, ropekit_rotary_mode_name((ropekit_rotary_mode)c->mode),
                 ropekit_dtype_name(c->xd), ropekit_dtype_name(c->cd), (long long)c->x[0],
                 (long long)c->x[1], (long long)c->x[2], (long long)c->x[3], (long long)c->cs[0],
                 (long long)c->cs[1], (long long)c->cs[2], (long long)c->cs[3]);
    if (c->op == RO_APPLY && at > 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, " key [%lld,%lld,%lld,%lld] %s", (long long)c->k[0],
                 (long long)c->k[1], (long long)c->k[2], (long long)c->k[3], ro_layouts[c->layout]);
}

/* The native call into out (and kout): in place for ApplyRotaryPosEmb (from copies of the
 * inputs), out of place for the others. */
static ropekit_status ro_native(const struct ro_case *c, void *out, void *kout) {
    const ropekit_tensor x = ropekit_tensor_make(c->xb, c->xd, 4, c->x, NULL);
    const ropekit_tensor cs = ropekit_tensor_make(c->cb, c->cd, 4, c->cs, NULL);
    const ropekit_tensor sn = ropekit_tensor_make(c->sb, c->cd, 4, c->cs, NULL);
    const ropekit_tensor o = ropekit_tensor_make(out, c->xd, 4, c->x, NULL);
    const ropekit_rotary_mode mode = (ropekit_rotary_mode)c->mode;
    switch (c->op) {
    case RO_APPLY: {
        memcpy(out, c->xb, (size_t)ro_numel(c->x) * ropekit_dtype_size(c->xd));
        memcpy(kout, c->kb, (size_t)ro_numel(c->k) * ropekit_dtype_size(c->xd));
        const ropekit_tensor k = ropekit_tensor_make(kout, c->xd, 4, c->k, NULL);
        return ropekit_apply_rotary(&o, &k, &cs, &sn, mode, ROPEKIT_FORWARD);
    }
    case RO_RPE_GRAD:
        return ropekit_partial_rotary_grad(&x, &cs, &sn, NULL, &o, NULL, NULL, mode, 0, c->x[3]);
    default:
        return ropekit_partial_rotary_out(&x, &cs, &sn, &o, mode, 0, c->x[3], ROPEKIT_FORWARD);
    }
}

struct ro_compute {
    const struct ro_case *c;
    size_t xbytes;
};

/* tk_same_bytes_everywhere's computation: out then kout, side by side. */
static void ro_compute_fn(void *ctx, void *out) {
    const struct ro_compute *rc = ctx;
    ro_native(rc->c, out, (unsigned char *)out + rc->xbytes);
}

/* got (dense, x's shape) against the reference of `in` rotated by the case's cos/sin. */
static bool ro_check(const struct ro_case *c, const void *in, const int64_t *shape, const void *got,
                     const char *what, struct tk_verify_result *res) {
    const int64_t n = ro_numel(shape);
    double *ref = malloc((size_t)n * sizeof *ref), *mag = malloc((size_t)n * sizeof *mag);
    if (!ref || !mag) {
        free(ref);
        free(mag);
        snprintf(res->why, sizeof res->why, "out of memory");
        return res->failed = true, false;
    }
    const ropekit_tensor x = ropekit_tensor_make((void *)in, c->xd, 4, shape, NULL);
    const ropekit_tensor cs = ropekit_tensor_make(c->cb, c->cd, 4, c->cs, NULL);
    const ropekit_tensor sn = ropekit_tensor_make(c->sb, c->cd, 4, c->cs, NULL);
    tk_ref_apply_rotary(c->mode, c->op == RO_RPE_GRAD, &x, &cs, &sn, ref, mag);
    const struct tk_tol tol = tk_tol_of(c->xd);
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    const size_t item = ropekit_dtype_size(c->xd);
    for (int64_t i = 0; i < n; i++)
        tk_err_check(&st, &tol, tk_load((const char *)got + (size_t)i * item, c->xd), ref[i],
                     mag[i], i);
    free(ref);
    free(mag);
    if (st.bad) {
        res->failed = true;
        snprintf(res->why, sizeof res->why,
                 "%s: %lld of %lld elements beyond SPEC §6; element %lld got %.9g, float64 "
                 "%.9g, bound %.3g",
                 what, (long long)st.bad, (long long)n, (long long)st.first_bad, st.first_got,
                 st.first_ref, st.first_bound);
    }
    return !st.bad;
}

static aclTensor *ro_acl(void *data, ropekit_dtype dt, const int64_t *shape) {
    return aclCreateTensor(shape, 4, (aclDataType)dt, NULL, 0, ACL_FORMAT_ND, shape, 4, data);
}

/* The aclnn face on copies of the inputs: 1 when it ran and gave the native bytes, 0 when
 * phase 1 refused the problem (nothing written), -1 on a failure (in res). */
static int ro_aclnn(const struct tk_verify_env *env, const struct ro_case *c,
                    struct tk_verify_result *res) {
    const size_t xbytes = (size_t)ro_numel(c->x) * ropekit_dtype_size(c->xd);
    const size_t kbytes =
        c->op == RO_APPLY ? (size_t)ro_numel(c->k) * ropekit_dtype_size(c->xd) : 1;
    const size_t cbytes = (size_t)ro_numel(c->cs) * ropekit_dtype_size(c->cd);
    unsigned char *x = malloc(xbytes), *k = malloc(kbytes), *out = malloc(xbytes),
                  *dc = malloc(cbytes), *ds = malloc(cbytes);
    int rc = -1;
    aclTensor *t[7] = {NULL};
    if (!x || !k || !out || !dc || !ds) {
        snprintf(res->why, sizeof res->why, "out of memory");
        goto done;
    }
    memcpy(x, c->xb, xbytes);
    if (c->op == RO_APPLY)
        memcpy(k, c->kb, kbytes);
    memset(out, 0x5a, xbytes);
    t[0] = ro_acl(x, c->xd, c->x);
    t[1] = ro_acl(c->cb, c->cd, c->cs);
    t[2] = ro_acl(c->sb, c->cd, c->cs);
    t[3] = c->op == RO_APPLY ? ro_acl(k, c->xd, c->k) : ro_acl(out, c->xd, c->x);
    t[4] = ro_acl(dc, c->cd, c->cs);
    t[5] = ro_acl(ds, c->cd, c->cs);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus st;
    char mode_name[24];
    snprintf(mode_name, sizeof mode_name, "%s", ropekit_rotary_mode_name(c->mode));
    switch (c->op) {
    case RO_RPE:
        st = aclnnRotaryPositionEmbeddingGetWorkspaceSize(t[0], t[1], t[2], c->mode, t[3], &ws, &e);
        break;
    case RO_RPE_GRAD:
        st = aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(t[0], t[1], t[2], NULL, c->mode, t[3],
                                                              t[4], t[5], &ws, &e);
        break;
    case RO_INTERLEAVE_ROPE:
        st = aclnnInterleaveRopeGetWorkspaceSize(t[0], t[1], t[2], t[3], &ws, &e);
        break;
    default:
        st = aclnnApplyRotaryPosEmbV2GetWorkspaceSize(t[0], t[3], t[1], t[2], c->layout + 1,
                                                      mode_name, &ws, &e);
        break;
    }
    const unsigned char *got = c->op == RO_APPLY ? x : out;
    if (st != ACLNN_SUCCESS) { /* refused: nothing written */
        const bool untouched = c->op == RO_APPLY
                                   ? memcmp(x, c->xb, xbytes) == 0 && memcmp(k, c->kb, kbytes) == 0
                                   : out[0] == 0x5a && memcmp(out, out + 1, xbytes - 1) == 0;
        rc = untouched ? 0 : -1;
        if (!untouched)
            snprintf(res->why, sizeof res->why, "the aclnn face refused it (%d) but wrote",
                     (int)st);
        goto done;
    }
    switch (c->op) {
    case RO_RPE:
        st = aclnnRotaryPositionEmbedding(NULL, ws, e, env->acl->stream);
        break;
    case RO_RPE_GRAD:
        st = aclnnRotaryPositionEmbeddingGrad(NULL, ws, e, env->acl->stream);
        break;
    case RO_INTERLEAVE_ROPE:
        st = aclnnInterleaveRope(NULL, ws, e, env->acl->stream);
        break;
    default:
        st = aclnnApplyRotaryPosEmbV2(NULL, ws, e, env->acl->stream);
        break;
    }
    if (st != ACLNN_SUCCESS || aclrtSynchronizeStream(env->acl->stream) != ACL_SUCCESS) {
        snprintf(res->why, sizeof res->why, "the aclnn call failed after phase 1: %s",
                 aclGetRecentErrMsg());
        goto done;
    }
    if (memcmp(got, c->out, xbytes) != 0 ||
        (c->op == RO_APPLY && memcmp(k, c->kout, kbytes) != 0)) {
        snprintf(res->why, sizeof res->why, "the aclnn face's bytes differ from the native ones");
        goto done;
    }
    rc = 1;
done:
    for (int i = 0; i < 7; i++)
        if (t[i])
            aclDestroyTensor(t[i]);
    free(x);
    free(k);
    free(out);
    free(dc);
    free(ds);
    return rc;
}

void tk_verify_case_rotary_ops(const struct tk_verify_env *env, struct tk_rng *rng,
                               struct tk_verify_result *res) {
    struct ro_case c;
    const bool made = ro_gen(rng, &c);
    ro_describe(&c, res->what, sizeof res->what);
    if (!made) {
        snprintf(res->why, sizeof res->why, "out of memory");
        res->failed = true;
        ro_free(&c);
        return;
    }
    const ropekit_status st = ro_native(&c, c.out, c.kout);
    if (st != ROPEKIT_OK) {
        snprintf(res->why, sizeof res->why, "the native call failed: %s: %s",
                 ropekit_status_name(st), ropekit_last_error());
        res->failed = true;
        ro_free(&c);
        return;
    }
    const bool apply = c.op == RO_APPLY;
    if (ro_check(&c, c.xb, c.x, c.out, apply ? "query" : "out", res) && apply)
        ro_check(&c, c.kb, c.k, c.kout, "key", res);
    const size_t xbytes = (size_t)ro_numel(c.x) * ropekit_dtype_size(c.xd);
    const size_t kbytes = apply ? (size_t)ro_numel(c.k) * ropekit_dtype_size(c.xd) : 0;
    if (!res->failed && (env->cross_isa || env->cross_threads)) {
        const struct ro_compute rc = {&c, xbytes};
        const int threads[2] = {1, 2};
        tk_everywhere_diff diff;
        if (!tk_same_bytes_everywhere(ro_compute_fn, (void *)&rc, xbytes + kbytes, threads, 2,
                                      &diff)) {
            res->failed = true;
            snprintf(res->why, sizeof res->why,
                     "the bytes differ with the ISA capped to %s on %d thread(s)",
                     diff.isa >= 0 ? ropekit_isa_name((ropekit_isa)diff.isa) : "?", diff.threads);
        }
    }
    if (!res->failed && c.acl_like) {
        const int acl = ro_aclnn(env, &c, res);
        res->failed = acl < 0;
        res->ran_aclnn = acl > 0;
    }
    ro_free(&c);
}
