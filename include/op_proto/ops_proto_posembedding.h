/* GE operator prototypes (ropekit): every operator ropekit's graph runtime executes, in
 * one include: the RoPE operators and the Data and Const sources. */
#ifndef ROPEKIT_OP_PROTO_OPS_PROTO_POSEMBEDDING_H_
#define ROPEKIT_OP_PROTO_OPS_PROTO_POSEMBEDDING_H_

#include "apply_rotary_pos_emb_proto.h"
#include "inplace_partial_rotary_mul_grad_proto.h"
#include "inplace_partial_rotary_mul_proto.h"
#include "interleave_rope_proto.h"
#include "ops_proto_legacy.h"
#include "rope_with_sin_cos_cache_proto.h"
#include "rotary_position_embedding_grad_proto.h"
#include "rotary_position_embedding_proto.h"

#endif /* ROPEKIT_OP_PROTO_OPS_PROTO_POSEMBEDDING_H_ */
