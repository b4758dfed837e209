/* The `ropekit` program: dispatches to the subcommands listed in commands.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

struct tk_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
};

#define TK_COMMAND_ROW_(name, summary) {#name, summary, tk_cmd_##name},
static const struct tk_command tk_commands[] = {TK_COMMAND_LIST(TK_COMMAND_ROW_)};
#undef TK_COMMAND_ROW_

static void tk_usage(FILE *out) {
    fprintf(out, "usage: ropekit <command> [options]\n\n"
                 "CPU implementation of CANN's RoPE operators: checks and demonstrations.\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof tk_commands / sizeof tk_commands[0]; i++)
        fprintf(out, "  %-9s %s\n", tk_commands[i].name, tk_commands[i].summary);
    fprintf(out, "\n'ropekit <command> --help' describes a command's options.\n"
                 "Environment: ROPEKIT_NUM_THREADS caps the threads, ROPEKIT_MAX_ISA\n"
                 "(scalar, avx2, avx512) caps the instruction set.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        tk_usage(stderr);
        return TK_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (tk_cli_is_help(name) || strcmp(name, "help") == 0) {
        tk_usage(stdout);
        return TK_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0)
        name = "version";
    for (size_t i = 0; i < sizeof tk_commands / sizeof tk_commands[0]; i++)
        if (strcmp(name, tk_commands[i].name) == 0)
            return tk_commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ropekit: unknown command '%s'\n\n", argv[1]);
    tk_usage(stderr);
    return TK_EXIT_USAGE;
}
