/* Fuzz target: sequences of ACL runtime and aclnn meta calls (aclInit/aclFinalize in any
 * order, devices, streams, aclrtMalloc/Free/MallocHost/FreeHost, aclrtMemcpy(Async),
 * aclrtMemset, aclCreateTensor/IntArray and their getters, and executors of
 * aclnnInplacePartialRotaryMul: phase 1, repeatable, rebinding, phase 2 on any stream,
 * also after aclFinalize).
 *
 * The target keeps a model of every live handle and of every buffer's bytes, so most calls
 * use valid handles; a call may also get NULL, a freed handle or one the runtime never gave
 * out (only where the runtime tracks them: allocations, streams, executors). Oracle: each
 * call either succeeds with its documented effect (the model's bytes: memmove, memset, the
 * native API's rotation for phase 2) or returns the model's error code with a fresh message
 * naming the API and changes nothing. A helper thread may keep a stream busy so that work
 * is queued behind it rather than run at once. At the end of each input everything the
 * model holds is released and the runtime finalised: LeakSanitizer sees the memory, and no
 * stream worker thread may be left. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "testkit/acl_dtype.h"
#include "testkit/half_bits.h"
#include "ropekit/ropekit.h"

#define NBUF 8
#define NSTREAM 3
#define NTENSOR 6
#define NARRAY 4
#define NEXEC 4
#define NSTALE 16
#define MAX_CALLS 64
#define SMALL_BYTES 1024
#define DEFAULT_STREAM NSTREAM /* the pending-stream index of the default stream */

enum buf_kind { BUF_NONE, BUF_DEVICE, BUF_HOST, BUF_PLAIN };

typedef struct {
    enum buf_kind kind;
    uint8_t *p;
    size_t size;
    uint8_t *shadow; /* the bytes the buffer must hold once its pending work has run */
    int pending;     /* stream index whose queued work touches it, or -1 */
    unsigned gen;    /* bumped when the slot gets a new buffer */
} buffer;

typedef struct {
    int buf; /* -1: NULL address */
    unsigned gen;
    size_t off; /* byte offset of the view's first element in the buffer */
} binding;

typedef struct {
    aclOpExecutor *h; /* NULL: slot empty */
    bool repeatable;
    bool noop;
    ropekit_dtype xdt, cdt;
    int64_t xdims[4], cdims[4];
    int64_t start, end;
    size_t bytes[3];    /* x, cos, sin view bytes (contiguous) */
    size_t view_off[3]; /* offset * item size of the tensor phase 1 saw */
    binding slot[3];
} executor;

typedef struct {
    aclTensor *h;
    uint64_t ndim;
    int64_t dims[8], strides[8], offset, storage[8];
    uint64_t storage_ndim;
    aclDataType dtype;
    aclFormat format;
} tensor;

typedef struct {
    aclIntArray *h;
    uint64_t size;
} int_array;

typedef struct {
    fz_input in;
    buffer buf[NBUF];
    aclrtStream stream[NSTREAM];
    tensor tensor[NTENSOR];
    int_array array[NARRAY];
    executor exec[NEXEC];
    void *stale_mem[NSTALE];
    aclrtStream stale_stream[NSTALE];
    aclOpExecutor *stale_exec[NSTALE];
    int n_stale_mem, n_stale_stream, n_stale_exec;
    int accepted, rejected;
    /* the helper that keeps a stream busy */
    bool hog_running;
    pthread_t hog;
    aclrtStream hog_stream;
    int hog_index;
    bool hog_started;
    uint8_t *hog_src, *hog_dst;
} model;

/* Process-wide runtime state, as the model predicts it (it outlives one input). */
static bool g_init;
static bool g_finalized;

/* ---------------------------------------------------------------- oracle helpers */

static const char kSentinel[] = "aclrtGetDeviceCount: count = NULL: output required";

/* Leaves a known message, so that a failure can be seen to set its own. */
static void reset_message(void) {
    FZ_CHECK(aclrtGetDeviceCount(NULL) != ACL_SUCCESS, "aclrtGetDeviceCount(NULL) succeeded");
    FZ_CHECK(strcmp(aclGetRecentErrMsg(), kSentinel) == 0, "unexpected message \"%s\"",
             aclGetRecentErrMsg());
}

static void verify_buffers(const model *m, const char *after) {
    for (int i = 0; i < NBUF; i++) {
        const buffer *b = &m->buf[i];
        if (b->kind == BUF_NONE || b->pending >= 0 || b->size == 0)
            continue;
        if (memcmp(b->p, b->shadow, b->size) != 0) {
            size_t k = 0;
            while (b->p[k] == b->shadow[k])
                k++;
            FZ_CHECK(false, "after %s: buffer %d (%zu bytes) byte %zu is 0x%02x, expected 0x%02x",
                     after, i, b->size, k, b->p[k], b->shadow[k]);
        }
    }
}

/* The call returned `got`; the model expected `want` (0: success). */
static void expect(model *m, int got, int want, const char *api) {
    if (want == 0) {
        FZ_CHECK(got == 0, "%s failed with %d (\"%s\"), the model expected success", api, got,
                 aclGetRecentErrMsg());
        m->accepted++;
    } else {
        FZ_CHECK(got == want, "%s returned %d (\"%s\"), the model expected %d", api, got,
                 aclGetRecentErrMsg(), want);
        const char *msg = aclGetRecentErrMsg();
        FZ_CHECK(msg && msg[0] != '\0', "%s failed (%d) without a message", api, got);
        FZ_CHECK(strcmp(msg, kSentinel) != 0, "%s failed (%d) but left the previous message", api,
                 got);
        FZ_CHECK(strstr(msg, api) != NULL, "%s failed (%d) with a message not naming it: \"%s\"",
                 api, got, msg);
        m->rejected++;
    }
    FZ_TRACE("  %s -> %d%s%s", api, got, got ? ": " : "", got ? aclGetRecentErrMsg() : "");
    verify_buffers(m, api);
}

static int count_stream_threads(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[64], name[32] = {0};
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(name, sizeof name, f) && strncmp(name, "ropekit-stream", 14) == 0)
            n++;
        fclose(f);
    }
    closedir(d);
    return n;
}

/* ---------------------------------------------------------------- model bookkeeping */

static void remember(void **list, int *n, void *p) {
    if (*n < NSTALE)
        list[(*n)++] = p;
    else
        list[(size_t)(((uintptr_t)p >> 6) % NSTALE)] = p;
}

static bool is_live_buffer(const model *m, const void *p) {
    for (int i = 0; i < NBUF; i++)
        if (m->buf[i].kind != BUF_NONE && m->buf[i].p == p)
            return true;
    return false;
}

static int live_stream_index(const model *m, aclrtStream s) {
    for (int i = 0; i < NSTREAM; i++)
        if (m->stream[i] && m->stream[i] == s)
            return i;
    return -1;
}

static int live_exec_index(const model *m, const aclOpExecutor *e) {
    for (int i = 0; i < NEXEC; i++)
        if (m->exec[i].h && m->exec[i].h == e)
            return i;
    return -1;
}

static void clear_pending(model *m, int stream) {
    for (int i = 0; i < NBUF; i++)
        if (m->buf[i].pending == stream || stream < 0)
            m->buf[i].pending = -1;
}

/* Model action (not a fuzzed call): waits for a stream the model has queued work on. */
static void settle(model *m, int stream) {
    if (stream < 0)
        return;
    aclrtStream h = stream == DEFAULT_STREAM ? NULL : m->stream[stream];
    aclError e = aclrtSynchronizeStream(h);
    FZ_CHECK(e == ACL_SUCCESS, "settling stream %d: %d (%s)", stream, e, aclGetRecentErrMsg());
    clear_pending(m, stream);
}

/* Before buffer b is touched by work on `stream` (-1: synchronously): work queued on
 * another stream that touches it must have run. */
static void order_before(model *m, int b, int stream) {
    if (b >= 0 && m->buf[b].pending >= 0 && m->buf[b].pending != stream)
        settle(m, m->buf[b].pending);
}

