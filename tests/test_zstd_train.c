/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dictionary training: the errors for too few or too small samples and a
 * too small destination, the format (magic, an ID outside the reserved
 * ranges, tables our decoder and libzstd accept), the same bytes from the
 * same samples, and round trips of records compressed with the trained
 * dictionary: by our encoder and by libzstd, each decoded by us and by
 * libzstd.  On JSON records like those of the shared corpus, made here,
 * and on the corpus's own when it is there, the dictionary must compress
 * about as well as libzstd's trainer's.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"

#ifdef XC_HAVE_LIBZSTD
#  define ZDICT_STATIC_LINKING_ONLY
#  include <zdict.h>
#  include <zstd.h>
#endif

/* ---- samples ------------------------------------------------------------------------ */

typedef struct {
    uint8_t *data;
    size_t *sizes;
    unsigned nb;
    size_t total;
} samples;

/* A private generator, so that the records (and the ratios the tests
 * expect) do not change with XC_TEST_SEED. */
static uint64_t gen_state;
static uint32_t gen(uint32_t n)
{
    gen_state ^= gen_state >> 12;
    gen_state ^= gen_state << 25;
    gen_state ^= gen_state >> 27;
    return (uint32_t)((gen_state * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

static const char *const names[] = {"alice", "bob", "carol", "dave", "erin", "frank",
                                    "grace", "heidi", "ivan", "judy", "mallory", "oscar"};
static const char *const places[] = {"Berlin", "San Francisco", "Tokyo", "Paris", "Lagos",
                                     "Sao Paulo", "Toronto", "Sydney", "", "Mumbai"};
static const char *const words[] = {"developer", "open", "source", "rust", "go", "data",
                                    "cloud", "music", "coffee", "linux", "security", "web"};

/* Records shaped like API responses: a fixed set of keys and URL
 * templates, with values drawn from small vocabularies. */
static samples make_records(unsigned nb, uint64_t seed)
{
    samples s;
    size_t cap = (size_t)nb * 1024, pos = 0;
    s.data = (uint8_t *)malloc(cap);
    s.sizes = (size_t *)malloc(nb * sizeof *s.sizes);
    assert_non_null(s.data);
    assert_non_null(s.sizes);
    gen_state = seed | 1;
    for (unsigned i = 0; i < nb; i++) {
        char login[32], bio[160];
        size_t blen = 0;
        /* Every draw in its own statement: the order in which a call's
         * arguments are evaluated differs between compilers and ISAs. */
        const char *const name = names[gen(12)];
        unsigned const num = gen(10000);
        snprintf(login, sizeof login, "%s%u", name, num);
        for (unsigned w = gen(12); w > 0; w--)
            blen += (size_t)snprintf(bio + blen, sizeof bio - blen, "%s ", words[gen(12)]);
        bio[blen] = 0;
        unsigned v[10];
        for (unsigned j = 0; j < 10; j++) v[j] = gen(j == 0 ? 40000000 : j == 1 ? 20 : 300);
        int n = snprintf((char *)s.data + pos, cap - pos,
                         "{\"login\":\"%s\",\"id\":%u,\"url\":\"https://api.example.com/users/%s\","
                         "\"html_url\":\"https://example.com/%s\",\"followers_url\":"
                         "\"https://api.example.com/users/%s/followers\",\"type\":\"User\","
                         "\"site_admin\":%s,\"location\":\"%s\",\"bio\":\"%s\",\"public_repos\":%u,"
                         "\"followers\":%u,\"created_at\":\"20%02u-%02u-%02uT%02u:%02u:%02uZ\"}\n",
                         login, v[0], login, login, login, v[1] ? "false" : "true",
                         places[v[2] % 10], bio, v[3], v[4] * 17 % 5000, 8 + v[5] % 15,
                         1 + v[6] % 12, 1 + v[7] % 28, v[8] % 24, v[9] % 60, v[9] * 7 % 60);
        assert_true(n > 0 && (size_t)n < cap - pos);
        s.sizes[i] = (size_t)n;
        pos += (size_t)n;
    }
    s.nb = nb;
    s.total = pos;
    return s;
}

static void free_samples(samples *s)
{
    free(s->data);
    free(s->sizes);
}

static size_t train(void *dict, size_t cap, const samples *s)
{
    return xc_zstd_train_dictionary(dict, cap, s->data, s->sizes, s->nb);
}

/* ---- errors ------------------------------------------------------------------------- */

static void test_errors(void **state)
{
    (void)state;
    samples s = make_records(200, 1);
    uint8_t *dict = (uint8_t *)malloc(16384);
    size_t tiny[5] = {100, 100, 100, 100, 100};

    assert_int_equal(xc_error_code(xc_zstd_train_dictionary(dict, 16384, s.data, s.sizes, 4)),
                     XC_ERROR_TOO_FEW_SAMPLES);
    assert_int_equal(xc_error_code(xc_zstd_train_dictionary(dict, 16384, s.data, s.sizes, 0)),
                     XC_ERROR_TOO_FEW_SAMPLES);
    /* Five samples of 100 bytes: 500 bytes, below the 512 needed. */
    assert_int_equal(xc_error_code(xc_zstd_train_dictionary(dict, 16384, s.data, tiny, 5)),
                     XC_ERROR_SAMPLES_TOO_SMALL);
    assert_int_equal(xc_error_code(train(dict, XC_ZSTD_TRAIN_MIN_DICT - 1, &s)),
                     XC_ERROR_DST_TOO_SMALL);
    assert_int_equal(xc_error_code(xc_zstd_train_dictionary(NULL, 16384, s.data, s.sizes, s.nb)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_train_dictionary(dict, 16384, NULL, s.sizes, s.nb)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_train_dictionary(dict, 16384, s.data, NULL, s.nb)),
                     XC_ERROR_BAD_PARAMETER);
    /* Enough bytes, but every sample shorter than the pieces the trainer
     * counts: nothing to learn from. */
    {
        size_t six[100];
        for (int i = 0; i < 100; i++) six[i] = 6;
        assert_int_equal(xc_error_code(xc_zstd_train_dictionary(dict, 16384, s.data, six, 100)),
                         XC_ERROR_SAMPLES_TOO_SMALL);
    }
    /* Sizes whose sum overflows. */
    {
        size_t huge[5] = {100, SIZE_MAX - 50, 100, 100, 100};
        assert_int_equal(xc_error_code(xc_zstd_train_dictionary(dict, 16384, s.data, huge, 5)),
                         XC_ERROR_BAD_PARAMETER);
    }
    /* The messages say what is needed. */
    assert_non_null(strstr(xc_error_string(XC_ERROR_TOO_FEW_SAMPLES), "at least 5"));
    assert_non_null(strstr(xc_error_string(XC_ERROR_SAMPLES_TOO_SMALL), "at least 512"));
    free(dict);
    free_samples(&s);
}

/* ---- format ------------------------------------------------------------------------- */

static void check_format(const uint8_t *dict, size_t size, size_t cap)
{
    assert_true(size <= cap);
    assert_true(size > 8);
    assert_int_equal(dict[0] | dict[1] << 8 | dict[2] << 16 | (uint32_t)dict[3] << 24,
                     XC_ZSTD_MAGIC_DICTIONARY);
    uint32_t const id = dict[4] | dict[5] << 8 | dict[6] << 16 | (uint32_t)dict[7] << 24;
    /* RFC 8878 §5: IDs below 32768 and from 2^31 up are reserved. */
    assert_true(id >= 32768 && id < 0x80000000u);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, size);
    assert_non_null(dd);
    assert_int_equal(xc_zstd_ddict_id(dd), id);
    xc_zstd_ddict_free(dd);
}

static void test_format(void **state)
{
    (void)state;
    samples s = make_records(xc_test_quick() ? 300 : 1500, 2);
    static const size_t caps[] = {XC_ZSTD_TRAIN_MIN_DICT, 1000, 4096, 16384, 65536};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        uint8_t *a = (uint8_t *)xc_guard_alloc(caps[i]);
        uint8_t *b = (uint8_t *)malloc(caps[i]);
        size_t const n = train(a, caps[i], &s);
        if (xc_is_error(n)) print_error("cap %zu: %s\n", caps[i], xc_error_name(n));
        assert_false(xc_is_error(n));
        check_format(a, n, caps[i]);
        /* The same samples give the same bytes. */
        assert_int_equal(train(b, caps[i], &s), n);
        assert_memory_equal(a, b, n);
        xc_guard_free(a);
        free(b);
    }
    free_samples(&s);
}

/* The dictionary is the same on every CPU, tier and byte order: its ID
 * (a hash of all of it) is pinned.  A change to the trainer that changes
 * its output changes this constant too. */
#define PINNED_ID 1704207840u
static void test_same_everywhere(void **state)
{
    (void)state;
    samples s = make_records(600, 7);
    uint8_t dict[4096];
    size_t const n = train(dict, sizeof dict, &s);
    assert_false(xc_is_error(n));
    uint32_t const id = dict[4] | dict[5] << 8 | dict[6] << 16 | (uint32_t)dict[7] << 24;
    print_message("trained dictionary: %zu bytes, ID %u\n", n, id);
    assert_int_equal(id, PINNED_ID);
    free_samples(&s);
}

/* Samples with no repeats at all, some of them shorter than a piece, and
 * many identical samples: still a valid dictionary. */
static void test_odd_samples(void **state)
{
    (void)state;
    size_t const nb = 64;
    size_t sizes[64], total = 0;
    uint8_t *data = (uint8_t *)malloc(nb * 300);
    uint8_t *dict = (uint8_t *)malloc(8192);
    for (size_t i = 0; i < nb; i++) {
        sizes[i] = i % 4 == 0 ? 3 : 100 + xc_rand_below(200);
        xc_rand_fill(data + total, sizes[i]);
        total += sizes[i];
    }
    size_t n = xc_zstd_train_dictionary(dict, 8192, data, sizes, (unsigned)nb);
    assert_false(xc_is_error(n));
    check_format(dict, n, 8192);
    for (size_t i = 0; i < nb; i++) {
        sizes[i] = 200;
        memcpy(data + i * 200, "the same sample over and over ", 30);
        memset(data + i * 200 + 30, 'x', 170);
    }
    n = xc_zstd_train_dictionary(dict, 8192, data, sizes, (unsigned)nb);
    assert_false(xc_is_error(n));
    check_format(dict, n, 8192);
    free(dict);
    free(data);
}

/* Our encoder with the trained dictionary, prepared once: every record
 * round-trips through our decoder (and libzstd's when present), and the
 * dictionary pays off. */
static void test_our_encoder(void **state)
{
    (void)state;
    samples s = make_records(xc_test_quick() ? 300 : 1200, 4);
    size_t const cap = 8192;
    uint8_t *dict = (uint8_t *)malloc(cap);
    size_t const n = train(dict, cap, &s);
    assert_false(xc_is_error(n));
    xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, n, 3);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, n);
    xc_zstd_cctx *cc = xc_zstd_cctx_new();
    xc_zstd_dctx *dc = xc_zstd_dctx_new();
    assert_non_null(cd);
    assert_non_null(dd);
    assert_int_equal(xc_zstd_cdict_id(cd), xc_zstd_ddict_id(dd));
    assert_int_equal(xc_zstd_cctx_ref_cdict(cc, cd), 0);
    assert_int_equal(xc_zstd_dctx_ref_ddict(dc, dd), 0);
