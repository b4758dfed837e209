/* Fuzz target: the native operators of ropekit/ropekit.h. ropekit_tensor_make;
 * ropekit_partial_rotary (all four modes, both directions, every dtype pair, float64 with
 * float64 (and mixed float64 pairs, refused), ranks 0-9,
 * right-aligned broadcast of cos/sin, any strides: negative, zero, overlapping, huge)
 * and ropekit_rope (NeoX/GPT-J, rotary_dim < head_size, query-only/key-only, 2-D/3-D,
 * mrope with any sections and cache modes 0 to 3, positions in and out of range, in place
 * and out of place), each one-shot or through a plan (executed once, twice, or on a
 * copy of its data at other addresses); ropekit_plan_describe with small buffers;
 * ropekit_plan_destroy; plans handed to the other operator's execute. Extended rope calls
 * (inputs starting with ROPE_EXTENDED_MARKER) add batched token dims ([B, S] positions or
 * [m, B, S] for mrope, query/key [B, S, H*hs] or [B, S, H, hs], fused qkv rows with a pad
 * per batch, heads-major views such as Hugging Face's [B, H, S, hs] through a transpose) and
 * config.offsets (any strides, one per batch or one for all tokens, wrong dtype or shape,
 * position + offset out of range or overflowing int64, or far positions that offsets bring
 * back); plans made with offsets run through ropekit_rope_execute_offsets on the offsets or
 * a copy at another address, plans made without them sometimes with offsets NULL; every
 * plan is also handed the execute it does not take (ropekit_rope_execute of a plan with
 * offsets, offsets given to one without), which must refuse it and write nothing.
 *
 * Oracle: a rejected call returns an error with a message and changes no byte; a call
 * whose every choice was valid (SPEC §3-§5 with §8's relaxations) is accepted; a view
 * whose element count or byte span overflows int64 is refused (it is given a tiny
 * buffer, so an accepting library is caught by ASan); an accepted call gives the same
 * status and bytes as the one-shot call with the scalar kernels on one thread, changes
 * only the bytes of its outputs (no output shares a byte with another operand but its
 * own input in place), never accepts an out-of-range position (the cache row of a token
 * is its position plus its offset, summed by the harness), and for small shapes is
 * within SPEC §6 of the float64 references (testkit/reference.h, testkit/rope_reference.h;
 * a batched call token by token through those cache rows), pass-through elements bit for
 * bit. Where the library's documented checks are conservative (the overlap of views that
 * are not one progression of rows, sharing one block), either outcome passes, an accepted
 * call still judged as above. Views too large for the arena but valid are only
 * planned (plans ignore data pointers). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_arena.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "testkit/half_bits.h"
#include "testkit/reference.h"
#include "testkit/rope_reference.h"
#include "testkit/tolerance.h"
#include "ropekit/ropekit.h"

__extension__ typedef __int128 fz_i128;

#define VIEW_CAP ((int64_t)512 << 10) /* bytes of one view the arena gives room for */
#define REF_MAX 4096                  /* output elements checked against float64 */
#define MAX_BLOCKS 8

static const int64_t kFloats[] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16};
static const int64_t kOddDtypes[] = {ROPEKIT_I64, 2, 3, -1, 28, INT32_MAX};
static const int64_t kHuge[] = {
    (int64_t)1 << 31,  ((int64_t)1 << 32) + 1,
    (int64_t)1 << 40,  (int64_t)1 << 61,
    (int64_t)1 << 62,  INT64_MAX,
    INT64_MIN,         -1,
    INT64_MAX / 2 + 1, INT64_MAX / 3,
    3037000500,        (int64_t)1 << 21,
};

/* ---- decoding helpers ---- */

static int64_t read_dim(fz_input *in, int64_t lo, int64_t hi) {
    uint8_t b = fz_u8(in); /* rare choices on high bytes: an exhausted input reads 0 */
    if (b >= 251)
        return fz_pick(in, kHuge, sizeof kHuge / sizeof kHuge[0]);
    if (b >= 244)
        return 0;
    return fz_range(in, lo, hi);
}

static ropekit_dtype read_float_dtype(fz_input *in, bool *ok) {
    uint8_t b = fz_u8(in);
    if (b < 250)
        return (ropekit_dtype)kFloats[fz_range(in, 0, 2)];
    if (b < 252)
        return ROPEKIT_F64;
    *ok = false;
    return (ropekit_dtype)fz_pick(in, kOddDtypes, sizeof kOddDtypes / sizeof kOddDtypes[0]);
}

/* The coefficients' dtype of data of dtype `data`: float64 goes with float64 only, so
 * after float64 data mostly float64 again (other data reads as read_float_dtype). */
static ropekit_dtype read_coeff_dtype(fz_input *in, ropekit_dtype data, bool *ok) {
    ropekit_dtype d =
        data == ROPEKIT_F64 && fz_u8(in) < 224 ? ROPEKIT_F64 : read_float_dtype(in, ok);
    *ok = *ok && (d == ROPEKIT_F64) == (data == ROPEKIT_F64);
    return d;
}

/* 1-4 mostly, then 5-8; sometimes 0, 9 or negative (which no operator accepts). */
static int32_t read_rank(fz_input *in, int32_t lo, int32_t common, bool *ok) {
    uint8_t b = fz_u8(in);
    if (b < 236)
        return (int32_t)fz_range(in, lo, common);
    if (b < 250)
        return (int32_t)fz_range(in, lo, ROPEKIT_MAX_DIMS);
    *ok = false;
    static const int64_t odd[] = {0, 9, -1, 12, INT32_MIN};
    return (int32_t)fz_pick(in, odd, sizeof odd / sizeof odd[0]);
}

static int64_t item_of(ropekit_dtype d) {
    size_t s = ropekit_dtype_size(d);
    return s ? (int64_t)s : 1;
}

