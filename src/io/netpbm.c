#include "netpbm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A cursor over the file's bytes; the parser never reads past `end`. */
typedef struct cursor {
    const unsigned char *at, *end;
} cursor;

static int fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(err, err_len, fmt, args);
    va_end(args);
    return -1;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* PPM headers allow comments from '#' to the end of the line anywhere
 * whitespace may appear. */
static void skip_space_and_comments(cursor *c)
{
    while (c->at < c->end) {
        if (is_space(*c->at)) {
            ++c->at;
        } else if (*c->at == '#') {
            while (c->at < c->end && *c->at != '\n') ++c->at;
        } else {
            break;
        }
    }
}

/* A decimal number of at most 9 digits' worth of value: anything larger is
 * absurd for every header field, and stopping there keeps the value an int. */
static int read_number(cursor *c, const char *field, long *value, char *err, size_t err_len)
{
    if (c->at == c->end) return fail(err, err_len, "truncated header: %s is missing", field);
    if (*c->at < '0' || *c->at > '9') return fail(err, err_len, "malformed header: %s is not a number", field);
    long v = 0;
    while (c->at < c->end && *c->at >= '0' && *c->at <= '9') {
        v = v * 10 + (*c->at++ - '0');
        if (v > 999999999) return fail(err, err_len, "absurd %s in the header", field);
    }
    *value = v;
    return 0;
}

static int parse_ppm_header(cursor *c, netpbm_image *image, char *err, size_t err_len)
{
    long width, height, maxval;
    skip_space_and_comments(c);
    if (read_number(c, "width", &width, err, err_len)) return -1;
    skip_space_and_comments(c);
    if (read_number(c, "height", &height, err, err_len)) return -1;
    skip_space_and_comments(c);
    if (read_number(c, "maxval", &maxval, err, err_len)) return -1;
    /* Exactly one whitespace byte separates the header from the raster. */
    if (c->at == c->end) return fail(err, err_len, "truncated: no raster after the header");
    if (!is_space(*c->at)) return fail(err, err_len, "malformed header: no whitespace after maxval");
    ++c->at;
    image->format = NETPBM_PPM;
    image->width = (int)width; /* read_number keeps each below 10^9 */
    image->height = (int)height;
    image->channels = 3;
    image->maxval = (int)maxval;
    return 0;
}

/* The rest of a PAM header line, without surrounding whitespace, into buf. */
static int read_line_value(cursor *c, char *buf, size_t len, const char *keyword, char *err, size_t err_len)
{
    while (c->at < c->end && (*c->at == ' ' || *c->at == '\t')) ++c->at;
    const unsigned char *start = c->at;
    while (c->at < c->end && *c->at != '\n') ++c->at;
    const unsigned char *stop = c->at;
    while (stop > start && is_space(stop[-1])) --stop;
    if ((size_t)(stop - start) >= len) return fail(err, err_len, "malformed header: %s value too long", keyword);
    memcpy(buf, start, (size_t)(stop - start));
    buf[stop - start] = '\0';
    return 0;
}

static int line_number(const char *text, const char *keyword, long *value, char *err, size_t err_len)
{
    cursor c = {(const unsigned char *)text, (const unsigned char *)text + strlen(text)};
    if (read_number(&c, keyword, value, err, err_len)) return -1;
    if (c.at != c.end) return fail(err, err_len, "malformed header: %s is not a number", keyword);
    return 0;
}

