/* Fuzz target: the whole-row native operators of ropekit/ropekit.h.
 * ropekit_partial_rotary_out (x any rank 1-5, modes 0-3, both directions, any slice
 * [start, end), valid or not, every dtype pair of f32/f16/bf16, f64 with f64 and refused
 * float64 mixes, cos/sin broadcast right-aligned, any strides, out x itself or placed over
 * x, cos or sin), ropekit_partial_rotary_grad (dy, cos, sin, x given or NULL, dx that may
 * be dy, dcos/dsin of cos's shape and dtype), ropekit_apply_rotary (query and key in place,
 * either may be empty, one cos/sin broadcast to both) and ropekit_rotary_matrix (x any
 * rank, cos/sin of its rank, rotate [D, D] with any strides, out or x itself, one dtype),
 * each one-shot or through its plan (executed once, twice on restored data, or on a copy of
 * the data at other addresses); ropekit_plan_describe with small buffers;
 * ropekit_plan_destroy; every plan handed to the other operators' executes (refused, nothing
 * written) and to its own with its first output NULL.
 *
 * Oracle: a rejected call returns an error with a message and changes no byte; a call
 * whose every choice was valid is accepted; a view whose byte span overflows int64 is
 * refused (it gets a tiny buffer, so an accepting library is caught by ASan); an accepted
 * call changes only its outputs' elements, no output element shares a byte with another
 * output element or an input (but its own input in place), and it gives the same status
 * and bytes as the one-shot call with the scalar kernels on one thread. The entry points
 * agree bit for bit: partial_rotary_out's out is ropekit_partial_rotary on a copy of x,
 * partial_rotary_grad's dx is ropekit_partial_rotary (backward) on a copy of dy,
 * apply_rotary's query and key are ropekit_partial_rotary over [0, D) of copies of each.
 * dcos/dsin are within SPEC §6 of float64 sums of dy*xs and dy*xr (SPEC §16.2) and
 * rotary_matrix of a float64 reference of out = x*cos + (x@rotate)*sin, for small problems. Views
 * placed in one shared block may be refused (the overlap checks are conservative for views that are
 * not row-dense); an accepted one is judged as above. Views the arena cannot hold are only planned.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_arena.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "ropekit/ropekit.h"
#include "testkit/half_bits.h"
#include "testkit/tolerance.h"

__extension__ typedef __int128 fz_i128;

#define VIEW_CAP ((int64_t)256 << 10)     /* bytes of one view the arena gives room for */
#define NUMEL_CAP ((int64_t)1 << 16)      /* elements of one view the harness walks */
#define MATRIX_REF_CAP ((int64_t)1 << 17) /* rows * D * D of a matrix reference */
#define MAX_VIEWS 7

enum { OP_OUT, OP_GRAD, OP_APPLY, OP_MATRIX, OP_COUNT };

static const char *const kOpName[OP_COUNT] = {"ropekit_partial_rotary_out",
                                              "ropekit_partial_rotary_grad", "ropekit_apply_rotary",
                                              "ropekit_rotary_matrix"};

static const int64_t kFloats[] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16};
static const int64_t kOddDtypes[] = {ROPEKIT_I64, 2, 3, -1, 28};
static const int64_t kHuge[] = {
    (int64_t)1 << 31,
    ((int64_t)1 << 32) + 1,
    (int64_t)1 << 40,
    (int64_t)1 << 62,
    INT64_MAX,
    INT64_MIN,
    -1,
    3037000500,
    (int64_t)1 << 21,
};

/* ---- decoding ---- */

static int64_t read_dim(fz_input *in, int64_t lo, int64_t hi) {
    uint8_t b = fz_u8(in); /* rare choices on high bytes: an exhausted input reads 0 */
    if (b >= 252)
        return fz_pick(in, kHuge, sizeof kHuge / sizeof kHuge[0]);
    if (b >= 246)
        return 0;
    return fz_range(in, lo, hi);
}

static ropekit_dtype read_dtype(fz_input *in, bool *ok) {
    uint8_t b = fz_u8(in);
    if (b < 200)
        return (ropekit_dtype)kFloats[fz_range(in, 0, 2)];
    if (b < 250)
        return ROPEKIT_F64;
    *ok = false;
    return (ropekit_dtype)fz_pick(in, kOddDtypes, sizeof kOddDtypes / sizeof kOddDtypes[0]);
}

/* The coefficients' dtype for data of dtype `data`: float64 pairs with float64 only. */
static ropekit_dtype read_coeff_dtype(fz_input *in, ropekit_dtype data, bool *ok) {
    ropekit_dtype d = data == ROPEKIT_F64 && fz_u8(in) < 224 ? ROPEKIT_F64 : read_dtype(in, ok);
    *ok = *ok && (d == ROPEKIT_F64) == (data == ROPEKIT_F64);
    return d;
}

/* 1..5 mostly; rarely a rank no operator takes. */
static int32_t read_rank(fz_input *in, bool *ok) {
    uint8_t b = fz_u8(in);
    if (b < 250)
        return (int32_t)fz_range(in, 1, 5);
    *ok = false;
    static const int64_t odd[] = {0, 9, -1};
    return (int32_t)fz_pick(in, odd, 3);
}

static int64_t item_of(ropekit_dtype d) {
    size_t s = ropekit_dtype_size(d);
    return s ? (int64_t)s : 1;
}

static int32_t clamp_rank(int32_t r) {
    return r < 0 ? 0 : r > ROPEKIT_MAX_DIMS ? ROPEKIT_MAX_DIMS : r;
}

/* ---- views ---- */

typedef struct fz_view {
    ropekit_tensor t;
    bool bad;       /* rank outside [0, 8] or a negative dim */
    bool overflow;  /* non-empty, element count or byte span beyond int64 */
    bool empty;     /* no elements */
    bool dense;     /* strides keep every two elements apart */
    int64_t numel;  /* saturated at NUMEL_CAP + 1 */
    int64_t lo, hi; /* bytes touched, relative to data: [lo, hi) */
    uint8_t *block; /* the arena block holding it */
} fz_view;

static void view_measure(fz_view *v) {
    const ropekit_tensor *t = &v->t;
    v->bad = t->ndim < 0 || t->ndim > ROPEKIT_MAX_DIMS;
    v->overflow = false;
    v->empty = true;
    v->lo = v->hi = 0;
    v->numel = 0;
    if (v->bad)
        return;
    const fz_i128 sat = (fz_i128)1 << 70;
    fz_i128 numel = 1;
    bool zero = false;
    for (int32_t i = 0; i < t->ndim; i++) {
        if (t->shape[i] < 0)
            v->bad = true;
        else if (t->shape[i] == 0)
            zero = true;
        else
            numel = numel > sat / t->shape[i] ? sat : numel * t->shape[i];
    }
    if (v->bad || zero)
        return;
    v->empty = false;
    v->numel = numel > NUMEL_CAP ? NUMEL_CAP + 1 : (int64_t)numel;
    const fz_i128 item = item_of(t->dtype), limit = (fz_i128)1 << 100;
    fz_i128 lo = 0, hi = 0;
    bool of = numel > INT64_MAX;
    for (int32_t i = 0; i < t->ndim; i++) {
        fz_i128 reach = (fz_i128)(t->shape[i] - 1) * t->strides[i];
        if (reach > limit || reach < -limit)
            of = true;
        else if (reach < 0)
            lo += reach * item;
        else
            hi += reach * item;
    }
    hi += item;
    of = of || lo < INT64_MIN || hi > INT64_MAX || hi - lo > INT64_MAX;
    v->overflow = of;
    if (!of) {
        v->lo = (int64_t)lo;
        v->hi = (int64_t)hi;
    }
}

