/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Huffman codes for literals (RFC 8878 §4.2): construction with a depth
 * limit, and the queries the block layer makes of a table.  The tree
 * description is written by huf_encode_table.c, the streams by
 * huf_encode_stream.c.
 *
 * ---- Construction -----------------------------------------------------------
 *
 * The present symbols are sorted by count and merged with the two-queue
 * method: leaves in ascending order in one queue, merged nodes (created in
 * ascending order of weight) in the other, the two lightest fronts merged
 * each time.  On a tie the leaf goes first, which keeps merged nodes high
 * and the deepest leaf as shallow as Huffman allows.  Only the number of
 * leaves at each depth is kept from the tree: any assignment of those
 * lengths that gives the shortest codes to the most frequent symbols costs
 * the same, so lengths are dealt out by rank.
 *
 * ---- Depth limit ------------------------------------------------------------
 *
 * Literal trees of full blocks often come out 12 or 13 deep for a few rare
 * bytes, beyond the limit L (11).  Two methods, the cheap one first:
 *
 * Repair.  Measure the tree in units of 2^-L: a code of length l uses
 * 2^(L-l) units, and a complete code uses exactly 2^L.  Clamping every
 * deeper leaf to L leaves an excess E > 0.  Lengthening a leaf of length
 * l < L by one bit returns 2^(L-l-1) units and costs its count in bits, so
 * E is repaid by lengthening, each time, the least frequent leaf of the
 * length whose units come cheapest (count per unit returned) among those
 * that do not overshoot; when none fits, the deepest length above does, and
 * the overshoot becomes slack.  Slack is spent by shortening the most
 * frequent leaf of the length that gains the most per unit; the deepest
 * length always fits the slack exactly (all lengths being at most that
 * deep, the slack is a multiple of its unit cost), so the code ends
 * complete, as the format requires.  Two local trades then polish the
 * result.  For a few leaves too deep this is all but always optimal.
 *
 * Package-merge (Larmore and Hirschberg) gives the optimum, at the price of
 * L merges of up to 2n items.  Think of each leaf as available once at
 * each of the L depths.  The list for the deepest level holds the leaves
 * by weight; the list for the level above holds the leaves again, merged
 * by weight with "packages", the pairs (1st+2nd, 3rd+4th, ...) of the list
 * below; and so on up to the top.  The 2n - 2 lightest items of the top
 * list make the optimal code: a symbol's length is the number of chosen
 * items it takes part in, as a leaf or inside packages.  Recovering the
 * lengths needs no package contents: the chosen prefix of a list holds
 * some leaves (always its lightest ones) and some packages, and k packages
 * chosen mean the first 2k items of the list below are.
 *
 * The repair is kept when it costs at most 1/128 more than the unlimited
 * Huffman code, which bounds the optimum from below; otherwise (counts
 * falling steeply over many lengths, where the repair can go astray)
 * package-merge decides.  So the result is always within 1/128 of the
 * optimum, and in practice at it.
 *
 * ---- Canonical codes --------------------------------------------------------
 *
 * §4.2.1.3: codes are assigned in ascending order to symbols sorted by
 * weight (longest codes first), then by value.  The first code of length l
 * is (first code of length l+1 + number of codes of length l+1) / 2.
 *
 * What it may call: the entropy coders (entropy/).
 */
#include "zstd/entropy/entropy_encode.h"

#define MAXB XC_HUF_ENC_MAXBITS

typedef struct {
    uint32_t count;
    uint8_t symbol;
} leaf;

/* Ascending by count, then by symbol: a least-significant-digit radix sort
 * on the count capped at 2^16 - 1 (two passes of one byte; each pass is
 * stable and the input is in symbol order, so equal counts stay in symbol
 * order), then an insertion sort of the few counts at or above the cap,
 * which all end up at the top.  Unlike comparison sorts it has no
 * data-dependent branches, and unlike bucket-then-insertion sorts it does
 * not degrade when many counts are close (flat histograms of binary
 * data). */
