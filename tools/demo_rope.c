/* Demo rows for RopeWithSinCosCache (SPEC §5): CANN's official example through
 * aclnnRopeWithSinCosCache in bf16 (its dtype), fp16 and fp32; multimodal rope through
 * aclnnRopeWithSinCosCacheV2 (Qwen2.5-VL sections, Qwen3-VL interleaved); a Llama-3-8B
 * decode and prefill step on a Llama-3-scaled cache through both faces; a Qwen2.5-VL
 * prefill and a GPT-J partial-rotary step through the native face. Every row is checked
 * against the float64 reference computed from the cache's stored values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "testkit/half_bits.h"
#include "testkit/rng.h"
#include "testkit/rope_case.h"

enum rd_face { RD_ACLNN_V1, RD_ACLNN_V2, RD_NATIVE };
enum rd_layout {
    RD_SEPARATE,      /* contiguous q, k and separate outputs (CANN's example) */
    RD_FUSED_INPLACE, /* q and k views into a fused [T, (Hq + 2Hk) * hs] qkv buffer, in place */
    RD_SEPARATE_3D    /* native: contiguous [T, H, hs] tensors, out of place */
};
enum rd_positions {
    RD_POS_SEQUENTIAL, /* 0, 1, ..., T-1 */
    RD_POS_DECODE,     /* one token per sequence, positions around 8000 */
    RD_POS_VISION      /* text, an image grid (t fixed; h, w over the grid), text */
};
enum rd_values { RD_VALUES_SMALL_INTS, RD_VALUES_UNIT };
enum rd_table { RD_TABLE_PLAIN, RD_TABLE_LLAMA3 };

/* A model's attention layout and rotary table. */
struct rd_model {
    bool neox;
    int64_t q_heads, k_heads, head_size, rot_dim;
    int nsec; /* 0: plain rope */
    const int64_t *sections;
    int64_t cache_mode;
    double base;
    enum rd_table table;
};

static const int64_t rd_qwen25_sections[3] = {16, 24, 24}, rd_qwen3_sections[3] = {24, 20, 20};

/* CANN's aclnnRopeWithSinCosCache example: q and k [2, 64] (two heads of 32), cache
 * [2, 32], NeoX. */
static const struct rd_model rd_cann_example = {true, 2,    2, 32,      32,
                                                0,    NULL, 0, 10000.0, RD_TABLE_PLAIN};
/* Llama-3-8B: 32 query and 8 key/value heads of 128, base 500000, Llama-3 scaling. */
static const struct rd_model rd_llama3_8b = {true, 32,   8, 128,      128,
                                             0,    NULL, 0, 500000.0, RD_TABLE_LLAMA3};
/* Qwen2.5-VL-7B: 28 query and 4 key/value heads of 128, sections [16,24,24], base 1e6. */
static const struct rd_model rd_qwen25_vl = {
    true, 28, 4, 128, 128, 3, rd_qwen25_sections, 0, 1e6, RD_TABLE_PLAIN};
/* Qwen3-VL-8B: 32 query and 8 key/value heads of 128, interleaved [24,20,20], base 5e6. */
static const struct rd_model rd_qwen3_vl = {
    true, 32, 8, 128, 128, 3, rd_qwen3_sections, 1, 5e6, RD_TABLE_PLAIN};
/* GPT-J-6B: 16 heads of 256, GPT-J pairing on the first 64 (192 pass through). */
static const struct rd_model rd_gptj_6b = {false, 16,   16, 256,     64,
                                           0,     NULL, 0,  10000.0, RD_TABLE_PLAIN};

struct rd_config {
    const char *label;
    const struct rd_model *model;
    enum rd_face face;
    ropekit_dtype xd, cd;
    int64_t tokens, max_pos;
    enum rd_positions positions;
    enum rd_layout layout;
    enum rd_values values;
    int64_t grid_h, grid_w; /* RD_POS_VISION: the image's grid */
};

