/* CPU tests of the Netpbm reader and writer: round trips of every format,
 * headers written the odd ways the format allows, and every malformed case
 * failing with its own message and leaving the image untouched. */
#include <stdlib.h>
#include <string.h>

#include "harness/testing/test_util.h"
#include "netpbm.h"

static int parse_text(const char *data, size_t size, netpbm_image *image, char *err)
{
    return netpbm_parse((const unsigned char *)data, size, image, err, 256);
}

/* Write, parse back, compare everything. */
static void round_trip(netpbm_format format, int width, int height, int channels, int maxval)
{
    netpbm_image image = {format, width, height, channels, maxval, maxval < 256 ? 1 : 2, NULL};
    size_t count = netpbm_sample_count(&image);
    image.samples = malloc(count * (size_t)image.sample_bytes);
    for (size_t i = 0; i < count; ++i) {
        unsigned v = (unsigned)((i * 2654435761u) % ((unsigned)maxval + 1));
        if (image.sample_bytes == 1) ((unsigned char *)image.samples)[i] = (unsigned char)v;
        else ((uint16_t *)image.samples)[i] = (uint16_t)v;
    }
    char *text = NULL, err[256];
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    EXPECT(netpbm_emit(out, &image, err, sizeof err) == 0);
    fclose(out);
    netpbm_image back;
    int parsed = parse_text(text, size, &back, err) == 0;
    EXPECTF(parsed, "round trip %dx%d x%d maxval %d: %s", width, height, channels, maxval, err);
    if (parsed) {
        EXPECT(back.format == format && back.width == width && back.height == height);
        EXPECT(back.channels == channels && back.maxval == maxval && back.sample_bytes == image.sample_bytes);
        EXPECT(memcmp(back.samples, image.samples, count * (size_t)image.sample_bytes) == 0);
        netpbm_free(&back);
    }
    /* 16-bit samples are big-endian in the file: the first sample's high byte first. */
    if (image.sample_bytes == 2)
        EXPECT((unsigned char)text[size - 2 * count] == ((uint16_t *)image.samples)[0] >> 8);
    free(text);
    netpbm_free(&image);
}

static void expect_error(const char *what, const char *data, size_t size, const char *message)
{
    netpbm_image image = {NETPBM_PPM, 7, 7, 3, 7, 1, NULL};
    char err[256] = "";
    int result = parse_text(data, size, &image, err);
    EXPECTF(result == -1, "%s: parsed", what);
    EXPECTF(strstr(err, message) != NULL, "%s: message '%s' lacks '%s'", what, err, message);
    EXPECTF(strchr(err, '\n') == NULL, "%s: message is not one line", what);
    EXPECTF(image.samples == NULL && image.width == 7, "%s: image changed on failure", what);
}

#define ERROR_CASE(data, message) expect_error(#data, data, sizeof data - 1, message)

