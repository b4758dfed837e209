/* ropekit native API: rotary position embedding operators for CPUs.
 *
 * The same math as the CANN-compatible aclnn face (include/aclnnop/), without its
 * restrictions: every rotary mode, every dtype pair, any rank and broadcast, any
 * strides, any head size. Every call validates completely before it writes anything;
 * a failed call returns a status and leaves a message for ropekit_last_error().
 *
 * Numeric model (bit-identical on every ISA and thread count): inputs are widened
 * exactly to fp32, each output element is fl(fl(a*b) +/- fl(c*d)) with no fused
 * multiply-add, and the result is rounded to the output type once, to nearest even.
 * float64 operands (ROPEKIT_F64, native face only) are computed the same way in double:
 * each product one double multiply, each output one double add or subtract, nothing
 * rounded to fp32 on the way. float64 data goes with float64 coefficients only (x with
 * cos/sin, query/key with the cache); any other pairing with float64 is an error.
 *
 * Calling contract, for every function below unless its comment says otherwise:
 * - Thread safety: any function may be called from several threads at once. Plans are
 *   immutable (one plan may be executed by several threads at once, each on its own
 *   data); tensors being written must not be shared between concurrent calls. The
 *   process-wide settings (ropekit_set_num_threads, ropekit_set_max_isa,
 *   ropekit_set_parallel_for) are atomic and apply to calls that start after them.
 * - On failure: a function returning ropekit_status returns a status other than
 *   ROPEKIT_OK, sets the calling thread's ropekit_last_error() message, and writes
 *   nothing through its arguments: no tensor element, no table entry; a failed
 *   *_plan_create sets *plan to NULL. Functions that return a name, a size or a count
 *   cannot fail.
 */
#ifndef ROPEKIT_ROPEKIT_H_
#define ROPEKIT_ROPEKIT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ROPEKIT_API marks the library's entry points. On Windows the DLL is built with
 * ROPEKIT_DLL_EXPORT=1 and its clients compile with ROPEKIT_DLL_IMPORT=1 (the CMake
 * target ropekit::ropekit sets it for them; the static library needs neither). Elsewhere
 * the library is built with hidden visibility and these are the symbols it exports. */
#if defined(__GNUC__) && __GNUC__ >= 4 && !defined(_WIN32)
#define ROPEKIT_VISIBLE __attribute__((visibility("default")))
#else
#define ROPEKIT_VISIBLE
#endif
#if defined(_WIN32) && defined(ROPEKIT_DLL_EXPORT) && ROPEKIT_DLL_EXPORT == 1
#define ROPEKIT_API __declspec(dllexport) ROPEKIT_VISIBLE
#elif defined(_WIN32) && defined(ROPEKIT_DLL_IMPORT) && ROPEKIT_DLL_IMPORT == 1
#define ROPEKIT_API __declspec(dllimport) ROPEKIT_VISIBLE
#else
#define ROPEKIT_API ROPEKIT_VISIBLE
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ROPEKIT_VERSION_MAJOR 0
#define ROPEKIT_VERSION_MINOR 1
#define ROPEKIT_VERSION_PATCH 0
#define ROPEKIT_VERSION_NUMBER                                                                     \
    (ROPEKIT_VERSION_MAJOR * 10000 + ROPEKIT_VERSION_MINOR * 100 + ROPEKIT_VERSION_PATCH)

/* Version of the library actually linked (ROPEKIT_VERSION_NUMBER encoding). Static
 * strings; cannot fail. */
ROPEKIT_API unsigned ropekit_version_number(void);
ROPEKIT_API const char *ropekit_version_string(void);

/* ---- Status codes. Values are pinned: new codes are appended, never renumbered. ---- */
#define ROPEKIT_STATUS_MAP(X)                                                                      \
    X(OK, 0, "success")                                                                            \
    X(NULL_POINTER, 1, "a required pointer is NULL")                                               \
    X(INVALID_ARGUMENT, 2, "an argument is outside the operator's domain")                         \
    X(UNSUPPORTED, 3, "the request is valid but this build cannot serve it")                       \
    X(OUT_OF_RANGE, 4, "a data value (for example a position) is out of range")                    \
    X(NO_MEMORY, 5, "memory allocation failed")                                                    \
    X(INTERNAL, 6, "internal error")

#define ROPEKIT_STATUS_ENUM_(name, value, text) ROPEKIT_##name = value,
typedef enum ropekit_status { ROPEKIT_STATUS_MAP(ROPEKIT_STATUS_ENUM_) } ropekit_status;
#undef ROPEKIT_STATUS_ENUM_

/* "ROPEKIT_OK", "ROPEKIT_INVALID_ARGUMENT", ...; "ROPEKIT_UNKNOWN_STATUS" otherwise. */
ROPEKIT_API const char *ropekit_status_name(ropekit_status status);
/* One-line description of a status code. */
ROPEKIT_API const char *ropekit_status_text(ropekit_status status);
/* Message of the most recent failure in the calling thread: "<api>: <param> = <value>:
 * <rule>". "" when no call has failed in this thread. Never NULL; valid until the
 * thread's next failing call. Successful calls do not clear it. */
