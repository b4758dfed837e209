/* Whether the machine was busy while the bench measured: the CPU time the whole machine
 * spent (/proc/stat) minus this process's own (getrusage), as a share of all CPUs over the
 * wall time. A neighbour started by --neighbour counts as other load too. */
#ifndef ROPEKIT_BENCH_BUSY_H_
#define ROPEKIT_BENCH_BUSY_H_

struct rkb_busy {
    double wall_s, own_cpu_s, machine_cpu_s; /* at the start */
    int cpus;
};

/* Above this share of the CPUs used by others, the bench warns that it was disturbed. */
#define RKB_BUSY_WARN 0.10

void rkb_busy_start(struct rkb_busy *b);
/* Share of the machine's CPUs that other processes used since rkb_busy_start, in [0, 1];
 * negative where the machine's CPU time cannot be read. */
double rkb_busy_others(const struct rkb_busy *b);

#endif /* ROPEKIT_BENCH_BUSY_H_ */
