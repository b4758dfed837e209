/* aclnnRopeWithSinCosCache and aclnnRopeWithSinCosCacheV2: the validation table of SPEC §5.5
 * (one test per row: codes, messages, nothing written on failure), the execution-time position
 * check (row E), the cos/sin selection rules of §5.3 (rope, sectioned and interleaved mrope), the
 * NeoX and GPT-J rotations of §5.4, aliasing (in place, fused qkv views) and executor use. */
#include "pr_harness.h"
#include "testkit/rope_reference.h"
#include "testkit/rules.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"

#define API_NULL ACLNN_ERR_PARAM_NULLPTR
#define API_INVALID ACLNN_ERR_PARAM_INVALID
#define TILING ACLNN_ERR_INNER_TILING_ERROR

/* Tensor slots in the order of the phase-1 signature; RC_EXTRA is a storage that no argument
 * names directly (e.g. a fused qkv buffer that q and k view). */
enum { RC_POS, RC_Q, RC_K, RC_CACHE, RC_QOUT, RC_KOUT, RC_NT, RC_EXTRA = RC_NT, RC_NS };
/* Non-tensor arguments that can be passed as NULL. */
enum { RC_WS = RC_NS + 1, RC_EXEC };

static const char *const rc_names[RC_NT] = {"positions",   "queryIn",  "keyIn",
                                            "cosSinCache", "queryOut", "keyOut"};

struct rc_case {
    int api;            /* 1: V1, 2: V2 */
    int64_t cache_mode; /* V2 only */
    aclDataType dt[RC_NS];
    int64_t nd[RC_NS]; /* 0 for RC_EXTRA: no extra storage */
    int64_t d[RC_NS][3];
    int64_t nsec; /* -1: mropeSection NULL */
    int64_t sec[5];
    int64_t head_size;
    bool neox;
    int null_arg; /* -1, a tensor slot, RC_WS or RC_EXEC */
    int no_data;  /* -1 or a tensor slot created with a NULL data pointer */
};

enum { T0 = 3, M0 = 8 };

static void rc_shape(struct rc_case *k, int i, int64_t nd, int64_t d0, int64_t d1) {
    k->nd[i] = nd;
    k->d[i][0] = d0;
    k->d[i][1] = d1;
}

/* Sets queryIn/queryOut to [t, qcols] and keyIn/keyOut to [t, kcols]. */
static void rc_qk(struct rc_case *k, int64_t t, int64_t qcols, int64_t kcols) {
    rc_shape(k, RC_Q, 2, t, qcols);
    rc_shape(k, RC_QOUT, 2, t, qcols);
    rc_shape(k, RC_K, 2, t, kcols);
    rc_shape(k, RC_KOUT, 2, t, kcols);
}

static void rc_dtype(struct rc_case *k, aclDataType dt) {
    for (int i = RC_Q; i < RC_NS; i++)
        k->dt[i] = dt;
}

/* Rope, fp32: T=3 tokens, headSize 32, 2 query heads, 1 key head, cache [8, 32], NeoX. */
static struct rc_case rc_default(int api) {
    struct rc_case k;
    memset(&k, 0, sizeof k);
    k.api = api;
    k.dt[RC_POS] = ACL_INT64;
    rc_dtype(&k, ACL_FLOAT);
    rc_shape(&k, RC_POS, 1, T0, 0);
    rc_qk(&k, T0, 64, 32);
    rc_shape(&k, RC_CACHE, 2, M0, 32);
    k.nsec = -1;
    k.head_size = 32;
    k.neox = true;
    k.null_arg = -1;
    k.no_data = -1;
    return k;
}

/* Mrope with `n` sections on a rope case: headSize = rotaryDim = 2 * sum, one head each for q
 * and k, positions [n, T]. */
static void rc_mrope(struct rc_case *k, int64_t n, const int64_t *sec) {
    int64_t sum = 0;
    k->nsec = n;
    for (int64_t i = 0; i < n; i++) {
        k->sec[i] = sec[i];
        sum += sec[i];
    }
    int64_t t = k->d[RC_Q][0];
    k->head_size = 2 * sum;
    rc_qk(k, t, 2 * sum, 2 * sum);
    rc_shape(k, RC_CACHE, 2, k->d[RC_CACHE][0], 2 * sum);
    rc_shape(k, RC_POS, 2, n, t);
}

static void rc_mrope3(struct rc_case *k, int64_t s0, int64_t s1, int64_t s2) {
    const int64_t sec[3] = {s0, s1, s2};
    rc_mrope(k, 3, sec);
}

static void rc_mrope4(struct rc_case *k) {
    const int64_t sec[4] = {16, 16, 16, 16};
    rc_mrope(k, 4, sec);
}

/* ---- building, running, checking ---- */

/* Source line of the case being checked, printed with every failure. */
static int rc_line;

struct rc_built {
    struct fx_tensor t[RC_NS];
    int owner[RC_NS]; /* slot whose storage slot i views (itself unless rebound with rc_view) */
    aclIntArray *sec;
    void *orig[RC_NS]; /* copies of the owned storages (rc_snapshot) */
};

static void *rc_store(const struct rc_built *b, int i) {
    return b->t[b->owner[i]].buf;
}

static bool rc_owns(const struct rc_built *b, int i) {
    return b->owner[i] == i && b->t[i].buf;
}

/* Positions value of row r, token t (1-D positions: r is 0). */
static int64_t rc_pos(const struct rc_built *b, int64_t r, int64_t t) {
    const struct fx_tensor *p = &b->t[RC_POS];
    int64_t idx = p->ndim == 1 ? p->offset + t * p->strides[0]
                               : p->offset + r * p->strides[0] + t * p->strides[1];
    int64_t v;
    memcpy(&v, (const char *)rc_store(b, RC_POS) + idx * 8, 8);
    return v;
}

static void rc_set_pos(struct rc_built *b, int64_t r, int64_t t, int64_t v) {
    const struct fx_tensor *p = &b->t[RC_POS];
    int64_t idx = p->ndim == 1 ? p->offset + t * p->strides[0]
                               : p->offset + r * p->strides[0] + t * p->strides[1];
    memcpy((char *)rc_store(b, RC_POS) + idx * 8, &v, 8);
}

/* Storage index of element (i, j) of a 2-D slot. */
static size_t rc_at2(const struct fx_tensor *f, int64_t i, int64_t j) {
    return (size_t)(f->offset + i * f->strides[0] + j * f->strides[1]);
}

static void rc_snapshot(struct rc_built *b) {
    for (int i = 0; i < RC_NS; i++) {
        free(b->orig[i]);
        b->orig[i] = rc_owns(b, i) ? pr_dup(b->t[i].buf, b->t[i].bytes) : NULL;
    }
}

static void rc_build(const struct rc_case *k, struct rc_built *b) {
    memset(b, 0, sizeof *b);
    int64_t maxpos = k->d[RC_CACHE][0] > 0 ? k->d[RC_CACHE][0] : 1;
    for (int i = 0; i < RC_NS; i++) {
        b->owner[i] = i;
        if (k->nd[i] == 0)
            continue;
        assert_int_equal(
            fx_tensor_init(&b->t[i], k->dt[i], k->nd[i], k->d[i], NULL, 0, k->no_data != i), 0);
        struct fx_tensor *f = &b->t[i];
        size_t n = f->bytes / tk_acl_item(f->dt);
        bool is_float = f->dt == ACL_FLOAT || f->dt == ACL_FLOAT16 || f->dt == ACL_BF16;
        for (size_t e = 0; e < n; e++) {
            if (is_float) {
                fx_store(f->dt, f->buf, e, fx_pattern(e, 31u * (unsigned)i + 3u));
            } else if (f->dt == ACL_INT64) {
                int64_t v = (int64_t)((e * 5u + 1u) % (size_t)maxpos);
                memcpy((char *)f->buf + 8 * e, &v, 8);
            }
        }
    }
    if (k->nsec >= 0) {
        b->sec = aclCreateIntArray(k->sec, (uint64_t)k->nsec);
        assert_non_null(b->sec);
    }
    rc_snapshot(b);
}

/* Replaces slot `i` by a 2-D view (strides NULL: contiguous) over the storage of slot `owner`. */
static void rc_view(struct rc_built *b, int i, int64_t d0, int64_t d1, const int64_t *strides,
                    int64_t offset, int owner) {
    assert_true(owner != i && b->owner[owner] == owner);
    struct fx_tensor *f = &b->t[i];
    aclDataType dt = f->dt;
    fx_tensor_free(f);
    memset(f, 0, sizeof *f);
    f->dt = dt;
    f->ndim = 2;
    f->dims[0] = d0;
    f->dims[1] = d1;
    f->strides[0] = strides ? strides[0] : d1;
    f->strides[1] = strides ? strides[1] : 1;
    f->offset = offset;
    f->t = aclCreateTensor(f->dims, 2, dt, f->strides, offset, ACL_FORMAT_ND, NULL, 0,
                           b->t[owner].buf);
    assert_non_null(f->t);
    b->owner[i] = owner;
    rc_snapshot(b);
}

static void rc_free(struct rc_built *b) {
    for (int i = 0; i < RC_NS; i++) {
        fx_tensor_free(&b->t[i]);
        free(b->orig[i]);
    }
    if (b->sec)
        aclDestroyIntArray(b->sec);
}

