/* RopeWithSinCosCache case: buffers, views, description and the check against the
 * float64 reference. */
#include "testkit/rope_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testkit/half_bits.h"
#include "testkit/host_tensor.h"

void tk_rope_case_free(struct tk_rope_case *rc) {
    for (int i = 0; i < rc->nbufs; i++) {
        free(rc->buf[i].data);
        rc->buf[i].data = NULL;
    }
    rc->nbufs = 0;
}

int tk_rc_add_buffer(struct tk_rope_case *rc, ropekit_dtype dtype, int64_t elems) {
    if (rc->nbufs >= TK_RC_MAX_BUFS || elems < 0)
        return -1;
    struct tk_rc_buffer *b = &rc->buf[rc->nbufs];
    b->dtype = dtype;
    b->elems = elems > 0 ? elems : 1;
    b->data = calloc((size_t)b->elems, ropekit_dtype_size(dtype));
    return b->data ? rc->nbufs++ : -1;
}

struct tk_rope_select tk_rc_select(const struct tk_rope_case *rc) {
    struct tk_rope_select s = {rc->nsec, rc->sections, rc->cache_mode};
    return s;
}

bool tk_rc_is_mrope(const struct tk_rope_case *rc) {
    struct tk_rope_select s = tk_rc_select(rc);
    return tk_rope_is_mrope(&s);
}

int tk_rc_pos_rows(const struct tk_rope_case *rc) {
    return tk_rc_is_mrope(rc) ? rc->nsec : 1;
}

ropekit_dtype tk_rc_view_dtype(const struct tk_rope_case *rc, int v) {
    return rc->buf[rc->view[v].buf].dtype;
}

void tk_rc_set_view(struct tk_rc_view *v, int buf, int ndim, const int64_t *shape,
                    const int64_t *strides, int64_t offset) {
    memset(v, 0, sizeof *v);
    v->present = true;
    v->buf = buf;
    v->ndim = ndim;
    for (int i = 0; i < ndim; i++) {
        v->shape[i] = shape[i];
        v->strides[i] = strides[i];
    }
    v->offset = offset;
}

int64_t tk_rc_view_numel(const struct tk_rc_view *v) {
    int64_t n = 1;
    for (int i = 0; i < v->ndim; i++)
        n *= v->shape[i];
    return n;
}

int64_t tk_rc_view_elem(const struct tk_rc_view *v, const int64_t *idx) {
    int64_t e = v->offset;
    for (int i = 0; i < v->ndim; i++)
        e += idx[i] * v->strides[i];
    return e;
}

int64_t tk_rc_head_elem(const struct tk_rope_case *rc, const struct tk_rc_view *v, int64_t t,
                        int64_t head, int64_t col) {
    if (v->ndim == 3)
        return v->offset + t * v->strides[0] + head * v->strides[1] + col * v->strides[2];
    return v->offset + t * v->strides[0] + (head * rc->head_size + col) * v->strides[1];
}

static int64_t *rc_position_ptr(const struct tk_rope_case *rc, int row, int64_t t) {
    const struct tk_rc_view *v = &rc->view[TK_RC_POS];
    int64_t e =
        v->offset + (v->ndim == 2 ? row * v->strides[0] + t * v->strides[1] : t * v->strides[0]);
    return (int64_t *)(void *)(rc->buf[v->buf].data + (size_t)e * sizeof(int64_t));
}

int64_t tk_rc_position(const struct tk_rope_case *rc, int row, int64_t t) {
    int64_t value;
    memcpy(&value, rc_position_ptr(rc, row, t), sizeof value);
    return value;
}

void tk_rc_set_position(struct tk_rope_case *rc, int row, int64_t t, int64_t value) {
    memcpy(rc_position_ptr(rc, row, t), &value, sizeof value);
}

bool tk_rc_view_same(const struct tk_rc_view *a, const struct tk_rc_view *b) {
    if (a->present != b->present || a->buf != b->buf || a->ndim != b->ndim ||
        a->offset != b->offset)
        return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i])
            return false;
    return true;
}

