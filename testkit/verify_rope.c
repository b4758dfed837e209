/* verify suite for RopeWithSinCosCache (SPEC §5): random style, q/k dtype and (native)
 * cache dtype; rope, or mrope with random sections (native) or CANN's whitelist (aclnn),
 * cache mode 0/1; rotaryDim <= headSize with pass-through; T from 0 to a few hundred;
 * 2-D and 3-D q/k; query-only and key-only calls; padded, permuted, reversed and fused-qkv
 * views, in place or out of place (also into the same buffer as the inputs); NaN, inf
 * and extreme values.
 *
 * The native result is checked against the float64 reference (SPEC §6) and for untouched
 * bytes, and must not depend on the ISA or the thread count. Out-of-range positions must
 * give ROPEKIT_OUT_OF_RANGE with nothing written. The aclnn face (V1 and V2) must give the
 * native bytes where CANN's contract accepts the problem, the SPEC §5.5 code with the
 * buffers untouched where it rejects it (some calls are altered on purpose to reach
 * every rule), and 507015 from aclrtSynchronizeStream for an out-of-range position. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testkit/half_bits.h"
#include "testkit/layout_gen.h"
#include "testkit/rope_case.h"
#include "testkit/rules.h"
#include "testkit/verify.h"

enum { RV_MAX_ELEMS = 1 << 15, RV_MAX_POS = 600 };

static const ropekit_dtype rv_dtypes[3] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16};

/* The problem's parameters before any memory is laid out. */
struct rv_shape {
    bool aclnn_like; /* within CANN's contract (unless a perturbation says otherwise) */
    ropekit_dtype xd, cd;
    bool has_q, has_k;
    int q_rank, k_rank;
};

/* ---- problem parameters ---- */

static void rv_pick_sections(struct tk_rng *rng, struct tk_rope_case *rc, bool aclnn_like) {
    if (aclnn_like) {
        const struct tk_mrope_sections *w =
            &tk_aclnn_mrope_sections[tk_rng_below(rng, TK_ACLNN_MROPE_SECTION_LISTS)];
        rc->nsec = w->count;
        int64_t sum = 0;
        for (int i = 0; i < rc->nsec; i++)
            sum += rc->sections[i] = w->s[i];
        rc->rot_dim = 2 * sum;
    } else {
        static const int counts[] = {1, 2, 3, 3, 3, 3, 4, 5, 8};
        rc->nsec = counts[tk_rng_below(rng, sizeof counts / sizeof counts[0])];
        const int64_t h = tk_rng_range(rng, rc->nsec == 1 ? 1 : 2, 96);
        /* s0 >= 1; the rest >= 0 (zero-width sections included), summing to h. */
        int64_t left = h - 1;
        for (int i = 0; i < rc->nsec; i++) {
            int64_t take = i == rc->nsec - 1 ? left : tk_rng_range(rng, 0, left);
            rc->sections[i] = take + (i == 0);
            left -= take;
        }
        rc->rot_dim = 2 * h;
    }
    rc->cache_mode = rc->nsec == 3 ? (int64_t)tk_rng_below(rng, 2) : 0;
}

static void rv_pick_sizes(struct tk_rng *rng, struct tk_rope_case *rc, struct rv_shape *sh,
                          bool mrope) {
    const int64_t align = sh->xd == ROPEKIT_F32 ? 16 : 32;
    if (sh->aclnn_like) {
        if (!mrope)
            rc->rot_dim = align * tk_rng_range(rng, 1, sh->xd == ROPEKIT_F32 ? 8 : 4);
        rc->head_size =
            rc->rot_dim + (tk_rng_chance(rng, 60) ? 0 : align * tk_rng_range(rng, 1, 3));
        return;
    }
    if (mrope) {
        rc->head_size = rc->rot_dim + (tk_rng_chance(rng, 50) ? 0 : tk_rng_range(rng, 1, 40));
        return;
    }
    static const int64_t common[] = {64, 80, 96, 128, 256};
    rc->head_size =
        tk_rng_chance(rng, 40) ? common[tk_rng_below(rng, 5)] : tk_rng_range(rng, 2, 200);
    const int64_t most = rc->head_size / 2;
    rc->rot_dim = 2 * (tk_rng_chance(rng, 40) ? most : tk_rng_range(rng, 1, most));
}

static int64_t rv_pick_tokens(struct tk_rng *rng) {
    unsigned r = (unsigned)tk_rng_below(rng, 100);
    return r < 4    ? 0
           : r < 50 ? tk_rng_range(rng, 1, 16)
           : r < 85 ? tk_rng_range(rng, 17, 128)
                    : tk_rng_range(rng, 129, 400);
}

