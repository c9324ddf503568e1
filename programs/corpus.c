/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A generated corpus, so that the main job has an input on a fresh machine.
 * The generators aim at the statistics that matter to an LZ + entropy coder:
 * a Zipf-like vocabulary for text (many short repeats, skewed literals),
 * records that share keys but not values (JSON), indentation and keywords
 * (source code), and fixed-width rows with slowly varying fields (binary).
 */
#include "corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t next(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
}

/* An index in [0, n) with probability roughly proportional to 1/(i+1). */
static size_t zipf(size_t n)
{
    double u = (double)(next() >> 11) / 9007199254740992.0;
    size_t i = (size_t)((double)n * u * u * u);
    return i < n ? i : n - 1;
}

static const char *const words[] = {
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with",
    "be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which",
    "but", "have", "an", "had", "they", "you", "were", "their", "one", "all", "we",
    "can", "her", "has", "there", "been", "if", "more", "when", "will", "would", "who",
    "so", "no", "compression", "window", "literal", "sequence", "offset", "entropy",
    "frame", "block", "decoder", "encoder", "table", "symbol", "stream", "checksum",
    "river", "mountain", "history", "government", "morning", "question", "between",
    "through", "although", "language", "children", "yesterday", "something", "system",
};

static size_t put(uint8_t *dst, size_t pos, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (pos + n > cap) n = cap - pos;
    memcpy(dst + pos, s, n);
    return pos + n;
}

static void gen_text(uint8_t *d, size_t n)
{
    size_t pos = 0, nwords = sizeof words / sizeof words[0];
    int sentence = 1;
    while (pos < n) {
        const char *w = words[zipf(nwords)];
        char buf[64];
        snprintf(buf, sizeof buf, "%s%c%s", sentence ? "" : " ", sentence ? (char)(w[0] - 32) : w[0],
                 w + 1);
        pos = put(d, pos, n, buf);
        sentence = 0;
        uint64_t r = next() % 100;
        if (r < 7) {
            pos = put(d, pos, n, r < 2 ? ".\n" : ". ");
            sentence = 1;
        } else if (r < 12) {
            pos = put(d, pos, n, ",");
        }
    }
}

static void gen_json(uint8_t *d, size_t n)
{
    static const char *const cities[] = {"Lisbon", "Oslo", "Quito", "Hanoi", "Perth", "Accra"};
    size_t pos = 0;
    unsigned id = 1000;
    while (pos < n) {
        char buf[512];
        snprintf(buf, sizeof buf,
                 "{\"id\":%u,\"login\":\"user%llu\",\"score\":%llu.%02llu,\"active\":%s,"
                 "\"city\":\"%s\",\"tags\":[\"%s\",\"%s\"],\"created_at\":\"2024-%02llu-%02lluT%02llu:%02llu:00Z\"}\n",
                 id++, (unsigned long long)(next() % 100000), (unsigned long long)(next() % 1000),
                 (unsigned long long)(next() % 100), (next() & 1) ? "true" : "false",
                 cities[next() % 6], words[zipf(40)], words[zipf(40)],
                 (unsigned long long)(1 + next() % 12), (unsigned long long)(1 + next() % 28),
                 (unsigned long long)(next() % 24), (unsigned long long)(next() % 60));
        pos = put(d, pos, n, buf);
    }
}

static void gen_source(uint8_t *d, size_t n)
{
    static const char *const stmts[] = {
        "if (len < 16) return crc;", "for (size_t i = 0; i < n; i++) {", "}", "return 0;",
        "uint32_t v = read32(p + i);", "sum += (uint64_t)v;", "state = table[state].next;",
        "if (XC_UNLIKELY(err)) goto fail;", "memcpy(dst, src, size);", "break;",
        "const uint8_t *end = src + size;", "while (ip < limit) {", "ip += step;",
    };
    size_t pos = 0, depth = 0;
    unsigned fn = 0;
    while (pos < n) {
        char buf[256];
        if (depth == 0) {
            snprintf(buf, sizeof buf, "\nstatic size_t function_%u(const uint8_t *src, size_t size)\n{\n",
                     fn++);
            pos = put(d, pos, n, buf);
            depth = 1;
            continue;
        }
        const char *s = stmts[zipf(sizeof stmts / sizeof stmts[0])];
        size_t indent = depth * 4;
        if (indent > 40) indent = 40;
        memset(buf, ' ', indent);
        snprintf(buf + indent, sizeof buf - indent, "%s\n", s);
        pos = put(d, pos, n, buf);
        if (s[strlen(s) - 1] == '{') depth++;
        else if (s[0] == '}' && depth > 0) depth--;
        if (next() % 40 == 0) depth = depth > 1 ? depth - 1 : 0;
        if (depth == 0) pos = put(d, pos, n, "}\n");
    }
}

static void gen_binary(uint8_t *d, size_t n)
{
    uint32_t ts = 1700000000u, seq = 0;
    size_t pos = 0;
    while (pos + 32 <= n) {
        uint8_t row[32];
        ts += (uint32_t)(next() % 5);
        seq++;
        uint64_t r = next();
        memcpy(row, &ts, 4);
        memcpy(row + 4, &seq, 4);
        for (int i = 0; i < 8; i++) row[8 + i] = (uint8_t)(r >> (8 * i)) & 0x0F;
        uint32_t val = (uint32_t)(20000 + (r % 300));
        memcpy(row + 16, &val, 4);
        memset(row + 20, 0, 8);
        row[28] = (uint8_t)(next() % 3);
        row[29] = 0xAB;
        row[30] = 0xCD;
        row[31] = (uint8_t)seq;
        memcpy(d + pos, row, 32);
        pos += 32;
    }
    while (pos < n) d[pos++] = (uint8_t)next();
}

size_t xc_default_corpus(struct xc_sample *out, size_t size)
{
    static const struct {
        const char *name;
        void (*gen)(uint8_t *, size_t);
    } kinds[] = {
        {"text", gen_text}, {"json", gen_json}, {"source", gen_source}, {"binary", gen_binary},
    };
    state = 0x243F6A8885A308D3ull;
    for (size_t k = 0; k < 4; k++) {
        uint8_t *d = malloc(size ? size : 1);
        if (!d) {
            for (size_t j = 0; j < k; j++) free(out[j].data);
            return 0;
        }
        kinds[k].gen(d, size);
        out[k].name = kinds[k].name;
        out[k].data = d;
        out[k].size = size;
    }
    return 4;
}