#ifdef XC_HAVE_LIBZSTD
    ZSTD_DDict *zd = ZSTD_createDDict(dict, n);
    ZSTD_DCtx *zc = ZSTD_createDCtx();
    assert_non_null(zd);
#endif
    uint8_t frame[2048], back[1024];
    size_t pos = 0, with = 0, without = 0;
    for (unsigned i = 0; i < s.nb; i++) {
        const uint8_t *src = s.data + pos;
        size_t const len = s.sizes[i];
        size_t const c = xc_zstd_compress_cctx(cc, frame, sizeof frame, src, len);
        assert_false(xc_is_error(c));
        assert_int_equal(xc_zstd_frame_dict_id(frame, c), xc_zstd_ddict_id(dd));
        assert_int_equal(xc_zstd_decompress_dctx(dc, back, sizeof back, frame, c), len);
        assert_memory_equal(back, src, len);
#ifdef XC_HAVE_LIBZSTD
        assert_int_equal(ZSTD_decompress_usingDDict(zc, back, sizeof back, frame, c, zd), len);
        assert_memory_equal(back, src, len);
#endif
        with += c;
        without += xc_zstd_compress(frame, sizeof frame, src, len, 3);
        pos += len;
    }
    print_message("generated records, our encoder at level 3: %zu bytes with the dictionary, "
                  "%zu without\n", with, without);
    assert_true(with * 2 < without);
