/* Fuzz target: aclnnRopeWithSinCosCache and aclnnRopeWithSinCosCacheV2 through the aclnn face
 * (aclCreateTensor views over guarded buffers, phase 1, phase 2 on a stream,
 * aclrtSynchronizeStream). Each input is decoded as a near-valid rope or mrope problem
 * (SPEC §5) with layouts drawn from contiguous, padded, column-major, reversed, strided and
 * broadcast rows, in-place and fused-qkv aliasing, and, for some inputs, broken in a few ways:
 * NULL arguments or data, dtypes, ranks, dims, headSize, rotaryDim, sections (any count,
 * negative, overflowing sums), cacheMode, positions shapes, extreme strides and offsets,
 * storage shapes, outputs overlapping themselves, each other or the inputs. Phase 2 varies the
 * workspace, the stream, NULL and foreign executors, repeatable executors and rebound addresses.
 *
 * Oracle: aclCreateTensor refuses what it documents it refuses and accepts plain views. Phase 1
 * returns the code of the first row of SPEC §5.5 the call breaks: rows 0-15 from a model of
 * the table written here, row 16 whenever an output truly shares a byte with another view
 * (either answer for layouts its test may judge conservatively). A view whose byte extent
 * overflows int64 gets a small buffer and must be refused. A failed call leaves a message
 * naming the API and every buffer (and both phase-1 outputs) untouched. An accepted call syncs
 * with 507015 and writes nothing exactly when a position it reads is outside [0, maxSeqLen);
 * otherwise it writes only its outputs, which equal byte for byte those of a rerun with the
 * scalar kernels on one thread and, for small shapes, the float64 reference within SPEC §6
 * (pass-through elements bit-exact). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"
#include "fuzz_arena.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "testkit/acl_dtype.h"
#include "testkit/half_bits.h"
#include "testkit/rope_reference.h"
#include "testkit/rules.h"
#include "ropekit/ropekit.h"
#include "testkit/tolerance.h"

#define RF_MAXD 10                  /* dims a view may claim (aclCreateTensor takes up to 8) */
#define RF_REF_ELEMS 4096           /* output elements up to which the float64 reference runs */
#define RF_WALK_ELEMS (1 << 21)     /* elements up to which the overlap oracle walks the views */
#define RF_PLAIN ((int64_t)1 << 40) /* offsets and strides aclCreateTensor must take */
#define RF_PHASE2_BYTES 12          /* input bytes that phase 2's choices read */

enum { A_POS, A_Q, A_K, A_CACHE, A_QOUT, A_KOUT, A_N }; /* the tensor arguments */
enum { S_EXTRA = A_N, S_N };                            /* storages: one per argument, one shared */
enum { NULL_WS = A_N, NULL_EXEC };                      /* further NULL-able arguments */

static const char *const kNames[S_N] = {"positions", "queryIn", "keyIn", "cosSinCache",
                                        "queryOut",  "keyOut",  "extra"};

static const int64_t kAnyDtypes[] = {
    ACL_FLOAT,     ACL_FLOAT16, ACL_BF16,         ACL_INT64, ACL_INT32,
    ACL_DOUBLE,    ACL_INT8,    ACL_UINT64,       ACL_INT16, ACL_BOOL,
    ACL_COMPLEX64, ACL_STRING,  ACL_DT_UNDEFINED, 5,         100};
static const int64_t kFloatDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
static const int64_t kFormats[] = {ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_FRACTAL_NZ,
                                   ACL_FORMAT_UNDEFINED, ACL_FORMAT_NCL};
static const int64_t kSectionValues[] = {0, 8, 10, 11, 12, 16, 20, 24, 32, 64};
static const int64_t kHuge[] = {INT64_MAX,        INT64_MAX / 2 + 1,
                                (int64_t)1 << 62, ((int64_t)1 << 62) + 1,
                                INT64_MAX / 3,    (int64_t)1 << 32};

enum rv_state {
    RV_OK,       /* reaches bytes [lo, hi) of its storage */
    RV_EMPTY,    /* no elements */
    RV_OVERFLOW, /* its element count or byte extent overflows int64 */
    RV_BAD       /* aclCreateTensor refuses it: rank > 8, unknown dtype, negative dim or offset */
};

/* One aclTensor to create: a view of one of the storages. */
struct rv {
    int store;
    aclDataType dt;
    aclFormat format;
    uint64_t ndim;
    int64_t dims[RF_MAXD], strides[RF_MAXD];
    bool null_strides; /* passed as NULL (contiguous); strides holds what that means */
    int64_t offset;
    uint64_t sndim;
    int64_t sdims[RF_MAXD];
    bool null_data;
    int kind; /* layout, for the trace */
    enum rv_state state;
    int64_t el_lo, el_hi; /* element reach around offset */
    int64_t lo, hi;       /* bytes from the storage's start (RV_OK) */
};

struct rcase {
    int api; /* 1: V1, 2: V2 */
    int64_t cache_mode;
    bool neox;
    aclDataType xdt;
    int64_t tokens, max_pos, rot_dim, head_size, q_cols, k_cols;
    bool sec_null;
    uint64_t nsec;
    int64_t sec[8];
    int alias;
    struct rv v[A_N];
    int same[A_N]; /* -1, or an earlier argument whose aclTensor is passed again */
    int null_arg;  /* -1, an argument, NULL_WS or NULL_EXEC */
    bool exotic;   /* layouts the overlap test of row 16 may judge conservatively */
    bool pos_bad;  /* an out-of-range position value was written */
};

static aclrtStream g_stream;
static ropekit_isa g_isa;

/* ---- arithmetic on fuzzed values ---- */

static int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? (b < 0 ? INT64_MIN : INT64_MAX) : r;
}

static int64_t sat_mul(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? ((a < 0) != (b < 0) ? INT64_MIN : INT64_MAX) : r;
}

static int64_t item_of(aclDataType dt) {
    return (int64_t)aclDataTypeSize(dt);
}

static int64_t align_of(aclDataType dt) {
    return dt == ACL_FLOAT ? 16 : 32;
}

/* ---- views ---- */

static void rv_shape(struct rv *v, int store, aclDataType dt, uint64_t ndim, int64_t d0,
                     int64_t d1) {
    memset(v, 0, sizeof *v);
    v->store = store;
    v->dt = dt;
    v->format = ACL_FORMAT_ND;
    v->ndim = ndim;
    v->dims[0] = d0;
    v->dims[1] = d1;
    v->null_strides = true;
}

/* Classifies the view and computes its reach (the arithmetic of aclCreateTensor, checked). */
static void rv_measure(struct rv *v) {
    const int64_t item = item_of(v->dt);
    v->state = RV_BAD;
    if (v->ndim > ROPEKIT_MAX_DIMS || v->sndim > ROPEKIT_MAX_DIMS || item == 0 || v->offset < 0)
        return;
    bool empty = false;
    for (uint64_t i = 0; i < v->ndim; i++) {
        if (v->dims[i] < 0)
            return;
        empty |= v->dims[i] == 0;
    }
    if (v->null_strides) { /* row-major, as ropekit_tensor_make fills them */
        int64_t step = 1;
        for (uint64_t i = v->ndim; i-- > 0;) {
            v->strides[i] = step;
            if (v->dims[i] > 1)
                step = sat_mul(step, v->dims[i]);
        }
    }
    if (empty) {
        v->state = RV_EMPTY;
        return;
    }
    v->state = RV_OVERFLOW;
    int64_t n = 1, lo = 0, hi = 0;
    for (uint64_t i = 0; i < v->ndim; i++) {
        int64_t r;
        if (__builtin_mul_overflow(n, v->dims[i], &n) ||
            __builtin_mul_overflow(v->dims[i] - 1, v->strides[i], &r) ||
            __builtin_add_overflow(r < 0 ? lo : hi, r, r < 0 ? &lo : &hi))
            return;
    }
    int64_t boff, blo, bhi;
    if (__builtin_mul_overflow(v->offset, item, &boff) || __builtin_mul_overflow(lo, item, &blo) ||
        __builtin_mul_overflow(hi, item, &bhi) || __builtin_add_overflow(boff, blo, &blo) ||
        __builtin_add_overflow(boff, bhi, &bhi) || __builtin_add_overflow(bhi, item, &bhi))
        return;
    v->el_lo = lo;
    v->el_hi = hi;
    v->lo = blo;
    v->hi = bhi;
    v->state = RV_OK;
}

