/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How the match finders are compiled once per ISA variant.
 *
 * A variant file (src/portable/zstd_encode_portable.c,
 * src/x64/zstd_encode_bmi2.c, src/arm64/zstd_encode_neon.c) defines
 *
 *   XC_ZVARIANT_TARGET  the target attribute of its finders (empty, or
 *                       XC_TARGET("bmi,bmi2") on x64);
 *   XC_ZVARIANT_SIMD    1 where its finders may compare row tags with
 *                       vectors (SSE2 on x64, NEON on Arm64), 0 for plain C;
 *
 * then includes this header and the finder templates (match_*_tmpl.h).
 * Each template defines its finder bodies once, force-inlined, and
 * instantiates them with XC_ZFINDER below: one static function per
 * combination of constants (min_match, depth, row log), each on a 64-byte
 * boundary and compiled with the variant's target.  The vector and plain
 * tag comparisons find exactly the same candidates, so every variant
 * writes the same frames.  Nothing here is called at run time: it only
 * shapes the functions that the variant's kernel table points to.
 *
 * What it may call: the match state and searches (compress/match/).
 */
#ifndef XC_ZSTD_MATCH_TMPL_H
#define XC_ZSTD_MATCH_TMPL_H

#include "zstd/compress/match/match_state.h"

#if !defined(XC_ZVARIANT_TARGET) || !defined(XC_ZVARIANT_SIMD)
#  error "define XC_ZVARIANT_TARGET and XC_ZVARIANT_SIMD before including match_tmpl.h"
#endif

/* A finder instance named `name` whose body is the expression `call`,
 * which uses the finder arguments (ms, ss, rep, src, size) and may read
 * xc_simd, the variant's SIMD flag as a constant. */
#define XC_ZFINDER(name, call)                                                              \
    XC_ZVARIANT_TARGET XC_ZFINDER_ALIGN static size_t name(XC_ZFINDER_ARGS)                 \
    {                                                                                       \
        int const xc_simd = XC_ZVARIANT_SIMD;                                               \
        (void)xc_simd;                                                                      \
        return call;                                                                        \
    }

/* The body of a finder's entry point: runs table[min_match - lo], with
 * min_match clamped to lo..hi.  Every finder hashes a few positions ahead
 * of the one it searches, so a block too short for that is all literals. */
#define XC_ZFINDER_RUN(table, lo, hi)                                                       \
    do {                                                                                    \
        if (size < XC_ZSTD_HASH_READ + 4) return size;                                      \
        unsigned const xc_mls_ = XC_MIN(XC_MAX(ms->p.min_match, (lo)), (hi));               \
        return (table)[xc_mls_ - (lo)](ms, ss, rep, src, size);                             \
    } while (0)

/* Instances name_4, name_5, name_6 of a search finder whose body is
 * fn(ms, ss, rep, src, size, min_match, ..., xc_simd), and the table of
 * them that xc_zfinder_run_mls() takes ([min_match - 4]). */
#define XC_ZFINDER_MLS(name, fn, ...)                                                       \
    XC_ZFINDER(name##_4, fn(ms, ss, rep, src, size, 4, __VA_ARGS__, xc_simd))               \
    XC_ZFINDER(name##_5, fn(ms, ss, rep, src, size, 5, __VA_ARGS__, xc_simd))               \
    XC_ZFINDER(name##_6, fn(ms, ss, rep, src, size, 6, __VA_ARGS__, xc_simd))
#define XC_ZFINDER_MLS_TABLE(name) {name##_4, name##_5, name##_6}
typedef xc_zstd_block_fn xc_zfinder_mls_table[3];

static inline size_t xc_zfinder_run_mls(const xc_zfinder_mls_table *t, XC_ZFINDER_ARGS)
{
    XC_ZFINDER_RUN(*t, 4u, 6u);
}

/* What sending an offset costs, roughly, in the lazy parses' worth of a
 * match (bits saved): log2 of its Offset_Value. */
XC_FORCE_INLINE int xc_zoff_cost(uint32_t off_value) { return (int)xc_highbit32(off_value); }

#endif
