/* Demo sections for RotaryPositionEmbedding, its gradient, ApplyRotaryPosEmb (V1, V2)
 * and InterleaveRope (SPEC §14-§17): what each does, one small call through the aclnn
 * face, and its first values beside a scalar computed here from the pair table of
 * docs/spec.md §3.3 (independent of the library's kernels). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "aclnnop/aclnn_interleave_rope.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "demo.h"
#include "testkit/half_bits.h"

enum ro_op { RO_RPE, RO_RPE_GRAD, RO_APPLY, RO_APPLY_V2, RO_INTERLEAVE_ROPE };

struct ro_demo {
    enum ro_op op;
    const char *name; /* the table's op column */
    const char *does;
    ropekit_rotary_mode mode;
    ropekit_dtype dtype;
    int64_t x[4], cs[4]; /* x: RPE's x, the grad's dy, ApplyRotaryPosEmb's query */
    int64_t k[4];        /* ApplyRotaryPosEmb's key */
};

static const struct ro_demo ro_demos[] = {
    {RO_RPE,
     "RotaryPosEmb",
     "out = x rotated over the whole last dim (x left as it is)",
     ROPEKIT_ROTARY_HALF,
     ROPEKIT_F32,
     {1, 2, 2, 8},
     {1, 2, 1, 8},
     {0}},
    {RO_RPE_GRAD,
     "RotaryPosEmbGrad",
     "dx = dy rotated backward; dcos, dsin = sums of dy*x, dy*rotate(x) over the broadcast "
     "dims",
     ROPEKIT_ROTARY_INTERLEAVE,
     ROPEKIT_F32,
     {1, 2, 2, 8},
     {1, 2, 1, 8},
     {0}},
    {RO_APPLY,
     "ApplyRotaryPosEmb",
     "query and key rotated in place by one cos/sin (BSND, half)",
     ROPEKIT_ROTARY_HALF,
     ROPEKIT_F32,
     {1, 2, 2, 128},
     {1, 2, 1, 128},
     {1, 2, 1, 128}},
    {RO_APPLY_V2,
     "ApplyRotaryPosEmbV2",
     "the same with rotaryMode \"interleave\"",
     ROPEKIT_ROTARY_INTERLEAVE,
     ROPEKIT_F32,
     {1, 2, 2, 128},
     {1, 2, 1, 128},
     {1, 2, 1, 128}},
    {RO_INTERLEAVE_ROPE,
     "InterleaveRope",
     "out = x de-interleaved, rotated as halves (DeepSeek MLA; D 64)",
     ROPEKIT_ROTARY_INTERLEAVE_HALF,
     ROPEKIT_F16,
     {1, 2, 2, 64},
     {1, 1, 2, 64},
     {0}},
};

enum { RO_MAX_ELEMS = 1024, RO_SHOWN = 4 };

/* One problem's host data as doubles (the values the dtype holds) and as stored bytes. */
struct ro_data {
    double x[RO_MAX_ELEMS], k[RO_MAX_ELEMS], c[RO_MAX_ELEMS], s[RO_MAX_ELEMS];
    double dy[RO_MAX_ELEMS]; /* the gradient's x (dy is in x) */
    double want_x[RO_MAX_ELEMS], want_k[RO_MAX_ELEMS], want_c[RO_MAX_ELEMS], want_s[RO_MAX_ELEMS];
};

static int64_t ro_numel(const int64_t *d) {
    return d[0] * d[1] * d[2] * d[3];
}

/* Pair k of a row of length d in `mode` (docs/spec.md §3.3): input (ip, ir), output (op, or). */
static void ro_pair(ropekit_rotary_mode mode, int64_t d, int64_t k, int64_t *ip, int64_t *ir,
                    int64_t *op, int64_t *or_) {
    const int64_t h = d / 2;
    const bool in_pairs =
        mode == ROPEKIT_ROTARY_INTERLEAVE || mode == ROPEKIT_ROTARY_INTERLEAVE_HALF;
    const bool out_pairs = mode == ROPEKIT_ROTARY_INTERLEAVE;
    *ip = in_pairs ? 2 * k : k;
    *ir = in_pairs ? 2 * k + 1 : k + h;
    *op = out_pairs ? 2 * k : k;
    *or_ = out_pairs ? 2 * k + 1 : k + h;
}

/* The first cos/sin element of x's row `row` (cos/sin dims of 1 broadcast). */
static int64_t ro_cs_index(const int64_t *x, const int64_t *cs, int64_t row) {
    const int64_t n = x[2], s = x[1], b = row / (s * n), si = row / n % s, ni = row % n;
    return (((cs[0] == 1 ? 0 : b) * cs[1] + (cs[1] == 1 ? 0 : si)) * cs[2] +
            (cs[2] == 1 ? 0 : ni)) *
           cs[3];
}

