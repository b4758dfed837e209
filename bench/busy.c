#include "busy.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double rkb_wall_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double rkb_own_cpu_s(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* CPU seconds all CPUs spent busy since boot (the "cpu" line of /proc/stat without idle
 * and iowait); -1 where there is none. */
static double rkb_machine_cpu_s(void) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle,
                   &iowait, &irq, &softirq, &steal);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (n != 8 || hz <= 0)
        return -1;
    return (double)(user + nice + sys + irq + softirq + steal) / (double)hz;
}

void rkb_busy_start(struct rkb_busy *b) {
    b->wall_s = rkb_wall_s();
    b->own_cpu_s = rkb_own_cpu_s();
    b->machine_cpu_s = rkb_machine_cpu_s();
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    b->cpus = cpus > 0 ? (int)cpus : 1;
}

double rkb_busy_others(const struct rkb_busy *b) {
    const double machine = rkb_machine_cpu_s();
    const double wall = rkb_wall_s() - b->wall_s;
    if (machine < 0 || b->machine_cpu_s < 0 || wall <= 0)
        return -1;
    double others = (machine - b->machine_cpu_s) - (rkb_own_cpu_s() - b->own_cpu_s);
    double share = others / (wall * b->cpus);
    return share < 0 ? 0 : share > 1 ? 1 : share;
}
