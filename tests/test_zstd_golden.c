/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd's golden files ($XC_TEST_DATA/zstd-golden, described by its
 * README.md): frames every decoder must accept, frames every decoder must
 * reject, encoder inputs that must round trip (libzstd compresses, xcodec
 * decodes), and dictionaries with missing or zero-weight symbols.  The
 * expected outputs come from that README (sizes and SHA-256), never from
 * libzstd: Debian's 1.5.4 predates the files and misjudges some of them.
 * Without the data folder every case is skipped; test_zstd_hostile.c
 * builds frames by hand with the features of zeroSeq_2B, zeroSeq_extraneous,
 * off0, empty-block and rle-first-block, so those rules are checked in any
 * clone.
 */
#include "zstd_test_util.h"

/* ---- SHA-256 (FIPS 180-4), to compare outputs with the README ------------------ */

static uint32_t ror32(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

/* The first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes. */
static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static void sha256_compress(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
                      sha256_k[i] + w[i];
        uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    const uint32_t v[8] = {a, b, c, d, e, f, g, k};
    for (int i = 0; i < 8; i++) h[i] += v[i];
}

/* The hex digest of p[0..n). */
static void sha256_hex(const void *data, size_t n, char out[65])
{
    /* The initial values are the first 32 bits of the fractional parts of
     * the square roots of the first 8 primes. */
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *p = data;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) sha256_compress(h, p + i);
    /* Padding: 0x80, zeros, then the length in bits, big-endian, filling
     * the last block (or two). */
    uint8_t tail[128] = {0};
    size_t rest = n - i;
    if (rest) memcpy(tail, p + i, rest);
    tail[rest] = 0x80;
    size_t blocks = rest + 9 > 64 ? 2 : 1;
    uint64_t bits = (uint64_t)n * 8;
    for (int k = 0; k < 8; k++) tail[blocks * 64 - 1 - k] = (uint8_t)(bits >> (8 * k));
    for (size_t b = 0; b < blocks; b++) sha256_compress(h, tail + 64 * b);
    for (int k = 0; k < 8; k++) snprintf(out + 8 * k, 9, "%08x", (unsigned)h[k]);
}

static void test_sha256_itself(void **state)
{
    (void)state;
    char hex[65];
    sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* ---- the data folder -------------------------------------------------------------- */

/* Reads zstd-golden/<rel>; skips the test when the folder is missing, and
 * fails when the folder is there but the file is not. */
static uint8_t *golden(const char *rel, size_t *size)
{
    const char *dir = xc_test_data_dir();
    if (!dir) {
        print_message("no test data: skipped\n");
        skip();
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/zstd-golden/%s", dir, rel);
    uint8_t *p = xc_read_file(path, size);
    if (!p) {
        print_error("cannot read %s\n", path);
        fail();
    }
    return p;
}

/* golden-decompression/ and the one valid frame in golden-compression/. */
static const struct {
    const char *file;
    size_t size;
    const char *sha256;
} must_decode[] = {
    {"golden-decompression/rle-first-block.zst", 1048576,
     "30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58"},
    {"golden-decompression/empty-block.zst", 0,
     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"golden-decompression/block-128k.zst", 131068,
     "672003418993584239ec5c79232de911699178ad820cd3ca9779abbfe7f7ba7d"},
    {"golden-decompression/zeroSeq_2B.zst", 13,
     "03ba204e50d126e4674c005e04d82e84c21366780af1f43bd54a37816b6ab340"},
    {"golden-compression/huffman-compressed-larger", 142,
     "bedcbfbdf6c00799caab6430ce1b9afc0cbe20b2a576c53d8ba40a721734fe0f"},
};

static void test_must_decode(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof must_decode / sizeof must_decode[0]; i++) {
        size_t n, want = must_decode[i].size;
        uint8_t *src = golden(must_decode[i].file, &n);
        uint8_t *dst = xc_guard_alloc(want);
        char hex[65];
        xc_zstd_dctx *d = xc_zstd_dctx_new();
        for (int way = 0; way < 4; way++) {
            size_t r;
            memset(dst, 0xEE, want);
            if (way == 0) {
                r = xc_zstd_decompress(dst, want, src, n);
            } else if (way == 1) {
                r = xc_zstd_decompress_dctx(d, dst, want, src, n);
            } else {
                zt_chunking ch = way == 2 ? (zt_chunking){0, 0} : zt_random_chunking();
                zt_stream_result sr = zt_stream_decode(d, dst, want, src, n, ch);
                /* An incomplete stream shows as a generic error. */
                r = sr.complete || xc_is_error(sr.result) ? sr.result : (size_t)0 - 1;
            }
            if (xc_is_error(r) || r != want) {
                print_error("%s, way %d: %s (%zu bytes), want %zu bytes\n", must_decode[i].file,
                            way, xc_error_name(r), r, want);
                fail();
            }
            sha256_hex(dst, want, hex);
            assert_string_equal(hex, must_decode[i].sha256);
        }
        assert_int_equal(xc_zstd_find_frame_compressed_size(src, n), n);
        unsigned long long fcs = xc_zstd_frame_content_size(src, n);
        assert_true(fcs == want || fcs == XC_ZSTD_CONTENTSIZE_UNKNOWN);
        xc_zstd_dctx_free(d);
        xc_guard_free(dst);
        free(src);
    }
}

/* golden-decompression-errors/: each is rejected every way. */
static void test_must_reject(void **state)
{
    (void)state;
    static const char *const files[] = {
        "golden-decompression-errors/off0.bin.zst",
        "golden-decompression-errors/truncated_huff_state.zst",
        "golden-decompression-errors/zeroSeq_extraneous.zst",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t n;
        uint8_t *src = golden(files[i], &n);
        uint8_t *frame = xc_guard_alloc(n);
        memcpy(frame, src, n);
        /* Room for whatever an old, permissive decoder made of them. */
        size_t cap = 1024;
        uint8_t *dst = xc_guard_alloc(cap);
        size_t r = xc_zstd_decompress(dst, cap, frame, n);
        print_message("# %s: %s\n", files[i], xc_error_name(r));
        assert_true(xc_is_error(r));
        assert_int_not_equal(xc_error_code(r), XC_ERROR_DST_TOO_SMALL);
        xc_zstd_dctx *d = xc_zstd_dctx_new();
        assert_true(xc_is_error(xc_zstd_decompress_dctx(d, dst, cap, frame, n)));
        for (int way = 0; way < 3; way++) {
            xc_zstd_dctx_reset(d);
            zt_chunking ch = way == 0 ? (zt_chunking){0, 0} : way == 1 ? (zt_chunking){1, 1}
                                                                       : zt_random_chunking();
            zt_stream_result sr = zt_stream_decode(d, dst, cap, frame, n, ch);
            assert_false(sr.complete);
            assert_true(xc_is_error(sr.result));
        }
        xc_zstd_dctx_free(d);
        xc_guard_free(dst);
        xc_guard_free(frame);
        free(src);
    }
}

#ifdef XC_HAVE_LIBZSTD

/* libzstd compresses `src` as golden.sh does (default, small target block
 * size, -19 with minimum match 7); xcodec decodes. */
static void round_trip(const char *name, const uint8_t *src, size_t n, const void *dict,
                       size_t dict_size)
{
    static const zt_cparams settings[] = {
        {.level = 3, .checksum = 1, .content_size = 1},
        {.level = 3, .checksum = 1, .content_size = 1, .target_cblock = 1024},
        {.level = 19, .checksum = 1, .content_size = 1, .min_match = 7},
        {.level = 1, .checksum = 0, .content_size = 2},
    };
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        zt_cparams p = settings[i];
        p.dict = dict;
        p.dict_size = dict_size;
        size_t fn;
        uint8_t *frame = zt_compress(src, n, &p, &fn);
        char what[200];
        snprintf(what, sizeof what, "%s, setting %zu", name, i);
        xc_zstd_dctx *d = xc_zstd_dctx_new();
        if (dict_size) assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, dict_size), 0);
        zt_check_all_ways(d, frame, fn, src, n, zt_random_chunking(),
                          dict_size ? ZT_NEEDS_DICT : 0, what);
        if (dict_size) {
            xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, dict_size);
            assert_non_null(dd);
            xc_zstd_dctx_reset(d);
            xc_zstd_dctx_ref_ddict(d, dd);
            zt_check_all_ways(d, frame, fn, src, n, zt_random_chunking(), ZT_NEEDS_DICT, what);
            xc_zstd_ddict_free(dd);
        }
        xc_zstd_dctx_free(d);
        free(frame);
    }
}