bool tk_rc_strides_nonnegative(const struct tk_rope_case *rc) {
    for (int v = 0; v < TK_RC_NVIEWS; v++)
        for (int k = 0; rc->view[v].present && k < rc->view[v].ndim; k++)
            if (rc->view[v].strides[k] < 0)
                return false;
    return true;
}

static bool rc_view_contiguous(const struct tk_rc_view *v) {
    int64_t step = 1;
    for (int i = v->ndim - 1; i >= 0; i--) {
        if (v->shape[i] != 1 && v->strides[i] != step)
            return false;
        step *= v->shape[i];
    }
    return v->offset == 0;
}

static size_t rc_describe_view(const struct tk_rope_case *rc, int id, const char *name, char *buf,
                               size_t len) {
    const struct tk_rc_view *v = &rc->view[id];
    char shape[64], strides[64];
    if (!v->present)
        return 0;
    int n = snprintf(buf, len, " %s=%s%s", name, ropekit_dtype_name(tk_rc_view_dtype(rc, id)),
                     tk_shape_str(v->ndim, v->shape, shape, sizeof shape));
    if (n >= 0 && (size_t)n < len && !rc_view_contiguous(v))
        n += snprintf(buf + n, len - (size_t)n, "/b%d%s+%lld", v->buf,
                      tk_shape_str(v->ndim, v->strides, strides, sizeof strides),
                      (long long)v->offset);
    return n < 0 ? 0 : (size_t)n;
}

const char *tk_rope_case_describe(const struct tk_rope_case *rc, char *buf, size_t len) {
    size_t used = (size_t)snprintf(buf, len, "%s %s", rc->neox ? "neox" : "gptj",
                                   tk_rc_is_mrope(rc) ? "mrope" : "rope");
    if (rc->nsec > 0 && used < len) {
        char sec[64];
        used += (size_t)snprintf(buf + used, len - used, "%s/%lld",
                                 tk_shape_str(rc->nsec, rc->sections, sec, sizeof sec),
                                 (long long)rc->cache_mode);
    }
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, " hs=%lld R=%lld T=%lld",
                                 (long long)rc->head_size, (long long)rc->rot_dim,
                                 (long long)rc->tokens);
    static const char *names[TK_RC_NVIEWS] = {"pos", "q", "k", "cache", "qo", "ko"};
    for (int v = 0; v < TK_RC_NVIEWS && used < len; v++) {
        bool in_place = (v == TK_RC_QO || v == TK_RC_KO) && rc->view[v].present &&
                        tk_rc_view_same(&rc->view[v], &rc->view[v - 3]);
        if (in_place)
            used += (size_t)snprintf(buf + used, len - used, " %s=in-place", names[v]);
        else
            used += rc_describe_view(rc, v, names[v], buf + used, len - used);
    }
    return buf;
}

int tk_rc_image_alloc(struct tk_rc_image *img, const struct tk_rope_case *rc) {
    memset(img, 0, sizeof *img);
    for (int i = 0; i < rc->nbufs; i++) {
        size_t bytes = (size_t)rc->buf[i].elems * ropekit_dtype_size(rc->buf[i].dtype);
        img->data[i] = malloc(bytes);
        if (!img->data[i]) {
            tk_rc_image_free(img);
            return -1;
        }
        memcpy(img->data[i], rc->buf[i].data, bytes);
        img->n = i + 1;
    }
    return 0;
}

void tk_rc_image_reset(struct tk_rc_image *img, const struct tk_rope_case *rc) {
    for (int i = 0; i < img->n; i++)
        memcpy(img->data[i], rc->buf[i].data,
               (size_t)rc->buf[i].elems * ropekit_dtype_size(rc->buf[i].dtype));
}

void tk_rc_image_free(struct tk_rc_image *img) {
    for (int i = 0; i < img->n; i++)
        free(img->data[i]);
    img->n = 0;
}

static bool rc_bytes_same(const struct tk_rope_case *rc, int b, const unsigned char *x,
                          const unsigned char *y, int64_t *where) {
    const size_t item = ropekit_dtype_size(rc->buf[b].dtype);
    const size_t bytes = (size_t)rc->buf[b].elems * item;
    if (memcmp(x, y, bytes) == 0)
        return true;
    for (int64_t e = 0; e < rc->buf[b].elems; e++)
        if (memcmp(x + (size_t)e * item, y + (size_t)e * item, item) != 0) {
            *where = e;
            break;
        }
    return false;
}

