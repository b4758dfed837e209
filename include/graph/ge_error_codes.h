/* GE graph API (ropekit): the older name of graph/error_codes.h. */
#ifndef ROPEKIT_GRAPH_GE_ERROR_CODES_H_
#define ROPEKIT_GRAPH_GE_ERROR_CODES_H_

#include "graph/error_codes.h"

#endif /* ROPEKIT_GRAPH_GE_ERROR_CODES_H_ */