static void join_hog(model *m) {
    if (!m->hog_running)
        return;
    pthread_join(m->hog, NULL);
    m->hog_running = false;
    settle(m, m->hog_index); /* its copies may still be queued */
    free(m->hog_src);
    free(m->hog_dst);
    m->hog_src = m->hog_dst = NULL;
}

/* ---------------------------------------------------------------- pointer choice */

typedef struct {
    uint8_t *p;
    int buf;     /* -1 when p is NULL or not a model buffer */
    size_t room; /* bytes from p to the end of its buffer */
} place;

/* A place: mostly in a live buffer (at an offset), sometimes NULL. */
static place pick_place(model *m, bool allow_null) {
    place pl = {NULL, -1, 0};
    int live[NBUF], n = 0;
    for (int i = 0; i < NBUF; i++)
        if (m->buf[i].kind != BUF_NONE)
            live[n++] = i;
    uint8_t c = fz_u8(&m->in);
    if (n == 0 || (allow_null && c < 16))
        return pl;
    int b = live[c % n];
    size_t off = fz_bool(&m->in) ? 0 : (size_t)fz_range(&m->in, 0, (int64_t)m->buf[b].size);
    pl.p = m->buf[b].p + off;
    pl.buf = b;
    pl.room = m->buf[b].size - off;
    return pl;
}

static int free_slot_buf(const model *m) {
    for (int i = 0; i < NBUF; i++)
        if (m->buf[i].kind == BUF_NONE)
            return i;
    return -1;
}

static void add_buffer(model *m, int slot, enum buf_kind kind, uint8_t *p, size_t size) {
    buffer *b = &m->buf[slot];
    b->kind = kind;
    b->p = p;
    b->size = size;
    b->shadow = malloc(size ? size : 1);
    b->pending = -1;
    b->gen++;
    uint8_t fill = fz_u8(&m->in);
    for (size_t i = 0; i < size; i++)
        p[i] = (uint8_t)(fill + i * 37u);
    memcpy(b->shadow, p, size);
}

static void drop_buffer(model *m, int slot) {
    buffer *b = &m->buf[slot];
    free(b->shadow);
    b->shadow = NULL;
    b->kind = BUF_NONE;
    b->p = NULL;
    b->size = 0;
    b->pending = -1;
}

/* ---------------------------------------------------------------- init, devices */

static void op_init(model *m) {
    static const char *const paths[] = {NULL, "", "/dev/null", "/nonexistent-dir/acl.json"};
    const char *path = paths[fz_range(&m->in, 0, 3)];
    FZ_TRACE("aclInit(%s)", path ? path : "NULL");
    int want = path == paths[3] ? ACL_ERROR_INVALID_PARAM
               : g_init         ? ACL_ERROR_REPEAT_INITIALIZE
                                : 0;
    expect(m, aclInit(path), want, "aclInit");
    if (want != ACL_ERROR_INVALID_PARAM) {
        g_init = true;
        g_finalized = false;
    }
}

static void op_finalize(model *m) {
    FZ_TRACE("aclFinalize()");
    join_hog(m); /* no call may race with aclFinalize */
    int want = g_init ? 0 : g_finalized ? ACL_ERROR_REPEAT_FINALIZE : ACL_ERROR_UNINITIALIZE;
    expect(m, aclFinalize(), want, "aclFinalize");
    if (want == 0)
        clear_pending(m, -1); /* it drained every stream */
    g_finalized = g_finalized || g_init;
    g_init = false;
}

static int32_t pick_device(model *m) {
    static const int64_t ids[] = {0, 0, 0, 1, -1, INT32_MAX, INT32_MIN};
    return (int32_t)fz_pick(&m->in, ids, 7);
}

static void op_device(model *m, bool reset) {
    int32_t id = pick_device(m);
    const char *api = reset ? "aclrtResetDevice" : "aclrtSetDevice";
    FZ_TRACE("%s(%d)", api, (int)id);
    int want = !g_init ? ACL_ERROR_UNINITIALIZE : id != 0 ? ACL_ERROR_INVALID_DEVICE : 0;
    expect(m, reset ? aclrtResetDevice(id) : aclrtSetDevice(id), want, api);
    if (reset && want == 0)
        clear_pending(m, -1);
}

static void op_device_count(model *m) {
    uint32_t n = 7;
    bool null = fz_u8(&m->in) < 64;
    FZ_TRACE("aclrtGetDeviceCount(%s)", null ? "NULL" : "&n");
    if (null) {
        /* its own failure is the sentinel: check it directly */
        FZ_CHECK(aclrtGetDeviceCount(NULL) == ACL_ERROR_INVALID_PARAM, "GetDeviceCount(NULL)");
        return;
    }
    expect(m, aclrtGetDeviceCount(&n), 0, "aclrtGetDeviceCount");
    FZ_CHECK(n == 1, "aclrtGetDeviceCount gave %u", n);
}

/* ---------------------------------------------------------------- streams */

/* A stream argument: live (mostly), NULL (the default stream), destroyed, or a pointer
 * that is no stream. *index: model index, DEFAULT_STREAM, or -1 for a bad one. */
static aclrtStream pick_stream(model *m, int *index) {
    uint8_t c = fz_u8(&m->in);
    int which = c % 8;
    if (which < 4) {
        int i = which % NSTREAM;
        for (int k = 0; k < NSTREAM; k++, i = (i + 1) % NSTREAM)
            if (m->stream[i]) {
                *index = i;
                return m->stream[i];
            }
    }
    if (which < 6) {
        *index = DEFAULT_STREAM;
        return NULL;
    }
    if (which == 6 && m->n_stale_stream > 0) {
        aclrtStream s = m->stale_stream[c / 8 % m->n_stale_stream];
        *index = live_stream_index(m, s); /* its address may have been reused */
        return s;
    }
    for (int i = 0; i < NBUF; i++) /* a live allocation is no stream */
        if (m->buf[i].kind != BUF_NONE) {
            *index = -1;
            return m->buf[i].p;
        }
    *index = -1;
    return &m->in;
}

/* The code a call on stream `index` gets from the stream alone. */
static int stream_code(int index) {
    return !g_init ? ACL_ERROR_UNINITIALIZE : index < 0 ? ACL_ERROR_INVALID_PARAM : 0;
}

static void op_create_stream(model *m) {
    int slot = -1;
    for (int i = 0; i < NSTREAM; i++)
        if (!m->stream[i])
            slot = i;
    bool null = fz_u8(&m->in) < 24;
    if (slot < 0 && !null)
        return;
    FZ_TRACE("aclrtCreateStream(%s)", null ? "NULL" : "&s");
    aclrtStream s = (aclrtStream)&m->in;
    int want = null ? ACL_ERROR_INVALID_PARAM : !g_init ? ACL_ERROR_UNINITIALIZE : 0;
    expect(m, aclrtCreateStream(null ? NULL : &s), want, "aclrtCreateStream");
    if (null)
        return;
    if (want) {
        FZ_CHECK(s == (aclrtStream)&m->in, "a failed aclrtCreateStream wrote its output");
        return;
    }
    FZ_CHECK(s != NULL && live_stream_index(m, s) < 0, "aclrtCreateStream gave %p", s);
    m->stream[slot] = s;
}

static void op_destroy_stream(model *m) {
    int index;
    aclrtStream s = pick_stream(m, &index);
    if (index == DEFAULT_STREAM) {
        s = NULL;
        index = -1; /* NULL is no stream to destroy */
    }
    if (index >= 0 && m->hog_running && m->hog_stream == s)
        join_hog(m); /* the helper must be done submitting to it */
    FZ_TRACE("aclrtDestroyStream(%p)%s", s, index >= 0 ? "" : " (bad)");
    expect(m, aclrtDestroyStream(s), index >= 0 ? 0 : ACL_ERROR_INVALID_PARAM,
           "aclrtDestroyStream");
    if (index >= 0) {
        clear_pending(m, index); /* its queued work ran first */
        m->stream[index] = NULL;
        remember((void **)m->stale_stream, &m->n_stale_stream, s);
    }
}

static void op_sync_stream(model *m) {
    int index;
    aclrtStream s = pick_stream(m, &index);
    FZ_TRACE("aclrtSynchronizeStream(%p) index %d", s, index);
    int want = stream_code(index);
    expect(m, aclrtSynchronizeStream(s), want, "aclrtSynchronizeStream");
    if (want == 0)
        clear_pending(m, index);
}