int main(void)
{
    round_trip(NETPBM_PPM, 17, 11, 3, 255);
    round_trip(NETPBM_PPM, 1, 1, 3, 65535);
    round_trip(NETPBM_PPM, 5, 4, 3, 1000);
    round_trip(NETPBM_PAM, 9, 7, 4, 65535);
    round_trip(NETPBM_PAM, 3, 2, 3, 255);
    round_trip(NETPBM_PAM, 1, 5, 4, 255);
    round_trip(NETPBM_PAM, 4, 1, 3, 1);

    /* Comments and any whitespace between header fields. */
    netpbm_image image;
    char err[256];
    static const char commented[] = "P6 # c\n\t2 # c\n\r\n 1 #\n255\n\x01\x02\x03\x04\x05\x06";
    EXPECT(parse_text(commented, sizeof commented - 1, &image, err) == 0);
    EXPECT(image.width == 2 && image.height == 1 && image.maxval == 255 && image.format == NETPBM_PPM);
    EXPECT(((unsigned char *)image.samples)[5] == 6);
    netpbm_free(&image);
    /* The raster may begin with a byte that looks like whitespace or '#'. */
    static const char raster_like_header[] = "P6\n1 1\n255\n\n# ";
    EXPECT(parse_text(raster_like_header, sizeof raster_like_header - 1, &image, err) == 0);
    EXPECT(((unsigned char *)image.samples)[0] == '\n' && ((unsigned char *)image.samples)[1] == '#');
    netpbm_free(&image);
    /* PAM: comment lines, fields in any order, TUPLTYPE optional. */
    static const char pam[] = "P7\n# c\nMAXVAL 7\nDEPTH 4\nHEIGHT 1\n  WIDTH 1  \nENDHDR\n\x01\x02\x03\x04";
    EXPECT(parse_text(pam, sizeof pam - 1, &image, err) == 0);
    EXPECT(image.format == NETPBM_PAM && image.channels == 4 && image.maxval == 7);
    netpbm_free(&image);
    /* 16-bit samples are big-endian in the file. */
    static const char wide[] = "P6\n1 1\n65535\n\x12\x34\x00\x01\xff\xff";
    EXPECT(parse_text(wide, sizeof wide - 1, &image, err) == 0);
    EXPECT(image.sample_bytes == 2 && ((uint16_t *)image.samples)[0] == 0x1234 &&
           ((uint16_t *)image.samples)[2] == 0xFFFF);
    netpbm_free(&image);

    ERROR_CASE("", "bad magic");
    ERROR_CASE("P5\n1 1\n255\n\x00", "bad magic");
    ERROR_CASE("P6", "no whitespace after the magic");
    ERROR_CASE("P6\n4 4\n", "maxval is missing");
    ERROR_CASE("P6\n1 1\n255", "no raster");
    ERROR_CASE("P6\n4 4\n255\n\x00\x00", "promises 48 bytes of raster, the file has 2");
    ERROR_CASE("P6\n1 1\n255\n\x00\x00\x00xyz", "3 bytes after the raster");
    ERROR_CASE("P6\n0 4\n255\n", "at least 1");
    ERROR_CASE("P6\n4 0\n255\n", "at least 1");
    ERROR_CASE("P6\n99999999999999999999 1\n255\n\x00", "absurd width");
    ERROR_CASE("P6\n262145 1\n255\n\x00", "limited to 262144");
    ERROR_CASE("P6\n262144 262144\n65535\n\x00", "image too large");
    ERROR_CASE("P6\n1 1\n0\n\x00\x00\x00", "MAXVAL 0");
    ERROR_CASE("P6\n1 1\n65536\n\x00\x00\x00\x00\x00\x00", "MAXVAL 65536");
    ERROR_CASE("P6\n-1 1\n255\n\x00\x00\x00", "width is not a number");
    ERROR_CASE("P6\n1 1\n255x\x00\x00\x00", "no whitespace after maxval");
    ERROR_CASE("P6\n# never ends", "width is missing");
    ERROR_CASE("P6\n1 1\n100\n\x64\x65\x00", "sample 1 is 101, above MAXVAL 100");
    ERROR_CASE("P6\n1 1\n1000\n\x00\x00\x03\xe9\x00\x00", "sample 1 is 1001");
    ERROR_CASE("P6\n1 1\n65535\n\x00\x00\x00\x00\x00", "promises 6 bytes");
    ERROR_CASE("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\n", "no ENDHDR");
    ERROR_CASE("P7\nWIDTH 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n\x00\x00\x00", "all required");
    ERROR_CASE("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nENDHDR\n\x00", "unsupported DEPTH 1");
    ERROR_CASE("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n\x00\x00\x00",
               "unsupported TUPLTYPE GRAYSCALE");
    ERROR_CASE("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n\x00\x00\x00\x00", "expected RGB_ALPHA");
    ERROR_CASE("P7\nWIDTH 1\nWIDTH 2\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n\x00\x00\x00", "WIDTH given twice");
    ERROR_CASE("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nCOLOUR 9\nMAXVAL 255\nENDHDR\n\x00\x00\x00", "unknown PAM keyword");
    ERROR_CASE("P7\nWIDTH 12a\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n\x00", "WIDTH is not a number");
    ERROR_CASE("P7\nWIDTH\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n\x00", "WIDTH is missing");
    ERROR_CASE("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR junk\n\x00\x00\x00", "text after ENDHDR");
    ERROR_CASE("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR", "no raster");

    /* The writer refuses a PPM that is not RGB, and reading a missing file
     * names it. */
    netpbm_image rgba = {NETPBM_PPM, 1, 1, 4, 255, 1, "abcd"};
    FILE *sink = fopen("/dev/null", "wb");
    EXPECT(netpbm_emit(sink, &rgba, err, sizeof err) == -1 && strstr(err, "3 channels"));
    fclose(sink);
    EXPECT(netpbm_read("/nonexistent/image.ppm", &image, err, sizeof err) == -1 &&
           strstr(err, "/nonexistent/image.ppm"));
    return test_result("netpbm_test");
}
