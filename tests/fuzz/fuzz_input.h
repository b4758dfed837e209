/* Decoding a fuzzer's bytes into the values of one structured call. Every reader takes
 * what it needs from the front of the input; an exhausted input reads as zeros, so any
 * byte string is a complete call. Readers of sizes, strides and scaling parameters mix
 * ordinary values with the extremes that break arithmetic (0, -1, 2^31, 2^62, INT64_MAX,
 * NaN, inf, subnormals). */
#ifndef ROPEKIT_TESTS_FUZZ_INPUT_H_
#define ROPEKIT_TESTS_FUZZ_INPUT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fz_input {
    const uint8_t *data;
    size_t size;
} fz_input;

/* The next `bytes` (1..8) bytes, little-endian. */
uint64_t fz_bits(fz_input *in, unsigned bytes);
uint8_t fz_u8(fz_input *in);
bool fz_bool(fz_input *in);
/* A value in [lo, hi] (lo <= hi). */
int64_t fz_range(fz_input *in, int64_t lo, int64_t hi);
/* One of `count` values. */
int64_t fz_pick(fz_input *in, const int64_t *values, size_t count);
/* A size, dim or stride: mostly in [lo, hi], sometimes an extreme int64. */
int64_t fz_int(fz_input *in, int64_t lo, int64_t hi);
/* A double: mostly in [lo, hi], sometimes NaN, +-inf, 0, huge, tiny or negative. */
double fz_double(fz_input *in, double lo, double hi);

/* Fills `count` elements of a float dtype with values in [-2, 2), from a generator seeded
 * by the input; with `raw` set, the elements are the input's next bytes (any bit pattern:
 * NaN, inf, subnormals). */
void fz_fill_float(fz_input *in, void *buf, size_t count, ropekit_dtype dtype, bool raw);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTS_FUZZ_INPUT_H_ */
