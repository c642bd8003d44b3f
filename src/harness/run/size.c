#include "size.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest single dimension we accept: far beyond any device memory, small
 * enough that products of a few dimensions stay inside 64-bit arithmetic. */
#define LADDER_MAX_DIM (1LL << 40)

/* A dimension that reads well but exceeds LADDER_MAX_DIM is a different
 * mistake from a typo: the message says which. */
enum { PARSED = 0, MALFORMED = -1, TOO_LARGE = -2 };

static int parse_number(const char **p, long long *value)
{
    if (!isdigit((unsigned char)**p)) return MALFORMED;
    errno = 0;
    char *end;
    long long v = strtoll(*p, &end, 10);
    if (errno == ERANGE || v > LADDER_MAX_DIM) return TOO_LARGE;
    *p = end;
    *value = v;
    return 0;
}

static int parse_term(const char **p, long long *value)
{
    long long base;
    int rc = parse_number(p, &base);
    if (rc) return rc;
    if (**p != '^') {
        *value = base;
        return PARSED;
    }
    ++*p;
    long long exponent;
    rc = parse_number(p, &exponent);
    if (rc) return rc;
    /* 1^N and 0^N need no loop; any other base passes 2^40 within 40 steps. */
    if (base <= 1) {
        *value = exponent == 0 ? 1 : base;
        return PARSED;
    }
    if (exponent > 40) return TOO_LARGE;
    long long v = 1;
    for (long long i = 0; i < exponent; ++i) {
        if (v > LADDER_MAX_DIM / base) return TOO_LARGE;
        v *= base;
    }
    *value = v;
    return PARSED;
}

static int parse_dimension(const char **p, long long *value)
{
    long long total;
    int rc = parse_term(p, &total);
    if (rc) return rc;
    while (**p == '+' || **p == '-') {
        char op = *(*p)++;
        long long term;
        rc = parse_term(p, &term);
        if (rc) return rc;
        total = op == '+' ? total + term : total - term;
        if (total > LADDER_MAX_DIM) return TOO_LARGE;
    }
    *value = total;
    return PARSED;
}

int ladder_parse_size(const char *spec, ladder_size *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (!spec || !*spec) {
        snprintf(err, err_len, "empty size");
        return -1;
    }
    const char *p = spec;
    size_t form_len = 0;
    while (islower((unsigned char)p[form_len]) || p[form_len] == '_') ++form_len;
    if (form_len > 0 && p[form_len] == ':') {
        if (form_len >= sizeof out->form) {
            snprintf(err, err_len, "size '%s' has a form name longer than %zu letters", spec, sizeof out->form - 1);
            return -1;
        }
        memcpy(out->form, p, form_len);
        p += form_len + 1;
    }
    for (;;) {
        if (out->count == LADDER_MAX_DIMS) {
            snprintf(err, err_len, "size '%s' has more than %d dimensions", spec, LADDER_MAX_DIMS);
            return -1;
        }
        long long v;
        int rc = parse_dimension(&p, &v);
        if (rc == TOO_LARGE) {
            snprintf(err, err_len, "size '%s' is too large (a dimension may be at most 2^40)", spec);
            return -1;
        }
        if (rc) {
            snprintf(err, err_len, "malformed size '%s' (expected e.g. 8192x8192, 2^28-3)", spec);
            return -1;
        }
        if (v < 1) {
            snprintf(err, err_len, "size '%s' has a dimension below 1", spec);
            return -1;
        }
        out->dim[out->count++] = v;
        if (*p == '\0') return 0;
        if (*p != 'x' && *p != 'X') {
            snprintf(err, err_len, "malformed size '%s' (expected e.g. 8192x8192, 2^28-3)", spec);
            return -1;
        }
        ++p;
    }
}

int ladder_parse_size_list(const char *spec, ladder_size_list *out, char *err, size_t err_len)
{
    out->count = 0;
    const char *start = spec ? spec : "";
    for (;;) {
        const char *comma = strchr(start, ',');
        size_t len = comma ? (size_t)(comma - start) : strlen(start);
        char one[128];
        if (len >= sizeof one) {
            snprintf(err, err_len, "size '%.*s' is too long", (int)(len > 40 ? 40 : len), start);
            return -1;
        }
        if (out->count == LADDER_MAX_SIZE_LIST) {
            snprintf(err, err_len, "more than %d sizes in '%s'", LADDER_MAX_SIZE_LIST, spec);
            return -1;
        }
        memcpy(one, start, len);
        one[len] = '\0';
        if (ladder_parse_size(one, &out->size[out->count], err, err_len) != 0) return -1;
        ++out->count;
        if (!comma) return 0;
        start = comma + 1;
    }
}

void ladder_format_size(const ladder_size *size, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (size->input) {
        snprintf(buf, len, "%s:%s", size->form, size->input);
        return;
    }
    if (size->form[0]) used = (size_t)snprintf(buf, len, "%s:", size->form);
    for (int i = 0; i < size->count && used < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, i ? "x%lld" : "%lld", size->dim[i]);
}