static unsigned sort_leaves(leaf *out, const unsigned *count, unsigned max_symbol)
{
    leaf tmp[XC_HUF_ENC_SYMBOL_MAX + 1];
    unsigned pos[2][256], sum[2] = {0, 0};
    unsigned s, i, n = 0, big, high = 0;

    /* Absent symbols are stepped over without a branch: in small sections
     * which bytes occur is close to random, and a branch on it
     * mispredicted every other symbol.  An absent symbol's slot is
     * overwritten by the next present one, and it counts nowhere. */
    memset(pos, 0, sizeof pos);
    for (s = 0; s <= max_symbol; s++) {
        unsigned const c = XC_MIN(count[s], 0xFFFFu), present = c != 0;
        tmp[n].count = count[s];
        tmp[n].symbol = (uint8_t)s;
        n += present;
        pos[0][c & 0xFF] += present;
        pos[1][c >> 8] += present;
        high |= c;
    }
    for (i = 0; i < 256; i++) {
        unsigned c0 = pos[0][i], c1 = pos[1][i];
        pos[0][i] = sum[0];
        pos[1][i] = sum[1];
        sum[0] += c0;
        sum[1] += c1;
    }
    /* Counts below 256 (every section of a few hundred literals) are
     * sorted by the first pass alone. */
    if (high < 256) {
        for (i = 0; i < n; i++) out[pos[0][tmp[i].count]++] = tmp[i];
        return n;
    }
    for (i = 0; i < n; i++) out[pos[0][XC_MIN(tmp[i].count, 0xFFFFu) & 0xFF]++] = tmp[i];
    for (i = 0; i < n; i++) tmp[pos[1][XC_MIN(out[i].count, 0xFFFFu) >> 8]++] = out[i];
    memcpy(out, tmp, n * sizeof *out);
    for (big = n; big > 0 && out[big - 1].count >= 0xFFFFu; big--) {}
    for (i = big + 1; i < n; i++) {
        leaf x = out[i];
        unsigned j = i;
        for (; j > big && out[j - 1].count > x.count; j--) out[j] = out[j - 1];
        out[j] = x;
    }
    return n;
}

/* Fills nl[l] with the number of leaves at depth l (nl sized 257) for
 * the Huffman tree of leaves[0..n), n >= 2, sorted ascending.  Returns
 * the deepest depth. */
static unsigned huffman_depths(unsigned *nl, const leaf *leaves, unsigned n)
{
    uint64_t weight[XC_HUF_ENC_SYMBOL_MAX + 1];  /* merged nodes */
    uint16_t parent[2 * (XC_HUF_ENC_SYMBOL_MAX + 1)];
    uint16_t depth[2 * (XC_HUF_ENC_SYMBOL_MAX + 1)];
    unsigned li = 0, mi = 0, made = 0, k, deepest = 0;

    /* Node ids: leaves 0..n-1, merged node j is n + j. */
    for (k = 0; k + 1 < n; k++) {
        unsigned pick[2], t;
        uint64_t w = 0;
        for (t = 0; t < 2; t++) {
            if (li < n && (mi == made || leaves[li].count <= weight[mi])) {
                pick[t] = li;
                w += leaves[li++].count;
            } else {
                pick[t] = n + mi;
                w += weight[mi++];
            }
        }
        weight[made] = w;
        parent[pick[0]] = parent[pick[1]] = (uint16_t)(n + made);
        made++;
    }
    /* The root is the last merged node; parents are created after their
     * children, so walking the merged nodes backwards sees parents first. */
    depth[n + made - 1] = 0;
    for (k = made - 1; k-- > 0;) depth[n + k] = (uint16_t)(depth[parent[n + k]] + 1);
    /* Neighbouring leaves mostly share a depth; counting them in two
     * alternating tables halves the chains of increments to one counter. */
    {
        unsigned odd[XC_HUF_ENC_SYMBOL_MAX + 2] = {0};
        for (k = 0; k < n; k++) {
            unsigned d = depth[parent[k]] + 1u;
            if (k & 1) odd[d]++;
            else nl[d]++;
            if (d > deepest) deepest = d;
        }
        for (k = 1; k <= deepest; k++) nl[k] += odd[k];
    }
    return deepest;
}

/* The rank (0 = most frequent) of the most frequent leaf of length l, when
 * lengths are dealt out by rank: all shorter lengths come first. */