/* The helper: large copies on one stream, between its own buffers, so that the target's
 * next calls on that stream find it busy and are queued behind them. */
#define HOG_BYTES ((size_t)1 << 20)
#define HOG_COPIES 8

static void *hog_main(void *arg) {
    model *m = arg;
    for (int i = 0; i < HOG_COPIES; i++) {
        __atomic_store_n(&m->hog_started, true, __ATOMIC_RELEASE);
        if (aclrtMemcpyAsync(m->hog_dst, HOG_BYTES, m->hog_src, HOG_BYTES,
                             ACL_MEMCPY_DEVICE_TO_DEVICE, m->hog_stream) != ACL_SUCCESS)
            abort();
    }
    return NULL;
}

static void op_hog(model *m) {
    int index;
    aclrtStream s = pick_stream(m, &index);
    if (m->hog_running || index < 0 || stream_code(index) != 0)
        return;
    FZ_TRACE("helper thread: %d copies of %zu bytes on stream %d", HOG_COPIES, HOG_BYTES, index);
    m->hog_stream = s;
    m->hog_index = index;
    m->hog_started = false;
    m->hog_src = calloc(1, HOG_BYTES);
    m->hog_dst = calloc(1, HOG_BYTES);
    FZ_CHECK(m->hog_src && m->hog_dst, "out of memory");
    FZ_CHECK(pthread_create(&m->hog, NULL, hog_main, m) == 0, "pthread_create");
    m->hog_running = true;
    while (!__atomic_load_n(&m->hog_started, __ATOMIC_ACQUIRE))
        sched_yield();
}

/* ---------------------------------------------------------------- memory */

static size_t pick_alloc_size(model *m) {
    uint8_t c = fz_u8(&m->in);
    if (c < 16)
        return SIZE_MAX - (size_t)fz_range(&m->in, 0, 62); /* overflows when rounded up */
    if (c < 40)
        return (size_t)fz_range(&m->in, 0, 2);
    if (c < 64)
        return (size_t)fz_range(&m->in, 0, 4096);
    return (size_t)fz_range(&m->in, 1, SMALL_BYTES);
}

static void op_malloc(model *m, bool host) {
    int slot = free_slot_buf(m);
    size_t size = pick_alloc_size(m);
    bool null = fz_u8(&m->in) < 12;
    int64_t policy = 0;
    if (!host) {
        static const int64_t policies[] = {0,      1,      2, 3,     4,  5,      0x100,
                                           0x1000, 0x1002, 6, 0x200, -1, 0x1100, 255};
        policy = fz_pick(&m->in, policies, 14);
    }
    if (slot < 0 && !null)
        return;
    bool policy_ok =
        (policy & 0xff) <= 5 &&
        ((policy & ~0xffll) == 0 || (policy & ~0xffll) == 0x100 || (policy & ~0xffll) == 0x1000);
    bool overflows = size > SIZE_MAX - 63;
    const char *api = host ? "aclrtMallocHost" : "aclrtMalloc";
    FZ_TRACE("%s(%s, %zu, policy %lld)", api, null ? "NULL" : "&p", size, (long long)policy);
    int want = !host && !policy_ok ? ACL_ERROR_INVALID_PARAM
               : null              ? ACL_ERROR_INVALID_PARAM
               : !g_init           ? ACL_ERROR_UNINITIALIZE
               : overflows         ? ACL_ERROR_BAD_ALLOC
                                   : 0;
    void *p = &m->in;
    int got = host ? aclrtMallocHost(null ? NULL : &p, size)
                   : aclrtMalloc(null ? NULL : &p, size, (aclrtMemMallocPolicy)policy);
    expect(m, got, want, api);
    if (null)
        return;
    if (want) {
        FZ_CHECK(p == &m->in, "a failed %s wrote its output", api);
        return;
    }
    FZ_CHECK(p && (uintptr_t)p % 64 == 0 && !is_live_buffer(m, p), "%s(%zu) gave %p", api, size, p);
    add_buffer(m, slot, host ? BUF_HOST : BUF_DEVICE, p, size);
}

/* Executors bound to buffer b can no longer run: the model forgets their bindings. */
static void unbind_buffer(model *m, int b) {
    for (int i = 0; i < NEXEC; i++)
        for (int k = 0; k < 3; k++)
            if (m->exec[i].h && m->exec[i].slot[k].buf == b)
                m->exec[i].slot[k].buf = -2; /* dangling: never launched until rebound */
}

static void op_free(model *m, bool host) {
    const char *api = host ? "aclrtFreeHost" : "aclrtFree";
    uint8_t c = fz_u8(&m->in);
    void *p = NULL;
    int target = -1;
    switch (c % 6) {
    case 0:
    case 1:
    case 2: { /* a live allocation, maybe of the other kind */
        place pl = pick_place(m, false);
        if (pl.buf >= 0 && m->buf[pl.buf].kind != BUF_PLAIN) {
            p = m->buf[pl.buf].p;
            target = pl.buf;
        }
        break;
    }
    case 3:
        if (m->n_stale_mem > 0)
            p = m->stale_mem[c / 8 % m->n_stale_mem];
        for (int i = 0; i < NBUF; i++)
            if (m->buf[i].kind != BUF_NONE && m->buf[i].kind != BUF_PLAIN && m->buf[i].p == p)
                target = i; /* the address was given out again */
        break;
    case 4: { /* inside an allocation, or a buffer the runtime never gave out */
        place pl = pick_place(m, false);
        if (pl.buf >= 0 && (pl.p != m->buf[pl.buf].p || m->buf[pl.buf].kind == BUF_PLAIN))
            p = pl.p;
        break;
    }
    default:
        break; /* NULL */
    }
    bool ok = target >= 0 && m->buf[target].kind == (host ? BUF_HOST : BUF_DEVICE);
    FZ_TRACE("%s(%p)%s", api, p, ok ? "" : " (bad)");
    if (ok) {
        order_before(m, target, -1);
        if (m->buf[target].pending >= 0)
            settle(m, m->buf[target].pending);
    }
    reset_message();
    int got = host ? aclrtFreeHost(p) : aclrtFree(p);
    if (ok && got == 0) {
        unbind_buffer(m, target);
        drop_buffer(m, target);
        remember(m->stale_mem, &m->n_stale_mem, p);
    }
    expect(m, got, ok ? 0 : ACL_ERROR_INVALID_PARAM, api);
}

/* A byte count for a copy or a fill into `room` bytes (reading `src_room`): mostly within
 * both, sometimes more than the destination claims, sometimes overflowing. The runtime
 * cannot know a buffer's size, so a count within destMax is always within both buffers. */
static void pick_counts(model *m, size_t room, size_t src_room, size_t *count, size_t *dest_max) {
    size_t fit = room < src_room ? room : src_room;
    uint8_t c = fz_u8(&m->in);
    switch (c % 8) {
    case 0: /* destMax smaller than count */
        *count = fit > 0 ? (size_t)fz_range(&m->in, 1, (int64_t)fit) : 1;
        *dest_max = (size_t)fz_range(&m->in, 0, (int64_t)*count - 1);
        return;
    case 1: /* overflowing count */
        *count = SIZE_MAX - (size_t)fz_range(&m->in, 0, 3);
        *dest_max = room;
        return;
    case 2:
        *count = 0;
        *dest_max = fz_bool(&m->in) ? 0 : room;
        return;
    default:
        *count = (size_t)fz_range(&m->in, 0, (int64_t)fit);
        *dest_max = c % 8 == 3 ? *count : c % 8 == 4 ? SIZE_MAX : room;
        return;
    }
}

static int64_t pick_kind(model *m) {
    static const int64_t kinds[] = {0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 8, -1, 100, INT32_MAX};
    return fz_pick(&m->in, kinds, 14);
}

/* The start of an allocation the runtime tracks (it knows its size). */
static bool tracked_base(const model *m, place p) {
    return p.buf >= 0 && p.p == m->buf[p.buf].p &&
           (m->buf[p.buf].kind == BUF_DEVICE || m->buf[p.buf].kind == BUF_HOST);
}