static aclnnStatus rc_phase1(const struct rc_case *k, const struct rc_built *b, uint64_t *ws,
                             aclOpExecutor **exec) {
    aclTensor *p[RC_NT];
    for (int i = 0; i < RC_NT; i++)
        p[i] = k->null_arg == i ? NULL : b->t[i].t;
    uint64_t *w = k->null_arg == RC_WS ? NULL : ws;
    aclOpExecutor **e = k->null_arg == RC_EXEC ? NULL : exec;
    if (k->api == 1)
        return aclnnRopeWithSinCosCacheGetWorkspaceSize(p[0], p[1], p[2], p[3], b->sec,
                                                        k->head_size, k->neox, p[4], p[5], w, e);
    return aclnnRopeWithSinCosCacheV2GetWorkspaceSize(p[0], p[1], p[2], p[3], b->sec, k->head_size,
                                                      k->neox, k->cache_mode, p[4], p[5], w, e);
}

static aclnnStatus rc_phase2(int api, aclOpExecutor *e, aclrtStream stream) {
    if (api == 1)
        return aclnnRopeWithSinCosCache(NULL, 0, e, stream);
    return aclnnRopeWithSinCosCacheV2(NULL, 0, e, stream);
}

/* Which positions row feeds coefficient j (SPEC §5.3): the test kit's selection, with
 * fewer than 3 sections (or none) meaning rope and a cache mode only through V2. */
static int64_t rc_src(const struct rc_case *k, int64_t j) {
    const struct tk_rope_select sel = {k->nsec >= 3 ? (int)k->nsec : 0, k->sec,
                                       k->api == 2 ? k->cache_mode : 0};
    return tk_rope_src_row(&sel, j);
}

/* Writes into `want` (a copy of the storage that slot `out` views) the reference result of
 * rotating slot `in` (SPEC §5.3, §5.4; products and sums as in §1). */
static void rc_ref_side(const struct rc_case *k, const struct rc_built *b, int in, int out,
                        void *want) {
    const struct fx_tensor *x = &b->t[in], *y = &b->t[out], *cache = &b->t[RC_CACHE];
    const void *xd = rc_store(b, in), *cd = rc_store(b, RC_CACHE);
    const int64_t hs = k->head_size, rdim = cache->dims[1], h = rdim / 2;
    const int64_t heads = x->dims[1] / hs;
    const size_t item = tk_acl_item(x->dt);
    float c[128], s[128];
    assert_true(h <= 128);
    for (int64_t t = 0; t < x->dims[0]; t++) {
        for (int64_t j = 0; j < h; j++) {
            int64_t p = rc_pos(b, rc_src(k, j), t);
            c[j] = fx_load(cache->dt, cd, rc_at2(cache, p, j));
            s[j] = fx_load(cache->dt, cd, rc_at2(cache, p, h + j));
        }
        for (int64_t hd = 0; hd < heads; hd++) {
            const int64_t base = hd * hs;
            for (int64_t j = 0; j < h; j++) {
                int64_t i0 = k->neox ? j : 2 * j, i1 = k->neox ? j + h : 2 * j + 1;
                float a = fx_load(x->dt, xd, rc_at2(x, t, base + i0));
                float bb = fx_load(x->dt, xd, rc_at2(x, t, base + i1));
                fx_store(y->dt, want, rc_at2(y, t, base + i0), tk_msub32(a, c[j], bb, s[j]));
                fx_store(y->dt, want, rc_at2(y, t, base + i1), tk_madd32(bb, c[j], a, s[j]));
            }
            for (int64_t j = rdim; j < hs; j++)
                memcpy((char *)want + rc_at2(y, t, base + j) * item,
                       (const char *)xd + rc_at2(x, t, base + j) * item, item);
        }
    }
}

/* want[i] for every owned storage i: its current contents with the reference results of both
 * outputs written in. */
static void rc_wants(const struct rc_case *k, const struct rc_built *b, void *want[RC_NS]) {
    for (int i = 0; i < RC_NS; i++)
        want[i] = rc_owns(b, i) ? pr_dup(b->t[i].buf, b->t[i].bytes) : NULL;
    rc_ref_side(k, b, RC_Q, RC_QOUT, want[b->owner[RC_QOUT]]);
    rc_ref_side(k, b, RC_K, RC_KOUT, want[b->owner[RC_KOUT]]);
}

static void rc_free_wants(void *want[RC_NS]) {
    for (int i = 0; i < RC_NS; i++)
        free(want[i]);
}

/* Every owned storage equals `ref` (a want[] or orig[] array). */
static bool rc_storages_equal(const struct rc_built *b, void *const ref[RC_NS], const char *when) {
    bool ok = true;
    for (int i = 0; i < RC_NS; i++) {
        if (!rc_owns(b, i))
            continue;
        char what[96];
        snprintf(what, sizeof what, "%s storage %s", i < RC_NT ? rc_names[i] : "extra", when);
        ok &= pr_same(b->t[i].buf, ref[i], b->t[i].bytes, what);
    }
    return ok;
}

/* The CANN-rules plan (ropekit_cann.h) of the case, its slots over the storages `store`
 * (indexed by owner slot; NULL: no data). */
static ropekit_status rc_cann_plan(const struct rc_case *k, const struct rc_built *b,
                                   void *const store[RC_NS], ropekit_plan **plan, int32_t *code) {
    ropekit_tensor v[RC_NT];
    const ropekit_tensor *views[RC_NT];
    for (int i = 0; i < RC_NT; i++) {
        void *data = k->no_data == i ? NULL : store[b->owner[i]];
        v[i] = pr_native_view(&b->t[i], data);
        views[i] = k->null_arg == i ? NULL : &v[i];
    }
    return ropekit_cann_rope_plan_create(
        k->api == 1 ? ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE
                    : ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE_V2,
        views[RC_POS], views[RC_Q], views[RC_K], views[RC_CACHE], views[RC_QOUT], views[RC_KOUT],
        k->nsec >= 0 ? k->sec : NULL, k->nsec >= 0 ? (uint64_t)k->nsec : 0, k->head_size, k->neox,
        k->cache_mode, plan, code);
}

struct rc_run_data {
    const struct rc_case *k;
    const struct rc_built *b;
    void *const *store;
};

static ropekit_status rc_run_plan(const ropekit_plan *plan, void *ctx) {
    const struct rc_run_data *d = ctx;
    void *p[RC_NT];
    for (int i = 0; i < RC_NT; i++)
        p[i] = d->k->no_data == i ? NULL : pr_view_data(&d->b->t[i], d->store[d->b->owner[i]]);
    return ropekit_rope_execute(plan, p[RC_POS], p[RC_Q], p[RC_K], p[RC_CACHE], p[RC_QOUT],
                                p[RC_KOUT]);
}

/* The CANN-rules plan of a case phase 1 answered with (code, msg) agrees with it
 * (pr_cann_agrees); on the storages themselves, which the caller then checks untouched. */
static bool rc_cann_refuses(const struct rc_case *k, const struct rc_built *b, aclnnStatus code,
                            const struct pr_message *msg) {
    if (k->null_arg == RC_WS || k->null_arg == RC_EXEC)
        return true; /* phase 1's own outputs */
    void *store[RC_NS];
    for (int i = 0; i < RC_NS; i++)
        store[i] = b->t[i].buf;
    ropekit_plan *plan = NULL;
    int32_t plan_code = -1;
    ropekit_status st = rc_cann_plan(k, b, store, &plan, &plan_code);
    struct rc_run_data d = {k, b, store};
    return pr_cann_agrees(st, plan, plan_code, code, msg, k->no_data >= 0, rc_run_plan, &d,
                          "refused call");
}

/* The CANN-rules plan of an accepted case, run on copies of the storages as they were
 * before the aclnn run, writes what the aclnn face wrote. */
static bool rc_cann_computes(const struct rc_case *k, const struct rc_built *b) {
    void *store[RC_NS] = {NULL};
    for (int i = 0; i < RC_NS; i++)
        if (rc_owns(b, i))
            store[i] = pr_dup(b->orig[i], b->t[i].bytes);
    ropekit_plan *plan = NULL;
    int32_t code = -1;
    ropekit_status st = rc_cann_plan(k, b, store, &plan, &code);
    struct rc_run_data d = {k, b, store};
    bool ok = st == ROPEKIT_OK && code == 0 && rc_run_plan(plan, &d) == ROPEKIT_OK;
    if (!ok)
        print_error("line %d, V%d: CANN-rules plan: %d (code %d) \"%s\"\n", rc_line, k->api,
                    (int)st, (int)code, ropekit_last_error());
    ok = ok && rc_storages_equal(b, store, "after the CANN-rules plan");
    ropekit_plan_destroy(plan);
    for (int i = 0; i < RC_NS; i++)
        free(store[i]);
    return ok;
}

/* Runs phase 1 (must succeed with workspace 0) and phase 2 on `stream` without synchronising. */
static void rc_launch(const struct rc_case *k, const struct rc_built *b, aclrtStream stream) {
    uint64_t ws = PR_WS_SENTINEL;
    aclOpExecutor *e = NULL;
    aclnnStatus st = rc_phase1(k, b, &ws, &e);
    if (st != ACLNN_SUCCESS)
        print_error("line %d: phase 1: %d \"%s\"\n", rc_line, (int)st, aclGetRecentErrMsg());
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_true(ws == 0);
    assert_non_null(e);
    st = rc_phase2(k->api, e, stream);
    if (st != ACLNN_SUCCESS)
        print_error("line %d: phase 2: %d \"%s\"\n", rc_line, (int)st, aclGetRecentErrMsg());
    assert_int_equal(st, ACLNN_SUCCESS);
}

/* Phases 1 and 2 succeed, the stream synchronises with 0, the outputs hold the reference
 * results and nothing else changed; the CANN-rules plan computes the same. */
