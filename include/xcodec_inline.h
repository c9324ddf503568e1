/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xcodec_inline.h: the Internet checksum (RFC 1071) as static inline
 * functions, for lengths the compiler knows: an IPv4 header, an IPv6-sized
 * 40 bytes (the TCP/UDP pseudo-header over IPv6 is 40 bytes), or any small
 * constant.  Compiled into the caller, they cost no call at all, which is
 * what a 20-byte checksum costs most through a library: the call into a
 * shared library takes about as long as the whole sum (README.md, "Which
 * checksum function").  For lengths known only at run time, and for
 * anything longer than a few cache lines, call xc_inet_sum() and
 * xc_inet_checksum() in the library instead: they pick a vector kernel for
 * the CPU and are much faster on long buffers.
 *
 * The results are those of the library's functions: xc_inline_inet_fold()
 * of xc_inline_inet_sum() equals xc_inet_fold() of xc_inet_sum() for the
 * same starting sum and bytes, and each function below equals the library
 * function it names, bit for bit (tests/test_inline.c holds them to it).
 * The 32-bit partial sums themselves may differ, as they may between the
 * library's own kernels; only their class modulo 0xFFFF is defined, and
 * partial sums from either side may be mixed, combined and folded freely.
 *
 * Nothing here needs the library: this header includes only <stddef.h>,
 * <stdint.h> and <string.h>, and works from C99 and C++.  Every function is
 * thread-safe, reads its len bytes and nothing else (any alignment; data
 * may be NULL when len is 0), and writes nothing.
 */
#ifndef XCODEC_INLINE_H
#define XCODEC_INLINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Compiled for AVX-512 BW (-mavx512bw, or -march=native on a CPU that has
 * it, as DPDK programs are), xc_inline_inet_sum() reads 64 bytes a vector,
 * the last ones with a masked load.  XC_INLINE_NO_VECTOR keeps it scalar. */
#if defined(__AVX512BW__) && defined(__x86_64__) && !defined(XC_INLINE_NO_VECTOR)
#  define XC_INLINE_AVX512_ 1
#  include <immintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 1 on a little-endian CPU.  With GCC and clang a constant; elsewhere a
 * test the compiler folds. */
static inline int xc_inline_little_endian_(void)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
    return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#else
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
#endif
}

/*
 * xc_inline_inet_sum() adds len bytes at data, read as big-endian 16-bit
 * words (an odd last byte padded with zero), to the partial sum `sum` and
 * returns the new partial sum, as xc_inet_sum() does.  With a constant len
 * the loop below unrolls into len/4 loads and adds.  Any len below 64 GiB
 * (the total below is exact up to there), though past a few hundred bytes
 * xc_inet_sum() is faster.
 *
 * How: native 64-bit loads add into a 64-bit total with their carries
 * counted (32-bit loads, exactly, on 32-bit targets), which is folded to
 * 32 bits with end-around carries; each 64-bit or 32-bit word is congruent
 * to the sum of its 16-bit pieces modulo 0xFFFF.  On a little-endian CPU the
 * words are byte-swapped, and swapping the bytes of a ones'-complement sum
 * gives the sum of the swapped words (RFC 1071 section 2(B)); modulo
 * 2^32 - 1, a byte swap of 16-bit words is a rotation by 8.  Nothing turns a
 * non-zero total into zero, so the result is zero only when sum and every
 * byte are, as with the library (0x0000 and 0xFFFF stay apart).
 */
static inline uint32_t xc_inline_inet_finish_(uint64_t t, uint32_t sum)
{
    /* The high half of t plus t rotated by 32 is hi + lo + the carry out of
     * lo + hi: the end-around sum, in one rotation, one add, one shift. */
    uint32_t s = (uint32_t)((t + ((t >> 32) | (t << 32))) >> 32);
    if (xc_inline_little_endian_()) s = (s << 8) | (s >> 24);
    uint64_t r = (uint64_t)s + sum;
    return (uint32_t)r + (uint32_t)(r >> 32);
}