#ifdef XC_HAVE_LIBZSTD
    ZSTD_freeDDict(zd);
    ZSTD_freeDCtx(zc);
#endif
    xc_zstd_cctx_free(cc);
    xc_zstd_dctx_free(dc);
    xc_zstd_cdict_free(cd);
    xc_zstd_ddict_free(dd);
    free(dict);
    free_samples(&s);
}

#ifdef XC_HAVE_LIBZSTD
/* Compresses every sample with libzstd at level 3 and the dictionary,
 * checks that libzstd and our decoder give it back, and returns the total
 * compressed size. */
static size_t libzstd_round_trips(const void *dict, size_t dict_size, const samples *s)
{
    ZSTD_CDict *cd = ZSTD_createCDict(dict, dict_size, 3);
    ZSTD_DDict *zd = ZSTD_createDDict(dict, dict_size);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_DCtx *zc = ZSTD_createDCtx();
    xc_zstd_ddict *xd = xc_zstd_ddict_new(dict, dict_size);
    xc_zstd_dctx *xc = xc_zstd_dctx_new();
    size_t total = 0, pos = 0, longest = 0;
    assert_non_null(cd);
    assert_non_null(zd);
    assert_non_null(xd);
    assert_int_equal(ZSTD_getDictID_fromDict(dict, dict_size), xc_zstd_ddict_id(xd));
    assert_int_equal(xc_zstd_dctx_ref_ddict(xc, xd), 0);
    for (unsigned i = 0; i < s->nb; i++) longest = s->sizes[i] > longest ? s->sizes[i] : longest;
    size_t const cap = ZSTD_compressBound(longest);
    uint8_t *frame = (uint8_t *)malloc(cap);
    uint8_t *back = (uint8_t *)malloc(longest + 1);
    for (unsigned i = 0; i < s->nb; i++) {
        const uint8_t *src = s->data + pos;
        size_t const n = s->sizes[i];
        size_t const c = ZSTD_compress_usingCDict(cc, frame, cap, src, n, cd);
        assert_false(ZSTD_isError(c));
        assert_int_equal(ZSTD_decompress_usingDDict(zc, back, longest + 1, frame, c, zd), n);
        assert_memory_equal(back, src, n);
        size_t const r = xc_zstd_decompress_dctx(xc, back, longest + 1, frame, c);
        if (xc_is_error(r)) print_error("record %u: %s\n", i, xc_error_name(r));
        assert_int_equal(r, n);
        assert_memory_equal(back, src, n);
        total += c;
        pos += n;
    }
    free(frame);
    free(back);
    ZSTD_freeCDict(cd);
    ZSTD_freeDDict(zd);
    ZSTD_freeCCtx(cc);
    ZSTD_freeDCtx(zc);
    xc_zstd_ddict_free(xd);
    xc_zstd_dctx_free(xc);
    return total;
}

