/* The registry of live pointers (runtime/registry.h): add, find and take with and without
 * a tag, replacing a key's tag, NULL keys, an empty registry, growth past its first size,
 * slots freed by take and reused, and each visiting the live keys only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "runtime/registry.h"

#define KEYS 1000

static char keys[KEYS];

static void sum_tags(const void *key, uint64_t tag, void *ctx) {
    uint64_t *sum = ctx;
    assert_true((const char *)key >= keys && (const char *)key < keys + KEYS);
    assert_int_equal(tag, (uint64_t)((const char *)key - keys) * 3);
    *sum += tag;
}

static void test_empty_registry(void **state) {
    (void)state;
    struct rk_registry r = RK_REGISTRY_INIT;
    uint64_t tag = 42;
    assert_false(rk_registry_find(&r, keys, &tag));
    assert_false(rk_registry_take(&r, keys, &tag));
    assert_false(rk_registry_find(&r, NULL, NULL));
    assert_false(rk_registry_take(&r, NULL, NULL));
    assert_int_equal(tag, 42);
    assert_int_equal(rk_registry_count(&r), 0);
}

static void test_add_find_take(void **state) {
    (void)state;
    struct rk_registry r = RK_REGISTRY_INIT;
    uint64_t tag = 0;
    assert_true(rk_registry_add(&r, keys, 5));
    assert_true(rk_registry_add(&r, keys + 1, 6));
    assert_int_equal(rk_registry_count(&r), 2);
    assert_true(rk_registry_find(&r, keys, &tag));
    assert_int_equal(tag, 5);
    assert_true(rk_registry_find(&r, keys + 1, NULL));
    assert_false(rk_registry_find(&r, keys + 2, &tag));
    assert_false(rk_registry_find(&r, NULL, &tag));
    assert_int_equal(tag, 5);

    /* adding a key again replaces its tag and keeps one entry */
    assert_true(rk_registry_add(&r, keys, 9));
    assert_int_equal(rk_registry_count(&r), 2);
    assert_true(rk_registry_find(&r, keys, &tag));
    assert_int_equal(tag, 9);

    /* take gives the tag once; afterwards the key is unknown */
    tag = 0;
    assert_true(rk_registry_take(&r, keys, &tag));
    assert_int_equal(tag, 9);
    assert_false(rk_registry_take(&r, keys, &tag));
    assert_false(rk_registry_find(&r, keys, &tag));
    assert_int_equal(tag, 9);
    assert_true(rk_registry_take(&r, keys + 1, NULL));
    assert_false(rk_registry_take(&r, NULL, &tag));
    assert_int_equal(rk_registry_count(&r), 0);
    free(r.slots);
}

static void test_growth_and_reuse(void **state) {
    (void)state;
    struct rk_registry r = RK_REGISTRY_INIT;
    for (int round = 0; round < 4; round++) {
        for (uint64_t i = 0; i < KEYS; i++)
            assert_true(rk_registry_add(&r, keys + i, i * 3));
        assert_int_equal(rk_registry_count(&r), KEYS);
        uint64_t sum = 0;
        rk_registry_each(&r, sum_tags, &sum);
        assert_int_equal(sum, 3ull * KEYS * (KEYS - 1) / 2);
        for (uint64_t i = 0; i < KEYS; i += 2) {
            uint64_t tag = 0;
            assert_true(rk_registry_take(&r, keys + i, &tag));
            assert_int_equal(tag, i * 3);
        }
        assert_int_equal(rk_registry_count(&r), KEYS / 2);
        for (uint64_t i = 0; i < KEYS; i++) {
            uint64_t tag = 7;
            assert_true(rk_registry_find(&r, keys + i, &tag) == (i % 2 == 1));
            assert_int_equal(tag, i % 2 ? i * 3 : 7);
        }
        sum = 0;
        rk_registry_each(&r, sum_tags, &sum);
        assert_int_equal(sum, 3ull * (KEYS / 2) * (KEYS / 2));
        for (uint64_t i = 1; i < KEYS; i += 2)
            assert_true(rk_registry_take(&r, keys + i, NULL));
        assert_int_equal(rk_registry_count(&r), 0);
    }
    /* freed slots are reused: the table does not grow without bound */
    assert_true(r.capacity <= 4 * KEYS);
    free(r.slots);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_registry),
        cmocka_unit_test(test_add_find_take),
        cmocka_unit_test(test_growth_and_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