static const struct rd_config rd_configs[] = {
    /* The official example (positions {0, 1}) in its bf16 and the other two dtypes. */
    {"CANN example", &rd_cann_example, RD_ACLNN_V1, ROPEKIT_BF16, ROPEKIT_BF16, 2, 2,
     RD_POS_SEQUENTIAL, RD_SEPARATE, RD_VALUES_SMALL_INTS, 0, 0},
    {"CANN example", &rd_cann_example, RD_ACLNN_V1, ROPEKIT_F16, ROPEKIT_F16, 2, 2,
     RD_POS_SEQUENTIAL, RD_SEPARATE, RD_VALUES_SMALL_INTS, 0, 0},
    {"CANN example", &rd_cann_example, RD_ACLNN_V1, ROPEKIT_F32, ROPEKIT_F32, 2, 2,
     RD_POS_SEQUENTIAL, RD_SEPARATE, RD_VALUES_SMALL_INTS, 0, 0},
    /* Multimodal rope on text + a 12x16 image, fused qkv in place. */
    {"Qwen2.5-VL [16,24,24] mode 0", &rd_qwen25_vl, RD_ACLNN_V2, ROPEKIT_BF16, ROPEKIT_BF16, 256,
     4096, RD_POS_VISION, RD_FUSED_INPLACE, RD_VALUES_UNIT, 12, 16},
    {"Qwen3-VL [24,20,20] interleaved", &rd_qwen3_vl, RD_ACLNN_V2, ROPEKIT_BF16, ROPEKIT_BF16, 256,
     4096, RD_POS_VISION, RD_FUSED_INPLACE, RD_VALUES_UNIT, 12, 16},
    /* Llama-3-8B on a 16384-row cache, fused qkv in place, through both faces. */
    {"Llama-3-8B decode, 64 seqs at ~8000", &rd_llama3_8b, RD_ACLNN_V1, ROPEKIT_BF16, ROPEKIT_BF16,
     64, 16384, RD_POS_DECODE, RD_FUSED_INPLACE, RD_VALUES_UNIT, 0, 0},
    {"Llama-3-8B decode, 64 seqs at ~8000", &rd_llama3_8b, RD_NATIVE, ROPEKIT_BF16, ROPEKIT_BF16,
     64, 16384, RD_POS_DECODE, RD_FUSED_INPLACE, RD_VALUES_UNIT, 0, 0},
    {"Llama-3-8B prefill 0..4095", &rd_llama3_8b, RD_ACLNN_V1, ROPEKIT_BF16, ROPEKIT_BF16, 4096,
     16384, RD_POS_SEQUENTIAL, RD_FUSED_INPLACE, RD_VALUES_UNIT, 0, 0},
    {"Llama-3-8B prefill 0..4095", &rd_llama3_8b, RD_NATIVE, ROPEKIT_BF16, ROPEKIT_BF16, 4096,
     16384, RD_POS_SEQUENTIAL, RD_FUSED_INPLACE, RD_VALUES_UNIT, 0, 0},
    /* Qwen2.5-VL prefill: text + a 24x32 image. */
    {"Qwen2.5-VL prefill [16,24,24]", &rd_qwen25_vl, RD_NATIVE, ROPEKIT_BF16, ROPEKIT_BF16, 1024,
     8192, RD_POS_VISION, RD_FUSED_INPLACE, RD_VALUES_UNIT, 24, 32},
    /* fp16 activations on an fp32 cache: the native face only. */
    {"GPT-J-6B prefill, rotary 64 of 256", &rd_gptj_6b, RD_NATIVE, ROPEKIT_F16, ROPEKIT_F32, 512,
     2048, RD_POS_SEQUENTIAL, RD_SEPARATE_3D, RD_VALUES_UNIT, 0, 0},
};

/* A contiguous view over a new buffer of its own. */
static int rd_contiguous(struct tk_rope_case *rc, int id, ropekit_dtype dt, int ndim,
                         const int64_t *shape) {
    int64_t strides[3], n = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = n;
        n *= shape[i];
    }
    const int b = tk_rc_add_buffer(rc, dt, n);
    if (b < 0)
        return -1;
    tk_rc_set_view(&rc->view[id], b, ndim, shape, strides, 0);
    return 0;
}

