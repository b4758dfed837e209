/* One RopeWithSinCosCache problem (SPEC §5) as the test kit sees it: a few host buffers and
 * the six views over them (positions, queryIn, keyIn, cosSinCache, queryOut, keyOut),
 * which may share buffers (fused qkv, in place); its check against the float64
 * reference; and how to run it through each face. Shared by `demo` and `verify`. */
#ifndef ROPEKIT_TESTKIT_ROPE_CASE_H_
#define ROPEKIT_TESTKIT_ROPE_CASE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "testkit/acl_session.h"
#include "testkit/rope_reference.h"
#include "testkit/tolerance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The views in the order of the aclnn arguments. */
enum tk_rc_view_id { TK_RC_POS, TK_RC_QI, TK_RC_KI, TK_RC_CACHE, TK_RC_QO, TK_RC_KO, TK_RC_NVIEWS };

enum { TK_RC_MAX_BUFS = 8, TK_RC_MAX_SECTIONS = 8 };

struct tk_rc_buffer {
    ropekit_dtype dtype;
    int64_t elems;
    unsigned char *data; /* the problem's input contents; never modified by the runners */
};

/* A strided view (rank 1-3) of one buffer; the element type is the buffer's. */
struct tk_rc_view {
    bool present;
    int buf;
    int ndim;
    int64_t shape[3], strides[3];
    int64_t offset; /* buffer element index of element [0,...] */
};

struct tk_rope_case {
    bool neox;
    int64_t head_size, rot_dim, tokens, max_pos, q_heads, k_heads;
    int nsec;                             /* 0: no section array (plain rope) */
    int64_t sections[TK_RC_MAX_SECTIONS]; /* sections[0] == 0 also means plain rope */
    int64_t cache_mode;
    int nbufs;
    struct tk_rc_buffer buf[TK_RC_MAX_BUFS];
    struct tk_rc_view view[TK_RC_NVIEWS]; /* QO/KO present exactly when QI/KI are */
};

void tk_rope_case_free(struct tk_rope_case *rc);
/* Appends a zeroed buffer; returns its index, or -1. */
int tk_rc_add_buffer(struct tk_rope_case *rc, ropekit_dtype dtype, int64_t elems);

struct tk_rope_select tk_rc_select(const struct tk_rope_case *rc);
bool tk_rc_is_mrope(const struct tk_rope_case *rc);
int tk_rc_pos_rows(const struct tk_rope_case *rc); /* m for mrope, 1 for rope */
ropekit_dtype tk_rc_view_dtype(const struct tk_rope_case *rc, int v);
/* Makes *v a present view of buffer `buf` with the given rank, shape, strides and offset. */
void tk_rc_set_view(struct tk_rc_view *v, int buf, int ndim, const int64_t *shape,
                    const int64_t *strides, int64_t offset);
int64_t tk_rc_view_numel(const struct tk_rc_view *v);
/* Buffer element index of view element idx (view->ndim indices). */
int64_t tk_rc_view_elem(const struct tk_rc_view *v, const int64_t *idx);
/* Buffer element of element `col` of head `head` of token t in a q/k view (2-D or 3-D). */
int64_t tk_rc_head_elem(const struct tk_rope_case *rc, const struct tk_rc_view *v, int64_t t,
                        int64_t head, int64_t col);
/* positions[row][t] (rope: positions[t]) read from the problem's buffer. */
int64_t tk_rc_position(const struct tk_rope_case *rc, int row, int64_t t);
void tk_rc_set_position(struct tk_rope_case *rc, int row, int64_t t, int64_t value);
/* Same buffer, rank, shape, strides and offset. */
bool tk_rc_view_same(const struct tk_rc_view *a, const struct tk_rc_view *b);
/* True when no view has a negative stride. */
bool tk_rc_strides_nonnegative(const struct tk_rope_case *rc);

/* SPEC §5.5 row 16 on a set of six views (absent ones skipped): 1 when an output shares
 * an element with itself, the other output or an input other than being exactly its own
 * input (in place); 0 otherwise; -1 when out of memory. */
int tk_rc_outputs_overlap(const struct tk_rc_view *views, const struct tk_rope_case *rc);

/* "neox mrope[16,24,24]/1 bf16 cache=f32[512,128] hs=128 T=7 q=4 k=2 ..." */
const char *tk_rope_case_describe(const struct tk_rope_case *rc, char *buf, size_t len);

/* Working copies of every buffer (what a run writes into). */
struct tk_rc_image {
    int n;
    unsigned char *data[TK_RC_MAX_BUFS];
};

int tk_rc_image_alloc(struct tk_rc_image *img,
                      const struct tk_rope_case *rc); /* a copy of the inputs */
void tk_rc_image_reset(struct tk_rc_image *img, const struct tk_rope_case *rc);
void tk_rc_image_free(struct tk_rc_image *img);
/* Byte comparison of two images; on a difference returns false and its place. */
bool tk_rc_image_same(const struct tk_rope_case *rc, const struct tk_rc_image *a,
                      const struct tk_rc_image *b, int *where_buf, int64_t *where_elem);
/* Compares with the problem's own contents (nothing written). */
bool tk_rc_image_untouched(const struct tk_rope_case *rc, const struct tk_rc_image *img,
                           int *where_buf, int64_t *where_elem);