/* Sets the offset to the smallest that keeps the view inside its storage, plus `extra`. */
static void rv_place(struct rv *v, int64_t extra) {
    v->offset = 0;
    rv_measure(v);
    v->offset = sat_add(v->state == RV_OK ? -v->el_lo : 0, extra);
    rv_measure(v);
}

static int64_t rv_numel(const struct rv *v) {
    int64_t n = 1;
    for (uint64_t i = 0; i < v->ndim; i++)
        n *= v->dims[i];
    return n;
}

/* Byte offset from the storage's start of element (i0, i1) (1-D views: (i0)). */
static int64_t rv_at(const struct rv *v, int64_t i0, int64_t i1) {
    int64_t e = v->offset + i0 * v->strides[0] + (v->ndim > 1 ? i1 * v->strides[1] : 0);
    return e * item_of(v->dt);
}

/* Byte offset of the element with row-major flat index e. */
static int64_t rv_flat(const struct rv *v, int64_t e) {
    int64_t off = v->offset;
    for (uint64_t i = v->ndim; i-- > 0;) {
        off += e % v->dims[i] * v->strides[i];
        e /= v->dims[i];
    }
    return off * item_of(v->dt);
}

/* Two views that map every index to the same address (an output exactly over its input). */
static bool rv_same_mapping(const struct rv *a, const struct rv *b) {
    if (a->store != b->store || a->ndim != b->ndim ||
        sat_mul(a->offset, item_of(a->dt)) != sat_mul(b->offset, item_of(b->dt)))
        return false;
    for (uint64_t i = 0; i < a->ndim; i++)
        if (a->dims[i] != b->dims[i] || (a->dims[i] > 1 && a->strides[i] != b->strides[i]))
            return false;
    return true;
}

/* 1: aclCreateTensor must accept the view, 0: must refuse it, -1: either. */
static int rv_creatable(const struct rv *v) {
    if (v->state == RV_BAD)
        return 0;
    if (v->state == RV_OVERFLOW || v->offset > RF_PLAIN)
        return -1;
    int64_t n = 1;
    for (uint64_t i = 0; i < v->ndim; i++) /* the library multiplies in this order */
        if (v->strides[i] > RF_PLAIN || v->strides[i] < -RF_PLAIN ||
            __builtin_mul_overflow(n, v->dims[i], &n))
            return -1;
    if (v->sndim == 0 || v->state == RV_EMPTY)
        return 1;
    int64_t storage = 1;
    for (uint64_t i = 0; i < v->sndim; i++)
        if (v->sdims[i] < 0 || __builtin_mul_overflow(storage, v->sdims[i], &storage))
            return 0;
    return v->offset + v->el_lo >= 0 && v->offset + v->el_hi < storage;
}

/* Strides of a view over its own storage; outputs get layouts without self-overlap. */
static void rv_layout(fz_input *in, struct rv *v, bool output) {
    int kind = (int)fz_range(in, 0, 10);
    if (output && kind >= 9)
        kind = 0;
    v->kind = kind;
    v->null_strides = kind < 3 || (v->ndim != 1 && v->ndim != 2);
    const int64_t rows = v->dims[0], cols = v->dims[1], pad = fz_range(in, 0, 9);
    if (!v->null_strides && v->ndim == 2) {
        const int64_t st[11][2] = {
            {0, 0},
            {0, 0},
            {0, 0},
            {cols, 1},
            {sat_add(cols, pad + 1), 1},
            {1, rows},
            {sat_mul(-1, cols), 1},
            {cols, -1},
            {sat_add(sat_mul(2, cols), pad % 4), 2},
            {0, 1},
            {cols / 2, 1},
        };
        v->strides[0] = st[kind][0];
        v->strides[1] = st[kind][1];
    } else if (!v->null_strides) {
        const int64_t st[11] = {0, 0, 0, 1, 2, -1, -2, 3, -3, 0, 0};
        v->strides[0] = st[kind];
    }
    rv_place(v, fz_u8(in) < 224 ? fz_range(in, 0, 3) : fz_range(in, 0, 64));
}

/* dst takes src's storage and layout (exactly over it when the shapes agree). */
static void rv_copy_layout(struct rv *dst, const struct rv *src) {
    dst->store = src->store;
    dst->kind = src->kind;
    if (dst->ndim != src->ndim) {
        dst->null_strides = true;
        rv_place(dst, src->offset);
        return;
    }
    dst->null_strides = src->null_strides;
    memcpy(dst->strides, src->strides, sizeof dst->strides);
    dst->offset = src->offset;
    rv_measure(dst);
    if (dst->state == RV_OK && dst->offset + dst->el_lo < 0)
        rv_place(dst, 0);
}

/* ---- decoding the call ---- */

static void rc_shapes(struct rcase *c) {
    const bool mrope = !c->sec_null && c->nsec > 0 && c->sec[0] > 0;
    if (mrope)
        rv_shape(&c->v[A_POS], A_POS, ACL_INT64, 2, (int64_t)c->nsec, c->tokens);
    else
        rv_shape(&c->v[A_POS], A_POS, ACL_INT64, 1, c->tokens, 0);
    rv_shape(&c->v[A_Q], A_Q, c->xdt, 2, c->tokens, c->q_cols);
    rv_shape(&c->v[A_K], A_K, c->xdt, 2, c->tokens, c->k_cols);
    rv_shape(&c->v[A_CACHE], A_CACHE, c->xdt, 2, c->max_pos, c->rot_dim);
    rv_shape(&c->v[A_QOUT], A_QOUT, c->xdt, 2, c->tokens, c->q_cols);
    rv_shape(&c->v[A_KOUT], A_KOUT, c->xdt, 2, c->tokens, c->k_cols);
}

static void rc_base(fz_input *in, struct rcase *c) {
    memset(c, 0, sizeof *c);
    c->api = fz_bool(in) ? 2 : 1;
    c->xdt = (aclDataType)fz_pick(in, kFloatDtypes, 3);
    c->neox = fz_bool(in);
    const int64_t align = align_of(c->xdt);
    const int mode = (int)fz_range(in, 0, 9);
    c->sec_null = mode < 4;
    if (mode == 4) { /* sections whose first is 0: rope */
        c->nsec = (uint64_t)fz_range(in, 3, 4);
        for (uint64_t i = 1; i < c->nsec; i++)
            c->sec[i] = fz_range(in, 0, 24);
    } else if (mode > 4) {
        /* one of CANN's section lists (SPEC §5.5 row 9) */
        const struct tk_mrope_sections *w =
            &tk_aclnn_mrope_sections[fz_range(in, 0, TK_ACLNN_MROPE_SECTION_LISTS - 1)];
        c->nsec = (uint64_t)w->count;
        for (uint64_t i = 0; i < c->nsec; i++)
            c->sec[i] = w->s[i];
    }
    const bool mrope = mode > 4;
    c->cache_mode = mrope && c->nsec == 4 ? 0 : fz_range(in, 0, 1);
    c->rot_dim =
        mrope ? 2 * (c->sec[0] + c->sec[1] + c->sec[2] + c->sec[3]) : align * fz_range(in, 1, 4);
    c->head_size = c->rot_dim + align * fz_range(in, 0, 2);
    c->alias = (int)fz_range(in, 0, 9);
    const int64_t hq = fz_range(in, 1, 3), hk = c->alias == 8 ? hq : fz_range(in, 1, 3);
    c->q_cols = hq * c->head_size;
    c->k_cols = hk * c->head_size;
    c->tokens = fz_u8(in) < 224 ? fz_range(in, 1, 8) : fz_range(in, 9, 160);
    c->max_pos = fz_u8(in) < 240 ? fz_range(in, 1, 16) : fz_range(in, 17, 2048);
    c->null_arg = -1;
    for (int i = 0; i < A_N; i++)
        c->same[i] = -1;
    rc_shapes(c);
}

