/* GE operator prototype (ropekit): RopeWithSinCosCache, as CANN declares it.
 *
 * Rotates queryIn [T, numQHeads * headSize] and keyIn [T, numKHeads * headSize] with the
 * rows of cosSinCache [maxSeqLen, rotaryDim] picked by positions ([T], or [k, T] for
 * mrope with mropeSection's k sections), NeoX or GPT-J style (isNeoxStyle), into queryOut
 * and keyOut. Rules and results are those of aclnnRopeWithSinCosCache (V2 when the node
 * also carries an Int attribute cacheMode, set with SetAttr). numQHeads and numKHeads must
 * agree with queryIn's and keyIn's widths; qStride and kStride are 0 or those widths
 * (graph tensors are dense). positions must be int64, as CANN's kernels register it,
 * although the prototype also names int32. The include guard is CANN's. */
#ifndef OPS_OP_PROTO_INC_ROPE_WITH_SIN_COS_CACHE_OPS_H_
#define OPS_OP_PROTO_INC_ROPE_WITH_SIN_COS_CACHE_OPS_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(RopeWithSinCosCache)
    .INPUT(positions, TensorType({DT_INT32, DT_INT64}))
    .INPUT(queryIn, TensorType({DT_FLOAT16, DT_BF16, DT_FLOAT}))
    .INPUT(keyIn, TensorType({DT_FLOAT16, DT_BF16, DT_FLOAT}))
    .INPUT(cosSinCache, TensorType({DT_FLOAT16, DT_BF16, DT_FLOAT}))
    .OUTPUT(queryOut, TensorType({DT_FLOAT16, DT_BF16, DT_FLOAT}))
    .OUTPUT(keyOut, TensorType({DT_FLOAT16, DT_BF16, DT_FLOAT}))
    .REQUIRED_ATTR(numQHeads, Int)
    .REQUIRED_ATTR(numKHeads, Int)
    .REQUIRED_ATTR(headSize, Int)
    .ATTR(mropeSection, ListInt, {0, 0, 0})
    .ATTR(qStride, Int, 0)
    .ATTR(kStride, Int, 0)
    .ATTR(isNeoxStyle, Bool, true)
    .OP_END_FACTORY_REG(RopeWithSinCosCache)

} // namespace ge

#endif /* OPS_OP_PROTO_INC_ROPE_WITH_SIN_COS_CACHE_OPS_H_ */