ROPEKIT_API const char *ropekit_last_error(void);

/* ---- Tensors ---- */

/* Element types. The values equal CANN's aclDataType numbers. ROPEKIT_F64 (ACL_DOUBLE)
 * is taken by the native face only; the aclnn face rejects ACL_DOUBLE as CANN does. */
typedef enum ropekit_dtype {
    ROPEKIT_F32 = 0,
    ROPEKIT_F16 = 1,
    ROPEKIT_I64 = 9,
    ROPEKIT_F64 = 11,
    ROPEKIT_BF16 = 27
} ropekit_dtype;

/* Size in bytes of one element; 0 for a value that is not a ropekit_dtype. */
ROPEKIT_API size_t ropekit_dtype_size(ropekit_dtype dtype);
/* "f32", "f16", "bf16", "f64", "i64"; "?" otherwise. */
ROPEKIT_API const char *ropekit_dtype_name(ropekit_dtype dtype);

/* Conversions for filling and reading fp16/bf16 buffers, rounded as the operators round
 * their results: to nearest, ties to even; overflow gives +-inf; a NaN stays a NaN (bf16
 * keeps its sign and is made quiet) and never rounds into an infinity. Widening to f32 is
 * exact. Array forms convert n elements; the buffers must not overlap. */
ROPEKIT_API uint16_t ropekit_f32_to_bf16(float value);
ROPEKIT_API float ropekit_bf16_to_f32(uint16_t bits);
ROPEKIT_API uint16_t ropekit_f32_to_f16(float value);
ROPEKIT_API float ropekit_f16_to_f32(uint16_t bits);
ROPEKIT_API void ropekit_f32_to_bf16_array(uint16_t *dst, const float *src, size_t n);
ROPEKIT_API void ropekit_bf16_to_f32_array(float *dst, const uint16_t *src, size_t n);
ROPEKIT_API void ropekit_f32_to_f16_array(uint16_t *dst, const float *src, size_t n);
ROPEKIT_API void ropekit_f16_to_f32_array(float *dst, const uint16_t *src, size_t n);

#define ROPEKIT_MAX_DIMS 8

/* A strided view of memory. Strides count elements (not bytes) and may be zero
 * (broadcast) or negative. `data` points at element [0,...,0]. */
typedef struct ropekit_tensor {
    void *data;
    ropekit_dtype dtype;
    int32_t ndim;
    int64_t shape[ROPEKIT_MAX_DIMS];
    int64_t strides[ROPEKIT_MAX_DIMS];
} ropekit_tensor;

/* Fills a descriptor; strides == NULL means C-contiguous (row-major). ndim outside
 * [0, ROPEKIT_MAX_DIMS] gives a descriptor with ndim = -1, which every op rejects. */
ROPEKIT_API ropekit_tensor ropekit_tensor_make(void *data, ropekit_dtype dtype, int32_t ndim,
                                               const int64_t *shape, const int64_t *strides);

/* ---- Threads ---- */

/* Upper bound on threads used by one operator call. 0 restores the default: the
 * ROPEKIT_NUM_THREADS environment variable (read once) if set, else the number of CPUs
 * the process may run on. Results never depend on the thread count.
 *
 * Calls run on the calling thread and on the library's own pool: persistent workers that
 * spin for up to about 0.15 ms after a call and then sleep, so no CPU is used once calls
 * have stopped. Calls running at once (several threads or streams) share the budget. */
ROPEKIT_API ropekit_status ropekit_set_num_threads(int threads);
ROPEKIT_API int ropekit_get_num_threads(void);

/* A host with a thread pool of its own can run the library's parallel work on it
 * instead, so that the two never compete for cores. This matters most beside OpenMP:
 * libgomp's threads spin for milliseconds after each of the host's parallel regions,
 * holding their cores, so no other pool can use those cores between two regions; an
 * OpenMP host's parallel-for (below) hands the work to those very threads.
 *
 * `run(host, tasks, threads, task, ctx)` must call task(ctx, t) exactly once for every t
 * in [0, tasks), on up to `threads` threads, and return when all calls have returned; it
 * may be called from any thread that calls the library. Results do not depend on how the
 * tasks are spread. run == NULL restores the library's pool. Set it before other threads
 * make calls: a call running while it changes may use the old `run` with the new `host`.
 * Always returns ROPEKIT_OK.
 *
 *     static void omp_run(void *host, int64_t n, int threads, ropekit_task_fn task, void *ctx) {
 *         #pragma omp parallel for num_threads(threads) schedule(static)
 *         for (int64_t t = 0; t < n; t++)
 *             task(ctx, t);
 *     }
 *     ropekit_set_parallel_for(omp_run, NULL);
 */
typedef void (*ropekit_task_fn)(void *ctx, int64_t task);
typedef void (*ropekit_parallel_fn)(void *host, int64_t tasks, int threads, ropekit_task_fn task,
                                    void *ctx);
ROPEKIT_API ropekit_status ropekit_set_parallel_for(ropekit_parallel_fn run, void *host);