/* Breaks one of the problem's sizes or attributes (before the shapes are derived). */
static void mutate_param(fz_input *in, struct rcase *c) {
    switch (fz_range(in, 0, 6)) {
    case 0: {
        const int64_t hs = c->head_size;
        const int64_t picks[] = {0,
                                 -1,
                                 sat_add(hs, 1),
                                 sat_add(hs, -1),
                                 hs / 2,
                                 sat_mul(hs, 2),
                                 sat_add(hs, 16),
                                 sat_add(c->rot_dim, -16),
                                 INT64_MIN,
                                 INT64_MAX};
        c->head_size = fz_bool(in) ? fz_pick(in, picks, 10) : fz_int(in, -4, 512);
        if (fz_bool(in) && c->head_size > 0 && c->head_size <= 512) { /* heads follow */
            c->q_cols = c->head_size * fz_range(in, 1, 3);
            c->k_cols = c->head_size * fz_range(in, 1, 3);
        }
        break;
    }
    case 1: {
        const int64_t r = c->rot_dim, hs = c->head_size;
        const int64_t picks[] = {sat_add(r, 1),
                                 sat_add(r, -1),
                                 sat_add(r, 16),
                                 sat_add(r, 32),
                                 hs,
                                 sat_add(hs, 16),
                                 sat_add(hs, 32),
                                 0,
                                 1,
                                 2};
        c->rot_dim = fz_bool(in) ? fz_pick(in, picks, 10) : fz_int(in, -2, 300);
        break;
    }
    case 2:
        c->max_pos = fz_int(in, 0, 64);
        break;
    case 3: { /* any sections: count, values, extreme sums */
        c->sec_null = fz_u8(in) >= 240;
        c->nsec = (uint64_t)fz_range(in, 0, 6);
        for (uint64_t i = 0; i < c->nsec; i++)
            c->sec[i] = fz_bool(in) ? fz_pick(in, kSectionValues, 10) : fz_int(in, -2, 70);
        if (c->nsec > 0 && fz_bool(in))
            c->sec[fz_range(in, 0, (int64_t)c->nsec - 1)] = fz_pick(in, kHuge, 6);
        int64_t sum = 0;
        bool small = true;
        for (uint64_t i = 0; i < c->nsec; i++) {
            small &= c->sec[i] >= 0 && c->sec[i] <= 128;
            sum += small ? c->sec[i] : 0;
        }
        if (small && c->nsec > 0 && c->sec[0] > 0 && fz_bool(in)) { /* sizes follow the sum */
            const int64_t align = align_of(c->xdt);
            c->rot_dim = 2 * sum;
            c->head_size = (c->rot_dim + align - 1) / align * align;
            c->q_cols = c->head_size * fz_range(in, 1, 2);
            c->k_cols = c->head_size * fz_range(in, 1, 2);
        }
        break;
    }
    case 4:
        c->cache_mode = fz_int(in, -2, 3);
        break;
    case 5:
        c->tokens = fz_bool(in) ? 0 : fz_int(in, 0, 300);
        break;
    default:
        if (fz_bool(in))
            c->q_cols = fz_bool(in) ? 0 : fz_int(in, 0, 600);
        else
            c->k_cols = fz_bool(in) ? 0 : fz_int(in, 0, 600);
        break;
    }
}

/* Breaks one view's dtype, rank or dims (after the shapes are derived). */
static void mutate_view(fz_input *in, struct rcase *c) {
    struct rv *v = &c->v[fz_range(in, 0, A_N - 1)];
    switch (fz_range(in, 0, 4)) {
    case 0:
        v->dt = (aclDataType)fz_pick(in, kAnyDtypes, sizeof kAnyDtypes / sizeof kAnyDtypes[0]);
        break;
    case 1: {
        const uint64_t nd = (uint64_t)fz_range(in, 0, 9);
        for (uint64_t d = v->ndim; d < nd; d++)
            v->dims[d] = fz_range(in, 1, 3);
        v->ndim = nd;
        break;
    }
    case 2:
        if (v->ndim > 0)
            v->dims[fz_range(in, 0, (int64_t)v->ndim - 1)] = fz_int(in, -2, 300);
        break;
    case 3: { /* positions of another shape: [T] vs [m, T], wrong m or T */
        struct rv *p = &c->v[A_POS];
        p->ndim = (uint64_t)fz_range(in, 0, 3);
        p->dims[0] = fz_range(in, 0, 6);
        p->dims[1] = sat_add(c->tokens, fz_range(in, -1, 1));
        p->dims[2] = fz_range(in, 1, 2);
        if (p->ndim == 1)
            p->dims[0] = sat_add(c->tokens, fz_range(in, -1, 1));
        break;
    }
    default:
        v->format = (aclFormat)fz_pick(in, kFormats, 5);
        break;
    }
}

/* Aliasing of the valid kinds: in place, fused qkv, q and k over one storage. */
static void alias_base(fz_input *in, struct rcase *c) {
    struct rv *v = c->v;
    switch (c->alias) {
    case 4:
    case 6:
        rv_copy_layout(&v[A_QOUT], &v[A_Q]);
        if (c->alias == 4)
            break;
        /* fall through */
    case 5:
        rv_copy_layout(&v[A_KOUT], &v[A_K]);
        break;
    case 7: { /* fused [T, q | k | v] rows */
        if (v[A_Q].ndim != 2 || v[A_K].ndim != 2)
            break;
        const int64_t qc = v[A_Q].dims[1], kc = v[A_K].dims[1];
        const int64_t w = sat_add(sat_add(qc, sat_mul(2, kc)), fz_range(in, 0, 3));
        struct rv *fused[3] = {&v[A_Q], &v[A_K], &v[A_KOUT]};
        const int64_t at[3] = {0, qc, sat_add(qc, kc)};
        const int views = fz_bool(in) ? 3 : 2; /* keyOut into the v columns, or all in place */
        for (int i = 0; i < views; i++) {
            fused[i]->store = S_EXTRA;
            fused[i]->null_strides = false;
            fused[i]->strides[0] = w;
            fused[i]->strides[1] = 1;
            fused[i]->offset = at[i];
            fused[i]->kind = 11;
            rv_measure(fused[i]);
        }
        if (views == 2) {
            rv_copy_layout(&v[A_QOUT], &v[A_Q]);
            rv_copy_layout(&v[A_KOUT], &v[A_K]);
        }
        break;
    }
    case 8: /* keyIn over queryIn's elements */
        rv_copy_layout(&v[A_K], &v[A_Q]);
        break;
    case 9: /* in place, passing the input tensors again */
        v[A_QOUT] = v[A_Q];
        v[A_KOUT] = v[A_K];
        c->same[A_QOUT] = A_Q;
        c->same[A_KOUT] = A_K;
        break;
    default:
        break;
    }
}

