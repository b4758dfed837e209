/* Fuzz target: aclnnInplacePartialRotaryMul and aclnnInplacePartialRotaryMulGrad through
 * the aclnn face (SPEC §2.3, §3, §4): aclCreateTensor for x/dy, cos and sin with any rank
 * (0-5, and 9), shape, strides (negative, zero, overlapping), offset, storage shape and
 * aclDataType; partialSlice NULL, empty, of 1, 2 or more values, in or out of range;
 * any rotary mode; NULL arguments; x, cos and sin in one buffer; then phase 2 (the
 * workspace as reported, a NULL or foreign executor, a stream that does not exist, a
 * repeatable executor run twice or with an address rebound, a consumed executor
 * launched again), aclrtSynchronizeStream and the destroy calls, under any kernel set
 * and thread count.
 *
 * Oracle. aclCreateTensor succeeds exactly when its arguments are sane (rank <= 8, known
 * dtype, offset >= 0, no negative dim, a count, byte span and offset that fit int64, the
 * view inside a given storage shape). Phase 1 is judged against an independent reading of
 * SPEC §3.4 / §4.3: an accepted call must be valid there; a NULL argument must give
 * 161001, a dtype error 161002 and any other rule 161002 (forward) or 561002
 * (gradient); a valid call may be refused only for overlapping x strides the library's
 * sufficient test cannot prove disjoint. Every refused call (phase 1, phase 2, sync)
 * returns a message, writes neither output and leaves every buffer byte-identical. An
 * accepted call equals, byte for byte, the same calls made again with the scalar kernels
 * on one thread; every rotated element is within SPEC §6 of the float64 reference, every
 * other byte of every buffer is unchanged, and a no-op changes nothing.
 *
 * A selector byte of 232 or more drives the rotary_mul family instead:
 * aclnnRotaryPositionEmbedding, aclnnRotaryPositionEmbeddingGrad, aclnnApplyRotaryPosEmb,
 * aclnnApplyRotaryPosEmbV2 and aclnnInterleaveRope, with the same tensor readers,
 * mutations, sharing (and an output over an input's memory), NULL arguments, launches,
 * kernel sets and thread counts; their oracle is the contract of every call (see
 * fuzz_rotary). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/aclnn_interleave_rope.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "fuzz_arena.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "testkit/acl_dtype.h"
#include "testkit/half_bits.h"
#include "testkit/reference.h"
#include "testkit/rules.h"
#include "ropekit/ropekit.h"
#include "testkit/tolerance.h"

__extension__ typedef __int128 i128;

#define MAXR 9                     /* one rank past what aclCreateTensor accepts */
#define MAX_SLICE 5                /* values of the largest partialSlice */
#define MAX_BRUTE 4096             /* x elements enumerated to prove an overlap */
#define MAX_REFERENCE 16384        /* rotated elements checked against the float64 reference */
#define MAX_BUFFER_BYTES (1 << 20) /* all buffers of a call; larger valid calls are skipped */

enum { OP_FWD, OP_GRAD, OP_RPE, OP_RPE_GRAD, OP_APPLY, OP_APPLY_V2, OP_INTERLEAVE, OP_COUNT };
/* x is also dy (the gradients) and queryRef (ApplyRotaryPosEmb); out is also dxOut and keyRef */
enum { T_X, T_COS, T_SIN, T_OUT, T_DCOS, T_DSIN, T_XOPT, NT };
enum { NULL_NONE, NULL_X, NULL_COS, NULL_SIN, NULL_WS, NULL_EXEC, NULL_OUT };
enum { V_NULL, V_DTYPE, V_OTHER, V_NOOP, V_VALID };
enum {
    L_NORMAL,
    L_NULL_EXEC,
    L_WRONG_OP,
    L_BAD_STREAM,
    L_REPEAT,
    L_RELAUNCH,
    L_WS_SMALL,
    L_DESTROY,
    L_REBIND,
    L_COUNT
};

typedef struct tdesc {
    uint64_t ndim;
    int64_t dims[MAXR];
    int64_t strides[MAXR]; /* as passed (ignored when null_strides) */
    bool null_strides;
    bool plain; /* strides of a permuted, padded, sign-flipped contiguous layout */
    int64_t offset;
    int64_t dtype;
    int64_t format;
    uint64_t storage_ndim;
    int64_t storage[MAXR];
    bool storage_null; /* storageDims passed as NULL */
    bool no_data;
    int share;     /* -1: its own buffer; else the tensor whose buffer it views */
    int64_t delta; /* bytes from that tensor's data pointer to this one's */
    /* derived */
    int64_t eff[MAXR]; /* effective strides */
    bool sane;         /* aclCreateTensor must accept it */
    i128 numel;
    i128 lo, hi; /* bytes [lo, hi) the view reaches from its data pointer (offset included) */
    uint8_t *data;
    aclTensor *t;
} tdesc;

typedef struct call {
    int op;
    tdesc t[NT];
    int nt;                  /* tensors the operator takes */
    int64_t mode;            /* also the layout of ApplyRotaryPosEmb */
    const char *rotary_mode; /* ApplyRotaryPosEmbV2 */
    int slice_kind;          /* 0 NULL, else aclCreateIntArray of slice_n values */
    uint64_t slice_n;
    int64_t slice_vals[MAX_SLICE];
    bool slice_values_null;
    aclIntArray *slice;
    int null_arg;
    int launch;
    int rebind_slot;  /* L_REBIND: 0-2 inputs x, cos, sin; 3 output x; 4-5 no such index */
    bool rebind_null; /* L_REBIND: to NULL (else to the same storage) */
    int stream_kind;  /* 0 created, 1 default (NULL), 2 not a stream */
    uint64_t ws_extra;
    int isa_kind;
    int threads;
    bool noop;                           /* the verdict: accepted without work */
    bool small;                          /* views too large for the arena: tiny buffers */
    int64_t buf_dtype[FZ_ARENA_BUFFERS]; /* the dtype each arena buffer is filled with */
} call;

static aclrtStream g_stream;
static max_align_t g_not_a_stream;

static void init_runtime(void) {
    static bool done;
    if (done)
        return;
    FZ_CHECK(aclInit(NULL) == ACL_SUCCESS, "aclInit: %s", aclGetRecentErrMsg());
    FZ_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice: %s", aclGetRecentErrMsg());
    FZ_CHECK(aclrtCreateStream(&g_stream) == ACL_SUCCESS, "aclrtCreateStream: %s",
             aclGetRecentErrMsg());
    done = true;
}

/* ---- dtypes ---- */

/* The element size of an aclDataType (SPEC §2.1); 0: not one. */
static int64_t acl_item(int64_t dt) {
    return dt < 0 || dt > INT32_MAX ? 0 : (int64_t)aclDataTypeSize((aclDataType)dt);
}

/* Bytes a buffer gives each element: generous for types the operators refuse. */
static int64_t buffer_item(int64_t dt) {
    return tk_acl_is_float(dt) ? acl_item(dt) : 16;
}

static const int64_t kBadDtypes[] = {-1, 2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,  13,
                                     14, 16, 17, 26, 28, 29, 30, 33, 35, 42, 43, 255, -100};

static int64_t read_dtype(fz_input *in, int64_t usual) {
    uint8_t k = fz_u8(in);
    if (k < 176)
        return usual;
    if (k < 232) {
        static const int64_t floats[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
        return fz_pick(in, floats, 3);
    }
    return fz_pick(in, kBadDtypes, sizeof kBadDtypes / sizeof kBadDtypes[0]);
}

/* ---- layouts ---- */

/* Strides aclCreateTensor derives for NULL (the library's rule: contiguous over the
 * dims > 1, a product that overflows saturates and is refused by the count check). */
static void contiguous(const tdesc *t, int64_t *st) {
    int64_t step = 1;
    for (int i = (int)t->ndim - 1; i >= 0; i--) {
        st[i] = step;
        if (t->dims[i] > 1 && __builtin_mul_overflow(step, t->dims[i], &step))
            step = INT64_MAX;
    }
}

/* A permutation of the dims, each stride at least the extent of the faster ones plus a
 * gap, signs flipped at random; size-1 dims get any stride. */
static void plain_strides(fz_input *in, tdesc *t) {
    int n = (int)t->ndim, perm[MAXR];
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)fz_range(in, 0, i);
        int tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    int64_t extent = 1;
    for (int k = n - 1; k >= 0; k--) {
        int d = perm[k];
        if (t->dims[d] == 1) {
            t->strides[d] = fz_int(in, -3, 100);
            continue;
        }
        int64_t st = extent + (fz_u8(in) < 200 ? 0 : fz_range(in, 1, 3));
        if (t->dims[d] > 1 && (__builtin_mul_overflow(st, t->dims[d] - 1, &extent) ||
                               __builtin_add_overflow(extent, st, &extent)))
            extent = INT64_MAX / 2;
        t->strides[d] = fz_u8(in) < 64 ? -st : st;
    }
}

