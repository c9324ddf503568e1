/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compression levels: the parameters each level uses, in four tables by
 * source size as libzstd has them (so that a level means the same trade-off
 * in both libraries and frames compare like for like), and the adaptation
 * of parameters to a source of known size.
 *
 * The tables hold every level up to 22 with the strategy libzstd gives it;
 * every strategy has a finder in every ISA variant (compress_kernels.h).
 *
 * Negative levels use row 0 (the "fast" baseline) with target_length set to
 * minus the level: for the fast strategy that is the acceleration, how
 * quickly the finder strides through data that does not match.
 *
 * What it may call: the encoder (compress/).
 */
#include "zstd/compress/compress_internal.h"
#include "zstd/compress/match/match_ldm.h"

/* One row: window, chain, hash and search logs, minimum match, target
 * length, strategy. */
typedef struct {
    uint8_t wlog, clog, hlog, slog, mml;
    uint16_t tlen;
    uint8_t strat;
} level_row;

#define FAST XC_ZSTRAT_FAST
#define DFAST XC_ZSTRAT_DFAST
#define GREEDY XC_ZSTRAT_GREEDY
#define LAZY XC_ZSTRAT_LAZY
#define LAZY2 XC_ZSTRAT_LAZY2
#define BTLAZY2 XC_ZSTRAT_BTLAZY2
#define BTOPT XC_ZSTRAT_BTOPT
#define BTULTRA XC_ZSTRAT_BTULTRA
#define BTULTRA2 XC_ZSTRAT_BTULTRA2

/* Table 0: sources above 256 KiB or of unknown size; 1: up to 256 KiB;
 * 2: up to 128 KiB; 3: up to 16 KiB.  Row 0 is the base of the negative
 * levels, rows 1..22 the levels. */
static const level_row level_table[4][XC_ZSTD_LEVEL_MAX + 1] = {
    {
        {19, 12, 13, 1, 6, 1, FAST},       {19, 13, 14, 1, 7, 0, FAST},
        {20, 15, 16, 1, 6, 0, FAST},       {21, 16, 17, 1, 5, 0, DFAST},
        {21, 18, 18, 1, 5, 0, DFAST},      {21, 18, 19, 3, 5, 2, GREEDY},
        {21, 18, 19, 3, 5, 4, LAZY},       {21, 19, 20, 4, 5, 8, LAZY},
        {21, 19, 20, 4, 5, 16, LAZY2},     {22, 20, 21, 4, 5, 16, LAZY2},
        {22, 21, 22, 5, 5, 16, LAZY2},     {22, 21, 22, 6, 5, 16, LAZY2},
        {22, 22, 23, 6, 5, 32, LAZY2},     {22, 22, 22, 4, 5, 32, BTLAZY2},
        {22, 22, 23, 5, 5, 32, BTLAZY2},   {22, 23, 23, 6, 5, 32, BTLAZY2},
        {22, 22, 22, 5, 5, 48, BTOPT},     {23, 23, 22, 5, 4, 64, BTOPT},
        {23, 23, 22, 6, 3, 64, BTULTRA},   {23, 24, 22, 7, 3, 256, BTULTRA2},
        {25, 25, 23, 7, 3, 256, BTULTRA2}, {26, 26, 24, 7, 3, 512, BTULTRA2},
        {27, 27, 25, 9, 3, 999, BTULTRA2},
    },
    {
        {18, 12, 13, 1, 5, 1, FAST},       {18, 13, 14, 1, 6, 0, FAST},
        {18, 14, 14, 1, 5, 0, DFAST},      {18, 16, 16, 1, 4, 0, DFAST},
        {18, 16, 17, 3, 5, 2, GREEDY},     {18, 17, 18, 5, 5, 2, GREEDY},
        {18, 18, 19, 3, 5, 4, LAZY},       {18, 18, 19, 4, 4, 4, LAZY},
        {18, 18, 19, 4, 4, 8, LAZY2},      {18, 18, 19, 5, 4, 8, LAZY2},
        {18, 18, 19, 6, 4, 8, LAZY2},      {18, 18, 19, 5, 4, 12, BTLAZY2},
        {18, 19, 19, 7, 4, 12, BTLAZY2},   {18, 18, 19, 4, 4, 16, BTOPT},
        {18, 18, 19, 4, 3, 32, BTOPT},     {18, 18, 19, 6, 3, 128, BTOPT},
        {18, 19, 19, 6, 3, 128, BTULTRA},  {18, 19, 19, 8, 3, 256, BTULTRA},
        {18, 19, 19, 6, 3, 128, BTULTRA2}, {18, 19, 19, 8, 3, 256, BTULTRA2},
        {18, 19, 19, 10, 3, 512, BTULTRA2}, {18, 19, 19, 12, 3, 512, BTULTRA2},
        {18, 19, 19, 13, 3, 999, BTULTRA2},
    },
    {
        {17, 12, 12, 1, 5, 1, FAST},       {17, 12, 13, 1, 6, 0, FAST},
        {17, 13, 15, 1, 5, 0, FAST},       {17, 15, 16, 2, 5, 0, DFAST},
        {17, 17, 17, 2, 4, 0, DFAST},      {17, 16, 17, 3, 4, 2, GREEDY},
        {17, 16, 17, 3, 4, 4, LAZY},       {17, 16, 17, 3, 4, 8, LAZY2},
        {17, 16, 17, 4, 4, 8, LAZY2},      {17, 16, 17, 5, 4, 8, LAZY2},
        {17, 16, 17, 6, 4, 8, LAZY2},      {17, 17, 17, 5, 4, 8, BTLAZY2},
        {17, 18, 17, 7, 4, 12, BTLAZY2},   {17, 18, 17, 3, 4, 12, BTOPT},
        {17, 18, 17, 4, 3, 32, BTOPT},     {17, 18, 17, 6, 3, 256, BTOPT},
        {17, 18, 17, 6, 3, 128, BTULTRA},  {17, 18, 17, 8, 3, 256, BTULTRA},
        {17, 18, 17, 10, 3, 512, BTULTRA}, {17, 18, 17, 5, 3, 256, BTULTRA2},
        {17, 18, 17, 7, 3, 512, BTULTRA2}, {17, 18, 17, 9, 3, 512, BTULTRA2},
        {17, 18, 17, 11, 3, 999, BTULTRA2},
    },
    {
        {14, 12, 13, 1, 5, 1, FAST},       {14, 14, 15, 1, 5, 0, FAST},
        {14, 14, 15, 1, 4, 0, FAST},       {14, 14, 15, 2, 4, 0, DFAST},
        {14, 14, 14, 4, 4, 2, GREEDY},     {14, 14, 14, 3, 4, 4, LAZY},
        {14, 14, 14, 4, 4, 8, LAZY2},      {14, 14, 14, 6, 4, 8, LAZY2},
        {14, 14, 14, 8, 4, 8, LAZY2},      {14, 15, 14, 5, 4, 8, BTLAZY2},
        {14, 15, 14, 9, 4, 8, BTLAZY2},    {14, 15, 14, 3, 4, 12, BTOPT},
        {14, 15, 14, 4, 3, 24, BTOPT},     {14, 15, 14, 5, 3, 32, BTULTRA},
        {14, 15, 15, 6, 3, 64, BTULTRA},   {14, 15, 15, 7, 3, 256, BTULTRA},
        {14, 15, 15, 5, 3, 48, BTULTRA2},  {14, 15, 15, 6, 3, 128, BTULTRA2},
        {14, 15, 15, 7, 3, 256, BTULTRA2}, {14, 15, 15, 8, 3, 256, BTULTRA2},
        {14, 15, 15, 8, 3, 512, BTULTRA2}, {14, 15, 15, 9, 3, 512, BTULTRA2},
        {14, 15, 15, 10, 3, 999, BTULTRA2},
    },
};