/* Breaks one view's layout or aliasing. */
static void mutate_layout(fz_input *in, struct rcase *c) {
    const int i = (int)fz_range(in, 0, A_N - 1);
    struct rv *v = &c->v[i];
    c->same[i] = -1;
    switch (fz_range(in, 0, 7)) {
    case 0: { /* any strides */
        v->null_strides = false;
        for (uint64_t d = 0; d < v->ndim; d++)
            v->strides[d] = fz_int(in, -40, 40);
        v->kind = 12;
        rv_place(v, fz_range(in, 0, 8));
        c->exotic = true;
        break;
    }
    case 1: {
        v->offset = fz_int(in, 0, 1 << 16);
        rv_measure(v);
        /* moved over storage another argument uses (an output that was its input): the
         * two may interleave without sharing an element, which the library's overlap test
         * may judge conservatively for rows that are not dense, as for case 5 */
        for (int j = 0; j < A_N; j++)
            if (j != i && c->v[j].store == v->store)
                c->exotic = true;
        break;
    }
    case 2: /* storage shapes that miss the view or overflow */
        v->sndim = (uint64_t)fz_range(in, 0, 9);
        for (uint64_t d = 0; d < v->sndim; d++)
            v->sdims[d] = fz_int(in, -1, 64);
        if (v->sndim == 1 && v->state == RV_OK && fz_bool(in))
            v->sdims[0] = v->offset + v->el_hi; /* one element short */
        break;
    case 3:
        v->null_data = true;
        break;
    case 4: { /* an output whose elements share addresses */
        struct rv *o = &c->v[fz_bool(in) ? A_QOUT : A_KOUT];
        if (o->ndim == 2) {
            o->null_strides = false;
            o->strides[0] = fz_bool(in) ? 0 : o->dims[1] / 2;
            o->strides[1] = fz_range(in, 0, 1);
            o->kind = 13;
            rv_place(o, fz_range(in, 0, 4));
        }
        break;
    }
    case 5: { /* an output shifted against its input */
        const int o = fz_bool(in) ? A_QOUT : A_KOUT;
        rv_copy_layout(&c->v[o], &c->v[o - 3]);
        int64_t delta = fz_range(in, 1, 8) * (fz_bool(in) ? 1 : -1);
        c->v[o].offset = sat_add(c->v[o].offset, delta);
        if (c->v[o].state == RV_OK && c->v[o].offset + c->v[o].el_lo < 0)
            c->v[o].offset = -c->v[o].el_lo - delta;
        rv_measure(&c->v[o]);
        c->exotic = true;
        break;
    }
    case 6: { /* a view over another argument's storage */
        v->store = (int)fz_range(in, 0, S_N - 1);
        rv_place(v, fz_range(in, 0, 64));
        c->exotic = true;
        break;
    }
    default: { /* an argument passed as another's tensor */
        const int j = (int)fz_range(in, 0, A_N - 1);
        if (j < i && c->same[j] < 0) {
            c->v[i] = c->v[j];
            c->same[i] = j;
            c->exotic = true;
        }
        break;
    }
    }
}

static void rc_decode(fz_input *in, struct rcase *c) {
    rc_base(in, c);
    const bool broken = fz_u8(in) >= 128;
    int nparam = broken ? (int)fz_range(in, 0, 2) : 0, nview = broken ? (int)fz_range(in, 0, 2) : 0;
    int nlayout = broken ? (int)fz_range(in, 0, 2) : 0;
    if (broken && nparam + nview + nlayout == 0)
        nlayout = 1;
    for (int i = 0; i < nparam; i++)
        mutate_param(in, c);
    if (nparam)
        rc_shapes(c);
    for (int i = 0; i < nview; i++)
        mutate_view(in, c);
    for (int i = 0; i < A_N; i++) {
        if (fz_u8(in) >= 248)
            c->v[i].format = (aclFormat)fz_pick(in, kFormats, 5);
        rv_layout(in, &c->v[i], i >= A_QOUT);
    }
    alias_base(in, c);
    for (int i = 0; i < nlayout; i++)
        mutate_layout(in, c);
    if (broken && fz_u8(in) >= 208)
        c->null_arg = (int)fz_range(in, 0, NULL_EXEC);
    for (int i = 0; i < A_N; i++) {
        struct rv *v = &c->v[i];
        if (c->same[i] < 0 && v->sndim == 0 && v->state == RV_OK && fz_u8(in) >= 232) {
            v->sndim = 1; /* a storage shape that holds the view */
            v->sdims[0] = sat_add(sat_add(v->offset, v->el_hi), 1 + fz_range(in, 0, 4));
        }
        rv_measure(v);
        if (v->state == RV_OK && v->lo < 0) /* an offset drawn too small for negative strides */
            rv_place(v, 0);
        if (c->same[i] >= 0)
            *v = c->v[c->same[i]];
    }
}

/* ---- the model of SPEC §5.5 rows 0-15 ---- */

