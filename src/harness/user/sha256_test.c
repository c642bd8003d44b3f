/* SHA-256 against the FIPS 180-4 examples and NIST's long-message vector,
 * fed whole and in pieces that straddle the 64-byte blocks. */
#include <stdlib.h>
#include <string.h>

#include "harness/testing/test_util.h"
#include "sha256.h"

static void expect_digest(const char *data, size_t len, size_t piece, const char *want)
{
    ladder_sha256 h;
    ladder_sha256_init(&h);
    for (size_t at = 0; at < len; at += piece) ladder_sha256_update(&h, data + at, len - at < piece ? len - at : piece);
    char hex[65];
    ladder_sha256_hex(&h, hex);
    EXPECTF(strcmp(hex, want) == 0, "%zu bytes in pieces of %zu: %s, want %s", len, piece, hex, want);
}

int main(void)
{
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    for (size_t piece = 1; piece <= 65; piece += 7) {
        expect_digest("", 0, piece, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        expect_digest("abc", 3, piece, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        expect_digest(two_blocks, strlen(two_blocks), piece,
                      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }
    size_t million = 1000000;
    char *a = malloc(million);
    memset(a, 'a', million);
    expect_digest(a, million, 4096, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* 55 and 56 bytes: the length field just fits, or needs another block. */
    expect_digest(a, 55, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    expect_digest(a, 56, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    free(a);

    char hex[65], err[256];
    EXPECT(ladder_sha256_file("/nonexistent/file.cu", hex, err, sizeof err) == -1);
    EXPECT(strstr(err, "/nonexistent/file.cu") != NULL);
    return test_result("sha256_test");
}
