/* CPU tests of the bank-conflict case: the model of each thread's sum on
 * hand-computed tables (table[i] = i, and all-ones words for wrap-around),
 * and the completeness of the sweep table. */
#include <stdio.h>
#include <string.h>

#include "smem_banks.h"
#include "harness/case.h"
#include "harness/testing/test_util.h"

extern const ladder_case smem_banks_case;

static const ladder_variant *find(const char *name)
{
    for (int i = 0; i < smem_banks_case.variant_count; ++i)
        if (strcmp(smem_banks_case.variants[i].name, name) == 0) return &smem_banks_case.variants[i];
    printf("  FAIL: no variant %s\n", name);
    ++test_failures;
    return &smem_banks_case.variants[0];
}

static uint32_t table[SMEM_BANKS_TABLE_WORDS];

static void expect_sum(const char *name, int lane, int repeats, uint32_t expected)
{
    uint32_t got = smem_banks_expected_sum(find(name), table, lane, repeats);
    EXPECTF(got == expected, "%s lane %d x%d: %u, by hand %u", name, lane, repeats, got, expected);
}

static void test_sums_by_hand(void)
{
    printf("model: with table[i] = i, sums worked out by hand for each access shape\n");
    for (uint32_t i = 0; i < SMEM_BANKS_TABLE_WORDS; ++i) table[i] = i;
    expect_sum("w4_stride_1", 0, 1, 496);         /* 0 + 1 + ... + 31 */
    expect_sum("w4_stride_2", 3, 1, 6 * 32 + 496); /* words 6..37 */
    expect_sum("w4_stride_2", 3, 5, 5 * (6 * 32 + 496));
    expect_sum("w4_broadcast", 17, 1, 496);       /* every lane words 0..31 */
    expect_sum("w8_stride_1", 1, 1, 2144);        /* elements 1..32 = words 2..65 */
    expect_sum("w16_stride_33", 31, 1, 531904);   /* elements 1023..1054 = words 4092..4219 */
    expect_sum("w16_broadcast", 9, 2, 2 * 8128);  /* words 0..127, twice */
    expect_sum("tile_rows", 5, 1, 32 * 496 + 32 * 5);    /* tile[u][5] = 32u + 5 */
    expect_sum("tile_columns", 5, 1, 5 * 32 * 32 + 496); /* tile[5][u] = 160 + u */
    expect_sum("tile_columns_padded", 5, 1, 5 * 32 * 32 + 496);
}

static void test_wrap_around(void)
{
    printf("model: sums wrap modulo 2^32 like the device's integer adds\n");
    for (uint32_t i = 0; i < SMEM_BANKS_TABLE_WORDS; ++i) table[i] = 0xFFFFFFFFu;
    expect_sum("w4_stride_1", 0, 1, 0u - 32u);
    expect_sum("w4_stride_1", 0, 2, 0u - 64u);
    expect_sum("w16_stride_7", 30, 3, 0u - 3u * 128u);
}

static void test_sweep_table(void)
{
    printf("table: strides 1..33 and a broadcast for 4-, 8- and 16-byte words, every read inside the table\n");
    EXPECTF(strcmp(smem_banks_case.variants[0].name, "w4_stride_1") == 0, "row 0 is %s",
           smem_banks_case.variants[0].name);
    const char *widths[] = {"w4", "w8", "w16"};
    for (int w = 0; w < 3; ++w) {
        char name[32];
        for (int s = 1; s <= 33; ++s) {
            snprintf(name, sizeof name, "%s_stride_%d", widths[w], s);
            EXPECTF(find(name)->param == s, "%s has param %d", name, find(name)->param);
            EXPECTF(31 * s + SMEM_BANKS_UNROLL - 1 < SMEM_BANKS_TABLE_ELEMENTS, "%s reads past the table", name);
        }
        snprintf(name, sizeof name, "%s_broadcast", widths[w]);
        EXPECTF(find(name)->param == 0, "%s is not stride 0", name);
    }
    for (int i = 0; i < smem_banks_case.variant_count; ++i)
        for (int j = 0; j < i; ++j)
            EXPECTF(strcmp(smem_banks_case.variants[i].name, smem_banks_case.variants[j].name) != 0, "duplicate %s",
                   smem_banks_case.variants[i].name);
}

int main(void)
{
    test_sums_by_hand();
    test_wrap_around();
    test_sweep_table();
    printf(test_failures ? "smem_banks_test: %d FAILED\n" : "smem_banks_test: all passed\n", test_failures);
    return test_failures ? 1 : 0;
}