static int64_t wrap_add(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wrap_mul(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* ---- views: descriptor, byte span, memory ---- */

typedef struct fz_view {
    ropekit_tensor t;
    bool bad;       /* rank outside [0, 8] or a negative dim: refused by every operator */
    bool overflow;  /* non-empty, element count or byte span beyond int64: must be refused */
    bool empty;     /* no elements */
    bool dense;     /* strides keep every two elements apart */
    int64_t lo, hi; /* bytes touched, relative to data: [lo, hi) */
    uint8_t *block; /* the arena block holding it (NULL: none) */
    size_t block_bytes;
} fz_view;

static int64_t view_numel(const fz_view *v) {
    int64_t n = 1;
    for (int32_t i = 0; i < v->t.ndim; i++)
        n *= v->t.shape[i];
    return n;
}

static void view_measure(fz_view *v) {
    const ropekit_tensor *t = &v->t;
    v->bad = t->ndim < 0 || t->ndim > ROPEKIT_MAX_DIMS;
    v->overflow = false;
    v->empty = true;
    v->lo = v->hi = 0;
    if (v->bad)
        return;
    const fz_i128 sat = (fz_i128)1 << 70; /* far past int64 */
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
    const fz_i128 item = item_of(t->dtype), limit = (fz_i128)1 << 100;
    fz_i128 lo = 0, hi = 0;
    bool of = numel > INT64_MAX;
    for (int32_t i = 0; i < t->ndim; i++) {
        fz_i128 reach = (fz_i128)(t->shape[i] - 1) * t->strides[i]; /* |.| < 2^126 */
        if (reach > limit || reach < -limit)
            of = true;
        else if (reach * item < 0)
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

/* Whether the arena can give the view the memory it reaches. */
static bool view_holdable(const fz_view *v) {
    return v->bad || v->overflow || v->empty || v->hi - v->lo <= VIEW_CAP;
}

/* Strides of one of the layouts; returns whether they keep elements apart. `strides` is
 * left NULL-equivalent (contiguous via ropekit_tensor_make) when *use_null is set. */
static bool read_strides(fz_input *in, int32_t ndim, const int64_t *shape, int64_t *strides,
                         bool *use_null, bool output) {
    /* an output mostly keeps its elements apart, so that most calls are accepted */
    int kind = (int)fz_range(in, 0, output && fz_u8(in) < 216 ? 7 : 11);
    *use_null = false;
    int32_t n = ndim < 0 ? 0 : ndim > ROPEKIT_MAX_DIMS ? ROPEKIT_MAX_DIMS : ndim;
    if (kind <= 4) { /* contiguous */
        int64_t step = 1;
        for (int32_t i = n - 1; i >= 0; i--) {
            strides[i] = step;
            if (shape[i] > 1 && __builtin_mul_overflow(step, shape[i], &step))
                step = INT64_MAX;
        }
        *use_null = kind <= 2;
        return true;
    }
    if (kind <= 9) { /* permuted, padded, some dims walked backwards; kind 8-9: zeros too */
        int order[ROPEKIT_MAX_DIMS];
        for (int i = 0; i < n; i++)
            order[i] = i;
        for (int i = 0; i + 1 < n; i++) {
            int j = (int)fz_range(in, i, n - 1);
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        uint8_t flips = fz_u8(in), pads = fz_u8(in), zeros = kind >= 8 ? fz_u8(in) : 0;
        int64_t step = 1;
        for (int k = n - 1; k >= 0; k--) {
            int d = order[k];
            strides[d] = (flips >> (d & 7)) & 1 ? -step : step;
            if ((zeros >> (d & 7)) & 1)
                strides[d] = 0;
            int64_t ext = wrap_add(shape[d], (pads >> (d & 7)) & 1 ? fz_range(in, 1, 3) : 0);
            if (ext > 1 && __builtin_mul_overflow(step, ext, &step))
                step = INT64_MAX;
        }
        bool apart = true;
        for (int i = 0; i < n; i++)
            apart = apart && (strides[i] != 0 || shape[i] <= 1);
        return apart;
    }
    for (int32_t i = 0; i < n; i++) /* any strides: small ones overlap, huge ones overflow */
        strides[i] = kind == 10 ? fz_range(in, -6, 6) : fz_int(in, -40, 40);
    return false;
}

/* Builds the descriptor with ropekit_tensor_make and checks what it made. */
static void view_make(fz_input *in, fz_view *v, ropekit_dtype dt, int32_t ndim,
                      const int64_t *shape, bool output) {
    int64_t strides[ROPEKIT_MAX_DIMS + 1] = {0};
    bool use_null;
    memset(v, 0, sizeof *v);
    v->dense = read_strides(in, ndim, shape, strides, &use_null, output);
    v->t = ropekit_tensor_make(NULL, dt, ndim, shape, use_null ? NULL : strides);
    const ropekit_tensor *t = &v->t;
    if (ndim < 0 || ndim > ROPEKIT_MAX_DIMS) {
        FZ_CHECK(t->ndim == -1, "ropekit_tensor_make(ndim %d) gave ndim %d", (int)ndim,
                 (int)t->ndim);
    } else {
        FZ_CHECK(t->ndim == ndim && t->dtype == dt && t->data == NULL,
                 "ropekit_tensor_make(ndim %d) gave ndim %d dtype %d", (int)ndim, (int)t->ndim,
                 (int)t->dtype);
        bool nonempty = true;
        for (int32_t i = 0; i < ndim; i++) {
            FZ_CHECK(t->shape[i] == shape[i], "ropekit_tensor_make shape[%d]", (int)i);
            nonempty = nonempty && shape[i] > 0;
        }
        bool exact = true; /* strides[] is the contiguous layout while it does not overflow */
        for (int32_t i = ndim - 1; i >= 0; i--) {
            if (!use_null)
                FZ_CHECK(t->strides[i] == strides[i], "ropekit_tensor_make stride[%d]", (int)i);
            else if (nonempty && exact && shape[i] > 1)
                FZ_CHECK(t->strides[i] == strides[i],
                         "ropekit_tensor_make(strides NULL) stride[%d] = %lld, contiguous is %lld",
                         (int)i, (long long)t->strides[i], (long long)strides[i]);
            exact = exact && strides[i] != INT64_MAX;
        }
    }
    if (fz_u8(in) == 255) { /* a hand-written descriptor of a rank no operator takes */
        v->t.ndim = fz_bool(in) ? ROPEKIT_MAX_DIMS + 1 : -3;
        v->dense = false;
    }
    view_measure(v);
}

/* Memory for a view: its own block of exactly its span, so ASan sees any byte outside.
 * A view the library must refuse, or one too large, gets a tiny block. */
static bool view_place(fz_arena *a, fz_input *in, fz_view *v) {
    if (v->bad || v->overflow || v->empty || !view_holdable(v)) {
        v->block = (uint8_t *)fz_alloc(a, 8);
        v->block_bytes = 8;
        v->t.data = v->empty && fz_u8(in) >= 224 ? NULL : v->block;
        return v->block != NULL;
    }
    v->block_bytes = (size_t)(v->hi - v->lo);
    v->block = (uint8_t *)fz_alloc(a, v->block_bytes);
    v->t.data = v->block ? v->block - v->lo : NULL;
    return v->block != NULL;
}

/* Places the views at 8-byte offsets of one shared block (offsets chosen by the input, so
 * they may overlap). Returns false when the block would not fit. */
static bool views_share(fz_arena *a, fz_input *in, fz_view **vs, int n) {
    int64_t off[8], total = 0, used = 0;
    for (int i = 0; i < n; i++) {
        if (vs[i]->bad || vs[i]->overflow || vs[i]->empty || !view_holdable(vs[i]))
            return false;
        off[i] = 8 * fz_range(in, 0, (used + 16) / 8);
        used += vs[i]->hi - vs[i]->lo;
        if (off[i] + vs[i]->hi - vs[i]->lo > total)
            total = off[i] + vs[i]->hi - vs[i]->lo;
    }
    uint8_t *block = (uint8_t *)fz_alloc(a, (size_t)total);
    if (!block)
        return false;
    for (int i = 0; i < n; i++) {
        vs[i]->block = block;
        vs[i]->block_bytes = (size_t)total;
        vs[i]->t.data = block + off[i] - vs[i]->lo;
    }
    return true;
}

static void fill_block(fz_input *in, uint8_t *block, size_t bytes, ropekit_dtype dt) {
    if (!tk_dtype_is_float(dt))
        dt = ROPEKIT_F32;
    size_t item = ropekit_dtype_size(dt);
    bool raw = fz_u8(in) >= 232;
    fz_fill_float(in, block, bytes / item, dt, raw);
}

/* Byte offset (from data) of a multi-index. */
static int64_t view_offset(const ropekit_tensor *t, const int64_t *idx) {
    int64_t off = 0, item = item_of(t->dtype);
    for (int32_t i = 0; i < t->ndim; i++)
        off += idx[i] * t->strides[i] * item;
    return off;
}

static bool odo_next(int64_t *idx, const int64_t *shape, int32_t n) {
    for (int32_t d = n - 1; d >= 0; d--) {
        if (++idx[d] < shape[d])
            return true;
        idx[d] = 0;
    }
    return false;
}

/* ---- blocks: byte masks for the footprint checks, results, clones ---- */

typedef struct fz_blocks {
    int n;
    uint8_t *base[MAX_BLOCKS];
    size_t bytes[MAX_BLOCKS];
    uint8_t *mask[MAX_BLOCKS];   /* MASK_* per byte */
    uint8_t *result[MAX_BLOCKS]; /* bytes after the first accepted run */
} fz_blocks;

enum { MASK_OUT = 1, MASK_IN = 2 };

static void blocks_add(fz_blocks *b, const fz_view *v) {
    if (!v->block)
        return;
    for (int i = 0; i < b->n; i++)
        if (b->base[i] == v->block)
            return;
    FZ_CHECK(b->n < MAX_BLOCKS, "too many blocks");
    b->base[b->n] = v->block;
    b->bytes[b->n] = v->block_bytes;
    b->mask[b->n] = NULL;
    b->result[b->n] = NULL;
    b->n++;
}

static void blocks_free(fz_blocks *b) {
    for (int i = 0; i < b->n; i++) {
        free(b->mask[i]);
        free(b->result[i]);
    }
    b->n = 0;
}

static uint8_t *mask_at(fz_blocks *b, const uint8_t *p) {
    for (int i = 0; i < b->n; i++)
        if (p >= b->base[i] && p < b->base[i] + b->bytes[i]) {
            if (!b->mask[i])
                b->mask[i] = (uint8_t *)calloc(b->bytes[i] ? b->bytes[i] : 1, 1);
            FZ_CHECK(b->mask[i], "out of memory");
            return b->mask[i] + (p - b->base[i]);
        }
    FZ_CHECK(false, "address %p outside every block", (const void *)p);
    return NULL;
}

/* Marks the `bytes` bytes at p with `bit`; false when one of them already had a bit of
 * `clash`. */
static bool mark_bytes(fz_blocks *b, const uint8_t *p, int64_t bytes, uint8_t bit, uint8_t clash) {
    bool clean = true;
    uint8_t *m = mask_at(b, p);
    for (int64_t i = 0; i < bytes; i++) {
        clean = clean && !(m[i] & clash);
        m[i] |= bit;
    }
    return clean;
}

static void blocks_save_results(fz_blocks *b) {
    for (int i = 0; i < b->n; i++) {
        free(b->result[i]);
        b->result[i] = (uint8_t *)malloc(b->bytes[i] ? b->bytes[i] : 1);
        FZ_CHECK(b->result[i], "out of memory");
        memcpy(b->result[i], b->base[i], b->bytes[i]);
    }
}

static int blocks_differ(const fz_blocks *b) {
    for (int i = 0; i < b->n; i++)
        if (memcmp(b->result[i], b->base[i], b->bytes[i]) != 0)
            return i;
    return -1;
}

/* Every byte outside the outputs' elements (MASK_OUT) must be as before the call. */
static void check_untouched(const fz_arena *a, fz_blocks *b, const char *api) {
    for (int i = 0; i < b->n; i++) {
        const uint8_t *saved = (const uint8_t *)fz_saved(a, b->base[i]);
        FZ_CHECK(saved, "block without a snapshot");
        for (size_t k = 0; k < b->bytes[i]; k++)
            FZ_CHECK((b->mask[i] && (b->mask[i][k] & MASK_OUT)) || b->base[i][k] == saved[k],
                     "%s changed byte %zu of block %d, outside its outputs", api, k, i);
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

/* ropekit_plan_describe: the full text, then every small buffer a truncated prefix. */
static void check_describe(const ropekit_plan *plan) {
    char full[1024];
    size_t n = ropekit_plan_describe(plan, full, sizeof full);
    FZ_CHECK(n > 0 && n < sizeof full && strlen(full) == n, "describe gave %zu for \"%s\"", n,
             full);
    FZ_CHECK(ropekit_plan_describe(plan, NULL, 0) == n, "describe(NULL, 0) differs");
    FZ_CHECK(ropekit_plan_describe(plan, NULL, 7) == n, "describe(NULL, 7) differs");
    const size_t lens[] = {0, 1, 2, 3, n / 2, n, n + 1};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t len = lens[i];
        char *buf = (char *)malloc(len ? len : 1); /* exactly len: ASan sees one byte more */
        FZ_CHECK(buf, "out of memory");
        memset(buf, 'Z', len ? len : 1);
        size_t got = ropekit_plan_describe(plan, buf, len);
        FZ_CHECK(got == n, "describe into %zu bytes returned %zu, needs %zu", len, got, n);
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

/* Threads and kernel cap of the first run; the rerun uses the scalar kernels on one
 * thread. */
static void config_first(fz_input *in) {
    ropekit_isa detected = ropekit_isa_detected();
    int isa = 3 - (int)fz_range(in, 0, 3); /* 3: what the CPU has */
    FZ_CHECK(ropekit_set_max_isa(isa > (int)detected ? detected : (ropekit_isa)isa) == ROPEKIT_OK,
             "set_max_isa");
    FZ_CHECK(ropekit_set_num_threads((int)fz_range(in, 0, 4)) == ROPEKIT_OK, "set_num_threads");
}

static void config_scalar(void) {
    ropekit_set_max_isa(ROPEKIT_ISA_SCALAR);
    ropekit_set_num_threads(1);
}

static void config_restore(void) {
    ropekit_set_num_threads(0);
    ropekit_set_max_isa(ropekit_isa_detected());
}

static void check_tolerance(struct tk_err_stats *st, ropekit_dtype out, double got, double ref,
                            double mag, const char *what, int64_t id) {
    struct tk_tol tol = tk_tol_of(out);
    if (!tk_err_check(st, &tol, got, ref, mag, id))
        FZ_CHECK(false, "%s element %lld = %.9g, float64 reference %.9g (bound %.3g)", what,
                 (long long)id, got, ref, st->first_bound);
}

/* =================== partial rotary =================== */

typedef struct pr_call {
    fz_view x, c, s;
    bool null_x, null_c, null_s; /* pass NULL descriptors */
    int64_t mode, start, end;
    int64_t direction;
    bool expect_ok;
    bool holdable;
} pr_call;

static const ropekit_tensor *pr_desc(const fz_view *v, bool null) {
    return null ? NULL : &v->t;
}

static ropekit_status pr_oneshot(const pr_call *c) {
    return ropekit_partial_rotary(pr_desc(&c->x, c->null_x), pr_desc(&c->c, c->null_c),
                                  pr_desc(&c->s, c->null_s), (ropekit_rotary_mode)c->mode, c->start,
                                  c->end, (ropekit_direction)c->direction);
}

static ropekit_status pr_plan(const pr_call *c, ropekit_plan **plan) {
    return ropekit_partial_rotary_plan_create(
        pr_desc(&c->x, c->null_x), pr_desc(&c->c, c->null_c), pr_desc(&c->s, c->null_s),
        (ropekit_rotary_mode)c->mode, c->start, c->end, (ropekit_direction)c->direction, plan);
}

static void pr_decode(fz_input *in, pr_call *c) {
    bool ok = true;
    memset(c, 0, sizeof *c);
    ropekit_dtype xdt = read_float_dtype(in, &ok), cdt = read_coeff_dtype(in, xdt, &ok), sdt = cdt;
    if (fz_u8(in) >= 252) {
        sdt = read_float_dtype(in, &ok);
        ok = ok && sdt == cdt;
    }
    const bool big = fz_u8(in) >= 236;
    int32_t rank = read_rank(in, 1, 4, &ok);
    int32_t dims = rank < 0 ? 0 : rank > ROPEKIT_MAX_DIMS + 1 ? ROPEKIT_MAX_DIMS + 1 : rank;
    int64_t xs[ROPEKIT_MAX_DIMS + 1] = {0};
    for (int32_t i = 0; i + 1 < dims; i++)
        xs[i] = read_dim(in, 1, big ? 40 : 4);
    const int64_t d = big ? read_dim(in, 0, 4400) : read_dim(in, 0, 26);
    if (dims > 0)
        xs[dims - 1] = d;

    c->mode = fz_u8(in) < 250 ? fz_range(in, 0, 3) : fz_int(in, -2, 6);
    c->direction = fz_u8(in) < 252 ? fz_range(in, 0, 1) : fz_int(in, -1, 3);
    /* both are int-sized enums: keep the value the library will see */
    c->mode = (int32_t)(uint32_t)(uint64_t)c->mode;
    c->direction = (int32_t)(uint32_t)(uint64_t)c->direction;
    ok = ok && c->mode >= 0 && c->mode <= 3 && (c->direction == 0 || c->direction == 1);
    const int64_t mult = c->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
    int64_t len = d >= 0 && fz_u8(in) < 244 ? mult * fz_range(in, 0, d / mult) : fz_int(in, -2, 30);
    c->start =
        d >= len && len >= 0 && fz_u8(in) < 244 ? fz_range(in, 0, d - len) : fz_int(in, -2, 30);
    c->end = fz_u8(in) < 248 ? wrap_add(c->start, len) : fz_int(in, -2, 40);
    ok = ok && dims >= 1 && 0 <= c->start && c->start <= c->end && c->end <= d &&
         (c->end - c->start) % mult == 0;
    len = wrap_add(c->end, (int64_t)(0 - (uint64_t)c->start)); /* end - start, any values */

    int32_t crank =
        dims >= 1 && fz_u8(in) < 240 ? (int32_t)fz_range(in, 1, dims) : read_rank(in, 1, 4, &ok);
    int32_t cdims = crank < 0 ? 0 : crank > ROPEKIT_MAX_DIMS + 1 ? ROPEKIT_MAX_DIMS + 1 : crank;
    ok = ok && crank >= 1 && crank <= rank;
    int64_t cs[ROPEKIT_MAX_DIMS + 1] = {0};
    for (int32_t k = 0; k + 1 < cdims; k++) {
        int32_t xk = k + (dims - cdims);
        int64_t xd = xk >= 0 && xk < dims - 1 ? xs[xk] : 1;
        uint8_t b = fz_u8(in);
        cs[k] = b < 100 ? 1 : b < 236 ? xd : read_dim(in, 0, 5);
        ok = ok && (cs[k] == 1 || cs[k] == xd);
    }
    if (cdims > 0) {
        cs[cdims - 1] = fz_u8(in) < 248 ? len : read_dim(in, 0, 30);
        ok = ok && cs[cdims - 1] == len;
    }
    int64_t ss[ROPEKIT_MAX_DIMS + 1];
    memcpy(ss, cs, sizeof ss);
    int32_t srank = crank;
    if (fz_u8(in) >= 250) {
        if (fz_bool(in))
            srank = read_rank(in, 1, 4, &ok);
        else if (cdims > 0)
            ss[fz_range(in, 0, cdims - 1)] = read_dim(in, 0, 6);
        bool same = srank == crank;
        for (int32_t i = 0; same && i < cdims; i++)
            same = ss[i] == cs[i];
        ok = ok && same;
    }

    view_make(in, &c->x, xdt, rank, xs, true);
    view_make(in, &c->c, cdt, crank, cs, false);
    view_make(in, &c->s, sdt, srank, ss, false);
    ok = ok && c->x.dense && !c->x.bad && !c->x.overflow && !c->c.bad && !c->c.overflow &&
         !c->s.bad && !c->s.overflow;
    uint8_t nul = fz_u8(in);
    c->null_x = nul == 255;
    c->null_c = nul == 254;
    c->null_s = nul == 253;
    ok = ok && nul < 253;
    c->expect_ok = ok;
    c->holdable = view_holdable(&c->x) && view_holdable(&c->c) && view_holdable(&c->s);
}

static bool pr_noop(const pr_call *c) {
    return c->end == c->start || c->x.empty || c->c.empty || c->s.empty;
}

/* An accepted, non-empty call: the problem must have been valid. Checks the footprint
 * (rotated elements of x apart from each other and from cos/sin), that nothing else
 * changed, and for small shapes the float64 reference. */
static void pr_verify(const fz_arena *a, fz_blocks *b, const pr_call *c) {
    const ropekit_tensor *x = &c->x.t, *cs = &c->c.t, *sn = &c->s.t;
    if (pr_noop(c)) {
        FZ_CHECK(fz_changed(a) < 0, "no-op partial rotary changed buffer %d", fz_changed(a));
        return;
    }
    FZ_CHECK(tk_dtype_is_float(x->dtype) && tk_dtype_is_float(cs->dtype) &&
                 sn->dtype == cs->dtype && (x->dtype == ROPEKIT_F64) == (cs->dtype == ROPEKIT_F64),
             "accepted dtypes x %d cos %d sin %d", (int)x->dtype, (int)cs->dtype, (int)sn->dtype);
    FZ_CHECK(c->mode >= 0 && c->mode <= 3 && (c->direction == 0 || c->direction == 1),
             "accepted mode %lld direction %lld", (long long)c->mode, (long long)c->direction);
    FZ_CHECK(x->ndim >= 1 && cs->ndim >= 1 && cs->ndim <= x->ndim && sn->ndim == cs->ndim,
             "accepted ranks x %d cos %d sin %d", (int)x->ndim, (int)cs->ndim, (int)sn->ndim);
    const int64_t d = x->shape[x->ndim - 1],
                  len = wrap_add(c->end, (int64_t)(0 - (uint64_t)c->start));
    const int64_t mult = c->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
    FZ_CHECK(0 <= c->start && c->start <= c->end && c->end <= d && len % mult == 0,
             "accepted slice [%lld, %lld) of D = %lld in mode %lld", (long long)c->start,
             (long long)c->end, (long long)d, (long long)c->mode);
    const int32_t lead_x = x->ndim - 1, lead_c = cs->ndim - 1;
    for (int32_t k = 0; k < cs->ndim; k++) {
        FZ_CHECK(cs->shape[k] == sn->shape[k], "accepted cos/sin shapes differing in dim %d",
                 (int)k);
        if (k < lead_c) {
            int64_t xd = x->shape[k + lead_x - lead_c];
            FZ_CHECK(cs->shape[k] == 1 || cs->shape[k] == xd,
                     "accepted cos dim %d = %lld against x's %lld", (int)k, (long long)cs->shape[k],
                     (long long)xd);
        }
    }
    FZ_CHECK(cs->shape[lead_c] == len, "accepted cos last dim %lld, slice length %lld",
             (long long)cs->shape[lead_c], (long long)len);

    const int64_t xi = item_of(x->dtype), ci = item_of(cs->dtype);
    const int64_t xcol = x->strides[lead_x] * xi, ccol = cs->strides[lead_c] * ci,
                  scol = sn->strides[lead_c] * ci;
    const uint8_t *xd0 = (const uint8_t *)x->data, *cd0 = (const uint8_t *)cs->data,
                  *sd0 = (const uint8_t *)sn->data;
    const bool reference = view_numel(&c->x) / d * len <= REF_MAX;
    double vin[REF_MAX], cc[REF_MAX], ss[REF_MAX], out[REF_MAX], mag[REF_MAX];
    int64_t idx[ROPEKIT_MAX_DIMS] = {0}, cidx[ROPEKIT_MAX_DIMS] = {0};
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    int64_t row = 0;
    /* pass 1: the rotated elements (written); pass 2: cos and sin (read) */
    for (int pass = 0; pass < 2; pass++) {
        memset(idx, 0, sizeof idx);
        do {
            for (int32_t k = 0; k < lead_c; k++)
                cidx[k] = cs->shape[k] == 1 ? 0 : idx[k + lead_x - lead_c];
            cidx[lead_c] = 0;
            idx[lead_x] = 0;
            const uint8_t *xr = xd0 + view_offset(x, idx) + c->start * xcol;
            const uint8_t *cr = cd0 + view_offset(cs, cidx), *sr = sd0 + view_offset(sn, cidx);
            for (int64_t j = 0; j < len; j++) {
                if (pass == 0) {
                    FZ_CHECK(mark_bytes(b, xr + j * xcol, xi, MASK_OUT, MASK_OUT),
                             "accepted x whose rotated elements share memory (row %lld, %lld)",
                             (long long)row, (long long)j);
                } else {
                    FZ_CHECK(mark_bytes(b, cr + j * ccol, ci, MASK_IN, MASK_OUT) &&
                                 mark_bytes(b, sr + j * scol, ci, MASK_IN, MASK_OUT),
                             "accepted x sharing memory with cos/sin (element %lld)", (long long)j);
                }
            }
            if (pass == 1 && reference) {
                for (int64_t j = 0; j < len; j++) {
                    vin[j] = tk_load(fz_saved(a, xr + j * xcol), x->dtype);
                    cc[j] = tk_load(fz_saved(a, cr + j * ccol), cs->dtype);
                    ss[j] = tk_load(fz_saved(a, sr + j * scol), cs->dtype);
                }
                tk_ref_rotate((int)c->mode, (int)c->direction, len, vin, cc, ss, out, mag,
                              x->dtype == ROPEKIT_F64);
                for (int64_t j = 0; j < len; j++)
                    check_tolerance(&st, x->dtype, tk_load(xr + j * xcol, x->dtype), out[j], mag[j],
                                    ropekit_rotary_mode_name((ropekit_rotary_mode)c->mode),
                                    row * len + j);
            }
            row++;
        } while (odo_next(idx, x->shape, lead_x));
    }
    check_untouched(a, b, "ropekit_partial_rotary");
}

static void pr_clone_and_run(fz_arena *a, fz_blocks *b, const pr_call *c, const ropekit_plan *plan);

static ropekit_status pr_run_variant(fz_arena *a, fz_blocks *b, const pr_call *c, int variant) {
    if (variant == 0)
        return pr_oneshot(c);
    ropekit_plan *plan = (ropekit_plan *)&plan; /* must be overwritten */
    ropekit_status st = pr_plan(c, &plan);
    if (st != ROPEKIT_OK) {
        FZ_CHECK(plan == NULL, "failed plan_create left a plan");
        return st;
    }
    FZ_CHECK(plan != NULL, "plan_create gave no plan");
    check_describe(plan);
    /* the rope execute refuses a partial-rotary plan */
    int64_t pos = 0;
    ropekit_status wrong =
        ropekit_rope_execute(plan, &pos, c->x.t.data, NULL, c->c.t.data, c->x.t.data, NULL);
    FZ_CHECK(wrong == ROPEKIT_INVALID_ARGUMENT, "rope_execute took a partial-rotary plan: %s",
             ropekit_status_name(wrong));
    FZ_CHECK(fz_changed(a) < 0, "rope_execute of a partial-rotary plan wrote");
    ropekit_status nul = ropekit_partial_rotary_execute(plan, NULL, c->c.t.data, c->s.t.data);
    FZ_CHECK(nul == ROPEKIT_OK || nul == ROPEKIT_NULL_POINTER, "execute(x = NULL) gave %s",
             ropekit_status_name(nul));
    FZ_CHECK(fz_changed(a) < 0, "execute(x = NULL) wrote");
    FZ_CHECK(nul == ROPEKIT_NULL_POINTER || pr_noop(c), "execute(x = NULL) accepted");

    st = ropekit_partial_rotary_execute(plan, c->x.t.data, c->c.t.data, c->s.t.data);
    if (st == ROPEKIT_OK && variant >= 2) {
        blocks_save_results(b);
        if (variant == 2) { /* once more on the same, restored data */
            fz_restore(a);
            ropekit_status again =
                ropekit_partial_rotary_execute(plan, c->x.t.data, c->c.t.data, c->s.t.data);
            FZ_CHECK(again == ROPEKIT_OK, "second execute of a plan failed: %s",
                     ropekit_last_error());
            int diff = blocks_differ(b);
            FZ_CHECK(diff < 0, "second execute of a plan differs in block %d", diff);
        } else {
            pr_clone_and_run(a, b, c, plan);
        }
    }
    ropekit_plan_destroy(plan);
    return st;
}

/* Executes the plan on copies of the data at other addresses: same results. */
static void pr_clone_and_run(fz_arena *a, fz_blocks *b, const pr_call *c,
                             const ropekit_plan *plan) {
    uint8_t *clone[MAX_BLOCKS];
    for (int i = 0; i < b->n; i++) {
        clone[i] = (uint8_t *)fz_alloc(a, b->bytes[i]);
        if (!clone[i])
            return;
        memcpy(clone[i], fz_saved(a, b->base[i]), b->bytes[i]);
    }
    const fz_view *vs[3] = {&c->x, &c->c, &c->s};
    void *ptr[3];
    for (int v = 0; v < 3; v++) {
        ptr[v] = vs[v]->t.data;
        for (int i = 0; i < b->n; i++)
            if (vs[v]->block == b->base[i] && ptr[v])
                ptr[v] = clone[i] + ((uint8_t *)vs[v]->t.data - b->base[i]);
    }
    ropekit_status st = ropekit_partial_rotary_execute(plan, ptr[0], ptr[1], ptr[2]);
    FZ_CHECK(st == ROPEKIT_OK, "execute on moved data failed: %s", ropekit_last_error());
    for (int i = 0; i < b->n; i++)
        FZ_CHECK(memcmp(clone[i], b->result[i], b->bytes[i]) == 0,
                 "execute on moved data differs in block %d", i);
}

static void trace_view(const char *name, const fz_view *v) {
    if (!getenv("FUZZ_TRACE"))
        return;
    fprintf(stderr, "  %s %s rank %d shape [", name, ropekit_dtype_name(v->t.dtype),
            (int)v->t.ndim);
    for (int32_t i = 0; i < v->t.ndim && i < ROPEKIT_MAX_DIMS; i++)
        fprintf(stderr, i ? ",%lld" : "%lld", (long long)v->t.shape[i]);
    fprintf(stderr, "] strides [");
    for (int32_t i = 0; i < v->t.ndim && i < ROPEKIT_MAX_DIMS; i++)
        fprintf(stderr, i ? ",%lld" : "%lld", (long long)v->t.strides[i]);
    fprintf(stderr, "]%s%s%s\n", v->dense ? " dense" : "", v->overflow ? " overflow" : "",
            v->bad ? " bad" : "");
}

static void trace_status(const char *op, ropekit_status st) {
    FZ_TRACE("%s -> %s %s", op, st == ROPEKIT_OK ? "accepted" : "rejected",
             st == ROPEKIT_OK ? "" : ropekit_last_error());
}

static void pr_trace(const pr_call *c, int variant) {
    FZ_TRACE("pr variant %d mode %lld dir %lld slice [%lld,%lld) null %d%d%d expect_ok %d "
             "holdable %d",
             variant, (long long)c->mode, (long long)c->direction, (long long)c->start,
             (long long)c->end, c->null_x, c->null_c, c->null_s, c->expect_ok, c->holdable);
    trace_view("x", &c->x);
    trace_view("cos", &c->c);
    trace_view("sin", &c->s);
}

/* Views the arena cannot hold: planning only. When the plan is refused the one-shot
 * call must be refused as well, before it touches the (tiny) buffers. */
static void pr_plan_only(fz_arena *a, const pr_call *c) {
    ropekit_plan *plan = NULL;
    pr_trace(c, -1);
    ropekit_status st = pr_plan(c, &plan);
    trace_status("pr plan only", st);
    if (st == ROPEKIT_OK) {
        FZ_CHECK(!c->x.overflow && !c->c.overflow && !c->s.overflow && !c->x.bad,
                 "plan_create accepted a view whose size overflows int64");
        check_describe(plan);
        ropekit_plan_destroy(plan);
        return;
    }
    FZ_CHECK(plan == NULL, "failed plan_create left a plan");
    fz_snapshot(a);
    ropekit_status one = pr_oneshot(c);
    FZ_CHECK(one == st, "one-shot gave %s, plan_create %s", ropekit_status_name(one),
             ropekit_status_name(st));
    expect_rejected(a, one, "ropekit_partial_rotary");
}

static void fuzz_partial_rotary(fz_input *in, int variant) {
    pr_call c;
    pr_decode(in, &c);
    fz_arena a;
    fz_arena_init(&a);
    fz_blocks b = {0};
    config_first(in);
    if (!c.holdable) {
        pr_plan_only(&a, &c);
        goto done;
    }
    fz_view *vs[3] = {&c.x, &c.c, &c.s};
    uint8_t share = fz_u8(in);
    bool shared = false;
    if (share >= 232) {
        shared = views_share(&a, in, vs, 3); /* x, cos and sin in one block */
    } else if (share >= 216 && !c.c.empty && !c.c.bad && !c.c.overflow) {
        fz_view *cs[2] = {&c.c, &c.s}; /* cos and sin in one block */
        shared = views_share(&a, in, cs, 2) && view_place(&a, in, &c.x);
    }
    if (!shared)
        for (int i = 0; i < 3; i++)
            if (!view_place(&a, in, vs[i]))
                goto done;
    c.expect_ok = c.expect_ok && (share < 232 || !shared);
    for (int i = 0; i < 3; i++)
        blocks_add(&b, vs[i]);
    for (int i = 0; i < b.n; i++)
        fill_block(in, b.base[i], b.bytes[i], i == 0 ? c.x.t.dtype : c.c.t.dtype);
    fz_snapshot(&a);

    pr_trace(&c, variant);
    ropekit_status st = pr_run_variant(&a, &b, &c, variant);
    trace_status("pr", st);
    if (st != ROPEKIT_OK) {
        expect_rejected(&a, st, "ropekit_partial_rotary");
        FZ_CHECK(!c.expect_ok || st == ROPEKIT_NO_MEMORY, "valid partial rotary refused: %s",
                 ropekit_last_error());
    } else {
        FZ_CHECK(!c.x.overflow && !c.c.overflow && !c.s.overflow,
                 "accepted a view whose size overflows int64");
    }
    blocks_save_results(&b);
    fz_restore(&a);
    config_scalar();
    ropekit_status st2 = pr_oneshot(&c);
    config_restore();
    FZ_CHECK(st2 == st, "scalar one-shot rerun gave %s, first run %s (%s)",
             ropekit_status_name(st2), ropekit_status_name(st), ropekit_last_error());
    int diff = blocks_differ(&b);
    FZ_CHECK(diff < 0, "first run and scalar 1-thread rerun differ in block %d", diff);
    if (st == ROPEKIT_OK)
        pr_verify(&a, &b, &c);
done:
    config_restore();
    blocks_free(&b);
    fz_arena_free(&a);
}

/* =================== rope =================== */

/* The operands; offsets (config.offsets) only in extended calls, after the six that every
 * call decodes in this order. */
enum { R_POS, R_QI, R_KI, R_CACHE, R_QO, R_KO, R_COUNT, R_OFF = R_COUNT, R_ALL };

typedef struct rope_call {
    bool extended; /* the choices added with batched token dims and offsets are decoded */
    fz_view v[R_ALL];
    bool present[R_ALL]; /* descriptor passed (else NULL) */
    int views;           /* R_COUNT, or R_ALL with offsets */
    bool q_inplace, k_inplace;
    bool fused; /* q and k views of one qkv block (and their outputs of another) */
    ropekit_rope_config cfg;
    int64_t sections[ROPEKIT_ROPE_MAX_SECTIONS + 2];
    int32_t num_sections_alloc; /* values behind cfg.sections */
    bool sections_null;
    int td;         /* token dims: 1 ([T]) or 2 ([B, S], extended calls only) */
    int64_t tok[2]; /* the query's token dims */
    int64_t tokens, hs, rot, max_pos, hq, hk;
    bool rows_readable; /* positions (and offsets) are the valid views decoded: the harness can
                           read every token's cache row */
    bool out_of_range;  /* a position (+ offset) was set out of range, or may be */
    bool exec_offsets;  /* a plan without offsets runs through execute_offsets(NULL) */
    bool offsets_moved; /* a plan with offsets runs on a copy of the offsets at another address */
    fz_view off_moved;  /* that copy */
    bool expect_ok;
    bool holdable;
} rope_call;

static const ropekit_tensor *rope_desc(const rope_call *c, int i) {
    if (!c->present[i])
        return NULL;
    if (i == R_QO && c->q_inplace)
        return &c->v[R_QI].t;
    if (i == R_KO && c->k_inplace)
        return &c->v[R_KI].t;
    return &c->v[i].t;
}

static const fz_view *rope_view(const rope_call *c, int i) {
    if (i == R_QO && c->q_inplace)
        return &c->v[R_QI];
    if (i == R_KO && c->k_inplace)
        return &c->v[R_KI];
    return &c->v[i];
}

static void *rope_data(const rope_call *c, int i) {
    const ropekit_tensor *t = rope_desc(c, i);
    return t ? t->data : NULL;
}

static ropekit_status rope_oneshot(const rope_call *c) {
    return ropekit_rope(rope_desc(c, R_POS), rope_desc(c, R_QI), rope_desc(c, R_KI),
                        rope_desc(c, R_CACHE), rope_desc(c, R_QO), rope_desc(c, R_KO), &c->cfg);
}

static ropekit_status rope_plan(const rope_call *c, ropekit_plan **plan) {
    return ropekit_rope_plan_create(rope_desc(c, R_POS), rope_desc(c, R_QI), rope_desc(c, R_KI),
                                    rope_desc(c, R_CACHE), rope_desc(c, R_QO), rope_desc(c, R_KO),
                                    &c->cfg, plan);
}

/* A plan made with offsets runs through ropekit_rope_execute_offsets (its offsets' data at
 * ptr[R_OFF]); one without them through ropekit_rope_execute, or when the input says so
 * through ropekit_rope_execute_offsets with offsets NULL, which is the same call. */
static ropekit_status rope_exec(const rope_call *c, const ropekit_plan *plan,
                                void *const ptr[R_ALL]) {
    if (c->present[R_OFF] || c->exec_offsets)
        return ropekit_rope_execute_offsets(plan, (const int64_t *)ptr[R_POS],
                                            c->present[R_OFF] ? (const int64_t *)ptr[R_OFF] : NULL,
                                            ptr[R_QI], ptr[R_KI], ptr[R_CACHE], ptr[R_QO],
                                            ptr[R_KO]);
    return ropekit_rope_execute(plan, (const int64_t *)ptr[R_POS], ptr[R_QI], ptr[R_KI],
                                ptr[R_CACHE], ptr[R_QO], ptr[R_KO]);
}

/* The section count (and for cache mode 2, s0 == s1) each cache mode takes. */
static bool rope_mode_sections_ok(const rope_call *c) {
    const int32_t n = c->num_sections_alloc;
    switch (c->cfg.cache_mode) {
    case 1:
        return n == 3;
    case 2:
        return n == 3 && c->sections[0] == c->sections[1];
    case 3:
        return n == 2 || n == 3;
    default:
        return true;
    }
}

/* Sections summing to h (mostly), in `n` parts cut where the input says. */
static void rope_sections(fz_input *in, rope_call *c, int64_t h, bool *ok) {
    uint8_t b = fz_u8(in);
    c->cfg.cache_mode = fz_u8(in) < 250 ? 0 : fz_int(in, -1, 4);
    *ok = *ok && c->cfg.cache_mode >= 0 && c->cfg.cache_mode <= 3;
    if (b < 140) { /* rope: no sections */
        c->sections_null = fz_bool(in);
        c->cfg.num_sections = c->sections_null ? 0 : (int32_t)fz_range(in, 0, 0);
        c->num_sections_alloc = 0;
        return;
    }
    int32_t n = b < 250 ? (int32_t)fz_range(in, 1, 5)
                        : (int32_t)fz_pick(in, (const int64_t[]){0, 16, 17, -1, INT32_MAX}, 5);
    c->cfg.num_sections = n;
    c->num_sections_alloc = n < 0                               ? 0
                            : n > ROPEKIT_ROPE_MAX_SECTIONS + 2 ? ROPEKIT_ROPE_MAX_SECTIONS + 2
                                                                : n;
    *ok = *ok && n >= 0 && n <= ROPEKIT_ROPE_MAX_SECTIONS;
    int64_t left = h;
    for (int32_t i = 0; i < c->num_sections_alloc; i++) {
        int64_t s = i + 1 == c->num_sections_alloc ? left : fz_range(in, 0, left > 0 ? left : 0);
        if (i == 0 && b < 160)
            s = 0; /* sections[0] == 0: plain rope */
        c->sections[i] = s;
        left -= s;
    }
    if (fz_u8(in) >= 244 && c->num_sections_alloc > 0) /* a wrong or extreme value */
        c->sections[fz_range(in, 0, c->num_sections_alloc - 1)] = fz_int(in, -2, h + 2);
    if (c->num_sections_alloc >= 2 && fz_u8(in) < 60)
        c->cfg.cache_mode = fz_range(in, 1, 3);
    c->sections_null = n > 0 && fz_u8(in) == 255;
    *ok = *ok && !c->sections_null;
    fz_i128 sum = 0;
    for (int32_t i = 0; i < c->num_sections_alloc; i++) {
        *ok = *ok && c->sections[i] >= 0;
        sum += c->sections[i];
    }
    bool mrope = c->num_sections_alloc > 0 && c->sections[0] > 0;
    *ok = *ok && (!mrope || (2 * sum == 2 * (fz_i128)h && rope_mode_sections_ok(c)));
    *ok = *ok && sum <= INT64_MAX;
}

static bool rope_is_mrope(const rope_call *c) {
    return c->cfg.num_sections > 0 && c->cfg.sections && c->cfg.sections[0] > 0;
}

/* Shape of q or k (and its output): the `td` token dims `tok`, then [H*hs] or [H, hs]. */
static int32_t rope_qk_shape(fz_input *in, int64_t *shape, const int64_t *tok, int td, int64_t h,
                             int64_t hs, bool *ok) {
    uint8_t b = fz_u8(in);
    int32_t rank = b < 120 ? td + 1 : b < 250 ? td + 2 : read_rank(in, 1, 4, ok);
    if (b >= 250)
        *ok = *ok && (rank == td + 1 || rank == td + 2);
    for (int d = 0; d < td; d++)
        shape[d] = tok[d];
    if (rank == td + 1) {
        int64_t width;
        *ok = *ok && !__builtin_mul_overflow(h, hs, &width); /* else not H * head_size */
        shape[td] = wrap_mul(h, hs);
    } else {
        shape[td] = h;
        shape[td + 1] = hs;
        for (int32_t i = td + 2; i < rank && i < ROPEKIT_MAX_DIMS + 1; i++)
            shape[i] = 1;
    }
    if (fz_u8(in) >= 250 && rank >= 1 && rank <= ROPEKIT_MAX_DIMS + 1) {
        shape[fz_range(in, 0, rank - 1)] = read_dim(in, 0, 40);
        *ok = false;
    }
    return rank;
}

/* Strides of a fused qkv block: rows of (hq + hk) * hs + pad elements, q then k; batched,
 * S rows and a pad per batch. */
static void rope_fuse(fz_input *in, rope_call *c, int qi, int ki, bool *ok) {
    const int64_t row = (c->hq + c->hk) * c->hs + fz_range(in, 0, 3);
    const int td = c->td;
    const int64_t batch_pad = td == 2 ? fz_range(in, 0, 2) : 0;
    /* rows a batch pad leaves unevenly spaced are no single progression: the library's overlap
     * test may judge q and k of one block conservatively (outputs in place are the inputs) */
    if (batch_pad && c->tok[0] > 1 && c->tok[1] > 1)
        *ok = false;
    fz_view *vs[2] = {&c->v[qi], &c->v[ki]};
    for (int i = 0; i < 2; i++) {
        ropekit_tensor *t = &vs[i]->t;
        t->strides[td - 1] = row;
        if (td == 2)
            t->strides[0] = c->tok[1] * row + batch_pad;
        if (t->ndim == td + 1) {
            t->strides[td] = 1;
        } else {
            t->strides[td] = c->hs;
            t->strides[td + 1] = 1;
        }
        vs[i]->dense = true;
        view_measure(vs[i]);
    }
}

/* A split view [tokens..., H, hs] over heads-major memory: Hugging Face's [B, H, S, hs] (or
 * [H, T, hs]) seen through a transpose, so the batches are not one progression of rows. */
static void rope_heads_major(fz_view *v, int td) {
    ropekit_tensor *t = &v->t;
    if (v->bad || t->ndim != td + 2)
        return;
    int64_t strides[4], step = 1;
    const int order[4] = {td + 1, td - 1, td, 0}; /* hs, S (or T), H, then B: inner to outer */
    for (int k = 0; k < td + 2; k++) {
        const int d = order[k];
        strides[d] = step;
        if (t->shape[d] < 0 ||
            (t->shape[d] > 1 && __builtin_mul_overflow(step, t->shape[d], &step)))
            return;
    }
    memcpy(t->strides, strides, (size_t)(td + 2) * sizeof strides[0]);
    v->dense = true;
    view_measure(v);
}

/* q at the start of each row of one block, k right after q's heads. */
static bool rope_place_fused(fz_arena *a, fz_view *q, fz_view *k, int64_t kshift) {
    const int64_t bytes = q->hi > kshift + k->hi ? q->hi : kshift + k->hi;
    uint8_t *block = (uint8_t *)fz_alloc(a, (size_t)bytes);
    if (!block)
        return false;
    q->block = k->block = block;
    q->block_bytes = k->block_bytes = (size_t)bytes;
    q->t.data = block;
    k->t.data = block + kshift;
    return true;
}

/* Offsets (extended calls): int64 of positions' token dims, any strides, sometimes one per
 * batch (stride 0 over the sequence) or one for every token; sometimes a wrong dtype or
 * shape. */
static void rope_decode_offsets(fz_input *in, rope_call *c, bool *ok) {
    if (fz_u8(in) >= 150)
        return;
    c->present[R_OFF] = true;
    c->views = R_ALL;
    ropekit_dtype dt = ROPEKIT_I64;
    if (fz_u8(in) >= 250)
        dt = (ropekit_dtype)fz_pick(in, (const int64_t[]){ROPEKIT_F64, ROPEKIT_F32, 3}, 3);
    int32_t rank = c->td;
    int64_t shape[ROPEKIT_MAX_DIMS + 1] = {c->tok[0], c->tok[1]};
    if (fz_u8(in) >= 248) {
        rank = read_rank(in, 1, 3, ok);
        shape[fz_range(in, 0, 2)] = read_dim(in, 0, 6);
    }
    bool same = dt == ROPEKIT_I64 && rank == c->td;
    for (int d = 0; same && d < c->td; d++)
        same = shape[d] == c->tok[d];
    *ok = *ok && same;
    fz_view *v = &c->v[R_OFF];
    view_make(in, v, dt, rank, shape, false);
    const uint8_t broadcast = fz_u8(in);
    if (broadcast < 80 && same && !v->bad) {
        v->t.strides[c->td - 1] = 0; /* one per batch, or one for all tokens */
        if (c->td == 2 && broadcast < 40)
            v->t.strides[0] = 1;
        view_measure(v);
    }
    *ok = *ok && !v->bad && !v->overflow;
    c->rows_readable = c->rows_readable && same && !v->bad && !v->overflow;
    c->offsets_moved = fz_u8(in) < 96;
    c->cfg.offsets = &v->t;
}

static void rope_decode(fz_input *in, rope_call *c, bool extended) {
    bool ok = true;
    memset(c, 0, sizeof *c);
    c->extended = extended;
    c->views = R_COUNT;
    ropekit_dtype xdt = read_float_dtype(in, &ok), cdt = read_coeff_dtype(in, xdt, &ok);
    ropekit_dtype pdt = ROPEKIT_I64, kdt = xdt, qodt = xdt, kodt = xdt;
    if (fz_u8(in) >= 250) {
        pdt = (ropekit_dtype)fz_pick(in, (const int64_t[]){ROPEKIT_F32, ROPEKIT_I64, 3}, 3);
        ok = ok && pdt == ROPEKIT_I64;
    }
    if (fz_u8(in) >= 250) {
        int which = (int)fz_range(in, 0, 2);
        ropekit_dtype other = read_float_dtype(in, &ok);
        kdt = which == 0 ? other : kdt;
        qodt = which == 1 ? other : qodt;
        kodt = which == 2 ? other : kodt;
        ok = ok && other == xdt;
    }
    c->cfg.style = fz_u8(in) < 252 ? (ropekit_rope_style)fz_range(in, 0, 1)
                                   : (ropekit_rope_style)fz_int(in, -1, 3);
    ok = ok && (c->cfg.style == ROPEKIT_ROPE_NEOX || c->cfg.style == ROPEKIT_ROPE_GPTJ);
    const bool big = fz_u8(in) >= 240;
    c->td = extended && fz_u8(in) < 160 ? 2 : 1;
    if (c->td == 2) {
        c->tok[0] = read_dim(in, 1, big ? 8 : 3);
        c->tok[1] = read_dim(in, 1, big ? 16 : 4);
        c->tokens = wrap_mul(c->tok[0], c->tok[1]);
    } else {
        c->tokens = c->tok[0] = read_dim(in, 1, big ? 64 : 6);
    }
    c->hs = fz_u8(in) < 248 ? 2 * fz_range(in, 1, big ? 128 : 16) : fz_int(in, -1, 40);
    c->rot = fz_u8(in) < 248 && c->hs >= 2 ? 2 * fz_range(in, 1, c->hs / 2) : fz_int(in, -1, 40);
    c->max_pos = read_dim(in, 1, 12);
    c->hq = read_dim(in, 1, big ? 8 : 3);
    c->hk = read_dim(in, 1, big ? 8 : 3);
    c->cfg.head_size = c->hs;
    ok = ok && c->hs >= 1 && c->rot >= 2 && c->rot % 2 == 0 && c->rot <= c->hs;

    uint8_t which = fz_u8(in); /* both, query only, key only, none, an input without output */
    bool q = which < 200 || which >= 244, k = which < 180 || (which >= 200 && which < 222);
    c->present[R_POS] = c->present[R_CACHE] = true;
    c->present[R_QI] = c->present[R_QO] = q;
    c->present[R_KI] = c->present[R_KO] = k;
    if (which >= 244)
        c->present[fz_pick(in, (const int64_t[]){R_QO, R_KI, R_KO, R_QI, R_POS, R_CACHE}, 6)] =
            false;
    ok = ok && (q || k) && which < 244;

    int64_t shape[R_COUNT][ROPEKIT_MAX_DIMS + 1];
    int32_t rank[R_COUNT];
    memset(shape, 0, sizeof shape);
    const int td = c->td;
    int64_t ktok[2] = {c->tok[0], c->tok[1]};
    if (fz_u8(in) >= 252) {
        const int d = td == 2 ? (int)fz_range(in, 0, 1) : 0;
        ktok[d] = read_dim(in, 0, 6);
    }
    /* positions follow the query, or a lone key */
    ok = ok && (!k || (ktok[0] == c->tok[0] && (td == 1 || ktok[1] == c->tok[1])));
    rank[R_QI] = rope_qk_shape(in, shape[R_QI], c->tok, td, c->hq, c->hs, &ok);
    rank[R_KI] = rope_qk_shape(in, shape[R_KI], ktok, td, c->hk, c->hs, &ok);
    rank[R_QO] = rank[R_QI];
    rank[R_KO] = rank[R_KI];
    memcpy(shape[R_QO], shape[R_QI], sizeof shape[0]);
    memcpy(shape[R_KO], shape[R_KI], sizeof shape[0]);
    if (fz_u8(in) >= 250) {
        int o = fz_bool(in) ? R_QO : R_KO;
        shape[o][fz_range(in, 0, td + 1)] = read_dim(in, 0, 30);
        ok = false;
    }
    rank[R_CACHE] = fz_u8(in) < 252 ? 2 : read_rank(in, 1, 3, &ok);
    ok = ok && rank[R_CACHE] == 2;
    shape[R_CACHE][0] = c->max_pos;
    shape[R_CACHE][1] = c->rot;
    for (int32_t i = 2; i <= ROPEKIT_MAX_DIMS; i++)
        shape[R_CACHE][i] = 1;

    rope_sections(in, c, c->rot / 2, &ok);
    c->cfg.sections = c->sections_null ? NULL : c->sections; /* re-pointed into the arena */
    const bool mrope = rope_is_mrope(c);
    const int32_t rows = mrope ? c->cfg.num_sections : 1;
    const int lead = mrope ? 1 : 0;
    rank[R_POS] = lead + td;
    shape[R_POS][0] = rows;
    for (int d = 0; d < td; d++)
        shape[R_POS][lead + d] = c->tok[d];
    c->rows_readable = pdt == ROPEKIT_I64;
    if (fz_u8(in) >= 250) {
        rank[R_POS] = read_rank(in, 1, 3, &ok);
        shape[R_POS][0] = read_dim(in, 0, 6);
        ok = false;
        c->rows_readable = false;
    }
    c->q_inplace = fz_u8(in) < 90;
    c->k_inplace = c->q_inplace ? fz_u8(in) < 200 : fz_u8(in) < 60;
    const ropekit_dtype dts[R_COUNT] = {pdt, xdt, kdt, cdt, qodt, kodt};
    for (int i = 0; i < R_COUNT; i++)
        view_make(in, &c->v[i], dts[i], rank[i], shape[i],
                  i == R_QO || i == R_KO || (i == R_QI && c->q_inplace) ||
                      (i == R_KI && c->k_inplace));
    if (extended) {
        rope_decode_offsets(in, c, &ok);
        const uint8_t heads_major = fz_u8(in); /* bits 0, 1, 3, 4: q, k and their outputs */
        for (int i = R_QI; heads_major >= 128 && i <= R_KO; i++)
            if (i != R_CACHE && (heads_major >> (i - R_QI)) & 1)
                rope_heads_major(&c->v[i], td);
        c->exec_offsets = !c->present[R_OFF] && fz_u8(in) < 64;
    }

    uint8_t layout = fz_u8(in);
    c->fused = layout < 40 && q && k && rank[R_QI] == rank[R_KI] && rank[R_QI] >= td + 1 &&
               rank[R_QI] <= td + 2 && c->tokens > 0 && c->tokens <= 4096 && c->tok[0] > 0 &&
               c->tok[0] <= 4096 && c->hq > 0 && c->hq <= 64 && c->hk > 0 && c->hk <= 64 &&
               c->hs > 0 && c->hs <= 4096;
    for (int d = 1; c->fused && d < td; d++)
        c->fused = c->tok[d] > 0 && c->tok[d] <= 4096;
    for (int i = R_QI; c->fused && i <= R_KO; i++)
        c->fused = !c->v[i].bad && !c->v[i].overflow && !c->v[i].empty;
    if (c->fused) {
        rope_fuse(in, c, R_QI, R_KI, &ok);
        rope_fuse(in, c, R_QO, R_KO, &ok);
    }
    for (int i = 0; i < c->views; i++) {
        const fz_view *v = rope_view(c, i);
        ok = ok && (!c->present[i] || (!v->bad && !v->overflow));
    }
    ok = ok && (!q || rope_view(c, R_QO)->dense) && (!k || rope_view(c, R_KO)->dense);
    c->expect_ok = ok;
    c->holdable = true;
    for (int i = 0; i < c->views; i++)
        c->holdable = c->holdable && view_holdable(&c->v[i]);
    const fz_view *pos = &c->v[R_POS];
    /* (broadcast positions may give huge token dims or section rows: too many to sum) */
    c->rows_readable = c->rows_readable && !pos->bad && !pos->overflow &&
                       pos->t.ndim == lead + td && rows <= ROPEKIT_ROPE_MAX_SECTIONS &&
                       c->tokens <= ((int64_t)1 << 20) / rows;
}

static void rope_fill_positions(fz_input *in, rope_call *c) {
    fz_view *p = &c->v[R_POS];
    if (!p->block)
        return;
    int64_t *vals = (int64_t *)p->block;
    const size_t n = p->block_bytes / 8;
    int64_t m = c->max_pos > 0 ? c->max_pos - 1 : 0;
    if (c->present[R_OFF])
        m /= 2; /* the rest of the cache is the offsets' room */
    c->out_of_range = c->max_pos <= 0;
    for (size_t i = 0; i < n; i++)
        vals[i] = fz_range(in, 0, m > 255 ? 255 : m);
    if (fz_u8(in) >= 244 && n > 0) {
        static const int64_t bad[] = {-1, INT64_MIN, INT64_MAX, (int64_t)1 << 40};
        vals[fz_range(in, 0, (int64_t)n - 1)] =
            fz_bool(in) ? c->max_pos : fz_pick(in, bad, sizeof bad / sizeof bad[0]);
        c->out_of_range = true;
    }
}

/* Offsets mostly within the room rope_fill_positions leaves them; some wide of it on either
 * side, some extreme (position + offset overflowing int64). */
static void rope_fill_offsets(fz_input *in, rope_call *c) {
    fz_view *o = &c->v[R_OFF];
    if (!c->present[R_OFF] || !o->block)
        return;
    int64_t *vals = (int64_t *)o->block;
    const size_t n = o->block_bytes / 8;
    const int64_t m = c->max_pos > 0 ? c->max_pos - 1 : 0, pos_max = m / 2 > 255 ? 255 : m / 2;
    const int64_t room = m - m / 2 > 255 ? 255 : m - m / 2;
    const bool wide = fz_u8(in) >= 200;
    for (size_t i = 0; i < n; i++)
        vals[i] = wide ? fz_range(in, -pos_max - 2, room + 2) : fz_range(in, 0, room);
    if (fz_u8(in) >= 240 && n > 0) {
        static const int64_t far[] = {INT64_MAX, INT64_MIN, 1, -((int64_t)1 << 62),
                                      (int64_t)1 << 40};
        vals[fz_range(in, 0, (int64_t)n - 1)] = fz_pick(in, far, sizeof far / sizeof far[0]);
    }
}

static bool rope_place(fz_arena *a, fz_input *in, rope_call *c) {
    if (c->fused) {
        const int64_t kshift = c->hq * c->hs * item_of(c->v[R_KI].t.dtype);
        if (!rope_place_fused(a, &c->v[R_QI], &c->v[R_KI], kshift) ||
            !rope_place_fused(a, &c->v[R_QO], &c->v[R_KO], kshift))
            return false;
        for (int i = 0; i < c->views; i++)
            if (i != R_QI && i != R_KI && i != R_QO && i != R_KO && !view_place(a, in, &c->v[i]))
                return false;
    } else if (fz_u8(in) >= 236) { /* everything in one block, anywhere */
        fz_view *vs[R_ALL];
        for (int i = 0; i < c->views; i++)
            vs[i] = &c->v[i];
        if (!views_share(a, in, vs, c->views)) {
            for (int i = 0; i < c->views; i++)
                if (!view_place(a, in, &c->v[i]))
                    return false;
        } else {
            c->expect_ok = false;
        }
    } else {
        for (int i = 0; i < c->views; i++)
            if (!view_place(a, in, &c->v[i]))
                return false;
    }
    return true;
}

/* A copy of the offsets' block at another address, for the plan's run (taken when the
 * offsets have a block of their own, so that moving them changes no overlap). */
static void rope_move_offsets(fz_arena *a, rope_call *c) {
    const fz_view *o = &c->v[R_OFF];
    for (int i = 0; c->offsets_moved && i < R_COUNT; i++)
        c->offsets_moved = c->v[i].block != o->block;
    if (!c->offsets_moved || !o->block || !o->t.data) {
        c->offsets_moved = false;
        return;
    }
    c->off_moved = *o;
    c->off_moved.block = (uint8_t *)fz_alloc(a, o->block_bytes);
    c->offsets_moved = c->off_moved.block != NULL;
    if (!c->offsets_moved)
        return;
    memcpy(c->off_moved.block, o->block, o->block_bytes);
    c->off_moved.t.data = c->off_moved.block + ((uint8_t *)o->t.data - o->block);
}

/* An output that is its input (in place): same data, same layout. */
static bool rope_same_view(const fz_view *in, const fz_view *out) {
    if (in == out)
        return true;
    if (in->t.data != out->t.data || in->t.ndim != out->t.ndim)
        return false;
    for (int32_t i = 0; i < in->t.ndim; i++)
        if (in->t.shape[i] != out->t.shape[i] ||
            (in->t.strides[i] != out->t.strides[i] && in->t.shape[i] != 1))
            return false;
    return true;
}

/* The overlap rule of an accepted call: an output shares no byte with itself, another
 * output or an input, unless it is exactly its input (in place). */
static void rope_footprint(fz_blocks *b, const rope_call *c) {
    int64_t idx[ROPEKIT_MAX_DIMS];
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < c->views; i++) {
            bool out = i == R_QO || i == R_KO;
            if (!c->present[i] || out != (pass == 0))
                continue;
            if ((i == R_QI || i == R_KI) && rope_same_view(rope_view(c, i), rope_view(c, i + 3)))
                continue; /* in place: its bytes are its output's */
            const fz_view *v = rope_view(c, i);
            if (v->empty)
                continue;
            /* zero-stride dims repeat addresses: visit each once; an input that still
             * takes millions of visits (overlapping strides) is not marked */
            int64_t ext[ROPEKIT_MAX_DIMS], visits = 1;
            for (int32_t d = 0; d < v->t.ndim; d++) {
                ext[d] = v->t.strides[d] == 0 ? 1 : v->t.shape[d];
                visits = visits > ((int64_t)1 << 22) / ext[d] ? (int64_t)1 << 23 : visits * ext[d];
            }
            if (!out && visits > ((int64_t)1 << 22))
                continue;
            const int64_t item = item_of(v->t.dtype);
            memset(idx, 0, sizeof idx);
            do {
                const uint8_t *p = (const uint8_t *)v->t.data + view_offset(&v->t, idx);
                FZ_CHECK(mark_bytes(b, p, item, out ? MASK_OUT : MASK_IN, MASK_OUT),
                         "accepted rope whose tensor %d shares memory with an output", i);
            } while (odo_next(idx, ext, v->t.ndim));
        }
    }
}

/* Elements of flat token `tok` of a view whose dims from `first` on are the token dims,
 * [T] or [B, S] (tok = b * S + s), `td` of them. */
static int64_t rope_token_offset(const ropekit_tensor *t, int32_t first, int td, int64_t tok) {
    if (td == 1)
        return tok * t->strides[first];
    const int64_t seq = t->shape[first + 1];
    return tok / seq * t->strides[first] + tok % seq * t->strides[first + 1];
}

/* Element e of head h of token t of a [tokens, H*hs] or [tokens, H, hs] view. */
static const uint8_t *rope_elem(const ropekit_tensor *t, int td, int64_t tok, int64_t h, int64_t hs,
                                int64_t e) {
    const int64_t item = item_of(t->dtype);
    int64_t off = rope_token_offset(t, 0, td, tok) * item;
    if (t->ndim == td + 1)
        off += (h * hs + e) * t->strides[td] * item;
    else
        off += h * t->strides[td] * item + e * t->strides[td + 1] * item;
    return (const uint8_t *)t->data + off;
}

/* The int64 of flat token `tok` (and section row `row` where a dim leads the token dims) of
 * positions, [tokens] or [rows, tokens], or of offsets, [tokens]. */
static uint8_t *rope_token_int(const ropekit_tensor *t, int td, int row, int64_t tok) {
    const int32_t lead = t->ndim - td;
    const int64_t off =
        ((lead ? row * t->strides[0] : 0) + rope_token_offset(t, lead, td, tok)) * 8;
    return (uint8_t *)t->data + off;
}

static int64_t rope_saved_int(const fz_arena *a, const ropekit_tensor *t, int td, int row,
                              int64_t tok) {
    int64_t v;
    memcpy(&v, fz_saved(a, rope_token_int(t, td, row, tok)), sizeof v);
    return v;
}

static int64_t rope_position(const fz_arena *a, const rope_call *c, int td, int row, int64_t tok) {
    return rope_saved_int(a, &c->v[R_POS].t, td, row, tok);
}

/* The cache row of a token and section row: its position, plus its offset when the call has
 * offsets; false when that sum overflows int64. */
static bool rope_cache_row(const fz_arena *a, const rope_call *c, int td, int row, int64_t tok,
                           int64_t *cache_row) {
    const int64_t p = rope_position(a, c, td, row, tok);
    if (!c->cfg.offsets) {
        *cache_row = p;
        return true;
    }
    return !__builtin_add_overflow(p, rope_saved_int(a, c->cfg.offsets, td, 0, tok), cache_row);
}

/* Whether a token's cache row lies outside [0, max_pos) (or overflows), from the snapshot. */
static bool rope_rows_out_of_range(const fz_arena *a, const rope_call *c) {
    const int rows = rope_is_mrope(c) ? c->cfg.num_sections : 1;
    for (int r = 0; r < rows; r++)
        for (int64_t t = 0; t < c->tokens; t++) {
            int64_t row;
            if (!rope_cache_row(a, c, c->td, r, t, &row) || row < 0 || row >= c->max_pos)
                return true;
        }
    return false;
}

/* A token whose position is far outside the cache and whose offset brings it back (or just
 * past the edge): the sum, not either addend, is what must be in range. */
static void rope_far_pair(fz_input *in, rope_call *c) {
    if (!c->present[R_OFF] || !c->rows_readable || c->tokens <= 0 || fz_u8(in) < 208)
        return;
    static const int64_t far[] = {INT64_MAX, (int64_t)1 << 62, (int64_t)1 << 40,
                                  -((int64_t)1 << 40), INT64_MIN + 1};
    const int64_t t = fz_range(in, 0, c->tokens - 1);
    const int64_t p = fz_pick(in, far, sizeof far / sizeof far[0]);
    const int64_t o = wrap_add(-p, fz_range(in, 0, 3));
    const int rows = rope_is_mrope(c) ? c->cfg.num_sections : 1;
    for (int r = 0; r < rows; r++)
        memcpy(rope_token_int(&c->v[R_POS].t, c->td, r, t), &p, sizeof p);
    memcpy(rope_token_int(&c->v[R_OFF].t, c->td, 0, t), &o, sizeof o);
}

static void rope_verify(const fz_arena *a, fz_blocks *b, const rope_call *c) {
    const bool q = c->present[R_QI], k = c->present[R_KI];
    const ropekit_tensor *x = q ? &c->v[R_QI].t : &c->v[R_KI].t, *cache = &c->v[R_CACHE].t,
                         *pos = &c->v[R_POS].t;
    FZ_CHECK(q == c->present[R_QO] && k == c->present[R_KO] && (q || k) && c->present[R_POS] &&
                 c->present[R_CACHE],
             "accepted rope without its tensors");
    /* positions' rank, without mrope's section row, gives the token dims: [T] or [B, S] */
    const bool mrope = rope_is_mrope(c);
    const int td = pos->ndim - (mrope ? 1 : 0);
    FZ_CHECK(td == 1 || td == 2, "accepted rope positions of rank %d", (int)pos->ndim);
    FZ_CHECK(x->ndim == td + 1 || x->ndim == td + 2, "accepted rope with rank %d for %d token dims",
             (int)x->ndim, td);
    int64_t tokens = 1;
    for (int d = 0; d < td; d++)
        tokens = wrap_mul(tokens, x->shape[d]);
    const int64_t hs = c->cfg.head_size;
    FZ_CHECK(hs >= 1, "accepted head_size %lld", (long long)hs);
    int64_t heads[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        if (!(side ? k : q))
            continue;
        const ropekit_tensor *in = &c->v[side ? R_KI : R_QI].t;
        const ropekit_tensor *out = rope_desc(c, side ? R_KO : R_QO);
        FZ_CHECK(in->dtype == x->dtype && out->dtype == x->dtype && tk_dtype_is_float(x->dtype),
                 "accepted rope dtypes %d/%d", (int)in->dtype, (int)out->dtype);
        FZ_CHECK(in->ndim == out->ndim && (in->ndim == td + 1 || in->ndim == td + 2),
                 "accepted rope %s ranks %d/%d", side ? "key" : "query", (int)in->ndim,
                 (int)out->ndim);
        for (int d = 0; d < td; d++)
            FZ_CHECK(in->shape[d] == x->shape[d], "accepted rope %s token dim %d differing",
                     side ? "key" : "query", d);
        for (int32_t i = 0; i < in->ndim; i++)
            FZ_CHECK(in->shape[i] == out->shape[i], "accepted output shape differing in dim %d",
                     (int)i);
        const bool flat = in->ndim == td + 1;
        FZ_CHECK(flat ? in->shape[td] % hs == 0 : in->shape[td + 1] == hs,
                 "accepted %s heads not of head_size %lld", side ? "key" : "query", (long long)hs);
        heads[side] = flat ? in->shape[td] / hs : in->shape[td];
    }
    if (tokens == 0 || (heads[0] == 0 && heads[1] == 0)) {
        FZ_CHECK(fz_changed(a) < 0, "no-op rope changed buffer %d", fz_changed(a));
        return;
    }
    FZ_CHECK(pos->dtype == ROPEKIT_I64 && tk_dtype_is_float(cache->dtype) &&
                 (cache->dtype == ROPEKIT_F64) == (x->dtype == ROPEKIT_F64) && cache->ndim == 2,
             "accepted rope positions dtype %d cache dtype %d rank %d", (int)pos->dtype,
             (int)cache->dtype, (int)cache->ndim);
    const int64_t rot = cache->shape[1], h = rot / 2, max_pos = cache->shape[0];
    FZ_CHECK(rot >= 2 && rot % 2 == 0 && rot <= hs, "accepted rotary_dim %lld, head_size %lld",
             (long long)rot, (long long)hs);
    const int rows = mrope ? c->cfg.num_sections : 1;
    if (mrope) {
        FZ_CHECK(rows <= ROPEKIT_ROPE_MAX_SECTIONS, "accepted %d sections", rows);
        int64_t sum = 0;
        for (int i = 0; i < rows; i++) {
            FZ_CHECK(c->cfg.sections[i] >= 0 && c->cfg.sections[i] <= h, "accepted section %lld",
                     (long long)c->cfg.sections[i]);
            sum += c->cfg.sections[i];
        }
        FZ_CHECK(sum == h, "accepted sections summing to %lld, h = %lld", (long long)sum,
                 (long long)h);
        FZ_CHECK(c->cfg.cache_mode >= 0 && c->cfg.cache_mode <= 3 && rope_mode_sections_ok(c),
                 "accepted cache_mode %lld with %d sections", (long long)c->cfg.cache_mode, rows);
        FZ_CHECK(pos->shape[0] == rows, "accepted mrope positions of %lld rows",
                 (long long)pos->shape[0]);
    }
    for (int d = 0; d < td; d++)
        FZ_CHECK(pos->shape[pos->ndim - td + d] == x->shape[d],
                 "accepted positions token dim %d = %lld, query's %lld", d,
                 (long long)pos->shape[pos->ndim - td + d], (long long)x->shape[d]);
    const ropekit_tensor *off = c->cfg.offsets;
    if (off) {
        FZ_CHECK(off->dtype == ROPEKIT_I64 && off->ndim == td,
                 "accepted offsets of dtype %d, rank %d for %d token dims", (int)off->dtype,
                 (int)off->ndim, td);
        for (int d = 0; d < td; d++)
            FZ_CHECK(off->shape[d] == x->shape[d],
                     "accepted offsets token dim %d = %lld, query's %lld", d,
                     (long long)off->shape[d], (long long)x->shape[d]);
    }
    for (int r = 0; r < rows; r++)
        for (int64_t t = 0; t < tokens; t++) {
            int64_t p;
            const bool sum = rope_cache_row(a, c, td, r, t, &p);
            FZ_CHECK(sum && p >= 0 && p < max_pos,
                     "accepted cache row [%d][%lld] = %lld (position %lld%s), cache rows %lld", r,
                     (long long)t, (long long)p, (long long)rope_position(a, c, td, r, t),
                     off ? " + offset" : "", (long long)max_pos);
        }
    rope_footprint(b, c);
    check_untouched(a, b, "ropekit_rope");

    const int64_t total = tokens * (heads[0] + heads[1]) * hs;
    const bool reference = total <= REF_MAX && hs <= REF_MAX;
    const struct tk_rope_select sel = {mrope ? rows : 0, c->cfg.sections, c->cfg.cache_mode};
    const int64_t ci = item_of(cache->dtype), xi = item_of(x->dtype);
    double xv[REF_MAX], cc[REF_MAX / 2 + 1], ss[REF_MAX / 2 + 1], out[REF_MAX], mag[REF_MAX];
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    for (int side = 0; side < 2; side++) {
        if (!(side ? k : q))
            continue;
        const ropekit_tensor *in = &c->v[side ? R_KI : R_QI].t;
        const ropekit_tensor *o = rope_desc(c, side ? R_KO : R_QO);
        for (int64_t t = 0; t < tokens; t++) {
            if (reference)
                for (int64_t j = 0; j < h; j++) {
                    int64_t row;
                    rope_cache_row(a, c, td, tk_rope_src_row(&sel, j), t, &row);
                    const uint8_t *base =
                        (const uint8_t *)cache->data + row * cache->strides[0] * ci;
                    cc[j] = tk_load(fz_saved(a, base + j * cache->strides[1] * ci), cache->dtype);
                    ss[j] =
                        tk_load(fz_saved(a, base + (h + j) * cache->strides[1] * ci), cache->dtype);
                }
            for (int64_t hh = 0; hh < heads[side]; hh++) {
                for (int64_t e = rot; e < hs; e++) /* pass-through: bit for bit */
                    FZ_CHECK(memcmp(rope_elem(o, td, t, hh, hs, e),
                                    fz_saved(a, rope_elem(in, td, t, hh, hs, e)), (size_t)xi) == 0,
                             "pass-through element %lld of head %lld token %lld changed",
                             (long long)e, (long long)hh, (long long)t);
                if (!reference)
                    continue;
                for (int64_t e = 0; e < rot; e++)
                    xv[e] = tk_load(fz_saved(a, rope_elem(in, td, t, hh, hs, e)), x->dtype);
                tk_rope_ref_head(c->cfg.style == ROPEKIT_ROPE_NEOX, rot, xv, cc, ss, out, mag,
                                 x->dtype == ROPEKIT_F64);
                for (int64_t e = 0; e < rot; e++)
                    check_tolerance(
                        &st, x->dtype, tk_load(rope_elem(o, td, t, hh, hs, e), x->dtype), out[e],
                        mag[e], side ? "rope key" : "rope query", (t * heads[side] + hh) * hs + e);
            }
        }
    }
}

static void rope_clone_and_run(fz_arena *a, fz_blocks *b, const rope_call *c,
                               const ropekit_plan *plan) {
    uint8_t *clone[MAX_BLOCKS];
    for (int i = 0; i < b->n; i++) {
        clone[i] = (uint8_t *)fz_alloc(a, b->bytes[i]);
        if (!clone[i])
            return;
        memcpy(clone[i], fz_saved(a, b->base[i]), b->bytes[i]);
    }
    void *ptr[R_ALL];
    for (int v = 0; v < R_ALL; v++) {
        const fz_view *view = rope_view(c, v);
        ptr[v] = rope_data(c, v);
        for (int i = 0; i < b->n; i++)
            if (ptr[v] && view->block == b->base[i])
                ptr[v] = clone[i] + ((uint8_t *)ptr[v] - b->base[i]);
    }
    ropekit_status st = rope_exec(c, plan, ptr);
    FZ_CHECK(st == ROPEKIT_OK, "execute on moved data failed: %s", ropekit_last_error());
    for (int i = 0; i < b->n; i++)
        FZ_CHECK(memcmp(clone[i], b->result[i], b->bytes[i]) == 0,
                 "execute on moved data differs in block %d", i);
}

/* The execute that does not fit the plan: ropekit_rope_execute of a plan made with offsets,
 * offsets given to one made without them. Refused, with nothing written. */
static void rope_misfit_execute(const fz_arena *a, const rope_call *c, const ropekit_plan *plan,
                                void *const ptr[R_ALL]) {
    const int64_t *pos = (const int64_t *)ptr[R_POS], stray = 0;
    const char *api;
    ropekit_status st;
    if (c->present[R_OFF]) {
        api = "ropekit_rope_execute of a plan made with offsets";
        st = ropekit_rope_execute(plan, pos, ptr[R_QI], ptr[R_KI], ptr[R_CACHE], ptr[R_QO],
                                  ptr[R_KO]);
    } else {
        api = "ropekit_rope_execute_offsets of a plan made without offsets";
        st = ropekit_rope_execute_offsets(plan, pos, &stray, ptr[R_QI], ptr[R_KI], ptr[R_CACHE],
                                          ptr[R_QO], ptr[R_KO]);
    }
    FZ_CHECK(st == ROPEKIT_INVALID_ARGUMENT, "%s gave %s", api, ropekit_status_name(st));
    expect_rejected(a, st, api);
}

static ropekit_status rope_run_variant(fz_arena *a, fz_blocks *b, const rope_call *c, int variant,
                                       fz_input *in) {
    if (variant == 0)
        return rope_oneshot(c);
    ropekit_plan *plan = (ropekit_plan *)&plan;
    ropekit_status st = rope_plan(c, &plan);
    if (st != ROPEKIT_OK) {
        FZ_CHECK(plan == NULL, "failed rope plan_create left a plan");
        return st;
    }
    check_describe(plan);
    void *ptr[R_ALL];
    for (int i = 0; i < R_ALL; i++)
        ptr[i] = rope_data(c, i);
    if (c->offsets_moved)
        ptr[R_OFF] = c->off_moved.t.data;
    ropekit_status wrong = ropekit_partial_rotary_execute(plan, ptr[R_QO] ? ptr[R_QO] : ptr[R_KO],
                                                          ptr[R_CACHE], ptr[R_CACHE]);
    FZ_CHECK(wrong == ROPEKIT_INVALID_ARGUMENT, "partial_rotary_execute took a rope plan: %s",
             ropekit_status_name(wrong));
    FZ_CHECK(fz_changed(a) < 0, "partial_rotary_execute of a rope plan wrote");
    rope_misfit_execute(a, c, plan, ptr);
    const int gone = (int)fz_range(in, 0, c->views - 1); /* a non-empty operand's data */
    if (c->present[gone] && !rope_view(c, gone)->empty) {
        void *nul[R_ALL];
        memcpy(nul, ptr, sizeof nul);
        nul[gone] = NULL;
        if (gone == R_QI && c->q_inplace)
            nul[R_QO] = NULL;
        if (gone == R_KI && c->k_inplace)
            nul[R_KO] = NULL;
        ropekit_status ns = rope_exec(c, plan, nul);
        FZ_CHECK(ns == ROPEKIT_NULL_POINTER && fz_changed(a) < 0,
                 "rope execute with operand %d's data NULL gave %s", gone, ropekit_status_name(ns));
    }

    st = rope_exec(c, plan, ptr);
    if (st == ROPEKIT_OK && variant >= 2) {
        blocks_save_results(b);
        if (variant == 2) {
            fz_restore(a);
            ropekit_status again = rope_exec(c, plan, ptr);
            FZ_CHECK(again == ROPEKIT_OK, "second execute of a rope plan failed: %s",
                     ropekit_last_error());
            int diff = blocks_differ(b);
            FZ_CHECK(diff < 0, "second execute of a rope plan differs in block %d", diff);
        } else {
            rope_clone_and_run(a, b, c, plan);
        }
    }
    ropekit_plan_destroy(plan);
    return st;
}

static void rope_trace(const rope_call *c, int variant) {
    FZ_TRACE("rope variant %d style %d T %lld hs %lld rot %lld M %lld hq %lld hk %lld "
             "present %d%d%d%d%d%d%d sections %d [%lld,%lld,%lld] mode %lld inplace %d/%d fused %d "
             "extended %d token dims %d [%lld,%lld] offsets moved %d exec_offsets %d "
             "rows_readable %d out_of_range %d expect_ok %d holdable %d",
             variant, (int)c->cfg.style, (long long)c->tokens, (long long)c->hs, (long long)c->rot,
             (long long)c->max_pos, (long long)c->hq, (long long)c->hk, c->present[0],
             c->present[1], c->present[2], c->present[3], c->present[4], c->present[5],
             c->present[6], (int)c->cfg.num_sections, (long long)c->sections[0],
             (long long)c->sections[1], (long long)c->sections[2], (long long)c->cfg.cache_mode,
             c->q_inplace, c->k_inplace, c->fused, c->extended, c->td, (long long)c->tok[0],
             (long long)c->tok[1], c->offsets_moved, c->exec_offsets, c->rows_readable,
             c->out_of_range, c->expect_ok, c->holdable);
    static const char *names[R_ALL] = {"positions", "query_in", "key_in", "cache",
                                       "query_out", "key_out",  "offsets"};
    for (int i = 0; i < c->views; i++)
        trace_view(names[i], rope_view(c, i));
}

static bool rope_overflows(const rope_call *c) {
    for (int i = 0; i < c->views; i++)
        if (c->present[i] && rope_view(c, i)->overflow)
            return true;
    return false;
}

static void fuzz_rope(fz_input *in, int variant, bool extended) {
    rope_call c;
    rope_decode(in, &c, extended);
    fz_arena a;
    fz_arena_init(&a);
    fz_blocks b = {0};
    config_first(in);
    if (c.num_sections_alloc > 0) { /* exactly the values promised, so ASan sees one more */
        int64_t *sec = (int64_t *)fz_alloc(&a, (size_t)c.num_sections_alloc * sizeof(int64_t));
        if (!sec)
            goto done;
        memcpy(sec, c.sections, (size_t)c.num_sections_alloc * sizeof(int64_t));
        c.cfg.sections = c.sections_null ? NULL : sec;
    }
    if (!c.holdable) {
        ropekit_plan *plan = NULL;
        rope_trace(&c, -1);
        ropekit_status st = rope_plan(&c, &plan);
        trace_status("rope plan only", st);
        if (st == ROPEKIT_OK) {
            FZ_CHECK(!rope_overflows(&c), "rope plan_create accepted a view overflowing int64");
            check_describe(plan);
            ropekit_plan_destroy(plan);
        } else {
            FZ_CHECK(plan == NULL, "failed rope plan_create left a plan");
            for (int i = 0; i < c.views; i++)
                if (!view_place(&a, in, &c.v[i]))
                    goto done;
            fz_snapshot(&a);
            ropekit_status one = rope_oneshot(&c);
            FZ_CHECK(one == st, "rope one-shot gave %s, plan_create %s", ropekit_status_name(one),
                     ropekit_status_name(st));
            expect_rejected(&a, one, "ropekit_rope");
        }
        goto done;
    }
    if (!rope_place(&a, in, &c))
        goto done;
    for (int i = 0; i < c.views; i++)
        blocks_add(&b, &c.v[i]);
    for (int i = 0; i < b.n; i++)
        if (b.base[i] != c.v[R_POS].block && b.base[i] != c.v[R_OFF].block)
            fill_block(in, b.base[i], b.bytes[i], c.v[R_QI].t.dtype);
    rope_fill_positions(in, &c);
    rope_fill_offsets(in, &c);
    rope_far_pair(in, &c);
    rope_move_offsets(&a, &c);
    if (c.offsets_moved)
        blocks_add(&b, &c.off_moved);
    fz_snapshot(&a);
    /* extended calls: the harness's own sums where it can read them, exactly the calls out of
     * range */
    if (c.extended)
        c.out_of_range = !c.rows_readable || rope_rows_out_of_range(&a, &c);
    if (c.v[R_POS].block && c.v[R_POS].block == c.v[R_QI].block)
        c.expect_ok = false;
    const bool noop =
        c.tokens == 0 || ((!c.present[R_QI] || c.hq == 0) && (!c.present[R_KI] || c.hk == 0));
    /* valid but for a cache row: refused for that row, an overflowing sum included */
    const bool only_range = c.extended && c.rows_readable && c.out_of_range && c.expect_ok && !noop;
    if (c.out_of_range)
        c.expect_ok = false;

    rope_trace(&c, variant);
    ropekit_status st = rope_run_variant(&a, &b, &c, variant, in);
    trace_status("rope", st);
    if (st != ROPEKIT_OK) {
        expect_rejected(&a, st, "ropekit_rope");
        FZ_CHECK(!c.expect_ok || st == ROPEKIT_NO_MEMORY, "valid rope refused: %s",
                 ropekit_last_error());
        if (st == ROPEKIT_OUT_OF_RANGE)
            FZ_CHECK(c.out_of_range, "rope refused in-range positions: %s", ropekit_last_error());
        FZ_CHECK(!only_range || st == ROPEKIT_OUT_OF_RANGE || st == ROPEKIT_NO_MEMORY,
                 "rope with a cache row out of range refused with %s: %s", ropekit_status_name(st),
                 ropekit_last_error());
    } else {
        FZ_CHECK(!rope_overflows(&c), "rope accepted a view overflowing int64");
        FZ_CHECK(!only_range, "rope accepted a cache row out of range");
    }
    blocks_save_results(&b);
    fz_restore(&a);
    config_scalar();
    ropekit_status st2 = rope_oneshot(&c);
    config_restore();
    FZ_CHECK(st2 == st, "scalar one-shot rope rerun gave %s, first run %s (%s)",
             ropekit_status_name(st2), ropekit_status_name(st), ropekit_last_error());
    int diff = blocks_differ(&b);
    FZ_CHECK(diff < 0, "first rope run and scalar 1-thread rerun differ in block %d", diff);
    if (st == ROPEKIT_OK)
        rope_verify(&a, &b, &c);
done:
    config_restore();
    blocks_free(&b);
    fz_arena_free(&a);
}

/* =================== the rest of the surface =================== */

static void fuzz_misc(fz_input *in) {
    ropekit_plan_destroy(NULL);
    char buf[8];
    size_t n = ropekit_plan_describe(NULL, buf, sizeof buf);
    FZ_CHECK(n == strlen("(null plan)") && strlen(buf) == sizeof buf - 1,
             "describe(NULL plan) gave %zu", n);
    int64_t pos = 0;
    float data[4] = {0};
    FZ_CHECK(ropekit_partial_rotary_execute(NULL, data, data, data) == ROPEKIT_NULL_POINTER,
             "partial_rotary_execute(NULL plan)");
    FZ_CHECK(ropekit_last_error()[0] != '\0', "no message");
    FZ_CHECK(ropekit_rope_execute(NULL, &pos, data, data, data, data, data) == ROPEKIT_NULL_POINTER,
             "rope_execute(NULL plan)");
    int64_t shape[ROPEKIT_MAX_DIMS + 4], strides[ROPEKIT_MAX_DIMS + 4];
    int32_t ndim = (int32_t)fz_int(in, -2, ROPEKIT_MAX_DIMS + 2);
    for (int i = 0; i < ROPEKIT_MAX_DIMS + 4; i++) {
        shape[i] = read_dim(in, 0, 5);
        strides[i] = fz_int(in, -8, 8);
    }
    ropekit_tensor t = ropekit_tensor_make(data, ROPEKIT_F32, 2, shape, NULL);
    ropekit_tensor sin = t;
    ropekit_plan *plan = NULL;
    FZ_CHECK(ropekit_partial_rotary_plan_create(&t, &t, &sin, ROPEKIT_ROTARY_HALF, 0, 0,
                                                ROPEKIT_FORWARD, NULL) == ROPEKIT_NULL_POINTER,
             "plan_create(plan = NULL)");
    ropekit_rope_config cfg = {.head_size = 2};
    FZ_CHECK(ropekit_rope_plan_create(&t, &t, &t, &t, &t, &t, &cfg, NULL) == ROPEKIT_NULL_POINTER,
             "rope_plan_create(plan = NULL)");
    FZ_CHECK(ropekit_rope_plan_create(&t, &t, &t, &t, &t, &t, NULL, &plan) ==
                     ROPEKIT_NULL_POINTER &&
                 plan == NULL,
             "rope_plan_create(config = NULL)");
    const bool null_shape = fz_u8(in) < 16, null_strides = fz_bool(in);
    t = ropekit_tensor_make(data, (ropekit_dtype)fz_range(in, -1, 30), ndim,
                            null_shape ? NULL : shape, null_strides ? NULL : strides);
    if (ndim < 0 || ndim > ROPEKIT_MAX_DIMS || (null_shape && ndim > 0)) {
        FZ_CHECK(t.ndim == -1, "tensor_make(ndim %d%s) gave ndim %d", (int)ndim,
                 null_shape ? ", shape NULL" : "", (int)t.ndim);
    } else {
        FZ_CHECK(t.ndim == ndim && t.data == data, "tensor_make(ndim %d) gave %d", (int)ndim,
                 (int)t.ndim);
        for (int32_t i = 0; i < ndim; i++)
            FZ_CHECK(t.shape[i] == shape[i] && (null_strides || t.strides[i] == strides[i]),
                     "tensor_make dim %d", (int)i);
    }
    /* a descriptor built by tensor_make goes to both operators; whatever they say, they
     * say it with a message, and a 16-byte buffer is all they may touch */
    float *small = (float *)calloc(4, sizeof(float));
    FZ_CHECK(small, "out of memory");
    t.data = small;
    ropekit_tensor cs = t;
    ropekit_status st =
        ropekit_partial_rotary(&t, &cs, &cs, ROPEKIT_ROTARY_INTERLEAVE, 0, 0, ROPEKIT_FORWARD);
    FZ_CHECK(st == ROPEKIT_OK || ropekit_last_error()[0] != '\0', "no message");
    free(small);
    (void)ropekit_status_name((ropekit_status)fz_range(in, -1, 9));
    (void)ropekit_status_text((ropekit_status)fz_range(in, -1, 9));
    (void)ropekit_dtype_name((ropekit_dtype)fz_range(in, -1, 30));
}

/* An input that starts with these four bytes (little-endian) is an extended rope call: its
 * decoder also chooses batched token dims, offsets, heads-major views and the execute calls
 * that offsets bring. No input found before them starts so (ignored bits of the old flag
 * bytes are set in about half of those), so they decode as they did. */
#define ROPE_EXTENDED_MARKER 0x4f464652u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    fz_input marked = in;
    if (fz_bits(&marked, 4) == ROPE_EXTENDED_MARKER) {
        const int variant = (int)fz_range(&marked, 0, 3);
        fuzz_rope(&marked, variant, true);
        return 0;
    }
    int op = (int)fz_range(&in, 0, 8);
    int variant = (int)fz_range(&in, 0, 3);
    if (op < 4)
        fuzz_partial_rotary(&in, variant);
    else if (op < 8)
        fuzz_rope(&in, variant, false);
    else
        fuzz_misc(&in);
    return 0;
}
