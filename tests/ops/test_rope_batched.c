/* The native rope's batched token dims ([B, S] positions, [B, S, H*D] or [B, S, H, D]
 * query/key of any strides) and its offsets, against the [T] path on the same tokens
 * flattened (positions + offsets precomputed): bit for bit, on every thread count and
 * kernel set. Then every new validation error, with nothing written, and the misuse of
 * ropekit_rope_execute / ropekit_rope_execute_offsets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"
#include "testkit/everywhere.h"

enum { MAX_POS = 64, HS = 16, ROT = 12, M_SECTIONS = 3 };
static const int64_t kSections[M_SECTIONS] = {2, 2, 2}; /* sum = ROT / 2 */

/* How query and key lie in memory, as a [B, S, ...] view. */
enum qk_layout {
    QK_FLAT,   /* contiguous [B, S, H*D] */
    QK_SPLIT,  /* contiguous [B, S, H, D] */
    QK_HF,     /* [B, H, S, D] memory seen as [B, S, H, D] (a permuted view) */
    QK_PADDED, /* [B, S, H*D] with padded sequence and batch strides */
    QK_LAYOUTS
};
static const char *const kLayoutNames[QK_LAYOUTS] = {"flat", "split", "hf", "padded"};

/* Positions and offsets: contiguous, or broadcast with a zero stride. */
enum tok_layout { TOK_NONE, TOK_DENSE, TOK_PER_SEQ, TOK_PER_BATCH };

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static float rng_float(void) {
    return (float)((double)(rng_next() >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* One side (query or key): a view and its buffer. */
struct side {
    ropekit_tensor t;
    float *buf;
    size_t count;
};

static void side_make(struct side *sd, enum qk_layout lay, int64_t b, int64_t s, int64_t h) {
    const int64_t hd = h * HS;
    switch (lay) {
    case QK_FLAT:
    case QK_PADDED: {
        const int64_t row = lay == QK_PADDED ? hd + 3 : hd;
        const int64_t batch = lay == QK_PADDED ? s * row + 5 : s * row;
        const int64_t shape[3] = {b, s, hd}, strides[3] = {batch, row, 1};
        sd->count = (size_t)(b * batch);
        sd->t = ropekit_tensor_make(NULL, ROPEKIT_F32, 3, shape, strides);
        break;
    }
    case QK_SPLIT:
    case QK_HF: {
        const int64_t shape[4] = {b, s, h, HS};
        const int64_t dense[4] = {s * hd, hd, HS, 1}, hf[4] = {h * s * HS, HS, s * HS, 1};
        sd->count = (size_t)(b * s * hd);
        sd->t = ropekit_tensor_make(NULL, ROPEKIT_F32, 4, shape, lay == QK_HF ? hf : dense);
        break;
    }
    default:
        fail();
    }
    sd->buf = malloc(sd->count * sizeof(float));
    assert_non_null(sd->buf);
    for (size_t i = 0; i < sd->count; i++)
        sd->buf[i] = rng_float();
    sd->t.data = sd->buf;
}

static void side_free(struct side *sd) {
    free(sd->buf);
    sd->buf = NULL;
}

/* Element (b, s, head, e) of a [B, S, H*D] or [B, S, H, D] view. */
static float *elem(const ropekit_tensor *t, int64_t b, int64_t s, int64_t head, int64_t e) {
    int64_t off = b * t->strides[0] + s * t->strides[1];
    off +=
        t->ndim == 3 ? (head * HS + e) * t->strides[2] : head * t->strides[2] + e * t->strides[3];
    return (float *)t->data + off;
}

/* The view's tokens, flattened to a contiguous [B*S, H*D]. */
static float *flatten(const ropekit_tensor *t, int64_t h) {
    const int64_t b = t->shape[0], s = t->shape[1];
    float *flat = malloc((size_t)(b * s * h * HS) * sizeof(float));
    assert_non_null(flat);
    for (int64_t i = 0; i < b; i++)
        for (int64_t j = 0; j < s; j++)
            for (int64_t k = 0; k < h; k++)
                for (int64_t e = 0; e < HS; e++)
                    flat[((i * s + j) * h + k) * HS + e] = *elem(t, i, j, k, e);
    return flat;
}

/* Token-dims tensor ([B, S], or [m, B, S] with rows > 0) with values in [lo, hi). */
struct toks {
    ropekit_tensor t;
    int64_t *buf;
};

static void toks_make(struct toks *tk, enum tok_layout lay, int rows, int64_t b, int64_t s,
                      int64_t lo, int64_t hi) {
    const int64_t n = (int64_t)(rows ? rows : 1) * b * s;
    tk->buf = malloc((size_t)n * sizeof(int64_t));
    assert_non_null(tk->buf);
    for (int64_t i = 0; i < n; i++)
        tk->buf[i] = lo + (int64_t)(rng_next() % (uint64_t)(hi - lo));
    const int64_t sb = lay == TOK_PER_SEQ ? 0 : lay == TOK_PER_BATCH ? 1 : s;
    const int64_t ss = lay == TOK_PER_BATCH ? 0 : 1;
    const int64_t shape[3] = {rows, b, s}, strides[3] = {b * s, sb, ss};
    const int lead = rows ? 0 : 1;
    tk->t = ropekit_tensor_make(tk->buf, ROPEKIT_I64, 3 - lead, shape + lead, strides + lead);
}

static int64_t toks_at(const struct toks *tk, int row, int64_t b, int64_t s) {
    const ropekit_tensor *t = &tk->t;
    const int lead = t->ndim == 3;
    int64_t off = b * t->strides[lead] + s * t->strides[lead + 1];
    if (lead)
        off += row * t->strides[0];
    return ((const int64_t *)t->data)[off];
}

static float *cache_make(void) {
    float *c = malloc(MAX_POS * ROT * sizeof(float));
    assert_non_null(c);
    for (int i = 0; i < MAX_POS * ROT; i++)
        c[i] = rng_float();
    return c;
}

struct batched_case {
    enum qk_layout layout;
    enum tok_layout pos, off;
    bool mrope, gptj, in_place;
    int64_t b, s, hq, hk;
};

static ropekit_rope_config config_of(const struct batched_case *c) {
    ropekit_rope_config cfg = {.head_size = HS,
                               .style = c->gptj ? ROPEKIT_ROPE_GPTJ : ROPEKIT_ROPE_NEOX};
    if (c->mrope) {
        cfg.sections = kSections;
        cfg.num_sections = M_SECTIONS;
    }
    return cfg;
}

/* Runs the case batched, then on the flattened tokens with positions + offsets, and
 * compares the rotated tokens bit for bit. */
static void run_batched_case(const struct batched_case *c) {
    struct side q, k, qo, ko;
    side_make(&q, c->layout, c->b, c->s, c->hq);
    side_make(&k, c->layout, c->b, c->s, c->hk);
    side_make(&qo, c->layout, c->b, c->s, c->hq);
    side_make(&ko, c->layout, c->b, c->s, c->hk);
    const int rows = c->mrope ? M_SECTIONS : 0;
    struct toks pos, off = {{0}, NULL};
    const bool with_off = c->off != TOK_NONE;
    toks_make(&pos, c->pos, rows, c->b, c->s, 0, with_off ? MAX_POS / 2 : MAX_POS);
    if (with_off)
        toks_make(&off, c->off, 0, c->b, c->s, 0, MAX_POS / 2);
    float *cache = cache_make();
    const int64_t cshape[2] = {MAX_POS, ROT};
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cshape, NULL);

    /* the reference: [T] tokens, positions + offsets */
    const int64_t tokens = c->b * c->s, nrows = rows ? rows : 1;
    float *fq = flatten(&q.t, c->hq), *fk = flatten(&k.t, c->hk);
    int64_t *fpos = malloc((size_t)(nrows * tokens) * sizeof(int64_t));
    assert_non_null(fpos);
    for (int r = 0; r < nrows; r++)
        for (int64_t i = 0; i < c->b; i++)
            for (int64_t j = 0; j < c->s; j++)
                fpos[r * tokens + i * c->s + j] =
                    toks_at(&pos, r, i, j) + (with_off ? toks_at(&off, 0, i, j) : 0);
    const int64_t fqs[2] = {tokens, c->hq * HS}, fks[2] = {tokens, c->hk * HS};
    const int64_t fps[2] = {nrows, tokens};
    ropekit_tensor fqt = ropekit_tensor_make(fq, ROPEKIT_F32, 2, fqs, NULL);
    ropekit_tensor fkt = ropekit_tensor_make(fk, ROPEKIT_F32, 2, fks, NULL);
    ropekit_tensor fpt =
        ropekit_tensor_make(fpos, ROPEKIT_I64, rows ? 2 : 1, rows ? fps : fps + 1, NULL);
    ropekit_rope_config cfg = config_of(c);
    assert_int_equal(ropekit_rope(&fpt, &fqt, &fkt, &ct, &fqt, &fkt, &cfg), ROPEKIT_OK);

    if (with_off)
        cfg.offsets = &off.t;
    const ropekit_tensor *qout = c->in_place ? &q.t : &qo.t, *kout = c->in_place ? &k.t : &ko.t;
    ropekit_status st = ropekit_rope(&pos.t, &q.t, &k.t, &ct, qout, kout, &cfg);
    assert_int_equal(st, ROPEKIT_OK);
    float *gq = flatten(qout, c->hq), *gk = flatten(kout, c->hk);
    if (memcmp(gq, fq, (size_t)(tokens * c->hq * HS) * sizeof(float)) != 0 ||
        memcmp(gk, fk, (size_t)(tokens * c->hk * HS) * sizeof(float)) != 0)
        fail_msg("layout %s pos %d off %d mrope %d gptj %d in place %d: batched != flat",
                 kLayoutNames[c->layout], (int)c->pos, (int)c->off, c->mrope, c->gptj, c->in_place);
    free(gq);
    free(gk);
    free(fq);
    free(fk);
    free(fpos);
    free(cache);
    free(pos.buf);
    free(off.buf);
    side_free(&q);
    side_free(&k);
    side_free(&qo);
    side_free(&ko);
}

static void batched_layouts_match_flat(void **state) {
    (void)state;
    static const enum tok_layout pos_layouts[] = {TOK_DENSE, TOK_PER_SEQ};
    static const enum tok_layout off_layouts[] = {TOK_NONE, TOK_DENSE, TOK_PER_BATCH};
    for (int lay = 0; lay < QK_LAYOUTS; lay++)
        for (size_t p = 0; p < 2; p++)
            for (size_t o = 0; o < 3; o++)
                for (int variant = 0; variant < 8; variant++) {
                    struct batched_case c = {
                        .layout = (enum qk_layout)lay,
                        .pos = pos_layouts[p],
                        .off = off_layouts[o],
                        .mrope = variant & 1,
                        .gptj = (variant >> 1) & 1,
                        .in_place = (variant >> 2) & 1,
                        .b = 3,
                        .s = 5,
                        .hq = 4,
                        .hk = 2,
                    };
                    run_batched_case(&c);
                }
}

/* One batch, one sequence element, and an empty batch. */
static void batched_edge_shapes(void **state) {
    (void)state;
    const int64_t shapes[][2] = {{1, 7}, {6, 1}, {1, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int lay = 0; lay < QK_LAYOUTS; lay++) {
            struct batched_case c = {.layout = (enum qk_layout)lay,
                                     .pos = TOK_DENSE,
                                     .off = TOK_PER_BATCH,
                                     .b = shapes[i][0],
                                     .s = shapes[i][1],
                                     .hq = 2,
                                     .hk = 1};
            run_batched_case(&c);
        }
    /* B == 0: a no-op */
    float q[HS] = {0};
    int64_t p[1] = {0};
    const int64_t qs[3] = {0, 4, HS}, ps[2] = {0, 4}, cs[2] = {MAX_POS, ROT};
    float *cache = cache_make();
    ropekit_tensor qt = ropekit_tensor_make(q, ROPEKIT_F32, 3, qs, NULL);
    ropekit_tensor pt = ropekit_tensor_make(p, ROPEKIT_I64, 2, ps, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cs, NULL);
    ropekit_rope_config cfg = {.head_size = HS, .offsets = &pt};
    assert_int_equal(ropekit_rope(&pt, &qt, NULL, &ct, &qt, NULL, &cfg), ROPEKIT_OK);
    free(cache);
}

struct batched_run {
    struct side q, qo;
    struct toks pos, off;
    float *cache;
    ropekit_tensor ct;
    ropekit_rope_config cfg;
};

static void batched_run_compute(void *ctx, void *out) {
    struct batched_run *r = ctx;
    ropekit_tensor ot = r->qo.t;
    ot.data = out;
    ropekit_plan *plan = NULL;
    assert_int_equal(
        ropekit_rope_plan_create(&r->pos.t, &r->q.t, NULL, &r->ct, &ot, NULL, &r->cfg, &plan),
        ROPEKIT_OK);
    char text[512];
    ropekit_plan_describe(plan, text, sizeof text);
    assert_non_null(strstr(text, "token_dims=[4,300] runs=4"));
    assert_non_null(strstr(text, " offsets"));
    assert_int_equal(ropekit_rope_execute_offsets(plan, r->pos.buf, r->off.buf, r->q.buf, NULL,
                                                  r->cache, out, NULL),
                     ROPEKIT_OK);
    ropekit_plan_destroy(plan);
}

/* A batched plan split into many tasks: the same bytes on 1, 2 and the default number of
 * threads, and on every kernel set. */
static void batched_threads_and_isas_identical(void **state) {
    (void)state;
    const int64_t b = 4, s = 300, h = 8;
    struct batched_run r;
    side_make(&r.q, QK_HF, b, s, h);
    side_make(&r.qo, QK_SPLIT, b, s, h);
    toks_make(&r.pos, TOK_DENSE, 0, b, s, 0, MAX_POS / 2);
    toks_make(&r.off, TOK_PER_BATCH, 0, b, s, 0, MAX_POS / 2);
    r.cache = cache_make();
    const int64_t cshape[2] = {MAX_POS, ROT};
    r.ct = ropekit_tensor_make(r.cache, ROPEKIT_F32, 2, cshape, NULL);
    r.cfg = (ropekit_rope_config){.head_size = HS, .offsets = &r.off.t};
    static const int threads[] = {0, 1, 2};
    tk_everywhere_diff diff;
    if (!tk_same_bytes_everywhere(batched_run_compute, &r, r.qo.count * sizeof(float), threads, 3,
                                  &diff))
        fail_msg("isa %d threads %d differ from scalar on the default threads", diff.isa,
                 diff.threads);
    free(r.cache);
    free(r.pos.buf);
    free(r.off.buf);
    side_free(&r.q);
    side_free(&r.qo);
}

/* A contiguous [B, S] plan runs as [T] (one run); broadcast positions need B runs. */
static void contiguous_batch_plans_as_one_run(void **state) {
    (void)state;
    struct side q;
    side_make(&q, QK_FLAT, 2, 3, 2);
    struct toks pos, bpos;
    toks_make(&pos, TOK_DENSE, 0, 2, 3, 0, MAX_POS);
    toks_make(&bpos, TOK_PER_SEQ, 0, 2, 3, 0, MAX_POS);
    const int64_t cshape[2] = {MAX_POS, ROT};
    ropekit_tensor ct = ropekit_tensor_make(NULL, ROPEKIT_F32, 2, cshape, NULL);
    ropekit_rope_config cfg = {.head_size = HS};
    const struct {
        const ropekit_tensor *pos;
        const char *want;
    } cases[2] = {{&pos.t, "tokens=6 token_dims=[2,3] runs=1 "},
                  {&bpos.t, "tokens=6 token_dims=[2,3] runs=2 "}};
    for (int i = 0; i < 2; i++) {
        ropekit_plan *plan = NULL;
        assert_int_equal(
            ropekit_rope_plan_create(cases[i].pos, &q.t, NULL, &ct, &q.t, NULL, &cfg, &plan),
            ROPEKIT_OK);
        char text[512];
        ropekit_plan_describe(plan, text, sizeof text);
        if (!strstr(text, cases[i].want))
            fail_msg("\"%s\" lacks \"%s\"", text, cases[i].want);
        ropekit_plan_destroy(plan);
    }
    free(pos.buf);
    free(bpos.buf);
    side_free(&q);
}

/* ---- validation: every failure writes nothing ---- */

struct small {
    float q[2 * 3 * 2 * HS], k[2 * 3 * HS], qo[2 * 3 * 2 * HS], cache[MAX_POS * ROT];
    int64_t pos[M_SECTIONS * 2 * 3], off[2 * 3];
    ropekit_tensor qt, kt, qot, kot, pt, ot, ct;
    ropekit_rope_config cfg;
};

/* q [2, 3, 2*HS], k [2, 3, 1, HS], positions and offsets [2, 3] (mrope: [3, 2, 3]). */
static void small_make(struct small *s, bool mrope) {
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < sizeof s->q / sizeof s->q[0]; i++)
        s->q[i] = s->qo[i] = rng_float();
    for (size_t i = 0; i < sizeof s->k / sizeof s->k[0]; i++)
        s->k[i] = rng_float();
    for (size_t i = 0; i < sizeof s->cache / sizeof s->cache[0]; i++)
        s->cache[i] = rng_float();
    for (int i = 0; i < M_SECTIONS * 6; i++)
        s->pos[i] = i % 5;
    for (int i = 0; i < 6; i++)
        s->off[i] = i;
    const int64_t qs[3] = {2, 3, 2 * HS}, ks[4] = {2, 3, 1, HS}, ps[3] = {M_SECTIONS, 2, 3};
    const int64_t cs[2] = {MAX_POS, ROT};
    s->qt = ropekit_tensor_make(s->q, ROPEKIT_F32, 3, qs, NULL);
    s->qot = ropekit_tensor_make(s->qo, ROPEKIT_F32, 3, qs, NULL);
    s->kt = ropekit_tensor_make(s->k, ROPEKIT_F32, 4, ks, NULL);
    s->kot = s->kt;
    s->pt = ropekit_tensor_make(s->pos, ROPEKIT_I64, mrope ? 3 : 2, mrope ? ps : ps + 1, NULL);
    s->ot = ropekit_tensor_make(s->off, ROPEKIT_I64, 2, ps + 1, NULL);
    s->ct = ropekit_tensor_make(s->cache, ROPEKIT_F32, 2, cs, NULL);
    s->cfg = (ropekit_rope_config){.head_size = HS, .offsets = &s->ot};
    if (mrope) {
        s->cfg.sections = kSections;
        s->cfg.num_sections = M_SECTIONS;
    }
}

/* The call fails with `want`, its message holds `text`, and no byte changed. */
static void expect_failure(struct small *s, ropekit_status want, const char *text) {
    struct small before = *s;
    ropekit_status st = ropekit_rope(&s->pt, &s->qt, &s->kt, &s->ct, &s->qot, &s->kot, &s->cfg);
    if (st != want || !strstr(ropekit_last_error(), text))
        fail_msg("status %s, message \"%s\": wanted %s and \"%s\"", ropekit_status_name(st),
                 ropekit_last_error(), ropekit_status_name(want), text);
    assert_memory_equal(s->q, before.q, sizeof s->q);
    assert_memory_equal(s->qo, before.qo, sizeof s->qo);
    assert_memory_equal(s->k, before.k, sizeof s->k);
    assert_memory_equal(s->pos, before.pos, sizeof s->pos);
    assert_memory_equal(s->off, before.off, sizeof s->off);
}

static void small_accepts(void **state) {
    (void)state;
    for (int mrope = 0; mrope < 2; mrope++) {
        struct small s;
        small_make(&s, mrope);
        assert_int_equal(ropekit_rope(&s.pt, &s.qt, &s.kt, &s.ct, &s.qot, &s.kot, &s.cfg),
                         ROPEKIT_OK);
    }
}

static void rank_errors(void **state) {
    (void)state;
    struct small s;
    small_make(&s, false);
    s.pt.ndim = 3; /* [2, 3, ?]: three token dims */
    s.pt.shape[2] = 1;
    s.pt.strides[2] = 1;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT,
                   "positions shape = [2,3,1]: must be [T] or [B, S]");
    small_make(&s, true);
    s.pt.ndim = 1; /* mrope needs the section row */
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "must be [m, T] or [m, B, S] for mrope");
    small_make(&s, false);
    s.qt.ndim = s.qot.ndim = 2; /* [2, 3]: no heads after [B, S] */
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "queryIn shape = [2,3]: must be 3-D");
    small_make(&s, false);
    s.kt.ndim = s.kot.ndim = 5;
    s.kt.shape[4] = s.kot.shape[4] = 1;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "keyIn shape = [2,3,1,16,1]: must be 3-D");
}