static void rv_pick_problem(struct tk_rng *rng, struct tk_rope_case *rc, struct rv_shape *sh) {
    sh->aclnn_like = tk_rng_chance(rng, 45);
    rc->neox = tk_rng_chance(rng, 50);
    sh->xd = rv_dtypes[tk_rng_below(rng, 3)];
    sh->cd = sh->aclnn_like || tk_rng_chance(rng, 50) ? sh->xd : rv_dtypes[tk_rng_below(rng, 3)];
    const bool mrope = tk_rng_chance(rng, 45);
    rc->nsec = 0;
    rc->cache_mode = tk_rng_chance(rng, 30); /* ignored by plain rope */
    if (mrope) {
        rv_pick_sections(rng, rc, sh->aclnn_like);
    } else if (tk_rng_chance(rng, 20)) { /* a section array whose first value is 0: rope */
        rc->nsec = tk_rng_chance(rng, 70) ? 3 : 4;
        for (int i = 0; i < rc->nsec; i++)
            rc->sections[i] = i == 0 ? 0 : tk_rng_range(rng, 0, 30);
    }
    rv_pick_sizes(rng, rc, sh, mrope);

    sh->has_q = sh->has_k = true;
    if (!sh->aclnn_like) {
        unsigned r = (unsigned)tk_rng_below(rng, 100);
        sh->has_q = r >= 10;
        sh->has_k = r < 10 || r >= 20;
    }
    rc->q_heads = tk_rng_range(rng, sh->aclnn_like ? 1 : 0, 8);
    rc->k_heads = tk_rng_chance(rng, 50) ? rc->q_heads : tk_rng_range(rng, 1, 4);
    if (!sh->aclnn_like && tk_rng_chance(rng, 4))
        rc->k_heads = 0;
    if (!sh->has_q)
        rc->q_heads = 0;
    if (!sh->has_k)
        rc->k_heads = 0;
    sh->q_rank = !sh->aclnn_like && tk_rng_chance(rng, 30) ? 3 : 2;
    sh->k_rank = !sh->aclnn_like && tk_rng_chance(rng, 30) ? 3 : 2;

    rc->tokens = rv_pick_tokens(rng);
    const int64_t widest = (rc->q_heads > rc->k_heads ? rc->q_heads : rc->k_heads) * rc->head_size;
    if (widest > 0 && rc->tokens * widest > RV_MAX_ELEMS)
        rc->tokens = RV_MAX_ELEMS / widest;
    rc->max_pos =
        tk_rng_chance(rng, 10) ? tk_rng_range(rng, 1, 4) : tk_rng_range(rng, 5, RV_MAX_POS);
}

/* ---- memory layout ---- */

/* Shape of a q/k view: [T, H*hs] or [T, H, hs]. */
static int rv_qk_shape(const struct tk_rope_case *rc, int64_t heads, int rank, int64_t *shape) {
    shape[0] = rc->tokens;
    if (rank == 3) {
        shape[1] = heads;
        shape[2] = rc->head_size;
    } else {
        shape[1] = heads * rc->head_size;
    }
    return rank;
}

/* A buffer of its own with a random layout for view v. Returns -1 when out of memory. */
static int rv_own_buffer(struct tk_rope_case *rc, struct tk_rng *rng, int v, ropekit_dtype dt,
                         int ndim, const int64_t *shape, const struct tk_layout_opts *opts) {
    struct tk_layout l = tk_layout_random(rng, ndim, shape, opts);
    int b = tk_rc_add_buffer(rc, dt, l.buf_elems);
    if (b < 0)
        return -1;
    tk_rc_set_view(&rc->view[v], b, ndim, shape, l.strides, l.offset);
    return 0;
}

/* q and k (and a v gap, and optionally the outputs) side by side in rows of one buffer,
 * the way a fused qkv projection lays them out. With `shifted` the outputs get the inputs'
 * strides at a random start in the same buffer: disjoint, touching or overlapping. */
static int rv_fused(struct tk_rope_case *rc, struct tk_rng *rng, const struct rv_shape *sh,
                    bool inputs, bool with_outputs, bool shifted) {
    const int64_t qw = sh->has_q ? rc->q_heads * rc->head_size : 0;
    const int64_t kw = sh->has_k ? rc->k_heads * rc->head_size : 0;
    const int64_t lead = tk_rng_range(rng, 0, 7),
                  pad = tk_rng_chance(rng, 50) ? 0 : tk_rng_range(rng, 1, 9);
    int64_t col[4], w = 0;
    const int first = inputs ? 0 : 2, last = inputs && !with_outputs ? 2 : 4;
    for (int s = first; s < last; s++) {
        col[s] = w;
        w += s % 2 == 0 ? qw : kw;
        if (s == 1 && inputs)
            w += kw; /* the values */
    }
    const int64_t room = w; /* shifted: the outputs' nominal place, after q | k | v */
    if (shifted)
        w += qw + kw;
    w += pad;
    if (w == 0)
        w = 1;
    const bool jitter = tk_rng_chance(rng, 75); /* else anywhere in the row */
    const int b =
        tk_rc_add_buffer(rc, sh->xd, lead + (rc->tokens + shifted) * w + tk_rng_range(rng, 0, 7));
    if (b < 0)
        return -1;
    for (int s = first; s < last; s++) {
        const bool q = s % 2 == 0;
        if (!(q ? sh->has_q : sh->has_k))
            continue;
        const int rank = q ? sh->q_rank : sh->k_rank;
        int64_t shape[3], strides[3] = {w, rank == 3 ? rc->head_size : 1, 1};
        rv_qk_shape(rc, q ? rc->q_heads : rc->k_heads, rank, shape);
        const int view = (q ? TK_RC_QI : TK_RC_KI) + (s >= 2 ? 3 : 0);
        tk_rc_set_view(&rc->view[view], b, rank, shape, strides, lead + col[s]);
        if (shifted) {
            const int64_t nominal = room + (q ? 0 : qw), shift = tk_rng_range(rng, -2, 2);
            int64_t at = jitter ? nominal + (tk_rng_chance(rng, 50) ? shift : 0)
                                : tk_rng_range(rng, 0, w - 1);
            rc->view[view + 3] = rc->view[view];
            rc->view[view + 3].offset = lead + (at < 0 ? 0 : at);
        }
    }
    return 0;
}