/* Forward of every row of v (shape d4) into u, and each output's |terms| into mag. */
static void ro_forward(const double *v, double *u, double *mag, const int64_t *d4,
                       const int64_t *cs, const double *c, const double *s,
                       ropekit_rotary_mode mode) {
    const int64_t d = d4[3], rows = ro_numel(d4) / d;
    for (int64_t r = 0; r < rows; r++) {
        const double *vr = v + r * d, *cr = c + ro_cs_index(d4, cs, r),
                     *sr = s + ro_cs_index(d4, cs, r);
        double *ur = u + r * d, *mr = mag + r * d;
        for (int64_t k = 0; k < d / 2; k++) {
            int64_t ip, ir, op, or_;
            ro_pair(mode, d, k, &ip, &ir, &op, &or_);
            ur[op] = vr[ip] * cr[op] - vr[ir] * sr[op];
            ur[or_] = vr[ir] * cr[or_] + vr[ip] * sr[or_];
            mr[op] = fabs(vr[ip] * cr[op]) + fabs(vr[ir] * sr[op]);
            mr[or_] = fabs(vr[ir] * cr[or_]) + fabs(vr[ip] * sr[or_]);
        }
    }
}

/* The forward's transpose on dy into dx (its |terms| into mag), and dcos, dsin summed over
 * the broadcast rows. */
static void ro_backward(struct ro_data *p, double *mag, const struct ro_demo *cfg) {
    const int64_t d = cfg->x[3], rows = ro_numel(cfg->x) / d;
    memset(p->want_c, 0, sizeof p->want_c);
    memset(p->want_s, 0, sizeof p->want_s);
    for (int64_t r = 0; r < rows; r++) {
        const int64_t ci = ro_cs_index(cfg->x, cfg->cs, r);
        const double *g = p->dy + r * d, *xr = p->x + r * d, *cr = p->c + ci, *sr = p->s + ci;
        double *dx = p->want_x + r * d, *mr = mag + r * d;
        for (int64_t k = 0; k < d / 2; k++) {
            int64_t ip, ir, op, or_;
            ro_pair(cfg->mode, d, k, &ip, &ir, &op, &or_);
            dx[ip] = g[op] * cr[op] + g[or_] * sr[or_];
            dx[ir] = g[or_] * cr[or_] - g[op] * sr[op];
            mr[ip] = fabs(g[op] * cr[op]) + fabs(g[or_] * sr[or_]);
            mr[ir] = fabs(g[or_] * cr[or_]) + fabs(g[op] * sr[op]);
            p->want_c[ci + op] += g[op] * xr[ip];
            p->want_c[ci + or_] += g[or_] * xr[ir];
            p->want_s[ci + op] -= g[op] * xr[ir];
            p->want_s[ci + or_] += g[or_] * xr[ip];
        }
    }
}

/* Values held exactly by every dtype here: multiples of 1/64 in [-1, 1). */
static void ro_fill(double *v, void *bytes, int64_t n, ropekit_dtype dt, int seed) {
    for (int64_t i = 0; i < n; i++) {
        v[i] = (double)((i * 37 + seed * 11) % 128 - 64) / 64.0;
        tk_store((char *)bytes + i * (int64_t)ropekit_dtype_size(dt), dt, v[i]);
        v[i] = tk_load((char *)bytes + i * (int64_t)ropekit_dtype_size(dt), dt);
    }
}

/* Angles pos * 10000^(-2f/D), each frequency on both members of its output pair. */
static void ro_angles(struct ro_data *p, void *cb, void *sb, const struct ro_demo *cfg) {
    const int64_t d = cfg->cs[3], rows = ro_numel(cfg->cs) / d;
    const size_t item = ropekit_dtype_size(cfg->dtype);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t k = 0; k < d / 2; k++) {
            int64_t ip, ir, op, or_;
            ro_pair(cfg->mode, d, k, &ip, &ir, &op, &or_);
            const double a = (double)(r + 1) * pow(10000.0, -2.0 * (double)k / (double)d);
            const int64_t at[2] = {r * d + op, r * d + or_};
            for (int m = 0; m < 2; m++) {
                tk_store((char *)cb + (size_t)at[m] * item, cfg->dtype, cos(a));
                tk_store((char *)sb + (size_t)at[m] * item, cfg->dtype, sin(a));
                p->c[at[m]] = tk_load((char *)cb + (size_t)at[m] * item, cfg->dtype);
                p->s[at[m]] = tk_load((char *)sb + (size_t)at[m] * item, cfg->dtype);
            }
        }
}

