/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal helpers shared by every file of the library: compiler attributes,
 * unaligned little/big-endian memory access, bit scans and the error macros.
 * Nothing here is part of the ABI.
 */
#ifndef XC_INTERNAL_H
#define XC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xcodec.h"

/* ---- compiler ----------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#  define XC_HIDDEN __attribute__((visibility("hidden")))
#  define XC_LIKELY(x) __builtin_expect(!!(x), 1)
#  define XC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#  define XC_FORCE_INLINE static inline __attribute__((always_inline))
#  define XC_NOINLINE __attribute__((noinline))
#  define XC_TARGET(s) __attribute__((target(s)))
#  define XC_PREFETCH(p) __builtin_prefetch((p), 0, 3)
#  define XC_ALIGNED(n) __attribute__((aligned(n)))
#else
#  define XC_HIDDEN
#  define XC_LIKELY(x) (x)
#  define XC_UNLIKELY(x) (x)
#  define XC_FORCE_INLINE static inline
#  define XC_NOINLINE
#  define XC_TARGET(s)
#  define XC_PREFETCH(p) ((void)(p))
#  define XC_ALIGNED(n)
#endif

/* For the entry functions of the short checksum paths: branch targets
 * reached only by jumping start on a 64-byte boundary (GCC's -falign-jumps),
 * and paths that end alike are not merged into one tail (-fno-crossjumping).
 * A taken branch ends a fetch, a target near the end of a 64-byte window
 * costs another one before the path gets going, and a merged tail is one
 * more jump; aligned and unmerged, a short path runs the same in every
 * program, whatever the linker put before it.  clang has no per-function
 * form and keeps its own layout. */
#if defined(__GNUC__) && !defined(__clang__)
#  define XC_ALIGN_JUMPS __attribute__((optimize("align-jumps=64", "no-crossjumping")))
#else
#  define XC_ALIGN_JUMPS
#endif

#if defined(__x86_64__) || defined(_M_X64)
#  define XC_ARCH_X64 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#  define XC_ARCH_ARM64 1
#endif

/* XCODEC_FORCE_PORTABLE (a CMake option) builds the portable kernels only. */
#if defined(XCODEC_FORCE_PORTABLE)
#  undef XC_ARCH_X64
#  undef XC_ARCH_ARM64
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#  define XC_BIG_ENDIAN 1
#else
#  define XC_BIG_ENDIAN 0
#endif

#define XC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define XC_MAX(a, b) ((a) > (b) ? (a) : (b))
#define XC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- byte order and unaligned access ----------------------------------- */

static inline uint16_t xc_bswap16(uint16_t x) { return (uint16_t)((x >> 8) | (x << 8)); }
static inline uint32_t xc_bswap32(uint32_t x) { return __builtin_bswap32(x); }
static inline uint64_t xc_bswap64(uint64_t x) { return __builtin_bswap64(x); }

static inline uint16_t xc_read16(const void *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t xc_read32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t xc_read64(const void *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline size_t xc_read_st(const void *p) { size_t v; memcpy(&v, p, sizeof v); return v; }
static inline void xc_write16(void *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void xc_write32(void *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void xc_write64(void *p, uint64_t v) { memcpy(p, &v, 8); }

static inline uint16_t xc_read_le16(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint16_t)(b[0] | (b[1] << 8));
}
static inline uint32_t xc_read_le24(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16);
}
static inline uint32_t xc_read_le32(const void *p)
{
    uint32_t v = xc_read32(p);
    return XC_BIG_ENDIAN ? xc_bswap32(v) : v;
}
static inline uint64_t xc_read_le64(const void *p)
{
    uint64_t v = xc_read64(p);
    return XC_BIG_ENDIAN ? xc_bswap64(v) : v;
}
static inline size_t xc_read_le_st(const void *p)
{
    return sizeof(size_t) == 8 ? (size_t)xc_read_le64(p) : (size_t)xc_read_le32(p);
}
/* One store, not two byte stores: gcc 12 does not merge byte stores, and
 * the Huffman X2 decoder writes two symbols at once through this. */
static inline void xc_write_le16(void *p, uint16_t v)
{
    xc_write16(p, XC_BIG_ENDIAN ? xc_bswap16(v) : v);
}
static inline void xc_write_le24(void *p, uint32_t v)
{
    xc_write_le16(p, (uint16_t)v);
    ((uint8_t *)p)[2] = (uint8_t)(v >> 16);
}
static inline void xc_write_le32(void *p, uint32_t v)
{
    xc_write32(p, XC_BIG_ENDIAN ? xc_bswap32(v) : v);
}
static inline void xc_write_le64(void *p, uint64_t v)
{
    xc_write64(p, XC_BIG_ENDIAN ? xc_bswap64(v) : v);
}
static inline uint32_t xc_read_be32(const void *p)
{
    uint32_t v = xc_read32(p);
    return XC_BIG_ENDIAN ? v : xc_bswap32(v);
}

/* ---- bit scans (x must be non-zero) ------------------------------------ */

static inline unsigned xc_highbit32(uint32_t x) { return 31u - (unsigned)__builtin_clz(x); }
static inline unsigned xc_ctz64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }
static inline unsigned xc_clz64(uint64_t x) { return (unsigned)__builtin_clzll(x); }

/* ---- errors --------------------------------------------------------------
 * An error travels as a size_t equal to -(enum xc_error), so that a caller
 * tests one comparison and valid sizes are never taken for errors. */

#define XC_ERROR(name) ((size_t)0 - (size_t)(XC_ERROR_##name))
#define XC_ERROR_CODE_LIMIT 100u

static inline int xc_iserr(size_t r) { return r > (size_t)0 - XC_ERROR_CODE_LIMIT; }

/* Return the named error when cond holds. */
#define RETURN_ERROR_IF(cond, name)                                            \
    do {                                                                       \
        if (XC_UNLIKELY(cond)) return XC_ERROR(name);                          \
    } while (0)

/* Evaluate expr once; return its value from the caller when it is an error. */
#define FORWARD_IF_ERROR(expr)                                                 \
    do {                                                                       \
        size_t const xc_fwd_r_ = (expr);                                       \
        if (XC_UNLIKELY(xc_iserr(xc_fwd_r_))) return xc_fwd_r_;                \
    } while (0)

#endif /* XC_INTERNAL_H */