/* ---- Instruction sets ----
 * Kernels are chosen when a plan is made, from what the CPU and OS support, capped
 * by ROPEKIT_MAX_ISA (scalar, avx2, avx512) or ropekit_set_max_isa. Every ISA gives
 * bit-identical results. */
typedef enum ropekit_isa {
    ROPEKIT_ISA_SCALAR = 0,
    ROPEKIT_ISA_AVX2 = 1,  /* AVX2 + F16C */
    ROPEKIT_ISA_AVX512 = 2 /* AVX-512 F/BW/VL (+BF16 where present) */
} ropekit_isa;

ROPEKIT_API ropekit_isa ropekit_isa_detected(void);
/* Caps the ISA of plans created afterwards (existing plans keep their kernels). On an
 * invalid isa: ROPEKIT_INVALID_ARGUMENT and the cap is unchanged. */
ROPEKIT_API ropekit_status ropekit_set_max_isa(ropekit_isa isa);
/* min(detected, cap). */
ROPEKIT_API ropekit_isa ropekit_get_active_isa(void);
ROPEKIT_API const char *ropekit_isa_name(ropekit_isa isa);

/* ---- Plans: validate and plan once, execute many times ----
 * A plan is immutable once created: it may be executed from several threads at once
 * (each call on its own data). A failed *_plan_create returns an error and sets *plan to
 * NULL. ropekit_plan_destroy(NULL) does nothing. */

typedef struct ropekit_plan ropekit_plan;

ROPEKIT_API void ropekit_plan_destroy(ropekit_plan *plan);
/* Writes a one-line description of the plan (operator, shapes, kernel, threads) into
 * buf (always NUL-terminated when len > 0). Returns the length it needed. */
ROPEKIT_API size_t ropekit_plan_describe(const ropekit_plan *plan, char *buf, size_t len);

/* ---- Partial rotary multiply (InplacePartialRotaryMul and its gradient) ----
 *
 * x has shape [..., D] (rank 1..8). The slice x[..., start:end) of length L is rotated
 * in place. cos and sin have identical shapes [..., L], broadcastable to x's leading
 * dimensions (right-aligned; each dimension equal to x's or 1; missing leading
 * dimensions count as 1). cos[..., j] and sin[..., j] pair with x[..., start + j].
 *
 * Layouts of one rotated vector v[0..L) (h = L/2, q = L/4):
 *   HALF             pairs (j, j+h)          [x0 x1 | y0 y1]   -> rotate-half, NeoX
 *   INTERLEAVE       pairs (2i, 2i+1)        [x0 y0 x1 y1]     -> GPT-J, CANN's mode 1
 *   QUARTER          pairs (j, j+q) and (j+2q, j+3q): two rotate-half blocks
 *   INTERLEAVE_HALF  input interleaved, output in half layout (DeepSeek); the
 *                    backward maps half layout back to interleaved.
 * Forward, for a pair (a, b) at positions (p, r) with partner sign:
 *   u[p] = a*cos[p] - b*sin[p],  u[r] = b*cos[r] + a*sin[r]
 * The backward is the exact transpose (the adjoint) of the forward.
 * start == end, or any empty tensor, is a no-op. L must be even (a multiple of 4 for
 * QUARTER). x and cos/sin may have any two of F32, F16 and BF16; F64 x goes with F64
 * cos/sin only (and F64 cos/sin with F64 x), computed in double. */
typedef enum ropekit_rotary_mode {
    ROPEKIT_ROTARY_HALF = 0,
    ROPEKIT_ROTARY_INTERLEAVE = 1,
    ROPEKIT_ROTARY_QUARTER = 2,
    ROPEKIT_ROTARY_INTERLEAVE_HALF = 3
} ropekit_rotary_mode;

/* "half", "interleave", "quarter", "interleave-half" ("?" for any other value). Thread
 * safe; the string is static. */
ROPEKIT_API const char *ropekit_rotary_mode_name(ropekit_rotary_mode mode);

typedef enum ropekit_direction { ROPEKIT_FORWARD = 0, ROPEKIT_BACKWARD = 1 } ropekit_direction;

/* Plans the operation for these shapes, strides and dtypes (the data pointers are
 * ignored). */
ROPEKIT_API ropekit_status ropekit_partial_rotary_plan_create(
    const ropekit_tensor *x, const ropekit_tensor *cos, const ropekit_tensor *sin,
    ropekit_rotary_mode mode, int64_t start, int64_t end, ropekit_direction direction,
    ropekit_plan **plan);

/* Runs a partial-rotary plan on the given data (laid out as described at planning).
 * Checks the pointers and that x shares no byte with cos or sin, then writes x; on
 * failure x is untouched. */
ROPEKIT_API ropekit_status ropekit_partial_rotary_execute(const ropekit_plan *plan, void *x,
                                                          const void *cos, const void *sin);

/* Plan + execute in one call (nothing to destroy). */
ROPEKIT_API ropekit_status ropekit_partial_rotary(const ropekit_tensor *x,
                                                  const ropekit_tensor *cos,
                                                  const ropekit_tensor *sin,
                                                  ropekit_rotary_mode mode, int64_t start,
                                                  int64_t end, ropekit_direction direction);