static unsigned first_rank(const unsigned *nl, unsigned l)
{
    unsigned r = 0, j;
    for (j = 1; j < l; j++) r += nl[j];
    return r;
}

/* Depth limit by repair (see the top of the file), on nl[1..deepest];
 * asc[] holds the leaves in ascending order, so rank r is asc[n - 1 - r]. */
static void limit_depth(unsigned *nl, unsigned deepest, unsigned limit, const leaf *asc,
                        unsigned n)
{
    int64_t excess = 0;
    unsigned l;
#define RANK_COUNT(rank) ((uint64_t)asc[n - 1 - (rank)].count)

    for (l = limit + 1; l <= deepest; l++) {
        nl[limit] += nl[l];
        nl[l] = 0;
    }
    for (l = 1; l <= limit; l++) excess += (int64_t)nl[l] << (limit - l);
    excess -= (int64_t)1 << limit;

    /* Repay: lengthen the least frequent leaf of the length whose units
     * are cheapest, among those returning no more than the excess.  The
     * excess is below 2^limit (each clamped leaf added less than one unit
     * and there are at most 2^limit leaves), so `top` is a valid length. */
    while (excess > 0) {
        unsigned k = 63u - xc_clz64((uint64_t)excess);
        unsigned top = limit - 1 - k, best = 0;
        uint64_t best_cost = 0;
        for (l = XC_MAX(top, 1u); l < limit; l++) {
            uint64_t c;
            if (nl[l] == 0) continue;
            /* count / 2^(limit-l-1) units, scaled by 2^limit. */
            c = RANK_COUNT(first_rank(nl, l) + nl[l] - 1) << (l + 1);
            if (best == 0 || c < best_cost) best = l, best_cost = c;
        }
        if (best == 0) {
            /* Nothing that fits: the deepest shorter length overshoots.
             * One exists, or every leaf would sit at the limit, which
             * leaves no excess. */
            for (l = top; l-- > 1;)
                if (nl[l]) break;
            best = l;
        }
        nl[best]--;
        nl[best + 1]++;
        excess -= (int64_t)1 << (limit - best - 1);
    }
    /* Spend the slack: shorten the most frequent leaf of the length that
     * gains most per unit, among those that fit.  The deepest length always
     * fits, so the loop ends with the code complete. */
    while (excess < 0) {
        uint64_t slack = (uint64_t)-excess, best_gain = 0;
        unsigned best = 0;
        for (l = 2; l <= limit; l++) {
            uint64_t g;
            if (nl[l] == 0 || ((uint64_t)1 << (limit - l)) > slack) continue;
            g = RANK_COUNT(first_rank(nl, l)) << l;
            if (best == 0 || g > best_gain) best = l, best_gain = g;
        }
        nl[best]--;
        nl[best - 1]++;
        excess += (int64_t)1 << (limit - best);
    }
    /* Polish with the two smallest trades that keep the code complete:
     * three leaves of one length become one a bit shorter and two a bit
     * longer (2^-(l-1) + 2 * 2^-(l+1) = 3 * 2^-l), and the reverse: one
     * leaf a bit longer and two leaves two bits deeper each one bit
     * shorter.  Each trade is taken only when it gains, so this ends. */
    for (;;) {
        int64_t best_gain = 0;
        unsigned best_l = 0, kind = 0;
        for (l = 1; l + 2 <= limit; l++) {
            unsigned b = l + 1, fb = first_rank(nl, b);
            if (nl[b] >= 3) {
                int64_t g = (int64_t)RANK_COUNT(fb) - (int64_t)RANK_COUNT(fb + nl[b] - 1) -
                            (int64_t)RANK_COUNT(fb + nl[b] - 2);
                if (g > best_gain) best_gain = g, best_l = b, kind = 1;
            }
            if (nl[l] >= 1 && nl[l + 2] >= 2) {
                unsigned fa = first_rank(nl, l), fc = fb + nl[b];
                int64_t g = (int64_t)RANK_COUNT(fc) + (int64_t)RANK_COUNT(fc + 1) -
                            (int64_t)RANK_COUNT(fa + nl[l] - 1);
                if (g > best_gain) best_gain = g, best_l = l, kind = 2;
            }
        }
        if (kind == 0) break;
        if (kind == 1) {
            nl[best_l] -= 3;
            nl[best_l - 1] += 1;
            nl[best_l + 1] += 2;
        } else {
            nl[best_l] -= 1;
            nl[best_l + 1] += 3;
            nl[best_l + 2] -= 2;
        }
    }
#undef RANK_COUNT
}

