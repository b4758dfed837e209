/* The oracle's verdicts. A failed check prints what was wrong and aborts, which
 * libFuzzer reports as a crash and saves the input that caused it. */
#ifndef ROPEKIT_TESTS_FUZZ_CHECK_H_
#define ROPEKIT_TESTS_FUZZ_CHECK_H_

#include <stdio.h>
#include <stdlib.h>

#define FZ_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* Prints the decoded call when FUZZ_TRACE is set in the environment (to read a finding). */
#define FZ_TRACE(...)                                                                              \
    do {                                                                                           \
        if (getenv("FUZZ_TRACE")) {                                                                \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#endif /* ROPEKIT_TESTS_FUZZ_CHECK_H_ */
