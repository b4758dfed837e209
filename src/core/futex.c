#define _GNU_SOURCE /* syscall() */
#include "core/futex.h"

#include <limits.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void rk_futex_wait(atomic_uint *word, unsigned expected) {
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void rk_futex_wake(atomic_uint *word, int count) {
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

#else
#include <pthread.h>

/* One condition for every word: a waker broadcasts and each sleeper rechecks its own
 * word under the lock, so no wake-up is lost. */
static pthread_mutex_t rk_futex_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rk_futex_cond = PTHREAD_COND_INITIALIZER;

void rk_futex_wait(atomic_uint *word, unsigned expected) {
    pthread_mutex_lock(&rk_futex_lock);
    while (atomic_load(word) == expected)
        pthread_cond_wait(&rk_futex_cond, &rk_futex_lock);
    pthread_mutex_unlock(&rk_futex_lock);
}

void rk_futex_wake(atomic_uint *word, int count) {
    (void)word;
    (void)count;
    pthread_mutex_lock(&rk_futex_lock);
    pthread_cond_broadcast(&rk_futex_cond);
    pthread_mutex_unlock(&rk_futex_lock);
}
#endif