/* Sometimes a count beyond an allocation the runtime can see the end of, with a destMax
 * that claims room for it; the other buffer holds the count (or is never reached). */
static void overrun_counts(model *m, place dst, place src, size_t *count, size_t *dest_max) {
    if (fz_u8(&m->in) >= 32)
        return;
    if (tracked_base(m, dst)) {
        *count = dst.room + (size_t)fz_range(&m->in, 1, 64);
        *dest_max = fz_bool(&m->in) ? *count : SIZE_MAX;
    } else if (tracked_base(m, src) && dst.p && dst.room > src.room) {
        *count = src.room + (size_t)fz_range(&m->in, 1, (int64_t)(dst.room - src.room));
        *dest_max = dst.room;
    }
}

static bool overruns(const model *m, place p, size_t count) {
    return count > 0 && tracked_base(m, p) && count > p.room;
}

static void op_memcpy(model *m, bool async) {
    const char *api = async ? "aclrtMemcpyAsync" : "aclrtMemcpy";
    place dst = pick_place(m, true), src = pick_place(m, true);
    size_t count, dest_max;
    pick_counts(m, dst.p ? dst.room : 0, src.p ? src.room : 0, &count, &dest_max);
    if (!dst.p && fz_bool(&m->in)) /* a NULL pointer with a size that would fit */
        dest_max = count;
    overrun_counts(m, dst, src, &count, &dest_max);
    int64_t kind = pick_kind(m);
    int sindex = -1;
    aclrtStream stream = async ? pick_stream(m, &sindex) : NULL;
    int want = !g_init                           ? ACL_ERROR_UNINITIALIZE
               : kind < 0 || kind > 7            ? ACL_ERROR_INVALID_PARAM
               : dest_max < count                ? ACL_ERROR_INVALID_PARAM
               : count > 0 && (!dst.p || !src.p) ? ACL_ERROR_INVALID_PARAM
               : overruns(m, dst, count)         ? ACL_ERROR_INVALID_PARAM
               : overruns(m, src, count)         ? ACL_ERROR_INVALID_PARAM
               : async                           ? stream_code(sindex)
                                                 : 0;
    FZ_TRACE("%s(dst %d+%zu, destMax %zu, src %d+%zu, count %zu, kind %lld%s %d) -> want %d", api,
             dst.buf, dst.buf >= 0 ? (size_t)(dst.p - m->buf[dst.buf].p) : 0, dest_max, src.buf,
             src.buf >= 0 ? (size_t)(src.p - m->buf[src.buf].p) : 0, count, (long long)kind,
             async ? ", stream" : "", sindex, want);
    int on = async ? sindex : -1;
    if (want == 0) {
        order_before(m, dst.buf, on);
        order_before(m, src.buf, on);
    }
    reset_message();
    int got = async ? aclrtMemcpyAsync(dst.p, dest_max, src.p, count, (aclrtMemcpyKind)kind, stream)
                    : aclrtMemcpy(dst.p, dest_max, src.p, count, (aclrtMemcpyKind)kind);
    if (want == 0 && count > 0) {
        uint8_t *s = m->buf[src.buf].shadow + (src.p - m->buf[src.buf].p);
        uint8_t *d = m->buf[dst.buf].shadow + (dst.p - m->buf[dst.buf].p);
        memmove(d, s, count);
        if (async) {
            m->buf[dst.buf].pending = on;
            m->buf[src.buf].pending = on;
        }
    }
    expect(m, got, want, api);
}

static void op_memset(model *m) {
    place dst = pick_place(m, true);
    size_t count, max_count;
    pick_counts(m, dst.p ? dst.room : 0, SIZE_MAX, &count, &max_count);
    if (!dst.p && fz_bool(&m->in))
        max_count = count;
    place none = {NULL, -1, 0};
    overrun_counts(m, dst, none, &count, &max_count);
    int32_t value = (int32_t)fz_bits(&m->in, fz_bool(&m->in) ? 1 : 4);
    int want = !g_init                   ? ACL_ERROR_UNINITIALIZE
               : count > max_count       ? ACL_ERROR_INVALID_PARAM
               : count > 0 && !dst.p     ? ACL_ERROR_INVALID_PARAM
               : overruns(m, dst, count) ? ACL_ERROR_INVALID_PARAM
                                         : 0;
    FZ_TRACE("aclrtMemset(dst %d, maxCount %zu, value %d, count %zu) -> want %d", dst.buf,
             max_count, (int)value, count, want);
    if (want == 0)
        order_before(m, dst.buf, -1);
    reset_message();
    int got = aclrtMemset(dst.p, max_count, value, count);
    if (want == 0 && count > 0)
        memset(m->buf[dst.buf].shadow + (dst.p - m->buf[dst.buf].p), (uint8_t)value, count);
    expect(m, got, want, "aclrtMemset");
}

/* ---------------------------------------------------------------- tensors, arrays */

static size_t acl_item(aclDataType dt) {
    return aclDataTypeSize(dt);
}

static bool mul_ok(int64_t a, int64_t b, int64_t *r) {
    return !__builtin_mul_overflow(a, b, r);
}

/* The item sizes aclCreateTensor's checks use for an ACL dtype: ropekit's layout check
 * counts 1 for the types ropekit does not know (tk_acl_layout_item), its span 0. */
static int64_t span_item(aclDataType dt) {
    return tk_acl_is_float(dt) || dt == ACL_INT64 || dt == ACL_DOUBLE ? tk_acl_layout_item(dt) : 0;
}

/* What aclCreateTensor must decide, computed independently: every count within 8, a known
 * dtype, offset >= 0, dims >= 0, a byte span that fits int64 (an empty view has none), the
 * view's byte extent from the storage start within int64, and, with a storage shape, the
 * view's elements (offset + reach) inside the storage. */
static bool tensor_valid(const tensor *t, const int64_t *strides) {
    if (t->ndim > 8 || t->storage_ndim > 8 || acl_item(t->dtype) == 0 || t->offset < 0)
        return false;
    bool empty = false;
    for (uint64_t i = 0; i < t->ndim; i++) {
        if (t->dims[i] < 0)
            return false;
        empty = empty || t->dims[i] == 0;
    }
    int64_t lo = 0, hi = 0, span_hi = 0;
    if (!empty) {
        int64_t numel = 1;
        for (uint64_t i = 0; i < t->ndim; i++)
            if (!mul_ok(numel, t->dims[i], &numel))
                return false;
        const int64_t item = tk_acl_layout_item(t->dtype), sitem = span_item(t->dtype);
        int64_t blo = 0, bhi = 0;
        for (uint64_t i = 0; i < t->ndim; i++) {
            int64_t reach, breach;
            if (!mul_ok(t->dims[i] - 1, strides[i], &reach) || !mul_ok(reach, item, &breach) ||
                __builtin_add_overflow(reach < 0 ? blo : bhi, breach, reach < 0 ? &blo : &bhi))
                return false;
            if (reach < 0) {
                lo += reach; /* cannot overflow: |lo| <= |blo| */
            } else {
                hi += reach;
                span_hi += reach * sitem;
            }
        }
        if (__builtin_add_overflow(bhi, item, &bhi) || bhi > INT64_MAX + blo)
            return false;
        span_hi += sitem;
    }
    int64_t end;
    if (!mul_ok(t->offset, (int64_t)acl_item(t->dtype), &end) ||
        __builtin_add_overflow(end, span_hi, &end))
        return false;
    if (empty || t->storage_ndim == 0)
        return true;
    int64_t storage = 1;
    for (uint64_t i = 0; i < t->storage_ndim; i++)
        if (t->storage[i] < 0 || !mul_ok(storage, t->storage[i], &storage))
            return false;
    int64_t first, last;
    if (__builtin_add_overflow(t->offset, lo, &first) ||
        __builtin_add_overflow(t->offset, hi, &last))
        return false;
    return first >= 0 && last < storage;
}

static void contiguous_strides(const tensor *t, int64_t *out) {
    int64_t step = 1;
    for (int64_t i = (int64_t)t->ndim - 1; i >= 0; i--) {
        out[i] = step;
        if (t->dims[i] > 1 && !mul_ok(step, t->dims[i], &step))
            step = INT64_MAX;
    }
}

