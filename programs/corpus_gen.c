/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The benchmark corpus by class: the class table and the text-like
 * generators (prose, C-like source, JSON, CSV, logs, UTF-16 text); the
 * binary classes are in corpus_gen_binary.c.
 *
 * Each generator aims at what an LZ + entropy coder sees in real files of
 * the kind, not at looking real: prose has a skewed vocabulary of a few
 * thousand words, short repeats and wrapped lines; source has keywords,
 * indentation and identifiers that recur within a function; JSON and CSV
 * have fields that repeat in every record and values that do not; logs
 * have timestamps that move forward a little per line.  Every class is
 * seeded: a record of a table is the same generator with another seed.
 */
#include "corpus_gen.h"

#include "corpus_gen_internal.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the word model ------------------------------------------------------ */

/* The most frequent English words, most frequent first: with the skewed
 * pick they make about half of all words, as function words do. */
static const char *const g_common[] = {
    "the", "of", "and", "to", "a", "in", "is", "that", "it", "was", "for", "on", "are", "as",
    "with", "his", "they", "at", "be", "this", "from", "have", "or", "by", "one", "had", "not",
    "but", "what", "all", "were", "when", "we", "there", "can", "an", "your", "which", "their",
    "said", "if", "do", "will", "each", "about", "how", "up", "out", "them", "then", "she",
    "many", "some", "so", "these", "would", "other", "into", "has", "more", "her", "two",
    "like", "him", "see", "time", "could", "no", "make", "than", "first", "been", "its",
    "who", "now", "people", "my", "made", "over", "did", "down", "only", "way", "find", "use",
    "may", "water", "long", "little", "very", "after", "words", "called", "just", "where",
    "most", "know", "through", "back", "much", "before", "good", "new", "old", "great",
};

/* Content words are built from syllables: a vocabulary of a few thousand
 * words, each a fixed function of its index, with a plausible spread of
 * lengths and letters. */
static const char *const g_onset[] = {"b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s",
                                      "t", "v", "w", "st", "tr", "pr", "ch", "sh", "br", "gr",
                                      "th", "cl"};
static const char *const g_vowel[] = {"a", "e", "i", "o", "u", "ea", "ou", "ai", "io", "ee"};
static const char *const g_coda[] = {"",   "n",  "r",    "s",    "t",   "l",  "nd",
                                     "st", "ng", "tion", "ment", "ing", "ed", "er",
                                     "ly", "ous", "al",  "ness", "ive", "able"};
#define CONTENT_WORDS 4096u

static size_t append(char *buf, size_t n, const char *s)
{
    while (*s) buf[n++] = *s++;
    buf[n] = '\0';
    return n;
}

static size_t content_word(uint32_t k, char *buf)
{
    /* A hash of k picks the parts, so that neighbouring indices (equally
     * likely words) do not share prefixes. */
    uint32_t h = k * 2654435761u;
    unsigned syllables = 1 + (h >> 30) % 3;
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < syllables; i++) {
        n = append(buf, n, g_onset[(h >> (5 * i)) % COUNT(g_onset)]);
        n = append(buf, n, g_vowel[(h >> (5 * i + 3)) % COUNT(g_vowel)]);
    }
    return append(buf, n, g_coda[(h >> 17) % COUNT(g_coda)]);
}

size_t xc_gen_word(struct xc_rng *r, char *buf)
{
    if (xc_rng_below(r, 100) < 55) {
        buf[0] = '\0';
        return append(buf, 0, g_common[xc_rng_skewed(r, COUNT(g_common))]);
    }
    return content_word(xc_rng_skewed(r, CONTENT_WORDS), buf);
}

/* ---- prose ----------------------------------------------------------------- */

/* Sentences of 4 to 27 words in paragraphs, lines wrapped before column
 * 72 as in a plain-text book. */