static void token_dim_errors(void **state) {
    (void)state;
    struct small s;
    small_make(&s, false);
    s.kt.shape[0] = s.kot.shape[0] = 1; /* B */
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "keyIn shape[0] = 1: must equal queryIn shape[0]");
    small_make(&s, false);
    s.kt.shape[1] = s.kot.shape[1] = 2; /* S */
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "keyIn shape[1] = 2: must equal queryIn shape[1]");
    small_make(&s, false);
    s.pt.shape[1] = 2;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "positions shape = [2,2]: must be [2,3]");
    small_make(&s, true);
    s.pt.shape[1] = 1;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "positions shape = [3,1,3]: must be [3,2,3]");
    small_make(&s, false);
    s.qot.shape[1] = 2;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "queryOut shape = [2,2,32]");
    small_make(&s, false);
    s.qt.shape[2] = s.qot.shape[2] = HS + 1;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "queryIn shape[2] = 17: must be a multiple");
    small_make(&s, false);
    s.kt.shape[3] = s.kot.shape[3] = HS - 1;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "keyIn shape[3] = 15: must equal headSize");
}

static void offsets_errors(void **state) {
    (void)state;
    struct small s;
    small_make(&s, false);
    s.ot.dtype = ROPEKIT_F32;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "offsets dtype = 0: must be int64");
    small_make(&s, false);
    s.ot.ndim = 1; /* [2]: one per batch needs a zero stride, not a missing dim */
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "offsets shape = [2]: must be [2,3]");
    small_make(&s, true);
    const int64_t rows[3] = {M_SECTIONS, 2, 3}; /* mrope: positions' token dims only */
    s.ot = ropekit_tensor_make(s.pos, ROPEKIT_I64, 3, rows, NULL);
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "offsets shape = [3,2,3]: must be [2,3]");
    small_make(&s, false);
    s.ot.data = NULL;
    expect_failure(&s, ROPEKIT_NULL_POINTER, "offsets data = NULL");
}

