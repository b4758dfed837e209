#include "graph/tensor.h"

#include <cstdlib>
#include <cstring>

#include "tensor_impl.h"

namespace ropekit_ge {

int64_t ElementCount(const ge::Shape &shape) {
    const std::vector<int64_t> dims = shape.GetDims();
    bool empty = false;
    for (int64_t d : dims) {
        if (d < 0)
            return -1;
        empty = empty || d == 0;
    }
    if (empty) /* before the product, which may overflow: [2^62, 4, 0] holds nothing */
        return 0;
    int64_t n = 1;
    for (int64_t d : dims) {
        if (n > INT64_MAX / d)
            return -1;
        n *= d;
    }
    return n;
}

int64_t TensorBytes(const ge::TensorDesc &desc) {
    int64_t n = ElementCount(desc.GetShape());
    return n < 0 ? -1 : ge::GetSizeInBytes(n, desc.GetDataType());
}

} // namespace ropekit_ge

namespace ge {

/* ---- Shape ---- */

Shape::Shape(const std::vector<int64_t> &dims) : dims_(dims) {}

size_t Shape::GetDimNum() const {
    if (dims_.size() == 1 && dims_[0] == UNKNOWN_DIM_NUM)
        return 0;
    return dims_.size();
}

int64_t Shape::GetDim(size_t idx) const {
    return idx < dims_.size() ? dims_[idx] : 0;
}

graphStatus Shape::SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size())
        return GRAPH_FAILED;
    dims_[idx] = value;
    return GRAPH_SUCCESS;
}

std::vector<int64_t> Shape::GetDims() const {
    return dims_;
}

int64_t Shape::GetShapeSize() const {
    if (dims_.empty())
        return 0;
    int64_t n = 1;
    for (int64_t d : dims_) {
        if (d < 0)
            return -1;
        if (d == 0)
            return 0;
    }
    for (int64_t d : dims_) {
        if (n > INT64_MAX / d)
            return 0;
        n *= d;
    }
    return n;
}

/* ---- TensorDesc ---- */

TensorDesc::TensorDesc() = default;

TensorDesc::TensorDesc(Shape shape, Format format, DataType dt)
    : shape_(shape), origin_shape_(shape), format_(format), origin_format_(format), data_type_(dt) {
}

void TensorDesc::Update(const Shape &shape, Format format, DataType dt) {
    shape_ = shape;
    format_ = format;
    data_type_ = dt;
}

graphStatus TensorDesc::SetUnknownDimNumShape() {
    shape_ = Shape(UNKNOWN_RANK);
    return GRAPH_SUCCESS;
}

graphStatus TensorDesc::SetShapeRange(const std::vector<std::pair<int64_t, int64_t>> &range) {
    shape_range_ = range;
    return GRAPH_SUCCESS;
}

graphStatus TensorDesc::GetShapeRange(std::vector<std::pair<int64_t, int64_t>> &range) const {
    range = shape_range_;
    return GRAPH_SUCCESS;
}

std::string TensorDesc::GetName() const {
    return name_;
}
graphStatus TensorDesc::GetName(AscendString &name) const {
    name = AscendString(name_.c_str());
    return GRAPH_SUCCESS;
}
void TensorDesc::SetName(const char_t *name) {
    name_ = name ? name : "";
}
void TensorDesc::SetName(const std::string &name) {
    name_ = name;
}

/* A field a TensorDesc gets and sets as it is: the accessors' name, the type, the setter's
 * parameter (graph/tensor.h) and the member. */
#define RK_DESC_FIELD(Name, T, Param, member)                                                      \
    T TensorDesc::Get##Name() const {                                                              \
        return member;                                                                             \
    }                                                                                              \
    void TensorDesc::Set##Name(Param value) {                                                      \
        member = value;                                                                            \
    }
RK_DESC_FIELD(Shape, Shape, const Shape &, shape_)
RK_DESC_FIELD(OriginShape, Shape, const Shape &, origin_shape_)
RK_DESC_FIELD(Format, Format, Format, format_)
RK_DESC_FIELD(OriginFormat, Format, Format, origin_format_)
RK_DESC_FIELD(DataType, DataType, DataType, data_type_)
RK_DESC_FIELD(Size, int64_t, int64_t, size_)
RK_DESC_FIELD(RealDimCnt, int64_t, int64_t, real_dim_cnt_)
RK_DESC_FIELD(Placement, Placement, Placement, placement_)
#undef RK_DESC_FIELD