static bool same_shape(const struct rv *a, const struct rv *b) {
    if (a->ndim != b->ndim)
        return false;
    for (uint64_t i = 0; i < a->ndim; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    return true;
}

static bool whitelisted(const struct rcase *c) {
    return c->nsec <= 4 && tk_aclnn_mrope_whitelisted(c->sec, (int)c->nsec);
}

static bool rc_mrope(const struct rcase *c) {
    return !c->sec_null && c->nsec > 0 && c->sec[0] > 0;
}

/* The first rule (SPEC §5.5's rows) the call breaks, given which tensors were passed; its
 * code is the library's table's (testkit/rules.h). */
static enum tk_rope_rule model_rule(const struct rcase *c, const bool passed[A_N]) {
    const struct rv *v = c->v;
    if (c->api == 2 && c->cache_mode != 0 && c->cache_mode != 1)
        return TK_ROPE_RULE_CACHE_MODE;
    for (int i = 0; i < A_N; i++)
        if (!passed[i])
            return TK_ROPE_RULE_NULL;
    if (c->null_arg == NULL_WS || c->null_arg == NULL_EXEC)
        return TK_ROPE_RULE_NULL;
    for (int i = 0; i < A_N; i++)
        if (v[i].state == RV_OVERFLOW)
            return TK_ROPE_RULE_LAYOUT;
    for (int i = 0; i < A_N; i++)
        if (v[i].null_data && v[i].state == RV_OK)
            return TK_ROPE_RULE_DATA_NULL;
    if (v[A_POS].dt != ACL_INT64)
        return TK_ROPE_RULE_POS_DTYPE;
    if (!tk_acl_is_float(v[A_Q].dt))
        return TK_ROPE_RULE_DTYPE;
    for (int i = A_K; i < A_N; i++)
        if (v[i].dt != v[A_Q].dt)
            return TK_ROPE_RULE_DTYPE;
    if (v[A_Q].ndim != 2 || v[A_K].ndim != 2 || v[A_CACHE].ndim != 2)
        return TK_ROPE_RULE_RANK;
    if (rv_numel(&v[A_Q]) == 0 || rv_numel(&v[A_K]) == 0 || rv_numel(&v[A_CACHE]) == 0 ||
        rv_numel(&v[A_POS]) == 0)
        return TK_ROPE_RULE_EMPTY;
    const int64_t tokens = v[A_Q].dims[0], rot = v[A_CACHE].dims[1], hs = c->head_size;
    if (v[A_K].dims[0] != tokens)
        return TK_ROPE_RULE_TOKENS;
    if (!same_shape(&v[A_QOUT], &v[A_Q]) || !same_shape(&v[A_KOUT], &v[A_K]))
        return TK_ROPE_RULE_OUT_SHAPE;
    int64_t sum = 0, twice;
    if (!c->sec_null) {
        if (c->nsec != 3 && c->nsec != 4)
            return TK_ROPE_RULE_SECTIONS;
        for (uint64_t i = 0; i < c->nsec; i++)
            if (c->sec[i] < 0 || __builtin_add_overflow(sum, c->sec[i], &sum))
                return TK_ROPE_RULE_SECTIONS;
    }
    const bool mrope = rc_mrope(c);
    if (mrope && (__builtin_mul_overflow(sum, 2, &twice) || twice != rot || !whitelisted(c)))
        return TK_ROPE_RULE_SECTION_VALUES;
    if (hs < 1)
        return TK_ROPE_RULE_HEAD_SIZE;
    if (mrope && c->api == 2 && c->cache_mode != 0 && c->nsec != 3)
        return TK_ROPE_RULE_MODE_SECTIONS;
    if (v[A_Q].dims[1] % hs != 0 || v[A_K].dims[1] % hs != 0)
        return TK_ROPE_RULE_HEADS;
    const int64_t align = align_of(v[A_Q].dt);
    if (hs % align != 0 || rot % align != 0)
        return TK_ROPE_RULE_ALIGN;
    if (rot > hs || rot < 2)
        return TK_ROPE_RULE_ROT_DIM;
    const struct rv *p = &v[A_POS];
    const bool pos_ok = mrope
                            ? p->ndim == 2 && p->dims[0] == (int64_t)c->nsec && p->dims[1] == tokens
                            : p->ndim == 1 && p->dims[0] == tokens;
    return pos_ok ? TK_ROPE_RULE_NONE : TK_ROPE_RULE_POS_SHAPE;
}

/* The code of the first row the call breaks (ACLNN_SUCCESS when none). */
static aclnnStatus model_code(const struct rcase *c, const bool passed[A_N]) {
    return (aclnnStatus)tk_rope_rule_code(model_rule(c, passed));
}

/* 1 when an output shares a byte with itself, the other output or an input other than its
 * own exact in-place input; 0 when not; -1 when the views are too large to walk. */
static int true_overlap(const struct rcase *c, const bool passed[A_N], const size_t size[S_N]) {
    int64_t walk = 0;
    for (int i = 0; i < A_N; i++)
        if (passed[i] && c->v[i].state == RV_OK)
            walk = sat_add(walk, rv_numel(&c->v[i]));
    if (walk > RF_WALK_ELEMS)
        return -1;
    uint8_t *mask[S_N] = {0};
    int found = 0;
    for (int o = A_QOUT; o < A_N && !found; o++) {
        const struct rv *v = &c->v[o];
        if (!passed[o] || v->state != RV_OK)
            continue;
        const uint8_t bit = (uint8_t)(1u << (o - A_QOUT));
        if (!mask[v->store])
            mask[v->store] = calloc(size[v->store] ? size[v->store] : 1, 1);
        FZ_CHECK(mask[v->store], "out of memory");
        const int64_t n = rv_numel(v), item = item_of(v->dt);
        for (int64_t e = 0; e < n && !found; e++)
            for (int64_t b = rv_flat(v, e), k = 0; k < item; k++) {
                found |= (mask[v->store][b + k] & bit) != 0;
                mask[v->store][b + k] |= bit;
            }
    }
    for (int i = 0; i < A_N && !found; i++) {
        const struct rv *v = &c->v[i];
        if (!passed[i] || v->state != RV_OK || !mask[v->store])
            continue;
        uint8_t forbidden = 0;
        for (int o = A_QOUT; o < A_N; o++)
            if (o != i && !(i == o - 3 && rv_same_mapping(v, &c->v[o])))
                forbidden |= (uint8_t)(1u << (o - A_QOUT));
        const int64_t n = rv_numel(v), item = item_of(v->dt);
        for (int64_t e = 0; e < n && !found; e++)
            for (int64_t b = rv_flat(v, e), k = 0; k < item; k++)
                found |= (mask[v->store][b + k] & forbidden) != 0;
    }
    for (int s = 0; s < S_N; s++)
        free(mask[s]);
    return found;
}

/* ---- buffers ---- */

struct rbufs {
    fz_arena arena;
    uint8_t *buf[S_N];
    size_t size[S_N];
};

/* Allocates every storage a view uses; false when a valid view is larger than the arena. */
static bool bufs_alloc(const struct rcase *c, struct rbufs *b) {
    bool used[S_N] = {false};
    int64_t need[S_N] = {0};
    for (int i = 0; i < A_N; i++) {
        const struct rv *v = &c->v[i];
        used[v->store] = true;
        if (v->state == RV_OK && v->hi > need[v->store])
            need[v->store] = v->hi;
        if (v->state == RV_OVERFLOW && need[v->store] < 64)
            need[v->store] = 64; /* a small buffer: the library must refuse the view */
    }
    for (int s = 0; s < S_N; s++) {
        if (!used[s])
            continue;
        if (need[s] > (int64_t)FZ_ARENA_LIMIT)
            return false;
        b->size[s] = (size_t)need[s];
        b->buf[s] = fz_alloc(&b->arena, b->size[s]);
        if (!b->buf[s])
            return false;
    }
    return true;
}

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Values in [-2, 2); some inputs sprinkle or fill in arbitrary bit patterns. */
static void fill_store(fz_input *in, uint8_t *buf, size_t bytes, aclDataType dt) {
    const ropekit_dtype rdt = (ropekit_dtype)(tk_acl_is_float(dt) ? dt : ACL_FLOAT);
    const size_t w = ropekit_dtype_size(rdt);
    const uint8_t mode = fz_u8(in);
    fz_fill_float(in, buf, bytes / w, rdt, false);
    if (mode < 192)
        return;
    uint64_t s = fz_bits(in, 8) | 1;
    for (size_t e = 0; e + w <= bytes; e += w)
        if (mode >= 240 || (rng_next(&s) & 7) == 0)
            for (size_t k = 0; k < w; k++)
                buf[e + k] = (uint8_t)(rng_next(&s) >> 32);
}

/* Positions in [0, maxSeqLen) through the positions view; sometimes one out of range. */
static void fill_positions(fz_input *in, struct rcase *c, struct rbufs *b) {
    const struct rv *p = &c->v[A_POS];
    if (p->state != RV_OK || item_of(p->dt) != 8)
        return;
    const int64_t m =
        c->v[A_CACHE].ndim == 2 && c->v[A_CACHE].dims[0] > 0 ? c->v[A_CACHE].dims[0] : 1;
    const int64_t n = rv_numel(p);
    uint64_t s = fz_bits(in, 8) | 1;
    for (int64_t e = 0; e < n && e < RF_WALK_ELEMS; e++) {
        int64_t val = (int64_t)(rng_next(&s) % (uint64_t)m);
        memcpy(b->buf[p->store] + rv_flat(p, e), &val, 8);
    }
    if (fz_u8(in) >= 232) {
        const int64_t bad[] = {m, sat_add(m, 1), -1, -m, INT64_MAX, INT64_MIN, (int64_t)1 << 40};
        int64_t val = fz_pick(in, bad, 7);
        memcpy(b->buf[p->store] + rv_flat(p, fz_range(in, 0, n - 1)), &val, 8);
        c->pos_bad = true;
    }
}

/* A position value the run reads is outside [0, maxSeqLen) (read from the snapshot). */
static bool positions_out_of_range(const struct rcase *c, const struct rbufs *b) {
    const struct rv *p = &c->v[A_POS];
    const uint8_t *pos = fz_saved(&b->arena, b->buf[p->store]);
    const int64_t m = c->v[A_CACHE].dims[0], tokens = c->v[A_Q].dims[0];
    const int64_t rows = rc_mrope(c) ? (int64_t)c->nsec : 1;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t t = 0; t < tokens; t++) {
            int64_t val;
            memcpy(&val, pos + (p->ndim == 1 ? rv_at(p, t, 0) : rv_at(p, r, t)), 8);
            if (val < 0 || val >= m)
                return true;
        }
    return false;
}