/* Outcome of checking a run's image against the reference. */
struct tk_rc_check {
    struct tk_err_stats err; /* rotated elements (SPEC §6) */
    char bad_side;           /* 'q' or 'k' for the first failing rotated element */
    int64_t bad_t, bad_head, bad_col;
    int64_t passthrough_bad; /* pass-through elements whose bytes differ from the input */
    int64_t outside_changed; /* elements outside every output view that changed */
    int first_buf;           /* place of the first pass-through/outside difference */
    int64_t first_elem;
};

/* Checks `out` (the image after one run). Returns 0, or -1 when out of memory. */
int tk_rc_check_output(const struct tk_rope_case *rc, const struct tk_rc_image *out,
                       struct tk_rc_check *chk);
bool tk_rc_check_passed(const struct tk_rc_check *chk);
const char *tk_rc_check_describe(const struct tk_rc_check *chk, char *buf, size_t len);

/* ---- Native face ---- */

/* The view as a native descriptor over `img` (data NULL when img is NULL). */
ropekit_tensor tk_rc_native_tensor(const struct tk_rope_case *rc, int v,
                                   const struct tk_rc_image *img);
ropekit_rope_config tk_rc_native_config(const struct tk_rope_case *rc);
/* ropekit_rope, or ropekit_rope_plan_create from descriptors without data followed by
 * ropekit_rope_execute on img when via_plan. */
ropekit_status tk_rc_native_run(const struct tk_rope_case *rc, struct tk_rc_image *img,
                                bool via_plan);

/* ---- aclnn face ---- */

/* The arguments of one aclnnRopeWithSinCosCache[V2] call, possibly altered from the
 * problem (to provoke a rejection). */
struct tk_rc_acl_call {
    int version;        /* 1 or 2 */
    int64_t cache_mode; /* V2's argument */
    bool neox;
    int64_t head_size;
    bool has_sections;
    int nsec;
    int64_t sections[TK_RC_MAX_SECTIONS];
    struct tk_rc_view view[TK_RC_NVIEWS]; /* present == false: a NULL aclTensor */
    int dtype[TK_RC_NVIEWS];              /* aclDataType of each aclTensor */
    bool null_data[TK_RC_NVIEWS];         /* aclTensor created over NULL */
    bool reuse_input[TK_RC_NVIEWS];       /* QO/KO: pass the QI/KI aclTensor object itself */
    bool null_workspace_size, null_executor;
    char change[96]; /* what was altered; "" for none */
};

/* The call that asks the aclnn face for exactly the problem. */
void tk_rc_acl_call_make(struct tk_rc_acl_call *call, const struct tk_rope_case *rc, int version,
                         int64_t cache_mode);
const char *tk_rc_acl_name(const struct tk_rc_acl_call *call);

/* Which rule of CANN's contract (SPEC §5.5, rows 0-16 in order, then E) the call breaks
 * first: an enum tk_rope_rule (testkit/rules.h; TK_ROPE_RULE_POS_RANGE when phase 1 must
 * pass and a position is out of range), TK_ROPE_RULE_NONE (0), or -1 when the contract
 * does not say (negative strides). */
int tk_rc_acl_rule(const struct tk_rc_acl_call *call, const struct tk_rope_case *rc);
/* What the call gives: the rule's phase-1 code, the fault of TK_ROPE_RULE_POS_RANGE
 * (ACL_ERROR_RT_AICORE_EXCEPTION, reported by the sync), 0, or -1 (tk_rc_acl_rule). */
int tk_rc_acl_expected(const struct tk_rc_acl_call *call, const struct tk_rope_case *rc);

/* The call's buffers in device memory with its aclTensors, for repeated calls. */
struct tk_rc_acl_bound {
    void *dev[TK_RC_MAX_BUFS];
    aclTensor *tensor[TK_RC_NVIEWS];
    aclIntArray *sections;
};

/* Uploads img's buffers and creates the tensors. Returns 0, or -1 with a message. */
int tk_rc_acl_bind(struct tk_rc_acl_bound *b, const struct tk_rc_acl_call *call,
                   const struct tk_rope_case *rc, const struct tk_rc_image *img, char *err,
                   size_t len);
/* GetWorkspaceSize and the launch on `stream`, without waiting. Returns 0 (the workspace,
 * NULL when none, in *ws for the caller to free after the sync) or the first non-zero
 * status, *stage telling which step gave it (1 or 2). */
int tk_rc_acl_launch(struct tk_rc_acl_bound *b, const struct tk_rc_acl_call *call,
                     aclrtStream stream, int *stage, void **ws, char *err, size_t len);
/* GetWorkspaceSize, the launch and aclrtSynchronizeStream. Returns 0 or the first
 * non-zero status; *stage tells which step gave it (1, 2, or 3 for the sync). */
int tk_rc_acl_call_once(struct tk_rc_acl_bound *b, const struct tk_rc_acl_call *call,
                        const struct tk_acl *acl, int *stage, char *err, size_t len);
int tk_rc_acl_download(const struct tk_rc_acl_bound *b, const struct tk_rope_case *rc,
                       struct tk_rc_image *img, char *err, size_t len);
void tk_rc_acl_unbind(struct tk_rc_acl_bound *b, const struct tk_rope_case *rc);
/* bind + call + download (also after a failed call) + unbind. Returns the call's status,
 * or -1 (stage 0) when the set-up itself failed. */
int tk_rc_acl_run(const struct tk_rc_acl_call *call, const struct tk_rope_case *rc,
                  const struct tk_acl *acl, struct tk_rc_image *img, int *stage, char *err,
                  size_t len);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_ROPE_CASE_H_ */
