/* Partial-rotary case: description and the check against the float64 reference. */
#include "testkit/pr_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testkit/half_bits.h"
#include "testkit/reference.h"

void tk_pr_case_free(struct tk_pr_case *pc) {
    tk_tensor_free(&pc->x);
    tk_tensor_free(&pc->cos);
    tk_tensor_free(&pc->sin);
}

static bool tk_is_contiguous(const struct tk_tensor *t) {
    int64_t step = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != 1 && t->strides[i] != step)
            return false;
        step *= t->shape[i];
    }
    return t->offset == 0;
}

static size_t tk_describe_tensor(const char *name, const struct tk_tensor *t, char *buf,
                                 size_t len) {
    char shape[96], strides[96];
    int n = snprintf(buf, len, " %s=%s%s", name, ropekit_dtype_name(t->dtype),
                     tk_shape_str(t->ndim, t->shape, shape, sizeof shape));
    if (n >= 0 && (size_t)n < len && !tk_is_contiguous(t))
        n += snprintf(buf + n, len - (size_t)n, "/strides%s+%lld",
                      tk_shape_str(t->ndim, t->strides, strides, sizeof strides),
                      (long long)t->offset);
    return n < 0 ? 0 : (size_t)n;
}

const char *tk_pr_case_describe(const struct tk_pr_case *pc, char *buf, size_t len) {
    size_t used = (size_t)snprintf(buf, len, "%s %s", pc->direction ? "bwd" : "fwd",
                                   ropekit_rotary_mode_name((ropekit_rotary_mode)pc->mode));
    if (used < len)
        used += tk_describe_tensor(pc->direction ? "dy" : "x", &pc->x, buf + used, len - used);
    if (used < len)
        used += tk_describe_tensor("cos", &pc->cos, buf + used, len - used);
    if (used < len && (pc->sin.ndim != pc->cos.ndim || pc->sin.offset != pc->cos.offset ||
                       memcmp(pc->sin.strides, pc->cos.strides, sizeof pc->sin.strides) != 0))
        used += tk_describe_tensor("sin", &pc->sin, buf + used, len - used);
    if (used < len)
        snprintf(buf + used, len - used, " slice=[%lld,%lld)", (long long)pc->start,
                 (long long)pc->end);
    return buf;
}

struct pr_scratch {
    double *v, *c, *s, *ref, *mag;
    int64_t *elem;
};

static int pr_scratch_alloc(struct pr_scratch *w, int64_t len) {
    size_t n = (size_t)(len > 0 ? len : 1);
    w->v = malloc(5 * n * sizeof(double));
    w->elem = malloc(n * sizeof(int64_t));
    if (!w->v || !w->elem) {
        free(w->v);
        free(w->elem);
        return -1;
    }
    w->c = w->v + n;
    w->s = w->c + n;
    w->ref = w->s + n;
    w->mag = w->ref + n;
    return 0;
}

/* Checks the vectors at every leading index of x; marks the rotated buffer elements. */
static void pr_check_rotated(const struct tk_pr_case *pc, const unsigned char *out,
                             struct pr_scratch *w, unsigned char *touched,
                             struct tk_pr_check *chk) {
    const struct tk_tensor *x = &pc->x, *c = &pc->cos, *s = &pc->sin;
    const int nx = x->ndim, nc = c->ndim, lead = nx - 1;
    const int64_t len = pc->end - pc->start;
    const size_t xi = tk_tensor_itemsize(x);
    const struct tk_tol tol = tk_tol_of(x->dtype);
    int64_t idx[ROPEKIT_MAX_DIMS] = {0}, cidx[ROPEKIT_MAX_DIMS] = {0};
    do {
        for (int k = 0; k < nc - 1; k++)
            cidx[k] = c->shape[k] == 1 ? 0 : idx[k + (lead - (nc - 1))];
        for (int64_t j = 0; j < len; j++) {
            idx[lead] = pc->start + j;
            cidx[nc - 1] = j;
            w->elem[j] = tk_tensor_elem(x, idx);
            w->v[j] = tk_load(x->buf + (size_t)w->elem[j] * xi, x->dtype);
            w->c[j] = tk_load(tk_tensor_ptr(c, tk_tensor_elem(c, cidx)), c->dtype);
            w->s[j] = tk_load(tk_tensor_ptr(s, tk_tensor_elem(s, cidx)), s->dtype);
        }
        tk_ref_rotate(pc->mode, pc->direction, len, w->v, w->c, w->s, w->ref, w->mag,
                      x->dtype == ROPEKIT_F64);
        for (int64_t j = 0; j < len; j++) {
            double got = tk_load(out + (size_t)w->elem[j] * xi, x->dtype);
            bool first = chk->err.bad == 0;
            if (!tk_err_check(&chk->err, &tol, got, w->ref[j], w->mag[j], w->elem[j]) && first) {
                memcpy(chk->first_bad, idx, sizeof chk->first_bad);
                chk->first_bad[lead] = pc->start + j;
            }
            touched[w->elem[j]] = 1;
        }
        idx[lead] = 0;
    } while (tk_index_next(lead, x->shape, idx));
}

int tk_pr_check_output(const struct tk_pr_case *pc, const unsigned char *out,
                       struct tk_pr_check *chk) {
    const struct tk_tensor *x = &pc->x;
    const int64_t len = pc->end - pc->start;
    const size_t xi = tk_tensor_itemsize(x);
    tk_err_stats_init(&chk->err);
    memset(chk->first_bad, 0, sizeof chk->first_bad);
    chk->changed_outside = 0;
    chk->first_changed = -1;
    unsigned char *touched = calloc((size_t)x->buf_elems, 1);
    if (!touched)
        return -1;
    bool noop = len == 0 || tk_tensor_numel(x) == 0 || tk_tensor_numel(&pc->cos) == 0;
    if (!noop) {
        struct pr_scratch w;
        if (pr_scratch_alloc(&w, len) != 0) {
            free(touched);
            return -1;
        }
        pr_check_rotated(pc, out, &w, touched, chk);
        free(w.v);
        free(w.elem);
    }
    /* SPEC §1 rule 5 and §3.2: everything but the rotated elements stays bit-identical,
     * including padding between and around the view's elements. */
    for (int64_t e = 0; e < x->buf_elems; e++) {
        if (touched[e] || memcmp(x->buf + (size_t)e * xi, out + (size_t)e * xi, xi) == 0)
            continue;
        if (chk->changed_outside++ == 0)
            chk->first_changed = e;
    }
    free(touched);
    return 0;
}

bool tk_pr_check_passed(const struct tk_pr_check *chk) {
    return chk->err.bad == 0 && chk->changed_outside == 0;
}

const char *tk_pr_check_describe(const struct tk_pr_case *pc, const struct tk_pr_check *chk,
                                 char *buf, size_t len) {
    char where[96];
    if (chk->err.bad > 0) {
        snprintf(buf, len,
                 "%lld of %lld rotated elements outside SPEC 6 bound; first at %s: got %.9g, "
                 "reference %.9g, bound %.3g",
                 (long long)chk->err.bad, (long long)chk->err.checked,
                 tk_shape_str(pc->x.ndim, chk->first_bad, where, sizeof where), chk->err.first_got,
                 chk->err.first_ref, chk->err.first_bound);
    } else if (chk->changed_outside > 0) {
        snprintf(buf, len,
                 "%lld elements outside the rotated slice changed; first at buffer element %lld",
                 (long long)chk->changed_outside, (long long)chk->first_changed);
    } else {
        snprintf(buf, len, "ok");
    }
    return buf;
}