static void read_strides(fz_input *in, tdesc *t, bool is_x) {
    int n = (int)(t->ndim < MAXR ? t->ndim : MAXR);
    uint8_t k = fz_u8(in);
    t->null_strides = false;
    t->plain = true;
    if (k < (is_x ? 150 : 130)) {
        t->null_strides = true;
        return;
    }
    contiguous(t, t->strides);
    if (k < 200) {
        plain_strides(in, t);
    } else if (k < 220) { /* zero strides: broadcast for cos/sin, overlap for x */
        for (int i = 0; i < n; i++)
            if (fz_bool(in)) {
                t->strides[i] = 0;
                t->plain &= t->dims[i] <= 1;
            }
    } else if (k < 240) {
        for (int i = 0; i < n; i++)
            t->strides[i] = fz_range(in, -40, 40);
        t->plain = false;
    } else {
        int i = n ? (int)fz_range(in, 0, n - 1) : 0;
        t->strides[i] = fz_int(in, -8, 8);
        t->plain = false;
    }
}

/* Element reach of the view from its first element: sums of the negative and positive
 * (dim - 1) * stride terms (meaningful for a non-empty view). */
static void reach_elems(const tdesc *t, i128 *neg, i128 *pos) {
    *neg = *pos = 0;
    for (uint64_t i = 0; i < t->ndim && i < MAXR; i++) {
        i128 r = ((i128)t->dims[i] - 1) * t->eff[i];
        if (r < 0)
            *neg += r;
        else
            *pos += r;
    }
}

static void read_offset(fz_input *in, tdesc *t) {
    if (t->ndim < MAXR) {
        if (t->null_strides)
            contiguous(t, t->eff);
        else
            memcpy(t->eff, t->strides, sizeof t->eff);
    }
    i128 neg = 0, pos = 0;
    bool any_empty = false;
    for (uint64_t i = 0; i < t->ndim && i < MAXR; i++)
        any_empty |= t->dims[i] <= 0;
    if (t->ndim < MAXR && !any_empty)
        reach_elems(t, &neg, &pos);
    int64_t back = neg < -(i128)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)-neg;
    uint8_t k = fz_u8(in);
    if (k < 112)
        t->offset = back; /* the first element at storage index 0 */
    else if (k < 176)
        t->offset = 0;
    else if (k < 240)
        t->offset = back + fz_range(in, 0, 40);
    else
        t->offset = fz_int(in, -2, 1000);
}

static void read_storage(fz_input *in, tdesc *t) {
    uint8_t k = fz_u8(in);
    t->storage_ndim = 0;
    t->storage_null = fz_u8(in) < 32;
    if (k < 200)
        return;
    i128 neg, pos;
    reach_elems(t, &neg, &pos);
    i128 last = (i128)t->offset + pos; /* storage index of the highest element */
    if (k < 240 && last >= 0 && last < INT64_MAX - 4) {
        t->storage_ndim = 1;
        t->storage[0] = (int64_t)last + (k < 228 ? 1 + fz_range(in, 0, 2) : 0);
        t->storage_null = false;
        return;
    }
    t->storage_ndim = (uint64_t)fz_range(in, 0, MAXR);
    for (uint64_t i = 0; i < t->storage_ndim; i++)
        t->storage[i] = fz_int(in, 0, 64);
    t->storage_null = t->storage_null && t->storage_ndim == 0;
}

/* What aclCreateTensor must decide, and the bytes the view reaches. */
static void derive(tdesc *t) {
    t->sane = t->ndim <= 8 && t->storage_ndim <= 8 && acl_item(t->dtype) != 0 && t->offset >= 0;
    t->numel = 1;
    t->lo = t->hi = 0;
    if (t->ndim > 8)
        return;
    bool overflow = false, empty = false;
    for (uint64_t i = 0; i < t->ndim; i++) {
        t->sane &= t->dims[i] >= 0;
        empty |= t->dims[i] == 0;
        t->numel *= t->dims[i];
        overflow |= t->numel > INT64_MAX || t->numel < -(i128)INT64_MAX;
        if (overflow)
            t->numel = 0; /* refused: it needs no buffer */
    }
    if (empty) /* no element, whatever the other dims: a valid view */
        t->numel = 0;
    t->sane &= !overflow || empty;
    if (t->numel <= 0 || !t->sane) {
        t->numel = t->numel < 0 ? 0 : t->numel;
        /* the offset's bytes must fit int64 */
        t->sane &= !t->sane || (i128)t->offset * acl_item(t->dtype) <= INT64_MAX;
        return;
    }
    /* the layout check: every reach in bytes, their sums and the end fit int64 */
    const int64_t item = tk_acl_layout_item(t->dtype);
    i128 lo = 0, hi = 0;
    for (uint64_t i = 0; i < t->ndim; i++) {
        i128 r = ((i128)t->dims[i] - 1) * t->eff[i];
        if (r > INT64_MAX || r < INT64_MIN)
            t->sane = false;
        r *= item;
        if (r > INT64_MAX || r < INT64_MIN)
            t->sane = false;
        if (r < 0)
            lo += r;
        else
            hi += r;
        if (lo < INT64_MIN || hi > INT64_MAX)
            t->sane = false;
    }
    if (hi + item > INT64_MAX || hi + item - lo > INT64_MAX) /* the span's size fits too */
        t->sane = false;
    i128 neg, pos;
    reach_elems(t, &neg, &pos);
    /* offset * item + the view's byte end must fit int64 (a type ropekit does not know
     * spans no bytes there) */
    const int64_t span_item = (int64_t)ropekit_dtype_size((ropekit_dtype)t->dtype);
    const i128 end = (i128)t->offset * acl_item(t->dtype);
    if (end > INT64_MAX || end + pos * span_item + span_item > INT64_MAX)
        t->sane = false;
    if (t->sane && t->storage_ndim > 0) {
        i128 storage = 1;
        for (uint64_t i = 0; i < t->storage_ndim; i++) {
            if (t->storage[i] < 0)
                t->sane = false;
            storage *= t->storage[i];
            if (storage > INT64_MAX || storage < -(i128)INT64_MAX)
                t->sane = false, storage = 0;
        }
        t->sane &= t->offset + neg >= 0 && t->offset + pos < storage;
    }
    const int64_t bi = buffer_item(t->dtype);
    t->lo = ((i128)t->offset + neg) * bi;
    t->hi = ((i128)t->offset + pos + 1) * bi;
}

/* ---- decoding ---- */

static void set_dims4(tdesc *t, int64_t a, int64_t b, int64_t c, int64_t d) {
    t->ndim = 4;
    t->dims[0] = a, t->dims[1] = b, t->dims[2] = c, t->dims[3] = d;
}

static int64_t read_lead(fz_input *in, int64_t max) {
    uint8_t k = fz_u8(in);
    return k >= 250 ? 0 : max > 4 ? 1 + (int64_t)fz_bits(in, 2) % max : 1 + k % max;
}

static int64_t clamp_d(int64_t d) {
    return d < 0 ? 0 : d > 4096 ? 4096 : d;
}

static void read_slice(fz_input *in, call *k, int64_t d, bool any) {
    uint8_t kind = fz_u8(in);
    d = clamp_d(d);
    k->slice_values_null = false;
    if (!any || kind < 200) {
        k->slice_kind = 1;
        k->slice_n = 2;
        int64_t start = fz_range(in, 0, d > 2 ? d - 2 : 0);
        int64_t len = 2 * fz_range(in, 0, (d - start) / 2);
        if (len == 0 && fz_u8(in) < 200 && d - start >= 2)
            len = 2;
        k->slice_vals[0] = start;
        k->slice_vals[1] = start + len;
        return;
    }
    if (kind < 208) {
        k->slice_kind = 0; /* NULL */
        return;
    }
    k->slice_kind = 1;
    if (kind < 216) {
        k->slice_n = 0;
        k->slice_values_null = fz_bool(in);
        return;
    }
    k->slice_n = kind < 224 ? 1 : kind < 248 ? 2 : (uint64_t)fz_range(in, 3, MAX_SLICE);
    for (uint64_t i = 0; i < k->slice_n; i++)
        k->slice_vals[i] = fz_int(in, -2, d + 2);
}