static void test_libzstd(void **state)
{
    (void)state;
    samples s = make_records(xc_test_quick() ? 400 : 2000, 3);
    size_t const cap = 16384;
    uint8_t *ours = (uint8_t *)malloc(cap), *theirs = (uint8_t *)malloc(cap);
    size_t const n = train(ours, cap, &s);
    assert_false(xc_is_error(n));
    size_t const m = ZDICT_trainFromBuffer(theirs, cap, s.data, s.sizes, s.nb);
    assert_false(ZDICT_isError(m));
    size_t const with_ours = libzstd_round_trips(ours, n, &s);
    size_t const with_theirs = libzstd_round_trips(theirs, m, &s);
    size_t const plain = s.total;
    print_message("generated records: %zu bytes, with our dictionary %zu, with libzstd's %zu\n",
                  plain, with_ours, with_theirs);
    /* A dictionary must pay off, and about as well as libzstd's. */
    assert_true(with_ours * 3 < plain);
    assert_true(with_ours * 100 <= with_theirs * 103);
    free(ours);
    free(theirs);
    free_samples(&s);
}

/* Records shaped like the shared corpus's json-records (REST API user
 * objects of 800 to 1000 bytes, a dozen URLs each built from the login,
 * with one in twenty a bare error string instead), for the comparison
 * with libzstd's trainer where the corpus is absent.  The fields and
 * templates are this test's; only the shape follows the corpus. */
