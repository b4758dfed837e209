/* The benchmark workloads, the faces they are measured through, and how one
 * configuration of them is prepared and run. */
#ifndef ROPEKIT_BENCH_WORKLOADS_H_
#define ROPEKIT_BENCH_WORKLOADS_H_

#include <stdbool.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

enum rkb_kind {
    RKB_PARTIAL_ROTARY, /* InplacePartialRotaryMul forward */
    RKB_PARTIAL_GRAD,   /* its gradient */
    RKB_ROPE,           /* RopeWithSinCosCache */
    /* The operators below have no in-place form but ApplyRotaryPosEmb: their native and
     * aclnn faces are their out-of-place calls (x read, out written). */
    RKB_INTERLEAVE_ROPE, /* InterleaveRope: whole row, interleave-half mode */
    RKB_RPE,             /* RotaryPositionEmbedding: whole row */
    RKB_RPE_GRAD,        /* RotaryPositionEmbeddingGrad: dx (and dcos, dsin with cs_grad) */
    RKB_APPLY            /* ApplyRotaryPosEmb: q and k in place, rotate-half */
};

/* The path a call takes. */
enum rkb_face {
    RKB_NATIVE,     /* native plan made once, executed in place */
    RKB_NATIVE_OOP, /* the same with separate outputs (rope only) */
    RKB_ACLNN,      /* aclnn round trip (GetWorkspaceSize + execute + sync), in place */
    RKB_ACLNN_OOP,  /* the same with separate outputs, as CANN's examples (rope only) */
    RKB_FACE_COUNT
};

/* The native face an aclnn face is compared with (itself for a native face). */
enum rkb_face rkb_face_native_twin(enum rkb_face face);
bool rkb_face_out_of_place(enum rkb_face face);

struct rkb_workload {
    char id[16];
    char what[128];
    enum rkb_kind kind;
    bool in_cache;      /* small enough to stay in cache: judged against in-cache targets */
    bool latency;       /* a decode step judged by its aclnn round-trip time */
    int64_t x[4];       /* partial rotary family: x shape (apply rotary: query) */
    int64_t k[4];       /* apply rotary: key shape */
    bool cs_grad;       /* rotary gradient: dcos and dsin too */
    const char *dtypes; /* the dtype choices it is measured at (NULL: the defaults) */
    const char *styles; /* the styles it is measured at (NULL: the kind's two) */
    int64_t cs[4];      /* cos/sin shape */
    int64_t start, end;
    int64_t tokens, q_heads, k_heads, head_size, rot_dim, max_pos; /* rope */
    int nsec;
    int64_t sections[4];
};

/* One measured configuration: a workload with dtypes, a style and a face. */
struct rkb_config {
    const struct rkb_workload *w;
    ropekit_dtype x_dtype, cs_dtype;
    int style; /* rope: ropekit_rope_style; partial rotary: ropekit_rotary_mode */
    enum rkb_face face;
};

const char *rkb_style_name(const struct rkb_config *c);

/* The style names --style takes: rope's, then the rotary modes in ropekit's enum order. */
const char *const *rkb_style_names(int *count);

/* The styles a workload is measured at (ropekit_rope_style or ropekit_rotary_mode values,
 * at most 4), filtered by a comma-separated list of names (NULL: all). */
int rkb_workload_styles(const struct rkb_workload *w, const char *wanted, int *out);

/* Whether `name` is in a comma-separated list (NULL: every name is). */
bool rkb_in_list(const char *list, const char *name);
const char *rkb_face_name(enum rkb_face face);

/* Whether the configuration can take its face: the aclnn faces have CANN's restrictions
 * (interleave mode only for InplacePartialRotaryMul, one dtype for rope's q, k and cache
 * and for the other operators' tensors). */
bool rkb_face_applies(const struct rkb_config *c);

/* The built-in workloads (W1-W5, P1-P3, G2, D1, I1, R1, RG1, RG2, A1). */
const struct rkb_workload *rkb_builtin(int *count);

/* A built-in id (e.g. "W4") or a spec rkb_parse_workload takes. */
bool rkb_find_workload(const char *spec, struct rkb_workload *w);

/* The dtype choices: f32, f16, bf16, mixed (bf16 x with fp32 cos/sin), and f64 (the
 * native face only; measured when asked for, not by default). */
struct rkb_dtype_choice {
    const char *name;
    ropekit_dtype x, cs;
    bool by_default; /* measured when no --dtype list is given */
};
const struct rkb_dtype_choice *rkb_dtype_choices(int *count);

/* Parses "rope:T,Hq,Hk,hs,R[,maxpos]" or "pr:B,S,N,D,start,end[,cB,cS,cN]" into w. */
bool rkb_parse_workload(const char *spec, struct rkb_workload *w);

/* Bytes the operation must read and write at its dtypes (cos/sin counted once per
 * row they are gathered for; in place, untouched pass-through bytes not counted; out of
 * place, every input element is read and every output element written). */
double rkb_bytes(const struct rkb_config *c);

/* The rows the op reads and writes in place: `rows` rows `stride` bytes apart, `used`
 * bytes of each (rope: one per head; partial rotary: the slice of each D-row). */
bool rkb_touch_geometry(const struct rkb_config *c, int64_t *rows, int64_t *stride, int64_t *used);

/* A prepared configuration: buffers and a plan (native) or aclTensors and a stream
 * (aclnn) made with the current thread and ISA settings. */
struct rkb_case;
struct rkb_case *rkb_case_new(const struct rkb_config *c);
void rkb_case_run(struct rkb_case *k);
const char *rkb_case_describe(const struct rkb_case *k);
void rkb_case_free(struct rkb_case *k);

#endif /* ROPEKIT_BENCH_WORKLOADS_H_ */