/* ---- Tensor ---- */

Tensor TensorAdapter::Wrap(const TensorDesc &desc, std::shared_ptr<uint8_t> data, size_t size) {
    Tensor t(desc);
    t.impl_->data = std::move(data);
    t.impl_->size = size;
    return t;
}

Tensor::Tensor() : impl_(std::make_shared<TensorImpl>()) {}

Tensor::Tensor(const TensorDesc &tensor_desc) : impl_(std::make_shared<TensorImpl>()) {
    impl_->desc = tensor_desc;
}

Tensor::Tensor(const TensorDesc &tensor_desc, const std::vector<uint8_t> &data)
    : Tensor(tensor_desc, data.data(), data.size()) {}

Tensor::Tensor(const TensorDesc &tensor_desc, const uint8_t *data, size_t size)
    : Tensor(tensor_desc) {
    (void)SetData(data, size);
}

Tensor::Tensor(TensorDesc &&tensor_desc, std::vector<uint8_t> &&data)
    : Tensor(tensor_desc, data.data(), data.size()) {}

TensorDesc Tensor::GetTensorDesc() const {
    return impl_->desc;
}

graphStatus Tensor::SetTensorDesc(const TensorDesc &tensor_desc) {
    impl_->desc = tensor_desc;
    return GRAPH_SUCCESS;
}

const uint8_t *Tensor::GetData() const {
    return impl_->data.get();
}
uint8_t *Tensor::GetData() {
    return impl_->data.get();
}
size_t Tensor::GetSize() const {
    return impl_->size;
}

graphStatus Tensor::SetData(std::vector<uint8_t> &&data) {
    return SetData(data.data(), data.size());
}
graphStatus Tensor::SetData(const std::vector<uint8_t> &data) {
    return SetData(data.data(), data.size());
}

graphStatus Tensor::SetData(const uint8_t *data, size_t size) {
    if (size > 0 && data == nullptr)
        return GRAPH_PARAM_INVALID;
    std::shared_ptr<uint8_t> copy = ropekit_ge::AllocateBuffer(size);
    if (!copy)
        return GRAPH_MEM_OPERATE_FAILED;
    if (size > 0)
        std::memcpy(copy.get(), data, size);
    impl_->data = std::move(copy);
    impl_->size = size;
    return GRAPH_SUCCESS;
}

graphStatus Tensor::SetData(uint8_t *data, size_t size, const Tensor::DeleteFunc &deleter_func) {
    if (size > 0 && data == nullptr)
        return GRAPH_PARAM_INVALID;
    if (deleter_func)
        impl_->data = std::shared_ptr<uint8_t>(data, deleter_func);
    else
        impl_->data = std::shared_ptr<uint8_t>(data, [](uint8_t *) {});
    impl_->size = size;
    return GRAPH_SUCCESS;
}

graphStatus Tensor::ResetData(uint8_t *data, size_t size, const Tensor::DeleteFunc &deleter_func) {
    return SetData(data, size, deleter_func);
}

graphStatus Tensor::IsValid() {
    if (!impl_->data)
        return GRAPH_SUCCESS;
    int64_t bytes = ropekit_ge::TensorBytes(impl_->desc);
    return bytes >= 0 && static_cast<uint64_t>(bytes) == impl_->size ? GRAPH_SUCCESS : GRAPH_FAILED;
}

Tensor Tensor::Clone() const {
    Tensor t(impl_->desc);
    if (impl_->data)
        (void)t.SetData(impl_->data.get(), impl_->size);
    return t;
}

/* A field a Tensor gets and sets in its description, by the accessors' name, which is also
 * the field's type. */
#define RK_TENSOR_DESC_FIELD(T)                                                                    \
    T Tensor::Get##T() const {                                                                     \
        return impl_->desc.Get##T();                                                               \
    }                                                                                              \
    graphStatus Tensor::Set##T(const T &value) {                                                   \
        impl_->desc.Set##T(value);                                                                 \
        return GRAPH_SUCCESS;                                                                      \
    }
RK_TENSOR_DESC_FIELD(DataType)
RK_TENSOR_DESC_FIELD(Format)
RK_TENSOR_DESC_FIELD(Placement)
#undef RK_TENSOR_DESC_FIELD

size_t Tensor::GetShapeDimNum() const {
    return impl_->desc.GetShape().GetDimNum();
}
int64_t Tensor::GetShapeDim(const size_t idx) const {
    return impl_->desc.GetShape().GetDim(idx);
}

} // namespace ge
