/* Inside a ge::Tensor: its description and a shared host buffer; and the buffers the
 * runtime allocates. */
#ifndef ROPEKIT_GE_TENSOR_IMPL_H_
#define ROPEKIT_GE_TENSOR_IMPL_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "buffer_pool.h"
#include "graph/tensor.h"

namespace ropekit_ge {

/* Elements of a shape (1 for a scalar, 0 for an empty tensor); -1 when a dimension is
 * negative (unknown) or the product overflows int64. */
int64_t ElementCount(const ge::Shape &shape);
/* Bytes of a tensor of this description; -1 when not defined. */
int64_t TensorBytes(const ge::TensorDesc &desc);

} // namespace ropekit_ge

namespace ge {

class TensorImpl {
  public:
    TensorDesc desc;
    std::shared_ptr<uint8_t> data;
    size_t size = 0;
};

class TensorAdapter {
  public:
    static const std::shared_ptr<uint8_t> &Buffer(const Tensor &t) { return t.impl_->data; }
    /* A tensor over an existing buffer (no copy). */
    static Tensor Wrap(const TensorDesc &desc, std::shared_ptr<uint8_t> data, size_t size);
};

} // namespace ge

#endif /* ROPEKIT_GE_TENSOR_IMPL_H_ */