static samples make_user_records(unsigned nb, uint64_t seed)
{
    static const char *const paths[] = {"followers", "following{/other_user}", "gists{/gist_id}",
                                        "starred{/owner}{/repo}", "subscriptions", "orgs",
                                        "repos", "events{/privacy}", "received_events"};
    static const char *const companies[] = {"null", "\"Acme\"", "\"Initech\"", "\"@example\"",
                                            "\"Globex Corporation\"", "null", "null"};
    samples s;
    size_t cap = (size_t)nb * 2048, pos = 0;
    s.data = (uint8_t *)malloc(cap);
    s.sizes = (size_t *)malloc(nb * sizeof *s.sizes);
    assert_non_null(s.data);
    assert_non_null(s.sizes);
    gen_state = seed | 1;
    for (unsigned i = 0; i < nb; i++) {
        char *const out = (char *)s.data + pos;
        size_t const room = cap - pos;
        size_t len = 0;
        if (gen(20) == 0) {
            len = (size_t)snprintf(out, room, "\"https://docs.example.com/api/#rate-limit-%u\"",
                                   gen(4));
        } else {
            /* Logins are all different, as in the corpus: a dictionary
             * gains from the templates around them, not from them. */
            static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";
            char login[40];
            size_t const login_len = 3 + gen(12);
            for (size_t k = 0; k < login_len; k++) login[k] = alnum[gen(k == 0 ? 52 : 63)];
            login[login_len] = 0;
            unsigned const id = gen(40000000);
            len = (size_t)snprintf(out, room,
                                   "{\"login\":\"%s\",\"id\":%u,\"avatar_url\":"
                                   "\"https://avatars.example.com/u/%u?v=3\",\"gravatar_id\":\"\","
                                   "\"url\":\"https://api.example.com/users/%s\","
                                   "\"html_url\":\"https://example.com/%s\"",
                                   login, id, id, login, login);
            for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
                char key[40];
                size_t const stem = strcspn(paths[k], "{");
                snprintf(key, sizeof key, "%.*s", (int)stem, paths[k]);
                len += (size_t)snprintf(out + len, room - len,
                                        ",\"%s_url\":\"https://api.example.com/users/%s/%s\"", key,
                                        login, paths[k]);
            }
            unsigned v[8];
            for (unsigned j = 0; j < 8; j++) v[j] = gen(j < 4 ? 400 : 60);
            len += (size_t)snprintf(out + len, room - len,
                                    ",\"type\":\"User\",\"site_admin\":%s,\"company\":%s,"
                                    "\"location\":\"%s\",\"public_repos\":%u,\"public_gists\":%u,"
                                    "\"followers\":%u,\"following\":%u,"
                                    "\"created_at\":\"20%02u-%02u-%02uT%02u:%02u:00Z\"}",
                                    v[0] % 50 ? "false" : "true", companies[v[1] % 7],
                                    places[v[2] % 10], v[3], v[0] % 40, v[1] * 3 % 400,
                                    v[2] % 90, 8 + v[4] % 9, 1 + v[5] % 12, 1 + v[6] % 28,
                                    v[7] % 24, v[4]);
        }
        assert_true(len > 0 && len < room);
        s.sizes[i] = len;
        pos += len;
    }
    s.nb = nb;
    s.total = pos;
    return s;
}

