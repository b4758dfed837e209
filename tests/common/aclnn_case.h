/* What the per-operator aclnn validation tests share: 4-D shapes, element sizes, random
 * fills, aclTensors over host storage, and the two verdicts on a GetWorkspaceSize call
 * (refused with a code and a message, nothing written; or accepted and run on a stream).
 * Include after <cmocka.h>; static inline, like common/acl_fixture.h, which it uses. */
#ifndef ROPEKIT_TESTS_COMMON_ACLNN_CASE_H_
#define ROPEKIT_TESTS_COMMON_ACLNN_CASE_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "common/acl_fixture.h"

static inline void fx_set4(int64_t *d, int64_t a, int64_t b, int64_t c, int64_t e) {
    d[0] = a, d[1] = b, d[2] = c, d[3] = e;
}

/* Elements of a shape whose negative dims count as 0 (a case may hold a bad shape). */
static inline int64_t fx_count(int64_t nd, const int64_t *d) {
    int64_t n = 1;
    for (int64_t i = 0; i < nd; i++)
        n *= d[i] < 0 ? 0 : d[i];
    return n;
}

/* Bytes of an element; every dtype a case may name that is not 16-bit or double is 4. */
static inline size_t fx_elem_size(aclDataType dt) {
    return dt == ACL_FLOAT16 || dt == ACL_BF16 ? 2 : dt == ACL_DOUBLE ? 8 : 4;
}

/* n elements of dt in [-2, 2), from an LCG stream of `seed`. */
static inline void fx_fill_random(unsigned char *p, size_t n, aclDataType dt, uint32_t seed) {
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        fx_store(dt, p, i, ((float)(seed >> 8 & 0xffff) - 32768.0f) / 16384.0f);
    }
}

/* A view of nd dims over storage of `storage` elements at data (contiguous when strides
 * is NULL). */
static inline aclTensor *fx_view_over(int64_t nd, const int64_t *d, aclDataType dt, void *data,
                                      const int64_t *strides, int64_t storage) {
    int64_t st[8], run = 1;
    for (int64_t i = nd - 1; i >= 0; i--) {
        st[i] = run;
        run *= d[i] > 0 ? d[i] : 1;
    }
    return aclCreateTensor(d, (uint64_t)nd, dt, strides ? strides : st, 0, ACL_FORMAT_ND, &storage,
                           1, data);
}

/* The workspace size and executor a refused GetWorkspaceSize must leave as they were. */
#define FX_WS_UNTOUCHED 77u

/* Phase 1 refused: `got` is `code`, the message names `api` (the GetWorkspaceSize) and
 * holds `piece`, and the workspace size and executor (which held FX_WS_UNTOUCHED and
 * `exec_before`) were not written. */
static inline void fx_expect_phase1_refused(aclnnStatus got, aclnnStatus code, const char *api,
                                            const char *piece, uint64_t ws,
                                            const aclOpExecutor *exec,
                                            const aclOpExecutor *exec_before) {
    const char *msg = aclGetRecentErrMsg();
    if (got != code || !msg || !strstr(msg, piece) || !strstr(msg, api)) {
        print_error("code %d (want %d), message \"%s\" (want \"%s\" from %s)\n", (int)got,
                    (int)code, msg ? msg : "(null)", piece, api);
        fail();
    }
    assert_true(ws == FX_WS_UNTOUCHED && exec == exec_before);
}

typedef aclnnStatus (*fx_aclnn_run)(void *workspace, uint64_t workspace_size,
                                    aclOpExecutor *executor, aclrtStream stream);

/* Phase 1 accepted with no workspace; phase 2 (`run`) launched on `stream` and synchronized. */
static inline void fx_expect_accepted_run(aclnnStatus got, uint64_t ws, aclOpExecutor *exec,
                                          fx_aclnn_run run, aclrtStream stream) {
    if (got != ACLNN_SUCCESS) {
        print_error("phase 1: %d: %s\n", (int)got, aclGetRecentErrMsg());
        fail();
    }
    assert_int_equal(ws, 0);
    assert_int_equal(run(NULL, 0, exec, stream), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

#endif /* ROPEKIT_TESTS_COMMON_ACLNN_CASE_H_ */
