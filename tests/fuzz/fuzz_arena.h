/* The buffers of one fuzzed call. Each is its own heap block of exactly the size asked
 * for, so AddressSanitizer's redzones sit on both edges: a read or write one byte
 * outside is reported. The arena caps the bytes of one call (a shape the library should
 * reject must not exhaust the machine first), keeps a copy of every buffer taken before
 * the call, and tells whether a call changed any byte. */
#ifndef ROPEKIT_TESTS_FUZZ_ARENA_H_
#define ROPEKIT_TESTS_FUZZ_ARENA_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FZ_ARENA_BUFFERS 24
#define FZ_ARENA_LIMIT ((size_t)8 << 20) /* bytes of all buffers of one call */

typedef struct fz_arena {
    int count;
    size_t total;
    uint8_t *buf[FZ_ARENA_BUFFERS];
    uint8_t *copy[FZ_ARENA_BUFFERS];
    size_t size[FZ_ARENA_BUFFERS];
} fz_arena;

void fz_arena_init(fz_arena *a);
/* A zero-filled buffer of `bytes` (a 1-byte block for 0, so its address is valid and
 * any access past it is reported), or NULL when the arena's limit would be passed. */
void *fz_alloc(fz_arena *a, size_t bytes);
/* Remembers every buffer's bytes. */
void fz_snapshot(fz_arena *a);
/* The index of the first buffer whose bytes differ from the snapshot, or -1. */
int fz_changed(const fz_arena *a);
/* The snapshot's copy of the buffer holding `p` (which must be a buffer of the arena), or
 * NULL. */
const void *fz_saved(const fz_arena *a, const void *p);
/* Puts the snapshot's bytes back into every buffer. */
void fz_restore(fz_arena *a);
void fz_arena_free(fz_arena *a);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTS_FUZZ_ARENA_H_ */
