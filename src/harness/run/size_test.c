#include <string.h>

#include "size.h"
#include "harness/testing/test_util.h"

static void expect_size(const char *spec, int count, long long d0, long long d1, long long d2)
{
    ladder_size s;
    char err[256] = "";
    int rc = ladder_parse_size(spec, &s, err, sizeof err);
    EXPECT(rc == 0);
    if (rc != 0) {
        fprintf(stderr, "  '%s' rejected: %s\n", spec, err);
        return;
    }
    EXPECT(s.count == count);
    EXPECT(s.dim[0] == d0);
    if (count > 1) EXPECT(s.dim[1] == d1);
    if (count > 2) EXPECT(s.dim[2] == d2);
}

static void expect_rejected(const char *spec, const char *message_part)
{
    ladder_size s;
    char err[256] = "";
    EXPECT(ladder_parse_size(spec, &s, err, sizeof err) == -1);
    EXPECT(strstr(err, message_part) != NULL);
    if (!strstr(err, message_part)) fprintf(stderr, "  '%s' gave message '%s'\n", spec ? spec : "(null)", err);
}

int main(void)
{
    expect_size("8192", 1, 8192, 0, 0);
    expect_size("8192x4096", 2, 8192, 4096, 0);
    expect_size("4096X1024x333", 3, 4096, 1024, 333);
    expect_size("2^28", 1, 1LL << 28, 0, 0);
    expect_size("2^28-3", 1, (1LL << 28) - 3, 0, 0);
    expect_size("1000+3x2^10", 2, 1003, 1024, 0);
    expect_size("1x1x1x1", 4, 1, 1, 1);

    expect_rejected("", "empty");
    expect_rejected(NULL, "empty");
    expect_rejected("abc", "malformed");
    expect_rejected("12x", "malformed");
    expect_rejected("x12", "malformed");
    expect_rejected("12xx3", "malformed");
    expect_rejected("12.5", "malformed");
    expect_rejected("-4", "malformed");
    expect_rejected("0", "below 1");
    expect_rejected("4-4", "below 1");
    expect_rejected("5x0", "below 1");
    expect_rejected("1x2x3x4x5", "more than 4");
    expect_rejected("2^64", "too large");
    expect_rejected("2^99", "too large");
    expect_rejected("2^41", "too large");
    expect_rejected("99999999999999999999", "too large");
    expect_rejected("2^40+1", "too large");
    expect_size("2^40", 1, 1LL << 40, 0, 0);

    expect_rejected("banded:", "malformed");
    expect_rejected("Banded:12", "malformed");
    expect_rejected("averyveryverylongform:12", "longer than");

    char text[64];
    ladder_size s = {3, {4096, 1024, 333}, ""};
    ladder_format_size(&s, text, sizeof text);
    EXPECT(strcmp(text, "4096x1024x333") == 0);

    char err[256] = "";
    EXPECT(ladder_parse_size("power_law:2^10x3", &s, err, sizeof err) == 0);
    EXPECT(strcmp(s.form, "power_law") == 0 && s.count == 2 && s.dim[0] == 1024 && s.dim[1] == 3);
    ladder_format_size(&s, text, sizeof text);
    EXPECT(strcmp(text, "power_law:1024x3") == 0);

    ladder_size_list list;
    EXPECT(ladder_parse_size_list("664x1024,7680x4320", &list, err, sizeof err) == 0);
    EXPECT(list.count == 2 && list.size[0].dim[0] == 664 && list.size[1].dim[1] == 4320);
    EXPECT(ladder_parse_size_list("banded:2^20,powerlaw:2^20", &list, err, sizeof err) == 0);
    EXPECT(list.count == 2 && strcmp(list.size[1].form, "powerlaw") == 0 && list.size[1].dim[0] == 1 << 20);
    EXPECT(ladder_parse_size_list("8,", &list, err, sizeof err) == -1 && strstr(err, "empty"));
    EXPECT(ladder_parse_size_list("1,2,3,4,5,6,7,8,9,10,11,12", &list, err, sizeof err) == 0 && list.count == 12);
    EXPECT(ladder_parse_size_list("1,2,3,4,5,6,7,8,9,10,11,12,13", &list, err, sizeof err) == -1 &&
           strstr(err, "more than 12"));
    return test_result("size_test");
}
