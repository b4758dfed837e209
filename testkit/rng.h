/* Deterministic pseudo-random numbers for test data (splitmix64, and xorshift64 for raw
 * bit patterns). The same seed gives
 * the same stream on every platform, which is what makes `ropekit verify --seed N`
 * reproducible. Not for anything but test data. */
#ifndef ROPEKIT_TESTKIT_RNG_H_
#define ROPEKIT_TESTKIT_RNG_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_rng {
    uint64_t state;
};

static inline struct tk_rng tk_rng_make(uint64_t seed) {
    struct tk_rng r = {seed};
    return r;
}

static inline uint64_t tk_rng_next(struct tk_rng *r) {
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n); n == 0 gives 0. The tiny modulo bias is irrelevant here. */
static inline uint64_t tk_rng_below(struct tk_rng *r, uint64_t n) {
    return n ? tk_rng_next(r) % n : 0;
}

/* Uniform integer in [lo, hi]. */
static inline int64_t tk_rng_range(struct tk_rng *r, int64_t lo, int64_t hi) {
    return lo + (int64_t)tk_rng_below(r, (uint64_t)(hi - lo) + 1u);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double tk_rng_unit(struct tk_rng *r) {
    return (double)(tk_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double tk_rng_uniform(struct tk_rng *r, double lo, double hi) {
    return lo + (hi - lo) * tk_rng_unit(r);
}

/* True with probability percent / 100. */
static inline bool tk_rng_chance(struct tk_rng *r, unsigned percent) {
    return tk_rng_below(r, 100) < percent;
}

/* xorshift64 (13, 7, 17) on *state, returning bits 11..42: the raw bit stream of the
 * kernel tests, whose NaN payloads, infinities and subnormals are drawn from its bits. */
static inline uint32_t tk_xorshift32(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return (uint32_t)(x >> 11);
}

/* A float64 test value drawn from the kernel tests' bit stream: one in 64 each a NaN
 * with a random payload and sign, an infinity, a subnormal, a value whose products
 * overflow; else a value in (-4, 4) with a full random mantissa. */
static inline double tk_xorshift_f64(uint64_t *state) {
    const uint32_t r = tk_xorshift32(state) % 64;
    const uint64_t bits = ((uint64_t)tk_xorshift32(state) << 32) | tk_xorshift32(state);
    double v;
    if (r == 0) {
        const uint64_t nan = 0x7ff8000000000000ull | (bits & 0x8007ffffffffffffull);
        memcpy(&v, &nan, sizeof v);
        return v;
    }
    if (r == 1)
        return (bits & 1) ? 1.0 / 0.0 : -1.0 / 0.0;
    if (r == 2) {
        const uint64_t sub = bits & 0x800fffffffffffffull;
        memcpy(&v, &sub, sizeof v);
        return v;
    }
    if (r == 3)
        return (bits & 1) ? 1e300 : -1e300;
    return ((double)(bits >> 11) * (1.0 / 9007199254740992.0) - 0.5) * 8.0;
}

/* Seed of an independent stream for item `index` of a run seeded with `seed`, so one
 * case can be replayed without generating the ones before it. */
static inline uint64_t tk_rng_derive(uint64_t seed, uint64_t index) {
    struct tk_rng r = tk_rng_make(seed ^ (index * 0xd1b54a32d192ed03ull));
    tk_rng_next(&r);
    return tk_rng_next(&r);
}

/* n bytes of an LCG stream from `seed` whose every 16-bit and 32-bit word (read little
 * end first) is finite: the top exponent bit of each odd byte is cleared. For tests
 * that compare two paths' bytes and want no NaN among them. */
static inline void tk_fill_finite_bytes(uint8_t *p, size_t n, uint32_t seed) {
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (uint8_t)(seed >> 24);
    }
    for (size_t i = 1; i < n; i += 2)
        p[i] &= 0xbf;
}

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_RNG_H_ */