static int64_t wrap_add(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* One change that may make the call invalid. */
static void mutate(fz_input *in, call *k) {
    tdesc *t = &k->t[fz_range(in, 0, 2)];
    switch (fz_range(in, 0, 13)) {
    case 0: { /* rank */
        uint64_t old = t->ndim;
        t->ndim = fz_u8(in) < 16 ? MAXR : (uint64_t)fz_range(in, 0, 5);
        for (uint64_t i = old; i < t->ndim; i++)
            t->dims[i] = fz_range(in, 0, 3);
        break;
    }
    case 1:
        t->dims[fz_range(in, 0, 3)] = fz_int(in, -2, 40);
        break;
    case 2:
        t->dtype = fz_pick(in, kBadDtypes, sizeof kBadDtypes / sizeof kBadDtypes[0]);
        break;
    case 3:
        k->mode = fz_int(in, -2, 5);
        break;
    case 4:
        read_slice(in, k, k->t[T_X].dims[3], true);
        break;
    case 5: /* D odd, or above 1024 */
        k->t[T_X].dims[3] = fz_bool(in) ? wrap_add(k->t[T_X].dims[3], 1) : fz_range(in, 1020, 1040);
        break;
    case 6: /* L odd */
    {
        int64_t *v = &k->slice_vals[fz_range(in, 0, 1)];
        *v = wrap_add(*v, fz_bool(in) ? 1 : -1);
        break;
    }
    case 7: /* cos last dim != L */
        k->t[T_COS].dims[3] = k->t[T_SIN].dims[3] = fz_range(in, 0, clamp_d(k->t[T_X].dims[3]) + 2);
        break;
    case 8: /* broadcast */
        k->t[T_COS].dims[fz_range(in, 0, 2)] = k->t[T_SIN].dims[fz_range(in, 0, 2)] =
            fz_range(in, 0, 6);
        break;
    case 9: /* sin shape != cos shape */
    {
        int64_t *v = &k->t[T_SIN].dims[fz_range(in, 0, 3)];
        *v = wrap_add(*v, fz_range(in, 1, 2));
        break;
    }
    case 10:
        k->null_arg = (int)fz_range(in, NULL_X, NULL_EXEC);
        break;
    case 11:
        t->no_data = true;
        break;
    case 12:
        t->dims[fz_range(in, 0, 3)] = 0; /* empty */
        break;
    default:
        t->format = (int32_t)fz_int(in, -1, 50); /* aclFormat is an int */
        break;
    }
}

static void read_sharing(fz_input *in, call *k) {
    k->t[T_X].share = k->t[T_COS].share = k->t[T_SIN].share = -1;
    uint8_t a = fz_u8(in);
    if (a < 200)
        return;
    if (a < 220) { /* sin and cos the same memory: valid */
        k->t[T_SIN].share = T_COS;
        k->t[T_SIN].delta = 0;
    } else if (a < 238) {
        k->t[T_COS].share = T_X;
        k->t[T_COS].delta = 8 * fz_range(in, -64, 64);
    } else if (a < 252) {
        k->t[T_SIN].share = T_X;
        k->t[T_SIN].delta = 8 * fz_range(in, -64, 64);
    } else {
        k->t[T_COS].share = T_X;
        k->t[T_COS].delta = 0;
    }
}

static const int64_t kFloats[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/* The operators of the rotary_mul family (SPEC §15, the ApplyRotaryPosEmb and
 * InterleaveRope sections): x (dy, queryRef) 4-D, cos and sin of x's shape with any of
 * the three lead dims broadcast, the outputs (out, dxOut, keyRef, dcosOut, dsinOut) of
 * their input's shape; then the same mutations, layouts, sharing and launches as the
 * partial-rotary calls, and an output that views an input's memory. */
static void decode_rotary(fz_input *in, call *k) {
    tdesc *x = &k->t[T_X], *c = &k->t[T_COS], *s = &k->t[T_SIN], *o = &k->t[T_OUT];
    k->nt = k->op == OP_RPE_GRAD ? NT : 4;
    const int64_t x0 = read_lead(in, 4), x1 = read_lead(in, 4), x2 = read_lead(in, 4);
    const uint8_t dk = fz_u8(in);
    int64_t d = dk < 64 ? 64 : dk < 96 ? 128 : 2 * fz_range(in, 1, 40);
    if (fz_u8(in) >= 240)
        d = fz_range(in, 0, 130); /* odd, 0 or not a multiple of 4 */
    set_dims4(x, x0, x1, x2, d);
    const uint8_t bc = fz_u8(in);
    set_dims4(c, bc & 1 ? 1 : x0, bc & 2 ? 1 : x1, bc & 4 ? 1 : x2, d);
    x->dtype = fz_u8(in) < 200 ? fz_pick(in, kFloats, 3) : read_dtype(in, ACL_FLOAT);
    c->dtype = fz_u8(in) < 200 ? x->dtype : read_dtype(in, x->dtype);
    *s = *c;
    s->dtype = fz_u8(in) < 240 ? c->dtype : read_dtype(in, c->dtype);
    *o = *x;
    if (k->op == OP_APPLY || k->op == OP_APPLY_V2)
        o->dims[2] = read_lead(in, 4); /* key's own head count */
    o->dtype = fz_u8(in) < 232 ? x->dtype : read_dtype(in, x->dtype);
    if (k->op == OP_RPE_GRAD) {
        k->t[T_DCOS] = *c;
        k->t[T_DSIN] = *s;
        k->t[T_XOPT] = *x;
        k->t[T_XOPT].no_data = false;
    }
    x->format = c->format = s->format = o->format = ACL_FORMAT_ND;
    static const int64_t layouts[] = {1, 1, 1, 2, 3, 4, 0, -1, 5};
    k->mode = k->op == OP_APPLY || k->op == OP_APPLY_V2 ? fz_pick(in, layouts, 9)
              : fz_u8(in) < 232                         ? fz_range(in, 0, 3)
                                                        : fz_int(in, -2, 5);
    static const char *modes[] = {"half", "half", "interleave", "quarter", "", "Half", NULL};
    k->rotary_mode = modes[fz_range(in, 0, 6)];
    int mutations = fz_u8(in) < 150 ? 0 : (int)fz_range(in, 1, 3);
    for (int i = 0; i < mutations; i++) {
        if (fz_u8(in) < 200) {
            mutate(in, k);
            continue;
        }
        tdesc *t = &k->t[fz_range(in, T_OUT, k->nt - 1)];
        switch (fz_range(in, 0, 3)) {
        case 0:
            t->dims[fz_range(in, 0, 3)] = fz_int(in, -1, 6);
            break;
        case 1:
            t->dtype = read_dtype(in, ACL_FLOAT);
            break;
        case 2:
            t->ndim = (uint64_t)fz_range(in, 0, 5);
            break;
        default:
            k->null_arg = NULL_OUT; /* keyRef, dxOut or xOptional NULL */
            break;
        }
    }
    for (int i = 0; i < k->nt; i++) {
        read_strides(in, &k->t[i], i == T_X || i == T_OUT);
        read_offset(in, &k->t[i]);
        read_storage(in, &k->t[i]);
        derive(&k->t[i]);
    }
    read_sharing(in, k);
    for (int i = T_OUT; i < k->nt; i++)
        k->t[i].share = -1;
    const uint8_t alias = fz_u8(in);
    if (alias >= 224) { /* the output on an input's memory: in place, or overlapping */
        k->t[T_OUT].share = alias >= 240 ? T_X : T_COS;
        k->t[T_OUT].delta = alias % 2 ? 0 : 8 * fz_range(in, -16, 16);
    }
}

static void decode_partial_rotary(fz_input *in, call *k) {
    const uint8_t big = fz_u8(in); /* >= 224: one long lead dim, enough rows for threads */
    int64_t x0 = read_lead(in, big >= 224 && big % 3 == 0 ? 512 : 4);
    int64_t x1 = read_lead(in, big >= 224 && big % 3 == 1 ? 512 : 4);
    int64_t x2 = read_lead(in, big >= 224 && big % 3 == 2 ? 512 : 4);
    int64_t d = 2 * fz_range(in, 1, big >= 224 ? 96 : 40);
    tdesc *x = &k->t[T_X], *c = &k->t[T_COS], *s = &k->t[T_SIN];
    set_dims4(x, x0, x1, x2, d);
    read_slice(in, k, d, false);
    int64_t len = k->slice_vals[1] - k->slice_vals[0];
    uint8_t bc = fz_u8(in); /* which cos/sin lead dims broadcast */
    set_dims4(c, bc & 1 ? 1 : x0, bc & 2 ? 1 : x1, bc & 4 ? 1 : x2, len);
    *s = *c;
    x->dtype = read_dtype(in, ACL_FLOAT);
    if (fz_u8(in) < 128) {
        static const int64_t floats[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
        x->dtype = fz_pick(in, floats, 3);
    }
    c->dtype = read_dtype(in, fz_bool(in) ? x->dtype : ACL_FLOAT);
    s->dtype = fz_u8(in) < 240 ? c->dtype : read_dtype(in, c->dtype);
    x->format = c->format = s->format = ACL_FORMAT_ND;
    k->mode = fz_u8(in) < 232 ? 1 : fz_int(in, -2, 5);
    k->null_arg = NULL_NONE;
    int mutations = fz_u8(in) < 150 ? 0 : (int)fz_range(in, 1, 3);
    for (int i = 0; i < mutations; i++)
        mutate(in, k);
    for (int i = 0; i < 3; i++) {
        read_strides(in, &k->t[i], i == T_X);
        read_offset(in, &k->t[i]);
        read_storage(in, &k->t[i]);
        derive(&k->t[i]);
    }
    read_sharing(in, k);
}

static void decode_launch(fz_input *in, call *k) {
    uint8_t l = fz_u8(in);
    k->launch = l < 150 ? L_NORMAL : (int)fz_range(in, 0, L_COUNT - 1);
    if (k->op >= OP_RPE && k->launch == L_REBIND)
        k->launch = L_NORMAL; /* its slots name the partial-rotary tensors */
    k->rebind_slot = (int)fz_range(in, 0, 5);
    k->rebind_null = fz_bool(in);
    uint8_t st = fz_u8(in);
    k->stream_kind = st < 224 ? 0 : st < 248 ? 1 : 2;
    if (k->stream_kind == 2)
        k->launch = L_BAD_STREAM;
    k->ws_extra = fz_u8(in) < 224 ? 0 : (uint64_t)fz_range(in, 1, 256);
    k->isa_kind = (int)fz_range(in, 0, 3);
    static const int64_t threads[] = {0, 0, 1, 2, 3, 4};
    k->threads = (int)fz_pick(in, threads, 6);
}

static void decode(fz_input *in, call *k) {
    memset(k, 0, sizeof *k);
    const uint8_t selector = fz_u8(in); /* odd: the gradient; 232 on: the rotary_mul family */
    k->op = selector < 232 ? (selector & 1 ? OP_GRAD : OP_FWD)
                           : OP_RPE + (selector - 232) % (OP_COUNT - OP_RPE);
    k->nt = 3;
    if (k->op >= OP_RPE)
        decode_rotary(in, k);
    else
        decode_partial_rotary(in, k);
    decode_launch(in, k);
}

/* ---- the expected verdict (SPEC §3.4, §4.3) ---- */

static bool same_shape(const tdesc *a, const tdesc *b) {
    if (a->ndim != b->ndim)
        return false;
    for (uint64_t i = 0; i < a->ndim && i < MAXR; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    return true;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* 1: two indices of x share an element; 0: they provably do not; -1: not enumerated. */
static int x_overlaps(const tdesc *x) {
    for (int i = 0; i < 4; i++)
        if (x->dims[i] > 1 && x->eff[i] == 0)
            return 1;
    if (x->numel > MAX_BRUTE)
        return -1;
    static int64_t at[MAX_BRUTE];
    int64_t n = 0;
    for (int64_t a = 0; a < x->dims[0]; a++)
        for (int64_t b = 0; b < x->dims[1]; b++)
            for (int64_t c = 0; c < x->dims[2]; c++)
                for (int64_t d = 0; d < x->dims[3]; d++)
                    at[n++] = a * x->eff[0] + b * x->eff[1] + c * x->eff[2] + d * x->eff[3];
    qsort(at, (size_t)n, sizeof at[0], cmp_i64);
    for (int64_t i = 1; i < n; i++)
        if (at[i] == at[i - 1])
            return 1;
    return 0;
}

static bool spans_meet(const tdesc *a, const tdesc *b) {
    if (a->numel == 0 || b->numel == 0 || !a->data || !b->data)
        return false;
    i128 a0 = (i128)(uintptr_t)a->data, b0 = (i128)(uintptr_t)b->data;
    return a0 + a->lo < b0 + b->hi && b0 + b->lo < a0 + a->hi;
}

struct verdict {
    int v;
    bool maybe_overlap; /* valid, but the library's overlap test may refuse x */
    int64_t start, len;
};

/* `present[i]`: the tensor exists (before creation: it is sane). Aliasing is judged
 * only once data pointers are known (`placed`). */
static struct verdict judge(const call *k, const bool present[3], bool placed) {
    struct verdict r = {V_VALID, false, 0, 0};
    const tdesc *x = &k->t[T_X], *c = &k->t[T_COS], *s = &k->t[T_SIN];
    const bool fwd = k->op == OP_FWD;
    if (k->null_arg != NULL_NONE || !present[0] || !present[1] || !present[2])
        return r.v = V_NULL, r;
    for (int i = 0; i < 3; i++)
        if (k->t[i].numel > 0 && k->t[i].no_data)
            return r.v = V_NULL, r;
    if (!tk_acl_is_float(x->dtype) || !tk_acl_is_float(c->dtype) || s->dtype != c->dtype)
        return r.v = V_DTYPE, r;
    if (fwd && c->dtype != x->dtype && c->dtype != ACL_FLOAT)
        return r.v = V_DTYPE, r;
    const bool rank4 = x->ndim == 4 && c->ndim == 4 && s->ndim == 4 && same_shape(c, s);
    if (fwd && !rank4)
        return r.v = V_OTHER, r;
    if (k->mode != 1)
        return r.v = V_OTHER, r;
    int64_t start = 0, end = 0; /* NULL or empty: [0, 0) */
    if (k->slice_kind && k->slice_n != 0) {
        if (k->slice_n != 2)
            return r.v = V_OTHER, r;
        start = k->slice_vals[0];
        end = k->slice_vals[1];
    }
    const int64_t d = x->ndim >= 1 && x->ndim <= 8 ? x->dims[x->ndim - 1] : 0;
    if (start < 0 || end < start || end > d)
        return r.v = V_OTHER, r;
    r.start = start;
    r.len = end - start;
    if (!fwd && (!rank4 || c->dims[3] > d))
        return r.v = V_OTHER, r;
    if (r.len == 0 || x->numel == 0 || c->numel == 0 || s->numel == 0)
        return r.v = V_NOOP, r;
    if (d > 1024 || (fwd && d % 2) || r.len % 2 || c->dims[3] != r.len)
        return r.v = V_OTHER, r;
    for (int i = 0; i < 3; i++)
        if (c->dims[i] != 1 && c->dims[i] != x->dims[i])
            return r.v = V_OTHER, r;
    int ov = x_overlaps(x);
    if (ov == 1)
        return r.v = V_OTHER, r;
    if (placed && (spans_meet(x, c) || spans_meet(x, s)))
        return r.v = V_OTHER, r;
    r.maybe_overlap = !x->plain; /* the library's test is only sufficient */
    return r;
}

/* The code of a class of rules, from the library's table (testkit/rules.h): the rules of
 * one class share their codes, so one rule stands for each (NULL for the null rules,
 * X_DTYPE for the dtype rules, RANK for the rules after them). */
static aclnnStatus code_of(int op, int v) {
    const bool grad = op != OP_FWD;
    if (v == V_NULL)
        return (aclnnStatus)tk_pr_rule_code(TK_PR_RULE_NULL, grad);
    if (v == V_DTYPE)
        return (aclnnStatus)tk_pr_rule_code(TK_PR_RULE_X_DTYPE, grad);
    return (aclnnStatus)tk_pr_rule_code(TK_PR_RULE_RANK, grad);
}

/* ---- buffers ---- */

static int root_of(const call *k, int i, int64_t *delta) {
    *delta = 0;
    while (k->t[i].share >= 0) {
        *delta += k->t[i].delta;
        i = k->t[i].share;
    }
    return i;
}

/* Allocates the buffers and sets each tensor's data pointer: each buffer spans the
 * views placed on it and their data pointers, plus a few bytes of slack on both sides;
 * false when they would not fit the arena. */
static bool place(fz_input *in, call *k, fz_arena *a, bool small) {
    i128 lo[NT], hi[NT];
    bool used[NT];
    for (int i = 0; i < NT; i++)
        lo[i] = hi[i] = 0, used[i] = false;
    for (int i = 0; i < k->nt; i++) {
        int64_t delta;
        int r = root_of(k, i, &delta);
        const tdesc *t = &k->t[i];
        if (!t->sane)
            continue;
        /* the buffer holds the view and the storage start the data pointer names, as
         * real storage would: data + offset * item is then an address inside it */
        i128 l = delta + (t->lo < 0 ? t->lo : 0), h = delta + (t->hi > 1 ? t->hi : 1);
        lo[r] = used[r] && lo[r] < l ? lo[r] : l;
        hi[r] = used[r] && hi[r] > h ? hi[r] : h;
        used[r] = true;
    }
    uint8_t *base[NT] = {NULL};
    i128 total = 0;
    for (int r = 0; r < k->nt; r++)
        total += used[r] ? hi[r] - lo[r] + 32 : 0;
    if (!small && total > MAX_BUFFER_BYTES)
        return false;
    k->small = small;
    for (int r = 0; r < k->nt; r++) {
        if (k->t[r].share >= 0)
            continue;
        k->buf_dtype[a->count] = k->t[r].dtype;
        if (small || !used[r]) {
            base[r] = fz_alloc(a, 16);
            FZ_CHECK(base[r], "arena exhausted");
            continue;
        }
        int64_t front = fz_u8(in) < 200 ? 0 : fz_range(in, 1, 8);
        int64_t back = fz_u8(in) < 200 ? 0 : fz_range(in, 1, 8);
        i128 off = front - lo[r]; /* from the buffer to the data pointer, a multiple of 8 */
        off += ((-off) % 8 + 8) % 8;
        size_t bytes = (size_t)(off + hi[r] + back);
        uint8_t *buf = fz_alloc(a, bytes);
        FZ_CHECK(buf, "arena exhausted by %zu bytes", bytes);
        base[r] = (uint8_t *)((uintptr_t)buf + (uintptr_t)(int64_t)off);
    }
    for (int i = 0; i < k->nt; i++) {
        int64_t delta;
        int r = root_of(k, i, &delta);
        k->t[i].data = small ? base[r] : (uint8_t *)((uintptr_t)base[r] + (uintptr_t)delta);
    }
    return true;
}

static const float kSpecial[] = {NAN,      INFINITY, -INFINITY, 3.0e38f, -65504.0f,
                                 65520.0f, 1e-45f,   -0.0f,     1e-40f,  6e-8f};

/* Fills every buffer with values of the dtype of the tensor it was made for (fp32 bits
 * for a type the operators refuse), then sprinkles a few special values. */
static void fill(fz_input *in, const call *k, fz_arena *a) {
    for (int i = 0; i < a->count; i++) {
        ropekit_dtype dt =
            (ropekit_dtype)(tk_acl_is_float(k->buf_dtype[i]) ? k->buf_dtype[i] : ACL_FLOAT);
        size_t item = ropekit_dtype_size(dt);
        size_t count = a->size[i] / item;
        if (fz_u8(in) >= 224) {
            fz_fill_float(in, a->buf[i], count, dt, true);
        } else { /* seeded per buffer, so that an exhausted input still fills each apart */
            uint64_t state =
                (fz_bits(in, 8) ^ (UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(i + 1))) | 1;
            for (size_t e = 0; e < count; e++) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                tk_store(a->buf[i] + e * item, dt,
                         (double)(state >> 11) / 9007199254740992.0 * 4.0 - 2.0);
            }
        }
        int specials = fz_u8(in) < 200 ? 0 : (int)fz_range(in, 1, 4);
        for (int s = 0; s < specials && count; s++) {
            size_t at = (size_t)fz_range(in, 0, (int64_t)count - 1);
            float v = kSpecial[fz_range(in, 0, sizeof kSpecial / sizeof kSpecial[0] - 1)];
            tk_store(a->buf[i] + at * item, dt, (double)v);
        }
    }
}

/* ---- tracing ---- */

static void trace_dims(char *buf, size_t len, const int64_t *v, uint64_t n) {
    size_t used = (size_t)snprintf(buf, len, "[");
    for (uint64_t i = 0; i < n && i < MAXR && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, i ? ",%lld" : "%lld", (long long)v[i]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
}

static void trace_call(const call *k) {
    if (!getenv("FUZZ_TRACE"))
        return;
    static const char *names[] = {"x", "cos", "sin", "out", "dcos", "dsin", "xOptional"};
    static const char *ops[] = {"forward",
                                "gradient",
                                "RotaryPositionEmbedding",
                                "RotaryPositionEmbeddingGrad",
                                "ApplyRotaryPosEmb",
                                "ApplyRotaryPosEmbV2",
                                "InterleaveRope"};
    fprintf(stderr, "%s mode %lld rotaryMode %s slice ", ops[k->op], (long long)k->mode,
            k->rotary_mode ? k->rotary_mode : "NULL");
    if (!k->slice_kind) {
        fprintf(stderr, "NULL");
    } else {
        char b[160];
        trace_dims(b, sizeof b, k->slice_vals, k->slice_n);
        fprintf(stderr, "%s%s", b, k->slice_values_null ? " (values NULL)" : "");
    }
    fprintf(stderr, " null_arg %d launch %d stream %d ws_extra %llu isa %d threads %d%s\n",
            k->null_arg, k->launch, k->stream_kind, (unsigned long long)k->ws_extra, k->isa_kind,
            k->threads, k->small ? " small-buffers" : "");
    for (int i = 0; i < k->nt; i++) {
        const tdesc *t = &k->t[i];
        char d[200], s[240], st[200];
        trace_dims(d, sizeof d, t->dims, t->ndim);
        trace_dims(s, sizeof s, t->eff, t->ndim);
        trace_dims(st, sizeof st, t->storage, t->storage_ndim);
        fprintf(stderr,
                "  %s: rank %llu dims %s strides %s%s%s offset %lld dtype %lld format %lld "
                "storage %s%s%s sane %d share %d delta %lld\n",
                names[i], (unsigned long long)t->ndim, d, t->null_strides ? "NULL=" : "", s,
                t->plain ? " (plain)" : "", (long long)t->offset, (long long)t->dtype,
                (long long)t->format, st, t->storage_null ? " (NULL)" : "",
                t->no_data ? " data NULL" : "", (int)t->sane, t->share, (long long)t->delta);
    }
}

/* ---- the calls ---- */

static aclnnStatus phase1(const call *k, uint64_t *ws, aclOpExecutor **ex) {
    const aclTensor *x = k->null_arg == NULL_X ? NULL : k->t[T_X].t;
    const aclTensor *c = k->null_arg == NULL_COS ? NULL : k->t[T_COS].t;
    const aclTensor *s = k->null_arg == NULL_SIN ? NULL : k->t[T_SIN].t;
    uint64_t *w = k->null_arg == NULL_WS ? NULL : ws;
    aclOpExecutor **e = k->null_arg == NULL_EXEC ? NULL : ex;
    aclTensor *o = k->null_arg == NULL_OUT ? NULL : k->t[T_OUT].t;
    switch (k->op) {
    case OP_RPE:
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, c, s, k->mode, o, w, e);
    case OP_RPE_GRAD: {
        const aclTensor *xopt = k->null_arg == NULL_OUT ? NULL : k->t[T_XOPT].t;
        return aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(
            x, c, s, xopt, k->mode, k->t[T_OUT].t, k->t[T_DCOS].t, k->t[T_DSIN].t, w, e);
    }
    case OP_APPLY:
        return aclnnApplyRotaryPosEmbGetWorkspaceSize((aclTensor *)(uintptr_t)x, o, c, s, k->mode,
                                                      w, e);
    case OP_APPLY_V2:
        return aclnnApplyRotaryPosEmbV2GetWorkspaceSize((aclTensor *)(uintptr_t)x, o, c, s, k->mode,
                                                        (char *)(uintptr_t)k->rotary_mode, w, e);
    case OP_INTERLEAVE:
        return aclnnInterleaveRopeGetWorkspaceSize(x, c, s, o, w, e);
    default:
        break;
    }
    if (k->op == OP_FWD)
        return aclnnInplacePartialRotaryMulGetWorkspaceSize(x, c, s, k->mode, k->slice, w, e);
    return aclnnInplacePartialRotaryMulGradGetWorkspaceSize((aclTensor *)(uintptr_t)x, c, s,
                                                            k->mode, k->slice, w, e);
}

static aclnnStatus phase2(int op, void *ws, uint64_t size, aclOpExecutor *e, aclrtStream s) {
    switch (op) {
    case OP_RPE:
        return aclnnRotaryPositionEmbedding(ws, size, e, s);
    case OP_RPE_GRAD:
        return aclnnRotaryPositionEmbeddingGrad(ws, size, e, s);
    case OP_APPLY:
        return aclnnApplyRotaryPosEmb(ws, size, e, s);
    case OP_APPLY_V2:
        return aclnnApplyRotaryPosEmbV2(ws, size, e, s);
    case OP_INTERLEAVE:
        return aclnnInterleaveRope(ws, size, e, s);
    default:
        break;
    }
    if (op == OP_FWD)
        return aclnnInplacePartialRotaryMul(ws, size, e, s);
    return aclnnInplacePartialRotaryMulGrad(ws, size, e, s);
}

static const char *message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "";
}

/* A refused call: an error code with a message; every buffer as `saved` (the snapshot
 * when NULL). */
static void expect_refused(const fz_arena *a, uint8_t *const *saved, int st, const char *what) {
    FZ_CHECK(st != 0, "%s: expected a refusal", what);
    FZ_CHECK(message()[0] != '\0', "%s failed (%d) without a message", what, st);
    for (int i = 0; i < a->count; i++) {
        const uint8_t *want = saved ? saved[i] : a->copy[i];
        FZ_CHECK(memcmp(want, a->buf[i], a->size[i]) == 0,
                 "%s failed (%d: %s) but changed buffer %d", what, st, message(), i);
    }
}

static uint8_t **copy_buffers(const fz_arena *a) {
    uint8_t **c = malloc(FZ_ARENA_BUFFERS * sizeof *c);
    FZ_CHECK(c, "out of memory");
    for (int i = 0; i < a->count; i++) {
        c[i] = malloc(a->size[i] ? a->size[i] : 1);
        FZ_CHECK(c[i], "out of memory");
        memcpy(c[i], a->buf[i], a->size[i]);
    }
    return c;
}

static void free_buffers(const fz_arena *a, uint8_t **c) {
    if (!c)
        return;
    for (int i = 0; i < a->count; i++)
        free(c[i]);
    free(c);
}

static void run_and_sync(const call *k, void *w, uint64_t size, aclOpExecutor *e,
                         aclrtStream stream, const fz_arena *a) {
    aclnnStatus st = phase2(k->op, w, size, e, stream);
    FZ_CHECK(st == ACLNN_SUCCESS, "phase 2 refused an executor phase 1 made: %d %s", st, message());
    aclError sy = aclrtSynchronizeStream(stream);
    if (sy != ACL_SUCCESS) {
        expect_refused(a, NULL, sy, "aclrtSynchronizeStream");
        FZ_CHECK(false,
                 "aclrtSynchronizeStream failed (%d: %s); partial rotary has no faults "
                 "that depend on contents",
                 sy, message());
    }
}

/* A repeatable executor whose address is rebound with aclSet{Input,Output}TensorAddr:
 * to the storage phase 1 saw it runs as before; to NULL phase 2 refuses it unless it is
 * a no-op; an index the operator lacks is refused by the setter. */
static bool rebind_and_run(const call *k, aclOpExecutor *e, void *w, uint64_t size,
                           aclrtStream stream, const fz_arena *a) {
    static const int tensor_of[] = {T_X, T_COS, T_SIN, T_X, T_X, T_X};
    static const size_t index_of[] = {0, 1, 2, 0, 3, 1};
    const int slot = k->rebind_slot;
    const tdesc *t = &k->t[tensor_of[slot]];
    const bool output = slot == 3 || slot == 5;
    void *addr = k->rebind_null ? NULL : t->data;
    FZ_CHECK(aclSetAclOpExecutorRepeatable(e) == ACLNN_SUCCESS, "repeatable: %s", message());
    aclnnStatus st = output ? aclSetOutputTensorAddr(e, index_of[slot], t->t, addr)
                            : aclSetInputTensorAddr(e, index_of[slot], t->t, addr);
    bool ran = true;
    if (slot >= 4) {
        FZ_CHECK(st == ACLNN_ERR_PARAM_INVALID, "%s index %zu of none: %d",
                 output ? "aclSetOutputTensorAddr" : "aclSetInputTensorAddr", index_of[slot], st);
        FZ_CHECK(message()[0] != '\0', "the setter failed without a message");
        run_and_sync(k, w, size, e, stream, a);
    } else {
        FZ_CHECK(st == ACLNN_SUCCESS, "rebinding slot %d: %d %s", slot, st, message());
        const bool refuse = addr == NULL && !k->noop;
        if (refuse) {
            st = phase2(k->op, w, size, e, stream);
            FZ_CHECK(st == ACLNN_ERR_PARAM_NULLPTR, "phase 2 with data rebound to NULL: %d %s", st,
                     message());
            expect_refused(a, NULL, st, "phase 2 with data rebound to NULL");
            const char *name = tensor_of[slot] == T_COS   ? "cos"
                               : tensor_of[slot] == T_SIN ? "sin"
                               : k->op == OP_FWD          ? "xRef"
                                                          : "dyRef";
            FZ_CHECK(strstr(message(), name), "the message does not name %s: %s", name, message());
            ran = false;
        } else {
            run_and_sync(k, w, size, e, stream, a);
        }
    }
    FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_SUCCESS, "destroy: %s", message());
    return ran;
}

/* Phase 2 and the synchronisation as k->launch says, with the executor phase 1 made.
 * Returns true when the work ran; refused launches are judged here. For L_REPEAT the
 * buffers after the first of the two runs are copied to *mid (when mid is given). */
static bool launch(const call *k, aclOpExecutor *e, uint64_t ws, const fz_arena *a,
                   uint8_t ***mid) {
    aclrtStream stream = k->stream_kind == 1 ? NULL : g_stream;
    uint64_t size = ws + k->ws_extra;
    void *w = size ? malloc(size) : NULL;
    FZ_CHECK(!size || w, "out of memory");
    aclnnStatus st;
    bool ran = true;
    switch (k->launch) {
    case L_NULL_EXEC:
        st = phase2(k->op, w, size, NULL, stream);
        FZ_CHECK(st == ACLNN_ERR_PARAM_NULLPTR, "phase 2, executor NULL: %d", st);
        expect_refused(a, NULL, st, "phase 2 with a NULL executor");
        FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_SUCCESS, "destroy: %s", message());
        ran = false;
        break;
    case L_WRONG_OP:
        st = phase2(!k->op, w, size, e, stream);
        FZ_CHECK(st == ACLNN_ERR_PARAM_INVALID, "phase 2 of the other operator: %d", st);
        expect_refused(a, NULL, st, "phase 2 of the other operator");
        FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_SUCCESS, "destroy: %s", message());
        ran = false;
        break;
    case L_BAD_STREAM:
        st = phase2(k->op, w, size, e, (aclrtStream)&g_not_a_stream);
        FZ_CHECK(st == ACLNN_ERR_PARAM_INVALID, "phase 2 on a stream that is none: %d", st);
        expect_refused(a, NULL, st, "phase 2 on a stream that is none");
        FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_ERR_PARAM_INVALID,
                 "a failed phase 2 did not consume its executor");
        ran = false;
        break;
    case L_WS_SMALL:
        if (ws == 0) {
            run_and_sync(k, w, size, e, stream, a);
            break;
        }
        st = phase2(k->op, w, ws - 1, e, stream);
        FZ_CHECK(st == ACLNN_ERR_PARAM_INVALID, "phase 2, workspace too small: %d", st);
        expect_refused(a, NULL, st, "phase 2 with too small a workspace");
        ran = false;
        break;
    case L_REBIND:
        ran = rebind_and_run(k, e, w, size, stream, a);
        break;
    case L_DESTROY:
        FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_SUCCESS, "destroy: %s", message());
        FZ_CHECK(fz_changed(a) < 0, "destroying an executor wrote");
        ran = false;
        break;
    case L_REPEAT:
        FZ_CHECK(aclSetAclOpExecutorRepeatable(e) == ACLNN_SUCCESS, "repeatable: %s", message());
        run_and_sync(k, w, size, e, stream, a);
        if (mid)
            *mid = copy_buffers(a);
        run_and_sync(k, w, size, e, stream, a);
        FZ_CHECK(aclDestroyAclOpExecutor(e) == ACLNN_SUCCESS, "destroy: %s", message());
        break;
    case L_RELAUNCH: {
        run_and_sync(k, w, size, e, stream, a);
        uint8_t **after = copy_buffers(a);
        st = phase2(k->op, w, size, e, stream);
        FZ_CHECK(st == ACLNN_ERR_PARAM_INVALID, "phase 2 of a consumed executor: %d", st);
        expect_refused(a, after, st, "phase 2 of a consumed executor");
        free_buffers(a, after);
        break;
    }
    default:
        run_and_sync(k, w, size, e, stream, a);
        break;
    }
    free(w);
    return ran;
}