static void op_create_tensor(model *m) {
    int slot = -1;
    for (int i = 0; i < NTENSOR; i++)
        if (!m->tensor[i].h)
            slot = i;
    if (slot < 0)
        return;
    static const int64_t dtypes[] = {ACL_FLOAT,    ACL_FLOAT16, ACL_BF16,         ACL_INT64,
                                     ACL_INT32,    ACL_INT8,    ACL_COMPLEX128,   ACL_DOUBLE,
                                     ACL_BOOL,     ACL_STRING,  ACL_DT_UNDEFINED, 5,
                                     ACL_HIFLOAT4, 43,          ACL_INT4,         ACL_COMPLEX32};
    tensor t;
    memset(&t, 0, sizeof t);
    uint8_t c = fz_u8(&m->in);
    uint64_t ndim = c < 8 ? (uint64_t)fz_pick(&m->in, (const int64_t[]){9, 64, -1}, 3)
                          : (uint64_t)fz_range(&m->in, 0, 5);
    t.ndim = ndim;
    for (int i = 0; i < 8; i++)
        t.dims[i] = fz_int(&m->in, 0, 6);
    bool given = fz_bool(&m->in);
    for (int i = 0; i < 8; i++)
        t.strides[i] = given ? fz_int(&m->in, -8, 40) : 0;
    t.offset = fz_int(&m->in, 0, 20);
    t.dtype = (aclDataType)fz_pick(&m->in, dtypes, 16);
    t.format = (aclFormat)fz_range(&m->in, -2, 50);
    uint8_t sc = fz_u8(&m->in);
    t.storage_ndim = sc < 8 ? 9 : (uint64_t)(sc % 4 == 0 ? 0 : fz_range(&m->in, 0, 3));
    for (int i = 0; i < 8; i++)
        t.storage[i] = fz_int(&m->in, 0, 64);
    bool null_dims = fz_u8(&m->in) < 10, null_storage = fz_u8(&m->in) < 10;
    place data = pick_place(m, true);
    int64_t strides_copy[8];
    memcpy(strides_copy, t.strides, sizeof strides_copy);
    FZ_TRACE("aclCreateTensor(ndim %llu [%lld,%lld,%lld..] strides %s offset %lld dtype %d "
             "format %d storage %llu [%lld,%lld..])",
             (unsigned long long)ndim, (long long)t.dims[0], (long long)t.dims[1],
             (long long)t.dims[2], given ? "given" : "NULL", (long long)t.offset, (int)t.dtype,
             (int)t.format, (unsigned long long)t.storage_ndim, (long long)t.storage[0],
             (long long)t.storage[1]);
    if (!given && ndim <= 8)
        contiguous_strides(&t, t.strides);
    bool want_ok = !(null_dims && ndim > 0 && ndim <= 8) &&
                   !(null_storage && t.storage_ndim > 0 && t.storage_ndim <= 8) &&
                   tensor_valid(&t, t.strides);
    reset_message();
    aclTensor *h = aclCreateTensor(null_dims ? NULL : t.dims, ndim, t.dtype,
                                   given ? strides_copy : NULL, t.offset, t.format,
                                   null_storage ? NULL : t.storage, t.storage_ndim, data.p);
    if (!want_ok) {
        FZ_CHECK(h == NULL, "aclCreateTensor accepted an invalid tensor");
        expect(m, -1, -1, "aclCreateTensor");
        return;
    }
    FZ_CHECK(h != NULL, "aclCreateTensor rejected a valid tensor: %s", aclGetRecentErrMsg());
    expect(m, 0, 0, "aclCreateTensor");
    t.h = h;
    m->tensor[slot] = t;
}