/* Out of place (RotaryPositionEmbedding's form): x is read and left as it is, and out
 * (x's shape and dtype, any strides) receives the rotated x: the slice rotated as above,
 * the rest of each row copied bit for bit (start == end: out is a copy of x). out may be
 * x itself (the same data and the same strides: then the call is in place); out sharing
 * any other byte with x, or any byte with cos or sin, or with itself, is refused. The
 * other rules are those of the in-place calls. A plan made here runs only with
 * ropekit_partial_rotary_out_execute, an in-place plan only with
 * ropekit_partial_rotary_execute. */
ROPEKIT_API ropekit_status ropekit_partial_rotary_out_plan_create(
    const ropekit_tensor *x, const ropekit_tensor *cos, const ropekit_tensor *sin,
    const ropekit_tensor *out, ropekit_rotary_mode mode, int64_t start, int64_t end,
    ropekit_direction direction, ropekit_plan **plan);

/* Runs an out-of-place plan: checks the pointers and the overlaps, then writes out; on
 * failure out is untouched. */
ROPEKIT_API ropekit_status ropekit_partial_rotary_out_execute(const ropekit_plan *plan,
                                                              const void *x, const void *cos,
                                                              const void *sin, void *out);

/* Out-of-place plan + execute in one call. */
ROPEKIT_API ropekit_status ropekit_partial_rotary_out(const ropekit_tensor *x,
                                                      const ropekit_tensor *cos,
                                                      const ropekit_tensor *sin,
                                                      const ropekit_tensor *out,
                                                      ropekit_rotary_mode mode, int64_t start,
                                                      int64_t end, ropekit_direction direction);

/* ---- Rotary gradient (RotaryPositionEmbeddingGrad): the whole backward of
 * ropekit_partial_rotary_out's forward ----
 *
 * dy is the gradient of the forward's out (x's shape). dx = dy rotated backward over
 * [start, end) (ropekit_partial_rotary_out with ROPEKIT_BACKWARD: the rest of each row is
 * dy's, copied), into dx (dy's shape and dtype, any strides; dx may be dy itself: in place).
 * With x (the forward's input: dy's shape and dtype) given, also the gradients of cos and
 * sin: dcos and dsin of cos's shape and dtype, each element the sum, over every row cos
 * broadcast to, of dy * x and dy * rotate(x) in the mode's pairing, summed in float64 in
 * one fixed order (the same bits on every thread count and instruction set) and rounded
 * once. x = NULL: dcos and dsin are not computed (they may be NULL). An empty dy gives zero
 * dcos/dsin. dcos/dsin share memory with no other tensor. SPEC §16. */
ROPEKIT_API ropekit_status ropekit_partial_rotary_grad(
    const ropekit_tensor *dy, const ropekit_tensor *cos, const ropekit_tensor *sin,
    const ropekit_tensor *x, const ropekit_tensor *dx, const ropekit_tensor *dcos,
    const ropekit_tensor *dsin, ropekit_rotary_mode mode, int64_t start, int64_t end);

/* Plans the rotary gradient for these shapes, strides and dtypes (the data pointers are
 * ignored; x NULL: a plan of dx only). */
ROPEKIT_API ropekit_status ropekit_partial_rotary_grad_plan_create(
    const ropekit_tensor *dy, const ropekit_tensor *cos, const ropekit_tensor *sin,
    const ropekit_tensor *x, const ropekit_tensor *dx, const ropekit_tensor *dcos,
    const ropekit_tensor *dsin, ropekit_rotary_mode mode, int64_t start, int64_t end,
    ropekit_plan **plan);

/* Runs a rotary-gradient plan on the given data (x, dcos and dsin may be NULL when the plan
 * computes no dcos/dsin). Checks the pointers and the overlaps, then writes dx (and dcos,
 * dsin); on failure nothing is written. */
ROPEKIT_API ropekit_status ropekit_partial_rotary_grad_execute(const ropekit_plan *plan,
                                                               const void *dy, const void *cos,
                                                               const void *sin, const void *x,
                                                               void *dx, void *dcos, void *dsin);

/* ---- Apply rotary (ApplyRotaryPosEmb: query and key in place, one cos/sin) ----
 *
 * query [..., D] and key [..., D] (ranks 1..8, each its own shape, strides and dtype) are
 * rotated in place over their whole last dim D by the same cos and sin: identical shapes
 * [..., D], broadcastable to query's and to key's leading dims (right-aligned; each dim
 * equal or 1). It is ropekit_partial_rotary over [0, D) of query and of key, in one plan
 * whose tasks split the rows of both over the threads. A layout is the shapes and strides:
 * BSND query [B, S, N, D] takes cos [B or 1, S, 1, D]; SBND [S, B, N, D] takes
 * [S, B or 1, 1, D]; BNSD [B, N, S, D] takes [B or 1, 1, S, D]; any other order, or
 * strided views of one, the same way. Modes and directions are partial rotary's; D must
 * be even (a multiple of 4 for QUARTER). query or key may be empty (its part is a no-op).
 * query, key: any of F32, F16, BF16 with cos/sin of any of those; F64 with F64 only. */

