/* What the GE tests share: tensors from double values (rounded to the tensor's dtype) and
 * back, graph sources, the thread's GE error message, and the test kit's float64 reference.
 * Include after <cmocka.h>'s prerequisites; it includes cmocka itself. */
#ifndef ROPEKIT_TESTS_GE_TEST_SUPPORT_H_
#define ROPEKIT_TESTS_GE_TEST_SUPPORT_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <csetjmp>
#include <string>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "testkit/half_bits.h"
#include "testkit/reference.h"
#include "testkit/rope_reference.h"
#include "testkit/tolerance.h"

#include "ge_api.h"
#include "ge_ir_build.h"
#include "ops_proto_posembedding.h"

namespace gt {

/* A tensor of `shape` and a float dtype holding `values` (rounded to the dtype). */
ge::Tensor FloatTensor(const std::vector<int64_t> &shape, ge::DataType dt,
                       const std::vector<double> &values);
ge::Tensor Int64Tensor(const std::vector<int64_t> &shape, const std::vector<int64_t> &values);
/* The elements of a float tensor, widened exactly. */
std::vector<double> Values(const ge::Tensor &t);
/* Deterministic values in [-1, 1). */
std::vector<double> Pattern(size_t count, int salt);
/* A cos/sin cache [max_pos, rot] (cos | sin halves) of `dt`, built by the native API. */
ge::Tensor CosSinCache(int64_t max_pos, int64_t rot, ge::DataType dt);

ge::TensorDesc Desc(const std::vector<int64_t> &shape, ge::DataType dt);
/* A Data node with its index and its declared description. */
ge::op::Data MakeData(const char *name, int64_t index, const ge::TensorDesc &desc);
/* A Data node with its index and no description. */
ge::op::Data MakeData(const char *name, int64_t index);

/* cmocka group fixtures: GEInitialize with device 0, and GEFinalize. */
int InitializeGe(void **state);
int FinalizeGe(void **state);

/* GEGetErrorMsgV2() as a std::string (reads and clears it). */
std::string TakeError();
/* Fails the test (printing the message) unless `message` contains every fragment. */
void ExpectMentions(const std::string &message, const std::vector<std::string> &fragments);

/* Runs a graph in a fresh session: AddGraph then RunGraph; the status of the first call
 * that fails (the session is gone afterwards). */
ge::Status RunOnce(const ge::Graph &graph, const std::vector<ge::Tensor> &inputs,
                   std::vector<ge::Tensor> &outputs);

/* Max over elements of |got - want| / (tolerance of one rounding to dt of the magnitudes
 * `mag` of the two products, SPEC 6); <= 1 passes. */
double ErrorRatio(const std::vector<double> &got, const std::vector<double> &want,
                  const std::vector<double> &mag, ge::DataType dt);

/* The float64 reference of InplacePartialRotaryMul(Grad) on a [B, S, N, D] x with cos/sin
 * [b, s, n, L] broadcast, slice [start, end), mode, direction (0 forward). Elements out
 * of the slice are copied. mag receives the product magnitudes (0 outside the slice). */
std::vector<double>
PartialRotaryReference(const std::vector<double> &x, const std::vector<int64_t> &x_shape,
                       const std::vector<double> &cos, const std::vector<double> &sin,
                       const std::vector<int64_t> &cs_shape, int64_t start, int64_t end, int mode,
                       int direction, std::vector<double> *mag);

/* The float64 reference of RopeWithSinCosCache for one of query/key: x [T, H*hs], cache
 * [maxpos, rot] values, positions [rows, T], sections (empty: plain rope), cache_mode. */
std::vector<double> RopeReference(const std::vector<double> &x, int64_t tokens, int64_t heads,
                                  int64_t head_size, const std::vector<double> &cache, int64_t rot,
                                  const std::vector<int64_t> &positions,
                                  const std::vector<int64_t> &sections, int64_t cache_mode,
                                  bool neox, std::vector<double> *mag);

} // namespace gt

#endif /* ROPEKIT_TESTS_GE_TEST_SUPPORT_H_ */