static int parse_pam_header(cursor *c, netpbm_image *image, char *err, size_t err_len)
{
    long width = -1, height = -1, depth = -1, maxval = -1;
    char tupltype[64] = "";
    for (;;) {
        while (c->at < c->end && is_space(*c->at)) ++c->at;
        if (c->at == c->end) return fail(err, err_len, "truncated header: no ENDHDR");
        if (*c->at == '#') {
            while (c->at < c->end && *c->at != '\n') ++c->at;
            continue;
        }
        char keyword[16];
        size_t n = 0;
        while (c->at < c->end && !is_space(*c->at)) {
            if (n + 1 == sizeof keyword) return fail(err, err_len, "malformed header: unknown PAM keyword");
            keyword[n++] = (char)*c->at++;
        }
        keyword[n] = '\0';
        if (strcmp(keyword, "ENDHDR") == 0) {
            while (c->at < c->end && *c->at != '\n') {
                if (!is_space(*c->at)) return fail(err, err_len, "malformed header: text after ENDHDR");
                ++c->at;
            }
            if (c->at == c->end) return fail(err, err_len, "truncated: no raster after the header");
            ++c->at;
            break;
        }
        char value[64];
        if (read_line_value(c, value, sizeof value, keyword, err, err_len)) return -1;
        long *field = strcmp(keyword, "WIDTH") == 0    ? &width
                      : strcmp(keyword, "HEIGHT") == 0 ? &height
                      : strcmp(keyword, "DEPTH") == 0  ? &depth
                      : strcmp(keyword, "MAXVAL") == 0 ? &maxval
                                                       : NULL;
        if (field) {
            if (*field != -1) return fail(err, err_len, "malformed header: %s given twice", keyword);
            if (line_number(value, keyword, field, err, err_len)) return -1;
        } else if (strcmp(keyword, "TUPLTYPE") == 0) {
            if (tupltype[0]) return fail(err, err_len, "unsupported: more than one TUPLTYPE");
            if (!value[0]) return fail(err, err_len, "malformed header: empty TUPLTYPE");
            memcpy(tupltype, value, sizeof tupltype);
        } else {
            return fail(err, err_len, "malformed header: unknown PAM keyword '%s'", keyword);
        }
    }
    if (width < 0 || height < 0 || depth < 0 || maxval < 0)
        return fail(err, err_len, "malformed header: WIDTH, HEIGHT, DEPTH and MAXVAL are all required");
    if (depth != 3 && depth != 4) return fail(err, err_len, "unsupported DEPTH %ld: only 3 (RGB) and 4 (RGB_ALPHA)", depth);
    const char *expected = depth == 3 ? "RGB" : "RGB_ALPHA";
    if (tupltype[0] && strcmp(tupltype, expected) != 0)
        return fail(err, err_len, "unsupported TUPLTYPE %s with DEPTH %ld (expected %s)", tupltype, depth, expected);
    image->format = NETPBM_PAM;
    image->width = (int)width; /* read_number keeps each below 10^9 */
    image->height = (int)height;
    image->channels = (int)depth;
    image->maxval = (int)maxval;
    return 0;
}

size_t netpbm_sample_count(const netpbm_image *image)
{
    return (size_t)image->width * (size_t)image->height * (size_t)image->channels;
}

int netpbm_parse(const unsigned char *data, size_t size, netpbm_image *image, char *err, size_t err_len)
{
    cursor c = {data, data + size};
    netpbm_image parsed = {0};
    if (size < 2 || data[0] != 'P' || (data[1] != '6' && data[1] != '7'))
        return fail(err, err_len, "not a PPM (P6) or PAM (P7) image: bad magic number");
    c.at += 2;
    if (c.at == c.end || !is_space(*c.at)) return fail(err, err_len, "malformed header: no whitespace after the magic number");
    if (data[1] == '6' ? parse_ppm_header(&c, &parsed, err, err_len) : parse_pam_header(&c, &parsed, err, err_len))
        return -1;

    if (parsed.width < 1 || parsed.height < 1) return fail(err, err_len, "malformed header: width and height must be at least 1");
    if (parsed.width > NETPBM_MAX_DIM || parsed.height > NETPBM_MAX_DIM)
        return fail(err, err_len, "image too large: width and height are limited to %d", NETPBM_MAX_DIM);
    if (parsed.maxval < 1 || parsed.maxval > 65535)
        return fail(err, err_len, "malformed header: MAXVAL %d is outside 1..65535", parsed.maxval);
    parsed.sample_bytes = parsed.maxval < 256 ? 1 : 2;
    /* Each factor is at most 2^18, 4 or 2: the product fits in 64 bits. */
    uint64_t raster = (uint64_t)parsed.width * (uint64_t)parsed.height * (uint64_t)parsed.channels *
                      (uint64_t)parsed.sample_bytes;
    if (raster > NETPBM_MAX_RASTER_BYTES)
        return fail(err, err_len, "image too large: %llu bytes of raster, the limit is %llu",
                    (unsigned long long)raster, (unsigned long long)NETPBM_MAX_RASTER_BYTES);
    size_t present = (size_t)(c.end - c.at);
    if (present < raster)
        return fail(err, err_len, "truncated: the header promises %llu bytes of raster, the file has %zu",
                    (unsigned long long)raster, present);
    if (present > raster)
        return fail(err, err_len, "%zu bytes after the raster (the header understates the size, or several images)",
                    present - (size_t)raster);

    size_t count = netpbm_sample_count(&parsed);
    parsed.samples = malloc((size_t)raster);
    if (!parsed.samples) return fail(err, err_len, "out of memory for a %llu-byte image", (unsigned long long)raster);
    const unsigned char *raw = c.at;
    if (parsed.sample_bytes == 1) {
        unsigned char *samples = parsed.samples;
        for (size_t i = 0; i < count; ++i) {
            if (raw[i] > parsed.maxval) {
                free(parsed.samples);
                return fail(err, err_len, "sample %zu is %u, above MAXVAL %d", i, raw[i], parsed.maxval);
            }
            samples[i] = raw[i];
        }
    } else {
        uint16_t *samples = parsed.samples;
        for (size_t i = 0; i < count; ++i) {
            unsigned v = (unsigned)raw[2 * i] << 8 | raw[2 * i + 1];
            if (v > (unsigned)parsed.maxval) {
                free(parsed.samples);
                return fail(err, err_len, "sample %zu is %u, above MAXVAL %d", i, v, parsed.maxval);
            }
            samples[i] = (uint16_t)v;
        }
    }
    *image = parsed;
    return 0;
}