bool tk_rc_image_same(const struct tk_rope_case *rc, const struct tk_rc_image *a,
                      const struct tk_rc_image *b, int *where_buf, int64_t *where_elem) {
    for (int i = 0; i < rc->nbufs; i++)
        if (!rc_bytes_same(rc, i, a->data[i], b->data[i], where_elem)) {
            *where_buf = i;
            return false;
        }
    return true;
}

bool tk_rc_image_untouched(const struct tk_rope_case *rc, const struct tk_rc_image *img,
                           int *where_buf, int64_t *where_elem) {
    for (int i = 0; i < rc->nbufs; i++)
        if (!rc_bytes_same(rc, i, rc->buf[i].data, img->data[i], where_elem)) {
            *where_buf = i;
            return false;
        }
    return true;
}

/* ---- the check ---- */

struct rc_work {
    double *x, *c, *s, *ref, *mag;
    unsigned char *mark[TK_RC_MAX_BUFS]; /* elements written by an output view */
};

static void rc_work_free(struct rc_work *w, int nbufs) {
    free(w->x);
    for (int i = 0; i < nbufs; i++)
        free(w->mark[i]);
}

static int rc_work_alloc(struct rc_work *w, const struct tk_rope_case *rc) {
    memset(w, 0, sizeof *w);
    const size_t hs = (size_t)(rc->head_size > 0 ? rc->head_size : 1);
    w->x = malloc(5 * hs * sizeof(double));
    bool ok = w->x != NULL;
    for (int i = 0; ok && i < rc->nbufs; i++)
        ok = (w->mark[i] = calloc((size_t)rc->buf[i].elems, 1)) != NULL;
    if (!ok) {
        rc_work_free(w, rc->nbufs);
        return -1;
    }
    w->c = w->x + hs;
    w->s = w->c + hs;
    w->ref = w->s + hs;
    w->mag = w->ref + hs;
    return 0;
}

/* Gathers c[j], s[j] of token t from the problem's cache (SPEC §5.3). */
static void rc_gather(const struct tk_rope_case *rc, int64_t t, double *c, double *s) {
    const struct tk_rope_select sel = tk_rc_select(rc);
    const struct tk_rc_view *cv = &rc->view[TK_RC_CACHE];
    const struct tk_rc_buffer *cb = &rc->buf[cv->buf];
    const size_t item = ropekit_dtype_size(cb->dtype);
    const int64_t h = rc->rot_dim / 2;
    for (int64_t j = 0; j < h; j++) {
        const int64_t p = tk_rc_position(rc, tk_rope_src_row(&sel, j), t);
        const int64_t ce = cv->offset + p * cv->strides[0] + j * cv->strides[1];
        const int64_t se = ce + h * cv->strides[1];
        c[j] = tk_load(cb->data + (size_t)ce * item, cb->dtype);
        s[j] = tk_load(cb->data + (size_t)se * item, cb->dtype);
    }
}