static void set_isa_threads(int isa_kind, int threads) {
    ropekit_isa isa = ropekit_isa_detected();
    if (isa_kind == 1 && isa > ROPEKIT_ISA_AVX2)
        isa = ROPEKIT_ISA_AVX2;
    if (isa_kind == 2)
        isa = ROPEKIT_ISA_SCALAR;
    FZ_CHECK(ropekit_set_max_isa(isa) == ROPEKIT_OK, "ropekit_set_max_isa");
    FZ_CHECK(ropekit_set_num_threads(threads) == ROPEKIT_OK, "ropekit_set_num_threads");
}

/* ---- the results ---- */

/* The bytes at `p` (inside an arena buffer) in another copy of the buffers. */
static uint8_t *in_state(const fz_arena *a, uint8_t *const *state, const uint8_t *p) {
    for (int i = 0; i < a->count; i++)
        if (p >= a->buf[i] && p < a->buf[i] + a->size[i])
            return state[i] + (p - a->buf[i]);
    FZ_CHECK(false, "element %p outside every buffer", (const void *)p);
    return NULL;
}

static const uint8_t *elem(const tdesc *t, int64_t i0, int64_t i1, int64_t i2, int64_t j) {
    int64_t at = t->offset + i0 * t->eff[0] + i1 * t->eff[1] + i2 * t->eff[2] + j * t->eff[3];
    return (const uint8_t *)((uintptr_t)t->data + (uintptr_t)(at * acl_item(t->dtype)));
}

