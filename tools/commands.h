/* The subcommands of the `ropekit` program. One row per command: adding a command
 * (bench, explain, ...) is a row here plus its cmd_<name>.c file. Each command gets
 * argv[0] = its name and returns the process exit status (0 ok, 1 check failed,
 * 2 usage error). */
#ifndef ROPEKIT_TOOLS_COMMANDS_H_
#define ROPEKIT_TOOLS_COMMANDS_H_

#define TK_COMMAND_LIST(X)                                                                         \
    X(demo, "run the official example configurations and check them against float64")              \
    X(verify, "randomized self-check of the native and aclnn faces against float64")               \
    X(soak, "threads and streams issuing valid and invalid calls for a while, memory flat")        \
    X(bench, "time the workloads against a copy of the same bytes and the scalar path")            \
    X(explain, "show the plan (kernel set, threads, tasks) chosen for a problem")                  \
    X(run, "execute one problem N times and nothing else (for profilers)")                         \
    X(version, "print the library version, instruction set and thread count")

#define TK_COMMAND_DECLARE_(name, summary) int tk_cmd_##name(int argc, char **argv);
TK_COMMAND_LIST(TK_COMMAND_DECLARE_)
#undef TK_COMMAND_DECLARE_

/* Exit statuses shared by the commands. */
enum { TK_EXIT_OK = 0, TK_EXIT_FAIL = 1, TK_EXIT_USAGE = 2 };

#endif /* ROPEKIT_TOOLS_COMMANDS_H_ */
