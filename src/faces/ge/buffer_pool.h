/* The host buffers of tensors and graph values. Large ones are kept when released and
 * handed out again for the same size: a graph run with large outputs would otherwise map
 * fresh pages on every RunGraph (the outputs of one run are usually dropped when the next
 * replaces them) and spend more time in page faults than in the operators. */
#ifndef ROPEKIT_GE_BUFFER_POOL_H_
#define ROPEKIT_GE_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ropekit_ge {

/* A 64-byte aligned host buffer of `bytes` (at least one cache line, so that an empty
 * tensor still has an address); NULL when out of memory. Its contents are undefined. */
std::shared_ptr<uint8_t> AllocateBuffer(size_t bytes);

/* Frees the buffers kept for reuse (GEFinalize does). */
void ReleaseIdleBuffers();

/* Bytes held by buffers kept for reuse. */
size_t IdleBufferBytes();

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_BUFFER_POOL_H_ */