/* One run took the buffers from `before` to `after`: every rotated element within SPEC
 * §6 of the float64 reference, every other byte unchanged. */
static void check_rotation(const call *k, const struct verdict *v, const fz_arena *a,
                           uint8_t *const *before, uint8_t *const *after) {
    const tdesc *x = &k->t[T_X], *c = &k->t[T_COS], *s = &k->t[T_SIN];
    const int64_t len = v->len;
    const size_t xi = (size_t)acl_item(x->dtype);
    double *buf = malloc((size_t)len * 5 * sizeof(double));
    FZ_CHECK(buf, "out of memory");
    double *vv = buf, *cc = buf + len, *ss = buf + 2 * len, *out = buf + 3 * len,
           *mag = buf + 4 * len;
    uint8_t **expect = malloc(FZ_ARENA_BUFFERS * sizeof *expect);
    FZ_CHECK(expect, "out of memory");
    for (int i = 0; i < a->count; i++) {
        expect[i] = malloc(a->size[i] ? a->size[i] : 1);
        FZ_CHECK(expect[i], "out of memory");
        memcpy(expect[i], before[i], a->size[i]);
    }
    const struct tk_tol tol = tk_tol_of((ropekit_dtype)x->dtype);
    struct tk_err_stats stats;
    tk_err_stats_init(&stats);
    for (int64_t i0 = 0; i0 < x->dims[0]; i0++)
        for (int64_t i1 = 0; i1 < x->dims[1]; i1++)
            for (int64_t i2 = 0; i2 < x->dims[2]; i2++) {
                const int64_t c0 = c->dims[0] == 1 ? 0 : i0, c1 = c->dims[1] == 1 ? 0 : i1,
                              c2 = c->dims[2] == 1 ? 0 : i2;
                for (int64_t j = 0; j < len; j++) {
                    const uint8_t *px = elem(x, i0, i1, i2, v->start + j);
                    vv[j] = tk_load(in_state(a, before, px), (ropekit_dtype)x->dtype);
                    cc[j] = tk_load(in_state(a, before, elem(c, c0, c1, c2, j)),
                                    (ropekit_dtype)c->dtype);
                    ss[j] = tk_load(in_state(a, before, elem(s, c0, c1, c2, j)),
                                    (ropekit_dtype)s->dtype);
                }
                tk_ref_rotate(1, k->op == OP_GRAD, len, vv, cc, ss, out, mag, false);
                for (int64_t j = 0; j < len; j++) {
                    const uint8_t *px = elem(x, i0, i1, i2, v->start + j);
                    const uint8_t *got_at = in_state(a, after, px);
                    double got = tk_load(got_at, (ropekit_dtype)x->dtype);
                    int64_t p = j ^ 1; /* the pair partner */
                    FZ_CHECK(tk_err_check(&stats, &tol, got, out[j], mag[j], j),
                             "x[%lld,%lld,%lld][start+%lld] = %.9g, reference %.17g (mag %g); "
                             "v = (%.9g, %.9g) c = (%.9g, %.9g) s = (%.9g, %.9g)",
                             (long long)i0, (long long)i1, (long long)i2, (long long)j, got, out[j],
                             mag[j], vv[j], vv[p], cc[j], cc[p], ss[j], ss[p]);
                    memcpy(in_state(a, expect, px), got_at, xi);
                }
            }
    for (int i = 0; i < a->count; i++) {
        if (memcmp(expect[i], after[i], a->size[i]) != 0) {
            size_t b = 0;
            while (expect[i][b] == after[i][b])
                b++;
            FZ_CHECK(false, "buffer %d byte %zu (not a rotated element) changed: 0x%02x -> 0x%02x",
                     i, b, expect[i][b], after[i][b]);
        }
        free(expect[i]);
    }
    free(expect);
    free(buf);
}

