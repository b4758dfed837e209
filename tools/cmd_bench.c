/* `ropekit bench`: see bench/ for the workloads and the harness. */
#include "bench.h"
#include "commands.h"

int tk_cmd_bench(int argc, char **argv) {
    return rkb_main(argc, argv);
}