/* ---- calls ---- */

struct rtensors {
    aclTensor *t[A_N];
    aclIntArray *sec;
};

static void tensors_make(const struct rcase *c, const struct rbufs *b, struct rtensors *rt,
                         bool check) {
    memset(rt, 0, sizeof *rt);
    for (int i = 0; i < A_N; i++) {
        const struct rv *v = &c->v[i];
        if (c->same[i] >= 0) {
            rt->t[i] = rt->t[c->same[i]];
            continue;
        }
        rt->t[i] = aclCreateTensor(v->dims, v->ndim, v->dt, v->null_strides ? NULL : v->strides,
                                   v->offset, v->format, v->sndim ? v->sdims : NULL, v->sndim,
                                   v->null_data ? NULL : b->buf[v->store]);
        if (!check)
            continue;
        const int want = rv_creatable(v);
        const char *msg = aclGetRecentErrMsg();
        FZ_CHECK(want < 0 || (rt->t[i] != NULL) == (want == 1),
                 "aclCreateTensor(%s) %s, expected it to %s; message \"%s\"", kNames[i],
                 rt->t[i] ? "accepted" : "refused", want ? "accept" : "refuse", msg);
        FZ_CHECK(rt->t[i] || strstr(msg, "aclCreateTensor"),
                 "aclCreateTensor(%s) refused without a message: \"%s\"", kNames[i], msg);
    }
    if (!c->sec_null) {
        rt->sec = aclCreateIntArray(c->sec, c->nsec);
        FZ_CHECK(rt->sec, "aclCreateIntArray(%llu values) failed", (unsigned long long)c->nsec);
    }
}

static void tensors_free(const struct rcase *c, struct rtensors *rt) {
    for (int i = 0; i < A_N; i++)
        if (c->same[i] < 0 && rt->t[i])
            aclDestroyTensor(rt->t[i]);
    if (rt->sec)
        aclDestroyIntArray(rt->sec);
    memset(rt, 0, sizeof *rt);
}

static aclnnStatus phase1(const struct rcase *c, const struct rtensors *rt, uint64_t *ws,
                          aclOpExecutor **exec) {
    aclTensor *t[A_N];
    for (int i = 0; i < A_N; i++)
        t[i] = c->null_arg == i ? NULL : rt->t[i];
    uint64_t *w = c->null_arg == NULL_WS ? NULL : ws;
    aclOpExecutor **e = c->null_arg == NULL_EXEC ? NULL : exec;
    if (c->api == 1)
        return aclnnRopeWithSinCosCacheGetWorkspaceSize(t[0], t[1], t[2], t[3], rt->sec,
                                                        c->head_size, c->neox, t[4], t[5], w, e);
    return aclnnRopeWithSinCosCacheV2GetWorkspaceSize(t[0], t[1], t[2], t[3], rt->sec, c->head_size,
                                                      c->neox, c->cache_mode, t[4], t[5], w, e);
}

static aclnnStatus phase2(int api, void *ws, uint64_t ws_size, aclOpExecutor *e,
                          aclrtStream stream) {
    if (api == 1)
        return aclnnRopeWithSinCosCache(ws, ws_size, e, stream);
    return aclnnRopeWithSinCosCacheV2(ws, ws_size, e, stream);
}

/* Leaves a message no rope call writes, so that a stale one is not taken for theirs. */
static void message_reset(void) {
    (void)aclrtGetDeviceCount(NULL);
}

static void expect_message(const char *when, const char *needle) {
    const char *m = aclGetRecentErrMsg();
    FZ_CHECK(m && strstr(m, "RopeWithSinCosCache") && (!needle || strstr(m, needle)),
             "%s: message \"%s\" does not name the API%s%s", when, m ? m : "(null)",
             needle ? " and " : "", needle ? needle : "");
}

static void expect_unchanged(const struct rbufs *b, const char *when) {
    const int changed = fz_changed(&b->arena);
    FZ_CHECK(changed < 0, "%s, but arena buffer %d changed", when, changed);
}

/* ---- checking an accepted run ---- */

/* Nothing outside the outputs' bytes changed. */
static void check_only_outputs(const struct rcase *c, const struct rbufs *b) {
    for (int s = 0; s < S_N; s++) {
        if (!b->buf[s])
            continue;
        uint8_t *out = calloc(b->size[s] ? b->size[s] : 1, 1);
        FZ_CHECK(out, "out of memory");
        for (int o = A_QOUT; o < A_N; o++) {
            const struct rv *v = &c->v[o];
            if (v->store != s)
                continue;
            const int64_t n = rv_numel(v), item = item_of(v->dt);
            for (int64_t e = 0; e < n; e++)
                memset(out + rv_flat(v, e), 1, (size_t)item);
        }
        const uint8_t *saved = fz_saved(&b->arena, b->buf[s]);
        for (size_t k = 0; k < b->size[s]; k++)
            FZ_CHECK(out[k] || b->buf[s][k] == saved[k],
                     "the run wrote byte %zu of the %s storage, which no output covers", k,
                     kNames[s]);
        free(out);
    }
}

static void check_reference(const struct rcase *c, const struct rbufs *b) {
    const struct rv *pos = &c->v[A_POS], *cache = &c->v[A_CACHE];
    const int64_t tokens = c->v[A_Q].dims[0], rot = cache->dims[1], h = rot / 2;
    const int64_t hs = c->head_size;
    const struct tk_rope_select sel = {c->sec_null ? 0 : (int)c->nsec, c->sec,
                                       c->api == 2 ? c->cache_mode : 0};
    const ropekit_dtype dt = (ropekit_dtype)c->v[A_Q].dt;
    const struct tk_tol tol = tk_tol_of(dt);
    const int64_t item = item_of(c->v[A_Q].dt);
    double *x = malloc(sizeof(double) * (size_t)(4 * rot));
    FZ_CHECK(x, "out of memory");
    double *out = x + rot, *cc = out + rot, *ss = cc + h, *mag = ss + h;
    const uint8_t *pd = fz_saved(&b->arena, b->buf[pos->store]);
    const uint8_t *cd = fz_saved(&b->arena, b->buf[cache->store]);
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    for (int64_t t = 0; t < tokens; t++) {
        for (int64_t j = 0; j < h; j++) {
            const int row = tk_rope_src_row(&sel, j);
            int64_t p;
            memcpy(&p, pd + (pos->ndim == 1 ? rv_at(pos, t, 0) : rv_at(pos, row, t)), 8);
            cc[j] = tk_load(cd + rv_at(cache, p, j), dt);
            ss[j] = tk_load(cd + rv_at(cache, p, h + j), dt);
        }
        for (int side = 0; side < 2; side++) {
            const struct rv *vi = &c->v[A_Q + side], *vo = &c->v[A_QOUT + side];
            const uint8_t *xin = fz_saved(&b->arena, b->buf[vi->store]);
            const uint8_t *got = b->buf[vo->store];
            for (int64_t hd = 0; hd < vi->dims[1] / hs; hd++) {
                const int64_t base = hd * hs;
                for (int64_t i = 0; i < rot; i++)
                    x[i] = tk_load(xin + rv_at(vi, t, base + i), dt);
                tk_rope_ref_head(c->neox, rot, x, cc, ss, out, mag, false);
                for (int64_t i = 0; i < rot; i++) {
                    const double g = tk_load(got + rv_at(vo, t, base + i), dt);
                    FZ_CHECK(tk_err_check(&st, &tol, g, out[i], mag[i], i),
                             "%s[%lld][%lld]: got %.9g, reference %.9g (bound %.3g, x %.9g)",
                             kNames[A_QOUT + side], (long long)t, (long long)(base + i), g, out[i],
                             st.first_bound, x[i]);
                }
                for (int64_t i = rot; i < hs; i++)
                    FZ_CHECK(memcmp(got + rv_at(vo, t, base + i), xin + rv_at(vi, t, base + i),
                                    (size_t)item) == 0,
                             "%s[%lld][%lld]: pass-through element changed", kNames[A_QOUT + side],
                             (long long)t, (long long)(base + i));
            }
        }
    }
    free(x);
}

