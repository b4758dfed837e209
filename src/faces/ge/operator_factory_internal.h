/* The registered operator types (graph/operator_factory.h), for the Operator
 * constructors. */
#ifndef ROPEKIT_GE_OPERATOR_FACTORY_INTERNAL_H_
#define ROPEKIT_GE_OPERATOR_FACTORY_INTERNAL_H_

#include <string>

#include "graph/operator.h"

namespace ropekit_ge {

/* A node of a registered type, named `name`, with the type's prototype; false when the
 * type is not registered. */
bool CreateRegisteredOperator(const std::string &type, const ge::AscendString &name,
                              ge::Operator *out);

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_OPERATOR_FACTORY_INTERNAL_H_ */