static int rd_layout(const struct rd_config *cfg, struct tk_rope_case *rc) {
    const int64_t t = cfg->tokens, hs = cfg->model->head_size, hq = cfg->model->q_heads,
                  hk = cfg->model->k_heads;
    if (cfg->layout == RD_FUSED_INPLACE) {
        const int64_t w = (hq + 2 * hk) * hs; /* [q | k | v] per token */
        const int b = tk_rc_add_buffer(rc, cfg->xd, t * w);
        if (b < 0)
            return -1;
        const int64_t q2[2] = {t, hq * hs}, k2[2] = {t, hk * hs}, s2[2] = {w, 1};
        tk_rc_set_view(&rc->view[TK_RC_QI], b, 2, q2, s2, 0);
        tk_rc_set_view(&rc->view[TK_RC_KI], b, 2, k2, s2, hq * hs);
        rc->view[TK_RC_QO] = rc->view[TK_RC_QI];
        rc->view[TK_RC_KO] = rc->view[TK_RC_KI];
        return 0;
    }
    const bool three = cfg->layout == RD_SEPARATE_3D;
    const int64_t q[3] = {t, three ? hq : hq * hs, hs}, k[3] = {t, three ? hk : hk * hs, hs};
    const int ndim = three ? 3 : 2;
    if (rd_contiguous(rc, TK_RC_QI, cfg->xd, ndim, q) != 0 ||
        rd_contiguous(rc, TK_RC_KI, cfg->xd, ndim, k) != 0 ||
        rd_contiguous(rc, TK_RC_QO, cfg->xd, ndim, q) != 0 ||
        rd_contiguous(rc, TK_RC_KO, cfg->xd, ndim, k) != 0)
        return -1;
    return 0;
}

/* Position of token t in row r (0 = temporal, 1 = height, 2 = width for vision). */
static int64_t rd_position(const struct rd_config *cfg, struct tk_rng *rng, int r, int64_t t) {
    switch (cfg->positions) {
    case RD_POS_DECODE:
        return 7936 + (int64_t)tk_rng_below(rng, 128);
    case RD_POS_VISION: {
        const int64_t image = cfg->grid_h * cfg->grid_w, before = cfg->tokens / 16;
        if (t < before)
            return t;
        if (t < before + image) {
            const int64_t k = t - before;
            return before + (r == 0 ? 0 : r == 1 ? k / cfg->grid_w : k % cfg->grid_w);
        }
        const int64_t next = before + (cfg->grid_h > cfg->grid_w ? cfg->grid_h : cfg->grid_w);
        return next + (t - before - image);
    }
    default:
        return t;
    }
}

static int rd_fill(const struct rd_config *cfg, struct tk_rope_case *rc, uint64_t seed) {
    struct tk_rng rng = tk_rng_make(seed);
    const int rows = tk_rc_pos_rows(rc);
    for (int64_t t = 0; t < rc->tokens; t++) {
        const int64_t p0 = rd_position(cfg, &rng, 0, t);
        for (int r = 0; r < rows; r++)
            tk_rc_set_position(
                rc, r, t,
                r == 0 || cfg->positions != RD_POS_VISION ? p0 : rd_position(cfg, &rng, r, t));
    }
    for (int side = TK_RC_QI; side <= TK_RC_KI; side++) {
        const struct tk_rc_view *v = &rc->view[side];
        const struct tk_rc_buffer *b = &rc->buf[v->buf];
        const size_t item = ropekit_dtype_size(b->dtype);
        const int64_t heads = side == TK_RC_QI ? rc->q_heads : rc->k_heads;
        for (int64_t t = 0; t < rc->tokens; t++)
            for (int64_t n = 0; n < heads; n++)
                for (int64_t c = 0; c < rc->head_size; c++) {
                    double x = cfg->values == RD_VALUES_SMALL_INTS
                                   ? (double)tk_rng_range(&rng, 1, 128)
                                   : tk_rng_uniform(&rng, -1.0, 1.0);
                    tk_store(b->data + (size_t)tk_rc_head_elem(rc, v, t, n, c) * item, b->dtype, x);
                }
    }
    ropekit_rope_scaling scaling;
    ropekit_rope_scaling_defaults(&scaling, ROPEKIT_SCALING_LLAMA3);
    scaling.factor = 8.0;
    scaling.original_max_position = 8192;
    const struct tk_rc_view *cv = &rc->view[TK_RC_CACHE];
    return ropekit_cos_sin_cache_build(rc->buf[cv->buf].data, rc->buf[cv->buf].dtype, rc->max_pos,
                                       rc->rot_dim, cfg->model->base,
                                       cfg->model->table == RD_TABLE_LLAMA3 ? &scaling : NULL) ==
                   ROPEKIT_OK
               ? 0
               : -1;
}

