/* Running a RopeWithSinCosCache case through the native face and the aclnn face, and
 * what CANN's contract says the aclnn face must answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"
#include "testkit/acl_dtype.h"
#include "testkit/rope_case.h"
#include "testkit/rules.h"

/* ---- native ---- */

ropekit_tensor tk_rc_native_tensor(const struct tk_rope_case *rc, int v,
                                   const struct tk_rc_image *img) {
    const struct tk_rc_view *view = &rc->view[v];
    const ropekit_dtype dt = rc->buf[view->buf].dtype;
    unsigned char *data = NULL;
    if (img)
        data = img->data[view->buf] + (size_t)view->offset * ropekit_dtype_size(dt);
    return ropekit_tensor_make(data, dt, view->ndim, view->shape, view->strides);
}

ropekit_rope_config tk_rc_native_config(const struct tk_rope_case *rc) {
    ropekit_rope_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.head_size = rc->head_size;
    cfg.style = rc->neox ? ROPEKIT_ROPE_NEOX : ROPEKIT_ROPE_GPTJ;
    cfg.sections = rc->nsec > 0 ? rc->sections : NULL;
    cfg.num_sections = rc->nsec;
    cfg.cache_mode = rc->cache_mode;
    return cfg;
}

ropekit_status tk_rc_native_run(const struct tk_rope_case *rc, struct tk_rc_image *img,
                                bool via_plan) {
    ropekit_tensor t[TK_RC_NVIEWS];
    const ropekit_tensor *arg[TK_RC_NVIEWS];
    for (int v = 0; v < TK_RC_NVIEWS; v++) {
        if (rc->view[v].present)
            t[v] = tk_rc_native_tensor(rc, v, via_plan ? NULL : img);
        arg[v] = rc->view[v].present ? &t[v] : NULL;
    }
    const ropekit_rope_config cfg = tk_rc_native_config(rc);
    if (!via_plan)
        return ropekit_rope(arg[TK_RC_POS], arg[TK_RC_QI], arg[TK_RC_KI], arg[TK_RC_CACHE],
                            arg[TK_RC_QO], arg[TK_RC_KO], &cfg);
    /* The plan is made from descriptors without data, then run on the image. */
    ropekit_plan *plan = NULL;
    ropekit_status st =
        ropekit_rope_plan_create(arg[TK_RC_POS], arg[TK_RC_QI], arg[TK_RC_KI], arg[TK_RC_CACHE],
                                 arg[TK_RC_QO], arg[TK_RC_KO], &cfg, &plan);
    if (st != ROPEKIT_OK)
        return st;
    void *data[TK_RC_NVIEWS] = {NULL};
    for (int v = 0; v < TK_RC_NVIEWS; v++)
        if (rc->view[v].present)
            data[v] = tk_rc_native_tensor(rc, v, img).data;
    st = ropekit_rope_execute(plan, data[TK_RC_POS], data[TK_RC_QI], data[TK_RC_KI],
                              data[TK_RC_CACHE], data[TK_RC_QO], data[TK_RC_KO]);
    ropekit_plan_destroy(plan);
    return st;
}

/* ---- aclnn: the call and its expected status ---- */

void tk_rc_acl_call_make(struct tk_rc_acl_call *call, const struct tk_rope_case *rc, int version,
                         int64_t cache_mode) {
    memset(call, 0, sizeof *call);
    call->version = version;
    call->cache_mode = version == 2 ? cache_mode : 0;
    call->neox = rc->neox;
    call->head_size = rc->head_size;
    call->has_sections = rc->nsec > 0;
    call->nsec = rc->nsec;
    for (int i = 0; i < rc->nsec && i < TK_RC_MAX_SECTIONS; i++)
        call->sections[i] = rc->sections[i];
    for (int v = 0; v < TK_RC_NVIEWS; v++) {
        call->view[v] = rc->view[v];
        call->dtype[v] = (int)rc->buf[rc->view[v].buf].dtype; /* same numbers as aclDataType */
    }
}

