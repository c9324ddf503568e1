/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include "xc_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

void xc_test_init(void)
{
    const char *cap = getenv("XC_CPUCAP");
    const char *tier = xc_cpucap_tier();
    if (cap && *cap && strcmp(cap, tier) != 0) {
        /* The cap asked for a tier above this CPU's (or an unknown one). */
        printf("skipped: XC_CPUCAP=%s but this machine runs tier %s\n", cap, tier);
        exit(77);
    }
    const char *seed = getenv("XC_TEST_SEED");
    if (seed && *seed) rng_state = strtoull(seed, NULL, 0) | 1;
    const char *data = xc_test_data_dir();
    printf("# cpucap: %s\n# seed: 0x%llx\n# test data: %s\n", xc_cpucap_describe(),
           (unsigned long long)rng_state, data ? data : "none");
    fflush(stdout);
}

int xc_test_quick(void)
{
    const char *q = getenv("XC_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

uint64_t xc_rand(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

uint32_t xc_rand_below(uint32_t n) { return n ? (uint32_t)((xc_rand() >> 32) % n) : 0; }

void xc_rand_fill(void *p, size_t n)
{
    uint8_t *b = p;
    while (n >= 8) {
        uint64_t v = xc_rand();
        memcpy(b, &v, 8);
        b += 8;
        n -= 8;
    }
    if (n) {
        uint64_t v = xc_rand();
        memcpy(b, &v, n);
    }
}

/* Layout: [header page(s) holding the mapping size][data ... end][guard page]. */
void *xc_guard_alloc(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t data_pages = (n + page - 1) / page;
    size_t total = (data_pages + 2) * page;
    uint8_t *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    if (mprotect(base + (data_pages + 1) * page, page, PROT_NONE) != 0) {
        munmap(base, total);
        return NULL;
    }
    memcpy(base, &total, sizeof total);
    return base + (data_pages + 1) * page - n;
}

void xc_guard_free(void *p)
{
    if (!p) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    /* The header page is the first page of the mapping: walk down from the
     * data to the first page boundary at or below it, minus one page. */
    uintptr_t start = (uintptr_t)p & ~(uintptr_t)(page - 1);
    uint8_t *base = (uint8_t *)start - page;
    size_t total;
    memcpy(&total, base, sizeof total);
    munmap(base, total);
}

const char *xc_test_data_dir(void)
{
    static char path[4096];
    const char *d = getenv("XC_TEST_DATA");
    /* "none" hides the folder even where it exists, so that CI can run the
     * suite as a clone without ../shared beside it sees it. */
    if (d && strcmp(d, "none") == 0) return NULL;
    if (!d || !*d) d = XC_TEST_DATA_DEFAULT;
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) return NULL;
    snprintf(path, sizeof path, "%s", d);
    return path;
}

void *xc_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len < cap) break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (buf) *size = len;
    return buf;
}
