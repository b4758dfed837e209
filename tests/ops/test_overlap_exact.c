/* The one overlap test (rk_views_overlap) is exact for views of dense rows with a common
 * row stride: rows of x interleaved with rows of cos and sin in one buffer share no byte,
 * so the call is accepted (and gives the result of separate buffers), while views that
 * do share a byte are still refused with nothing written. Native and aclnn faces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "ropekit/ropekit.h"

enum { ROWS = 6, D = 16, STRIDE = 3 * D }; /* each buffer row: x | cos | sin */

static void fill(float *buf, float *x, float *c, float *s) {
    for (int r = 0; r < ROWS; r++)
        for (int j = 0; j < D; j++) {
            float xv = (float)(r * D + j) / 32.0f - 1.0f;
            float cv = 0.5f + (float)j / 64.0f, sv = 0.25f - (float)r / 32.0f;
            buf[r * STRIDE + j] = x[r * D + j] = xv;
            buf[r * STRIDE + D + j] = c[r * D + j] = cv;
            buf[r * STRIDE + 2 * D + j] = s[r * D + j] = sv;
        }
}

static void interleaved_rows_are_accepted(void **state) {
    (void)state;
    static float buf[ROWS * STRIDE], x[ROWS * D], c[ROWS * D], s[ROWS * D];
    fill(buf, x, c, s);
    const int64_t shape[2] = {ROWS, D}, strided[2] = {STRIDE, 1};
    ropekit_tensor xv = ropekit_tensor_make(buf, ROPEKIT_F32, 2, shape, strided);
    ropekit_tensor cv = ropekit_tensor_make(buf + D, ROPEKIT_F32, 2, shape, strided);
    ropekit_tensor sv = ropekit_tensor_make(buf + 2 * D, ROPEKIT_F32, 2, shape, strided);
    assert_int_equal(
        ropekit_partial_rotary(&xv, &cv, &sv, ROPEKIT_ROTARY_HALF, 0, D, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    ropekit_tensor xd = ropekit_tensor_make(x, ROPEKIT_F32, 2, shape, NULL);
    ropekit_tensor cd = ropekit_tensor_make(c, ROPEKIT_F32, 2, shape, NULL);
    ropekit_tensor sd = ropekit_tensor_make(s, ROPEKIT_F32, 2, shape, NULL);
    assert_int_equal(
        ropekit_partial_rotary(&xd, &cd, &sd, ROPEKIT_ROTARY_HALF, 0, D, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    for (int r = 0; r < ROWS; r++)
        assert_memory_equal(buf + r * STRIDE, x + r * D, D * sizeof(float));
}

static void shared_bytes_are_refused(void **state) {
    (void)state;
    static float buf[ROWS * STRIDE], x[ROWS * D], c[ROWS * D], s[ROWS * D];
    fill(buf, x, c, s);
    static float before[ROWS * STRIDE];
    memcpy(before, buf, sizeof buf);
    const int64_t shape[2] = {ROWS, D}, strided[2] = {STRIDE, 1};
    ropekit_tensor xv = ropekit_tensor_make(buf, ROPEKIT_F32, 2, shape, strided);
    /* cos starts half a row into x's rows */
    ropekit_tensor cv = ropekit_tensor_make(buf + D / 2, ROPEKIT_F32, 2, shape, strided);
    ropekit_tensor sv = ropekit_tensor_make(buf + 2 * D, ROPEKIT_F32, 2, shape, strided);
    assert_int_equal(
        ropekit_partial_rotary(&xv, &cv, &sv, ROPEKIT_ROTARY_HALF, 0, D, ROPEKIT_FORWARD),
        ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "x memory overlaps cos"));
    assert_memory_equal(buf, before, sizeof buf);
}

/* The aclnn face: xRef [1, ROWS, 1, D] and cos/sin [1, ROWS, 1, D] interleaved by rows in
 * one buffer; phase 1 accepts, the launch rotates. */
static void aclnn_interleaved_rows_are_accepted(void **state) {
    (void)state;
    static float buf[ROWS * STRIDE], x[ROWS * D], c[ROWS * D], s[ROWS * D];
    fill(buf, x, c, s);
    const int64_t dims[4] = {1, ROWS, 1, D}, strides[4] = {ROWS * STRIDE, STRIDE, D, 1};
    const int64_t storage[1] = {ROWS * STRIDE};
    aclTensor *tx = aclCreateTensor(dims, 4, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, buf);
    aclTensor *tc = aclCreateTensor(dims, 4, ACL_FLOAT, strides, D, ACL_FORMAT_ND, storage, 1, buf);
    aclTensor *ts =
        aclCreateTensor(dims, 4, ACL_FLOAT, strides, 2 * D, ACL_FORMAT_ND, storage, 1, buf);
    const int64_t slice_values[2] = {0, D};
    aclIntArray *slice = aclCreateIntArray(slice_values, 2);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    assert_int_equal(aclnnInplacePartialRotaryMulGetWorkspaceSize(tx, tc, ts, 1, slice, &ws, &e),
                     ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    ropekit_tensor xd = ropekit_tensor_make(x, ROPEKIT_F32, 4, dims, NULL);
    ropekit_tensor cd = ropekit_tensor_make(c, ROPEKIT_F32, 4, dims, NULL);
    ropekit_tensor sd = ropekit_tensor_make(s, ROPEKIT_F32, 4, dims, NULL);
    assert_int_equal(
        ropekit_partial_rotary(&xd, &cd, &sd, ROPEKIT_ROTARY_INTERLEAVE, 0, D, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    for (int r = 0; r < ROWS; r++)
        assert_memory_equal(buf + r * STRIDE, x + r * D, D * sizeof(float));
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyIntArray(slice);
}

static int setup(void **state) {
    (void)state;
    return aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return aclrtResetDevice(0) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(interleaved_rows_are_accepted),
        cmocka_unit_test(shared_bytes_are_refused),
        cmocka_unit_test(aclnn_interleaved_rows_are_accepted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