static void offsets_range_errors(void **state) {
    (void)state;
    struct small s;
    small_make(&s, false);
    s.off[5] = MAX_POS - s.pos[5]; /* position + offset == max_positions */
    expect_failure(&s, ROPEKIT_OUT_OF_RANGE,
                   "positions[1][2] + offsets[1][2] = 0 + 64: must be in [0, maxSeqLen = 64)");
    small_make(&s, false);
    s.off[4] = -s.pos[4] - 1; /* below zero */
    expect_failure(&s, ROPEKIT_OUT_OF_RANGE, "positions[1][1] + offsets[1][1] = 4 + -5");
    small_make(&s, false);
    s.pos[3] = INT64_MAX - 1;
    s.off[3] = 2;
    expect_failure(&s, ROPEKIT_OUT_OF_RANGE, "(overflows int64)");
    small_make(&s, true);
    s.pos[2 * 6 + 1] = 60; /* mrope: the offset joins every section row */
    s.off[1] = 4;
    expect_failure(&s, ROPEKIT_OUT_OF_RANGE, "positions[2][0][1] + offsets[0][1] = 60 + 4");
    small_make(&s, false);
    s.cfg.offsets = NULL;
    s.pos[0] = MAX_POS;
    expect_failure(&s, ROPEKIT_OUT_OF_RANGE, "positions[0][0] = 64: must be in [0, maxSeqLen");
}