void xc_gen_text(struct xc_rng *r, struct xc_sink *s)
{
    size_t col = 0;
    while (!xc_sink_full(s)) {
        unsigned sentences = 2 + xc_rng_below(r, 7);
        for (unsigned k = 0; k < sentences && !xc_sink_full(s); k++) {
            unsigned words = 4 + xc_rng_below(r, 24);
            for (unsigned w = 0; w < words; w++) {
                char word[40];
                size_t len = xc_gen_word(r, word);
                if (w == 0 && word[0] >= 'a' && word[0] <= 'z') word[0] = (char)(word[0] - 32);
                if (col > 0 && col + len + 1 > 72) {
                    xc_sink_u8(s, '\n');
                    col = 0;
                } else if (col > 0) {
                    xc_sink_u8(s, ' ');
                    col++;
                }
                xc_sink_bytes(s, word, len);
                col += len;
                if (w + 1 < words && xc_rng_below(r, 12) == 0) {
                    xc_sink_u8(s, ',');
                    col++;
                }
            }
            uint32_t p = xc_rng_below(r, 20);
            xc_sink_u8(s, p == 0 ? '?' : p == 1 ? '!' : '.');
            col++;
        }
        xc_sink_str(s, "\n\n");
        col = 0;
    }
}

/* ---- C-like source --------------------------------------------------------- */

static const char *const g_types[] = {"int", "size_t", "uint32_t", "uint8_t *", "const char *",
                                      "struct state *", "uint64_t", "unsigned"};
static const char *const g_parts[] = {"read", "write", "block", "table", "state", "len",
                                      "count", "next", "buf", "size", "offset", "hash",
                                      "entry", "node", "src", "dst", "pos", "limit", "flags"};

static void ident(struct xc_rng *r, struct xc_sink *s)
{
    xc_sink_str(s, g_parts[xc_rng_skewed(r, COUNT(g_parts))]);
    if (xc_rng_below(r, 3) == 0) {
        xc_sink_u8(s, '_');
        xc_sink_str(s, g_parts[xc_rng_below(r, COUNT(g_parts))]);
    }
}

static void indent(struct xc_sink *s, unsigned depth)
{
    for (unsigned i = 0; i < depth * 4; i++) xc_sink_u8(s, ' ');
}

static void expr(struct xc_rng *r, struct xc_sink *s)
{
    static const char *const ops[] = {" + ", " - ", " << ", " & ", " * ", " >> ", " | "};
    ident(r, s);
    unsigned terms = xc_rng_below(r, 3);
    for (unsigned i = 0; i < terms; i++) {
        xc_sink_str(s, ops[xc_rng_skewed(r, COUNT(ops))]);
        if (xc_rng_below(r, 2)) xc_sink_dec(s, xc_rng_skewed(r, 300), 1);
        else ident(r, s);
    }
}

static void comment(struct xc_rng *r, struct xc_sink *s, unsigned depth)
{
    indent(s, depth);
    xc_sink_str(s, "/* ");
    unsigned words = 3 + xc_rng_below(r, 12);
    for (unsigned w = 0; w < words; w++) {
        char word[40];
        xc_sink_bytes(s, word, xc_gen_word(r, word));
        xc_sink_u8(s, w + 1 < words ? ' ' : '.');
    }
    xc_sink_str(s, " */\n");
}

static void statement(struct xc_rng *r, struct xc_sink *s, unsigned depth)
{
    indent(s, depth);
    switch (xc_rng_skewed(r, 8)) {
    case 0:
        ident(r, s);
        xc_sink_str(s, " = ");
        expr(r, s);
        xc_sink_str(s, ";\n");
        break;
    case 1:
        xc_sink_str(s, "if (");
        ident(r, s);
        xc_sink_str(s, xc_rng_below(r, 2) ? " < " : " == ");
        expr(r, s);
        xc_sink_str(s, ")\n");
        indent(s, depth + 1);
        xc_sink_str(s, xc_rng_below(r, 2) ? "return XC_ERROR_CORRUPT;\n" : "goto fail;\n");
        break;
    case 2:
        ident(r, s);
        xc_sink_u8(s, '(');
        ident(r, s);
        xc_sink_str(s, ", ");
        expr(r, s);
        xc_sink_str(s, ");\n");
        break;
    case 3:
        xc_sink_str(s, g_types[xc_rng_below(r, COUNT(g_types))]);
        xc_sink_u8(s, ' ');
        ident(r, s);
        xc_sink_str(s, " = ");
        expr(r, s);
        xc_sink_str(s, ";\n");
        break;
    case 4:
        xc_sink_str(s, "for (size_t i = 0; i < ");
        ident(r, s);
        xc_sink_str(s, "; i++)\n");
        indent(s, depth + 1);
        ident(r, s);
        xc_sink_str(s, "[i] = ");
        expr(r, s);
        xc_sink_str(s, ";\n");
        break;
    case 5:
        comment(r, s, 0);
        break;
    default:
        xc_sink_str(s, "return ");
        expr(r, s);
        xc_sink_str(s, ";\n");
        break;
    }
}

