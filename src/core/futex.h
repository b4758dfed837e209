/* Sleeping on a 32-bit atomic word until another thread changes it and wakes the
 * sleepers: Linux futexes, or a mutex and condition variable elsewhere. */
#ifndef ROPEKIT_CORE_FUTEX_H_
#define ROPEKIT_CORE_FUTEX_H_

#include <stdatomic.h>

/* Sleeps while *word == expected (returns at once when it differs); may return early. */
void rk_futex_wait(atomic_uint *word, unsigned expected);

/* Wakes up to `count` threads sleeping on word; call it after changing *word. */
void rk_futex_wake(atomic_uint *word, int count);

/* A short pause for spin loops (the x86 PAUSE hint; nothing elsewhere). */
static inline void rk_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

#endif /* ROPEKIT_CORE_FUTEX_H_ */
