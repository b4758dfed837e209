/* GE API (ropekit): ge::SUCCESS and ge::FAILED.
 *
 * CANN's graph examples define their own SUCCESS and FAILED macros, some before they
 * include the GE headers: the constants are declared only where no such macro exists,
 * and no ropekit header uses the two names otherwise. */
#ifndef ROPEKIT_GE_GE_API_ERROR_CODES_H_
#define ROPEKIT_GE_GE_API_ERROR_CODES_H_

#include "ge/ge_api_types.h"
#include "ge/ge_error_codes.h"

namespace ge {

#ifndef SUCCESS
constexpr Status SUCCESS = 0U;
#endif
#ifndef FAILED
constexpr Status FAILED = 0xFFFFFFFFU;
#endif

} // namespace ge

#endif /* ROPEKIT_GE_GE_API_ERROR_CODES_H_ */