void xc_gen_source(struct xc_rng *r, struct xc_sink *s)
{
    xc_sink_str(s, "/* SPDX-License-Identifier: BSD-2-Clause */\n#include <stddef.h>\n"
                   "#include <stdint.h>\n#include \"state.h\"\n\n");
    while (!xc_sink_full(s)) {
        if (xc_rng_below(r, 3) == 0) comment(r, s, 0);
        xc_sink_str(s, xc_rng_below(r, 2) ? "static " : "");
        xc_sink_str(s, g_types[xc_rng_below(r, COUNT(g_types))]);
        xc_sink_u8(s, ' ');
        ident(r, s);
        xc_sink_u8(s, '_');
        xc_sink_dec(s, xc_rng_below(r, 1000), 1);
        xc_sink_u8(s, '(');
        unsigned params = 1 + xc_rng_below(r, 4);
        for (unsigned p = 0; p < params; p++) {
            xc_sink_str(s, g_types[xc_rng_below(r, COUNT(g_types))]);
            xc_sink_u8(s, ' ');
            ident(r, s);
            xc_sink_str(s, p + 1 < params ? ", " : ")\n{\n");
        }
        unsigned stmts = 3 + xc_rng_below(r, 20), depth = 1;
        for (unsigned k = 0; k < stmts; k++) {
            if (depth < 4 && xc_rng_below(r, 8) == 0) {
                indent(s, depth);
                xc_sink_str(s, "while (");
                ident(r, s);
                xc_sink_str(s, " < ");
                ident(r, s);
                xc_sink_str(s, ") {\n");
                depth++;
            } else if (depth > 1 && xc_rng_below(r, 5) == 0) {
                depth--;
                indent(s, depth);
                xc_sink_str(s, "}\n");
            }
            statement(r, s, depth);
        }
        while (depth-- > 1) {
            indent(s, depth);
            xc_sink_str(s, "}\n");
        }
        xc_sink_str(s, "}\n\n");
    }
}

/* ---- JSON records ---------------------------------------------------------- */

static void quoted_word(struct xc_rng *r, struct xc_sink *s)
{
    char word[40];
    xc_sink_u8(s, '"');
    xc_sink_bytes(s, word, xc_gen_word(r, word));
    xc_sink_u8(s, '"');
}

static void timestamp(struct xc_sink *s, uint64_t t, char sep, int zone)
{
    /* t in seconds from 2024-01-01, in months of 28 days: a calendar is
     * not the point, digits that move slowly are. */
    xc_sink_dec(s, 2024 + t / (336 * 86400), 4);
    xc_sink_u8(s, '-');
    xc_sink_dec(s, 1 + t / (28 * 86400) % 12, 2);
    xc_sink_u8(s, '-');
    xc_sink_dec(s, 1 + t / 86400 % 28, 2);
    xc_sink_u8(s, (unsigned char)sep);
    xc_sink_dec(s, t / 3600 % 24, 2);
    xc_sink_u8(s, ':');
    xc_sink_dec(s, t / 60 % 60, 2);
    xc_sink_u8(s, ':');
    xc_sink_dec(s, t % 60, 2);
    if (zone) xc_sink_u8(s, 'Z');
}