/* Plans the operation for these shapes, strides and dtypes (the data pointers are
 * ignored). */
ROPEKIT_API ropekit_status ropekit_apply_rotary_plan_create(
    const ropekit_tensor *query, const ropekit_tensor *key, const ropekit_tensor *cos,
    const ropekit_tensor *sin, ropekit_rotary_mode mode, ropekit_direction direction,
    ropekit_plan **plan);

/* Runs an apply-rotary plan on the given data. Checks the pointers and that query and key
 * share no byte with each other, cos or sin, then writes query and key; on failure
 * neither is touched. */
ROPEKIT_API ropekit_status ropekit_apply_rotary_execute(const ropekit_plan *plan, void *query,
                                                        void *key, const void *cos,
                                                        const void *sin);

/* Plan + execute in one call (nothing to destroy). */
ROPEKIT_API ropekit_status ropekit_apply_rotary(const ropekit_tensor *query,
                                                const ropekit_tensor *key,
                                                const ropekit_tensor *cos,
                                                const ropekit_tensor *sin, ropekit_rotary_mode mode,
                                                ropekit_direction direction);

/* ---- Rotary matrix (aclnnRotaryPositionEmbeddingV2's rotate: any linear rotation) ----
 *
 * Per row v of x's last dim D: out = v*cos + (v @ rotate)*sin, rotate a [D, D] matrix
 * (any strides) the caller builds: a rotation mode's signed permutation, several of them
 * on the diagonal for a row split into parts, or any other. x any rank >= 1, strides and
 * float dtype (float64 included); cos, sin, rotate and out of x's dtype; cos and sin of
 * x's rank, last dim D, each leading dim 1 or x's; out x's shape with its own strides, or
 * x itself (in place). v @ rotate sums exact float64 products in row order, rounded once
 * to fp32 (float64 stays float64), then SPEC §1's products and add: the same bytes on
 * every thread count and CPU. Work is D*D multiply-adds per row. SPEC §15.5. */
ROPEKIT_API ropekit_status ropekit_rotary_matrix(const ropekit_tensor *x, const ropekit_tensor *cos,
                                                 const ropekit_tensor *sin,
                                                 const ropekit_tensor *rotate,
                                                 const ropekit_tensor *out);

/* Plans the rotary matrix for these shapes, strides and dtypes (data pointers ignored). */
ROPEKIT_API ropekit_status ropekit_rotary_matrix_plan_create(
    const ropekit_tensor *x, const ropekit_tensor *cos, const ropekit_tensor *sin,
    const ropekit_tensor *rotate, const ropekit_tensor *out, ropekit_plan **plan);

/* Runs a rotary-matrix plan on the given data: checks the pointers and that out is x or
 * shares no byte with it, cos, sin or rotate, then writes out; on failure nothing. */
ROPEKIT_API ropekit_status ropekit_rotary_matrix_execute(const ropekit_plan *plan, const void *x,
                                                         const void *cos, const void *sin,
                                                         const void *rotate, void *out);

/* ---- Rope with a cos/sin cache (RopeWithSinCosCache, vLLM's rotary_embedding) ----
 *
 * Tokens are laid out by the token dims: [T], or batched [B, S]. positions (int64) are
 * [token dims] for rope ([T] or [B, S]) or [m, token dims] for mrope ([m, T] or
 * [m, B, S]); their rank gives the number of token dims. query/key have the token dims
 * followed by [H*head_size] or [H, head_size]: [T, H*head_size], [T, H, head_size],
 * [B, S, H*head_size] or [B, S, H, head_size]. Every tensor takes any strides (zero
 * included where no output element is written twice), so a [B, H, S, D] tensor passes
 * as its [B, S, H, D] permuted view. The cache is [max_positions, rotary_dim] with
 * cos(p) in columns [0, h) and sin(p) in [h, R), h = rotary_dim / 2. For a token and
 * coefficient j, the cache row is positions[src(j)][token] (+ offsets[token], see
 * ropekit_rope_config) where src picks a section. Each head's first rotary_dim elements
 * are rotated (NeoX or GPT-J pairing, ropekit_rope_style), the rest copied bit for bit.
 * An output may be the same view as its input (in place); any other overlap, with an
 * input, the cache, positions or offsets, is an error. A cache row outside
 * [0, max_positions) (position + offset overflowing int64 included) fails the call with
 * ROPEKIT_OUT_OF_RANGE before anything is written. Results do not depend on the layout:
 * [B, S] gives the bytes of the same tokens flattened to [T]. */
typedef enum ropekit_rope_style {
    ROPEKIT_ROPE_NEOX = 0, /* rotate-half: pairs (j, j + h) */
    ROPEKIT_ROPE_GPTJ = 1  /* interleaved: pairs (2j, 2j + 1) */
} ropekit_rope_style;

#define ROPEKIT_ROPE_MAX_SECTIONS 16