static void check_scalar_rerun(const call *k, fz_arena *a, uint8_t *const *final);

/* The accepted, non-empty call ran: check it against the reference, then run it again
 * with the scalar kernels on one thread and compare every byte. */
static void check_accepted(const call *k, const struct verdict *v, fz_arena *a, uint8_t **mid) {
    uint8_t **final = copy_buffers(a);
    const tdesc *x = &k->t[T_X];
    const int64_t rotated = x->dims[0] * x->dims[1] * x->dims[2] * v->len;
    if (rotated > MAX_REFERENCE) {
        /* large: the scalar rerun below is the oracle */
    } else if (mid) {
        check_rotation(k, v, a, a->copy, mid);
        check_rotation(k, v, a, mid, final);
    } else {
        check_rotation(k, v, a, a->copy, final);
    }
    check_scalar_rerun(k, a, final);
    free_buffers(a, final);
}

/* Runs the call again from the snapshot with the scalar kernels on one thread: every byte
 * as `final`. */
static void check_scalar_rerun(const call *k, fz_arena *a, uint8_t *const *final) {
    fz_restore(a);
    set_isa_threads(2, 1);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus st = phase1(k, &ws, &e);
    FZ_CHECK(st == ACLNN_SUCCESS, "the scalar rerun's phase 1 refused it: %d %s", st, message());
    FZ_CHECK(launch(k, e, ws, a, NULL), "the scalar rerun did not run");
    set_isa_threads(0, 0);
    for (int i = 0; i < a->count; i++) {
        if (memcmp(final[i], a->buf[i], a->size[i]) != 0) {
            size_t b = 0;
            while (final[i][b] == a->buf[i][b])
                b++;
            FZ_CHECK(false, "buffer %d byte %zu: 0x%02x, scalar one-thread rerun 0x%02x", i, b,
                     final[i][b], a->buf[i][b]);
        }
    }
}

