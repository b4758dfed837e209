#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include "host.h"

#include "ropekit/ropekit.h"

#include <dirent.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#define RKB_MAX_HOST_THREADS 256

static atomic_int rkb_host_tids[RKB_MAX_HOST_THREADS];
static atomic_int rkb_host_count;
static _Thread_local bool rkb_host_marked;

void rkb_host_thread_mark(void) {
    if (rkb_host_marked)
        return;
    rkb_host_marked = true;
    int tid = (int)syscall(SYS_gettid);
    if (tid == (int)getpid())
        return; /* the main thread is the library's caller */
    int i = atomic_fetch_add(&rkb_host_count, 1);
    if (i < RKB_MAX_HOST_THREADS)
        atomic_store(&rkb_host_tids[i], tid);
}

static bool rkb_is_host_thread(int tid) {
    int n = atomic_load(&rkb_host_count);
    for (int i = 0; i < n && i < RKB_MAX_HOST_THREADS; i++)
        if (atomic_load(&rkb_host_tids[i]) == tid)
            return true;
    return false;
}

/* A thread's CPU time, up to date: Linux's per-thread CPU clock of a thread id (what
 * pthread_getcpuclockid gives, built from the id; /proc's schedstat lags while the
 * thread runs), or schedstat where that clock is refused. */
static double rkb_thread_cpu_s(int tid) {
    const clockid_t clock =
        (clockid_t)((~(unsigned)tid << 3) | 6u); /* CPUCLOCK_SCHED, per thread */
    struct timespec ts;
    if (clock_gettime(clock, &ts) == 0)
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
    FILE *f = fopen(path, "r");
    unsigned long long ns = 0;
    if (f) {
        if (fscanf(f, "%llu", &ns) != 1)
            ns = 0;
        fclose(f);
    }
    return (double)ns * 1e-9;
}

static double rkb_process_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double rkb_library_cpu_s(bool include_main) {
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return rkb_process_cpu_s();
    const int self = (int)getpid();
    double total = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int tid = atoi(e->d_name);
        if (tid <= 0 || rkb_is_host_thread(tid) || (tid == self && !include_main))
            continue;
        total += rkb_thread_cpu_s(tid);
    }
    closedir(d);
    return total;
}

#define RKB_HOST_BYTES (256 * 1024)

struct rkb_host_job {
    uint32_t *buf;
    int threads;
};

static void rkb_host_run(void *ctx) {
    struct rkb_host_job *j = ctx;
    const int64_t n = RKB_HOST_BYTES / 4, chunk = (n + j->threads - 1) / j->threads;
#ifdef _OPENMP
#pragma omp parallel for num_threads(j->threads) schedule(static)
#endif
    for (int t = 0; t < j->threads; t++) {
        rkb_host_thread_mark();
        for (int64_t i = t * chunk; i < n && i < (t + 1) * chunk; i++)
            j->buf[i] += 1u;
    }
}

struct rkb_between rkb_host_region(int threads) {
    static struct rkb_host_job job;
    if (!job.buf)
        job.buf = calloc(RKB_HOST_BYTES / 4, 4);
    job.threads = threads < 1 ? 1 : threads;
    return (struct rkb_between){rkb_host_run, job.buf ? &job : NULL};
}

#ifdef _OPENMP
static void rkb_host_parallel_for(void *host, int64_t tasks, int threads, ropekit_task_fn task,
                                  void *ctx) {
    (void)host;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t t = 0; t < tasks; t++) {
        rkb_host_thread_mark();
        task(ctx, t);
    }
}
#endif

bool rkb_host_parallel_for_install(void) {
#ifdef _OPENMP
    return ropekit_set_parallel_for(rkb_host_parallel_for, NULL) == ROPEKIT_OK;
#else
    return false;
#endif
}

void rkb_host_openmp_spin_short(int argc, char **argv) {
#ifdef _OPENMP
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT"))
        return;
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return;
    args[0] = argv[-1];
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        free(args);
        return;
    }
    self[n] = '\0';
    setenv("GOMP_SPINCOUNT", "10000", 1); /* about a millisecond */
    execv(self, args);
    unsetenv("GOMP_SPINCOUNT");
    free(args);
#else
    (void)argc;
    (void)argv;
#endif
}

static pid_t rkb_neighbour;

bool rkb_neighbour_start(void) {
    if (rkb_neighbour > 0)
        return true;
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        volatile uint64_t spin = 0;
        for (;;)
            spin++;
    }
    rkb_neighbour = pid;
    return true;
}

void rkb_neighbour_stop(void) {
    if (rkb_neighbour <= 0)
        return;
    kill(rkb_neighbour, SIGKILL);
    waitpid(rkb_neighbour, NULL, 0);
    rkb_neighbour = 0;
}