static void rc_check_side(const struct tk_rope_case *rc, const struct tk_rc_image *out, int in_id,
                          int64_t heads, struct rc_work *w, struct tk_rc_check *chk) {
    const struct tk_rc_view *in = &rc->view[in_id], *ov = &rc->view[in_id + 3];
    const struct tk_rc_buffer *ib = &rc->buf[in->buf], *ob = &rc->buf[ov->buf];
    const size_t item = ropekit_dtype_size(ib->dtype);
    const struct tk_tol tol = tk_tol_of(ob->dtype);
    const int64_t hs = rc->head_size, rot = rc->rot_dim;
    for (int64_t t = 0; t < rc->tokens; t++) {
        rc_gather(rc, t, w->c, w->s);
        for (int64_t n = 0; n < heads; n++) {
            for (int64_t col = 0; col < rot; col++)
                w->x[col] = tk_load(ib->data + (size_t)tk_rc_head_elem(rc, in, t, n, col) * item,
                                    ib->dtype);
            tk_rope_ref_head(rc->neox, rot, w->x, w->c, w->s, w->ref, w->mag,
                             ib->dtype == ROPEKIT_F64);
            for (int64_t col = 0; col < hs; col++) {
                const int64_t oe = tk_rc_head_elem(rc, ov, t, n, col);
                const unsigned char *got = out->data[ov->buf] + (size_t)oe * item;
                w->mark[ov->buf][oe] = 1;
                if (col >= rot) {
                    const int64_t ie = tk_rc_head_elem(rc, in, t, n, col);
                    if (memcmp(got, ib->data + (size_t)ie * item, item) != 0 &&
                        chk->passthrough_bad++ == 0) {
                        chk->first_buf = ov->buf;
                        chk->first_elem = oe;
                    }
                    continue;
                }
                bool first = chk->err.bad == 0;
                if (!tk_err_check(&chk->err, &tol, tk_load(got, ob->dtype), w->ref[col],
                                  w->mag[col], oe) &&
                    first) {
                    chk->bad_side = in_id == TK_RC_QI ? 'q' : 'k';
                    chk->bad_t = t;
                    chk->bad_head = n;
                    chk->bad_col = col;
                }
            }
        }
    }
}

int tk_rc_check_output(const struct tk_rope_case *rc, const struct tk_rc_image *out,
                       struct tk_rc_check *chk) {
    memset(chk, 0, sizeof *chk);
    tk_err_stats_init(&chk->err);
    chk->first_buf = -1;
    chk->first_elem = -1;
    struct rc_work w;
    if (rc_work_alloc(&w, rc) != 0)
        return -1;
    if (rc->view[TK_RC_QI].present)
        rc_check_side(rc, out, TK_RC_QI, rc->q_heads, &w, chk);
    if (rc->view[TK_RC_KI].present)
        rc_check_side(rc, out, TK_RC_KI, rc->k_heads, &w, chk);
    /* Everything no output view covers keeps its bytes: padding, the v part of a fused
     * buffer, the inputs of an out-of-place call, the cache and the positions. */
    for (int b = 0; b < rc->nbufs; b++) {
        const size_t item = ropekit_dtype_size(rc->buf[b].dtype);
        for (int64_t e = 0; e < rc->buf[b].elems; e++) {
            if (w.mark[b][e] || memcmp(rc->buf[b].data + (size_t)e * item,
                                       out->data[b] + (size_t)e * item, item) == 0)
                continue;
            if (chk->outside_changed++ == 0 && chk->passthrough_bad == 0) {
                chk->first_buf = b;
                chk->first_elem = e;
            }
        }
    }
    rc_work_free(&w, rc->nbufs);
    return 0;
}

bool tk_rc_check_passed(const struct tk_rc_check *chk) {
    return chk->err.bad == 0 && chk->passthrough_bad == 0 && chk->outside_changed == 0;
}

const char *tk_rc_check_describe(const struct tk_rc_check *chk, char *buf, size_t len) {
    if (chk->err.bad > 0)
        snprintf(buf, len,
                 "%lld of %lld rotated elements outside SPEC 6 bound; first %c token %lld head "
                 "%lld col %lld: got %.9g, reference %.9g, bound %.3g",
                 (long long)chk->err.bad, (long long)chk->err.checked, chk->bad_side,
                 (long long)chk->bad_t, (long long)chk->bad_head, (long long)chk->bad_col,
                 chk->err.first_got, chk->err.first_ref, chk->err.first_bound);
    else if (chk->passthrough_bad > 0)
        snprintf(buf, len,
                 "%lld pass-through elements differ from the input bytes; first at buffer %d "
                 "element %lld",
                 (long long)chk->passthrough_bad, chk->first_buf, (long long)chk->first_elem);
    else if (chk->outside_changed > 0)
        snprintf(buf, len,
                 "%lld elements outside the outputs changed; first at buffer %d element %lld",
                 (long long)chk->outside_changed, chk->first_buf, (long long)chk->first_elem);
    else
        snprintf(buf, len, "ok");
    return buf;
}