/* An output sharing a byte with offsets (or positions) is refused. */
static void output_overlapping_offsets(void **state) {
    (void)state;
    struct small s;
    small_make(&s, false);
    float *qo = s.qo;
    memcpy(qo, s.off, sizeof s.off); /* offsets stored in queryOut's memory */
    s.ot.data = qo;
    expect_failure(&s, ROPEKIT_INVALID_ARGUMENT, "queryOut memory overlaps offsets");
    small_make(&s, false);
    ropekit_plan *plan = NULL;
    assert_int_equal(
        ropekit_rope_plan_create(&s.pt, &s.qt, &s.kt, &s.ct, &s.qot, &s.kot, &s.cfg, &plan),
        ROPEKIT_OK);
    assert_int_equal(ropekit_rope_execute_offsets(plan, s.pos, (const int64_t *)(void *)s.qo, s.q,
                                                  s.k, s.cache, s.qo, s.k),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "overlaps offsets"));
    ropekit_plan_destroy(plan);
}

static void execute_offsets_misuse(void **state) {
    (void)state;
    struct small s, want;
    small_make(&s, false);
    ropekit_plan *with = NULL, *without = NULL;
    assert_int_equal(
        ropekit_rope_plan_create(&s.pt, &s.qt, &s.kt, &s.ct, &s.qot, &s.kot, &s.cfg, &with),
        ROPEKIT_OK);
    s.cfg.offsets = NULL;
    assert_int_equal(
        ropekit_rope_plan_create(&s.pt, &s.qt, &s.kt, &s.ct, &s.qot, &s.kot, &s.cfg, &without),
        ROPEKIT_OK);
    want = s;
    assert_int_equal(ropekit_rope_execute(with, s.pos, s.q, s.k, s.cache, s.qo, s.k),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "ropekit_rope_execute_offsets"));
    assert_int_equal(
        ropekit_rope_execute_offsets(without, s.pos, s.off, s.q, s.k, s.cache, s.qo, s.k),
        ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "plan made without offsets"));
    assert_int_equal(ropekit_rope_execute_offsets(with, s.pos, NULL, s.q, s.k, s.cache, s.qo, s.k),
                     ROPEKIT_NULL_POINTER);
    assert_memory_equal(s.qo, want.qo, sizeof s.qo);
    assert_memory_equal(s.k, want.k, sizeof s.k);
    /* NULL offsets on a plan without them is ropekit_rope_execute */
    assert_int_equal(
        ropekit_rope_execute_offsets(without, s.pos, NULL, s.q, s.k, s.cache, s.qo, s.k),
        ROPEKIT_OK);
    assert_int_equal(
        ropekit_rope_execute(without, s.pos, want.q, want.k, want.cache, want.qo, want.k),
        ROPEKIT_OK);
    assert_memory_equal(s.qo, want.qo, sizeof s.qo);
    assert_memory_equal(s.k, want.k, sizeof s.k);
    ropekit_plan_destroy(with);
    ropekit_plan_destroy(without);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batched_layouts_match_flat),
        cmocka_unit_test(batched_edge_shapes),
        cmocka_unit_test(batched_threads_and_isas_identical),
        cmocka_unit_test(contiguous_batch_plans_as_one_run),
        cmocka_unit_test(small_accepts),
        cmocka_unit_test(rank_errors),
        cmocka_unit_test(token_dim_errors),
        cmocka_unit_test(offsets_errors),
        cmocka_unit_test(offsets_range_errors),
        cmocka_unit_test(output_overlapping_offsets),
        cmocka_unit_test(execute_offsets_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