static int rv_layout(struct tk_rope_case *rc, struct tk_rng *rng, const struct rv_shape *sh,
                     char *layout, size_t len) {
    const bool native_only = !sh->aclnn_like;
    struct tk_layout_opts opts = {false, false, false, false};
    if (tk_rng_chance(rng, 40)) {
        opts.pad = true;
        opts.permute = native_only && tk_rng_chance(rng, 25);
        opts.negative = native_only && tk_rng_chance(rng, 15);
    }
    /* positions: [T] or [m, T] */
    const int rows = tk_rc_pos_rows(rc);
    int64_t pshape[2] = {rows, rc->tokens};
    const bool p2 = tk_rc_is_mrope(rc);
    if (rv_own_buffer(rc, rng, TK_RC_POS, ROPEKIT_I64, p2 ? 2 : 1, p2 ? pshape : pshape + 1,
                      &opts) != 0)
        return -1;
    const int64_t cshape[2] = {rc->max_pos, rc->rot_dim};
    if (rv_own_buffer(rc, rng, TK_RC_CACHE, sh->cd, 2, cshape, &opts) != 0)
        return -1;

    const bool fused = tk_rng_chance(rng, 35), in_place = tk_rng_chance(rng, 45);
    const bool shared_out = fused && !in_place && tk_rng_chance(rng, 30);
    const bool shifted = fused && !in_place && !shared_out && tk_rng_chance(rng, 30);
    snprintf(layout, len, "%s%s",
             !fused       ? ""
             : shared_out ? "fused+out "
             : shifted    ? "fused+shifted "
                          : "fused ",
             in_place ? "in-place" : "out-of-place");
    if (fused) {
        if (rv_fused(rc, rng, sh, true, shared_out, shifted) != 0)
            return -1;
    } else {
        for (int side = 0; side < 2; side++) {
            if (!(side == 0 ? sh->has_q : sh->has_k))
                continue;
            int64_t shape[3];
            const int rank = rv_qk_shape(rc, side == 0 ? rc->q_heads : rc->k_heads,
                                         side == 0 ? sh->q_rank : sh->k_rank, shape);
            if (rv_own_buffer(rc, rng, side == 0 ? TK_RC_QI : TK_RC_KI, sh->xd, rank, shape,
                              &opts) != 0)
                return -1;
        }
    }
    if (in_place) {
        rc->view[TK_RC_QO] = rc->view[TK_RC_QI];
        rc->view[TK_RC_KO] = rc->view[TK_RC_KI];
    } else if (!shared_out && !shifted) {
        if (fused && tk_rng_chance(rng, 50))
            return rv_fused(rc, rng, sh, false, true, false);
        for (int side = 0; side < 2; side++) {
            const int in = side == 0 ? TK_RC_QI : TK_RC_KI;
            if (!rc->view[in].present)
                continue;
            struct tk_layout_opts o = opts;
            o.pad = tk_rng_chance(rng, 40);
            if (rv_own_buffer(rc, rng, in + 3, sh->xd, rc->view[in].ndim, rc->view[in].shape, &o) !=
                0)
                return -1;
        }
    }
    return 0;
}

/* ---- contents ---- */

static void rv_scribble(struct tk_rope_case *rc, struct tk_rng *rng) {
    for (int b = 0; b < rc->nbufs; b++) {
        size_t n = (size_t)rc->buf[b].elems * ropekit_dtype_size(rc->buf[b].dtype);
        for (size_t i = 0; i < n; i++)
            rc->buf[b].data[i] = (unsigned char)tk_rng_next(rng);
    }
}

static void rv_store(struct tk_rope_case *rc, const struct tk_rc_view *v, int64_t elem,
                     double value) {
    const struct tk_rc_buffer *b = &rc->buf[v->buf];
    tk_store(b->data + (size_t)elem * ropekit_dtype_size(b->dtype), b->dtype, value);
}