/* Host tensors as the aclnn face's "device" buffers, as CANN's examples make them. */
struct ro_bufs {
    unsigned char x[RO_MAX_ELEMS * 4], k[RO_MAX_ELEMS * 4], c[RO_MAX_ELEMS * 4],
        s[RO_MAX_ELEMS * 4], out[RO_MAX_ELEMS * 4], dy[RO_MAX_ELEMS * 4], dc[RO_MAX_ELEMS * 4],
        ds[RO_MAX_ELEMS * 4];
};

static aclTensor *ro_tensor(void *data, ropekit_dtype dt, const int64_t *shape) {
    return aclCreateTensor(shape, 4, (aclDataType)dt, NULL, 0, ACL_FORMAT_ND, shape, 4, data);
}

/* Phase 1, phase 2 and the stream's sync; the status or the fault, 0 on success. */
static int ro_call(const struct demo_env *env, const struct ro_demo *cfg, struct ro_bufs *b,
                   char *err, size_t len) {
    aclTensor *t[8] = {NULL};
    const ropekit_dtype dt = cfg->dtype;
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus st;
    char mode_name[16];
    snprintf(mode_name, sizeof mode_name, "%s", ropekit_rotary_mode_name(cfg->mode));
    t[2] = ro_tensor(b->c, dt, cfg->cs);
    t[3] = ro_tensor(b->s, dt, cfg->cs);
    switch (cfg->op) {
    case RO_RPE:
        t[0] = ro_tensor(b->x, dt, cfg->x);
        t[4] = ro_tensor(b->out, dt, cfg->x);
        st = aclnnRotaryPositionEmbeddingGetWorkspaceSize(t[0], t[2], t[3], cfg->mode, t[4], &ws,
                                                          &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnRotaryPositionEmbedding(NULL, ws, e, env->acl->stream);
        break;
    case RO_RPE_GRAD:
        t[0] = ro_tensor(b->x, dt, cfg->x);
        t[1] = ro_tensor(b->dy, dt, cfg->x);
        t[4] = ro_tensor(b->out, dt, cfg->x);
        t[5] = ro_tensor(b->dc, dt, cfg->cs);
        t[6] = ro_tensor(b->ds, dt, cfg->cs);
        st = aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(t[1], t[2], t[3], t[0], cfg->mode,
                                                              t[4], t[5], t[6], &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnRotaryPositionEmbeddingGrad(NULL, ws, e, env->acl->stream);
        break;
    case RO_APPLY:
    case RO_APPLY_V2: /* layout 1: BSND */
        t[0] = ro_tensor(b->x, dt, cfg->x);
        t[1] = ro_tensor(b->k, dt, cfg->k);
        st = cfg->op == RO_APPLY
                 ? aclnnApplyRotaryPosEmbGetWorkspaceSize(t[0], t[1], t[2], t[3], 1, &ws, &e)
                 : aclnnApplyRotaryPosEmbV2GetWorkspaceSize(t[0], t[1], t[2], t[3], 1, mode_name,
                                                            &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = cfg->op == RO_APPLY ? aclnnApplyRotaryPosEmb(NULL, ws, e, env->acl->stream)
                                     : aclnnApplyRotaryPosEmbV2(NULL, ws, e, env->acl->stream);
        break;
    default:
        t[0] = ro_tensor(b->x, dt, cfg->x);
        t[4] = ro_tensor(b->out, dt, cfg->x);
        st = aclnnInterleaveRopeGetWorkspaceSize(t[0], t[2], t[3], t[4], &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnInterleaveRope(NULL, ws, e, env->acl->stream);
        break;
    }
    int rc = st;
    if (st != ACLNN_SUCCESS)
        snprintf(err, len, "aclnn call returned %d: %s", (int)st, aclGetRecentErrMsg());
    else if ((rc = aclrtSynchronizeStream(env->acl->stream)) != ACL_SUCCESS)
        snprintf(err, len, "aclrtSynchronizeStream returned %d: %s", rc, aclGetRecentErrMsg());
    for (int i = 0; i < 8; i++)
        if (t[i])
            aclDestroyTensor(t[i]);
    return rc;
}

/* Compares n stored results with the scalar ones (bound: the output dtype's unit
 * roundoff times the terms' magnitude, plus a small absolute part for sums near zero). */
static void ro_compare(const void *got, const double *want, const double *mag, int64_t n,
                       ropekit_dtype dt, struct demo_row *row) {
    const double eps = dt == ROPEKIT_F32 ? 0x1p-23 : dt == ROPEKIT_F16 ? 0x1p-10 : 0x1p-7;
    for (int64_t i = 0; i < n; i++) {
        const double g = tk_load((const char *)got + i * (int64_t)ropekit_dtype_size(dt), dt);
        const double err = fabs(g - want[i]), bound = 2.0 * eps * (mag[i] + 1e-3);
        if (err > row->max_abs_err || !isfinite(g))
            row->max_abs_err = isfinite(g) ? err : INFINITY;
        if (!(err / bound <= row->max_ratio))
            row->max_ratio = isfinite(g) ? fmax(row->max_ratio, err / bound) : INFINITY;
    }
}

static void ro_show(const char *label, const void *got, const double *want, ropekit_dtype dt) {
    printf("         %-6s", label);
    for (int i = 0; i < RO_SHOWN; i++)
        printf(" %9.5f", tk_load((const char *)got + i * (int64_t)ropekit_dtype_size(dt), dt));
    printf("   scalar");
    for (int i = 0; i < RO_SHOWN; i++)
        printf(" %9.5f", want[i]);
    printf("\n");
}

static struct ro_data ro_data_buf;
static struct ro_bufs ro_bufs_buf;
static double ro_mag[RO_MAX_ELEMS];

static void ro_demo_row(const struct demo_env *env, const struct ro_demo *cfg,
                        struct demo_table *table) {
    struct ro_data *p = &ro_data_buf;
    struct ro_bufs *b = &ro_bufs_buf;
    struct demo_row row;
    memset(&row, 0, sizeof row);
    memset(b, 0, sizeof *b);
    row.face = "aclnn";
    row.op = cfg->name;
    row.mode = ropekit_rotary_mode_name(cfg->mode);
    row.usec = -1.0;
    tk_shape_str(4, cfg->x, row.shape, sizeof row.shape);
    snprintf(row.dtypes, sizeof row.dtypes, "%s/%s", ropekit_dtype_name(cfg->dtype),
             ropekit_dtype_name(cfg->dtype));
    printf("-- aclnn%s: %s\n", cfg->name, cfg->does);
    const int64_t xn = ro_numel(cfg->x), kn = cfg->k[3] ? ro_numel(cfg->k) : 0;
    ro_fill(p->x, b->x, xn, cfg->dtype, 1);
    ro_fill(p->k, b->k, kn, cfg->dtype, 2);
    ro_fill(p->dy, b->dy, xn, cfg->dtype, 3);
    ro_angles(p, b->c, b->s, cfg);
    if (ro_call(env, cfg, b, row.note, sizeof row.note) != 0) {
        demo_table_add(table, &row);
        return;
    }
    if (cfg->op == RO_RPE_GRAD) {
        ro_backward(p, ro_mag, cfg);
        ro_compare(b->out, p->want_x, ro_mag, xn, cfg->dtype, &row);
        for (int64_t i = 0; i < ro_numel(cfg->cs); i++)
            ro_mag[i] = 64.0; /* sums of xn / cs rows of products of magnitude <= 1 */
        ro_compare(b->dc, p->want_c, ro_mag, ro_numel(cfg->cs), cfg->dtype, &row);
        ro_compare(b->ds, p->want_s, ro_mag, ro_numel(cfg->cs), cfg->dtype, &row);
        ro_show("dx", b->out, p->want_x, cfg->dtype);
        ro_show("dcos", b->dc, p->want_c, cfg->dtype);
        ro_show("dsin", b->ds, p->want_s, cfg->dtype);
    } else {
        ro_forward(p->x, p->want_x, ro_mag, cfg->x, cfg->cs, p->c, p->s, cfg->mode);
        const bool in_place = cfg->op == RO_APPLY || cfg->op == RO_APPLY_V2;
        ro_compare(in_place ? b->x : b->out, p->want_x, ro_mag, xn, cfg->dtype, &row);
        ro_show(in_place ? "query" : "out", in_place ? b->x : b->out, p->want_x, cfg->dtype);
        if (in_place) {
            ro_forward(p->k, p->want_k, ro_mag, cfg->k, cfg->cs, p->c, p->s, cfg->mode);
            ro_compare(b->k, p->want_k, ro_mag, kn, cfg->dtype, &row);
            ro_show("key", b->k, p->want_k, cfg->dtype);
        }
    }
    row.pass = row.max_ratio <= 1.0;
    if (!row.pass)
        snprintf(row.note, sizeof row.note, "an output is %.3g bounds from the scalar",
                 row.max_ratio);
    demo_table_add(table, &row);
}

void demo_suite_rotary_ops(const struct demo_env *env, struct demo_table *table) {
    for (size_t i = 0; i < sizeof ro_demos / sizeof ro_demos[0]; i++)
        ro_demo_row(env, &ro_demos[i], table);
}