static void rc_expect_ok_built_fn(const struct rc_case *k, struct rc_built *b) {
    rc_snapshot(b);
    void *want[RC_NS];
    rc_wants(k, b, want);
    rc_launch(k, b, pr_stream);
    aclError se = aclrtSynchronizeStream(pr_stream);
    if (se != ACL_SUCCESS)
        print_error("line %d: sync: %d \"%s\"\n", rc_line, (int)se, aclGetRecentErrMsg());
    assert_int_equal(se, ACL_SUCCESS);
    bool ok = rc_storages_equal(b, want, "after the run");
    rc_free_wants(want);
    ok = ok && rc_cann_computes(k, b);
    if (!ok)
        fail();
}

static void rc_expect_ok_fn(const struct rc_case *k) {
    struct rc_built b;
    rc_build(k, &b);
    rc_expect_ok_built_fn(k, &b);
    rc_free(&b);
}

/* Phase 1 fails with `code`, the message is non-empty and contains every needle (NULL-ended,
 * case-insensitive), neither output is written and every storage is byte-identical; the
 * CANN-rules plan refuses it alike. */
static void rc_reject_built_v(const struct rc_case *k, struct rc_built *b, aclnnStatus code,
                              va_list ap) {
    rc_snapshot(b);
    uint64_t ws = PR_WS_SENTINEL;
    aclOpExecutor *exec = PR_EXEC_SENTINEL;
    aclnnStatus st = rc_phase1(k, b, &ws, &exec);
    const char *msg = aclGetRecentErrMsg();
    const struct pr_message phase1_msg = pr_message_of(msg);
    bool ok = msg != NULL && strlen(msg) > 0;
    if (!ok)
        print_error("line %d, V%d: empty message\n", rc_line, k->api);
    if (st != code) {
        print_error("line %d, V%d: code %d, want %d; message \"%s\"\n", rc_line, k->api, (int)st,
                    (int)code, msg ? msg : "");
        ok = false;
    }
    for (const char *needle = va_arg(ap, const char *); needle; needle = va_arg(ap, const char *)) {
        if (msg && !pr_contains(msg, needle)) {
            print_error("line %d, V%d: message \"%s\" does not mention \"%s\"\n", rc_line, k->api,
                        msg, needle);
            ok = false;
        }
    }
    if (ws != PR_WS_SENTINEL || exec != PR_EXEC_SENTINEL) {
        print_error("line %d, V%d: phase 1 wrote an output although it failed\n", rc_line, k->api);
        ok = false;
    }
    ok &= rc_storages_equal(b, b->orig, "after the rejected call");
    if (st == ACLNN_SUCCESS && exec != PR_EXEC_SENTINEL && exec != NULL)
        aclDestroyAclOpExecutor(exec);
    if (!rc_cann_refuses(k, b, st, &phase1_msg)) {
        print_error("line %d, V%d: the CANN-rules plan disagrees\n", rc_line, k->api);
        ok = false;
    }
    ok &= rc_storages_equal(b, b->orig, "after the CANN-rules plan");
    if (!ok)
        fail();
}

static void rc_reject_built_fn(const struct rc_case *k, struct rc_built *b, aclnnStatus code, ...) {
    va_list ap;
    va_start(ap, code);
    rc_reject_built_v(k, b, code, ap);
    va_end(ap);
}

static void rc_reject_fn(const struct rc_case *k, aclnnStatus code, ...) {
    struct rc_built b;
    rc_build(k, &b);
    va_list ap;
    va_start(ap, code);
    rc_reject_built_v(k, &b, code, ap);
    va_end(ap);
    rc_free(&b);
}

/* The same rejection through V1 and through V2 with cacheMode 0. */
static void rc_reject_both_fn(const struct rc_case *k0, aclnnStatus code, ...) {
    for (int api = 1; api <= 2; api++) {
        struct rc_case k = *k0;
        k.api = api;
        k.cache_mode = 0;
        struct rc_built b;
        rc_build(&k, &b);
        va_list ap;
        va_start(ap, code);
        rc_reject_built_v(&k, &b, code, ap);
        va_end(ap);
        rc_free(&b);
    }
}

static void rc_ok_both_fn(const struct rc_case *k0) {
    for (int api = 1; api <= 2; api++) {
        struct rc_case k = *k0;
        k.api = api;
        k.cache_mode = 0;
        rc_expect_ok_fn(&k);
    }
}

#define rc_reject(...) (rc_line = __LINE__, rc_reject_fn(__VA_ARGS__))
#define rc_reject_both(...) (rc_line = __LINE__, rc_reject_both_fn(__VA_ARGS__))
#define rc_reject_built(...) (rc_line = __LINE__, rc_reject_built_fn(__VA_ARGS__))
#define rc_expect_ok(k) (rc_line = __LINE__, rc_expect_ok_fn(k))
#define rc_expect_ok_built(k, b) (rc_line = __LINE__, rc_expect_ok_built_fn(k, b))
#define rc_ok_both(k) (rc_line = __LINE__, rc_ok_both_fn(k))

/* ---- row 0 (V2 only): cacheMode, checked before the null checks ---- */

static void test_row00_cache_mode(void **state) {
    (void)state;
    static const int64_t bad[] = {2, -1, 3, INT64_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct rc_case k = rc_default(2);
        k.cache_mode = bad[i];
        rc_reject(&k, API_INVALID, "cacheMode", NULL);
        rc_mrope3(&k, 16, 24, 24);
        rc_reject(&k, API_INVALID, "cacheMode", NULL);
    }
}

static void test_row00_precedes_null_checks(void **state) {
    (void)state;
    static const int nulls[] = {RC_Q, RC_POS, RC_KOUT, RC_WS, RC_EXEC};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
        struct rc_case k = rc_default(2);
        k.cache_mode = 2;
        k.null_arg = nulls[i];
        rc_reject(&k, API_INVALID, "cacheMode", NULL);
    }
    struct rc_case k = rc_default(2);
    k.cache_mode = 2;
    k.no_data = RC_Q;
    rc_reject(&k, API_INVALID, "cacheMode", NULL);
}

/* ---- row 1: null pointers ---- */

static void test_row01_null_tensors(void **state) {
    (void)state;
    for (int i = 0; i < RC_NT; i++) {
        struct rc_case k = rc_default(1);
        k.null_arg = i;
        rc_reject_both(&k, API_NULL, rc_names[i], NULL);
        k.api = 2;
        k.cache_mode = 1;
        rc_reject(&k, API_NULL, rc_names[i], NULL);
    }
}

static void test_row01_null_outputs_of_phase1(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    k.null_arg = RC_WS;
    rc_reject_both(&k, API_NULL, "workspaceSize", NULL);
    k.null_arg = RC_EXEC;
    rc_reject_both(&k, API_NULL, "executor", NULL);
}

static void test_row01_null_data(void **state) {
    (void)state;
    for (int i = 0; i < RC_NT; i++) {
        struct rc_case k = rc_default(1);
        k.no_data = i;
        rc_reject_both(&k, API_NULL, rc_names[i], "data", NULL);
    }
}

/* ---- row 2: positions dtype ---- */

static void test_row02_positions_dtype(void **state) {
    (void)state;
    static const aclDataType bad[] = {ACL_INT32, ACL_UINT64, ACL_FLOAT, ACL_INT16, ACL_DOUBLE};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct rc_case k = rc_default(1);
        k.dt[RC_POS] = bad[i];
        rc_reject_both(&k, API_INVALID, "positions", "dtype", NULL);
        rc_mrope3(&k, 16, 24, 24);
        rc_reject_both(&k, API_INVALID, "positions", "dtype", NULL);
    }
}

/* ---- row 3: tensor dtypes ---- */

static void test_row03_query_dtype(void **state) {
    (void)state;
    static const aclDataType bad[] = {ACL_INT32, ACL_INT64, ACL_DOUBLE, ACL_INT8, ACL_UINT16};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct rc_case k = rc_default(1);
        rc_dtype(&k, bad[i]); /* all alike: only queryIn's own dtype is wrong */
        rc_reject_both(&k, API_INVALID, "queryIn", "dtype", NULL);
    }
}

