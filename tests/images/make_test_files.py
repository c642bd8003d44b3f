#!/usr/bin/env python3
"""Makes the blur test images and the Netpbm fuzz corpus (nothing downloaded).

tests/images/NAME.{ppm,pam}          small images made here, deterministic
tests/images/NAME.expected.{ppm,pam} the 3x3 box blur of each, computed here
                                     from the definition, independently of the
                                     C reference: mean of the 3x3 neighbourhood,
                                     border replicated, (sum + 4) // 9
tests/corpus/netpbm/*                malformed (and a few valid) files for the
                                     parser's corpus test and `make fuzz`; the
                                     fuzz_* files there are libFuzzer findings
                                     kept by hand, not made by this script
Run from anywhere: python3 tests/images/make_test_files.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "corpus", "netpbm")


def blur(samples, width, height, channels):
    out = []
    for y in range(height):
        for x in range(width):
            for c in range(channels):
                total = 0
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        yy = min(max(y + dy, 0), height - 1)
                        xx = min(max(x + dx, 0), width - 1)
                        total += samples[(yy * width + xx) * channels + c]
                out.append((total + 4) // 9)
    return out


def raster(samples, maxval):
    if maxval < 256:
        return bytes(samples)
    return b"".join(v.to_bytes(2, "big") for v in samples)


def ppm(width, height, maxval, samples):
    """The header exactly as ladder's writer emits it."""
    return b"P6\n%d %d\n%d\n" % (width, height, maxval) + raster(samples, maxval)


def pam(width, height, channels, maxval, samples):
    tupltype = b"RGB" if channels == 3 else b"RGB_ALPHA"
    header = b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL %d\nTUPLTYPE %s\nENDHDR\n" % (
        width, height, channels, maxval, tupltype)
    return header + raster(samples, maxval)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def images():
    # 17x11 8-bit RGB: gradients, a saturated block and a dark one, so
    # rounding and both ends of the range are exercised. The input header
    # carries comments and unusual whitespace; the expected output is in the
    # writer's canonical form.
    w, h = 17, 11
    s = []
    for y in range(h):
        for x in range(w):
            if 3 <= x <= 6 and 2 <= y <= 5:
                s += [255, 255, 255]
            elif 10 <= x <= 13 and 6 <= y <= 9:
                s += [0, 1, 0]
            else:
                s += [(x * 15 + y * 7) % 256, (x * y * 13 + 5) % 256, (255 - x * 11 - y * 3) % 256]
    header = b"P6 # made by make_test_files.py\n%d\t%d\n# maxval next\n255\n" % (w, h)
    write(os.path.join(HERE, "gradient_17x11.ppm"), header + bytes(s))
    write(os.path.join(HERE, "gradient_17x11.expected.ppm"), ppm(w, h, 255, blur(s, w, h, 3)))

    # 9x7 16-bit RGB_ALPHA PAM: the whole 16-bit range, alpha blurred too.
    w, h, c = 9, 7, 4
    s = [((x * 7919 + y * 104729 + ch * 3571) * 2654435761) % 65536
         for y in range(h) for x in range(w) for ch in range(c)]
    s[0:4] = [65535, 65535, 65535, 65535]
    write(os.path.join(HERE, "rgba16_9x7.pam"), pam(w, h, c, 65535, s))
    write(os.path.join(HERE, "rgba16_9x7.expected.pam"), pam(w, h, c, 65535, blur(s, w, h, c)))

    # 5x4 PPM with MAXVAL 1000: two-byte samples in the file's own scale.
    w, h = 5, 4
    s = [(x * 211 + y * 97 + ch * 331) % 1001 for y in range(h) for x in range(w) for ch in range(3)]
    write(os.path.join(HERE, "maxval1000_5x4.ppm"), ppm(w, h, 1000, s))
    write(os.path.join(HERE, "maxval1000_5x4.expected.ppm"), ppm(w, h, 1000, blur(s, w, h, 3)))


def corpus():
    files = {
        "empty": b"",
        "magic_only": b"P6",
        "bad_magic_p5": b"P5\n1 1\n255\n\x00",
        "bad_magic_text": b"hello world",
        "no_space_after_magic": b"P61 1 255\n\x00\x00\x00",
        "truncated_header": b"P6\n4 4\n",
        "no_raster_separator": b"P6\n1 1\n255",
        "truncated_raster": b"P6\n4 4\n255\n" + bytes(10),
        "trailing_data": b"P6\n1 1\n255\n" + bytes(3) + b"extra",
        "zero_width": b"P6\n0 4\n255\n",
        "absurd_width": b"P6\n99999999999999999999 1\n255\n\x00",
        "too_large": b"P6\n262144 262144\n255\n" + bytes(16),
        "over_max_dim": b"P6\n262145 1\n255\n" + bytes(16),
        "maxval_zero": b"P6\n1 1\n0\n\x00\x00\x00",
        "maxval_too_big": b"P6\n1 1\n70000\n" + bytes(6),
        "negative_width": b"P6\n-1 1\n255\n\x00\x00\x00",
        "unterminated_comment": b"P6\n# a comment that never ends",
        "sample_above_maxval": b"P6\n1 1\n100\n\xc8\xc8\xc8",
        "sample16_above_maxval": b"P6\n1 1\n1000\n\x03\xe9\x00\x00\x00\x00",
        "truncated_16bit": b"P6\n1 1\n65535\n\x00\x00\x00\x00\x00",
        "pam_no_endhdr": b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\n",
        "pam_missing_height": b"P7\nWIDTH 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n\x00\x00\x00",
        "pam_depth1": b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n\x00",
        "pam_tupltype_mismatch": b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n" + bytes(4),
        "pam_duplicate_width": b"P7\nWIDTH 1\nWIDTH 2\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n" + bytes(3),
        "pam_unknown_keyword": b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nCOLOUR 9\nMAXVAL 255\nENDHDR\n" + bytes(3),
        "pam_width_not_number": b"P7\nWIDTH 12a\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n" + bytes(36),
        "pam_long_keyword": b"P7\n" + b"W" * 5000 + b" 1\nENDHDR\n",
        "pam_long_value": b"P7\nTUPLTYPE " + b"R" * 5000 + b"\nENDHDR\n",
        "pam_truncated_raster": b"P7\nWIDTH 3\nHEIGHT 3\nDEPTH 4\nMAXVAL 65535\nTUPLTYPE RGB_ALPHA\nENDHDR\n" + bytes(71),
        "pam_text_after_endhdr": b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR junk\n" + bytes(3),
        "pam_header_lies_small": b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n" + bytes(300),
        "valid_1x1.ppm": b"P6\n1 1\n255\n\x01\x02\x03",
        "valid_2x2_comments.ppm": b"P6 #c\n2 #c\n 2\n#c\n255\n" + bytes(range(12)),
        "valid_2x1_rgba16.pam": pam(2, 1, 4, 65535, [1, 2, 3, 4, 65535, 0, 256, 9]),
        "valid_3x2_rgb.pam": b"P7\n# comment\nWIDTH 3\nHEIGHT 2\nDEPTH 3\nMAXVAL 7\nENDHDR\n" + bytes([1, 2, 3, 4, 5, 6, 7] * 2 + [0] * 4),
    }
    for name, data in files.items():
        write(os.path.join(CORPUS, name), data)


if __name__ == "__main__":
    os.makedirs(CORPUS, exist_ok=True)
    images()
    corpus()