/* The highest level with its own parameters (see the top). */
#define XC_ZSTD_LEVEL_LAST_REAL XC_ZSTD_LEVEL_MAX

static xc_zstd_cparams from_row(const level_row *r)
{
    xc_zstd_cparams p;
    p.window_log = r->wlog;
    p.chain_log = r->clog;
    p.hash_log = r->hlog;
    p.search_log = r->slog;
    p.min_match = r->mml;
    p.target_length = r->tlen;
    p.strategy = r->strat;
    return p;
}

/* The size classes of the tables.  An unknown size counts as large: the
 * parameters must then suit any input. */
static unsigned table_for(uint64_t src_size)
{
    return (unsigned)(src_size <= (256u << 10)) + (src_size <= (128u << 10)) +
           (src_size <= (16u << 10));
}

xc_zstd_cparams xc_zstd_level_params(int level, uint64_t src_size)
{
    const level_row *t = level_table[table_for(src_size)];
    int row = level == 0 ? XC_ZSTD_LEVEL_DEFAULT : level < 0 ? 0 : level;
    if (row > XC_ZSTD_LEVEL_LAST_REAL) row = XC_ZSTD_LEVEL_LAST_REAL;
    xc_zstd_cparams p = from_row(&t[row]);
    if (level < 0) {
        int l = level < XC_ZSTD_LEVEL_MIN ? XC_ZSTD_LEVEL_MIN : level;
        p.target_length = (unsigned)-l;
    }
    return xc_zstd_adapt_params(p, src_size);
}

xc_zstd_cparams xc_zstd_adapt_params(xc_zstd_cparams p, uint64_t src_size)
{
    if (src_size != XC_ZSTD_SIZE_UNKNOWN) {
        /* A window larger than the source buys nothing: shrink it to the
         * smallest power of two that holds the source (64 bytes at least,
         * the smallest hash table).  Sources beyond 1 GiB keep theirs. */
        if (src_size <= ((uint64_t)1 << 30)) {
            unsigned src_log = src_size < 64 ? 6 : xc_highbit32((uint32_t)(src_size - 1)) + 1;
            if (p.window_log > src_log) p.window_log = src_log;
        }
        /* Tables with more cells than the window has positions only spread
         * the same entries thinner.  The binary-tree strategies store two
         * cells per position in the chain table, hence the one extra bit
         * they keep. */
        unsigned bt = p.strategy >= XC_ZSTRAT_BTLAZY2;
        if (p.hash_log > p.window_log + 1) p.hash_log = p.window_log + 1;
        if (p.chain_log - bt > p.window_log) p.chain_log = p.window_log + bt;
    }
    /* The frame header cannot describe a window below 1 KiB. */
    if (p.window_log < XC_ZSTD_WINDOW_LOG_MIN) p.window_log = XC_ZSTD_WINDOW_LOG_MIN;
    if (p.hash_log < XC_ZSTD_HASHLOG_MIN) p.hash_log = XC_ZSTD_HASHLOG_MIN;
    if (p.chain_log < XC_ZSTD_CHAINLOG_MIN) p.chain_log = XC_ZSTD_CHAINLOG_MIN;
    return p;
}

xc_zstd_cparams xc_zstd_cframe_params(const xc_zstd_cctx *c, uint64_t src_size)
{
    xc_zstd_cparams p = xc_zstd_level_params(c->level, src_size);
    if (c->ldm_enable == 1) p.window_log = XC_ZLDM_WINDOW_LOG;
    return xc_zstd_adapt_params(xc_zstd_override_params(p, &c->req), src_size);
}
