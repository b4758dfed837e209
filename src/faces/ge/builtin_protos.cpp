/* Registers the prototypes of every type the runtime executes with OperatorFactory, so
 * that Operator(name, type) and OperatorFactory::CreateOperator give nodes their
 * prototype also in programs that include none of the prototype headers. */
#include "op_proto/ops_proto_posembedding.h"