/* The corpus's json-records (GitHub users), one sample per file, in the
 * order of their names so that runs are comparable; 1 when there are at
 * least 100. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(samples *s, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **list = NULL;
    unsigned nb = 0, cap = 0;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (nb == cap) {
            cap = cap ? cap * 2 : 256;
            list = (char **)realloc(list, cap * sizeof *list);
            assert_non_null(list);
        }
        size_t const len = strlen(e->d_name) + 1;
        list[nb] = (char *)malloc(len);
        assert_non_null(list[nb]);
        memcpy(list[nb++], e->d_name, len);
    }
    closedir(d);
    qsort(list, nb, sizeof *list, by_name);
    s->data = NULL;
    s->sizes = (size_t *)malloc((nb ? nb : 1) * sizeof *s->sizes);
    s->nb = 0;
    s->total = 0;
    for (unsigned i = 0; i < nb; i++) {
        char path[8192];
        size_t size;
        int const len = snprintf(path, sizeof path, "%s/%s", dir, list[i]);
        void *p = len > 0 && (size_t)len < sizeof path ? xc_read_file(path, &size) : NULL;
        free(list[i]);
        if (!p) continue;
        s->data = (uint8_t *)realloc(s->data, s->total + size + 1);
        assert_non_null(s->data);
        memcpy(s->data + s->total, p, size);
        free(p);
        s->sizes[s->nb++] = size;
        s->total += size;
    }
    free(list);
    return s->nb >= 100;
}

/* Our dictionary and libzstd's, trained on the same samples, both at `cap`
 * bytes: each pays off (a third of the samples' size or less), and ours
 * compresses them within `percent` of libzstd's. */
static void compare_with_libzstd(const samples *s, size_t cap, unsigned percent, const char *what)
{
    uint8_t *ours = (uint8_t *)malloc(cap), *theirs = (uint8_t *)malloc(cap);
    assert_non_null(ours);
    assert_non_null(theirs);
    size_t const n = train(ours, cap, s);
    assert_false(xc_is_error(n));
    check_format(ours, n, cap);
    size_t const m = ZDICT_trainFromBuffer(theirs, cap, s->data, s->sizes, s->nb);
    assert_false(ZDICT_isError(m));
    size_t const with_ours = libzstd_round_trips(ours, n, s);
    size_t const with_theirs = libzstd_round_trips(theirs, m, s);
    print_message("%s (%u samples, %zu bytes), %zu-byte dictionaries: ours %zu, libzstd's %zu "
                  "(%.4f)\n", what, s->nb, s->total, cap, with_ours, with_theirs,
                  (double)with_ours / (double)with_theirs);
    assert_true(with_ours * 3 < s->total);
    assert_true(with_ours * 100 <= with_theirs * (100 + percent));
    free(ours);
    free(theirs);
}

/* At 110 KiB and 16 KiB, on records made here like the corpus's
 * json-records (1842 of them, as many as the corpus holds; 600 in quick
 * mode) and on the corpus's own when it is there.  On the real records
 * ours must be within 2% of libzstd's trainer (it is 0.5% and 1.6%
 * better).  On generated ones the two trade places by a few percent as
 * the count or the seed changes (from 0.95 to 1.05 over 400 to 3000
 * records and four seeds), so there the bound is 6%: loose enough not to
 * hinge on the generator, tight enough that a clearly worse choice of
 * content fails. */
static void test_json_records(void **state)
{
    (void)state;
    static const size_t caps[] = {112640, 16384};
    samples s = make_user_records(xc_test_quick() ? 600 : 1842, 11);
    for (size_t i = 0; i < 2; i++) compare_with_libzstd(&s, caps[i], 6, "generated user records");
    free_samples(&s);
    const char *data = xc_test_data_dir();
    char dir[4096];
    if (!data) return;
    snprintf(dir, sizeof dir, "%s/corpus/json-records/github", data);
    if (load_dir(&s, dir))
        for (size_t i = 0; i < 2; i++) compare_with_libzstd(&s, caps[i], 2, "json-records");
    free_samples(&s);
}
#endif

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_same_everywhere),
        cmocka_unit_test(test_odd_samples),
        cmocka_unit_test(test_our_encoder),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_libzstd),
        cmocka_unit_test(test_json_records),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
