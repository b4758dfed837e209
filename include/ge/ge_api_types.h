/* GE API (ropekit): Status and the option names ropekit reads. */
#ifndef ROPEKIT_GE_GE_API_TYPES_H_
#define ROPEKIT_GE_GE_API_TYPES_H_

#include <cstdint>
#include <string>

#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {

using Status = uint32_t;

/* GEInitialize: the device; ropekit has one, device 0 (the CPU). */
const char_t *const OPTION_EXEC_DEVICE_ID = "ge.exec.deviceId";
/* GEInitialize: "0" inference, "1" training; accepted and not used (execution on the
 * CPU is the same). */
const char_t *const OPTION_GRAPH_RUN_MODE = "ge.graphRunMode";

} // namespace ge

#endif /* ROPEKIT_GE_GE_API_TYPES_H_ */