/* Optimal lengths of at most `limit` bits for leaves[0..n), ascending,
 * by package-merge (Larmore and Hirschberg): see the top of the file.
 * Fills nl[l] with the number of leaves of length l. */
static void package_merge(unsigned *nl, const leaf *leaves, unsigned n, unsigned limit)
{
    /* Weights of two lists (this level's and the one below), and one
     * sentinel slot each, heavier than any real item: a list holds at most
     * n leaves and n - 1 packages. */
    const uint64_t heavy = (uint64_t)1 << 62;
    uint64_t w[2][2 * (XC_HUF_ENC_SYMBOL_MAX + 1) + 2], lw[XC_HUF_ENC_SYMBOL_MAX + 2];
    uint8_t is_leaf[MAXB][2 * (XC_HUF_ENC_SYMBOL_MAX + 1)];
    unsigned used[MAXB];
    unsigned len = n, j, k, i;

    for (i = 0; i < n; i++) {
        lw[i] = w[0][i] = leaves[i].count;
        is_leaf[0][i] = 1;
    }
    lw[n] = heavy;
    for (j = 1; j < limit; j++) {
        const uint64_t *below = w[(j - 1) & 1];
        uint64_t *cur = w[j & 1];
        unsigned np = len / 2, a = 0, b = 0, m;
        /* Merge the leaves with the packages (pairs of the list below).
         * The choice is data-dependent and unpredictable, so it is made
         * with selects rather than branches; on a tie the leaf goes
         * first. */
        for (m = 0; m < n + np; m++) {
            uint64_t pw = b < np ? below[2 * b] + below[2 * b + 1] : 2 * heavy;
            int take = lw[a] <= pw;
            cur[m] = take ? lw[a] : pw;
            is_leaf[j][m] = (uint8_t)take;
            a += (unsigned)take;
            b += (unsigned)!take;
        }
        len = m;
    }
    /* The 2n - 2 lightest items of the last list form the optimal code;
     * each package among them stands for two items of the list below.
     * The leaves of a list appear in ascending order, so the chosen
     * leaves of a level are always its lightest ones. */
    k = 2 * n - 2;
    for (j = limit; j-- > 0;) {
        unsigned m = 0;
        for (i = 0; i < k; i++) m += is_leaf[j][i];
        used[j] = m;
        k = 2 * (k - m);
    }
    /* Leaf i (ascending) is chosen at every level that uses more than i
     * leaves: its length is the number of such levels. */
    for (i = 0; i < n; i++) {
        unsigned l = 0;
        for (j = 0; j < limit; j++) l += i < used[j];
        nl[l]++;
    }
}

/* The total length of the code whose lengths nl[1..deepest] are dealt out
 * by rank. */
static uint64_t code_cost(const unsigned *nl, unsigned deepest, const leaf *asc, unsigned n)
{
    uint64_t cost = 0;
    unsigned l, k, r = n;
    for (l = 1; l <= deepest; l++)
        for (k = 0; k < nl[l]; k++) cost += (uint64_t)asc[--r].count * l;
    return cost;
}

/* nl[1..limit] for a code of at most limit bits, from the unlimited
 * tree's nl[1..deepest] (changed in place); returns the depth. */
static unsigned limit_counts(unsigned *nl, unsigned deepest, unsigned limit, const leaf *asc,
                             unsigned n)
{
    if (deepest <= limit) return deepest;
    /* Repair first, and keep the result when it costs at most 1/128 more
     * than the unlimited Huffman code (a lower bound of the optimum): the
     * usual case of a few rare symbols too deep, where the repair is all
     * but always optimal.  Otherwise the counts fall steeply over many
     * lengths, the repair may go astray, and package-merge gives the
     * optimum. */
    uint64_t const unlimited = code_cost(nl, deepest, asc, n);
    limit_depth(nl, deepest, limit, asc, n);
    if (code_cost(nl, limit, asc, n) * 128 > unlimited * 129) {
        memset(nl, 0, (XC_HUF_ENC_SYMBOL_MAX + 2) * sizeof *nl);
        package_merge(nl, asc, n, limit);
    }
    return limit;
}