static void rv_fill_uniform(struct tk_rope_case *rc, int id, struct tk_rng *rng, double scale) {
    const struct tk_rc_view *v = &rc->view[id];
    int64_t idx[3] = {0, 0, 0};
    if (!v->present || tk_rc_view_numel(v) == 0)
        return;
    do {
        rv_store(rc, v, tk_rc_view_elem(v, idx), tk_rng_uniform(rng, -scale, scale));
    } while (tk_index_next(v->ndim, v->shape, idx));
}

/* A model's table (cos and sin of p * base^(-2j/R)), or independent random angles, or
 * unrelated values. */
static void rv_fill_cache(struct tk_rope_case *rc, struct tk_rng *rng, double scale) {
    static const double pi = 3.14159265358979323846;
    const struct tk_rc_view *v = &rc->view[TK_RC_CACHE];
    const int64_t h = rc->rot_dim / 2;
    const unsigned kind = (unsigned)tk_rng_below(rng, 3);
    const double base = tk_rng_chance(rng, 50) ? 10000.0 : 1e6;
    for (int64_t p = 0; p < rc->max_pos; p++)
        for (int64_t j = 0; j < h; j++) {
            const int64_t ic[2] = {p, j}, is[2] = {p, h + j};
            double a = kind == 0 ? (double)p * pow(base, -2.0 * (double)j / (double)rc->rot_dim)
                                 : tk_rng_uniform(rng, -pi, pi);
            double c = cos(a), s = sin(a);
            if (kind == 2) {
                c = tk_rng_uniform(rng, -2.0, 2.0);
                s = tk_rng_uniform(rng, -2.0, 2.0);
            }
            rv_store(rc, v, tk_rc_view_elem(v, ic), scale * c);
            rv_store(rc, v, tk_rc_view_elem(v, is), scale * s);
        }
}

static void rv_inject_specials(struct tk_rope_case *rc, int id, struct tk_rng *rng) {
    const struct tk_rc_view *v = &rc->view[id];
    if (!v->present || tk_rc_view_numel(v) == 0)
        return;
    const ropekit_dtype dt = tk_rc_view_dtype(rc, id);
    for (int64_t count = tk_rng_range(rng, 1, 4); count > 0; count--) {
        int64_t idx[3];
        for (int k = 0; k < v->ndim; k++)
            idx[k] = (int64_t)tk_rng_below(rng, (uint64_t)v->shape[k]);
        const double sub = tk_dtype_min_subnormal(dt);
        const double values[] = {
            NAN,  INFINITY,         -INFINITY,        -0.0, sub * (double)tk_rng_range(rng, 1, 9),
            -sub, tk_dtype_max(dt), -tk_dtype_max(dt)};
        rv_store(rc, v, tk_rc_view_elem(v, idx),
                 values[tk_rng_below(rng, sizeof values / sizeof values[0])]);
    }
}

static void rv_fill_positions(struct tk_rope_case *rc, struct tk_rng *rng) {
    const int rows = tk_rc_pos_rows(rc);
    const bool sequential = tk_rng_chance(rng, 30);
    const int64_t start = (int64_t)tk_rng_below(rng, (uint64_t)rc->max_pos);
    for (int r = 0; r < rows; r++)
        for (int64_t t = 0; t < rc->tokens; t++) {
            int64_t p = sequential ? (start + t) % rc->max_pos
                                   : (int64_t)tk_rng_below(rng, (uint64_t)rc->max_pos);
            tk_rc_set_position(rc, r, t, p);
        }
}

static void rv_fill(struct tk_rope_case *rc, struct tk_rng *rng, const struct rv_shape *sh) {
    rv_scribble(rc, rng); /* padding and outputs start as noise, so stray writes show */
    const bool x16 = sh->xd == ROPEKIT_F16, c16 = sh->cd == ROPEKIT_F16;
    unsigned r = (unsigned)tk_rng_below(rng, 100);
    const double xs = r < 75 ? 4.0 : r < 85 ? (x16 ? 1e3 : 1e30) : (x16 ? 1e-3 : 1e-20);
    double cs = 1.0;
    if (r >= 85 && tk_rng_chance(rng, 50))
        cs = c16 ? 1e-2 : 1e-19;
    rv_fill_uniform(rc, TK_RC_QI, rng, xs);
    rv_fill_uniform(rc, TK_RC_KI, rng, xs);
    rv_fill_cache(rc, rng, cs);
    rv_fill_positions(rc, rng);
    if (tk_rng_chance(rng, 12)) {
        rv_inject_specials(rc, TK_RC_QI, rng);
        rv_inject_specials(rc, TK_RC_KI, rng);
        rv_inject_specials(rc, TK_RC_CACHE, rng);
    }
}

static int rv_gen_case(struct tk_rng *rng, struct tk_rope_case *rc, struct rv_shape *sh,
                       char *layout, size_t len) {
    memset(rc, 0, sizeof *rc);
    rv_pick_problem(rng, rc, sh);
    if (rv_layout(rc, rng, sh, layout, len) != 0)
        return -1;
    rv_fill(rc, rng, sh);
    return 0;
}

/* ---- checks ---- */

static void rv_fail(struct tk_verify_result *res, const char *fmt, ...) {
    if (res->failed)
        return;
    res->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->why, sizeof res->why, fmt, ap);
    va_end(ap);
}