/* One object per line (NDJSON), as an API dump or an event log. */
void xc_gen_json(struct xc_rng *r, struct xc_sink *s)
{
    static const char *const events[] = {"PushEvent", "IssuesEvent", "WatchEvent",
                                         "PullRequestEvent", "ForkEvent", "CreateEvent"};
    static const char *const actions[] = {"opened", "closed", "started", "created", "merged"};
    uint64_t id = 2489651045u + xc_rng_below(r, 1u << 20), t = xc_rng_below(r, 1u << 24);
    while (!xc_sink_full(s)) {
        id += 1 + xc_rng_below(r, 40);
        t += xc_rng_below(r, 90);
        uint32_t user = xc_rng_skewed(r, 50000);
        xc_sink_str(s, "{\"id\":\"");
        xc_sink_dec(s, id, 1);
        xc_sink_str(s, "\",\"type\":\"");
        xc_sink_str(s, events[xc_rng_skewed(r, COUNT(events))]);
        xc_sink_str(s, "\",\"actor\":{\"id\":");
        xc_sink_dec(s, 1000 + user * 37u, 1);
        xc_sink_str(s, ",\"login\":");
        quoted_word(r, s);
        xc_sink_str(s, ",\"avatar_url\":\"https://avatars.example.com/u/");
        xc_sink_dec(s, 1000 + user * 37u, 1);
        xc_sink_str(s, "?\"},\"repo\":{\"name\":\"");
        char word[40];
        xc_sink_bytes(s, word, xc_gen_word(r, word));
        xc_sink_u8(s, '/');
        xc_sink_bytes(s, word, xc_gen_word(r, word));
        xc_sink_str(s, "\"},\"payload\":{\"action\":\"");
        xc_sink_str(s, actions[xc_rng_below(r, COUNT(actions))]);
        xc_sink_str(s, "\",\"number\":");
        xc_sink_dec(s, xc_rng_below(r, 20000), 1);
        xc_sink_str(s, ",\"size\":");
        xc_sink_dec(s, xc_rng_skewed(r, 100), 1);
        xc_sink_str(s, ",\"labels\":[");
        unsigned labels = xc_rng_below(r, 4);
        for (unsigned k = 0; k < labels; k++) {
            if (k) xc_sink_u8(s, ',');
            quoted_word(r, s);
        }
        xc_sink_str(s, "]},\"public\":");
        xc_sink_str(s, xc_rng_below(r, 10) ? "true" : "false");
        xc_sink_str(s, ",\"created_at\":\"");
        timestamp(s, t, 'T', 1);
        xc_sink_str(s, "\"}\n");
    }
}

/* ---- CSV ---------------------------------------------------------------------- */

void xc_gen_csv(struct xc_rng *r, struct xc_sink *s)
{
    static const char *const first[] = {"James", "Mary", "Wei", "Fatima", "Olga", "Juan",
                                        "Aiko", "Liam", "Priya", "Noah", "Emma", "Kofi"};
    static const char *const last[] = {"Smith", "Garcia", "Chen", "Khan", "Ivanova", "Silva",
                                       "Sato", "Brown", "Patel", "Muller", "Okafor", "Rossi"};
    static const char *const cities[] = {"Lisbon", "Oslo", "Quito", "Hanoi", "Perth", "Accra",
                                         "Denver", "Lyon", "Osaka", "Pune"};
    static const char *const status[] = {"shipped", "pending", "cancelled", "returned"};
    uint64_t id = 1 + xc_rng_below(r, 1u << 20), t = xc_rng_below(r, 1u << 24);
    xc_sink_str(s, "order_id,date,customer,city,sku,quantity,unit_price,currency,status,note\r\n");
    while (!xc_sink_full(s)) {
        id++;
        t += xc_rng_below(r, 400);
        xc_sink_dec(s, id, 1);
        xc_sink_u8(s, ',');
        timestamp(s, t, ' ', 0);
        xc_sink_u8(s, ',');
        xc_sink_str(s, first[xc_rng_skewed(r, COUNT(first))]);
        xc_sink_u8(s, ' ');
        xc_sink_str(s, last[xc_rng_below(r, COUNT(last))]);
        xc_sink_u8(s, ',');
        xc_sink_str(s, cities[xc_rng_skewed(r, COUNT(cities))]);
        xc_sink_str(s, ",SKU-");
        xc_sink_dec(s, xc_rng_skewed(r, 90000), 5);
        xc_sink_u8(s, ',');
        xc_sink_dec(s, 1 + xc_rng_skewed(r, 50), 1);
        xc_sink_u8(s, ',');
        uint32_t cents = 99 + xc_rng_skewed(r, 50000);
        xc_sink_dec(s, cents / 100, 1);
        xc_sink_u8(s, '.');
        xc_sink_dec(s, cents % 100, 2);
        xc_sink_str(s, xc_rng_below(r, 5) ? ",EUR," : ",USD,");
        xc_sink_str(s, status[xc_rng_skewed(r, COUNT(status))]);
        xc_sink_u8(s, ',');
        if (xc_rng_below(r, 4) == 0) {
            xc_sink_u8(s, '"');
            unsigned words = 2 + xc_rng_below(r, 8);
            for (unsigned w = 0; w < words; w++) {
                char word[40];
                if (w) xc_sink_str(s, w == 2 ? ", " : " ");
                xc_sink_bytes(s, word, xc_gen_word(r, word));
            }
            xc_sink_u8(s, '"');
        }
        xc_sink_str(s, "\r\n");
    }
}