static bool view_holdable(const fz_view *v) {
    return v->bad || v->overflow || v->empty ||
           (v->hi - v->lo <= VIEW_CAP && v->numel <= NUMEL_CAP);
}

static bool view_invalid(const fz_view *v) {
    return v->bad || v->overflow;
}

/* Strides: contiguous, permuted/padded/reversed (apart), with zeros, or any small or
 * extreme values. Returns whether the elements are kept apart. */
static bool read_strides(fz_input *in, int32_t n, const int64_t *shape, int64_t *strides,
                         bool output) {
    int kind = (int)fz_range(in, 0, output && fz_u8(in) < 224 ? 7 : 10);
    if (kind <= 3) {
        int64_t step = 1;
        for (int32_t i = n - 1; i >= 0; i--) {
            strides[i] = step;
            if (shape[i] > 1 && __builtin_mul_overflow(step, shape[i], &step))
                step = INT64_MAX;
        }
        return true;
    }
    if (kind <= 8) {
        int order[ROPEKIT_MAX_DIMS];
        for (int i = 0; i < n; i++)
            order[i] = i;
        for (int i = 0; i + 1 < n; i++) {
            int j = (int)fz_range(in, i, n - 1), tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        uint8_t flips = fz_u8(in), pads = fz_u8(in), zeros = kind == 8 ? fz_u8(in) : 0;
        int64_t step = 1;
        bool apart = true;
        for (int k = n - 1; k >= 0; k--) {
            int d = order[k];
            strides[d] = (flips >> d) & 1 ? -step : step;
            if ((zeros >> d) & 1) {
                strides[d] = 0;
                apart = apart && shape[d] <= 1;
            }
            int64_t ext = (int64_t)((uint64_t)shape[d] +
                                    (uint64_t)((pads >> d) & 1 ? fz_range(in, 1, 3) : 0));
            if (ext > 1 && __builtin_mul_overflow(step, ext, &step))
                step = INT64_MAX;
        }
        return apart;
    }
    for (int32_t i = 0; i < n; i++)
        strides[i] = kind == 9 ? fz_range(in, -5, 5) : fz_int(in, -40, 40);
    return false;
}

static void view_make(fz_input *in, fz_view *v, ropekit_dtype dt, int32_t ndim,
                      const int64_t *shape, bool output) {
    int64_t strides[ROPEKIT_MAX_DIMS] = {0};
    memset(v, 0, sizeof *v);
    int32_t n = clamp_rank(ndim);
    v->dense = read_strides(in, n, shape, strides, output);
    v->t = ropekit_tensor_make(NULL, dt, ndim, shape, strides);
    view_measure(v);
}

/* A shape [lead..., last] of `rank` dims with small leading dims. */
static void read_rows_shape(fz_input *in, int32_t rank, int64_t last, int64_t *shape) {
    int32_t n = clamp_rank(rank);
    for (int32_t i = 0; i + 1 < n; i++)
        shape[i] = read_dim(in, 1, 4);
    if (n > 0)
        shape[n - 1] = last;
}

/* cos's shape for rows of `xshape` (rank xr): right-aligned, each leading dim 1 or x's,
 * last dim `len`; rarely a wrong dim. Sets *ok false when the shape is not one of those. */
static int32_t read_coeff_shape(fz_input *in, int32_t xr, const int64_t *xshape, int64_t len,
                                bool same_rank, int64_t *cs, bool *ok) {
    int32_t cr = clamp_rank(xr);
    if (!same_rank && xr >= 1)
        cr = (int32_t)fz_range(in, 1, clamp_rank(xr));
    if (fz_u8(in) >= 250) {
        cr = (int32_t)fz_range(in, 0, ROPEKIT_MAX_DIMS);
        *ok = *ok && cr >= 1 && (same_rank ? cr == xr : cr <= xr);
    }
    for (int32_t k = 0; k + 1 < cr; k++) {
        int32_t xk = k + (xr - cr);
        int64_t xd = xk >= 0 && xk < xr - 1 ? xshape[xk] : 1;
        uint8_t b = fz_u8(in);
        cs[k] = b < 100 ? 1 : b < 244 ? xd : read_dim(in, 0, 5);
        *ok = *ok && (cs[k] == 1 || cs[k] == xd);
    }
    if (cr > 0) {
        cs[cr - 1] = fz_u8(in) < 248 ? len : read_dim(in, 0, 30);
        *ok = *ok && cs[cr - 1] == len;
    }
    return cr;
}

/* ---- one call: its views and choices ---- */

typedef struct fz_call {
    int op;
    int nv;
    fz_view v[MAX_VIEWS];
    bool null_desc[MAX_VIEWS]; /* the descriptor passed is NULL */
    bool output[MAX_VIEWS];
    int alias[MAX_VIEWS]; /* the view this one is exactly (in place), or -1 */
    int32_t mode, dir;
    int64_t start, end;
    bool expect_ok; /* every choice valid: must be accepted */
    bool holdable;
} fz_call;

/* view indices of each operator, in its execute's argument order */
enum { O_X, O_COS, O_SIN, O_OUT };
enum { G_DY, G_COS, G_SIN, G_X, G_DX, G_DCOS, G_DSIN };
enum { A_Q, A_K, A_COS, A_SIN };
enum { M_X, M_COS, M_SIN, M_ROT, M_OUT };

static const ropekit_tensor *desc(const fz_call *c, int i) {
    return c->null_desc[i] ? NULL : &c->v[i].t;
}

static void read_mode_dir(fz_input *in, fz_call *c, bool *ok) {
    c->mode = (int32_t)(fz_u8(in) < 250 ? fz_range(in, 0, 3) : fz_int(in, -2, 6));
    c->dir = (int32_t)(fz_u8(in) < 252 ? fz_range(in, 0, 1) : fz_int(in, -1, 3));
    *ok = *ok && c->mode >= 0 && c->mode <= 3 && (c->dir == 0 || c->dir == 1);
}

static int64_t mode_multiple(int32_t mode) {
    return mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
}

/* A slice [start, end) of D, mostly valid; returns its length (any value). */
static int64_t read_slice(fz_input *in, fz_call *c, int64_t d, bool *ok) {
    const int64_t mult = mode_multiple(c->mode);
    int64_t len = d >= 0 && fz_u8(in) < 244 ? mult * fz_range(in, 0, d / mult) : fz_int(in, -2, 30);
    c->start =
        d >= len && len >= 0 && fz_u8(in) < 244 ? fz_range(in, 0, d - len) : fz_int(in, -2, 40);
    c->end = fz_u8(in) < 248 ? (int64_t)((uint64_t)c->start + (uint64_t)len) : fz_int(in, -2, 40);
    *ok = *ok && 0 <= c->start && c->start <= c->end && c->end <= d &&
          (c->end - c->start) % mult == 0;
    return (int64_t)((uint64_t)c->end - (uint64_t)c->start);
}

/* A view like `like` (its shape and dtype) with strides of its own; rarely another
 * shape or dtype. */
static void read_like(fz_input *in, fz_view *v, const fz_view *like, bool output, bool *ok) {
    int64_t shape[ROPEKIT_MAX_DIMS];
    memcpy(shape, like->t.shape, sizeof shape);
    int32_t rank = like->t.ndim;
    ropekit_dtype dt = like->t.dtype;
    uint8_t b = fz_u8(in);
    if (b == 255 && rank >= 1) {
        shape[fz_range(in, 0, clamp_rank(rank) - 1)] = read_dim(in, 0, 6);
        *ok = *ok && memcmp(shape, like->t.shape, sizeof shape) == 0;
    } else if (b == 254) {
        dt = read_dtype(in, ok);
        *ok = *ok && dt == like->t.dtype;
    }
    view_make(in, v, dt, rank, shape, output);
}

static void finish_decode(fz_input *in, fz_call *c, bool ok) {
    uint8_t nul = fz_u8(in);
    if (nul >= 252) {
        int i = (int)fz_range(in, 0, c->nv - 1);
        if (!c->null_desc[i]) {
            c->null_desc[i] = true;
            ok = false;
        }
    }
    if (c->op == OP_GRAD && c->null_desc[G_X]) /* no sums: dcos and dsin are not used */
        c->null_desc[G_DCOS] = c->null_desc[G_DSIN] = true;
    c->holdable = true;
    for (int i = 0; i < c->nv; i++) {
        if (c->null_desc[i])
            continue;
        ok = ok && !view_invalid(&c->v[i]);
        c->holdable = c->holdable && view_holdable(&c->v[i]);
    }
    c->expect_ok = ok;
}

static void decode_out(fz_input *in, fz_call *c) {
    bool ok = true;
    c->nv = 4;
    ropekit_dtype xdt = read_dtype(in, &ok), cdt = read_coeff_dtype(in, xdt, &ok);
    int32_t rank = read_rank(in, &ok);
    const int64_t d = fz_u8(in) < 240 ? read_dim(in, 0, 24) : read_dim(in, 0, 300);
    int64_t xs[ROPEKIT_MAX_DIMS] = {0}, cs[ROPEKIT_MAX_DIMS] = {0};
    read_rows_shape(in, rank, d, xs);
    read_mode_dir(in, c, &ok);
    int64_t len = read_slice(in, c, d, &ok);
    int32_t cr = read_coeff_shape(in, rank, xs, len, false, cs, &ok);
    view_make(in, &c->v[O_X], xdt, rank, xs, false);
    view_make(in, &c->v[O_COS], cdt, cr, cs, false);
    read_like(in, &c->v[O_SIN], &c->v[O_COS], false, &ok);
    if (fz_u8(in) < 40) { /* in place: out is x */
        c->v[O_OUT] = c->v[O_X];
        c->alias[O_OUT] = O_X;
        ok = ok && c->v[O_X].dense;
    } else {
        read_like(in, &c->v[O_OUT], &c->v[O_X], true, &ok);
        ok = ok && c->v[O_OUT].dense;
    }
    c->output[O_OUT] = true;
    finish_decode(in, c, ok);
}

static void decode_grad(fz_input *in, fz_call *c) {
    bool ok = true;
    c->nv = 7;
    ropekit_dtype ydt = read_dtype(in, &ok), cdt = read_coeff_dtype(in, ydt, &ok);
    int32_t rank = read_rank(in, &ok);
    const int64_t d = read_dim(in, 0, 24);
    int64_t ys[ROPEKIT_MAX_DIMS] = {0}, cs[ROPEKIT_MAX_DIMS] = {0};
    read_rows_shape(in, rank, d, ys);
    read_mode_dir(in, c, &ok);
    c->dir = ROPEKIT_BACKWARD; /* the gradient has no direction */
    int64_t len = read_slice(in, c, d, &ok);
    int32_t cr = read_coeff_shape(in, rank, ys, len, false, cs, &ok);
    view_make(in, &c->v[G_DY], ydt, rank, ys, fz_u8(in) < 240);
    ok = ok && c->v[G_DY].dense; /* dy must not overlap itself (SPEC §16.3) */
    view_make(in, &c->v[G_COS], cdt, cr, cs, false);
    read_like(in, &c->v[G_SIN], &c->v[G_COS], false, &ok);
    const bool with_x = fz_u8(in) < 160;
    read_like(in, &c->v[G_X], &c->v[G_DY], false, &ok);
    if (fz_u8(in) < 48) { /* in place: dx is dy */
        c->v[G_DX] = c->v[G_DY];
        c->alias[G_DX] = G_DY;
    } else {
        read_like(in, &c->v[G_DX], &c->v[G_DY], true, &ok);
        ok = ok && c->v[G_DX].dense;
    }
    read_like(in, &c->v[G_DCOS], &c->v[G_COS], true, &ok);
    read_like(in, &c->v[G_DSIN], &c->v[G_COS], true, &ok);
    c->output[G_DX] = true;
    if (with_x) {
        c->output[G_DCOS] = c->output[G_DSIN] = true;
        ok = ok && c->v[G_DCOS].dense && c->v[G_DSIN].dense;
    } else {
        c->null_desc[G_X] = c->null_desc[G_DCOS] = c->null_desc[G_DSIN] = true;
    }
    finish_decode(in, c, ok);
}

static void decode_apply(fz_input *in, fz_call *c) {
    bool ok = true;
    c->nv = 4;
    ropekit_dtype qdt = read_dtype(in, &ok), kdt = qdt, cdt;
    if (fz_u8(in) >= 128)
        kdt = (ropekit_dtype)kFloats[fz_range(in, 0, 2)];
    cdt = read_coeff_dtype(in, qdt, &ok);
    ok = ok && (kdt == ROPEKIT_F64) == (cdt == ROPEKIT_F64);
    read_mode_dir(in, c, &ok);
    const int64_t mult = mode_multiple(c->mode);
    int64_t d = fz_u8(in) < 244 ? mult * fz_range(in, 0, 12) : read_dim(in, 0, 30);
    ok = ok && d >= 0 && d % mult == 0;
    int32_t qr = read_rank(in, &ok), kr = fz_u8(in) < 200 ? qr : read_rank(in, &ok);
    int64_t qs[ROPEKIT_MAX_DIMS] = {0}, ks[ROPEKIT_MAX_DIMS] = {0}, cs[ROPEKIT_MAX_DIMS] = {0};
    read_rows_shape(in, qr, d, qs);
    read_rows_shape(in, kr, d, ks);
    if (fz_u8(in) < 24) { /* an empty query or key: a leading dim of 0 */
        const bool q = fz_bool(in);
        if ((q ? qr : kr) >= 2)
            (q ? qs : ks)[0] = 0;
    }
    /* cos's leading dims: 1, or the dim query and key share there (right-aligned) */
    int32_t lo = clamp_rank(qr < kr ? qr : kr);
    int32_t cr = lo >= 1 ? (int32_t)fz_range(in, 1, lo) : 1;
    if (fz_u8(in) >= 250) {
        cr = (int32_t)fz_range(in, 0, 6);
        ok = ok && cr >= 1 && cr <= lo;
    }
    for (int32_t k = 0; k + 1 < cr; k++) {
        int32_t qk = k + qr - cr, kk = k + kr - cr;
        int64_t qd = qk >= 0 && qk < qr - 1 ? qs[qk] : 1, kd = kk >= 0 && kk < kr - 1 ? ks[kk] : 1;
        uint8_t b = fz_u8(in);
        cs[k] = b < 120 || qd != kd ? 1 : b < 248 ? qd : read_dim(in, 0, 5);
        ok = ok && (cs[k] == 1 || (cs[k] == qd && cs[k] == kd));
    }
    if (cr > 0 && cr <= ROPEKIT_MAX_DIMS)
        cs[cr - 1] = d;
    view_make(in, &c->v[A_Q], qdt, qr, qs, true);
    view_make(in, &c->v[A_K], kdt, kr, ks, true);
    view_make(in, &c->v[A_COS], cdt, cr, cs, false);
    read_like(in, &c->v[A_SIN], &c->v[A_COS], false, &ok);
    ok = ok && c->v[A_Q].dense && c->v[A_K].dense;
    c->output[A_Q] = c->output[A_K] = true;
    finish_decode(in, c, ok);
}

static void decode_matrix(fz_input *in, fz_call *c) {
    bool ok = true;
    c->nv = 5;
    ropekit_dtype dt = read_dtype(in, &ok), odt[4] = {dt, dt, dt, dt};
    if (fz_u8(in) >= 248) { /* a mix: refused */
        int i = (int)fz_range(in, 0, 3);
        odt[i] = read_dtype(in, &ok);
        ok = ok && odt[i] == dt;
    }
    int32_t rank = read_rank(in, &ok);
    const int64_t d = read_dim(in, 0, 20);
    int64_t xs[ROPEKIT_MAX_DIMS] = {0}, cs[ROPEKIT_MAX_DIMS] = {0};
    read_rows_shape(in, rank, d, xs);
    int32_t cr = read_coeff_shape(in, rank, xs, d, true, cs, &ok);
    int64_t rs[ROPEKIT_MAX_DIMS] = {d, d, 1, 1, 1, 1, 1, 1};
    if (fz_u8(in) >= 250) {
        rs[fz_range(in, 0, 1)] = read_dim(in, 0, 24);
        ok = ok && rs[0] == d && rs[1] == d;
    }
    int32_t rr = fz_u8(in) < 252 ? 2 : (int32_t)fz_range(in, 1, 3);
    ok = ok && rr == 2;
    view_make(in, &c->v[M_X], dt, rank, xs, false);
    view_make(in, &c->v[M_COS], odt[0], cr, cs, false);
    read_like(in, &c->v[M_SIN], &c->v[M_COS], false, &ok); /* sin: cos's shape */
    c->v[M_SIN].t.dtype = odt[1];
    view_measure(&c->v[M_SIN]);
    view_make(in, &c->v[M_ROT], odt[2], rr, rs, false);
    if (fz_u8(in) < 40 && odt[3] == dt) {
        c->v[M_OUT] = c->v[M_X];
        c->alias[M_OUT] = M_X;
        ok = ok && c->v[M_X].dense;
    } else {
        view_make(in, &c->v[M_OUT], odt[3], rank, xs, true);
        ok = ok && c->v[M_OUT].dense;
    }
    c->output[M_OUT] = true;
    finish_decode(in, c, ok);
}

static void decode(fz_input *in, fz_call *c) {
    memset(c, 0, sizeof *c);
    for (int i = 0; i < MAX_VIEWS; i++)
        c->alias[i] = -1;
    c->op = (int)fz_range(in, 0, OP_COUNT - 1);
    switch (c->op) {
    case OP_OUT:
        decode_out(in, c);
        break;
    case OP_GRAD:
        decode_grad(in, c);
        break;
    case OP_APPLY:
        decode_apply(in, c);
        break;
    default:
        decode_matrix(in, c);
        break;
    }
}

/* ---- the calls ---- */

static ropekit_status call_oneshot(const fz_call *c) {
    const ropekit_rotary_mode m = (ropekit_rotary_mode)c->mode;
    const ropekit_direction dir = (ropekit_direction)c->dir;
    switch (c->op) {
    case OP_OUT:
        return ropekit_partial_rotary_out(desc(c, 0), desc(c, 1), desc(c, 2), desc(c, 3), m,
                                          c->start, c->end, dir);
    case OP_GRAD:
        return ropekit_partial_rotary_grad(desc(c, 0), desc(c, 1), desc(c, 2), desc(c, 3),
                                           desc(c, 4), desc(c, 5), desc(c, 6), m, c->start, c->end);
    case OP_APPLY:
        return ropekit_apply_rotary(desc(c, 0), desc(c, 1), desc(c, 2), desc(c, 3), m, dir);
    default:
        return ropekit_rotary_matrix(desc(c, 0), desc(c, 1), desc(c, 2), desc(c, 3), desc(c, 4));
    }
}

static ropekit_status call_plan(const fz_call *c, ropekit_plan **plan) {
    const ropekit_rotary_mode m = (ropekit_rotary_mode)c->mode;
    const ropekit_direction dir = (ropekit_direction)c->dir;
    switch (c->op) {
    case OP_OUT:
        return ropekit_partial_rotary_out_plan_create(desc(c, 0), desc(c, 1), desc(c, 2),
                                                      desc(c, 3), m, c->start, c->end, dir, plan);
    case OP_GRAD:
        return ropekit_partial_rotary_grad_plan_create(desc(c, 0), desc(c, 1), desc(c, 2),
                                                       desc(c, 3), desc(c, 4), desc(c, 5),
                                                       desc(c, 6), m, c->start, c->end, plan);
    case OP_APPLY:
        return ropekit_apply_rotary_plan_create(desc(c, 0), desc(c, 1), desc(c, 2), desc(c, 3), m,
                                                dir, plan);
    default:
        return ropekit_rotary_matrix_plan_create(desc(c, 0), desc(c, 1), desc(c, 2), desc(c, 3),
                                                 desc(c, 4), plan);
    }
}

/* Executes `plan` as operator `op` on the data pointers p[] (in that execute's order). */
static ropekit_status execute_as(int op, const ropekit_plan *plan, void *const *p) {
    switch (op) {
    case OP_OUT:
        return ropekit_partial_rotary_out_execute(plan, p[0], p[1], p[2], p[3]);
    case OP_GRAD:
        return ropekit_partial_rotary_grad_execute(plan, p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    case OP_APPLY:
        return ropekit_apply_rotary_execute(plan, p[0], p[1], p[2], p[3]);
    case OP_MATRIX:
        return ropekit_rotary_matrix_execute(plan, p[0], p[1], p[2], p[3], p[4]);
    default: /* the in-place partial rotary */
        return ropekit_partial_rotary_execute(plan, p[0], p[1], p[2]);
    }
}

static void data_pointers(const fz_call *c, void **p) {
    for (int i = 0; i < MAX_VIEWS; i++)
        p[i] = i < c->nv && !c->null_desc[i] ? c->v[i].t.data : NULL;
}

/* ---- memory ---- */

/* Memory for the views: each its own block of exactly its span (ASan sees any byte
 * outside), aliases on their view's data, and sometimes an output placed in the block of
 * another view at an offset the input chooses (it may overlap). A view the library must
 * refuse gets a tiny block. Returns false when the arena is full; *shared when a block
 * holds two views. */
static bool place(fz_arena *a, fz_input *in, fz_call *c, bool *shared) {
    *shared = false;
    for (int i = 0; i < c->nv; i++) {
        fz_view *v = &c->v[i];
        if (c->alias[i] >= 0) {
            v->t.data = c->v[c->alias[i]].t.data;
            v->block = c->v[c->alias[i]].block;
            continue;
        }
        if (view_invalid(v) || v->empty) {
            v->block = (uint8_t *)fz_alloc(a, 8);
            v->t.data = v->empty && fz_u8(in) >= 224 ? NULL : v->block;
            if (!v->block)
                return false;
            continue;
        }
        const int64_t span = v->hi - v->lo;
        int partner = c->output[i] && i > 0 && fz_u8(in) >= 224 ? (int)fz_range(in, 0, i - 1) : -1;
        if (partner >= 0 && c->alias[partner] < 0 && !view_invalid(&c->v[partner]) &&
            !c->v[partner].empty) {
            /* one block for both: the partner moves into it */
            fz_view *p = &c->v[partner];
            const int64_t pspan = p->hi - p->lo, off = 8 * fz_range(in, 0, (pspan + 16) / 8);
            const int64_t total = off + span > pspan ? off + span : pspan;
            uint8_t *block = (uint8_t *)fz_alloc(a, (size_t)total);
            if (!block)
                return false;
            p->block = v->block = block;
            p->t.data = block - p->lo;
            v->t.data = block + off - v->lo;
            for (int j = 0; j < i; j++)
                if (c->alias[j] == partner)
                    c->v[j].t = p->t, c->v[j].block = block;
            *shared = true;
            continue;
        }
        v->block = (uint8_t *)fz_alloc(a, (size_t)span);
        if (!v->block)
            return false;
        v->t.data = v->block - v->lo;
    }
    return true;
}

/* The arena buffer holding p, or -1. */
static int buffer_of(const fz_arena *a, const void *p, int count) {
    for (int i = 0; i < count; i++)
        if ((const uint8_t *)p >= a->buf[i] && (const uint8_t *)p < a->buf[i] + a->size[i])
            return i;
    return -1;
}

static void fill(fz_arena *a, fz_input *in, const fz_call *c) {
    for (int i = 0; i < a->count; i++) {
        ropekit_dtype dt = ROPEKIT_F32;
        for (int k = 0; k < c->nv; k++)
            if (c->v[k].block == a->buf[i] && tk_dtype_is_float(c->v[k].t.dtype))
                dt = c->v[k].t.dtype;
        size_t item = ropekit_dtype_size(dt);
        fz_fill_float(in, a->buf[i], a->size[i] / item, dt, fz_u8(in) >= 232);
    }
}

typedef struct fz_results {
    int count;
    uint8_t *bytes[FZ_ARENA_BUFFERS];
} fz_results;

static void results_save(fz_results *r, const fz_arena *a, int count) {
    for (int i = count; i < r->count; i++) {
        free(r->bytes[i]);
        r->bytes[i] = NULL;
    }
    r->count = count;
    for (int i = 0; i < count; i++) {
        free(r->bytes[i]);
        r->bytes[i] = (uint8_t *)malloc(a->size[i] ? a->size[i] : 1);
        FZ_CHECK(r->bytes[i], "out of memory");
        memcpy(r->bytes[i], a->buf[i], a->size[i]);
    }
}

static int results_differ(const fz_results *r, const fz_arena *a) {
    for (int i = 0; i < r->count; i++)
        if (memcmp(r->bytes[i], a->buf[i], a->size[i]) != 0)
            return i;
    return -1;
}

static void results_free(fz_results *r) {
    for (int i = 0; i < r->count; i++)
        free(r->bytes[i]);
    r->count = 0;
}

/* ---- element walks ---- */

static int64_t elem_offset(const ropekit_tensor *t, const int64_t *idx) {
    int64_t off = 0;
    for (int32_t i = 0; i < t->ndim; i++)
        off += idx[i] * t->strides[i];
    return off * item_of(t->dtype);
}

static bool odo_next(int64_t *idx, const int64_t *shape, int32_t n) {
    for (int32_t d = n - 1; d >= 0; d--) {
        if (++idx[d] < shape[d])
            return true;
        idx[d] = 0;
    }
    return false;
}

enum { MASK_OUT = 1, MASK_SUMS = 2, MASK_IN = 4 }; /* SUMS: dcos and dsin */

typedef struct fz_masks {
    int count;
    uint8_t *m[FZ_ARENA_BUFFERS];
} fz_masks;

/* Marks every byte of every element of v with `bit`; false when one already had a bit
 * of `clash`. */
static bool mark_view(fz_masks *mk, const fz_arena *a, const fz_view *v, uint8_t bit,
                      uint8_t clash) {
    if (v->empty)
        return true;
    const int64_t item = item_of(v->t.dtype);
    int64_t idx[ROPEKIT_MAX_DIMS] = {0};
    bool clean = true;
    do {
        const uint8_t *p = (const uint8_t *)v->t.data + elem_offset(&v->t, idx);
        int b = buffer_of(a, p, mk->count);
        FZ_CHECK(b >= 0, "element outside every buffer");
        if (!mk->m[b])
            mk->m[b] = (uint8_t *)calloc(a->size[b] ? a->size[b] : 1, 1);
        FZ_CHECK(mk->m[b], "out of memory");
        uint8_t *m = mk->m[b] + (p - a->buf[b]);
        for (int64_t k = 0; k < item; k++) {
            clean = clean && !(m[k] & clash);
            m[k] |= bit;
        }
    } while (odo_next(idx, v->t.shape, v->t.ndim));
    return clean;
}

static bool sums(const fz_call *c, int i) {
    return c->op == OP_GRAD && (i == G_DCOS || i == G_DSIN);
}

static bool same_view(const ropekit_tensor *a, const ropekit_tensor *b) {
    if (a->data != b->data || a->ndim != b->ndim || a->dtype != b->dtype)
        return false;
    for (int32_t i = 0; i < clamp_rank(a->ndim); i++)
        if (a->shape[i] != b->shape[i] || (a->shape[i] > 1 && a->strides[i] != b->strides[i]))
            return false;
    return true;
}

/* Whether input i is the view of the output that may be it (in place): x and out, dy and
 * dx, whether decoded so or placed so (a dim of 1 may have any stride). */
static bool is_in_place_input(const fz_call *c, int i) {
    int out = c->op == OP_OUT      ? (i == O_X ? O_OUT : -1)
              : c->op == OP_GRAD   ? (i == G_DY ? G_DX : -1)
              : c->op == OP_MATRIX ? (i == M_X ? M_OUT : -1)
                                   : -1;
    return out >= 0 && same_view(&c->v[i].t, &c->v[out].t);
}

/* An accepted call: its outputs' elements apart from each other and from every input's
 * (an input that is an output's own view in place aside), and no other byte changed. */
static void check_footprint(const fz_arena *a, const fz_call *c, int count) {
    fz_masks mk = {count, {0}};
    for (int i = 0; i < c->nv; i++)
        if (c->output[i] && !c->null_desc[i])
            FZ_CHECK(mark_view(&mk, a, &c->v[i], sums(c, i) ? MASK_SUMS : MASK_OUT,
                               MASK_OUT | MASK_SUMS),
                     "%s accepted output %d whose elements share memory with an output",
                     kOpName[c->op], i);
    for (int i = 0; i < c->nv; i++) {
        if (c->output[i] || c->null_desc[i] || is_in_place_input(c, i))
            continue;
        /* an empty slice reads no cos or sin: the library lets out lie over them */
        if ((c->op == OP_OUT || c->op == OP_GRAD) && (i == 1 || i == 2) && c->start == c->end)
            continue;
        /* the sums read x before dx is written: dx may lie over x (SPEC §16.2) */
        const uint8_t clash = c->op == OP_GRAD && i == G_X ? MASK_SUMS : MASK_OUT | MASK_SUMS;
        FZ_CHECK(mark_view(&mk, a, &c->v[i], MASK_IN, clash),
                 "%s accepted input %d sharing memory with an output", kOpName[c->op], i);
    }
    for (int b = 0; b < count; b++) {
        const uint8_t *saved = a->copy[b];
        for (size_t k = 0; k < a->size[b]; k++)
            FZ_CHECK((mk.m[b] && (mk.m[b][k] & (MASK_OUT | MASK_SUMS))) || a->buf[b][k] == saved[k],
                     "%s changed byte %zu of buffer %d, outside its outputs", kOpName[c->op], k, b);
        free(mk.m[b]);
    }
}

/* A C-contiguous copy of v's elements as they were before the call. */
static uint8_t *gather_saved(const fz_arena *a, const fz_view *v, ropekit_tensor *copy) {
    const int64_t item = item_of(v->t.dtype);
    uint8_t *dst = (uint8_t *)malloc((size_t)(v->numel * item + 1));
    FZ_CHECK(dst, "out of memory");
    *copy = ropekit_tensor_make(dst, v->t.dtype, v->t.ndim, v->t.shape, NULL);
    int64_t idx[ROPEKIT_MAX_DIMS] = {0}, n = 0;
    do {
        const uint8_t *p = (const uint8_t *)v->t.data + elem_offset(&v->t, idx);
        memcpy(dst + n++ * item, fz_saved(a, p), (size_t)item);
    } while (odo_next(idx, v->t.shape, v->t.ndim));
    return dst;
}

/* v's elements equal the contiguous copy's, bit for bit. */
static void check_equal_to(const fz_view *v, const uint8_t *expect, const char *what) {
    const int64_t item = item_of(v->t.dtype);
    int64_t idx[ROPEKIT_MAX_DIMS] = {0}, n = 0;
    do {
        const uint8_t *p = (const uint8_t *)v->t.data + elem_offset(&v->t, idx);
        FZ_CHECK(memcmp(p, expect + n * item, (size_t)item) == 0,
                 "%s: element %lld differs from ropekit_partial_rotary's", what, (long long)n);
        n++;
    } while (odo_next(idx, v->t.shape, v->t.ndim));
}

/* `rows` rotated in place over [start, end) by ropekit_partial_rotary on a copy of its
 * bytes before the call must equal `result`. */
static void check_against_in_place(const fz_arena *a, const fz_call *c, const fz_view *rows,
                                   const fz_view *result, int cos_i, int64_t start, int64_t end,
                                   int32_t dir, const char *what) {
    if (rows->empty || result->empty)
        return;
    ropekit_tensor copy;
    uint8_t *buf = gather_saved(a, rows, &copy);
    ropekit_status st =
        ropekit_partial_rotary(&copy, &c->v[cos_i].t, &c->v[cos_i + 1].t,
                               (ropekit_rotary_mode)c->mode, start, end, (ropekit_direction)dir);
    FZ_CHECK(st == ROPEKIT_OK, "%s accepted, ropekit_partial_rotary refused: %s", what,
             ropekit_last_error());
    check_equal_to(result, buf, what);
    free(buf);
}

static double load_at(const ropekit_tensor *t, const int64_t *idx, int32_t lead_of, int64_t j) {
    int64_t off = 0;
    for (int32_t k = 0; k + 1 < t->ndim; k++)
        off += (t->shape[k] == 1 ? 0 : idx[k + lead_of]) * t->strides[k];
    off += j * t->strides[t->ndim - 1];
    return tk_load((const uint8_t *)t->data + off * item_of(t->dtype), t->dtype);
}

/* out = v*cos + (v@rotate)*sin per row, the library's numerics (SPEC §15.4) in double and
 * fp32, judged within SPEC §6. x and rotate are read from the snapshot. */
static void check_matrix_reference(const fz_arena *a, const fz_call *c) {
    const ropekit_tensor *x = &c->v[M_X].t, *cs = &c->v[M_COS].t, *sn = &c->v[M_SIN].t,
                         *rot = &c->v[M_ROT].t, *out = &c->v[M_OUT].t;
    if (c->v[M_X].empty)
        return;
    const int64_t d = x->shape[x->ndim - 1], rows = c->v[M_X].numel / d;
    if (d > 64 || rows * d * d > MATRIX_REF_CAP)
        return;
    const bool f64 = x->dtype == ROPEKIT_F64;
    const int64_t item = item_of(x->dtype);
    double v[64], w[64];
    struct tk_tol tol = tk_tol_of(out->dtype);
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    int64_t idx[ROPEKIT_MAX_DIMS] = {0}, row = 0;
    do {
        for (int64_t i = 0; i < d; i++) {
            idx[x->ndim - 1] = i;
            v[i] = tk_load(fz_saved(a, (const uint8_t *)x->data + elem_offset(x, idx)), x->dtype);
        }
        for (int64_t j = 0; j < d; j++) {
            double sum = 0;
            for (int64_t i = 0; i < d; i++) {
                const uint8_t *r =
                    (const uint8_t *)rot->data + (i * rot->strides[0] + j * rot->strides[1]) * item;
                double term = v[i] * tk_load(fz_saved(a, r), rot->dtype);
                sum = i == 0 ? term : sum + term;
            }
            w[j] = f64 ? sum : (double)(float)sum;
        }
        idx[x->ndim - 1] = 0;
        for (int64_t j = 0; j < d; j++) {
            double cj = load_at(cs, idx, 0, j), sj = load_at(sn, idx, 0, j);
            double t1 = v[j] * cj, t2 = w[j] * sj, ref;
            if (f64) {
                ref = t1 + t2;
            } else {
                float f1 = (float)t1, f2 = (float)t2; /* each product rounded to fp32 */
                ref = (double)(f1 + f2);
                t1 = f1;
                t2 = f2;
            }
            idx[x->ndim - 1] = j;
            double got = tk_load((const uint8_t *)out->data + elem_offset(out, idx), out->dtype);
            idx[x->ndim - 1] = 0;
            if (!tk_err_check(&st, &tol, got, ref, fabs(t1) + fabs(t2), row * d + j))
                FZ_CHECK(false, "rotary_matrix row %lld element %lld = %.9g, reference %.9g",
                         (long long)row, (long long)j, got, ref);
        }
        row++;
    } while (odo_next(idx, x->shape, x->ndim - 1));
}

/* Where the forward takes xs[j] and xr[j] (with its sign) from, in a slice of length len
 * (SPEC §16.2). */
static void pairing(int32_t mode, int64_t len, int64_t j, int64_t *src, int64_t *partner,
                    double *sign) {
    const int64_t h = len / 2, q = len / 4;
    switch (mode) {
    case ROPEKIT_ROTARY_HALF:
        *src = j;
        *partner = j < h ? j + h : j - h;
        *sign = j < h ? -1 : 1;
        break;
    case ROPEKIT_ROTARY_INTERLEAVE:
        *src = j;
        *partner = j % 2 ? j - 1 : j + 1;
        *sign = j % 2 ? 1 : -1;
        break;
    case ROPEKIT_ROTARY_QUARTER: {
        const int64_t k = j / q;
        *src = j;
        *partner = k % 2 ? j - q : j + q;
        *sign = k % 2 ? 1 : -1;
        break;
    }
    default: /* interleave-half */
        *src = j < h ? 2 * j : 2 * (j - h) + 1;
        *partner = j < h ? 2 * j + 1 : 2 * (j - h);
        *sign = j < h ? -1 : 1;
        break;
    }
}

/* dcos = sum of dy * xs and dsin = sum of dy * xr over the rows cos broadcasts to, summed
 * in float64 in row order (SPEC §16.2), judged within SPEC §6 of those sums. */
static void check_grad_sums(const fz_arena *a, const fz_call *c) {
    const ropekit_tensor *dy = &c->v[G_DY].t, *x = &c->v[G_X].t, *cs = &c->v[G_COS].t;
    const fz_view *cv = &c->v[G_COS];
    if (c->null_desc[G_X] || c->null_desc[G_DCOS] || c->null_desc[G_DSIN] || cv->empty)
        return;
    const int64_t len = c->end - c->start, n = cv->numel;
    double *sum = (double *)calloc((size_t)(2 * n + 1), sizeof(double));
    double *mag = (double *)calloc((size_t)(2 * n + 1), sizeof(double));
    FZ_CHECK(sum && mag, "out of memory");
    const int32_t lead_x = dy->ndim - 1, lead_c = cs->ndim - 1;
    int64_t idx[ROPEKIT_MAX_DIMS] = {0};
    if (!c->v[G_DY].empty) {
        do {
            int64_t ci = 0; /* cos's row, C order */
            for (int32_t k = 0; k < lead_c; k++)
                ci = ci * cs->shape[k] + (cs->shape[k] == 1 ? 0 : idx[k + lead_x - lead_c]);
            for (int64_t j = 0; j < len; j++) {
                int64_t src, partner;
                double sign;
                pairing(c->mode, len, j, &src, &partner, &sign);
                idx[lead_x] = c->start + j;
                double g = tk_load(fz_saved(a, (const uint8_t *)dy->data + elem_offset(dy, idx)),
                                   dy->dtype);
                idx[lead_x] = c->start + src;
                double xs =
                    tk_load(fz_saved(a, (const uint8_t *)x->data + elem_offset(x, idx)), x->dtype);
                idx[lead_x] = c->start + partner;
                double xr =
                    sign *
                    tk_load(fz_saved(a, (const uint8_t *)x->data + elem_offset(x, idx)), x->dtype);
                sum[ci * len + j] += g * xs;
                sum[n + ci * len + j] += g * xr;
                mag[ci * len + j] += fabs(g * xs);
                mag[n + ci * len + j] += fabs(g * xr);
            }
            idx[lead_x] = 0;
        } while (odo_next(idx, dy->shape, lead_x));
    }
    struct tk_tol tol = tk_tol_of(cs->dtype);
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    for (int o = 0; o < 2; o++) {
        const ropekit_tensor *t = &c->v[o ? G_DSIN : G_DCOS].t;
        int64_t ci[ROPEKIT_MAX_DIMS] = {0}, e = 0;
        do {
            double got = tk_load((const uint8_t *)t->data + elem_offset(t, ci), t->dtype);
            if (!tk_err_check(&st, &tol, got, sum[o * n + e], mag[o * n + e], e))
                FZ_CHECK(false, "partial_rotary_grad %s element %lld = %.9g, float64 sum %.9g",
                         o ? "dsin" : "dcos", (long long)e, got, sum[o * n + e]);
            e++;
        } while (odo_next(ci, t->shape, t->ndim));
    }
    free(sum);
    free(mag);
}

static void verify_accepted(const fz_arena *a, const fz_call *c, int count) {
    for (int i = 0; i < c->nv; i++)
        FZ_CHECK(c->null_desc[i] || !view_invalid(&c->v[i]),
                 "%s accepted view %d whose size overflows int64 or whose rank is bad",
                 kOpName[c->op], i);
    check_footprint(a, c, count);
    switch (c->op) {
    case OP_OUT:
        check_against_in_place(a, c, &c->v[O_X], &c->v[O_OUT], O_COS, c->start, c->end, c->dir,
                               "partial_rotary_out");
        break;
    case OP_GRAD:
        check_against_in_place(a, c, &c->v[G_DY], &c->v[G_DX], G_COS, c->start, c->end,
                               ROPEKIT_BACKWARD, "partial_rotary_grad dx");
        check_grad_sums(a, c);
        break;
    case OP_APPLY:
        for (int q = A_Q; q <= A_K; q++)
            if (!c->v[q].empty)
                check_against_in_place(a, c, &c->v[q], &c->v[q], A_COS, 0,
                                       c->v[q].t.shape[c->v[q].t.ndim - 1], c->dir,
                                       q == A_Q ? "apply_rotary query" : "apply_rotary key");
        break;
    default:
        check_matrix_reference(a, c);
        break;
    }
}

/* ---- shared checks ---- */

static void expect_rejected(const fz_arena *a, ropekit_status st, const char *api) {
    FZ_CHECK(ropekit_last_error()[0] != '\0', "%s failed (%s) without a message", api,
             ropekit_status_name(st));
    int changed = fz_changed(a);
    FZ_CHECK(changed < 0, "%s failed (%s: %s) but changed buffer %d", api, ropekit_status_name(st),
             ropekit_last_error(), changed);
}

static void check_describe(const ropekit_plan *plan) {
    char full[1024];
    size_t n = ropekit_plan_describe(plan, full, sizeof full);
    FZ_CHECK(n > 0 && n < sizeof full && strlen(full) == n, "describe gave %zu", n);
    FZ_CHECK(ropekit_plan_describe(plan, NULL, 0) == n, "describe(NULL, 0) differs");
    const size_t lens[] = {0, 1, 2, 5, n / 2, n, n + 1};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t len = lens[i];
        char *buf = (char *)malloc(len ? len : 1); /* exactly len: ASan sees one byte more */
        FZ_CHECK(buf, "out of memory");
        memset(buf, 'Z', len ? len : 1);
        FZ_CHECK(ropekit_plan_describe(plan, buf, len) == n, "describe into %zu bytes", len);
        if (len) {
            size_t kept = len - 1 < n ? len - 1 : n;
            FZ_CHECK(buf[kept] == '\0' && memcmp(buf, full, kept) == 0,
                     "describe into %zu bytes: not the NUL-terminated prefix", len);
        } else {
            FZ_CHECK(buf[0] == 'Z', "describe into 0 bytes wrote");
        }
        free(buf);
    }
}

/* Every other operator's execute (and the in-place partial rotary's) refuses the plan and
 * writes nothing. */
static void check_misfit_executes(const fz_arena *a, const fz_call *c, const ropekit_plan *plan) {
    void *p[MAX_VIEWS];
    data_pointers(c, p);
    for (int op = 0; op <= OP_COUNT; op++) {
        if (op == c->op)
            continue;
        ropekit_status st = execute_as(op, plan, p);
        FZ_CHECK(st != ROPEKIT_OK, "a %s plan was taken by execute %d", kOpName[c->op], op);
        expect_rejected(a, st, "a misfit execute");
    }
}

/* The plan's own execute with its first output's data NULL: refused, writing nothing,
 * unless that output has no element (then the call runs: its bytes are put back). */
static void check_null_output(fz_arena *a, const fz_call *c, const ropekit_plan *plan) {
    static const int first_output[OP_COUNT] = {O_OUT, G_DX, A_Q, M_OUT};
    const int o = first_output[c->op];
    void *p[MAX_VIEWS];
    data_pointers(c, p);
    p[o] = NULL;
    ropekit_status st = execute_as(c->op, plan, p);
    FZ_CHECK(st != ROPEKIT_OK || c->v[o].empty, "%s execute took output %d = NULL", kOpName[c->op],
             o);
    if (st == ROPEKIT_OK)
        fz_restore(a);
    else
        expect_rejected(a, st, "an execute with a NULL output");
}

static void config_first(fz_input *in) {
    ropekit_isa detected = ropekit_isa_detected();
    int isa = 3 - (int)fz_range(in, 0, 3); /* 3: what the CPU has */
    FZ_CHECK(ropekit_set_max_isa(isa > (int)detected ? detected : (ropekit_isa)isa) == ROPEKIT_OK,
             "set_max_isa");
    FZ_CHECK(ropekit_set_num_threads((int)fz_range(in, 0, 3)) == ROPEKIT_OK, "set_num_threads");
}

static void config_scalar(void) {
    ropekit_set_max_isa(ROPEKIT_ISA_SCALAR);
    ropekit_set_num_threads(1);
}

static void config_restore(void) {
    ropekit_set_num_threads(0);
    ropekit_set_max_isa(ropekit_isa_detected());
}

/* Executes the plan on copies of the data at other addresses: the same results. */
static void run_on_clone(fz_arena *a, const fz_call *c, const ropekit_plan *plan,
                         const fz_results *first) {
    const int count = first->count;
    uint8_t *clone[FZ_ARENA_BUFFERS];
    for (int i = 0; i < count; i++) {
        clone[i] = (uint8_t *)fz_alloc(a, a->size[i]);
        if (!clone[i])
            return;
        memcpy(clone[i], a->copy[i], a->size[i]);
    }
    void *p[MAX_VIEWS];
    data_pointers(c, p);
    for (int v = 0; v < c->nv; v++) {
        int b = p[v] ? buffer_of(a, c->v[v].block, count) : -1;
        if (b >= 0)
            p[v] = clone[b] + ((uint8_t *)p[v] - a->buf[b]);
    }
    ropekit_status st = execute_as(c->op, plan, p);
    FZ_CHECK(st == ROPEKIT_OK, "execute on moved data failed: %s", ropekit_last_error());
    for (int i = 0; i < count; i++)
        FZ_CHECK(memcmp(clone[i], first->bytes[i], a->size[i]) == 0,
                 "execute on moved data differs in buffer %d", i);
}

/* variant 0: one-shot; 1: plan, execute; 2: execute twice; 3: execute on moved data too. */
static ropekit_status run_variant(fz_arena *a, const fz_call *c, int variant, fz_results *first) {
    if (variant == 0)
        return call_oneshot(c);
    ropekit_plan *plan = (ropekit_plan *)&plan; /* must be overwritten */
    ropekit_status st = call_plan(c, &plan);
    if (st != ROPEKIT_OK) {
        FZ_CHECK(plan == NULL, "failed plan_create left a plan");
        return st;
    }
    FZ_CHECK(plan != NULL, "plan_create gave no plan");
    check_describe(plan);
    check_misfit_executes(a, c, plan);
    check_null_output(a, c, plan);
    void *p[MAX_VIEWS];
    data_pointers(c, p);
    st = execute_as(c->op, plan, p);
    if (st == ROPEKIT_OK && variant >= 2) {
        results_save(first, a, a->count);
        if (variant == 2) {
            fz_restore(a);
            ropekit_status again = execute_as(c->op, plan, p);
            FZ_CHECK(again == ROPEKIT_OK, "second execute failed: %s", ropekit_last_error());
            int diff = results_differ(first, a);
            FZ_CHECK(diff < 0, "second execute differs in buffer %d", diff);
        } else {
            run_on_clone(a, c, plan, first);
        }
    }
    ropekit_plan_destroy(plan);
    return st;
}

static void trace_call(const fz_call *c, int variant) {
    if (!getenv("FUZZ_TRACE"))
        return;
    fprintf(stderr, "%s variant %d mode %d dir %d slice [%lld,%lld) expect_ok %d holdable %d\n",
            kOpName[c->op], variant, (int)c->mode, (int)c->dir, (long long)c->start,
            (long long)c->end, c->expect_ok, c->holdable);
    for (int i = 0; i < c->nv; i++) {
        const ropekit_tensor *t = &c->v[i].t;
        fprintf(stderr, "  view %d%s%s %s rank %d shape [", i, c->null_desc[i] ? " NULL" : "",
                c->alias[i] >= 0 ? " alias" : "", ropekit_dtype_name(t->dtype), (int)t->ndim);
        for (int32_t k = 0; k < clamp_rank(t->ndim); k++)
            fprintf(stderr, k ? ",%lld" : "%lld", (long long)t->shape[k]);
        fprintf(stderr, "] strides [");
        for (int32_t k = 0; k < clamp_rank(t->ndim); k++)
            fprintf(stderr, k ? ",%lld" : "%lld", (long long)t->strides[k]);
        fprintf(stderr, "]%s%s data %p\n", c->v[i].dense ? " dense" : "",
                c->v[i].overflow ? " overflow" : "", t->data);
    }
}

/* Views the arena cannot hold: planning only; a refused plan means a refused one-shot
 * call, before it touches the tiny buffers. */
static void plan_only(fz_arena *a, fz_call *c) {
    for (int i = 0; i < c->nv; i++) {
        c->v[i].block = c->alias[i] >= 0 ? c->v[c->alias[i]].block : (uint8_t *)fz_alloc(a, 8);
        c->v[i].t.data = c->v[i].block;
    }
    trace_call(c, -1);
    ropekit_plan *plan = NULL;
    ropekit_status st = call_plan(c, &plan);
    if (st == ROPEKIT_OK) {
        for (int i = 0; i < c->nv; i++)
            FZ_CHECK(c->null_desc[i] || !view_invalid(&c->v[i]),
                     "%s plan accepted view %d whose size overflows int64", kOpName[c->op], i);
        check_describe(plan);
        ropekit_plan_destroy(plan);
        return;
    }
    FZ_CHECK(plan == NULL, "failed plan_create left a plan");
    fz_snapshot(a);
    ropekit_status one = call_oneshot(c);
    FZ_CHECK(one == st, "one-shot gave %s, plan_create %s", ropekit_status_name(one),
             ropekit_status_name(st));
    expect_rejected(a, one, kOpName[c->op]);
}

static void fuzz_call(fz_input *in) {
    fz_call c;
    decode(in, &c);
    const int variant = (int)fz_range(in, 0, 3);
    fz_arena a;
    fz_arena_init(&a);
    fz_results first = {0};
    config_first(in);
    if (!c.holdable) {
        plan_only(&a, &c);
        goto done;
    }
    bool shared;
    if (!place(&a, in, &c, &shared))
        goto done;
    c.expect_ok = c.expect_ok && !shared;
    fill(&a, in, &c);
    fz_snapshot(&a);
    const int count = a.count; /* clones come after */
    trace_call(&c, variant);

    ropekit_status st = run_variant(&a, &c, variant, &first);
    FZ_TRACE("-> %s %s", ropekit_status_name(st), st == ROPEKIT_OK ? "" : ropekit_last_error());
    if (st != ROPEKIT_OK) {
        expect_rejected(&a, st, kOpName[c.op]);
        FZ_CHECK(!c.expect_ok || st == ROPEKIT_NO_MEMORY, "valid %s refused: %s", kOpName[c.op],
                 ropekit_last_error());
    }
    results_save(&first, &a, count);
    fz_restore(&a);
    config_scalar();
    ropekit_status st2 = call_oneshot(&c);
    config_restore();
    FZ_CHECK(st2 == st, "scalar one-shot rerun gave %s, first run %s (%s)",
             ropekit_status_name(st2), ropekit_status_name(st), ropekit_last_error());
    int diff = results_differ(&first, &a);
    FZ_CHECK(diff < 0, "first run and scalar 1-thread rerun differ in buffer %d", diff);
    if (st == ROPEKIT_OK)
        verify_accepted(&a, &c, count);
done:
    config_restore();
    results_free(&first);
    fz_arena_free(&a);
}

static void fuzz_misc(void) {
    float data[4] = {0};
    void *p[MAX_VIEWS] = {data, data, data, data, data, data, data};
    for (int op = 0; op <= OP_COUNT; op++) {
        FZ_CHECK(execute_as(op, NULL, p) == ROPEKIT_NULL_POINTER, "execute %d of a NULL plan", op);
        FZ_CHECK(ropekit_last_error()[0] != '\0', "no message");
    }
    ropekit_plan_destroy(NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    if (fz_u8(&in) == 255)
        fuzz_misc();
    else
        fuzz_call(&in);
    return 0;
}