/* Deals the lengths out by rank: the most frequent symbol (the end of
 * asc) gets the shortest. */
static void deal_lengths(uint8_t *len, unsigned nsym, const unsigned *nl, unsigned deepest,
                         const leaf *asc, unsigned n)
{
    unsigned l, r = n;
    memset(len, 0, nsym);
    for (l = 1; l <= deepest; l++) {
        unsigned k;
        for (k = 0; k < nl[l]; k++) len[asc[--r].symbol] = (uint8_t)l;
    }
}

/* Sorts the leaves and builds the unlimited tree; returns the number of
 * symbols present (below 2: no tree) and the tree's depth in *deepest, and
 * raises *max_bits to what n symbols need, ceil(log2(n)). */
static unsigned unlimited_tree(leaf *asc, unsigned *nl, unsigned *deepest, unsigned *max_bits,
                               const unsigned *count, unsigned max_symbol)
{
    unsigned const n = sort_leaves(asc, count, max_symbol);
    if (n < 2) return n;
    if (*max_bits < 1) *max_bits = 1;
    while ((1u << *max_bits) < n) (*max_bits)++;
    memset(nl, 0, (XC_HUF_ENC_SYMBOL_MAX + 2) * sizeof *nl);
    *deepest = huffman_depths(nl, asc, n);
    return n;
}

size_t xc_huf_build_ctable(xc_huf_ctable *ct, const unsigned *count, unsigned max_symbol,
                           unsigned max_bits)
{
    leaf asc[XC_HUF_ENC_SYMBOL_MAX + 1];
    unsigned nl[XC_HUF_ENC_SYMBOL_MAX + 2]; /* a tree of n leaves is at most n - 1 deep */
    uint8_t len[XC_HUF_ENC_SYMBOL_MAX + 1];
    unsigned n, deepest = 0;

    RETURN_ERROR_IF(max_symbol > XC_HUF_ENC_SYMBOL_MAX || max_bits > MAXB, BAD_PARAMETER);
    memset(ct->elt, 0, sizeof ct->elt);
    ct->max_symbol = 0;
    ct->depth = 0;

    n = unlimited_tree(asc, nl, &deepest, &max_bits, count, max_symbol);
    if (n < 2) return 0;
    deepest = limit_counts(nl, deepest, max_bits, asc, n);
    deal_lengths(len, max_symbol + 1, nl, deepest, asc, n);
    return xc_huf_assign_codes(ct, len, max_symbol + 1);
}

