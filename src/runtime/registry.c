#include "runtime/registry.h"

#include <stdlib.h>

static const char rk_tombstone_byte;
#define RK_REGISTRY_TOMBSTONE ((const void *)&rk_tombstone_byte)

static size_t rk_hash(const void *key, size_t mask) {
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 17) & mask;
}

/* Index of key, or of the first free slot on its probe path (capacity > 0). */
static size_t rk_probe(const struct rk_registry *r, const void *key, bool *found) {
    size_t mask = r->capacity - 1, i = rk_hash(key, mask), free_slot = SIZE_MAX;
    for (;;) {
        const void *k = r->slots[i].key;
        if (k == key) {
            *found = true;
            return i;
        }
        if (k == NULL) {
            *found = false;
            return free_slot != SIZE_MAX ? free_slot : i;
        }
        if (k == RK_REGISTRY_TOMBSTONE && free_slot == SIZE_MAX)
            free_slot = i;
        i = (i + 1) & mask;
    }
}

static bool rk_grow(struct rk_registry *r) {
    size_t cap = r->capacity ? r->capacity * 2 : 64;
    if (r->live * 4 < r->capacity) /* mostly tombstones: rehash at the same size */
        cap = r->capacity;
    struct rk_registry_slot *old = r->slots;
    size_t old_cap = r->capacity;
    r->slots = calloc(cap, sizeof *r->slots);
    if (!r->slots) {
        r->slots = old;
        return false;
    }
    r->capacity = cap;
    r->used = r->live;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].key && old[i].key != RK_REGISTRY_TOMBSTONE) {
            bool found;
            size_t j = rk_probe(r, old[i].key, &found);
            r->slots[j] = old[i];
        }
    }
    free(old);
    return true;
}

bool rk_registry_add(struct rk_registry *r, const void *key, uint64_t tag) {
    bool ok = true, found;
    pthread_mutex_lock(&r->lock);
    if ((r->used + 1) * 2 > r->capacity && !rk_grow(r)) {
        ok = false;
    } else {
        size_t i = rk_probe(r, key, &found);
        if (!found) {
            if (r->slots[i].key == NULL)
                r->used++;
            r->live++;
        }
        r->slots[i].key = key;
        r->slots[i].tag = tag;
    }
    pthread_mutex_unlock(&r->lock);
    return ok;
}

/* Whether key is present, its tag into *tag (when tag is not NULL) and, with `take`, the key
 * removed: rk_registry_find and rk_registry_take. */
static bool rk_lookup(struct rk_registry *r, const void *key, uint64_t *tag, bool take) {
    bool found = false;
    pthread_mutex_lock(&r->lock);
    if (r->capacity && key) {
        size_t i = rk_probe(r, key, &found);
        if (found && tag)
            *tag = r->slots[i].tag;
        if (found && take) {
            r->slots[i].key = RK_REGISTRY_TOMBSTONE;
            r->live--;
        }
    }
    pthread_mutex_unlock(&r->lock);
    return found;
}

bool rk_registry_take(struct rk_registry *r, const void *key, uint64_t *tag) {
    return rk_lookup(r, key, tag, true);
}

bool rk_registry_find(struct rk_registry *r, const void *key, uint64_t *tag) {
    return rk_lookup(r, key, tag, false);
}

size_t rk_registry_count(struct rk_registry *r) {
    pthread_mutex_lock(&r->lock);
    size_t n = r->live;
    pthread_mutex_unlock(&r->lock);
    return n;
}

void rk_registry_each(struct rk_registry *r, void (*fn)(const void *key, uint64_t tag, void *ctx),
                      void *ctx) {
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < r->capacity; i++)
        if (r->slots[i].key && r->slots[i].key != RK_REGISTRY_TOMBSTONE)
            fn(r->slots[i].key, r->slots[i].tag, ctx);
    pthread_mutex_unlock(&r->lock);
}