static void rv_fail_bytes(struct tk_verify_result *res, const char *what, int buf, int64_t elem) {
    rv_fail(res, "%s: first difference at buffer %d element %lld", what, buf, (long long)elem);
}

static bool rv_native(const struct tk_rope_case *rc, struct tk_rc_image *img, bool via_plan,
                      ropekit_status want, const char *label, struct tk_verify_result *res) {
    tk_rc_image_reset(img, rc);
    ropekit_status st = tk_rc_native_run(rc, img, via_plan);
    if (st == want)
        return true;
    rv_fail(res, "%s: %s (%s)", label, ropekit_status_name(st), ropekit_last_error());
    return false;
}

/* Reruns with the ISA capped to scalar (on one thread when threads are checked too) and
 * at the default ISA on one thread; every result must have the same bytes. */
static void rv_cross_checks(const struct tk_verify_env *env, const struct tk_rope_case *rc,
                            const struct tk_rc_image *native, struct tk_rc_image *scratch,
                            struct tk_verify_result *res) {
    int wb;
    int64_t we;
    if (env->cross_isa && !res->failed) {
        ropekit_isa prev = ropekit_get_active_isa();
        ropekit_set_max_isa(ROPEKIT_ISA_SCALAR);
        if (env->cross_threads)
            ropekit_set_num_threads(1);
        bool ok = rv_native(rc, scratch, false, ROPEKIT_OK, "native (scalar ISA)", res);
        ropekit_set_num_threads(0);
        ropekit_set_max_isa(prev);
        if (ok && !tk_rc_image_same(rc, scratch, native, &wb, &we))
            rv_fail_bytes(res, "the scalar-ISA result differs from the native result", wb, we);
    }
    if (env->cross_threads && !res->failed) {
        ropekit_set_num_threads(1);
        bool ok = rv_native(rc, scratch, true, ROPEKIT_OK, "native (1 thread)", res);
        ropekit_set_num_threads(0);
        if (ok && !tk_rc_image_same(rc, scratch, native, &wb, &we))
            rv_fail_bytes(res, "the single-thread result differs from the native result", wb, we);
    }
}

/* ---- aclnn: altered calls that CANN must reject ---- */

static void rv_swap_dtype(struct tk_rc_acl_call *c, int v) {
    const int d = c->dtype[v];
    c->dtype[v] = d == ACL_FLOAT16 ? ACL_BF16 : d == ACL_BF16 ? ACL_FLOAT16 : ACL_INT32;
}

