/* The library's thread pool (core/thread_pool.h): every task runs exactly once, calls
 * from several threads share the budget, a caller never waits for a helper that has not
 * started, nested calls finish, no CPU is used once calls have returned, a forked child
 * gets a working pool, and a host's parallel-for replaces the pool. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/parallel.h"
#include "core/thread_pool.h"
#include "ropekit/ropekit.h"

#define MAX_TASKS 512

static atomic_int running, most_running, runs[MAX_TASKS];

static void sleep_ms(double ms) {
    struct timespec t = {(time_t)(ms / 1000), (long)((ms - 1000.0 * (time_t)(ms / 1000)) * 1e6)};
    nanosleep(&t, NULL);
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void reset(void) {
    atomic_store(&running, 0);
    atomic_store(&most_running, 0);
    for (int i = 0; i < MAX_TASKS; i++)
        atomic_store(&runs[i], 0);
}

static void count_task(void *ctx, int64_t task) {
    (void)ctx;
    atomic_fetch_add(&runs[task], 1);
}

/* Counts the task and how many run at once; sleeps `ctx` milliseconds (NULL: 2 ms). */
static void overlap_task(void *ctx, int64_t task) {
    int now = atomic_fetch_add(&running, 1) + 1;
    int seen = atomic_load(&most_running);
    while (now > seen && !atomic_compare_exchange_weak(&most_running, &seen, now)) {
    }
    atomic_fetch_add(&runs[task], 1);
    sleep_ms(ctx ? *(const double *)ctx : 2.0);
    atomic_fetch_sub(&running, 1);
}

static void test_every_task_runs_once(void **state) {
    (void)state;
    for (int budget = 1; budget <= 4; budget++) {
        assert_int_equal(ropekit_set_num_threads(budget), ROPEKIT_OK);
        for (int64_t tasks = 0; tasks <= 70; tasks++)
            for (int threads = 1; threads <= 5; threads++) {
                reset();
                rk_parallel_for(tasks, threads, count_task, NULL);
                for (int64_t t = 0; t < MAX_TASKS; t++)
                    assert_int_equal(atomic_load(&runs[t]), t < tasks ? 1 : 0);
            }
    }
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

static double wall_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Gives every thread of the pool (named "ropekit-pool") the affinity `mask`; returns how
 * many it found (a worker names itself when it starts). */
static int pin_pool_threads(const cpu_set_t *mask) {
    int pinned = 0;
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks)
        return 0;
    for (struct dirent *entry; (entry = readdir(tasks)) != NULL;) {
        if (entry->d_name[0] == '.')
            continue;
        char path[300], name[32] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
        FILE *comm = fopen(path, "r");
        if (!comm)
            continue;
        if (fgets(name, sizeof name, comm) && strncmp(name, "ropekit-pool", 12) == 0 &&
            sched_setaffinity((pid_t)atoi(entry->d_name), sizeof *mask, mask) == 0)
            pinned++;
        fclose(comm);
    }
    closedir(tasks);
    return pinned;
}

/* On a machine with two or more CPUs, a 2-thread call with slow tasks gets a helper. A
 * helper that finds itself on its caller's core yields instead of joining, so on a busy
 * machine, where the scheduler may keep both on one core, the test pins the caller to one
 * CPU and the helpers to another, and tries for up to 30 s (a helper competing with other
 * processes for its CPU may miss many 32 ms calls). */
static void test_helpers_join(void **state) {
    (void)state;
    cpu_set_t allowed;
    if (online_cpus() < 2 || sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
        CPU_COUNT(&allowed) < 2)
        skip();
    int first = -1, second = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE && second < 0; cpu++)
        if (CPU_ISSET(cpu, &allowed))
            *(first < 0 ? &first : &second) = cpu;
    cpu_set_t caller_cpu, helper_cpu;
    CPU_ZERO(&caller_cpu);
    CPU_SET(first, &caller_cpu);
    CPU_ZERO(&helper_cpu);
    CPU_SET(second, &helper_cpu);

    assert_int_equal(ropekit_set_num_threads(2), ROPEKIT_OK);
    rk_parallel_for(16, 2, count_task, NULL); /* starts the pool's workers */
    assert_true(rk_pool_workers() >= 1);
    assert_int_equal(sched_setaffinity(0, sizeof caller_cpu, &caller_cpu), 0);
    const double named_by = wall_seconds() + 10.0;
    while (pin_pool_threads(&helper_cpu) < rk_pool_workers() && wall_seconds() < named_by)
        sleep_ms(1.0);
    bool overlapped = false;
    int attempts = 0;
    for (const double start = wall_seconds(); !overlapped && wall_seconds() - start < 30.0;
         attempts++) {
        reset();
        rk_parallel_for(16, 2, overlap_task, NULL);
        overlapped = atomic_load(&most_running) == 2;
    }
    pin_pool_threads(&allowed);
    assert_int_equal(sched_setaffinity(0, sizeof allowed, &allowed), 0);
    if (!overlapped)
        print_message("no helper joined in %d calls\n", attempts);
    assert_true(overlapped);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

#define CALLERS 3
#define TASKS_PER_CALLER 24

static void *caller(void *arg) {
    rk_parallel_for(TASKS_PER_CALLER, 4, overlap_task, arg);
    return NULL;
}

/* Three callers asking for 4 threads each with a budget of 4: helpers join only while
 * fewer than 4 threads are working, so at most the callers plus a helper raced in. */
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
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

/* A helper stuck in another call's task: a new call runs all of its tasks on its own
 * thread instead of waiting for it. */