/* The same call with the scalar kernels on one thread, on the same inputs, must give the same
 * bytes everywhere. */
static void check_scalar_rerun(const struct rcase *c, struct rbufs *b) {
    uint8_t *result[S_N] = {0};
    for (int s = 0; s < S_N; s++) {
        if (!b->buf[s])
            continue;
        result[s] = malloc(b->size[s] ? b->size[s] : 1);
        FZ_CHECK(result[s], "out of memory");
        memcpy(result[s], b->buf[s], b->size[s]);
    }
    fz_restore(&b->arena);
    ropekit_set_max_isa(ROPEKIT_ISA_SCALAR);
    ropekit_set_num_threads(1);
    struct rtensors rt;
    struct rcase plain = *c;
    plain.null_arg = -1;
    tensors_make(&plain, b, &rt, false);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus st = phase1(&plain, &rt, &ws, &e);
    FZ_CHECK(st == ACLNN_SUCCESS, "scalar rerun: phase 1 %d: %s", (int)st, aclGetRecentErrMsg());
    st = phase2(c->api, NULL, ws, e, g_stream);
    FZ_CHECK(st == ACLNN_SUCCESS, "scalar rerun: phase 2 %d: %s", (int)st, aclGetRecentErrMsg());
    aclError se = aclrtSynchronizeStream(g_stream);
    FZ_CHECK(se == ACL_SUCCESS, "scalar rerun: sync %d: %s", (int)se, aclGetRecentErrMsg());
    tensors_free(&plain, &rt);
    ropekit_set_max_isa(g_isa);
    ropekit_set_num_threads(0);
    for (int s = 0; s < S_N; s++) {
        if (!b->buf[s])
            continue;
        for (size_t k = 0; k < b->size[s]; k++)
            FZ_CHECK(result[s][k] == b->buf[s][k],
                     "%s storage byte %zu: 0x%02x, scalar 1-thread rerun 0x%02x", kNames[s], k,
                     result[s][k], b->buf[s][k]);
        free(result[s]);
    }
}

static void check_run(const struct rcase *c, struct rbufs *b) {
    check_only_outputs(c, b);
    int64_t outputs = rv_numel(&c->v[A_QOUT]) + rv_numel(&c->v[A_KOUT]);
    if (outputs <= RF_REF_ELEMS)
        check_reference(c, b);
    check_scalar_rerun(c, b);
}

/* ---- phase 2 and the stream ---- */

enum { P2_PLAIN, P2_NULL_EXEC, P2_OTHER_API, P2_REPEAT, P2_REBIND, P2_REBIND_NULL };

static const char *const kP2Names[] = {"plain",  "NULL executor", "other API",
                                       "repeat", "rebind",        "rebind NULL"};

/* Rebinds every address to what phase 1 saw; a NULL at `null_slot` (0..5, or -1). */
static void rebind(const struct rcase *c, const struct rbufs *b, struct rtensors *rt,
                   aclOpExecutor *e, int null_slot) {
    for (int i = 0; i < A_N; i++) {
        void *addr = i == null_slot ? NULL : b->buf[c->v[i].store];
        aclnnStatus st = i < A_QOUT
                             ? aclSetInputTensorAddr(e, (size_t)i, rt->t[i], addr)
                             : aclSetOutputTensorAddr(e, (size_t)(i - A_QOUT), rt->t[i], addr);
        FZ_CHECK(st == ACLNN_SUCCESS, "rebinding %s: %d", kNames[i], (int)st);
    }
    message_reset();
    FZ_CHECK(aclSetOutputTensorAddr(e, 2, NULL, b->buf[A_QOUT]) == ACLNN_ERR_PARAM_INVALID,
             "aclSetOutputTensorAddr accepted output index 2");
}

/* Phase 2 in one of its variants, then the sync. */
static void run_phase2(fz_input *in, const struct rcase *c, struct rbufs *b, struct rtensors *rt,
                       aclOpExecutor *e, uint64_t ws) {
    static uint8_t workspace[64];
    const int variant = (int)fz_range(in, 0, 11) > 5 ? P2_PLAIN : (int)fz_range(in, 0, 5);
    const aclrtStream stream = fz_bool(in) ? g_stream : NULL;
    /* a buffer of any size, or NULL with the reported size; NULL with more is refused */
    const int ws_mode = (int)fz_range(in, 0, 7);
    void *wptr = ws_mode == 1 || ws_mode == 2 ? workspace : NULL;
    const uint64_t wsize = ws_mode == 2 ? ws + fz_bits(in, 4) : ws_mode == 3 ? ws + 1 : ws;
    const bool ws_refused = !wptr && wsize > 0;
    const bool bad_pos = positions_out_of_range(c, b);
    FZ_TRACE("  phase 2: %s, stream %s, workspace %p/%llu, positions %s", kP2Names[variant],
             stream ? "own" : "default", wptr, (unsigned long long)wsize,
             bad_pos ? "out of range" : "in range");
    if (fz_u8(in) >= 192) /* the executor copies what it needs */
        tensors_free(c, rt);
    bool ran = true, idempotent = true;
    for (int o = A_QOUT; o < A_N; o++)
        for (int i = 0; i < A_QOUT; i++)
            idempotent &= c->v[i].store != c->v[o].store;
    message_reset();
    aclnnStatus st;
    switch (variant) {
    case P2_NULL_EXEC:
    case P2_OTHER_API:
        st = phase2(variant == P2_NULL_EXEC ? c->api : 3 - c->api, wptr, wsize,
                    variant == P2_NULL_EXEC ? NULL : e, stream);
        FZ_CHECK(st ==
                     (variant == P2_NULL_EXEC ? ACLNN_ERR_PARAM_NULLPTR : ACLNN_ERR_PARAM_INVALID),
                 "phase 2 with %s: %d", kP2Names[variant], (int)st);
        expect_message("phase 2", NULL);
        FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_SUCCESS, "destroying the executor failed");
        ran = false;
        break;
    case P2_REPEAT:
    case P2_REBIND:
    case P2_REBIND_NULL:
        FZ_CHECK(aclSetAclOpExecutorRepeatable(e) == ACLNN_SUCCESS, "repeatable failed");
        if (variant != P2_REPEAT && rt->t[A_Q])
            rebind(c, b, rt, e, variant == P2_REBIND_NULL ? (int)fz_range(in, 0, A_N - 1) : -1);
        else if (variant == P2_REBIND_NULL)
            idempotent = false; /* tensors destroyed: nothing to rebind, run plainly */
        message_reset();
        st = phase2(c->api, wptr, wsize, e, stream);
        if (ws_refused) {
            FZ_CHECK(st == ACLNN_ERR_PARAM_NULLPTR, "phase 2 with workspace NULL/%llu: %d",
                     (unsigned long long)wsize, (int)st);
            expect_message("phase 2 with a NULL workspace", "workspace");
            ran = false;
        } else if (variant == P2_REBIND_NULL && rt->t[A_Q]) {
            FZ_CHECK(st == ACLNN_ERR_PARAM_NULLPTR, "phase 2 with a NULL address: %d", (int)st);
            expect_message("phase 2 with a NULL address", "NULL");
            ran = false;
        } else {
            FZ_CHECK(st == ACLNN_SUCCESS, "phase 2 (repeatable): %d: %s", (int)st,
                     aclGetRecentErrMsg());
            if (idempotent && fz_bool(in)) {
                st = phase2(c->api, wptr, wsize, e, stream);
                FZ_CHECK(st == ACLNN_SUCCESS, "second phase 2: %d: %s", (int)st,
                         aclGetRecentErrMsg());
            }
        }
        FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_SUCCESS, "destroying the executor failed");
        break;
    default:
        st = phase2(c->api, wptr, wsize, e, stream);
        if (ws_refused) {
            FZ_CHECK(st == ACLNN_ERR_PARAM_NULLPTR, "phase 2 with workspace NULL/%llu: %d",
                     (unsigned long long)wsize, (int)st);
            expect_message("phase 2 with a NULL workspace", "workspace");
            FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_ERR_PARAM_INVALID,
                     "a failed phase 2 did not consume its executor");
            ran = false;
            break;
        }
        FZ_CHECK(st == ACLNN_SUCCESS, "phase 2: %d: %s", (int)st, aclGetRecentErrMsg());
        break;
    }
    message_reset();
    const aclError se = aclrtSynchronizeStream(stream);
    if (!ran) {
        FZ_CHECK(se == ACL_SUCCESS, "sync after a phase 2 that failed: %d", (int)se);
        expect_unchanged(b, "phase 2 failed");
        return;
    }
    if (bad_pos) {
        FZ_CHECK(se == ACL_ERROR_RT_AICORE_EXCEPTION, "sync with a position out of range: %d",
                 (int)se);
        expect_message("sync", "positions");
        expect_unchanged(b, "the task faulted");
        return;
    }
    FZ_CHECK(se == ACL_SUCCESS, "sync: %d: %s", (int)se, aclGetRecentErrMsg());
    check_run(c, b);
}

