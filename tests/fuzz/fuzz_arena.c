#include "fuzz_arena.h"

#include <stdlib.h>
#include <string.h>

void fz_arena_init(fz_arena *a) {
    memset(a, 0, sizeof *a);
}

void *fz_alloc(fz_arena *a, size_t bytes) {
    if (a->count == FZ_ARENA_BUFFERS || bytes > FZ_ARENA_LIMIT - a->total)
        return NULL;
    uint8_t *p = (uint8_t *)calloc(bytes ? bytes : 1, 1);
    if (!p)
        return NULL;
    a->buf[a->count] = p;
    a->size[a->count] = bytes;
    a->copy[a->count] = NULL;
    a->count++;
    a->total += bytes;
    return p;
}

void fz_snapshot(fz_arena *a) {
    for (int i = 0; i < a->count; ++i) {
        free(a->copy[i]);
        a->copy[i] = (uint8_t *)malloc(a->size[i] ? a->size[i] : 1);
        if (!a->copy[i])
            abort();
        memcpy(a->copy[i], a->buf[i], a->size[i]);
    }
}

int fz_changed(const fz_arena *a) {
    for (int i = 0; i < a->count; ++i)
        if (a->copy[i] && memcmp(a->copy[i], a->buf[i], a->size[i]) != 0)
            return i;
    return -1;
}

const void *fz_saved(const fz_arena *a, const void *p) {
    const uint8_t *q = (const uint8_t *)p;
    for (int i = 0; i < a->count; ++i)
        if (q >= a->buf[i] && q < a->buf[i] + (a->size[i] ? a->size[i] : 1))
            return a->copy[i] ? a->copy[i] + (q - a->buf[i]) : NULL;
    return NULL;
}

void fz_restore(fz_arena *a) {
    for (int i = 0; i < a->count; ++i)
        if (a->copy[i])
            memcpy(a->buf[i], a->copy[i], a->size[i]);
}

void fz_arena_free(fz_arena *a) {
    for (int i = 0; i < a->count; ++i) {
        free(a->buf[i]);
        free(a->copy[i]);
    }
    fz_arena_init(a);
}