/* mrope coefficient layouts (ropekit_rope_config.cache_mode), sections s0, s1, ... summing
 * to h; "row k" is positions[k].
 *   SECTIONED (any sections): section k feeds coefficients [S_k, S_k+1) from row k, S_k
 *     the sum of the sections before k.
 *   QWEN3_VL (3 sections, interleaved): j % 3 == 1 and j / 3 < s1 from row 1, j % 3 == 2
 *     and j / 3 < s2 from row 2, every other j from row 0: [t h w t h w ... t t].
 *   ERNIE_VL (3 sections (s_h, s_w, s_t) with s_h == s_w; rows stay (t, h, w)): j below
 *     s_h + s_w from row 1 when even and row 2 when odd, the last s_t from row 0:
 *     [h w h w ... t t t].
 *   PANGU_VL (2 sections (s0, s1) or 3 (s0, s1, s2) = (t, h, w); openPangu-VL's
 *     interleaved mrope): j from row q_j of a greedy sequence q. Each step takes, of the
 *     rows k with slots left, the one with the least placed_k / count_k (lowest k on
 *     ties), skipping the row taken last unless it is the only one left; count_k = s_k,
 *     except that with 3 sections the sequence has s0 - 1 slots of row 0 and then ends
 *     with row 0. */
typedef enum ropekit_rope_cache_mode {
    ROPEKIT_MROPE_SECTIONED = 0,
    ROPEKIT_MROPE_QWEN3_VL = 1,
    ROPEKIT_MROPE_ERNIE_VL = 2,
    ROPEKIT_MROPE_PANGU_VL = 3
} ropekit_rope_cache_mode;

typedef struct ropekit_rope_config {
    int64_t head_size;
    ropekit_rope_style style;
    /* mrope: num_sections > 0 and sections[0] > 0; sections sum to rotary_dim / 2.
     * Otherwise (NULL, 0 sections, or sections[0] == 0) plain rope. */
    const int64_t *sections;
    int32_t num_sections;
    /* mrope only: which position row feeds coefficient j (0 <= j < h), one of
     * ropekit_rope_cache_mode. */
    int64_t cache_mode;
    /* NULL: none. Otherwise int64 offsets shaped like positions' token dims ([T] or
     * [B, S], any strides; stride 0 gives e.g. one offset per batch): a token's cache
     * row is position + offset (vLLM's offsets; for mrope the same offset is added to
     * every section's row). Plan creation ignores its data; ropekit_rope reads it. A
     * plan made with offsets runs with ropekit_rope_execute_offsets only. */
    const ropekit_tensor *offsets;
} ropekit_rope_config;

/* Plans the operation; data pointers are ignored. Either the query pair or the key pair
 * may be NULL (key-only or query-only calls); no tokens (T == 0, B == 0 or S == 0) is a
 * no-op. The cache dtype may differ from the query/key dtype, except for F64: F64
 * query/key go with an F64 cache only (and an F64 cache with F64 query/key), computed in
 * double. */
ROPEKIT_API ropekit_status ropekit_rope_plan_create(
    const ropekit_tensor *positions, const ropekit_tensor *query_in, const ropekit_tensor *key_in,
    const ropekit_tensor *cos_sin_cache, const ropekit_tensor *query_out,
    const ropekit_tensor *key_out, const ropekit_rope_config *config, ropekit_plan **plan);

/* Runs a rope plan on the given data. Checks the pointers, the overlaps and every
 * position before it writes anything; on failure the outputs are untouched. A plan made
 * with offsets is refused (ROPEKIT_INVALID_ARGUMENT): use ropekit_rope_execute_offsets. */
ROPEKIT_API ropekit_status ropekit_rope_execute(const ropekit_plan *plan, const int64_t *positions,
                                                const void *query_in, const void *key_in,
                                                const void *cos_sin_cache, void *query_out,
                                                void *key_out);

/* ropekit_rope_execute with the offsets' data for a plan made with offsets (laid out as
 * config.offsets was). A plan made without offsets takes offsets == NULL only (then it
 * is ropekit_rope_execute); other offsets are refused with ROPEKIT_INVALID_ARGUMENT. */
ROPEKIT_API ropekit_status ropekit_rope_execute_offsets(const ropekit_plan *plan,
                                                        const int64_t *positions,
                                                        const int64_t *offsets,
                                                        const void *query_in, const void *key_in,
                                                        const void *cos_sin_cache, void *query_out,
                                                        void *key_out);

/* Plan + execute in one call (nothing to destroy). */
ROPEKIT_API ropekit_status ropekit_rope(
    const ropekit_tensor *positions, const ropekit_tensor *query_in, const ropekit_tensor *key_in,
    const ropekit_tensor *cos_sin_cache, const ropekit_tensor *query_out,
    const ropekit_tensor *key_out, const ropekit_rope_config *config);

/* ---- Cos/sin tables ----
 * Angles are computed in double (position * inv_freq[i]) and each value is rounded once
 * to the output dtype (F32, F16, BF16; F64 stores the double values themselves).
 * inv_freq[i] = base^(-2i / rotary_dim) before scaling; R below is rotary_dim (the table
 * width), f the factor. Start from ropekit_rope_scaling_defaults, which fills every field
 * (the fields appended after the first release default to 0, which keeps the older
 * fields' tables). */