/* ---- logs --------------------------------------------------------------------- */

static void ipv4(struct xc_rng *r, struct xc_sink *s)
{
    uint32_t host = xc_rng_skewed(r, 4000);
    xc_sink_str(s, host & 1 ? "10.0." : "192.168.");
    xc_sink_dec(s, host >> 8, 1);
    xc_sink_u8(s, '.');
    xc_sink_dec(s, host & 0xFF, 1);
}

/* Web server access lines and application lines, interleaved, with a
 * millisecond clock that moves forward a little per line. */
void xc_gen_logs(struct xc_rng *r, struct xc_sink *s)
{
    static const char *const methods[] = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
    static const char *const paths[] = {"/api/v1/users/", "/api/v1/orders/", "/static/js/app.",
                                        "/health", "/api/v2/search?q=", "/login"};
    static const char *const levels[] = {"INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    static const char *const comps[] = {"http", "db.pool", "cache", "auth", "scheduler"};
    static const unsigned codes[] = {200, 200, 200, 304, 404, 201, 500, 302};
    uint64_t ms = (uint64_t)xc_rng_below(r, 1u << 30) * 8;
    while (!xc_sink_full(s)) {
        ms += xc_rng_skewed(r, 3000);
        timestamp(s, ms / 1000, 'T', 0);
        xc_sink_u8(s, '.');
        xc_sink_dec(s, ms % 1000, 3);
        xc_sink_str(s, "Z web-");
        xc_sink_dec(s, xc_rng_below(r, 4), 2);
        if (xc_rng_below(r, 3)) {
            xc_sink_str(s, " nginx[");
            xc_sink_dec(s, 1200 + xc_rng_below(r, 4), 1);
            xc_sink_str(s, "]: ");
            ipv4(r, s);
            xc_sink_str(s, " - - \"");
            xc_sink_str(s, methods[xc_rng_below(r, COUNT(methods))]);
            xc_sink_u8(s, ' ');
            uint32_t p = xc_rng_skewed(r, COUNT(paths));
            xc_sink_str(s, paths[p]);
            if (p < 2) xc_sink_dec(s, xc_rng_skewed(r, 100000), 1);
            else if (p == 2) xc_sink_str(s, "3f9a1c.js");
            else if (p == 4) {
                char word[40];
                xc_sink_bytes(s, word, xc_gen_word(r, word));
            }
            xc_sink_str(s, " HTTP/1.1\" ");
            xc_sink_dec(s, codes[xc_rng_skewed(r, COUNT(codes))], 1);
            xc_sink_u8(s, ' ');
            xc_sink_dec(s, xc_rng_skewed(r, 60000), 1);
            xc_sink_str(s, " 0.");
            xc_sink_dec(s, xc_rng_skewed(r, 1000), 3);
            xc_sink_str(s, " \"Mozilla/5.0 (X11; Linux x86_64)\"\n");
        } else {
            xc_sink_str(s, " app[");
            xc_sink_dec(s, 3000 + xc_rng_below(r, 8), 1);
            xc_sink_str(s, "]: ");
            xc_sink_str(s, levels[xc_rng_skewed(r, COUNT(levels))]);
            xc_sink_str(s, " [");
            xc_sink_str(s, comps[xc_rng_below(r, COUNT(comps))]);
            xc_sink_str(s, "] request_id=");
            for (int k = 0; k < 8; k++)
                xc_sink_u8(s, (unsigned)"0123456789abcdef"[xc_rng_below(r, 16)]);
            xc_sink_str(s, " user=");
            xc_sink_dec(s, xc_rng_skewed(r, 50000), 1);
            xc_sink_str(s, " completed in ");
            xc_sink_dec(s, xc_rng_skewed(r, 2000), 1);
            xc_sink_str(s, " ms\n");
        }
    }
}

/* ---- UTF-16 text ------------------------------------------------------------ */

static void utf16(struct xc_sink *s, uint32_t cp)
{
    xc_sink_le(s, cp, 2);
}

/* A word of the given script: Latin words from the word model, Cyrillic
 * and Greek words from their alphabets' letters, CJK as a run of
 * ideographs from a skewed set of a few thousand; UTF-16LE with a BOM and
 * CRLF line ends, as Windows writes text. */
void xc_gen_utf16(struct xc_rng *r, struct xc_sink *s)
{
    utf16(s, 0xFEFF);
    unsigned col = 0;
    while (!xc_sink_full(s)) {
        uint32_t script = xc_rng_below(r, 10);
        unsigned words = 4 + xc_rng_below(r, 16);
        for (unsigned w = 0; w < words && !xc_sink_full(s); w++) {
            if (script < 5) {
                char word[40];
                size_t len = xc_gen_word(r, word);
                if (w) utf16(s, ' ');
                for (size_t i = 0; i < len; i++)
                    utf16(s, i == 1 && xc_rng_below(r, 30) == 0 ? 0xE9 : (unsigned char)word[i]);
                col += (unsigned)len + 1;
            } else if (script < 8) {
                /* Words of a small per-language vocabulary: k picks the
                 * letters through a hash, as for the Latin words. */
                uint32_t base = script < 7 ? 0x430 : 0x3B1, span = script < 7 ? 32 : 25;
                uint32_t h = xc_rng_skewed(r, 3000) * 2654435761u;
                unsigned len = 2 + h % 7;
                if (w) utf16(s, ' ');
                for (unsigned i = 0; i < len; i++) {
                    utf16(s, base + (h >> (i * 3 + 4)) % span);
                    h = h * 1103515245u + 12345u;
                }
                col += len + 1;
            } else {
                unsigned len = 1 + xc_rng_below(r, 4);
                for (unsigned i = 0; i < len; i++) utf16(s, 0x4E00 + xc_rng_skewed(r, 6000));
                col += len * 2;
            }
        }
        utf16(s, script < 8 ? '.' : 0x3002);
        if (col > 70) {
            utf16(s, '\r');
            utf16(s, '\n');
            col = 0;
        } else if (script < 8) {
            utf16(s, ' ');
        }
    }
}

/* ---- the class table ------------------------------------------------------ */

static const struct {
    const char *name, *what;
    xc_corpus_gen_fn gen; /* NULL for zlib, which corpus_gen_binary.c makes */
} g_classes[] = {
    {"text", "English-like prose from a word model, wrapped lines", xc_gen_text},
    {"source", "C-like source code", xc_gen_source},
    {"exec", "x86-like machine code: functions, calls, jumps, padding", xc_gen_exec},
    {"json", "JSON records, one per line", xc_gen_json},
    {"csv", "CSV table with a header", xc_gen_csv},
    {"logs", "web server and application log lines", xc_gen_logs},
    {"utf16", "UTF-16LE text in four scripts", xc_gen_utf16},
    {"database", "4 KiB database pages: records, index keys, free space", xc_gen_database},
    {"random", "random bytes (incompressible)", xc_gen_random},
    {"zlib", "zlib-deflated text, logs and records (incompressible)", NULL},
    {"runs", "runs of one byte, 1 B to 64 KiB long", xc_gen_runs},
    {"periods", "short periods (2 to 64 bytes) with noise", xc_gen_periods},
    {"mixed", "text and binary with repeats more than 1 MiB back", xc_gen_mixed},
};

size_t xc_corpus_class_count(void)
{
    return COUNT(g_classes);
}

const char *xc_corpus_class_name(size_t i)
{
    return i < COUNT(g_classes) ? g_classes[i].name : NULL;
}

const char *xc_corpus_class_what(size_t i)
{
    return i < COUNT(g_classes) ? g_classes[i].what : NULL;
}

int xc_corpus_class_find(const char *name)
{
    for (size_t i = 0; i < COUNT(g_classes); i++)
        if (strcmp(name, g_classes[i].name) == 0) return (int)i;
    return -1;
}

int xc_corpus_class_available(size_t i)
{
    if (i >= COUNT(g_classes)) return 0;
    return g_classes[i].gen != NULL || xc_gen_zlib_available();
}

int xc_corpus_generate(size_t i, uint64_t seed, uint8_t *dst, size_t n)
{
    if (i >= COUNT(g_classes)) return -1;
    /* The class index enters the seed, so that two classes given one seed
     * do not share their random choices. */
    struct xc_rng r = {seed * 0xD1342543DE82EF95ull + (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull};
    if (!g_classes[i].gen) return xc_gen_zlib(&r, dst, n);
    struct xc_sink s = {dst, n, 0};
    g_classes[i].gen(&r, &s);
    return 0;
}