/* Alters one argument; returns false when the alteration does not apply. */
static bool rv_perturb(struct tk_rc_acl_call *c, const struct tk_rope_case *rc,
                       struct tk_rng *rng) {
    const int64_t tokens = rc->tokens;
    struct tk_rc_view *qi = &c->view[TK_RC_QI], *ki = &c->view[TK_RC_KI];
    struct tk_rc_view *qo = &c->view[TK_RC_QO], *ko = &c->view[TK_RC_KO];
    switch (tk_rng_below(rng, 17)) {
    case 0: /* row 0, before the null checks */
        c->version = 2;
        c->cache_mode = tk_rng_chance(rng, 50) ? 2 : -1;
        if (tk_rng_chance(rng, 50))
            c->view[tk_rng_below(rng, TK_RC_NVIEWS)].present = false;
        snprintf(c->change, sizeof c->change, "cacheMode %lld", (long long)c->cache_mode);
        return true;
    case 1: {
        int v = (int)tk_rng_below(rng, TK_RC_NVIEWS);
        c->view[v].present = false;
        snprintf(c->change, sizeof c->change, "tensor %d NULL", v);
        return true;
    }
    case 2:
        if (tk_rng_chance(rng, 50))
            c->null_workspace_size = true;
        else
            c->null_executor = true;
        snprintf(c->change, sizeof c->change, "workspaceSize or executor NULL");
        return true;
    case 3: {
        int v = (int)tk_rng_below(rng, TK_RC_NVIEWS);
        if (tk_rc_view_numel(&c->view[v]) == 0 || c->reuse_input[v])
            return false;
        c->null_data[v] = true;
        snprintf(c->change, sizeof c->change, "tensor %d over NULL data", v);
        return true;
    }
    case 4:
        c->dtype[TK_RC_POS] = ACL_INT32;
        snprintf(c->change, sizeof c->change, "positions int32");
        return true;
    case 5: {
        static const int targets[] = {TK_RC_QI, TK_RC_KI, TK_RC_CACHE, TK_RC_QO, TK_RC_KO};
        int v = targets[tk_rng_below(rng, 5)];
        if (c->reuse_input[v] || (v == TK_RC_QI && c->reuse_input[TK_RC_QO]) ||
            (v == TK_RC_KI && c->reuse_input[TK_RC_KO]))
            return false;
        if (v == TK_RC_QI)
            c->dtype[v] = c->dtype[v] == ACL_FLOAT ? ACL_INT32 : ACL_INT16;
        else
            rv_swap_dtype(c, v);
        snprintf(c->change, sizeof c->change, "tensor %d dtype %d", v, c->dtype[v]);
        return true;
    }
    case 6: { /* cache as [1, M, R] */
        struct tk_rc_view *cv = &c->view[TK_RC_CACHE];
        cv->ndim = 3;
        cv->shape[2] = cv->shape[1];
        cv->strides[2] = cv->strides[1];
        cv->shape[1] = cv->shape[0];
        cv->strides[1] = cv->strides[0];
        cv->shape[0] = 1;
        cv->strides[0] = 0;
        snprintf(c->change, sizeof c->change, "cosSinCache 3-D");
        return true;
    }
    case 7: /* keyIn and keyOut one token short */
        if (tokens < 2 || c->reuse_input[TK_RC_KO])
            return false;
        ki->shape[0]--;
        if (!tk_rc_view_same(ko, &rc->view[TK_RC_KI]))
            ko->shape[0]--;
        else
            *ko = *ki;
        snprintf(c->change, sizeof c->change, "keyIn/keyOut %lld tokens", (long long)ki->shape[0]);
        return true;
    case 8: { /* an output one head or token short */
        struct tk_rc_view *o = tk_rng_chance(rng, 50) ? qo : ko;
        if (c->reuse_input[o == qo ? TK_RC_QO : TK_RC_KO])
            return false;
        const int dim = tokens >= 2 && tk_rng_chance(rng, 50) ? 0 : 1;
        const int64_t step = dim == 1 && o->ndim == 2 ? rc->head_size : 1;
        if (o->shape[dim] < step)
            return false;
        o->shape[dim] -= step;
        snprintf(c->change, sizeof c->change, "output shape[%d] %lld", dim,
                 (long long)o->shape[dim]);
        return true;
    }
    case 9: { /* section array of 0, 2 or 5 values, or a negative value */
        static const int64_t base[5] = {16, 24, 24, 0, 0}, sizes[4] = {3, 0, 2, 5};
        c->has_sections = true;
        c->nsec = (int)sizes[tk_rng_below(rng, 4)];
        for (int i = 0; i < c->nsec; i++)
            c->sections[i] = base[i];
        if (c->nsec == 3)
            c->sections[1 + tk_rng_below(rng, 2)] = -8;
        snprintf(c->change, sizeof c->change, "mropeSection size %d", c->nsec);
        return true;
    }
    case 10: { /* sections outside the whitelist, or a whitelisted list of the wrong sum */
        c->has_sections = true;
        if (tk_rng_chance(rng, 50)) {
            const int64_t off[3] = {24, 16, 24};
            c->nsec = 3;
            for (int i = 0; i < 3; i++)
                c->sections[i] = off[i];
        } else {
            const struct tk_mrope_sections *w =
                &tk_aclnn_mrope_sections[tk_rng_below(rng, TK_ACLNN_MROPE_SECTION_LISTS)];
            c->nsec = w->count;
            for (int i = 0; i < c->nsec; i++)
                c->sections[i] = w->s[i];
        }
        snprintf(c->change, sizeof c->change, "mropeSection changed");
        return true;
    }
    case 11:
        c->head_size = tk_rng_chance(rng, 50) ? 0 : -rc->head_size;
        snprintf(c->change, sizeof c->change, "headSize %lld", (long long)c->head_size);
        return true;
    case 12: /* four sections with cacheMode 1 */
        if (rc->rot_dim != 128)
            return false;
        c->version = 2;
        c->cache_mode = 1;
        c->has_sections = true;
        c->nsec = 4;
        for (int i = 0; i < 4; i++)
            c->sections[i] = 16;
        snprintf(c->change, sizeof c->change, "[16,16,16,16] with cacheMode 1");
        return true;
    case 13: /* a head size that does not divide, or is below rotaryDim */
        c->head_size = tk_rng_chance(rng, 50) ? rc->head_size + 32 : rc->head_size / 2;
        if (c->head_size <= 0)
            return false;
        snprintf(c->change, sizeof c->change, "headSize %lld", (long long)c->head_size);
        return true;
    case 14: { /* positions of the wrong shape */
        struct tk_rc_view *p = &c->view[TK_RC_POS];
        if (p->ndim == 2) {
            p->ndim = 1;
            p->shape[0] = p->shape[1];
            p->strides[0] = p->strides[1];
        } else {
            p->ndim = 2;
            p->shape[1] = p->shape[0];
            p->strides[1] = p->strides[0];
            p->shape[0] = 1;
            p->strides[0] = 0;
        }
        snprintf(c->change, sizeof c->change, "positions rank %d", p->ndim);
        return true;
    }
    case 15: /* one output over the other, or over the other side's input */
        if (!tk_rc_view_same(qi, ki) && qi->ndim == ki->ndim && qi->shape[1] == ki->shape[1] &&
            !c->reuse_input[TK_RC_KO] && !c->reuse_input[TK_RC_QO]) {
            if (tk_rng_chance(rng, 50))
                *ko = *qo;
            else
                *qo = *ki;
            snprintf(c->change, sizeof c->change, "outputs overlapping");
            return true;
        }
        return false;
    default: /* queryOut rows on top of each other */
        if (tokens < 2 || c->reuse_input[TK_RC_QO])
            return false;
        qo->strides[0] = 0;
        snprintf(c->change, sizeof c->change, "queryOut row stride 0");
        return true;
    }
}

