/* GE graph API (ropekit): Shape, TensorDesc and Tensor.
 *
 * Shape and TensorDesc are values (a copy is independent). A Tensor is a handle: copies
 * share one description and one host buffer; Clone() makes an independent copy. */
#ifndef ROPEKIT_GRAPH_TENSOR_H_
#define ROPEKIT_GRAPH_TENSOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/types.h"

namespace ge {

class GE_FUNC_VISIBILITY Shape {
  public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t> &dims);

    /* Number of dimensions; 0 for an unknown rank ({-2}). */
    size_t GetDimNum() const;
    /* 0 for an index outside the shape. */
    int64_t GetDim(size_t idx) const;
    graphStatus SetDim(size_t idx, int64_t value);
    std::vector<int64_t> GetDims() const;
    /* Product of the dimensions, as GE defines it: -1 when a dimension is unknown, 0 for
     * an empty tensor, for a scalar (no dimensions) and when the product overflows. */
    int64_t GetShapeSize() const;

  private:
    std::vector<int64_t> dims_;
};

class GE_FUNC_VISIBILITY TensorDesc {
  public:
    /* Shape {} (a scalar), FORMAT_ND, DT_FLOAT. */
    TensorDesc();
    explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT);

    void Update(const Shape &shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT);
    Shape GetShape() const;
    void SetShape(const Shape &shape);
    /* Sets the shape to {-2}: rank not known. */
    graphStatus SetUnknownDimNumShape();
    graphStatus SetShapeRange(const std::vector<std::pair<int64_t, int64_t>> &range);
    graphStatus GetShapeRange(std::vector<std::pair<int64_t, int64_t>> &range) const;

    Format GetFormat() const;
    void SetFormat(Format format);
    Shape GetOriginShape() const;
    void SetOriginShape(const Shape &origin_shape);
    Format GetOriginFormat() const;
    void SetOriginFormat(Format origin_format);
    DataType GetDataType() const;
    void SetDataType(DataType dt);

    std::string GetName() const;
    graphStatus GetName(AscendString &name) const;
    void SetName(const char_t *name);
    void SetName(const std::string &name);

    void SetSize(int64_t size);
    int64_t GetSize() const;
    int64_t GetRealDimCnt() const;
    void SetRealDimCnt(const int64_t real_dim_cnt);
    void SetPlacement(Placement placement);
    Placement GetPlacement() const;

  private:
    Shape shape_;
    Shape origin_shape_;
    std::vector<std::pair<int64_t, int64_t>> shape_range_;
    Format format_ = FORMAT_ND;
    Format origin_format_ = FORMAT_ND;
    DataType data_type_ = DT_FLOAT;
    std::string name_;
    int64_t size_ = 0;
    int64_t real_dim_cnt_ = 0;
    Placement placement_ = kPlacementHost;
};

class TensorImpl;

class GE_FUNC_VISIBILITY Tensor {
  public:
    using DeleteFunc = std::function<void(uint8_t *)>;

    /* An empty tensor with a default description and no data. */
    Tensor();
    explicit Tensor(const TensorDesc &tensor_desc);
    /* The constructors that take data copy it. */
    Tensor(const TensorDesc &tensor_desc, const std::vector<uint8_t> &data);
    Tensor(const TensorDesc &tensor_desc, const uint8_t *data, size_t size);
    Tensor(TensorDesc &&tensor_desc, std::vector<uint8_t> &&data);

    TensorDesc GetTensorDesc() const;
    graphStatus SetTensorDesc(const TensorDesc &tensor_desc);
    /* The host buffer (64-byte aligned when the tensor copied the data); NULL when the
     * tensor has no data. */
    const uint8_t *GetData() const;
    uint8_t *GetData();
    /* Size of the data in bytes. */
    size_t GetSize() const;

    graphStatus SetData(std::vector<uint8_t> &&data);
    graphStatus SetData(const std::vector<uint8_t> &data);
    graphStatus SetData(const uint8_t *data, size_t size);
    /* Takes ownership of data: deleter_func(data) runs when the last copy goes away. */
    graphStatus SetData(uint8_t *data, size_t size, const Tensor::DeleteFunc &deleter_func);
    graphStatus ResetData(uint8_t *data, size_t size, const Tensor::DeleteFunc &deleter_func);
    /* GRAPH_SUCCESS when the data size equals the description's element count times its
     * element size (a tensor without data is valid). */
    graphStatus IsValid();
    Tensor Clone() const;

    DataType GetDataType() const;
    graphStatus SetDataType(const DataType &dtype);
    Format GetFormat() const;
    graphStatus SetFormat(const Format &format);
    Placement GetPlacement() const;
    graphStatus SetPlacement(const Placement &placement);
    size_t GetShapeDimNum() const;
    int64_t GetShapeDim(const size_t idx) const;

  private:
    std::shared_ptr<TensorImpl> impl_;
    friend class TensorAdapter;
};

} // namespace ge

#endif /* ROPEKIT_GRAPH_TENSOR_H_ */