typedef enum ropekit_rope_scaling_type {
    ROPEKIT_SCALING_NONE = 0,
    ROPEKIT_SCALING_LINEAR = 1,      /* angle = (p / factor) * inv_freq */
    ROPEKIT_SCALING_DYNAMIC_NTK = 2, /* base scaled for max_positions > original_max_position */
    ROPEKIT_SCALING_YARN = 3,        /* ramp between interpolation and extrapolation, mscale */
    ROPEKIT_SCALING_LLAMA3 = 4,      /* wavelength-dependent smoothing */
    ROPEKIT_SCALING_LONGROPE = 5,    /* per-frequency short/long factors (Phi-3, Phi-4) */
    ROPEKIT_SCALING_NTK = 6,         /* fixed NTK-aware base, optionally mixed (mixed_b) */
    ROPEKIT_SCALING_DYNAMIC_NTK_ALPHA = 7, /* base * alpha^(R / (R - 2)) (Hunyuan) */
    ROPEKIT_SCALING_DEEPSEEK_YARN = 8      /* vLLM's deepseek_yarn: the fields and tables of
                                              YARN ("YARN" below means both) */
} ropekit_rope_scaling_type;

typedef struct ropekit_rope_scaling {
    ropekit_rope_scaling_type type;
    double factor;                 /* LINEAR, DYNAMIC_NTK, YARN, LLAMA3, NTK, DEEPSEEK_YARN;
                                      LONGROPE: expanded / original context (magnitude only) */
    int64_t original_max_position; /* DYNAMIC_NTK, YARN, LLAMA3, LONGROPE, DEEPSEEK_YARN */
    double beta_fast, beta_slow;   /* YARN (usually 32 and 1) */
    double extrapolation_factor;   /* YARN (usually 1) */
    double attn_factor;            /* YARN: multiplies the magnitude (vLLM's attn_factor) */
    double low_freq_factor;        /* LLAMA3 (usually 1) */
    double high_freq_factor;       /* LLAMA3 (usually 4) */
    /* Appended fields. Zero is their default and leaves the tables of the fields above as
     * they were, so a struct filled field by field without ropekit_rope_scaling_defaults
     * keeps working. */
    int32_t no_truncate;        /* YARN: 0 floors/ceils the correction range (default, Hugging
                                   Face's truncate = true); 1 keeps its fractional bounds
                                   (truncate = false, gpt-oss) */
    double attention_factor;    /* YARN, LONGROPE: > 0 replaces the derived magnitude (Hugging
                                   Face's attention_factor); 0 derives it (default) */
    double mscale;              /* YARN: derived magnitude mscale(f, mscale) / mscale(f,
                                   mscale_all_dim); mscale 0 (default) stands for 1, as a */
    double mscale_all_dim;      /*   missing key in Hugging Face's configs; mscale_all_dim 0
                                   (default) gives mscale(f, 0) = 1 */
    double mixed_b;             /* NTK: 0 = fixed NTK (default); > 0 = mixed NTK exponent b */
    double alpha;               /* DYNAMIC_NTK_ALPHA (default 1) */
    const double *short_factor; /* LONGROPE: R/2 per-frequency divisors each (the caller's */
    const double *long_factor;  /*   memory, read during the call only) */
    int64_t short_factor_count, long_factor_count;
    int32_t longrope_stacked; /* LONGROPE: 0 = one table, long factors when max_positions >
                                 original_max_position (default); 1 = rows [0, original) short
                                 at positions 0.., rows [original, max_positions) long at
                                 positions 0.. (vLLM's layout: index p + original for long) */
    double short_mscale;      /* LONGROPE: > 0 replaces the magnitude of the rows built from the
                                 short factors (vLLM's short_mscale, Phi-3-small); 0 (default)
                                 keeps attention_factor's or the derived one */
    double long_mscale;       /* LONGROPE: the same for the rows of the long factors */
} ropekit_rope_scaling;

/* Fills `out` with the defaults of `type`: factor 1, original_max_position 8192,
 * beta_fast 32, beta_slow 1, extrapolation_factor 1, attn_factor 1, low/high_freq_factor
 * 1/4, and 0 (their defaults) for every appended field but alpha, which is 1. */
ROPEKIT_API void ropekit_rope_scaling_defaults(ropekit_rope_scaling *out,
                                               ropekit_rope_scaling_type type);

/* The inverse frequencies (rotary_dim / 2 values) after scaling, in the Hugging Face and
 * vLLM view: angle = position * inv_freq[i] (for LINEAR, base^(-2i/R) / factor).
 * max_positions matters for DYNAMIC_NTK and LONGROPE only. */
ROPEKIT_API ropekit_status ropekit_rope_inv_freq(double *inv_freq, int64_t rotary_dim, double base,
                                                 int64_t max_positions,
                                                 const ropekit_rope_scaling *scaling);

/* The frequencies exactly as the table builders use them: angle = (position /
 * *position_divisor) * inv_freq[i]. *position_divisor is factor for LINEAR and 1
 * otherwise, so for LINEAR inv_freq holds the unscaled base^(-2i/R). */