/* ---- aclnn runs ---- */

static bool rv_has_message(const char *err) {
    const char *msg = strstr(err, " = ");
    msg = msg ? strstr(msg, ": ") : NULL;
    return msg && msg[2] != '\0';
}

static void rv_aclnn_one(const struct tk_verify_env *env, const struct tk_rope_case *rc,
                         const struct tk_rc_acl_call *call, const struct tk_rc_image *native,
                         bool native_ok, struct tk_rc_image *scratch,
                         struct tk_verify_result *res) {
    const int expected = tk_rc_acl_expected(call, rc);
    if (expected < 0 || (expected == 0 && !native_ok))
        return;
    char err[400] = "", label[160];
    int stage = 0, wb;
    int64_t we;
    snprintf(label, sizeof label, "%s%s%s", tk_rc_acl_name(call), call->change[0] ? " with " : "",
             call->change);
    tk_rc_image_reset(scratch, rc);
    const int st = tk_rc_acl_run(call, rc, env->acl, scratch, &stage, err, sizeof err);
    if (expected == 0) {
        res->ran_aclnn = true;
        if (st != 0)
            rv_fail(res, "%s: %s", label, err);
        else if (!tk_rc_image_same(rc, scratch, native, &wb, &we))
            rv_fail_bytes(res, label, wb, we);
        return;
    }
    res->rejected_aclnn = true;
    const int want_stage = expected == ACL_ERROR_RT_AICORE_EXCEPTION ? 3 : 1;
    if (st != expected || stage != want_stage)
        rv_fail(res, "%s: expected %d at step %d as CANN, got %d at step %d (%s)", label, expected,
                want_stage, st, stage, st ? err : "accepted");
    else if (!tk_rc_image_untouched(rc, scratch, &wb, &we))
        rv_fail_bytes(res, label, wb, we);
    else if (!rv_has_message(err))
        rv_fail(res, "%s: status without a message: %s", label, err);
}

static void rv_aclnn(const struct tk_verify_env *env, const struct tk_rope_case *rc,
                     struct tk_rng *rng, const struct tk_rc_image *native, bool native_ok,
                     struct tk_rc_image *scratch, struct tk_verify_result *res) {
    /* V1 is V2 with cacheMode 0; plain rope ignores the cache mode. */
    const bool interleaved = tk_rc_is_mrope(rc) && rc->cache_mode == 1;
    struct tk_rc_acl_call calls[2];
    int ncalls = 0;
    if (!interleaved)
        tk_rc_acl_call_make(&calls[ncalls++], rc, 1, 0);
    tk_rc_acl_call_make(&calls[ncalls++], rc, 2,
                        tk_rc_is_mrope(rc) ? rc->cache_mode : (int64_t)tk_rng_below(rng, 2));
    for (int i = 0; i < ncalls; i++)
        for (int o = TK_RC_QO; o <= TK_RC_KO; o++)
            calls[i].reuse_input[o] = calls[i].view[o].present &&
                                      tk_rc_view_same(&calls[i].view[o], &calls[i].view[o - 3]) &&
                                      tk_rng_chance(rng, 50);
    if (tk_rng_chance(rng, 35)) {
        struct tk_rc_acl_call *c = &calls[tk_rng_below(rng, (uint64_t)ncalls)];
        const int version = c->version;
        const int64_t cache_mode = c->cache_mode;
        for (int tries = 0; tries < 4 && !rv_perturb(c, rc, rng); tries++)
            tk_rc_acl_call_make(c, rc, version, cache_mode);
        /* An alteration that leaves a valid but different problem proves nothing here. */
        if (c->change[0] && tk_rc_acl_expected(c, rc) == 0)
            tk_rc_acl_call_make(c, rc, version, cache_mode);
    }
    for (int i = 0; i < ncalls && !res->failed; i++)
        rv_aclnn_one(env, rc, &calls[i], native, native_ok, scratch, res);
}

/* Native calls on overlapping outputs must fail with nothing written. */
static void rv_native_overlap(const struct tk_rope_case *rc, struct tk_rng *rng,
                              struct tk_rc_image *scratch, struct tk_verify_result *res) {
    if (!rc->view[TK_RC_QI].present || !rc->view[TK_RC_KI].present || rc->tokens < 2)
        return;
    struct tk_rope_case bad = *rc;
    if (tk_rng_chance(rng, 50) && bad.view[TK_RC_QI].ndim == bad.view[TK_RC_KI].ndim &&
        bad.view[TK_RC_QI].shape[1] == bad.view[TK_RC_KI].shape[1])
        bad.view[TK_RC_KO] = bad.view[TK_RC_QO];
    else
        bad.view[TK_RC_QO].strides[0] = 0;
    if (tk_rc_outputs_overlap(bad.view, &bad) != 1 || tk_rc_view_numel(&bad.view[TK_RC_QO]) == 0)
        return;
    int wb;
    int64_t we;
    if (rv_native(&bad, scratch, tk_rng_chance(rng, 50), ROPEKIT_INVALID_ARGUMENT,
                  "native with overlapping outputs", res) &&
        !tk_rc_image_untouched(&bad, scratch, &wb, &we))
        rv_fail_bytes(res, "native with overlapping outputs wrote", wb, we);
}