static inline uint64_t xc_inline_word_(const unsigned char *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

#if defined(XC_INLINE_AVX512_)
/* The total of len bytes as little-endian 32-bit words, 64 bytes at a time:
 * each 64-bit lane takes the sum of its two halves, a mask and a shift
 * apart, so a lane gains less than 2^33 per vector.  The last 1 to 64 bytes
 * come from a masked load, which reads nothing outside the buffer (and
 * nothing at all for len 0, where data may be NULL). */
static inline uint64_t xc_inline_avx512_total_(const unsigned char *p, size_t len)
{
    const __m512i lo = _mm512_set1_epi64(0xFFFFFFFF);
    __m512i acc = _mm512_setzero_si512(), x;
    for (; len > 64; len -= 64, p += 64) {
        x = _mm512_loadu_si512((const void *)p);
        acc = _mm512_add_epi64(acc, _mm512_add_epi64(_mm512_and_si512(x, lo),
                                                     _mm512_srli_epi64(x, 32)));
    }
    __mmask64 m = _cvtu64_mask64(len >= 64 ? ~0ull : ~(~0ull << len));
    x = _mm512_maskz_loadu_epi8(m, (const void *)p);
    acc = _mm512_add_epi64(acc, _mm512_add_epi64(_mm512_and_si512(x, lo),
                                                 _mm512_srli_epi64(x, 32)));
    return (uint64_t)_mm512_reduce_add_epi64(acc);
}
#endif

static inline uint32_t xc_inline_inet_sum(uint32_t sum, const void *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t t = 0;
    size_t i = 0;
#if defined(XC_INLINE_AVX512_)
    (void)i;
    t = xc_inline_avx512_total_(p, len);
#elif UINTPTR_MAX > 0xFFFFFFFFu
    /* On 64-bit targets, 8 bytes at a time with the carries counted apart:
     * GCC and clang make each word one add with its load folded in and one
     * add-with-carry, half the instructions of the 32-bit loads below,
     * which is what bounds a short checksum.  The carries (each worth 2^64,
     * congruent to 1 modulo 2^64 - 1 and so modulo 2^32 - 1) are added back
     * with the end-around carry.  (A 128-bit accumulator, tried first, made
     * GCC 12 spill it to the stack.) */
    uint64_t c = 0, v;
#  if defined(__clang__)
#    pragma unroll 16
#  elif defined(__GNUC__)
#    pragma GCC unroll 16
#  endif
    for (; i + 8 <= len; i += 8) {
        memcpy(&v, p + i, 8);
        t += v;
        c += t < v;
    }
    if (len & 4) {
        v = xc_inline_word_(p + i);
        t += v;
        c += t < v;
        i += 4;
    }
    if (len & 2) {
        uint16_t h;
        memcpy(&h, p + i, 2);
        t += h;
        c += t < h;
        i += 2;
    }
    if (len & 1) {
        v = xc_inline_little_endian_() ? (uint64_t)p[i] : (uint64_t)p[i] << 8;
        t += v;
        c += t < v;
    }
    t += c;
    t += t < c;
#else
    /* Unrolled, a constant length is straight-line code (GCC does not peel
     * a loop of five at -O2 otherwise). */
#  if defined(__clang__)
#    pragma unroll 16
#  elif defined(__GNUC__)
#    pragma GCC unroll 16
#  endif
    for (; i + 4 <= len; i += 4) t += xc_inline_word_(p + i);
    if (len & 2) {
        uint16_t h;
        memcpy(&h, p + i, 2);
        t += h;
        i += 2;
    }
    if (len & 1) t += xc_inline_little_endian_() ? (uint64_t)p[i] : (uint64_t)p[i] << 8;
#endif
    return xc_inline_inet_finish_(t, sum);
}

/*
 * xc_inline_inet_fold() folds a partial sum to 16 bits with end-around
 * carries and complements it, as xc_inet_fold() does: the value of a
 * checksum field.
 */
static inline uint16_t xc_inline_inet_fold(uint32_t sum)
{
    /* The same rotation trick, on 16-bit halves. */
    uint32_t t = sum + ((sum << 16) | (sum >> 16));
    return (uint16_t)~(t >> 16);
}

/*
 * xc_inline_inet_checksum() is xc_inline_inet_fold(xc_inline_inet_sum(0,
 * data, len)): the value of a checksum field over len bytes, as
 * xc_inet_checksum() computes it.
 */
static inline uint16_t xc_inline_inet_checksum(const void *data, size_t len)
{
    return xc_inline_inet_fold(xc_inline_inet_sum(0, data, len));
}

/*
 * xc_inline_ipv4_checksum() is xc_inet_checksum(hdr, 20): the checksum of
 * an IPv4 header without options (IHL 5).  With the header's checksum
 * field (bytes 10 and 11) zero it gives the value to store there, high
 * byte first; over a received header, field included, it gives 0 when the
 * header is intact.  For a header with options use
 * xc_inline_inet_checksum(hdr, 4 * ihl).
 */
static inline uint16_t xc_inline_ipv4_checksum(const void *hdr)
{
    /* Written out, so that every compiler makes it five loads and adds. */
    const unsigned char *p = (const unsigned char *)hdr;
    uint64_t t = (xc_inline_word_(p) + xc_inline_word_(p + 4)) +
                 (xc_inline_word_(p + 8) + xc_inline_word_(p + 12)) + xc_inline_word_(p + 16);
    return xc_inline_inet_fold(xc_inline_inet_finish_(t, 0));
}

/*
 * xc_inline_inet_checksum40() is xc_inet_checksum(data, 40): 40 bytes, the
 * size of an IPv6 header and of the IPv6 pseudo-header of TCP and UDP
 * (RFC 8200 section 8.1).  To checksum a UDP datagram over IPv6, start with
 * xc_inline_inet_sum(0, pseudo, 40) and continue with xc_inet_sum() over
 * the datagram.
 */
static inline uint16_t xc_inline_inet_checksum40(const void *data)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t a = (xc_inline_word_(p) + xc_inline_word_(p + 4)) +
                 (xc_inline_word_(p + 8) + xc_inline_word_(p + 12)) + xc_inline_word_(p + 16);
    uint64_t b = (xc_inline_word_(p + 20) + xc_inline_word_(p + 24)) +
                 (xc_inline_word_(p + 28) + xc_inline_word_(p + 32)) + xc_inline_word_(p + 36);
    return xc_inline_inet_fold(xc_inline_inet_finish_(a + b, 0));
}

#ifdef __cplusplus
}
#endif

#endif /* XCODEC_INLINE_H */