static const char *verdict_name(int v) {
    static const char *names[] = {"null", "dtype", "other", "no-op", "valid"};
    return names[v];
}

static void expect_array(const tdesc *t, aclnnStatus st, int64_t *got, uint64_t n,
                         const int64_t *want, uint64_t want_n, const char *what) {
    FZ_CHECK(st == ACLNN_SUCCESS && n == want_n, "%s: %d, %llu values, want %llu", what, st,
             (unsigned long long)n, (unsigned long long)want_n);
    FZ_CHECK(n == 0 || memcmp(got, want, n * sizeof *got) == 0, "%s differs (rank %llu)", what,
             (unsigned long long)t->ndim);
    free(got);
}

/* The getters return what aclCreateTensor was given (strides: the effective ones). */
static void check_getters(const tdesc *t) {
    int64_t *v = NULL, offset = -7;
    uint64_t n = 0;
    expect_array(t, aclGetViewShape(t->t, &v, &n), v, n, t->dims, t->ndim, "aclGetViewShape");
    expect_array(t, aclGetViewStrides(t->t, &v, &n), v, n, t->eff, t->ndim, "aclGetViewStrides");
    expect_array(t, aclGetStorageShape(t->t, &v, &n), v, n, t->storage, t->storage_ndim,
                 "aclGetStorageShape");
    FZ_CHECK(aclGetViewOffset(t->t, &offset) == ACLNN_SUCCESS && offset == t->offset,
             "aclGetViewOffset: %lld, want %lld", (long long)offset, (long long)t->offset);
    aclFormat format = ACL_FORMAT_UNDEFINED;
    aclDataType dtype = ACL_DT_UNDEFINED;
    FZ_CHECK(aclGetFormat(t->t, &format) == ACLNN_SUCCESS && format == t->format,
             "aclGetFormat: %d, want %lld", (int)format, (long long)t->format);
    FZ_CHECK(aclGetDataType(t->t, &dtype) == ACLNN_SUCCESS && dtype == t->dtype,
             "aclGetDataType: %d, want %lld", (int)dtype, (long long)t->dtype);
}

static void create_tensors(call *k) {
    for (int i = 0; i < k->nt; i++) {
        tdesc *t = &k->t[i];
        t->t = aclCreateTensor(t->dims, t->ndim, (aclDataType)t->dtype,
                               t->null_strides ? NULL : t->strides, t->offset, (aclFormat)t->format,
                               t->storage_null ? NULL : t->storage, t->storage_ndim,
                               t->no_data ? NULL : t->data);
        FZ_CHECK((t->t != NULL) == t->sane, "aclCreateTensor of tensor %d %s (%s)", i,
                 t->t ? "accepted arguments it must refuse" : "refused sane arguments",
                 t->t ? "" : message());
        if (!t->t)
            FZ_CHECK(message()[0] != '\0', "aclCreateTensor failed without a message");
        else
            check_getters(t);
    }
    if (k->slice_kind) {
        k->slice = aclCreateIntArray(k->slice_values_null ? NULL : k->slice_vals, k->slice_n);
        FZ_CHECK(k->slice, "aclCreateIntArray(%llu values): %s", (unsigned long long)k->slice_n,
                 message());
    }
}