static void test_compression_inputs(void **state)
{
    (void)state;
    static const char *const files[] = {
        "golden-compression/PR-3517-block-splitter-corruption-test",
        "golden-compression/large-literal-and-match-lengths",
        "golden-compression/http",
        "golden-compression/huffman-compressed-larger",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t n;
        uint8_t *src = golden(files[i], &n);
        round_trip(files[i], src, n, NULL, 0);
        free(src);
    }
}

#endif /* XC_HAVE_LIBZSTD */

/* http with the dictionary whose tables miss symbols.  Its Huffman table
 * is 12 bits deep, one more than RFC 8878 allows in frames, and libzstd
 * reuses it for treeless literals at levels 1 and 3, so a decoder must load
 * it to read what libzstd writes with it. */
static void test_dict_missing_symbols(void **state)
{
    (void)state;
    size_t n, dn;
    uint8_t *http = golden("golden-compression/http", &n);
    uint8_t *dict = golden("golden-dictionaries/http-dict-missing-symbols", &dn);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, dn);
    assert_non_null(dd);
    assert_int_equal(xc_zstd_ddict_id(dd), 1386686301u);
    xc_zstd_ddict_free(dd);
#ifdef XC_HAVE_LIBZSTD
    round_trip("http with http-dict-missing-symbols", http, n, dict, dn);
#endif
    free(dict);
    free(http);
}

/* The zero-weight dictionary with itself and with a line of '0's as input. */
static void test_dict_zero_weight(void **state)
{
    (void)state;
    size_t dn;
    uint8_t *zw = golden("dict-files/zero-weight-dict", &dn);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(zw, dn);
    assert_non_null(dd);
    assert_int_equal(xc_zstd_ddict_id(dd), 16720127u);
    xc_zstd_ddict_free(dd);
#ifdef XC_HAVE_LIBZSTD
    round_trip("zero-weight-dict with itself", zw, dn, zw, dn);
    static const char zeros[] = "0000000000000000000000000\n";
    round_trip("zeros with zero-weight-dict", (const uint8_t *)zeros, sizeof zeros - 1, zw, dn);
#endif
    free(zw);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_itself),
        cmocka_unit_test(test_must_decode),
        cmocka_unit_test(test_must_reject),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_compression_inputs),
#endif
        cmocka_unit_test(test_dict_missing_symbols),
        cmocka_unit_test(test_dict_zero_weight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
