/* `ropekit bench`: the workloads of the performance issue, timed against a copy of the
 * same number of bytes and a touch of the op's own bytes, both measured in the same run. */
#ifndef ROPEKIT_BENCH_BENCH_H_
#define ROPEKIT_BENCH_BENCH_H_

/* Parses the options (see `ropekit bench --help`), runs, prints; returns the exit
 * status (0 ok, 1 failure, 2 usage). */
int rkb_main(int argc, char **argv);

#endif /* ROPEKIT_BENCH_BENCH_H_ */