ROPEKIT_API ropekit_status ropekit_rope_table_frequencies(double *inv_freq,
                                                          double *position_divisor,
                                                          int64_t rotary_dim, double base,
                                                          int64_t max_positions,
                                                          const ropekit_rope_scaling *scaling);

/* The magnitude the tables bake into cos and sin (Hugging Face's attention_scaling):
 * YARN, DEEPSEEK_YARN: (attention_factor > 0 ? attention_factor : mscale(f, mscale or 1) /
 * mscale(f, mscale_all_dim)) * attn_factor, where mscale(f, m) = 0.1 m ln(f) + 1 for
 * f > 1, else 1; LONGROPE: attention_factor > 0 ? attention_factor : sqrt(1 + ln(f) /
 * ln(original_max_position)) for f > 1, else 1 (rows of a set whose short_mscale or
 * long_mscale is > 0 have that magnitude instead); every other type (and scaling NULL): 1. */
ROPEKIT_API ropekit_status ropekit_rope_attention_scaling(double *attention_scaling,
                                                          int64_t rotary_dim,
                                                          const ropekit_rope_scaling *scaling);

/* The magnitude of cos and sin in row `row` (0 <= row < max_positions) of the table
 * ropekit_cos_sin_cache_build or ropekit_rotary_coeffs_build makes with max_positions rows:
 * ropekit_rope_attention_scaling's, except in LONGROPE rows built from a factor set whose
 * short_mscale or long_mscale is > 0, which have that value. The long set serves every row
 * when max_positions > original_max_position, or, stacked (longrope_stacked), the rows from
 * original_max_position on. Checks rotary_dim (even, >= 2), row and the scaling as the
 * builders do. */
ROPEKIT_API ropekit_status ropekit_rope_table_magnitude(double *magnitude, int64_t rotary_dim,
                                                        int64_t max_positions, int64_t row,
                                                        const ropekit_rope_scaling *scaling);

/* What DeepSeek-V2/V3-style models multiply their softmax scale by (DeepSeek's
 * softmax_scale * mscale^2, vLLM's deepseek_yarn): YARN, DEEPSEEK_YARN: mscale(f,
 * mscale_all_dim)^2, mscale as above (so 1 for f <= 1 or mscale_all_dim 0); every other
 * type (and scaling NULL): 1. Reads factor and mscale_all_dim only, and checks the type,
 * factor, original_max_position and, for the YaRN types, their fields as the builders do
 * (no rotary_dim: it checks nothing that depends on one). */
ROPEKIT_API ropekit_status ropekit_rope_softmax_scale(double *softmax_scale,
                                                      const ropekit_rope_scaling *scaling);

/* RopeWithSinCosCache's cache: a contiguous [max_positions, rotary_dim] tensor of
 * `dtype` with cos in columns [0, h) and sin in [h, R). scaling NULL = none. Row p holds
 * position p, except in a stacked LongRoPE table (longrope_stacked). */
ROPEKIT_API ropekit_status ropekit_cos_sin_cache_build(void *cache, ropekit_dtype dtype,
                                                       int64_t max_positions, int64_t rotary_dim,
                                                       double base,
                                                       const ropekit_rope_scaling *scaling);

/* InplacePartialRotaryMul's coefficient rows: contiguous cos and sin tensors of shape
 * [num_positions, len] for positions 0..num_positions-1, laid out for `mode`: each
 * frequency is duplicated on both members of its pair (interleave: [c0 c0 c1 c1 ..];
 * half: [c0 c1 .. | c0 c1 ..]; quarter: two half blocks of len/2, frequencies
 * 0..len/4-1 then len/4..len/2-1; interleave-half: like half). */
ROPEKIT_API ropekit_status ropekit_rotary_coeffs_build(void *cos, void *sin, ropekit_dtype dtype,
                                                       int64_t num_positions, int64_t len,
                                                       ropekit_rotary_mode mode, double base,
                                                       const ropekit_rope_scaling *scaling);

/* The same two tables from the caller's frequencies, for models whose frequencies no
 * scaling type gives: angle = position * inv_freq[i] for the rotary_dim / 2 (len / 2)
 * values of inv_freq (finite; read during the call only), and every cos and sin
 * multiplied by `magnitude` (finite, > 0; 1 = none) before its one rounding. Row p holds
 * position p. Given the inv_freq of ropekit_rope_table_frequencies for the same
 * max_positions (where its position_divisor is 1: every type but LINEAR, and LongRoPE
 * unstacked) and the magnitude of ropekit_rope_attention_scaling, they build the tables
 * above bit for bit. */
ROPEKIT_API ropekit_status ropekit_cos_sin_cache_from_inv_freq(void *cache, ropekit_dtype dtype,
                                                               int64_t max_positions,
                                                               int64_t rotary_dim,
                                                               const double *inv_freq,
                                                               double magnitude);
ROPEKIT_API ropekit_status ropekit_rotary_coeffs_from_inv_freq(
    void *cos, void *sin, ropekit_dtype dtype, int64_t num_positions, int64_t len,
    ropekit_rotary_mode mode, const double *inv_freq, double magnitude);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ROPEKIT_H_ */
