/* GE operator prototypes (ropekit): the graph's sources.
 *
 * Data   a graph input. RunGraph's inputs[i] feeds the Data node whose attribute `index`
 *        is i. Its input x is never connected; its output y carries the fed tensor. The
 *        description set with update_output_desc_y (or update_input_desc_x) is what the
 *        feed must match: the same dtype, and the same shape where the description's
 *        dimensions are known (-1: any size; {-2}: any rank). Without a description any
 *        feed is accepted.
 * Const  a constant: output y is the tensor of attribute `value`. */
#ifndef ROPEKIT_OP_PROTO_OPS_PROTO_LEGACY_H_
#define ROPEKIT_OP_PROTO_OPS_PROTO_LEGACY_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(Data)
    .INPUT(x, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .ATTR(index, Int, 0)
    .OP_END_FACTORY_REG(Data)

        REG_OP(Const)
    .OUTPUT(y, TensorType::ALL())
    .ATTR(value, Tensor, Tensor())
    .OP_END_FACTORY_REG(Const)

} // namespace ge

#endif /* ROPEKIT_OP_PROTO_OPS_PROTO_LEGACY_H_ */