size_t xc_huf_build_smallest(xc_huf_ctable *ct, const unsigned *count, unsigned max_symbol,
                             uint8_t *table, size_t cap, size_t *table_size)
{
    leaf asc[XC_HUF_ENC_SYMBOL_MAX + 1];
    unsigned nl0[XC_HUF_ENC_SYMBOL_MAX + 2], nl[XC_HUF_ENC_SYMBOL_MAX + 2];
    uint8_t len[XC_HUF_ENC_SYMBOL_MAX + 1], best_len[XC_HUF_ENC_SYMBOL_MAX + 1];
    uint8_t desc[XC_HUF_TABLE_BOUND];
    unsigned n, deepest = 0, need = 1, limit, last = 0, s;
    size_t best = SIZE_MAX;

    RETURN_ERROR_IF(max_symbol > XC_HUF_ENC_SYMBOL_MAX || cap < XC_HUF_TABLE_BOUND, BAD_PARAMETER);
    memset(ct->elt, 0, sizeof ct->elt);
    ct->max_symbol = 0;
    ct->depth = 0;
    *table_size = 0;

    n = unlimited_tree(asc, nl0, &deepest, &need, count, max_symbol);
    if (n < 2) return 0;
    for (s = 0; s <= max_symbol; s++) last = count[s] ? s : last;
    /* Upwards from the shallowest tree the symbols allow, while the total
     * shrinks (allowing one byte of noise): the smallest sections, where
     * the search pays, have their best depth near the bottom.  These
     * candidates are limited by repair alone, without package-merge's
     * check: what is weighed is what is sent.  The last candidate is
     * always xc_huf_build_ctable's own tree, so the result is never larger
     * than it. */
    unsigned const top = XC_MIN(deepest, (unsigned)MAXB);
    for (limit = need; limit <= top; limit++) {
        int const last_try = limit == top;
        memcpy(nl, nl0, sizeof nl);
        unsigned const depth = last_try ? limit_counts(nl, deepest, limit, asc, n)
                                        : XC_MIN(deepest, limit);
        if (!last_try && deepest > limit) limit_depth(nl, deepest, limit, asc, n);
        deal_lengths(len, last + 1, nl, depth, asc, n);
        size_t const ts = xc_huf_write_lengths(desc, sizeof desc, len, last, depth);
        FORWARD_IF_ERROR(ts);
        /* Undescribable (all 256 bytes at 8 bits, say): a deeper tree may
         * still be, so go on. */
        if (ts == 0) continue;
        size_t const total = ts + (size_t)(code_cost(nl, depth, asc, n) >> 3);
        if (total < best) {
            best = total;
            memcpy(best_len, len, last + 1);
            memcpy(table, desc, ts);
            *table_size = ts;
        } else if (total > best + 1 && limit < top) {
            limit = top - 1; /* on to the last candidate */
        }
    }
    if (best == SIZE_MAX) {
        /* No depth can be described: xc_huf_build_ctable's tree, for a
         * caller that uses the codes alone. */
        memcpy(nl, nl0, sizeof nl);
        unsigned const depth = limit_counts(nl, deepest, MAXB, asc, n);
        deal_lengths(best_len, last + 1, nl, depth, asc, n);
    }
    return xc_huf_assign_codes(ct, best_len, last + 1);
}

/* Canonical codes (RFC 8878 §4.2.1): the codes of one length are
 * consecutive, in symbol order, and the first code of length l - 1 is the
 * one after the last of length l with its last bit dropped; the longest
 * codes start at 0.  This is the order the decoder sorts symbols in
 * (huf_decode_table.c), so both agree on every code. */
unsigned xc_huf_assign_codes(xc_huf_ctable *ct, const uint8_t *len, unsigned nsym)
{
    unsigned nl[MAXB + 2] = {0};
    uint32_t next[MAXB + 2];
    unsigned depth = 0, l, s, last = 0;
    for (s = 0; s < nsym; s++) {
        nl[len[s]]++;
        if (len[s] > depth) depth = len[s];
    }
    next[0] = 0;
    next[depth] = 0;
    for (l = depth; l > 1; l--) next[l - 1] = (next[l] + nl[l]) >> 1;
    /* Without a branch on whether a symbol has a code (close to random in
     * small sections): an absent symbol draws from next[0], which nothing
     * else uses, and its entry is masked to 0. */
    for (s = 0; s < nsym; s++) {
        unsigned const n = len[s];
        uint64_t const keep = (uint64_t)0 - (n != 0);
        uint64_t const code = (uint64_t)next[n]++ << ((64 - n) & 63);
        ct->elt[s] = (code | n) & keep;
        last = n ? s : last;
    }
    ct->max_symbol = last;
    ct->depth = depth;
    return depth;
}

size_t xc_huf_estimate_size(const xc_huf_ctable *ct, const unsigned *count, unsigned max_symbol)
{
    uint64_t bits = 0;
    unsigned s;
    for (s = 0; s <= max_symbol && s <= XC_HUF_ENC_SYMBOL_MAX; s++)
        bits += (uint64_t)count[s] * (ct->elt[s] & 0xFF);
    return (size_t)(bits >> 3);
}

/* floor(65536 * log2(1 + i / 256)) for i = 0..256 (generated once with
 * double precision; the bounds below allow one unit of error either way). */
