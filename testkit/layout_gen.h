/* Random memory layouts for verify: the same logical shape stored contiguously, with
 * padded or permuted strides, reversed dimensions, or broadcast (zero) strides, at a
 * random offset inside a larger buffer. */
#ifndef ROPEKIT_TESTKIT_LAYOUT_GEN_H_
#define ROPEKIT_TESTKIT_LAYOUT_GEN_H_

#include <stdbool.h>
#include <stdint.h>

#include "testkit/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tk_layout_opts {
    bool pad;      /* gaps between elements and rows, and around the view */
    bool permute;  /* dimensions in a random memory order */
    bool negative; /* some dimensions stored reversed */
    bool zero;     /* some dimensions broadcast with stride 0 (never for outputs) */
};

struct tk_layout {
    int64_t strides[8];
    int64_t offset;    /* element index of [0,...,0] */
    int64_t buf_elems; /* buffer length needed */
};

/* A layout for `shape` (ndim <= 8). With all options false it is C-contiguous. */
struct tk_layout tk_layout_random(struct tk_rng *rng, int ndim, const int64_t *shape,
                                  const struct tk_layout_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_LAYOUT_GEN_H_ */
