/* The host process around the library, as the benchmark plays it: the host's own
 * OpenMP regions between library calls (as a framework runs its own operators), a
 * neighbour process busy on a core, and the CPU time the library's threads use. */
#ifndef ROPEKIT_BENCH_HOST_H_
#define ROPEKIT_BENCH_HOST_H_

#include <stdbool.h>

#include "measure.h"

/* CPU time used so far by this process's threads other than the benchmark's own OpenMP
 * threads (the host's), and other than the main thread unless include_main: the
 * library's CPU time. Threads are listed from /proc/self/task; the whole process's CPU
 * time where that is not available. */
double rkb_library_cpu_s(bool include_main);

/* Every thread of a benchmark OpenMP region calls this, so its CPU time counts as the
 * host's. Cheap after the first call on a thread. */
void rkb_host_thread_mark(void);

/* An OpenMP parallel region of `threads` threads, each adding to its part of a 256 KiB
 * buffer: a framework's elementwise operator between two library calls. NULL ctx when
 * out of memory. */
struct rkb_between rkb_host_region(int threads);

/* Hands the library's parallel work to the host's OpenMP threads
 * (ropekit_set_parallel_for with an OpenMP parallel-for); false without OpenMP. */
bool rkb_host_parallel_for_install(void);

/* libgomp's threads spin for milliseconds after each parallel region by default, taking
 * a core from the library calls timed right after a baseline. Unless OMP_WAIT_POLICY or
 * GOMP_SPINCOUNT is set, this restarts the program (argv: the subcommand's arguments,
 * argv[-1] the program) with GOMP_SPINCOUNT set low; it returns only when it did not. */
void rkb_host_openmp_spin_short(int argc, char **argv);

/* A child process spinning on one core until rkb_neighbour_stop (or until this process
 * ends). */
bool rkb_neighbour_start(void);
void rkb_neighbour_stop(void);

#endif /* ROPEKIT_BENCH_HOST_H_ */
