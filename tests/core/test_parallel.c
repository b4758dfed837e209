/* rk_parallel_for: every task runs once, and calls from several threads at once share
 * the thread budget instead of each starting a full team. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "core/parallel.h"
#include "ropekit/ropekit.h"

static atomic_int running, most_running, runs[256];
static bool library_runs_teams; /* built with OpenMP: a call can use several threads */

static void note_task(void *ctx, int64_t task) {
    (void)ctx;
    int now = atomic_fetch_add(&running, 1) + 1;
    int seen = atomic_load(&most_running);
    while (now > seen && !atomic_compare_exchange_weak(&most_running, &seen, now)) {
    }
    atomic_fetch_add(&runs[task], 1);
    struct timespec pause = {0, 2000000}; /* 2 ms: long enough for callers to overlap */
    nanosleep(&pause, NULL);
    atomic_fetch_sub(&running, 1);
}

static void reset(void) {
    atomic_store(&running, 0);
    atomic_store(&most_running, 0);
    for (int i = 0; i < 256; i++)
        atomic_store(&runs[i], 0);
}

static void test_every_task_runs_once(void **state) {
    (void)state;
    reset();
    assert_int_equal(ropekit_set_num_threads(2), ROPEKIT_OK);
    rk_parallel_for(37, 2, note_task, NULL);
    for (int i = 0; i < 37; i++)
        assert_int_equal(atomic_load(&runs[i]), 1);
    assert_int_equal(atomic_load(&runs[37]), 0);
    library_runs_teams = atomic_load(&most_running) >= 2;
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

#define CALLERS 3
#define TASKS_PER_CALLER 24

static void *caller(void *arg) {
    rk_parallel_for(TASKS_PER_CALLER, 4, note_task, arg);
    return NULL;
}

/* With a budget of 4 threads, three callers asking for 4 each would run 12 tasks at
 * once; sharing the budget allows each caller's own thread plus 3 helpers: 6. */
static void test_concurrent_calls_share_the_budget(void **state) {
    (void)state;
    reset();
    assert_int_equal(ropekit_set_num_threads(4), ROPEKIT_OK);
    pthread_t threads[CALLERS];
    for (int i = 0; i < CALLERS; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, caller, NULL), 0);
    for (int i = 0; i < CALLERS; i++)
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    assert_true(atomic_load(&most_running) <= CALLERS + 4 - 1);
    for (int i = 0; i < TASKS_PER_CALLER; i++)
        assert_int_equal(atomic_load(&runs[i]), CALLERS);
    /* all helpers were given back: a later call forms a team again */
    reset();
    rk_parallel_for(8, 4, note_task, NULL);
    if (library_runs_teams)
        assert_true(atomic_load(&most_running) >= 2);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_task_runs_once),
        cmocka_unit_test(test_concurrent_calls_share_the_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