static void destroy_tensors(call *k) {
    for (int i = 0; i < k->nt; i++)
        if (k->t[i].t)
            FZ_CHECK(aclDestroyTensor(k->t[i].t) == ACLNN_SUCCESS, "aclDestroyTensor");
    if (k->slice)
        FZ_CHECK(aclDestroyIntArray(k->slice) == ACLNN_SUCCESS, "aclDestroyIntArray");
}

#define WS_SENTINEL UINT64_C(0x5eed5eed5eed5eed)

static void judge_refusal(const call *k, const struct verdict *v, aclnnStatus st, uint64_t ws,
                          aclOpExecutor *e, aclOpExecutor *sentinel, const fz_arena *a) {
    expect_refused(a, NULL, st, "phase 1");
    FZ_CHECK(ws == WS_SENTINEL && e == sentinel, "phase 1 failed (%d) but wrote an output", st);
    if (v->v == V_VALID) {
        FZ_CHECK(v->maybe_overlap && st == code_of(k->op, V_OTHER) && strstr(message(), "overlap"),
                 "phase 1 refused a valid call: %d %s", st, message());
        return;
    }
    FZ_CHECK(v->v != V_NOOP, "phase 1 refused a no-op: %d %s", st, message());
    FZ_CHECK(st == code_of(k->op, v->v), "phase 1: code %d, SPEC says %d (a %s error): %s", st,
             code_of(k->op, v->v), verdict_name(v->v), message());
}

/* ---- the rotary_mul family ---- */

/* The tensors an operator of the family writes (ApplyRotaryPosEmb: both, in place). */
static bool is_output(const call *k, int i) {
    switch (k->op) {
    case OP_RPE_GRAD:
        return i == T_OUT || i == T_DCOS || i == T_DSIN;
    case OP_APPLY:
    case OP_APPLY_V2:
        return i == T_X || i == T_OUT;
    default:
        return i == T_OUT;
    }
}

/* A run took the buffers from `before` to `after`: no byte outside the outputs' views
 * changed. */
static void check_confined(const call *k, const fz_arena *a, uint8_t *const *before,
                           uint8_t *const *after) {
    uint8_t **expect = copy_buffers(a);
    for (int i = 0; i < a->count; i++)
        memcpy(expect[i], before[i], a->size[i]);
    for (int i = 0; i < k->nt; i++) {
        const tdesc *t = &k->t[i];
        if (!is_output(k, i) || !t->t || t->no_data || t->hi <= t->lo)
            continue;
        for (i128 b = t->lo; b < t->hi; b++) {
            const uint8_t *p = (const uint8_t *)((uintptr_t)t->data + (uintptr_t)(int64_t)b);
            *in_state(a, expect, p) = *in_state(a, after, p);
        }
    }
    for (int i = 0; i < a->count; i++) {
        if (memcmp(expect[i], after[i], a->size[i]) != 0) {
            size_t b = 0;
            while (expect[i][b] == after[i][b])
                b++;
            FZ_CHECK(false, "buffer %d byte %zu (outside every output) changed: 0x%02x -> 0x%02x",
                     i, b, expect[i][b], after[i][b]);
        }
    }
    free_buffers(a, expect);
}

/* No independent verdict of validity here (the unit tests of each operator hold its
 * rules): every call keeps the contract. A NULL x, cos, sin, workspace size or executor
 * is refused with 161001; every refusal has a documented code and a message and writes
 * nothing; an accepted call writes only its outputs and equals, byte for byte, the scalar
 * kernels on one thread. */
static void fuzz_rotary(call *k, fz_arena *a) {
    const bool null_required = (k->null_arg >= NULL_X && k->null_arg <= NULL_EXEC) ||
                               !k->t[T_X].t || !k->t[T_COS].t || !k->t[T_SIN].t;
    uint64_t ws = WS_SENTINEL;
    aclOpExecutor *sentinel = (aclOpExecutor *)(void *)&g_not_a_stream;
    aclOpExecutor *e = sentinel;
    set_isa_threads(k->isa_kind == 3 ? 0 : k->isa_kind, k->threads);
    aclnnStatus st = phase1(k, &ws, &e);
    FZ_TRACE("  phase 1 %s (%d) %s", st ? "refused" : "accepted", st, st ? message() : "");
    if (st != ACLNN_SUCCESS) {
        set_isa_threads(0, 0);
        expect_refused(a, NULL, st, "phase 1");
        FZ_CHECK(ws == WS_SENTINEL && e == sentinel, "phase 1 failed (%d) but wrote an output", st);
        FZ_CHECK(!null_required || st == ACLNN_ERR_PARAM_NULLPTR,
                 "a NULL required argument: code %d, want %d: %s", st, ACLNN_ERR_PARAM_NULLPTR,
                 message());
        FZ_CHECK(st == ACLNN_ERR_PARAM_NULLPTR || st == ACLNN_ERR_PARAM_INVALID ||
                     st == ACLNN_ERR_INNER_TILING_ERROR,
                 "phase 1: code %d is none the operators document: %s", st, message());
        return;
    }
    FZ_CHECK(!null_required, "phase 1 accepted a NULL required argument");
    FZ_CHECK(e && e != sentinel && ws != WS_SENTINEL, "phase 1 succeeded without outputs");
    uint8_t **mid = NULL;
    bool ran = launch(k, e, ws, a, &mid);
    set_isa_threads(0, 0);
    if (ran) {
        uint8_t **final = copy_buffers(a);
        if (mid) {
            check_confined(k, a, a->copy, mid);
            check_confined(k, a, mid, final);
        } else {
            check_confined(k, a, a->copy, final);
        }
        check_scalar_rerun(k, a, final);
        free_buffers(a, final);
    }
    free_buffers(a, mid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    init_runtime();
    fz_input in = {data, size};
    call k;
    decode(&in, &k);
    if (k.op >= OP_RPE) {
        fz_arena a;
        fz_arena_init(&a);
        if (place(&in, &k, &a, false)) {
            fill(&in, &k, &a);
            trace_call(&k);
            create_tensors(&k);
            fz_snapshot(&a);
            fuzz_rotary(&k, &a);
            destroy_tensors(&k);
        }
        fz_arena_free(&a);
        return 0;
    }
    const bool sane[3] = {k.t[0].sane, k.t[1].sane, k.t[2].sane};
    const struct verdict pre = judge(&k, sane, false);
    fz_arena a;
    fz_arena_init(&a);
    if (!place(&in, &k, &a, false)) {
        if (pre.v == V_VALID)
            return 0; /* a valid call this arena cannot hold */
        place(&in, &k, &a, true);
    }
    fill(&in, &k, &a);
    trace_call(&k);
    create_tensors(&k);
    bool present[3];
    for (int i = 0; i < 3; i++)
        present[i] = k.t[i].t != NULL;
    const struct verdict v = judge(&k, present, true);
    fz_snapshot(&a);

    uint64_t ws = WS_SENTINEL;
    aclOpExecutor *sentinel = (aclOpExecutor *)(void *)&g_not_a_stream;
    aclOpExecutor *e = sentinel;
    set_isa_threads(k.isa_kind == 3 ? 0 : k.isa_kind, k.threads);
    aclnnStatus st = phase1(&k, &ws, &e);
    FZ_TRACE("  verdict %s: phase 1 %s (%d) %s", verdict_name(v.v), st ? "refused" : "accepted", st,
             st ? message() : "");
    if (st != ACLNN_SUCCESS) {
        set_isa_threads(0, 0);
        judge_refusal(&k, &v, st, ws, e, sentinel, &a);
    } else {
        FZ_CHECK(v.v == V_NOOP || v.v == V_VALID,
                 "phase 1 accepted a call SPEC refuses (a %s error)", verdict_name(v.v));
        FZ_CHECK(e && e != sentinel && ws != WS_SENTINEL, "phase 1 succeeded without outputs");
        uint8_t **mid = NULL;
        k.noop = v.v == V_NOOP;
        bool ran = launch(&k, e, ws, &a, &mid);
        set_isa_threads(0, 0);
        if (ran && v.v == V_NOOP)
            FZ_CHECK(fz_changed(&a) < 0, "a no-op changed buffer %d", fz_changed(&a));
        else if (ran)
            check_accepted(&k, &v, &a, mid);
        free_buffers(&a, mid);
    }
    destroy_tensors(&k);
    fz_arena_free(&a);
    return 0;
}
