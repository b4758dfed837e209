/* Writing outputs past the caches. An ordinary store first reads the line it writes
 * (read for ownership), so an out-of-place pass over data larger than the caches moves
 * three bytes for every two it must: a non-temporal store writes whole lines without
 * reading them, the way memcpy copies large buffers. Out-of-place rope and partial rotary
 * whose outputs do not fit the last-level cache compute each token's heads (rows) into an
 * L1 scratch and stream them out (W3 out of place: 62-67% of the same-run copy bandwidth
 * before). */
#ifndef ROPEKIT_KERNELS_STREAM_STORE_H_
#define ROPEKIT_KERNELS_STREAM_STORE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether outputs of `bytes` should be streamed: more than three quarters of the
 * last-level cache. */
bool rk_stream_wanted(int64_t bytes);

/* Tests: stream outputs of more than `bytes` (< 0: back to the cache size). */
void rk_stream_threshold_set(int64_t bytes);

/* Copies n bytes with non-temporal stores where the destination allows (plain copies
 * elsewhere, and on CPUs without them). */
void rk_stream_copy(void *dst, const void *src, size_t n);

/* Orders the calling thread's non-temporal stores before its later stores (a task calls
 * it before it reports done). */
void rk_stream_fence(void);

#endif /* ROPEKIT_KERNELS_STREAM_STORE_H_ */