const char *tk_rc_acl_name(const struct tk_rc_acl_call *call) {
    return call->version == 2 ? "aclnnRopeWithSinCosCacheV2" : "aclnnRopeWithSinCosCache";
}

static bool rc_same_dims(const struct tk_rc_view *a, const struct tk_rc_view *b) {
    if (a->ndim != b->ndim)
        return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

/* Marks (adds 1 to) every element of a view in a per-element counter array; returns
 * true when some element was already marked by this same view (self-overlap). */
static bool rc_mark_view(const struct tk_rc_view *v, unsigned char *count, unsigned char tag) {
    int64_t idx[3] = {0, 0, 0};
    bool self = false;
    if (tk_rc_view_numel(v) == 0)
        return false;
    do {
        const int64_t e = tk_rc_view_elem(v, idx);
        if (count[e] == tag)
            self = true;
        count[e] = tag;
    } while (tk_index_next(v->ndim, v->shape, idx));
    return self;
}

static bool rc_view_hits(const struct tk_rc_view *v, const unsigned char *count,
                         unsigned char tag) {
    int64_t idx[3] = {0, 0, 0};
    if (tk_rc_view_numel(v) == 0)
        return false;
    do {
        if (count[tk_rc_view_elem(v, idx)] == tag)
            return true;
    } while (tk_index_next(v->ndim, v->shape, idx));
    return false;
}

int tk_rc_outputs_overlap(const struct tk_rc_view *views, const struct tk_rope_case *rc) {
    for (int o = TK_RC_QO; o <= TK_RC_KO; o++) {
        const struct tk_rc_view *ov = &views[o];
        if (!ov->present)
            continue;
        unsigned char *count = calloc((size_t)rc->buf[ov->buf].elems, 1);
        if (!count)
            return -1;
        bool hit = rc_mark_view(ov, count, 1);
        for (int i = 0; !hit && i < TK_RC_NVIEWS; i++) {
            const struct tk_rc_view *iv = &views[i];
            if (i == o || !iv->present || iv->buf != ov->buf)
                continue;
            if (i == o - 3 && tk_rc_view_same(iv, ov))
                continue; /* in place */
            hit = rc_view_hits(iv, count, 1);
        }
        free(count);
        if (hit)
            return 1;
    }
    return 0;
}

static int64_t rc_call_position(const struct tk_rc_acl_call *c, const struct tk_rope_case *rc,
                                int row, int64_t t) {
    const struct tk_rc_view *v = &c->view[TK_RC_POS];
    int64_t e =
        v->offset + (v->ndim == 2 ? row * v->strides[0] + t * v->strides[1] : t * v->strides[0]);
    int64_t value;
    memcpy(&value, rc->buf[v->buf].data + (size_t)e * sizeof value, sizeof value);
    return value;
}

int tk_rc_acl_rule(const struct tk_rc_acl_call *c, const struct tk_rope_case *rc) {
    const struct tk_rc_view *pos = &c->view[TK_RC_POS], *qi = &c->view[TK_RC_QI],
                            *ki = &c->view[TK_RC_KI];
    const struct tk_rc_view *cache = &c->view[TK_RC_CACHE];
    for (int v = 0; v < TK_RC_NVIEWS; v++)
        for (int k = 0; c->view[v].present && k < c->view[v].ndim; k++)
            if (c->view[v].strides[k] < 0)
                return -1;
    if (c->version == 2 && c->cache_mode != 0 && c->cache_mode != 1) /* row 0 */
        return TK_ROPE_RULE_CACHE_MODE;
    for (int v = 0; v < TK_RC_NVIEWS; v++) /* row 1 */
        if (!c->view[v].present)
            return TK_ROPE_RULE_NULL;
    if (c->null_workspace_size || c->null_executor)
        return TK_ROPE_RULE_NULL;
    for (int v = 0; v < TK_RC_NVIEWS; v++)
        if (c->null_data[v] && tk_rc_view_numel(&c->view[v]) > 0)
            return TK_ROPE_RULE_DATA_NULL;
    if (c->dtype[TK_RC_POS] != ACL_INT64) /* row 2 */
        return TK_ROPE_RULE_POS_DTYPE;
    const int xd = c->dtype[TK_RC_QI]; /* row 3 */
    if (xd != ACL_FLOAT && xd != ACL_FLOAT16 && xd != ACL_BF16)
        return TK_ROPE_RULE_DTYPE;
    for (int v = TK_RC_KI; v < TK_RC_NVIEWS; v++)
        if (c->dtype[v] != xd)
            return TK_ROPE_RULE_DTYPE;
    if (qi->ndim != 2 || ki->ndim != 2 || cache->ndim != 2) /* row 4 */
        return TK_ROPE_RULE_RANK;
    if (tk_rc_view_numel(qi) == 0 || tk_rc_view_numel(ki) == 0 || tk_rc_view_numel(cache) == 0 ||
        tk_rc_view_numel(pos) == 0) /* row 5 */
        return TK_ROPE_RULE_EMPTY;
    if (ki->shape[0] != qi->shape[0]) /* row 6 */
        return TK_ROPE_RULE_TOKENS;
    if (!rc_same_dims(&c->view[TK_RC_QO], qi) || !rc_same_dims(&c->view[TK_RC_KO], ki)) /* row 7 */
        return TK_ROPE_RULE_OUT_SHAPE;
    int64_t sum = 0;
    if (c->has_sections) { /* row 8 */
        if (c->nsec != 3 && c->nsec != 4)
            return TK_ROPE_RULE_SECTIONS;
        for (int i = 0; i < c->nsec; i++) {
            if (c->sections[i] < 0)
                return TK_ROPE_RULE_SECTIONS;
            sum += c->sections[i];
        }
    }
    const bool mrope = c->has_sections && c->sections[0] > 0;
    const int64_t rot = cache->shape[1], hs = c->head_size, tokens = qi->shape[0];
    if (mrope && (2 * sum != rot || !tk_aclnn_mrope_whitelisted(c->sections, c->nsec))) /* row 9 */
        return TK_ROPE_RULE_SECTION_VALUES;
    if (hs <= 0) /* row 10 */
        return TK_ROPE_RULE_HEAD_SIZE;
    if (mrope && c->nsec == 4 && c->cache_mode != 0) /* row 11 */
        return TK_ROPE_RULE_MODE_SECTIONS;
    if (qi->shape[1] % hs != 0 || ki->shape[1] % hs != 0) /* row 12 */
        return TK_ROPE_RULE_HEADS;
    const int64_t align = xd == ACL_FLOAT ? 16 : 32; /* row 13 */
    if (hs % align != 0 || rot % align != 0)
        return TK_ROPE_RULE_ALIGN;
    if (rot > hs) /* row 14 */
        return TK_ROPE_RULE_ROT_DIM;
    const int rows = mrope ? c->nsec : 1; /* row 15 */
    const bool pos_ok = mrope ? pos->ndim == 2 && pos->shape[0] == rows && pos->shape[1] == tokens
                              : pos->ndim == 1 && pos->shape[0] == tokens;
    if (!pos_ok)
        return TK_ROPE_RULE_POS_SHAPE;
    int overlap = tk_rc_outputs_overlap(c->view, rc); /* row 16 */
    if (overlap != 0)
        return overlap > 0 ? TK_ROPE_RULE_OVERLAP : -1;
    for (int r = 0; r < rows; r++) /* E: at execution, reported by the sync */
        for (int64_t t = 0; t < tokens; t++) {
            const int64_t p = rc_call_position(c, rc, r, t);
            if (p < 0 || p >= cache->shape[0])
                return TK_ROPE_RULE_POS_RANGE;
        }
    return TK_ROPE_RULE_NONE;
}

int tk_rc_acl_expected(const struct tk_rc_acl_call *c, const struct tk_rope_case *rc) {
    const int rule = tk_rc_acl_rule(c, rc);
    if (rule < 0)
        return -1;
    if (rule == TK_ROPE_RULE_POS_RANGE) /* found as the work runs: the stream's fault */
        return tk_rope_rule_fault(TK_ROPE_RULE_POS_RANGE);
    return tk_rope_rule_code((enum tk_rope_rule)rule);
}

/* ---- aclnn: running a call ---- */

int tk_rc_acl_bind(struct tk_rc_acl_bound *b, const struct tk_rc_acl_call *call,
                   const struct tk_rope_case *rc, const struct tk_rc_image *img, char *err,
                   size_t len) {
    memset(b, 0, sizeof *b);
    for (int i = 0; i < rc->nbufs; i++) {
        const size_t bytes = (size_t)rc->buf[i].elems * ropekit_dtype_size(rc->buf[i].dtype);
        aclError ar = aclrtMalloc(&b->dev[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        if (ar == ACL_SUCCESS)
            ar = aclrtMemcpy(b->dev[i], bytes, img->data[i], bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        if (ar != ACL_SUCCESS) {
            tk_acl_error(err, len, "aclrtMalloc/aclrtMemcpy", ar);
            tk_rc_acl_unbind(b, rc);
            return -1;
        }
    }
    for (int v = 0; v < TK_RC_NVIEWS; v++) {
        const struct tk_rc_view *view = &call->view[v];
        if (!view->present || call->reuse_input[v])
            continue;
        const size_t buf_item = ropekit_dtype_size(rc->buf[view->buf].dtype);
        int64_t storage = rc->buf[view->buf].elems * (int64_t)buf_item /
                          (int64_t)tk_acl_item((aclDataType)call->dtype[v]);
        b->tensor[v] =
            aclCreateTensor(view->shape, (uint64_t)view->ndim, (aclDataType)call->dtype[v],
                            view->strides, view->offset, ACL_FORMAT_ND, &storage, 1,
                            call->null_data[v] ? NULL : b->dev[view->buf]);
        if (!b->tensor[v]) {
            tk_acl_error(err, len, "aclCreateTensor", 0);
            tk_rc_acl_unbind(b, rc);
            return -1;
        }
    }
    for (int v = TK_RC_QO; v <= TK_RC_KO; v++)
        if (call->view[v].present && call->reuse_input[v])
            b->tensor[v] = b->tensor[v - 3];
    if (call->has_sections) {
        b->sections = aclCreateIntArray(call->sections, (uint64_t)call->nsec);
        if (!b->sections) {
            tk_acl_error(err, len, "aclCreateIntArray", 0);
            tk_rc_acl_unbind(b, rc);
            return -1;
        }
    }
    return 0;
}

int tk_rc_acl_launch(struct tk_rc_acl_bound *b, const struct tk_rc_acl_call *call,
                     aclrtStream stream, int *stage, void **ws_out, char *err, size_t len) {
    uint64_t ws_size = 0;
    aclOpExecutor *exec = NULL;
    uint64_t *ws_arg = call->null_workspace_size ? NULL : &ws_size;
    aclOpExecutor **exec_arg = call->null_executor ? NULL : &exec;
    aclTensor *const *t = b->tensor;
    *ws_out = NULL;
    aclnnStatus st =
        call->version == 2
            ? aclnnRopeWithSinCosCacheV2GetWorkspaceSize(
                  t[TK_RC_POS], t[TK_RC_QI], t[TK_RC_KI], t[TK_RC_CACHE], b->sections,
                  call->head_size, call->neox, call->cache_mode, t[TK_RC_QO], t[TK_RC_KO], ws_arg,
                  exec_arg)
            : aclnnRopeWithSinCosCacheGetWorkspaceSize(
                  t[TK_RC_POS], t[TK_RC_QI], t[TK_RC_KI], t[TK_RC_CACHE], b->sections,
                  call->head_size, call->neox, t[TK_RC_QO], t[TK_RC_KO], ws_arg, exec_arg);
    *stage = 1;
    if (st != ACLNN_SUCCESS) {
        char name[64];
        snprintf(name, sizeof name, "%sGetWorkspaceSize", tk_rc_acl_name(call));
        tk_acl_error(err, len, name, st);
        return st;
    }
    void *ws = NULL;
    if (ws_size > 0 && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        tk_acl_error(err, len, "aclrtMalloc(workspace)", 0);
        aclDestroyAclOpExecutor(exec);
        return ACL_ERROR_BAD_ALLOC;
    }
    *stage = 2;
    st = call->version == 2 ? aclnnRopeWithSinCosCacheV2(ws, ws_size, exec, stream)
                            : aclnnRopeWithSinCosCache(ws, ws_size, exec, stream);
    if (st != ACLNN_SUCCESS) {
        tk_acl_error(err, len, tk_rc_acl_name(call), st);
        if (ws)
            aclrtFree(ws);
        return st;
    }
    *ws_out = ws;
    return 0;
}

int tk_rc_acl_call_once(struct tk_rc_acl_bound *b, const struct tk_rc_acl_call *call,
                        const struct tk_acl *acl, int *stage, char *err, size_t len) {
    void *ws;
    int st = tk_rc_acl_launch(b, call, acl->stream, stage, &ws, err, len);
    if (st != 0)
        return st;
    *stage = 3;
    aclError ar = aclrtSynchronizeStream(acl->stream);
    if (ar != ACL_SUCCESS)
        tk_acl_error(err, len, "aclrtSynchronizeStream", ar);
    if (ws)
        aclrtFree(ws);
    return ar;
}

int tk_rc_acl_download(const struct tk_rc_acl_bound *b, const struct tk_rope_case *rc,
                       struct tk_rc_image *img, char *err, size_t len) {
    for (int i = 0; i < rc->nbufs; i++) {
        const size_t bytes = (size_t)rc->buf[i].elems * ropekit_dtype_size(rc->buf[i].dtype);
        aclError st = aclrtMemcpy(img->data[i], bytes, b->dev[i], bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        if (st != ACL_SUCCESS) {
            tk_acl_error(err, len, "aclrtMemcpy", st);
            return -1;
        }
    }
    return 0;
}

void tk_rc_acl_unbind(struct tk_rc_acl_bound *b, const struct tk_rope_case *rc) {
    for (int v = TK_RC_NVIEWS - 1; v >= 0; v--) { /* outputs first: they may be the inputs */
        bool shared = (v == TK_RC_QO || v == TK_RC_KO) && b->tensor[v] == b->tensor[v - 3];
        if (b->tensor[v] && !shared)
            aclDestroyTensor(b->tensor[v]);
        b->tensor[v] = NULL;
    }
    if (b->sections)
        aclDestroyIntArray(b->sections);
    b->sections = NULL;
    for (int i = 0; i < rc->nbufs; i++) {
        if (b->dev[i])
            aclrtFree(b->dev[i]);
        b->dev[i] = NULL;
    }
}

int tk_rc_acl_run(const struct tk_rc_acl_call *call, const struct tk_rope_case *rc,
                  const struct tk_acl *acl, struct tk_rc_image *img, int *stage, char *err,
                  size_t len) {
    struct tk_rc_acl_bound b;
    *stage = 0;
    if (tk_rc_acl_bind(&b, call, rc, img, err, len) != 0)
        return -1;
    int st = tk_rc_acl_call_once(&b, call, acl, stage, err, len);
    if (tk_rc_acl_download(&b, rc, img, err, len) != 0 && st == 0) {
        *stage = 0;
        st = -1;
    }
    tk_rc_acl_unbind(&b, rc);
    return st;
}
