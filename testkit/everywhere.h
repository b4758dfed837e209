/* Bit-identity across kernel sets and thread counts: run one computation under every
 * ISA cap this CPU has (scalar up to the detected set) and each of some thread counts,
 * and compare each run's output bytes with the first run's. */
#ifndef ROPEKIT_TESTKIT_EVERYWHERE_H_
#define ROPEKIT_TESTKIT_EVERYWHERE_H_

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Computes into `out` (`bytes` bytes) with the library's current ISA cap and threads. */
typedef void (*tk_compute_fn)(void *ctx, void *out);

/* Where two runs differed: the ISA cap and thread count of the run unlike the first. */
typedef struct tk_everywhere_diff {
    int isa;
    int threads;
} tk_everywhere_diff;

/* Runs `compute` for every ISA cap and each of `threads[0..n_threads)` (0: the default),
 * ISA-major from scalar; true when all outputs equal the first. On a difference fills
 * `*diff` and stops ({-1, -1}: a cap or thread count was refused, or no memory). Restores the
 * detected ISA and the default thread count. */
bool tk_same_bytes_everywhere(tk_compute_fn compute, void *ctx, size_t bytes, const int *threads,
                              int n_threads, tk_everywhere_diff *diff);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_EVERYWHERE_H_ */