static int rd_build(const struct rd_config *cfg, struct tk_rope_case *rc, uint64_t seed) {
    memset(rc, 0, sizeof *rc);
    rc->neox = cfg->model->neox;
    rc->head_size = cfg->model->head_size;
    rc->rot_dim = cfg->model->rot_dim;
    rc->tokens = cfg->tokens;
    rc->max_pos = cfg->max_pos;
    rc->q_heads = cfg->model->q_heads;
    rc->k_heads = cfg->model->k_heads;
    rc->nsec = cfg->model->nsec;
    for (int i = 0; i < cfg->model->nsec; i++)
        rc->sections[i] = cfg->model->sections[i];
    rc->cache_mode = cfg->model->cache_mode;
    const bool mrope = tk_rc_is_mrope(rc);
    const int64_t pos[2] = {tk_rc_pos_rows(rc), cfg->tokens};
    const int64_t cache[2] = {cfg->max_pos, cfg->model->rot_dim};
    if (rd_contiguous(rc, TK_RC_POS, ROPEKIT_I64, mrope ? 2 : 1, mrope ? pos : pos + 1) != 0 ||
        rd_contiguous(rc, TK_RC_CACHE, cfg->cd, 2, cache) != 0 || rd_layout(cfg, rc) != 0)
        return -1;
    return rd_fill(cfg, rc, seed);
}

/* ---- running and timing ---- */

/* One face bound to one problem: the aclnn call with its device buffers, or a native
 * plan with the data pointers it runs on. */
struct rd_runner {
    bool aclnn;
    const struct tk_acl *acl;
    struct tk_rc_acl_call call;
    struct tk_rc_acl_bound bound;
    bool bound_ok;
    ropekit_plan *plan;
    void *data[TK_RC_NVIEWS];
    char *err;
    size_t len;
};

static int rd_call(void *ctx) {
    struct rd_runner *r = ctx;
    if (r->aclnn) {
        int stage;
        return tk_rc_acl_call_once(&r->bound, &r->call, r->acl, &stage, r->err, r->len);
    }
    ropekit_status st =
        ropekit_rope_execute(r->plan, r->data[TK_RC_POS], r->data[TK_RC_QI], r->data[TK_RC_KI],
                             r->data[TK_RC_CACHE], r->data[TK_RC_QO], r->data[TK_RC_KO]);
    if (st != ROPEKIT_OK)
        snprintf(r->err, r->len, "%s: %s", ropekit_status_name(st), ropekit_last_error());
    return st == ROPEKIT_OK ? 0 : -1;
}

/* Binds the face to the problem and runs it once; the result lands in img. */
static int rd_start(struct rd_runner *r, const struct rd_config *cfg, const struct tk_rope_case *rc,
                    struct tk_rc_image *img) {
    if (r->aclnn) {
        tk_rc_acl_call_make(&r->call, rc, cfg->face == RD_ACLNN_V2 ? 2 : 1, rc->cache_mode);
        /* In place the way CANN's clients write it: the input aclTensor is the output. */
        for (int o = TK_RC_QO; o <= TK_RC_KO; o++)
            r->call.reuse_input[o] = tk_rc_view_same(&r->call.view[o], &r->call.view[o - 3]);
        if (tk_rc_acl_bind(&r->bound, &r->call, rc, img, r->err, r->len) != 0)
            return -1;
        r->bound_ok = true;
        return rd_call(r) == 0 ? tk_rc_acl_download(&r->bound, rc, img, r->err, r->len) : -1;
    }
    ropekit_tensor t[TK_RC_NVIEWS];
    for (int v = 0; v < TK_RC_NVIEWS; v++) {
        t[v] = tk_rc_native_tensor(rc, v, img);
        r->data[v] = t[v].data;
    }
    const ropekit_rope_config config = tk_rc_native_config(rc);
    ropekit_status st =
        ropekit_rope_plan_create(&t[TK_RC_POS], &t[TK_RC_QI], &t[TK_RC_KI], &t[TK_RC_CACHE],
                                 &t[TK_RC_QO], &t[TK_RC_KO], &config, &r->plan);
    if (st != ROPEKIT_OK) {
        snprintf(r->err, r->len, "%s: %s", ropekit_status_name(st), ropekit_last_error());
        return -1;
    }
    return rd_call(r);
}

static void rd_stop(struct rd_runner *r, const struct tk_rope_case *rc) {
    if (r->bound_ok)
        tk_rc_acl_unbind(&r->bound, rc);
    ropekit_plan_destroy(r->plan);
}

/* Two rows with the same problem (the same configuration but for the face and label)
 * share one set of buffers. */