static void check_dims(const int64_t *got, uint64_t n_got, const int64_t *want, uint64_t n,
                       const char *what) {
    FZ_CHECK(n_got == n, "%s: %llu dims, expected %llu", what, (unsigned long long)n_got,
             (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++)
        FZ_CHECK(got[i] == want[i], "%s[%llu] = %lld, expected %lld", what, (unsigned long long)i,
                 (long long)got[i], (long long)want[i]);
}

static void op_tensor_getters(model *m) {
    const tensor *t = &m->tensor[fz_range(&m->in, 0, NTENSOR - 1)];
    bool null_out = fz_u8(&m->in) < 32;
    const aclTensor *h = t->h;
    FZ_TRACE("tensor getters (%s%s)", h ? "live" : "NULL", null_out ? ", NULL outputs" : "");
    int64_t *dims = NULL;
    uint64_t n = 0;
    int want = !h ? ACLNN_ERR_PARAM_NULLPTR : null_out ? ACLNN_ERR_PARAM_NULLPTR : 0;
    reset_message();
    expect(m, aclGetViewShape(h, null_out ? NULL : &dims, &n), want, "aclGetViewShape");
    if (want == 0) {
        check_dims(dims, n, t->dims, t->ndim, "view shape");
        free(dims);
    }
    reset_message();
    expect(m, aclGetViewStrides(h, &dims, null_out ? NULL : &n), want, "aclGetViewStrides");
    if (want == 0) {
        check_dims(dims, n, t->strides, t->ndim, "view strides");
        free(dims);
    }
    reset_message();
    expect(m, aclGetStorageShape(h, null_out ? NULL : &dims, &n), want, "aclGetStorageShape");
    if (want == 0) {
        check_dims(dims, n, t->storage, t->storage_ndim, "storage shape");
        free(dims);
    }
    int64_t off = -1;
    aclFormat fmt = ACL_FORMAT_UNDEFINED;
    aclDataType dt = ACL_DT_UNDEFINED;
    reset_message();
    expect(m, aclGetViewOffset(h, null_out ? NULL : &off), want, "aclGetViewOffset");
    reset_message();
    expect(m, aclGetFormat(h, null_out ? NULL : &fmt), want, "aclGetFormat");
    reset_message();
    expect(m, aclGetDataType(h, null_out ? NULL : &dt), want, "aclGetDataType");
    if (want == 0)
        FZ_CHECK(off == t->offset && fmt == t->format && dt == t->dtype,
                 "getters: offset %lld format %d dtype %d", (long long)off, (int)fmt, (int)dt);
}

static void op_destroy_tensor(model *m) {
    tensor *t = &m->tensor[fz_range(&m->in, 0, NTENSOR - 1)];
    FZ_TRACE("aclDestroyTensor(%s)", t->h ? "live" : "NULL");
    expect(m, aclDestroyTensor(t->h), 0, "aclDestroyTensor");
    t->h = NULL;
}

static void op_create_array(model *m) {
    int slot = -1;
    for (int i = 0; i < NARRAY; i++)
        if (!m->array[i].h)
            slot = i;
    if (slot < 0)
        return;
    int64_t values[4];
    for (int i = 0; i < 4; i++)
        values[i] = fz_int(&m->in, -2, 16);
    uint8_t c = fz_u8(&m->in);
    bool null = c < 16;
    uint64_t size =
        c < 32 ? (uint64_t)fz_pick(&m->in,
                                   (const int64_t[]){-1, INT64_MAX, 1ll << 61, (1ll << 61) - 1}, 4)
               : (uint64_t)fz_range(&m->in, 0, 4);
    bool too_large = size > (SIZE_MAX - 8) / 8;
    if (!null && size > 4 && !too_large)
        return; /* a size the values do not hold and the library cannot refuse */
    FZ_TRACE("aclCreateIntArray(%s, %llu)", null ? "NULL" : "values", (unsigned long long)size);
    bool want_ok = !(null && size > 0) && !too_large;
    reset_message();
    aclIntArray *a = aclCreateIntArray(null ? NULL : values, size);
    if (!want_ok) {
        FZ_CHECK(a == NULL, "aclCreateIntArray(%s, %llu) accepted", null ? "NULL" : "values",
                 (unsigned long long)size);
        expect(m, -1, -1, "aclCreateIntArray");
        return;
    }
    FZ_CHECK(a != NULL, "aclCreateIntArray(%llu) failed: %s", (unsigned long long)size,
             aclGetRecentErrMsg());
    uint64_t got = 99;
    expect(m, aclGetIntArraySize(a, &got), 0, "aclGetIntArraySize");
    FZ_CHECK(got == size, "aclGetIntArraySize gave %llu, expected %llu", (unsigned long long)got,
             (unsigned long long)size);
    m->array[slot].h = a;
    m->array[slot].size = size;
}

static void op_destroy_array(model *m) {
    int_array *a = &m->array[fz_range(&m->in, 0, NARRAY - 1)];
    if (!a->h && fz_bool(&m->in)) {
        reset_message();
        uint64_t n;
        expect(m, aclGetIntArraySize(NULL, &n), ACLNN_ERR_PARAM_NULLPTR, "aclGetIntArraySize");
        return;
    }
    FZ_TRACE("aclDestroyIntArray(%s)", a->h ? "live" : "NULL");
    expect(m, aclDestroyIntArray(a->h), 0, "aclDestroyIntArray");
    a->h = NULL;
}

/* ---------------------------------------------------------------- executors */

static size_t dt_size(ropekit_dtype dt) {
    return ropekit_dtype_size(dt);
}

/* A live buffer with `need` bytes from some offset, other than `avoid`; -1 if none. */
static int pick_room(model *m, size_t need, int avoid, size_t *off) {
    int first = fz_range(&m->in, 0, NBUF - 1);
    for (int k = 0; k < NBUF; k++) {
        int i = (first + k) % NBUF;
        buffer *b = &m->buf[i];
        if (b->kind == BUF_NONE || i == avoid || b->size < need)
            continue;
        size_t spare = b->size - need;
        *off = fz_bool(&m->in) ? 0 : (size_t)fz_range(&m->in, 0, (int64_t)spare);
        return i;
    }
    return -1;
}

static void fill_floats(model *m, int b, size_t off, size_t n, ropekit_dtype dt) {
    buffer *bf = &m->buf[b];
    order_before(m, b, -1);
    if (bf->pending >= 0)
        settle(m, bf->pending);
    fz_fill_float(&m->in, bf->p + off, n, dt, fz_u8(&m->in) < 16);
    memcpy(bf->shadow + off, bf->p + off, n * dt_size(dt));
}

static aclTensor *make_tensor(const int64_t dims[4], ropekit_dtype dt, int64_t offset, void *base) {
    int64_t numel = dims[0] * dims[1] * dims[2] * dims[3];
    int64_t storage = numel + offset;
    return aclCreateTensor(dims, 4, (aclDataType)dt, NULL, offset, ACL_FORMAT_ND, &storage, 1,
                           base);
}

enum p1_knob {
    P1_VALID,
    P1_MODE,
    P1_SLICE_SIZE,
    P1_SLICE_NULL,
    P1_SLICE_RANGE,
    P1_COS_LEN,
    P1_NULL_OUT,
    P1_NULL_DATA,
    P1_KNOBS
};

static void op_phase1(model *m) {
    int slot = -1;
    for (int i = 0; i < NEXEC; i++)
        if (!m->exec[i].h)
            slot = i;
    if (slot < 0)
        return;
    executor e;
    memset(&e, 0, sizeof e);
    static const int64_t combos[][2] = {{ROPEKIT_F32, ROPEKIT_F32},
                                        {ROPEKIT_F16, ROPEKIT_F16},
                                        {ROPEKIT_BF16, ROPEKIT_BF16},
                                        {ROPEKIT_F16, ROPEKIT_F32},
                                        {ROPEKIT_BF16, ROPEKIT_F32}};
    int combo = (int)fz_range(&m->in, 0, 4);
    e.xdt = (ropekit_dtype)combos[combo][0];
    e.cdt = (ropekit_dtype)combos[combo][1];
    for (int k = 0; k < 3; k++)
        e.xdims[k] = fz_range(&m->in, 1, 3);
    e.xdims[3] = 2 * fz_range(&m->in, 1, 8);
    e.start = fz_range(&m->in, 0, e.xdims[3]);
    e.end = e.start + 2 * fz_range(&m->in, 0, (e.xdims[3] - e.start) / 2);
    for (int k = 0; k < 3; k++)
        e.cdims[k] = fz_bool(&m->in) ? 1 : e.xdims[k];
    e.cdims[3] = e.end - e.start;
    enum p1_knob knob = fz_u8(&m->in) < 160 ? P1_VALID : (enum p1_knob)fz_range(&m->in, 1, 7);
    int64_t mode =
        knob == P1_MODE ? fz_pick(&m->in, (const int64_t[]){0, 2, 3, -1, 1ll << 40}, 5) : 1;
    int64_t slice[3] = {e.start, e.end, 0};
    uint64_t slice_n = knob == P1_SLICE_SIZE ? (fz_bool(&m->in) ? 1 : 3) : 2;
    if (knob == P1_SLICE_RANGE) {
        slice[0] = fz_int(&m->in, -2, 20);
        slice[1] = fz_int(&m->in, -2, 20);
    }
    if (knob == P1_COS_LEN)
        e.cdims[3] += fz_bool(&m->in) ? 2 : -1;
    bool range_ok = slice[0] >= 0 && slice[0] <= slice[1] && slice[1] <= e.xdims[3];
    if (knob == P1_SLICE_RANGE && range_ok) {
        knob = P1_VALID; /* it happened to be a valid slice: keep cos in step */
        e.start = slice[0];
        e.end = slice[1];
        e.cdims[3] = e.end - e.start;
        if (e.cdims[3] % 2)
            knob = P1_COS_LEN; /* odd length: rejected all the same */
    }
    if (e.cdims[3] < 0)
        e.cdims[3] = 0;
    if (knob == P1_SLICE_NULL) {
        e.start = e.end = 0;
        e.cdims[3] = 0;
    }
    int64_t xnum = e.xdims[0] * e.xdims[1] * e.xdims[2] * e.xdims[3];
    int64_t cnum = e.cdims[0] * e.cdims[1] * e.cdims[2] * e.cdims[3];
    e.bytes[0] = (size_t)xnum * dt_size(e.xdt);
    e.bytes[1] = e.bytes[2] = (size_t)cnum * dt_size(e.cdt);
    int64_t offs[3];
    for (int k = 0; k < 3; k++) {
        offs[k] = fz_bool(&m->in) ? 0 : fz_range(&m->in, 1, 5);
        e.view_off[k] = (size_t)offs[k] * dt_size(k ? e.cdt : e.xdt);
    }
    size_t boff[3];
    int b[3];
    b[0] = pick_room(m, e.view_off[0] + e.bytes[0], -1, &boff[0]);
    b[1] = pick_room(m, e.view_off[1] + e.bytes[1], b[0], &boff[1]);
    if (fz_bool(&m->in) && b[1] >= 0 && e.view_off[2] == e.view_off[1]) {
        b[2] = b[1]; /* sin is cos's memory */
        boff[2] = boff[1];
    } else {
        b[2] = pick_room(m, e.view_off[2] + e.bytes[2], b[0], &boff[2]);
    }
    if (b[0] < 0 || b[1] < 0 || b[2] < 0)
        return; /* no room for this problem in the live buffers */
    fill_floats(m, b[0], boff[0] + e.view_off[0], (size_t)xnum, e.xdt);
    fill_floats(m, b[1], boff[1] + e.view_off[1], (size_t)cnum, e.cdt);
    if (b[2] != b[1])
        fill_floats(m, b[2], boff[2] + e.view_off[2], (size_t)cnum, e.cdt);
    aclTensor *t[3];
    t[0] = make_tensor(e.xdims, e.xdt, offs[0],
                       knob == P1_NULL_DATA ? NULL : m->buf[b[0]].p + boff[0]);
    t[1] = make_tensor(e.cdims, e.cdt, offs[1], m->buf[b[1]].p + boff[1]);
    t[2] = make_tensor(e.cdims, e.cdt, offs[2], m->buf[b[2]].p + boff[2]);
    FZ_CHECK(t[0] && t[1] && t[2], "phase-1 tensors: %s", aclGetRecentErrMsg());
    aclIntArray *sl = knob == P1_SLICE_NULL && fz_bool(&m->in)
                          ? NULL
                          : aclCreateIntArray(slice, knob == P1_SLICE_NULL ? 0 : slice_n);
    uint64_t ws = 12345;
    aclOpExecutor *h = (aclOpExecutor *)&m->in;
    bool null_ws = knob == P1_NULL_OUT && fz_bool(&m->in);
    bool null_exec = knob == P1_NULL_OUT && !null_ws;
    e.noop = e.start == e.end;
    /* phase 1's order (SPEC 3.4): data before everything; the no-op exit before cos's
     * length */
    int want = knob == P1_NULL_OUT || knob == P1_NULL_DATA ? ACLNN_ERR_PARAM_NULLPTR
               : knob == P1_VALID || knob == P1_SLICE_NULL ? 0
               : knob == P1_COS_LEN && e.start == e.end    ? 0
                                                           : ACLNN_ERR_PARAM_INVALID;
    FZ_TRACE("phase 1: x %d[%lld,%lld,%lld,%lld] cos %d[%lld,%lld,%lld,%lld] slice [%lld,%lld) "
             "knob %d mode %lld -> want %d",
             (int)e.xdt, (long long)e.xdims[0], (long long)e.xdims[1], (long long)e.xdims[2],
             (long long)e.xdims[3], (int)e.cdt, (long long)e.cdims[0], (long long)e.cdims[1],
             (long long)e.cdims[2], (long long)e.cdims[3], (long long)slice[0], (long long)slice[1],
             (int)knob, (long long)mode, want);
    FZ_TRACE("  x in buffer %d at %zu, cos in %d at %zu, sin in %d at %zu", b[0],
             boff[0] + e.view_off[0], b[1], boff[1] + e.view_off[1], b[2], boff[2] + e.view_off[2]);
    reset_message();
    int got = aclnnInplacePartialRotaryMulGetWorkspaceSize(
        t[0], t[1], t[2], mode, sl, null_ws ? NULL : &ws, null_exec ? NULL : &h);
    expect(m, got, want, "aclnnInplacePartialRotaryMulGetWorkspaceSize");
    for (int k = 0; k < 3; k++)
        aclDestroyTensor(t[k]);
    aclDestroyIntArray(sl);
    if (want) {
        FZ_CHECK(ws == 12345 && h == (aclOpExecutor *)&m->in, "a failed phase 1 wrote its outputs");
        return;
    }
    FZ_CHECK(ws == 0 && h != NULL && live_exec_index(m, h) < 0, "phase 1 gave ws %llu, exec %p",
             (unsigned long long)ws, (void *)h);
    e.h = h;
    for (int k = 0; k < 3; k++) {
        e.slot[k].buf = k == 0 && knob == P1_NULL_DATA ? -1 : b[k];
        e.slot[k].gen = m->buf[b[k]].gen;
        e.slot[k].off = boff[k] + e.view_off[k];
    }
    m->exec[slot] = e;
    if (fz_u8(&m->in) < 128) { /* made repeatable right after phase 1, as CANN's docs do */
        reset_message();
        expect(m, aclSetAclOpExecutorRepeatable(h), 0, "aclSetAclOpExecutorRepeatable");
        m->exec[slot].repeatable = true;
    }
}

/* An executor argument: live (mostly), NULL, consumed, or some other object. */
static aclOpExecutor *pick_exec(model *m, int *index) {
    uint8_t c = fz_u8(&m->in);
    if (c % 8 < 5) {
        int i = c % NEXEC;
        for (int k = 0; k < NEXEC; k++, i = (i + 1) % NEXEC)
            if (m->exec[i].h) {
                *index = i;
                return m->exec[i].h;
            }
    }
    *index = -1;
    if (c % 8 == 5 && m->n_stale_exec > 0) {
        aclOpExecutor *e = m->stale_exec[c / 8 % m->n_stale_exec];
        *index = live_exec_index(m, e);
        return e;
    }
    if (c % 8 == 6) {
        for (int i = 0; i < NSTREAM; i++)
            if (m->stream[i])
                return (aclOpExecutor *)m->stream[i]; /* a live object of another kind */
        return (aclOpExecutor *)&m->in;
    }
    return NULL;
}

static void forget_exec(model *m, int i) {
    remember((void **)m->stale_exec, &m->n_stale_exec, m->exec[i].h);
    m->exec[i].h = NULL;
}

static void op_repeatable(model *m) {
    int i;
    aclOpExecutor *h = pick_exec(m, &i);
    FZ_TRACE("aclSetAclOpExecutorRepeatable(%p) index %d", (void *)h, i);
    reset_message();
    expect(m, aclSetAclOpExecutorRepeatable(h),
           i >= 0 ? 0
           : !h   ? ACLNN_ERR_INNER_NULLPTR
                  : ACLNN_ERR_PARAM_INVALID,
           "aclSetAclOpExecutorRepeatable");
    if (i >= 0)
        m->exec[i].repeatable = true;
}

static void op_destroy_exec(model *m) {
    int i;
    aclOpExecutor *h = pick_exec(m, &i);
    FZ_TRACE("aclDestroyAclOpExecutor(%p) index %d", (void *)h, i);
    reset_message();
    expect(m, aclDestroyAclOpExecutor(h),
           i >= 0 ? 0
           : !h   ? ACLNN_ERR_INNER_NULLPTR
                  : ACLNN_ERR_PARAM_INVALID,
           "aclDestroyAclOpExecutor");
    if (i >= 0)
        forget_exec(m, i);
}

static void op_rebind(model *m) {
    int i;
    aclOpExecutor *h = pick_exec(m, &i);
    bool output = fz_u8(&m->in) < 64;
    uint8_t c = fz_u8(&m->in);
    size_t index = c < 16   ? (size_t)fz_pick(&m->in, (const int64_t[]){3, 5, 6, 7, -1}, 5)
                   : output ? 0
                            : (size_t)(c % 3);
    bool valid_index = output ? index == 0 : index < 3;
    const char *api = output ? "aclSetOutputTensorAddr" : "aclSetInputTensorAddr";
    void *addr = NULL;
    binding nb = {-1, 0, 0};
    if (i >= 0 && valid_index && fz_u8(&m->in) >= 24) {
        const executor *e = &m->exec[i];
        size_t off;
        int b = pick_room(m, e->view_off[index] + e->bytes[index], -1, &off);
        if (b < 0)
            return;
        addr = m->buf[b].p + off;
        nb.buf = b;
        nb.gen = m->buf[b].gen;
        nb.off = off + e->view_off[index];
    }
    aclTensor *t = m->tensor[fz_range(&m->in, 0, NTENSOR - 1)].h; /* ignored by ropekit */
    FZ_TRACE("%s(exec %d, index %zu, addr buf %d)", api, i, index, nb.buf);
    int want = !h             ? ACLNN_ERR_INNER_NULLPTR
               : i < 0        ? ACLNN_ERR_PARAM_INVALID
               : !valid_index ? ACLNN_ERR_PARAM_INVALID
                              : 0;
    reset_message();
    int got = output ? aclSetOutputTensorAddr(h, index, t, addr)
                     : aclSetInputTensorAddr(h, index, t, addr);
    expect(m, got, want, api);
    if (want == 0)
        m->exec[i].slot[index] = nb;
}

/* Rotates the model's copy of x as the native API does. */
static void apply_native(model *m, const executor *e) {
    uint8_t *xs = m->buf[e->slot[0].buf].shadow + e->slot[0].off;
    const uint8_t *cs = m->buf[e->slot[1].buf].shadow + e->slot[1].off;
    const uint8_t *ss = m->buf[e->slot[2].buf].shadow + e->slot[2].off;
    ropekit_tensor x = ropekit_tensor_make(xs, e->xdt, 4, e->xdims, NULL);
    ropekit_tensor c = ropekit_tensor_make((void *)cs, e->cdt, 4, e->cdims, NULL);
    ropekit_tensor s = ropekit_tensor_make((void *)ss, e->cdt, 4, e->cdims, NULL);
    ropekit_status st = ropekit_partial_rotary(&x, &c, &s, ROPEKIT_ROTARY_INTERLEAVE, e->start,
                                               e->end, ROPEKIT_FORWARD);
    FZ_CHECK(st == ROPEKIT_OK, "native reference failed: %s", ropekit_last_error());
}

static bool slot_intersects(const executor *e, int a, int b, const model *m) {
    if (e->slot[a].buf != e->slot[b].buf)
        return false;
    uintptr_t alo = (uintptr_t)e->slot[a].off, ahi = alo + e->bytes[a];
    uintptr_t blo = (uintptr_t)e->slot[b].off, bhi = blo + e->bytes[b];
    (void)m;
    return e->bytes[a] && e->bytes[b] && alo < bhi && blo < ahi;
}

static void op_launch(model *m) {
    int i;
    aclOpExecutor *h = pick_exec(m, &i);
    int sindex;
    aclrtStream stream = pick_stream(m, &sindex);
    uint64_t ws_size = fz_bool(&m->in) ? 0 : (uint64_t)fz_int(&m->in, 0, 1 << 20);
    void *ws = fz_bool(&m->in) ? NULL : (void *)&m->in;
    executor *e = i >= 0 ? &m->exec[i] : NULL;
    if (e) {
        for (int k = 0; k < 3; k++) {
            const binding *bd = &e->slot[k];
            if (bd->buf == -2 || (bd->buf >= 0 && m->buf[bd->buf].gen != bd->gen))
                return; /* bound to freed memory: the client must rebind first */
        }
    }
    int want;
    if (!h)
        want = ACLNN_ERR_PARAM_NULLPTR;
    else if (!e)
        want = ACLNN_ERR_PARAM_INVALID;
    else if (!ws && ws_size > 0)
        want = ACLNN_ERR_PARAM_NULLPTR;
    else if (!g_init)
        want = ACLNN_ERR_RUNTIME_ERROR;
    else if (!e->noop && (e->slot[0].buf < 0 || e->slot[1].buf < 0 || e->slot[2].buf < 0))
        want = ACLNN_ERR_PARAM_NULLPTR;
    else if (!e->noop && (slot_intersects(e, 0, 1, m) || slot_intersects(e, 0, 2, m)))
        want = ACLNN_ERR_PARAM_INVALID;
    else if (sindex < 0)
        want = ACLNN_ERR_PARAM_INVALID;
    else
        want = 0;
    FZ_TRACE("aclnnInplacePartialRotaryMul(exec %d%s, stream %d) -> want %d", i,
             e && e->repeatable ? " repeatable" : "", sindex, want);
    if (want == 0 && !e->noop)
        for (int k = 0; k < 3; k++)
            order_before(m, e->slot[k].buf, sindex);
    reset_message();
    int got = aclnnInplacePartialRotaryMul(ws, ws_size, h, stream);
    if (want == 0 && !e->noop) {
        apply_native(m, e);
        for (int k = 0; k < 3; k++)
            m->buf[e->slot[k].buf].pending = sindex;
    }
    expect(m, got, want, "aclnnInplacePartialRotaryMul");
    if (e && !e->repeatable)
        forget_exec(m, i); /* consumed, also on failure */
}

/* ---------------------------------------------------------------- the sequence */

static void op_plain(model *m) {
    int slot = free_slot_buf(m);
    if (slot < 0)
        return;
    size_t size = (size_t)fz_range(&m->in, 1, SMALL_BYTES);
    uint8_t *p = malloc(size);
    FZ_CHECK(p, "out of memory");
    FZ_TRACE("host buffer of %zu bytes (not the runtime's)", size);
    add_buffer(m, slot, BUF_PLAIN, p, size);
}

static void op_drop_plain(model *m) {
    int b = (int)fz_range(&m->in, 0, NBUF - 1);
    if (m->buf[b].kind != BUF_PLAIN)
        return;
    order_before(m, b, -1);
    if (m->buf[b].pending >= 0)
        settle(m, m->buf[b].pending);
    unbind_buffer(m, b);
    free(m->buf[b].p);
    drop_buffer(m, b);
}

static void cleanup(model *m) {
    join_hog(m);
    for (int i = 0; i < NSTREAM; i++)
        if (m->stream[i]) {
            FZ_CHECK(aclrtDestroyStream(m->stream[i]) == ACL_SUCCESS, "cleanup destroy stream");
            clear_pending(m, i);
            m->stream[i] = NULL;
        }
    if (g_init) {
        FZ_CHECK(aclFinalize() == ACL_SUCCESS, "cleanup aclFinalize: %s", aclGetRecentErrMsg());
        g_init = false;
        g_finalized = true;
    }
    clear_pending(m, -1);
    verify_buffers(m, "the end of the input");
    for (int i = 0; i < NEXEC; i++)
        if (m->exec[i].h)
            FZ_CHECK(aclDestroyAclOpExecutor(m->exec[i].h) == ACLNN_SUCCESS, "cleanup executor");
    for (int i = 0; i < NTENSOR; i++)
        aclDestroyTensor(m->tensor[i].h);
    for (int i = 0; i < NARRAY; i++)
        aclDestroyIntArray(m->array[i].h);
    for (int i = 0; i < NBUF; i++) {
        buffer *b = &m->buf[i];
        if (b->kind == BUF_DEVICE)
            FZ_CHECK(aclrtFree(b->p) == ACL_SUCCESS, "cleanup aclrtFree");
        else if (b->kind == BUF_HOST)
            FZ_CHECK(aclrtFreeHost(b->p) == ACL_SUCCESS, "cleanup aclrtFreeHost");
        else if (b->kind == BUF_PLAIN)
            free(b->p);
        if (b->kind != BUF_NONE)
            drop_buffer(m, i);
    }
    /* A joined thread's /proc entry may outlive pthread_join by a moment; a worker left
     * running stays. */
    int threads = count_stream_threads();
    for (int wait = 0; threads != 0 && wait < 200; wait++) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        threads = count_stream_threads();
    }
    FZ_CHECK(threads == 0,
             "%d stream worker thread(s) left after aclFinalize and destroying "
             "every stream",
             threads);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    /* the state every input starts from: finalised */
    if (aclInit(NULL) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS)
        abort();
    g_init = false;
    g_finalized = true;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static model m;
    memset(&m, 0, sizeof m);
    m.in.data = data;
    m.in.size = size;
    for (int i = 0; i < NBUF; i++)
        m.buf[i].pending = -1;
    for (int calls = 0; calls < MAX_CALLS && m.in.size > 0; calls++) {
        reset_message();
        switch (fz_range(&m.in, 0, 31)) {
        case 0:
        case 1:
            op_init(&m);
            break;
        case 2:
            op_finalize(&m);
            break;
        case 3:
            op_device(&m, false);
            break;
        case 4:
            op_device(&m, true);
            break;
        case 5:
            op_device_count(&m);
            break;
        case 6:
            op_create_stream(&m);
            break;
        case 7:
            op_destroy_stream(&m);
            break;
        case 8:
            op_sync_stream(&m);
            break;
        case 9:
            op_hog(&m);
            break;
        case 10:
        case 11:
            op_malloc(&m, false);
            break;
        case 12:
            op_malloc(&m, true);
            break;
        case 13:
            op_free(&m, false);
            break;
        case 14:
            op_free(&m, true);
            break;
        case 15:
        case 16:
            op_memcpy(&m, false);
            break;
        case 17:
        case 18:
            op_memcpy(&m, true);
            break;
        case 19:
            op_memset(&m);
            break;
        case 20:
            op_create_tensor(&m);
            break;
        case 21:
            op_tensor_getters(&m);
            break;
        case 22:
            op_destroy_tensor(&m);
            break;
        case 23:
            op_create_array(&m);
            break;
        case 24:
            op_destroy_array(&m);
            break;
        case 25:
        case 26:
            op_phase1(&m);
            break;
        case 27:
            op_repeatable(&m);
            break;
        case 28:
        case 29:
            op_launch(&m);
            break;
        case 30:
            op_rebind(&m);
            break;
        default:
            if (fz_bool(&m.in))
                op_plain(&m);
            else if (fz_bool(&m.in))
                op_drop_plain(&m);
            else
                op_destroy_exec(&m);
            break;
        }
    }
    FZ_TRACE("calls accepted %d, rejected %d", m.accepted, m.rejected);
    cleanup(&m);
    return 0;
}