static atomic_int release_blocked;

static void blocking_task(void *ctx, int64_t task) {
    (void)ctx;
    (void)task;
    while (!atomic_load(&release_blocked))
        sleep_ms(0.2);
}

static void *blocked_caller(void *arg) {
    (void)arg;
    rk_parallel_for(8, 8, blocking_task, NULL); /* the caller and every helper block */
    return NULL;
}

static void test_caller_never_waits_for_a_busy_helper(void **state) {
    (void)state;
    assert_int_equal(ropekit_set_num_threads(4), ROPEKIT_OK);
    atomic_store(&release_blocked, 0);
    pthread_t blocked;
    assert_int_equal(pthread_create(&blocked, NULL, blocked_caller, NULL), 0);
    sleep_ms(20); /* let the helpers join the blocked call */
    reset();
    rk_parallel_for(64, 4, count_task, NULL); /* must not wait for the blocked helpers */
    for (int t = 0; t < 64; t++)
        assert_int_equal(atomic_load(&runs[t]), 1);
    assert_false(atomic_load(&release_blocked));
    atomic_store(&release_blocked, 1);
    assert_int_equal(pthread_join(blocked, NULL), 0);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

static void nested_task(void *ctx, int64_t task) {
    (void)ctx;
    rk_parallel_for(8, 2, count_task, NULL);
    atomic_fetch_add(&runs[MAX_TASKS - 1 - task], 1);
}

static void test_nested_calls_finish(void **state) {
    (void)state;
    reset();
    assert_int_equal(ropekit_set_num_threads(2), ROPEKIT_OK);
    rk_parallel_for(16, 2, nested_task, NULL);
    for (int t = 0; t < 8; t++)
        assert_int_equal(atomic_load(&runs[t]), 16);
    for (int t = 0; t < 16; t++)
        assert_int_equal(atomic_load(&runs[MAX_TASKS - 1 - t]), 1);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

/* Process CPU time over the 50 ms after a 2-thread call: a worker that kept spinning
 * would use about 50 ms; the pool's bounded spin uses about 0.15 ms. CPU time (not wall
 * time) does not grow when the machine is busy, so the bound holds on a shared host. */
static void test_no_cpu_after_calls_return(void **state) {
    (void)state;
    assert_int_equal(ropekit_set_num_threads(2), ROPEKIT_OK);
    const double quick = 0.05;
    for (int i = 0; i < 50; i++) {
        reset();
        rk_parallel_for(8, 2, overlap_task, (void *)&quick);
    }
    const double c0 = cpu_seconds();
    sleep_ms(50);
    const double used_ms = (cpu_seconds() - c0) * 1e3;
    print_message("library CPU in the 50 ms after a 2-thread call: %.3f ms\n", used_ms);
    assert_true(used_ms < 2.0);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

/* The child of a fork has only the forking thread: its first call starts a pool of its
 * own, and the parent's pool goes on working. */
static void test_fork_child_gets_a_pool(void **state) {
    (void)state;
    assert_int_equal(ropekit_set_num_threads(2), ROPEKIT_OK);
    rk_parallel_for(8, 2, count_task, NULL); /* workers started in the parent */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        reset();
        rk_parallel_for(64, 2, count_task, NULL);
        bool ok = rk_pool_workers() >= 1 || online_cpus() < 2;
        for (int t = 0; t < 64; t++)
            ok = ok && atomic_load(&runs[t]) == 1;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    reset();
    rk_parallel_for(64, 2, count_task, NULL);
    for (int t = 0; t < 64; t++)
        assert_int_equal(atomic_load(&runs[t]), 1);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

static atomic_int host_calls;

/* A host's parallel-for: runs the tasks backwards on the calling thread. */
static void reverse_host(void *host, int64_t tasks, int threads, ropekit_task_fn task, void *ctx) {
    assert_ptr_equal(host, &host_calls);
    assert_true(threads > 1);
    atomic_fetch_add(&host_calls, 1);
    for (int64_t t = tasks - 1; t >= 0; t--)
        task(ctx, t);
}

static void test_host_parallel_for_replaces_the_pool(void **state) {
    (void)state;
    assert_int_equal(ropekit_set_num_threads(4), ROPEKIT_OK);
    assert_int_equal(ropekit_set_parallel_for(reverse_host, &host_calls), ROPEKIT_OK);
    reset();
    rk_parallel_for(33, 4, count_task, NULL);
    rk_parallel_for(1, 4, count_task, NULL); /* one task: the caller runs it */
    assert_int_equal(atomic_load(&host_calls), 1);
    assert_int_equal(atomic_load(&runs[0]), 2);
    for (int t = 1; t < 33; t++)
        assert_int_equal(atomic_load(&runs[t]), 1);
    assert_int_equal(ropekit_set_parallel_for(NULL, NULL), ROPEKIT_OK);
    rk_parallel_for(33, 4, count_task, NULL);
    assert_int_equal(atomic_load(&host_calls), 1);
    assert_int_equal(ropekit_set_num_threads(0), ROPEKIT_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_task_runs_once),
        cmocka_unit_test(test_helpers_join),
        cmocka_unit_test(test_concurrent_calls_share_the_budget),
        cmocka_unit_test(test_caller_never_waits_for_a_busy_helper),
        cmocka_unit_test(test_nested_calls_finish),
        cmocka_unit_test(test_no_cpu_after_calls_return),
        cmocka_unit_test(test_fork_child_gets_a_pool),
        cmocka_unit_test(test_host_parallel_for_replaces_the_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