int netpbm_read(const char *path, netpbm_image *image, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return fail(err, err_len, "cannot open %s: %s", path, strerror(errno));
    /* The largest legal file is the largest raster plus a header; reading
     * stops one byte past that, so a huge file costs no huge allocation. */
    size_t limit = (size_t)NETPBM_MAX_RASTER_BYTES + 65536, capacity = 65536, used = 0;
    struct stat info;
    if (fstat(fileno(f), &info) == 0 && S_ISREG(info.st_mode) && (uint64_t)info.st_size > limit) {
        fclose(f);
        return fail(err, err_len, "%s: file too large for an image (limit %zu bytes)", path, limit);
    }
    unsigned char *data = malloc(capacity);
    while (data && used <= limit) {
        size_t got = fread(data + used, 1, capacity - used, f);
        used += got;
        if (got == 0) break;
        if (used == capacity && capacity <= limit) {
            capacity = capacity * 2 < limit + 1 ? capacity * 2 : limit + 1;
            unsigned char *grown = realloc(data, capacity);
            if (!grown) free(data);
            data = grown;
        }
    }
    int read_error = ferror(f);
    fclose(f);
    if (!data) return fail(err, err_len, "out of memory reading %s", path);
    int result;
    if (read_error) result = fail(err, err_len, "cannot read %s", path);
    else if (used > limit) result = fail(err, err_len, "%s: file too large for an image (limit %zu bytes)", path, limit);
    else if (netpbm_parse(data, used, image, err, err_len) != 0) {
        char reason[256];
        snprintf(reason, sizeof reason, "%s", err);
        result = fail(err, err_len, "%s: %s", path, reason);
    } else result = 0;
    free(data);
    return result;
}

int netpbm_emit(FILE *out, const void *opaque, char *err, size_t err_len)
{
    const netpbm_image *image = opaque;
    if (image->format == NETPBM_PPM && image->channels != 3)
        return fail(err, err_len, "a PPM image has 3 channels, not %d", image->channels);
    if (image->format == NETPBM_PPM) {
        fprintf(out, "P6\n%d %d\n%d\n", image->width, image->height, image->maxval);
    } else {
        fprintf(out, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL %d\nTUPLTYPE %s\nENDHDR\n", image->width,
                image->height, image->channels, image->maxval, image->channels == 3 ? "RGB" : "RGB_ALPHA");
    }
    size_t count = netpbm_sample_count(image);
    if (image->sample_bytes == 1) {
        if (fwrite(image->samples, 1, count, out) != count) return fail(err, err_len, "write failed");
        return 0;
    }
    const uint16_t *samples = image->samples;
    unsigned char buffer[8192];
    for (size_t i = 0; i < count;) {
        size_t n = 0;
        for (; n + 2 <= sizeof buffer && i < count; ++i) {
            buffer[n++] = (unsigned char)(samples[i] >> 8);
            buffer[n++] = (unsigned char)(samples[i] & 0xFF);
        }
        if (fwrite(buffer, 1, n, out) != n) return fail(err, err_len, "write failed");
    }
    return 0;
}

void netpbm_free(netpbm_image *image)
{
    free(image->samples);
    image->samples = NULL;
}