static void rv_verify(const struct tk_verify_env *env, struct tk_rope_case *rc, struct tk_rng *rng,
                      struct tk_rc_image *native, struct tk_rc_image *scratch,
                      struct tk_verify_result *res) {
    const bool via_plan = tk_rng_chance(rng, 50);
    const bool work = rc->tokens > 0 && rc->q_heads + rc->k_heads > 0;
    const int overlap = tk_rc_outputs_overlap(rc->view, rc);
    const bool oor = work && overlap == 0 && tk_rng_chance(rng, 8);
    int wb;
    int64_t we;
    if (overlap < 0) {
        rv_fail(res, "out of memory");
    } else if (overlap) { /* a shifted output that lands on another view */
        strncat(res->what, " (overlapping)", sizeof res->what - strlen(res->what) - 1);
        if (rv_native(rc, native, via_plan, ROPEKIT_INVALID_ARGUMENT, "native, overlapping outputs",
                      res) &&
            !tk_rc_image_untouched(rc, native, &wb, &we))
            rv_fail_bytes(res, "native with overlapping outputs wrote", wb, we);
    } else if (oor) {
        const int64_t bad[] = {rc->max_pos, rc->max_pos + 1000, -1, INT64_MIN, INT64_MAX};
        const int row = (int)tk_rng_below(rng, (uint64_t)tk_rc_pos_rows(rc));
        const int64_t t = (int64_t)tk_rng_below(rng, (uint64_t)rc->tokens);
        tk_rc_set_position(rc, row, t, bad[tk_rng_below(rng, 5)]);
        size_t n = strlen(res->what);
        snprintf(res->what + n, sizeof res->what - n, " positions[%d][%lld]=%lld", row,
                 (long long)t, (long long)tk_rc_position(rc, row, t));
        if (rv_native(rc, native, via_plan, ROPEKIT_OUT_OF_RANGE, "native, position out of range",
                      res) &&
            !tk_rc_image_untouched(rc, native, &wb, &we))
            rv_fail_bytes(res, "native with a position out of range wrote", wb, we);
        else if (!res->failed && ropekit_last_error()[0] == '\0')
            rv_fail(res, "native: out of range without a message");
    } else if (rv_native(rc, native, via_plan, ROPEKIT_OK, via_plan ? "native (plan)" : "native",
                         res)) {
        struct tk_rc_check chk;
        char why[400];
        if (tk_rc_check_output(rc, native, &chk) != 0)
            rv_fail(res, "out of memory");
        else if (!tk_rc_check_passed(&chk))
            rv_fail(res, "native: %s", tk_rc_check_describe(&chk, why, sizeof why));
        rv_cross_checks(env, rc, native, scratch, res);
    }
    if (!res->failed && tk_rng_chance(rng, 10))
        rv_native_overlap(rc, rng, scratch, res);
    if (!res->failed && env->acl)
        rv_aclnn(env, rc, rng, native, !oor && !overlap, scratch, res);
}

void tk_verify_case_rope(const struct tk_verify_env *env, struct tk_rng *rng,
                         struct tk_verify_result *res) {
    struct tk_rope_case rc;
    struct rv_shape sh;
    char layout[48];
    if (rv_gen_case(rng, &rc, &sh, layout, sizeof layout) != 0) {
        tk_rope_case_free(&rc);
        rv_fail(res, "out of memory");
        return;
    }
    char desc[340];
    tk_rope_case_describe(&rc, desc, sizeof desc);
    snprintf(res->what, sizeof res->what, "%s %s", layout, desc);
    struct tk_rc_image native, scratch;
    if (tk_rc_image_alloc(&native, &rc) == 0) {
        if (tk_rc_image_alloc(&scratch, &rc) == 0) {
            rv_verify(env, &rc, rng, &native, &scratch, res);
            tk_rc_image_free(&scratch);
        } else {
            rv_fail(res, "out of memory");
        }
        tk_rc_image_free(&native);
    } else {
        rv_fail(res, "out of memory");
    }
    tk_rope_case_free(&rc);
}

int tk_verify_gen_rope(struct tk_rng *rng, struct tk_rope_case *rc, char *layout, size_t len) {
    struct rv_shape sh;
    return rv_gen_case(rng, rc, &sh, layout, len);
}

bool tk_verify_rope_perturb(struct tk_rc_acl_call *call, const struct tk_rope_case *rc,
                            struct tk_rng *rng) {
    return rv_perturb(call, rc, rng);
}