/* ---- the target ---- */

static void init_once(void) {
    static bool done;
    if (done)
        return;
    done = true;
    FZ_CHECK(aclInit(NULL) == ACL_SUCCESS, "aclInit: %s", aclGetRecentErrMsg());
    FZ_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice: %s", aclGetRecentErrMsg());
    FZ_CHECK(aclrtCreateStream(&g_stream) == ACL_SUCCESS, "aclrtCreateStream: %s",
             aclGetRecentErrMsg());
    g_isa = ropekit_get_active_isa();
}

static void trace_case(const struct rcase *c) {
    if (!getenv("FUZZ_TRACE"))
        return;
    fprintf(stderr, "V%d cacheMode %lld %s %s headSize %lld sections ", c->api,
            (long long)c->cache_mode, c->neox ? "neox" : "gptj",
            ropekit_dtype_name((ropekit_dtype)c->xdt), (long long)c->head_size);
    if (c->sec_null)
        fprintf(stderr, "NULL");
    for (uint64_t i = 0; !c->sec_null && i < c->nsec; i++)
        fprintf(stderr, "%s%lld", i ? "," : "[", (long long)c->sec[i]);
    fprintf(stderr, "%s alias %d null_arg %d%s\n", c->sec_null || !c->nsec ? "" : "]", c->alias,
            c->null_arg, c->exotic ? " exotic" : "");
    for (int i = 0; i < A_N; i++) {
        const struct rv *v = &c->v[i];
        fprintf(stderr, "  %-11s dt %d store %d kind %d state %d off %lld dims", kNames[i],
                (int)v->dt, v->store, v->kind, (int)v->state, (long long)v->offset);
        for (uint64_t d = 0; d < v->ndim && d < RF_MAXD; d++)
            fprintf(stderr, " %lld/%lld", (long long)v->dims[d], (long long)v->strides[d]);
        fprintf(stderr, "%s%s\n", v->null_data ? " data NULL" : "",
                c->same[i] >= 0 ? " (same tensor)" : "");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    init_once();
    /* the front bytes choose the phase-2 variant, so that short inputs reach them too */
    const size_t front = size < RF_PHASE2_BYTES ? size : RF_PHASE2_BYTES;
    fz_input p2 = {data, front}, in = {data + front, size - front};
    struct rcase c;
    rc_decode(&in, &c);
    trace_case(&c);
    struct rbufs b;
    memset(&b, 0, sizeof b);
    fz_arena_init(&b.arena);
    if (!bufs_alloc(&c, &b)) {
        FZ_TRACE("rope: skipped (views larger than the arena)");
        fz_arena_free(&b.arena);
        return 0;
    }
    for (int s = 0; s < S_N; s++)
        if (b.buf[s])
            fill_store(&in, b.buf[s], b.size[s], c.xdt);
    fill_positions(&in, &c, &b);
    fz_snapshot(&b.arena);

    struct rtensors rt;
    tensors_make(&c, &b, &rt, true);
    bool passed[A_N];
    for (int i = 0; i < A_N; i++)
        passed[i] = rt.t[i] != NULL && c.null_arg != i;
    const aclnnStatus want = model_code(&c, passed);
    const int overlap = want == ACLNN_SUCCESS ? true_overlap(&c, passed, b.size) : 0;
    uint64_t ws = UINT64_C(0x5eed5eed5eed5eed);
    aclOpExecutor *const sentinel = (aclOpExecutor *)(uintptr_t)0x5eed;
    aclOpExecutor *e = sentinel;
    message_reset();
    const aclnnStatus st = phase1(&c, &rt, &ws, &e);
    FZ_TRACE("rope: phase 1 %d (model %d, overlap %d)%s", (int)st, (int)want, overlap,
             st == ACLNN_SUCCESS ? " accepted" : " rejected");
    if (want != ACLNN_SUCCESS)
        FZ_CHECK(st == want, "phase 1 returned %d, SPEC §5.5 gives %d; message \"%s\"", (int)st,
                 (int)want, aclGetRecentErrMsg());
    else if (overlap == 1)
        FZ_CHECK(st == ACLNN_ERR_INNER_TILING_ERROR,
                 "phase 1 returned %d for an output sharing bytes with another view; message "
                 "\"%s\"",
                 (int)st, aclGetRecentErrMsg());
    else if (overlap == 0 && !c.exotic)
        FZ_CHECK(st == ACLNN_SUCCESS, "phase 1 refused a valid call (%d): \"%s\"", (int)st,
                 aclGetRecentErrMsg());
    else
        FZ_CHECK(st == ACLNN_SUCCESS || st == ACLNN_ERR_INNER_TILING_ERROR,
                 "phase 1 returned %d: \"%s\"", (int)st, aclGetRecentErrMsg());
    expect_unchanged(&b, st == ACLNN_SUCCESS ? "phase 1 succeeded" : "phase 1 failed");
    if (st != ACLNN_SUCCESS) {
        expect_message("phase 1", NULL);
        FZ_CHECK(ws == UINT64_C(0x5eed5eed5eed5eed) && e == sentinel,
                 "phase 1 failed but wrote its outputs");
    } else {
        FZ_CHECK(ws == 0 && e && e != sentinel, "phase 1: workspace %llu, executor %p",
                 (unsigned long long)ws, (void *)e);
        run_phase2(&p2, &c, &b, &rt, e, ws);
    }
    tensors_free(&c, &rt);
    fz_arena_free(&b.arena);
    return 0;
}