static void test_row03_mismatched_dtypes(void **state) {
    (void)state;
    static const aclDataType xdt[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (size_t x = 0; x < 3; x++) {
        for (int slot = RC_K; slot < RC_NT; slot++) {
            for (size_t o = 0; o < 3; o++) {
                if (o == x)
                    continue;
                struct rc_case k = rc_default(1);
                rc_dtype(&k, xdt[x]);
                k.dt[slot] = xdt[o];
                rc_reject_both(&k, API_INVALID, rc_names[slot], "dtype", NULL);
            }
        }
    }
}

/* ---- row 4: ranks ---- */

static void test_row04_three_d_query(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    k.nd[RC_Q] = k.nd[RC_QOUT] = 3;
    k.d[RC_Q][1] = k.d[RC_QOUT][1] = 2;
    k.d[RC_Q][2] = k.d[RC_QOUT][2] = 32;
    rc_reject_both(&k, API_INVALID, "queryIn", NULL);
}

static void test_row04_other_ranks(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    k.nd[RC_K] = k.nd[RC_KOUT] = 3; /* [3, 1, 32] */
    k.d[RC_K][1] = k.d[RC_KOUT][1] = 1;
    k.d[RC_K][2] = k.d[RC_KOUT][2] = 32;
    rc_reject_both(&k, API_INVALID, "keyIn", NULL);
    k = rc_default(1);
    k.nd[RC_CACHE] = 3; /* [8, 32, 1] */
    k.d[RC_CACHE][2] = 1;
    rc_reject_both(&k, API_INVALID, "cosSinCache", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_CACHE, 1, 8 * 32, 0);
    rc_reject_both(&k, API_INVALID, "cosSinCache", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_Q, 1, 3 * 64, 0);
    rc_shape(&k, RC_QOUT, 1, 3 * 64, 0);
    rc_reject_both(&k, API_INVALID, "queryIn", NULL);
}

/* ---- row 5: empty inputs ---- */

static void test_row05_empty_inputs(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_shape(&k, RC_Q, 2, T0, 0);
    rc_shape(&k, RC_QOUT, 2, T0, 0);
    rc_reject_both(&k, API_INVALID, "queryIn", "empty", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_K, 2, T0, 0);
    rc_shape(&k, RC_KOUT, 2, T0, 0);
    rc_reject_both(&k, API_INVALID, "keyIn", "empty", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_CACHE, 2, 0, 32);
    rc_reject_both(&k, API_INVALID, "cosSinCache", "empty", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_CACHE, 2, M0, 0);
    rc_reject_both(&k, API_INVALID, "cosSinCache", "empty", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_POS, 1, 0, 0);
    rc_reject_both(&k, API_INVALID, "positions", "empty", NULL);
    k = rc_default(1);
    rc_mrope3(&k, 16, 24, 24);
    rc_shape(&k, RC_POS, 2, 3, 0);
    rc_reject_both(&k, API_INVALID, "positions", "empty", NULL);
    /* zero tokens everywhere: queryIn is the first one named */
    k = rc_default(1);
    rc_qk(&k, 0, 64, 32);
    rc_shape(&k, RC_POS, 1, 0, 0);
    rc_reject_both(&k, API_INVALID, "queryIn", "empty", NULL);
}

/* ---- row 6: token counts ---- */

static void test_row06_key_tokens(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_shape(&k, RC_K, 2, T0 + 1, 32);
    rc_shape(&k, RC_KOUT, 2, T0 + 1, 32);
    rc_reject_both(&k, API_INVALID, "keyIn", NULL);
    rc_shape(&k, RC_K, 2, T0 - 1, 32);
    rc_shape(&k, RC_KOUT, 2, T0 - 1, 32);
    rc_reject_both(&k, API_INVALID, "keyIn", NULL);
}

/* ---- row 7: output shapes ---- */

static void test_row07_output_shapes(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_shape(&k, RC_QOUT, 2, T0, 96);
    rc_reject_both(&k, API_INVALID, "queryOut", NULL);
    rc_shape(&k, RC_QOUT, 2, T0 - 1, 64);
    rc_reject_both(&k, API_INVALID, "queryOut", NULL);
    rc_shape(&k, RC_QOUT, 1, T0 * 64, 0);
    rc_reject_both(&k, API_INVALID, "queryOut", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_KOUT, 2, T0, 64);
    rc_reject_both(&k, API_INVALID, "keyOut", NULL);
    rc_shape(&k, RC_KOUT, 2, T0 + 1, 32);
    rc_reject_both(&k, API_INVALID, "keyOut", NULL);
}

/* ---- row 8: mropeSection size and signs ---- */

static void test_row08_section_count(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_mrope3(&k, 16, 24, 24);
    k.nsec = 2;
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
    k.nsec = 5;
    k.sec[3] = 0;
    k.sec[4] = 0;
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
    k.nsec = 1;
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
    k.nsec = 0;
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
    /* the count is checked even where section[0] == 0 would otherwise mean rope */
    k = rc_default(1);
    k.nsec = 2;
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
}

static void test_row08_negative_section(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_mrope3(&k, 16, 24, 24);
    k.sec[1] = -24;
    rc_reject_both(&k, API_INVALID, "mropeSection", "-24", NULL);
    k.sec[1] = 24;
    k.sec[0] = -16; /* would otherwise count as rope (section[0] <= 0) */
    rc_reject_both(&k, API_INVALID, "mropeSection", "-16", NULL);
    k = rc_default(1);
    k.nsec = 3;
    k.sec[0] = 0;
    k.sec[1] = 0;
    k.sec[2] = -1;
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
}

/* ---- row 9: 2 * sum == rotaryDim, whitelist ---- */

static void test_row09_sum(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_mrope3(&k, 16, 24, 24); /* rotaryDim 128 */
    rc_shape(&k, RC_CACHE, 2, M0, 64);
    rc_reject_both(&k, API_INVALID, "mropeSection", "rotaryDim", NULL);
    /* rotaryDim = sum (the outdated README rule) is rejected too */
    k = rc_default(1);
    rc_mrope3(&k, 8, 12, 12);
    rc_shape(&k, RC_CACHE, 2, M0, 32);
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
}

static void test_row09_not_whitelisted(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_mrope3(&k, 8, 28, 28); /* 2 * 64 = 128 = rotaryDim, but not whitelisted */
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
    rc_mrope3(&k, 24, 24, 16); /* a permutation of a whitelisted triple */
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
    const int64_t four[4] = {32, 16, 8, 8};
    rc_mrope(&k, 4, four);
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
}

static void test_row09_whitelist_accepted(void **state) {
    (void)state;
    for (int w = 0; w < TK_ACLNN_MROPE_SECTION_LISTS; w++) { /* CANN's lists */
        struct rc_case k = rc_default(1);
        rc_mrope(&k, tk_aclnn_mrope_sections[w].count, tk_aclnn_mrope_sections[w].s);
        for (int neox = 0; neox <= 1; neox++) {
            k.neox = neox != 0;
            rc_ok_both(&k);
        }
    }
}

/* [0,0,0] (section[0] == 0) asks for rope: positions [T], any rotaryDim. */
static void test_row09_zero_sections_mean_rope(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    k.nsec = 3;
    rc_ok_both(&k);
    k.nsec = 4;
    rc_ok_both(&k);
    /* same bytes as with a NULL mropeSection */
    struct rc_case a = rc_default(1), z = rc_default(1);
    z.nsec = 3;
    struct rc_built ba, bz;
    rc_build(&a, &ba);
    rc_build(&z, &bz);
    rc_expect_ok_built(&a, &ba);
    rc_expect_ok_built(&z, &bz);
    pr_assert_same(bz.t[RC_QOUT].buf, ba.t[RC_QOUT].buf, ba.t[RC_QOUT].bytes, "queryOut");
    pr_assert_same(bz.t[RC_KOUT].buf, ba.t[RC_KOUT].buf, ba.t[RC_KOUT].bytes, "keyOut");
    rc_free(&ba);
    rc_free(&bz);
}

/* ---- row 10: headSize ---- */

static void test_row10_head_size(void **state) {
    (void)state;
    static const int64_t bad[] = {0, -32, -1, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct rc_case k = rc_default(1);
        k.head_size = bad[i];
        rc_reject_both(&k, API_INVALID, "headSize", NULL);
    }
}

/* ---- row 11: 4 sections need cacheMode 0 ---- */

static void test_row11_four_sections_interleaved(void **state) {
    (void)state;
    struct rc_case k = rc_default(2);
    rc_mrope4(&k);
    k.cache_mode = 1;
    rc_reject(&k, TILING, "cacheMode", NULL);
    k.neox = false;
    rc_reject(&k, TILING, "cacheMode", NULL);
    k.cache_mode = 0;
    rc_expect_ok(&k);
    /* [0,0,0,0] is rope, where cacheMode does not matter */
    k = rc_default(2);
    k.cache_mode = 1;
    k.nsec = 4;
    rc_expect_ok(&k);
}

/* ---- row 12: hidden sizes are whole heads ---- */

static void test_row12_hidden_not_multiple(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_qk(&k, T0, 48, 32);
    rc_reject_both(&k, TILING, "queryIn", "headSize", NULL);
    rc_qk(&k, T0, 64, 48);
    rc_reject_both(&k, TILING, "keyIn", "headSize", NULL);
    rc_qk(&k, T0, 64, 16);
    rc_reject_both(&k, TILING, "keyIn", "headSize", NULL);
}

/* ---- row 13: alignment of headSize and rotaryDim ---- */

static void test_row13_alignment(void **state) {
    (void)state;
    struct rc_case k;
    /* fp16 / bf16: multiples of 32 */
    static const aclDataType half[] = {ACL_FLOAT16, ACL_BF16};
    for (int i = 0; i < 2; i++) {
        k = rc_default(1);
        rc_dtype(&k, half[i]);
        k.head_size = 48;
        rc_qk(&k, T0, 96, 48);
        rc_reject_both(&k, TILING, "headSize", NULL);
        k.head_size = 16;
        rc_qk(&k, T0, 32, 16);
        rc_shape(&k, RC_CACHE, 2, M0, 16);
        rc_reject_both(&k, TILING, "headSize", NULL);
        k = rc_default(1);
        rc_dtype(&k, half[i]);
        k.head_size = 64;
        rc_qk(&k, T0, 128, 64);
        rc_shape(&k, RC_CACHE, 2, M0, 48);
        rc_reject_both(&k, TILING, "rotaryDim", NULL);
        rc_shape(&k, RC_CACHE, 2, M0, 16);
        rc_reject_both(&k, TILING, "rotaryDim", NULL);
    }
    /* fp32: multiples of 16 */
    k = rc_default(1);
    k.head_size = 24;
    rc_qk(&k, T0, 48, 24);
    rc_shape(&k, RC_CACHE, 2, M0, 16);
    rc_reject_both(&k, TILING, "headSize", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_CACHE, 2, M0, 24);
    rc_reject_both(&k, TILING, "rotaryDim", NULL);
    rc_shape(&k, RC_CACHE, 2, M0, 8);
    rc_reject_both(&k, TILING, "rotaryDim", NULL);
    /* the smallest aligned sizes are accepted */
    k = rc_default(1);
    k.head_size = 16;
    rc_qk(&k, T0, 32, 16);
    rc_shape(&k, RC_CACHE, 2, M0, 16);
    rc_ok_both(&k);
    k = rc_default(1);
    rc_dtype(&k, ACL_BF16);
    rc_ok_both(&k);
}

/* ---- row 14: rotaryDim <= headSize ---- */

static void test_row14_rotary_dim_above_head_size(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_shape(&k, RC_CACHE, 2, M0, 64);
    rc_reject_both(&k, TILING, "rotaryDim", NULL);
    rc_dtype(&k, ACL_FLOAT16);
    rc_reject_both(&k, TILING, "rotaryDim", NULL);
}

/* ---- row 15: positions shape ---- */

static void test_row15_positions_shape(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    rc_shape(&k, RC_POS, 1, T0 + 1, 0);
    rc_reject_both(&k, TILING, "positions", NULL);
    rc_shape(&k, RC_POS, 1, T0 - 1, 0);
    rc_reject_both(&k, TILING, "positions", NULL);
    rc_shape(&k, RC_POS, 2, 1, T0);
    rc_reject_both(&k, TILING, "positions", NULL);
    k = rc_default(1);
    rc_mrope4(&k);
    rc_shape(&k, RC_POS, 2, 3, T0);
    rc_reject_both(&k, TILING, "positions", NULL);
    k = rc_default(1);
    rc_mrope3(&k, 16, 24, 24);
    rc_shape(&k, RC_POS, 1, T0, 0);
    rc_reject_both(&k, TILING, "positions", NULL);
    rc_shape(&k, RC_POS, 2, 4, T0);
    rc_reject_both(&k, TILING, "positions", NULL);
    rc_shape(&k, RC_POS, 2, 3, T0 + 1);
    rc_reject_both(&k, TILING, "positions", NULL);
    rc_shape(&k, RC_POS, 2, T0, 3); /* transposed */
    k.d[RC_Q][0] = k.d[RC_K][0] = k.d[RC_QOUT][0] = k.d[RC_KOUT][0] = 2;
    rc_reject_both(&k, TILING, "positions", NULL);
}

/* ---- row 16: overlaps ---- */

/* queryOut over queryIn's storage shifted by one element. */
static void test_row16_query_out_shifted(void **state) {
    (void)state;
    for (int api = 1; api <= 2; api++) {
        struct rc_case k = rc_default(api);
        k.d[RC_EXTRA][0] = T0 * 64 + 1;
        k.nd[RC_EXTRA] = 1;
        struct rc_built b;
        rc_build(&k, &b);
        rc_view(&b, RC_Q, T0, 64, NULL, 1, RC_EXTRA);
        rc_view(&b, RC_QOUT, T0, 64, NULL, 0, RC_EXTRA);
        rc_reject_built(&k, &b, TILING, "queryOut", NULL);
        rc_free(&b);
        rc_build(&k, &b);
        rc_view(&b, RC_Q, T0, 64, NULL, 0, RC_EXTRA);
        rc_view(&b, RC_QOUT, T0, 64, NULL, 1, RC_EXTRA);
        rc_reject_built(&k, &b, TILING, "queryOut", NULL);
        rc_free(&b);
    }
}

/* queryOut exactly over queryIn (in place) is accepted and correct; so is keyOut over keyIn. */
static void test_row16_in_place(void **state) {
    (void)state;
    for (int api = 1; api <= 2; api++) {
        for (int neox = 0; neox <= 1; neox++) {
            struct rc_case k = rc_default(api);
            k.neox = neox != 0;
            k.d[RC_EXTRA][0] = T0 * 64;
            k.nd[RC_EXTRA] = 1;
            struct rc_built b;
            rc_build(&k, &b);
            rc_view(&b, RC_Q, T0, 64, NULL, 0, RC_EXTRA);
            rc_view(&b, RC_QOUT, T0, 64, NULL, 0, RC_EXTRA);
            rc_view(&b, RC_KOUT, T0, 32, NULL, 0, RC_K);
            rc_expect_ok_built(&k, &b);
            rc_free(&b);
        }
    }
}

/* An output over another input, over the other output, or overlapping itself. */
static void test_row16_other_overlaps(void **state) {
    (void)state;
    for (int api = 1; api <= 2; api++) {
        struct rc_case k = rc_default(api);
        struct rc_built b;
        /* keyOut over the first half of each queryIn row */
        rc_build(&k, &b);
        const int64_t qrow[2] = {64, 1};
        rc_view(&b, RC_KOUT, T0, 32, qrow, 0, RC_Q);
        rc_reject_built(&k, &b, TILING, "keyOut", "queryIn", NULL);
        rc_free(&b);
        /* queryOut exactly over keyIn's view (an input that is not its own) */
        k = rc_default(api);
        k.d[RC_K][1] = k.d[RC_KOUT][1] = 64;
        rc_build(&k, &b);
        rc_view(&b, RC_QOUT, T0, 64, NULL, 0, RC_K);
        rc_reject_built(&k, &b, TILING, "queryOut", "keyIn", NULL);
        rc_free(&b);
        /* keyOut over queryOut */
        k = rc_default(api);
        rc_build(&k, &b);
        rc_view(&b, RC_KOUT, T0, 32, qrow, 32, RC_QOUT);
        rc_reject_built(&k, &b, TILING, "keyOut", "queryOut", NULL);
        rc_free(&b);
        /* queryOut over the cache or the positions */
        k = rc_default(api);
        rc_build(&k, &b);
        rc_view(&b, RC_QOUT, T0, 64, NULL, 0, RC_CACHE);
        rc_reject_built(&k, &b, TILING, "queryOut", "cosSinCache", NULL);
        rc_free(&b);
        /* queryOut whose rows all start at the same element (row stride 0) */
        k = rc_default(api);
        k.d[RC_EXTRA][0] = 64;
        k.nd[RC_EXTRA] = 1;
        rc_build(&k, &b);
        const int64_t zero_rows[2] = {0, 1};
        rc_view(&b, RC_QOUT, T0, 64, zero_rows, 0, RC_EXTRA);
        rc_reject_built(&k, &b, TILING, "queryOut", NULL);
        rc_free(&b);
        /* keyOut whose rows of 32 start every 16 elements */
        k = rc_default(api);
        k.d[RC_EXTRA][0] = 16 * (T0 - 1) + 32;
        k.nd[RC_EXTRA] = 1;
        rc_build(&k, &b);
        const int64_t short_rows[2] = {16, 1};
        rc_view(&b, RC_KOUT, T0, 32, short_rows, 0, RC_EXTRA);
        rc_reject_built(&k, &b, TILING, "keyOut", NULL);
        rc_free(&b);
    }
}

/* q and k as row-strided views into one fused [T, q|k|v] buffer, rotated in place. */
static void test_row16_fused_qkv_in_place(void **state) {
    (void)state;
    enum { HQ = 2, HK = 1, HS = 32, W = (HQ + 2 * HK) * HS, T = 5 };
    for (int api = 1; api <= 2; api++) {
        for (int neox = 0; neox <= 1; neox++) {
            struct rc_case k = rc_default(api);
            k.neox = neox != 0;
            rc_qk(&k, T, HQ * HS, HK * HS);
            rc_shape(&k, RC_POS, 1, T, 0);
            rc_shape(&k, RC_EXTRA, 2, T, W);
            struct rc_built b;
            rc_build(&k, &b);
            const int64_t st[2] = {W, 1};
            rc_view(&b, RC_Q, T, HQ * HS, st, 0, RC_EXTRA);
            rc_view(&b, RC_K, T, HK * HS, st, HQ * HS, RC_EXTRA);
            rc_view(&b, RC_QOUT, T, HQ * HS, st, 0, RC_EXTRA);
            rc_view(&b, RC_KOUT, T, HK * HS, st, HQ * HS, RC_EXTRA);
            rc_expect_ok_built(&k, &b); /* the v columns are compared too: unchanged */
            rc_free(&b);
        }
    }
}

/* Several violated rows: the first one in table order decides. */
static void test_order_follows_table(void **state) {
    (void)state;
    struct rc_case k = rc_default(2);
    k.cache_mode = 5;         /* row 0 */
    k.dt[RC_POS] = ACL_INT32; /* row 2 */
    k.null_arg = RC_CACHE;    /* row 1 */
    rc_reject(&k, API_INVALID, "cacheMode", NULL);
    k = rc_default(1);
    k.null_arg = RC_KOUT;     /* row 1 */
    k.dt[RC_POS] = ACL_INT32; /* row 2 */
    rc_reject_both(&k, API_NULL, "keyOut", NULL);
    k = rc_default(1);
    k.dt[RC_POS] = ACL_INT32; /* row 2 */
    k.dt[RC_K] = ACL_FLOAT16; /* row 3 */
    rc_reject_both(&k, API_INVALID, "positions", NULL);
    k = rc_default(1);
    k.dt[RC_KOUT] = ACL_BF16;        /* row 3 */
    rc_shape(&k, RC_CACHE, 1, 8, 0); /* row 4 */
    rc_reject_both(&k, API_INVALID, "keyOut", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_K, 2, T0 + 1, 0); /* rows 5 and 6 */
    rc_shape(&k, RC_KOUT, 2, T0 + 1, 0);
    rc_reject_both(&k, API_INVALID, "keyIn", "empty", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_QOUT, 2, T0, 32); /* row 7 */
    k.head_size = 0;                  /* row 10 */
    rc_reject_both(&k, API_INVALID, "queryOut", NULL);
    k = rc_default(1);
    rc_mrope3(&k, 8, 28, 28); /* row 9 */
    k.head_size = -1;         /* row 10 */
    rc_reject_both(&k, API_INVALID, "mropeSection", NULL);
    k = rc_default(1);
    k.head_size = 0;               /* row 10 */
    rc_shape(&k, RC_POS, 1, 7, 0); /* row 15 */
    rc_reject_both(&k, API_INVALID, "headSize", NULL);
    k = rc_default(1);
    rc_shape(&k, RC_CACHE, 2, M0, 24); /* rows 13 and 14 */
    k.head_size = 16;
    rc_qk(&k, T0, 48, 16); /* 48 % 16 == 0: row 12 holds */
    rc_reject_both(&k, TILING, "rotaryDim", "24", NULL);
    k = rc_default(2);
    rc_mrope4(&k);
    k.cache_mode = 1;               /* row 11 */
    rc_shape(&k, RC_POS, 2, 3, T0); /* row 15 */
    rc_reject(&k, TILING, "cacheMode", NULL);
}

/* ---- row E: positions out of [0, maxSeqLen) when the task runs ---- */

/* True when `msg` contains `v` as a whole decimal number. */
static bool rc_msg_has_int(const char *msg, long long v) {
    char num[32];
    snprintf(num, sizeof num, "%lld", v);
    size_t n = strlen(num);
    for (const char *p = strstr(msg, num); p; p = strstr(p + 1, num)) {
        bool left = p == msg || (!isdigit((unsigned char)p[-1]) && (v < 0 || p[-1] != '-'));
        if (left && !isdigit((unsigned char)p[n]))
            return true;
    }
    return false;
}

/* Sets positions[row][token] = bad, launches, expects 507015 at the sync with a message naming
 * row, token and value and nothing written; then repairs the value and expects a good run on the
 * same stream. */
static void rc_expect_position_fault_fn(const struct rc_case *k, int64_t row, int64_t token,
                                        int64_t bad) {
    struct rc_built b;
    rc_build(k, &b);
    rc_set_pos(&b, row, token, bad);
    rc_snapshot(&b);
    rc_launch(k, &b, pr_stream);
    aclError se = aclrtSynchronizeStream(pr_stream);
    const char *msg = aclGetRecentErrMsg();
    bool ok = true;
    if (se != ACL_ERROR_RT_AICORE_EXCEPTION) {
        print_error("line %d, V%d: sync %d, want %d\n", rc_line, k->api, (int)se,
                    ACL_ERROR_RT_AICORE_EXCEPTION);
        ok = false;
    }
    if (!msg || !*msg || !pr_contains(msg, "positions") || !rc_msg_has_int(msg, row) ||
        !rc_msg_has_int(msg, token) || !rc_msg_has_int(msg, bad)) {
        print_error(
            "line %d, V%d: message \"%s\" should name positions row %lld, token %lld, value %lld\n",
            rc_line, k->api, msg ? msg : "", (long long)row, (long long)token, (long long)bad);
        ok = false;
    }
    ok &= rc_storages_equal(&b, b.orig, "after the faulting run");
    if (!ok)
        fail();
    rc_set_pos(&b, row, token, k->d[RC_CACHE][0] - 1);
    rc_expect_ok_built_fn(k, &b);
    rc_free(&b);
}

#define rc_expect_position_fault(...) (rc_line = __LINE__, rc_expect_position_fault_fn(__VA_ARGS__))

static void test_rowE_rope_position_out_of_range(void **state) {
    (void)state;
    for (int api = 1; api <= 2; api++) {
        struct rc_case k = rc_default(api);
        rc_qk(&k, 4, 64, 32);
        rc_shape(&k, RC_POS, 1, 4, 0);
        rc_shape(&k, RC_CACHE, 2, 10, 32);
        k.cache_mode = api == 2; /* ignored in rope mode */
        rc_expect_position_fault(&k, 0, 3, 10);
        rc_expect_position_fault(&k, 0, 2, -5);
        rc_expect_position_fault(&k, 0, 1, INT64_MAX);
        rc_expect_position_fault(&k, 0, 0, INT64_MIN);
    }
}

static void test_rowE_mrope_position_out_of_range(void **state) {
    (void)state;
    for (int api = 1; api <= 2; api++) {
        for (int mode = 0; mode < api; mode++) {
            struct rc_case k = rc_default(api);
            k.cache_mode = mode;
            rc_qk(&k, 4, 64, 32);
            rc_shape(&k, RC_CACHE, 2, 10, 32);
            rc_mrope3(&k, 16, 24, 24);
            rc_expect_position_fault(&k, 1, 3, 10);
            rc_expect_position_fault(&k, 2, 1, -7);
            rc_expect_position_fault(&k, 2, 3, 11);
            rc_expect_position_fault(&k, 1, 0, -1);
        }
    }
    struct rc_case k = rc_default(1);
    rc_qk(&k, 4, 64, 32);
    rc_shape(&k, RC_CACHE, 2, 10, 32);
    rc_mrope4(&k);
    rc_expect_position_fault(&k, 3, 2, 10);
}

/* A faulting launch and a good one queued before one sync: the sync reports the fault, the
 * faulting task wrote nothing, the good one ran; the next sync is clean. */
static void test_rowE_fault_then_good_before_sync(void **state) {
    (void)state;
    struct rc_case k = rc_default(1);
    struct rc_built bad, good;
    rc_build(&k, &bad);
    rc_build(&k, &good);
    rc_set_pos(&bad, 0, 1, M0);
    rc_snapshot(&bad);
    rc_snapshot(&good);
    void *want[RC_NS];
    rc_wants(&k, &good, want);
    rc_launch(&k, &bad, pr_stream);
    rc_launch(&k, &good, pr_stream);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    bool ok = rc_storages_equal(&bad, bad.orig, "after the faulting run");
    ok &= rc_storages_equal(&good, want, "after the good run queued behind it");
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    rc_free_wants(want);
    rc_free(&bad);
    rc_free(&good);
    if (!ok)
        fail();
}

/* ---- values (SPEC §5.3, §5.4) ---- */

/* NeoX and GPT-J on one token, one head of 16, written out by hand: x = 1..16, cache row 2 has
 * cos = 0.5 and sin = 0.25 in every column. */
static void test_tiny_neox_and_gptj(void **state) {
    (void)state;
    for (int neox = 0; neox <= 1; neox++) {
        struct rc_case k = rc_default(1);
        k.neox = neox != 0;
        k.head_size = 16;
        rc_qk(&k, 1, 16, 16);
        rc_shape(&k, RC_POS, 1, 1, 0);
        rc_shape(&k, RC_CACHE, 2, 4, 16);
        struct rc_built b;
        rc_build(&k, &b);
        float *q = b.t[RC_Q].buf, *kk = b.t[RC_K].buf, *cache = b.t[RC_CACHE].buf;
        for (int j = 0; j < 16; j++) {
            q[j] = (float)(j + 1);
            kk[j] = -(float)(j + 1);
        }
        for (int j = 0; j < 4 * 16; j++)
            cache[j] = 3.0f; /* other rows: visible if read */
        for (int j = 0; j < 8; j++) {
            cache[2 * 16 + j] = 0.5f;
            cache[2 * 16 + 8 + j] = 0.25f;
        }
        rc_set_pos(&b, 0, 0, 2);
        float wq[16], wk[16];
        for (int j = 0; j < 8; j++) {
            int i0 = neox ? j : 2 * j, i1 = neox ? j + 8 : 2 * j + 1;
            float a = (float)(i0 + 1), c = (float)(i1 + 1);
            wq[i0] = a * 0.5f - c * 0.25f; /* every product and difference is exact */
            wq[i1] = c * 0.5f + a * 0.25f;
            wk[i0] = (-a) * 0.5f - (-c) * 0.25f;
            wk[i1] = (-c) * 0.5f + (-a) * 0.25f;
        }
        if (neox) { /* spot values: x[0] = 1, x[8] = 9 */
            assert_true(wq[0] == -1.75f && wq[8] == 4.75f);
        } else { /* x[0] = 1, x[1] = 2 */
            assert_true(wq[0] == 0.0f && wq[1] == 1.25f);
        }
        rc_expect_ok_built(&k, &b);
        pr_assert_same(b.t[RC_QOUT].buf, wq, sizeof wq, "queryOut");
        pr_assert_same(b.t[RC_KOUT].buf, wk, sizeof wk, "keyOut");
        rc_free(&b);
    }
}

/* Every dtype and both styles against the reference, several heads and tokens. */
static void test_reference_all_dtypes(void **state) {
    (void)state;
    static const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (size_t d = 0; d < 3; d++) {
        for (int neox = 0; neox <= 1; neox++) {
            struct rc_case k = rc_default(1);
            rc_dtype(&k, dts[d]);
            k.neox = neox != 0;
            k.head_size = 64;
            rc_qk(&k, 7, 3 * 64, 2 * 64);
            rc_shape(&k, RC_POS, 1, 7, 0);
            rc_shape(&k, RC_CACHE, 2, 13, 64);
            rc_ok_both(&k);
            rc_shape(&k, RC_CACHE, 2, 13, 32);
            rc_ok_both(&k);
            rc_mrope3(&k, 16, 24, 24);
            rc_ok_both(&k);
            k.api = 2;
            k.cache_mode = 1;
            rc_expect_ok(&k);
        }
    }
}

/* Rounding to fp16 / bf16 happens once, on the fp32 result. */
static void test_half_rounding(void **state) {
    (void)state;
    static const aclDataType dts[] = {ACL_FLOAT16, ACL_BF16};
    for (size_t d = 0; d < 2; d++) {
        struct rc_case k = rc_default(1);
        rc_dtype(&k, dts[d]);
        rc_qk(&k, 1, 32, 32);
        rc_shape(&k, RC_POS, 1, 1, 0);
        rc_shape(&k, RC_CACHE, 2, 1, 32);
        struct rc_built b;
        rc_build(&k, &b);
        /* x = 1 + ulp-ish values, c and s chosen so that the product needs rounding */
        for (int j = 0; j < 32; j++) {
            fx_store(dts[d], b.t[RC_Q].buf, (size_t)j, 1.0f + (float)j / 64.0f);
            fx_store(dts[d], b.t[RC_K].buf, (size_t)j, 3.0f - (float)j / 32.0f);
        }
        for (int j = 0; j < 32; j++)
            fx_store(dts[d], b.t[RC_CACHE].buf, (size_t)j, j < 16 ? 0.8125f : 0.6171875f);
        rc_set_pos(&b, 0, 0, 0);
        rc_expect_ok_built(&k, &b);
        /* a spot value written out: q[0]*c - q[16]*s with q[0] = 1, q[16] = 1.25 */
        float c = fx_load(dts[d], b.t[RC_CACHE].buf, 0), s = fx_load(dts[d], b.t[RC_CACHE].buf, 16);
        float want = fx_round_to(dts[d], tk_msub32(1.0f, c, 1.25f, s));
        assert_true(fx_bits(dts[d], b.t[RC_QOUT].buf, 0) == fx_bits_of(dts[d], want));
        rc_free(&b);
    }
}

/* rotaryDim < headSize: columns [R, headSize) of every head are copied bit for bit, NaN payloads,
 * infinities, signed zeros and subnormals included. */
static void test_pass_through_bits(void **state) {
    (void)state;
    static const uint16_t odd16[] = {0x7d01, 0xfe37, 0x7c00, 0xfc00,
                                     0x8000, 0x0001, 0x83ff, 0x7bff};
    static const uint32_t odd32[] = {0x7f800001u, 0xffc12345u, 0x7f800000u, 0x80000000u,
                                     0x00000001u, 0x807fffffu, 0x7f7fffffu, 0x3f800001u};
    static const aclDataType dts[] = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
    for (size_t d = 0; d < 3; d++) {
        for (int neox = 0; neox <= 1; neox++) {
            struct rc_case k = rc_default(1);
            rc_dtype(&k, dts[d]);
            k.neox = neox != 0;
            k.head_size = 64;
            rc_qk(&k, 3, 2 * 64, 64);
            rc_shape(&k, RC_CACHE, 2, M0, 32);
            struct rc_built b;
            rc_build(&k, &b);
            for (int slot = RC_Q; slot <= RC_K; slot++) {
                struct fx_tensor *x = &b.t[slot];
                for (int64_t t = 0; t < 3; t++)
                    for (int64_t col = 0; col < x->dims[1]; col++) {
                        if (col % 64 < 32)
                            continue;
                        size_t at = rc_at2(x, t, col), n = (size_t)(t * 7 + col) % 8;
                        if (dts[d] == ACL_FLOAT)
                            memcpy((char *)x->buf + 4 * at, &odd32[n], 4);
                        else
                            memcpy((char *)x->buf + 2 * at, &odd16[n], 2);
                    }
            }
            rc_expect_ok_built(&k, &b);
            /* explicitly: pass-through bytes equal the input bytes */
            size_t item = tk_acl_item(dts[d]);
            for (int side = 0; side < 2; side++) {
                const struct fx_tensor *x = &b.t[side ? RC_K : RC_Q];
                const struct fx_tensor *y = &b.t[side ? RC_KOUT : RC_QOUT];
                for (int64_t t = 0; t < 3; t++)
                    for (int64_t col = 0; col < x->dims[1]; col++)
                        if (col % 64 >= 32)
                            assert_memory_equal((char *)y->buf + rc_at2(y, t, col) * item,
                                                (char *)x->buf + rc_at2(x, t, col) * item, item);
            }
            rc_free(&b);
        }
    }
}

/* Expected positions row of coefficient j, written from SPEC §5.3's examples rather than from
 * the general rule: sectioned [16,24,24] and [16,16,16,16], interleaved [24,20,20] and
 * [16,24,24]. */
enum rc_layout { RC_SEC_16_24_24, RC_SEC_16x4, RC_INT_24_20_20, RC_INT_16_24_24 };

static int64_t rc_expected_row(enum rc_layout l, int64_t j) {
    switch (l) {
    case RC_SEC_16_24_24:
        return j < 16 ? 0 : j < 40 ? 1 : 2;
    case RC_SEC_16x4:
        return j / 16;
    case RC_INT_24_20_20:
        if (j >= 60)
            return 0;
        return j % 3; /* 1,4,..,58 -> 1; 2,5,..,59 -> 2; 0,3,..,57 -> 0 */
    case RC_INT_16_24_24:
    default:
        return j % 3;
    }
}

/* x = e_j pattern reveals the coefficients: NeoX x[j] = 1, x[j+h] = 0 gives out[j] = c[j],
 * out[j+h] = s[j] (GPT-J likewise at 2j, 2j+1). cache[p][j] = 100p + j + 1 (cos) and
 * -(100p + j + 1) (sin); positions differ per row and token. */
static void rc_check_selection(int api, int64_t cache_mode, enum rc_layout l) {
    static const int64_t s3a[3] = {16, 24, 24}, s3b[3] = {24, 20, 20}, s4[4] = {16, 16, 16, 16};
    const int64_t *sec = l == RC_SEC_16x4 ? s4 : l == RC_INT_24_20_20 ? s3b : s3a;
    const int64_t nsec = l == RC_SEC_16x4 ? 4 : 3, h = 64, T = 2;
    for (int neox = 0; neox <= 1; neox++) {
        struct rc_case k = rc_default(api);
        k.cache_mode = cache_mode;
        k.neox = neox != 0;
        rc_qk(&k, T, 0, 0);
        rc_shape(&k, RC_CACHE, 2, 16, 0);
        rc_mrope(&k, nsec, sec);
        struct rc_built b;
        rc_build(&k, &b);
        float *cache = b.t[RC_CACHE].buf;
        for (int64_t p = 0; p < 16; p++)
            for (int64_t j = 0; j < h; j++) {
                cache[p * 2 * h + j] = (float)(100 * p + j + 1);
                cache[p * 2 * h + h + j] = -(float)(100 * p + j + 1);
            }
        for (int64_t r = 0; r < nsec; r++)
            for (int64_t t = 0; t < T; t++)
                rc_set_pos(&b, r, t, 1 + r + (nsec + 1) * t); /* 1..4 and 5..8 or 6..10 */
        for (int slot = RC_Q; slot <= RC_K; slot++) {
            float *x = b.t[slot].buf;
            for (int64_t t = 0; t < T; t++)
                for (int64_t j = 0; j < h; j++) {
                    x[t * 2 * h + (neox ? j : 2 * j)] = slot == RC_Q ? 1.0f : 2.0f;
                    x[t * 2 * h + (neox ? j + h : 2 * j + 1)] = 0.0f;
                }
        }
        rc_expect_ok_built(&k, &b); /* also against the general reference */
        for (int slot = RC_QOUT; slot <= RC_KOUT; slot++) {
            const float *y = b.t[slot].buf;
            float scale = slot == RC_QOUT ? 1.0f : 2.0f;
            for (int64_t t = 0; t < T; t++)
                for (int64_t j = 0; j < h; j++) {
                    int64_t row = rc_expected_row(l, j);
                    int64_t p = 1 + row + (nsec + 1) * t;
                    float c = y[t * 2 * h + (neox ? j : 2 * j)];
                    float s = y[t * 2 * h + (neox ? j + h : 2 * j + 1)];
                    if (c != scale * (float)(100 * p + j + 1) ||
                        s != -scale * (float)(100 * p + j + 1)) {
                        print_error("layout %d neox %d token %lld j %lld: got cos %g sin %g, "
                                    "want row %lld (position %lld)\n",
                                    (int)l, neox, (long long)t, (long long)j, (double)c, (double)s,
                                    (long long)row, (long long)p);
                        fail();
                    }
                }
        }
        rc_free(&b);
    }
}

static void test_mrope_sectioned_selection(void **state) {
    (void)state;
    /* the rule as SPEC §5.3 lists it for [16,24,24] */
    assert_int_equal(rc_expected_row(RC_SEC_16_24_24, 15), 0);
    assert_int_equal(rc_expected_row(RC_SEC_16_24_24, 16), 1);
    assert_int_equal(rc_expected_row(RC_SEC_16_24_24, 39), 1);
    assert_int_equal(rc_expected_row(RC_SEC_16_24_24, 40), 2);
    for (int api = 1; api <= 2; api++) {
        rc_check_selection(api, 0, RC_SEC_16_24_24);
        rc_check_selection(api, 0, RC_SEC_16x4);
    }
}

static void test_mrope_interleaved_selection(void **state) {
    (void)state;
    /* SPEC §5.3, [24,20,20]: 1,4,..,58 row 1; 2,5,..,59 row 2; 0,3,..,57 and 60-63 row 0 */
    assert_int_equal(rc_expected_row(RC_INT_24_20_20, 58), 1);
    assert_int_equal(rc_expected_row(RC_INT_24_20_20, 59), 2);
    assert_int_equal(rc_expected_row(RC_INT_24_20_20, 57), 0);
    for (int j = 60; j < 64; j++)
        assert_int_equal(rc_expected_row(RC_INT_24_20_20, j), 0);
    /* [16,24,24]: row 1 at 1,..,61, row 2 at 2,..,62, row 0 at 0,..,63 */
    assert_int_equal(rc_expected_row(RC_INT_16_24_24, 61), 1);
    assert_int_equal(rc_expected_row(RC_INT_16_24_24, 62), 2);
    assert_int_equal(rc_expected_row(RC_INT_16_24_24, 63), 0);
    rc_check_selection(2, 1, RC_INT_24_20_20);
    rc_check_selection(2, 1, RC_INT_16_24_24);
    /* cacheMode 0 on the same sections is sectioned, not interleaved: 0-23, 24-43, 44-63 */
    struct rc_case k = rc_default(2);
    rc_mrope3(&k, 24, 20, 20);
    assert_int_equal(rc_src(&k, 23), 0);
    assert_int_equal(rc_src(&k, 24), 1);
    assert_int_equal(rc_src(&k, 44), 2);
    rc_expect_ok(&k);
}

/* V2 with cacheMode 1 in rope mode (NULL or [0,0,0] sections) gives V1's bytes. */
static void test_cache_mode_ignored_in_rope(void **state) {
    (void)state;
    for (int zeros = 0; zeros <= 1; zeros++) {
        for (int neox = 0; neox <= 1; neox++) {
            struct rc_case v1 = rc_default(1);
            v1.neox = neox != 0;
            if (zeros)
                v1.nsec = 3;
            struct rc_case v2 = v1;
            v2.api = 2;
            v2.cache_mode = 1;
            struct rc_built b1, b2;
            rc_build(&v1, &b1);
            rc_build(&v2, &b2);
            rc_expect_ok_built(&v1, &b1);
            rc_expect_ok_built(&v2, &b2);
            pr_assert_same(b2.t[RC_QOUT].buf, b1.t[RC_QOUT].buf, b1.t[RC_QOUT].bytes, "queryOut");
            pr_assert_same(b2.t[RC_KOUT].buf, b1.t[RC_KOUT].buf, b1.t[RC_KOUT].bytes, "keyOut");
            rc_free(&b1);
            rc_free(&b2);
        }
    }
}

/* Phase 1 reads no contents: positions and inputs filled after it are the ones used. */
static void test_contents_read_at_run_time(void **state) {
    (void)state;
    struct rc_case k = rc_default(2);
    rc_mrope3(&k, 16, 24, 24);
    k.cache_mode = 1;
    struct rc_built b;
    rc_build(&k, &b);
    for (int i = 0; i < RC_NT; i++)
        memset(b.t[i].buf, 0xff, b.t[i].bytes); /* positions -1: invalid if read now */
    uint64_t ws = 1;
    aclOpExecutor *e = NULL;
    assert_int_equal(rc_phase1(&k, &b, &ws, &e), ACLNN_SUCCESS);
    for (int i = 0; i < RC_NT; i++)
        memcpy(b.t[i].buf, b.orig[i], b.t[i].bytes);
    void *want[RC_NS];
    rc_wants(&k, &b, want);
    assert_int_equal(rc_phase2(2, e, pr_stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
    bool ok = rc_storages_equal(&b, want, "after the run");
    rc_free_wants(want);
    rc_free(&b);
    if (!ok)
        fail();
}

/* ---- executors ---- */

/* A repeatable executor run twice, positions rebound (input index 0) between the runs. */
static void test_repeatable_rebound_positions(void **state) {
    (void)state;
    for (int api = 1; api <= 2; api++) {
        struct rc_case k = rc_default(api);
        rc_mrope3(&k, 24, 20, 20);
        k.cache_mode = api == 2;
        struct rc_built b;
        rc_build(&k, &b);
        int64_t *pa = b.t[RC_POS].buf;
        size_t pbytes = b.t[RC_POS].bytes, n = pbytes / 8;
        int64_t *pb = malloc(pbytes);
        assert_non_null(pb);
        for (size_t i = 0; i < n; i++)
            pb[i] = (int64_t)((i * 3u + 2u) % (size_t)M0);
        assert_true(memcmp(pa, pb, pbytes) != 0);
        /* wanted results for positions A, then for B */
        void *wa[RC_NS], *wb[RC_NS];
        rc_wants(&k, &b, wa);
        memcpy(pa, pb, pbytes);
        rc_wants(&k, &b, wb);
        memcpy(pa, b.orig[RC_POS], pbytes);

        uint64_t ws = 1;
        aclOpExecutor *e = NULL;
        assert_int_equal(rc_phase1(&k, &b, &ws, &e), ACLNN_SUCCESS);
        assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
        assert_int_equal(rc_phase2(api, e, pr_stream), ACLNN_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        bool ok = rc_storages_equal(&b, wa, "after the first run");
        assert_int_equal(aclSetInputTensorAddr(e, 0, b.t[RC_POS].t, pb), ACLNN_SUCCESS);
        assert_int_equal(rc_phase2(api, e, pr_stream), ACLNN_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        /* wb was computed from B, but the positions storage itself still holds A */
        memcpy(wb[RC_POS], b.orig[RC_POS], pbytes);
        ok &= rc_storages_equal(&b, wb, "after the run with rebound positions");
        assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
        rc_free_wants(wa);
        rc_free_wants(wb);
        free(pb);
        rc_free(&b);
        if (!ok)
            fail();
    }
}

/* An executor of one version given to the other's phase 2: 161002, nothing queued. */
static void test_executor_of_other_version(void **state) {
    (void)state;
    for (int made = 1; made <= 2; made++) {
        struct rc_case k = rc_default(made);
        struct rc_built b;
        rc_build(&k, &b);
        uint64_t ws = 1;
        aclOpExecutor *e = NULL;
        assert_int_equal(rc_phase1(&k, &b, &ws, &e), ACLNN_SUCCESS);
        aclnnStatus st = rc_phase2(made == 1 ? 2 : 1, e, pr_stream);
        assert_int_equal(st, ACLNN_ERR_PARAM_INVALID);
        const char *msg = aclGetRecentErrMsg();
        assert_true(msg && *msg);
        assert_true(pr_contains(msg, "executor"));
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        assert_true(rc_storages_equal(&b, b.orig, "after the mismatched launch"));
        /* either consumed (then its own phase 2 rejects it as well) or left for its operator */
        void *want[RC_NS];
        rc_wants(&k, &b, want);
        st = rc_phase2(made, e, pr_stream);
        assert_true(st == ACLNN_SUCCESS || st == ACLNN_ERR_PARAM_INVALID);
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        bool ok = rc_storages_equal(&b, st == ACLNN_SUCCESS ? want : b.orig, "afterwards");
        rc_free_wants(want);
        rc_free(&b);
        if (!ok)
            fail();
    }
}

/* Phase 2 with a NULL executor, and a consumed one. */
static void test_phase2_bad_executor(void **state) {
    (void)state;
    for (int api = 1; api <= 2; api++) {
        assert_int_equal(rc_phase2(api, NULL, pr_stream), ACLNN_ERR_PARAM_NULLPTR);
        struct rc_case k = rc_default(api);
        struct rc_built b;
        rc_build(&k, &b);
        rc_expect_ok_built(&k, &b);
        uint64_t ws = 1;
        aclOpExecutor *e = NULL;
        assert_int_equal(rc_phase1(&k, &b, &ws, &e), ACLNN_SUCCESS);
        assert_int_equal(rc_phase2(api, e, pr_stream), ACLNN_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(pr_stream), ACL_SUCCESS);
        assert_int_equal(rc_phase2(api, e, pr_stream), ACLNN_ERR_PARAM_INVALID);
        rc_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row00_cache_mode),
        cmocka_unit_test(test_row00_precedes_null_checks),
        cmocka_unit_test(test_row01_null_tensors),
        cmocka_unit_test(test_row01_null_outputs_of_phase1),
        cmocka_unit_test(test_row01_null_data),
        cmocka_unit_test(test_row02_positions_dtype),
        cmocka_unit_test(test_row03_query_dtype),
        cmocka_unit_test(test_row03_mismatched_dtypes),
        cmocka_unit_test(test_row04_three_d_query),
        cmocka_unit_test(test_row04_other_ranks),
        cmocka_unit_test(test_row05_empty_inputs),
        cmocka_unit_test(test_row06_key_tokens),
        cmocka_unit_test(test_row07_output_shapes),
        cmocka_unit_test(test_row08_section_count),
        cmocka_unit_test(test_row08_negative_section),
        cmocka_unit_test(test_row09_sum),
        cmocka_unit_test(test_row09_not_whitelisted),
        cmocka_unit_test(test_row09_whitelist_accepted),
        cmocka_unit_test(test_row09_zero_sections_mean_rope),
        cmocka_unit_test(test_row10_head_size),
        cmocka_unit_test(test_row11_four_sections_interleaved),
        cmocka_unit_test(test_row12_hidden_not_multiple),
        cmocka_unit_test(test_row13_alignment),
        cmocka_unit_test(test_row14_rotary_dim_above_head_size),
        cmocka_unit_test(test_row15_positions_shape),
        cmocka_unit_test(test_row16_query_out_shifted),
        cmocka_unit_test(test_row16_in_place),
        cmocka_unit_test(test_row16_other_overlaps),
        cmocka_unit_test(test_row16_fused_qkv_in_place),
        cmocka_unit_test(test_order_follows_table),
        cmocka_unit_test(test_rowE_rope_position_out_of_range),
        cmocka_unit_test(test_rowE_mrope_position_out_of_range),
        cmocka_unit_test(test_rowE_fault_then_good_before_sync),
        cmocka_unit_test(test_tiny_neox_and_gptj),
        cmocka_unit_test(test_reference_all_dtypes),
        cmocka_unit_test(test_half_rounding),
        cmocka_unit_test(test_pass_through_bits),
        cmocka_unit_test(test_mrope_sectioned_selection),
        cmocka_unit_test(test_mrope_interleaved_selection),
        cmocka_unit_test(test_cache_mode_ignored_in_rope),
        cmocka_unit_test(test_contents_read_at_run_time),
        cmocka_unit_test(test_repeatable_rebound_positions),
        cmocka_unit_test(test_executor_of_other_version),
        cmocka_unit_test(test_phase2_bad_executor),
    };
    return cmocka_run_group_tests(tests, pr_group_setup, pr_group_teardown);
}