static bool rd_same_problem(const struct rd_config *a, const struct rd_config *b) {
    return a->model == b->model && a->xd == b->xd && a->cd == b->cd && a->tokens == b->tokens &&
           a->max_pos == b->max_pos && a->positions == b->positions && a->layout == b->layout &&
           a->values == b->values && a->grid_h == b->grid_h && a->grid_w == b->grid_w;
}

/* The native face sees a fused buffer's q/k as [T, H, hs] views. */
static void rd_views_3d(struct tk_rope_case *rc) {
    for (int v = TK_RC_QI; v <= TK_RC_KO; v++) {
        struct tk_rc_view *x = &rc->view[v];
        if (v == TK_RC_CACHE || x->ndim != 2 || x->strides[1] != 1)
            continue;
        x->ndim = 3;
        x->shape[2] = rc->head_size;
        x->shape[1] /= rc->head_size;
        x->strides[1] = rc->head_size;
        x->strides[2] = 1;
    }
}

static void rd_row(const struct demo_env *env, const struct rd_config *cfg,
                   const struct tk_rope_case *rc, struct demo_table *table) {
    struct demo_row row;
    memset(&row, 0, sizeof row);
    row.face = cfg->face == RD_NATIVE ? "native" : "aclnn";
    row.op = cfg->face == RD_ACLNN_V2 ? "RopeWithSinCosCacheV2" : "RopeWithSinCosCache";
    row.mode = !cfg->model->nsec        ? (cfg->model->neox ? "neox" : "gptj")
               : cfg->model->cache_mode ? (cfg->model->neox ? "neox mrope/1" : "gptj mrope/1")
                                        : (cfg->model->neox ? "neox mrope/0" : "gptj mrope/0");
    row.label = cfg->label;
    snprintf(row.shape, sizeof row.shape, "%lldx(%lld+%lld)x%lld", (long long)cfg->tokens,
             (long long)cfg->model->q_heads, (long long)cfg->model->k_heads,
             (long long)cfg->model->head_size);
    snprintf(row.dtypes, sizeof row.dtypes, "%s/%s", ropekit_dtype_name(cfg->xd),
             ropekit_dtype_name(cfg->cd));
    row.usec = -1.0;

    struct tk_rc_image img;
    if (!rc || tk_rc_image_alloc(&img, rc) != 0) {
        snprintf(row.note, sizeof row.note, "set-up failed: %s", ropekit_last_error());
        demo_table_add(table, &row);
        return;
    }
    struct rd_runner r;
    memset(&r, 0, sizeof r);
    r.aclnn = cfg->face != RD_NATIVE;
    r.acl = env->acl;
    r.err = row.note;
    r.len = sizeof row.note;
    struct tk_rc_check chk;
    if (rd_start(&r, cfg, rc, &img) == 0 && tk_rc_check_output(rc, &img, &chk) == 0) {
        row.max_abs_err = chk.err.max_abs_err;
        row.max_ratio = chk.err.max_ratio;
        row.pass = tk_rc_check_passed(&chk);
        if (!row.pass)
            tk_rc_check_describe(&chk, row.note, sizeof row.note);
        /* Checked; the timing calls keep rotating the same buffers. */
        row.usec = demo_time_us(rd_call, &r);
        if (row.usec < 0.0)
            row.pass = false;
    }
    rd_stop(&r, rc);
    demo_table_add(table, &row);
    tk_rc_image_free(&img);
}

void demo_suite_rope(const struct demo_env *env, struct demo_table *table) {
    const size_t n = sizeof rd_configs / sizeof rd_configs[0];
    struct tk_rope_case rc;
    bool built = false;
    for (size_t i = 0; i < n; i++) {
        const struct rd_config *cfg = &rd_configs[i];
        if (!built || !rd_same_problem(cfg, &rd_configs[i - 1])) {
            if (built)
                tk_rope_case_free(&rc);
            built = rd_build(cfg, &rc, 101 + i) == 0;
            if (!built)
                tk_rope_case_free(&rc);
        }
        struct tk_rope_case seen = rc; /* the same buffers, viewed as this face wants */
        if (built && cfg->face == RD_NATIVE && cfg->layout == RD_FUSED_INPLACE)
            rd_views_3d(&seen);
        rd_row(env, cfg, built ? &seen : NULL, table);
    }
    if (built)
        tk_rope_case_free(&rc);
}
