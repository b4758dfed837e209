/* A thread-safe map from live object pointers to a small tag, so that the ACL surface
 * can answer "unknown or already freed" with an error instead of crashing. */
#ifndef ROPEKIT_RUNTIME_REGISTRY_H_
#define ROPEKIT_RUNTIME_REGISTRY_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rk_registry_slot {
    const void *key; /* NULL: empty; RK_REGISTRY_TOMBSTONE: deleted */
    uint64_t tag;
};

struct rk_registry {
    pthread_mutex_t lock;
    struct rk_registry_slot *slots;
    size_t capacity; /* power of two */
    size_t used;     /* live + tombstones */
    size_t live;
};

#define RK_REGISTRY_INIT                                                                           \
    { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0 }

/* false when out of memory. */
bool rk_registry_add(struct rk_registry *r, const void *key, uint64_t tag);
/* Removes key; true (and its tag) when it was present. */
bool rk_registry_take(struct rk_registry *r, const void *key, uint64_t *tag);
bool rk_registry_find(struct rk_registry *r, const void *key, uint64_t *tag);
size_t rk_registry_count(struct rk_registry *r);
/* Calls fn for each live key (under the lock: fn must not touch the registry). */
void rk_registry_each(struct rk_registry *r, void (*fn)(const void *key, uint64_t tag, void *ctx),
                      void *ctx);

#endif /* ROPEKIT_RUNTIME_REGISTRY_H_ */