static const uint32_t k_log2_mantissa[257] = {
    0, 368, 735, 1101, 1465, 1828, 2190, 2550, 2909, 3266,
    3622, 3977, 4331, 4683, 5034, 5383, 5731, 6078, 6424, 6769,
    7112, 7454, 7794, 8134, 8472, 8809, 9145, 9480, 9813, 10146,
    10477, 10807, 11136, 11463, 11790, 12115, 12440, 12763, 13085, 13406,
    13726, 14045, 14363, 14680, 14995, 15310, 15624, 15936, 16248, 16558,
    16868, 17176, 17484, 17790, 18096, 18400, 18704, 19006, 19308, 19608,
    19908, 20207, 20505, 20801, 21097, 21392, 21686, 21980, 22272, 22563,
    22854, 23143, 23432, 23720, 24007, 24293, 24578, 24862, 25146, 25429,
    25710, 25991, 26272, 26551, 26829, 27107, 27384, 27660, 27935, 28210,
    28483, 28756, 29028, 29300, 29570, 29840, 30109, 30377, 30644, 30911,
    31177, 31442, 31707, 31971, 32234, 32496, 32757, 33018, 33278, 33538,
    33796, 34054, 34312, 34568, 34824, 35079, 35334, 35588, 35841, 36093,
    36345, 36596, 36847, 37096, 37346, 37594, 37842, 38089, 38336, 38582,
    38827, 39071, 39315, 39559, 39801, 40044, 40285, 40526, 40766, 41006,
    41245, 41483, 41721, 41959, 42195, 42431, 42667, 42902, 43136, 43370,
    43603, 43836, 44068, 44299, 44530, 44760, 44990, 45219, 45448, 45676,
    45904, 46131, 46357, 46583, 46808, 47033, 47257, 47481, 47704, 47927,
    48149, 48371, 48592, 48813, 49033, 49253, 49472, 49690, 49909, 50126,
    50343, 50560, 50776, 50992, 51207, 51421, 51635, 51849, 52062, 52275,
    52487, 52699, 52910, 53121, 53331, 53541, 53751, 53960, 54168, 54376,
    54584, 54791, 54998, 55204, 55410, 55615, 55820, 56024, 56228, 56432,
    56635, 56837, 57040, 57242, 57443, 57644, 57844, 58044, 58244, 58443,
    58642, 58841, 59039, 59236, 59433, 59630, 59827, 60023, 60218, 60413,
    60608, 60802, 60996, 61190, 61383, 61576, 61768, 61960, 62152, 62343,
    62534, 62724, 62914, 63104, 63293, 63482, 63671, 63859, 64047, 64234,
    64421, 64608, 64794, 64980, 65165, 65351, 65536};

/* log2(x) in Q16 for x >= 1: from below when high is 0, else from above.
 * The leading bit gives the integer part, the next 8 bits index the
 * table; the bits below move the value by less than one table step. */
static uint64_t log2_q16_bound(uint64_t x, int high)
{
    unsigned const h = 63u - xc_clz64(x);
    unsigned const i = (unsigned)(h >= 8 ? x >> (h - 8) : x << (8 - h)) & 0xFFu;
    uint64_t const whole = (uint64_t)h << 16;
    return high ? whole + k_log2_mantissa[i + 1] + 1 : whole + k_log2_mantissa[i] - (i > 0);
}

size_t xc_huf_payload_floor(const unsigned *count, unsigned max_symbol, size_t total)
{
    /* total * log2(total) - sum c * log2(c) bits, each term rounded the
     * safe way. */
    uint64_t const whole = (uint64_t)total * log2_q16_bound(total ? total : 1, 0);
    uint64_t parts = 0;
    unsigned s;
    if (total < 2) return 0;
    for (s = 0; s <= max_symbol && s <= XC_HUF_ENC_SYMBOL_MAX; s++) {
        uint64_t const c = count[s];
        parts += c ? c * log2_q16_bound(c, 1) : 0;
    }
    return parts >= whole ? 0 : (size_t)((whole - parts) >> 19);
}

int xc_huf_valid_for(const xc_huf_ctable *ct, const unsigned *count, unsigned max_symbol)
{
    unsigned s;
    for (s = 0; s <= max_symbol; s++) {
        if (!count[s]) continue;
        if (s > ct->max_symbol || (ct->elt[s] & 0xFF) == 0) return 0;
    }
    return 1;
}
