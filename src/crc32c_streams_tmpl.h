/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Template: CRC32C with a 64-bit crc32 instruction in three interleaved
 * streams, for CPUs that have the instruction but no carry-less multiply.
 * Included by x64/crc32c_sse42.c (crc32q) and arm64/crc32c_crc.c (CRC32CX),
 * whose bodies are the same.
 *
 * Parameters, defined by the including file and #undef'ed at the end:
 *   XC_STREAMS_FUNC          name of the kernel (xc_crc32c_fn signature)
 *   XC_STREAMS_TARGET        target attribute for the ISA
 *   XC_STREAMS_WORD(c, w)    the crc32 instruction on a 64-bit word, with a
 *                            64-bit state (see crc32c_internal.h)
 *   XC_STREAMS_SHORT(c,p,n)  crc32c_internal.h's short-input path
 *
 * The instruction has a latency of three cycles and a throughput of one per
 * cycle (Intel since Nehalem, AMD since Zen, most Arm cores), so one
 * dependent chain runs at a third of the speed the unit allows.  Three
 * chains over three consecutive blocks A, B, C of L bytes keep it busy; then
 * state(ABC) = (state(A) * x^8L + state(B)) * x^8L + state(C), starting B
 * and C from zero.  Without a multiplier the product by the fixed x^8L is a
 * table lookup per nibble of the state: shift_L[i][j] = (j << 4i) * x^8L
 * mod P (reflected), eight loads and XORs.  Block sizes 2048, 256 and 64
 * bytes are tried in turn, so long inputs pay one merge (about 15 cycles)
 * per 6 KiB and inputs of a few hundred bytes still use three streams.
 *
 * The tables were printed by a throwaway Python script from
 * shift_L[i][j] = crc32q(0, clmul(j << 4i, x^(8L - 33) mod P)), and checked
 * there against running zero bytes through the bitwise algorithm.
 */

static const uint32_t shift_2048[8][16] = {
    {
        0x00000000, 0xf7506984, 0xeb4ca5f9, 0x1c1ccc7d,
        0xd3753d03, 0x24255487, 0x383998fa, 0xcf69f17e,
        0xa3060cf7, 0x54566573, 0x484aa90e, 0xbf1ac08a,
        0x707331f4, 0x87235870, 0x9b3f940d, 0x6c6ffd89,
    },
    {
        0x00000000, 0x43e06f1f, 0x87c0de3e, 0xc420b121,
        0x0a6dca8d, 0x498da592, 0x8dad14b3, 0xce4d7bac,
        0x14db951a, 0x573bfa05, 0x931b4b24, 0xd0fb243b,
        0x1eb65f97, 0x5d563088, 0x997681a9, 0xda96eeb6,
    },
    {
        0x00000000, 0x29b72a34, 0x536e5468, 0x7ad97e5c,
        0xa6dca8d0, 0x8f6b82e4, 0xf5b2fcb8, 0xdc05d68c,
        0x48552751, 0x61e20d65, 0x1b3b7339, 0x328c590d,
        0xee898f81, 0xc73ea5b5, 0xbde7dbe9, 0x9450f1dd,
    },
    {
        0x00000000, 0x90aa4ea2, 0x24b8ebb5, 0xb412a517,
        0x4971d76a, 0xd9db99c8, 0x6dc93cdf, 0xfd63727d,
        0x92e3aed4, 0x0249e076, 0xb65b4561, 0x26f10bc3,
        0xdb9279be, 0x4b38371c, 0xff2a920b, 0x6f80dca9,
    },
    {
        0x00000000, 0x202b2b59, 0x405656b2, 0x607d7deb,
        0x80acad64, 0xa087863d, 0xc0fafbd6, 0xe0d1d08f,
        0x04b52c39, 0x249e0760, 0x44e37a8b, 0x64c851d2,
        0x8419815d, 0xa432aa04, 0xc44fd7ef, 0xe464fcb6,
    },
    {
        0x00000000, 0x096a5872, 0x12d4b0e4, 0x1bbee896,
        0x25a961c8, 0x2cc339ba, 0x377dd12c, 0x3e17895e,
        0x4b52c390, 0x42389be2, 0x59867374, 0x50ec2b06,
        0x6efba258, 0x6791fa2a, 0x7c2f12bc, 0x75454ace,
    },
    {
        0x00000000, 0x96a58720, 0x28a778b1, 0xbe02ff91,
        0x514ef162, 0xc7eb7642, 0x79e989d3, 0xef4c0ef3,
        0xa29de2c4, 0x343865e4, 0x8a3a9a75, 0x1c9f1d55,
        0xf3d313a6, 0x65769486, 0xdb746b17, 0x4dd1ec37,
    },
    {
        0x00000000, 0x40d7b379, 0x81af66f2, 0xc178d58b,
        0x06b2bb15, 0x4665086c, 0x871ddde7, 0xc7ca6e9e,
        0x0d65762a, 0x4db2c553, 0x8cca10d8, 0xcc1da3a1,
        0x0bd7cd3f, 0x4b007e46, 0x8a78abcd, 0xcaaf18b4,
    },
};
static const uint32_t shift_256[8][16] = {
    {
        0x00000000, 0xdcb17aa4, 0xbc8e83b9, 0x603ff91d,
        0x7cf17183, 0xa0400b27, 0xc07ff23a, 0x1cce889e,
        0xf9e2e306, 0x255399a2, 0x456c60bf, 0x99dd1a1b,
        0x85139285, 0x59a2e821, 0x399d113c, 0xe52c6b98,
    },
    {
        0x00000000, 0xf629b0fd, 0xe9bf170b, 0x1f96a7f6,
        0xd69258e7, 0x20bbe81a, 0x3f2d4fec, 0xc904ff11,
        0xa8c8c73f, 0x5ee177c2, 0x4177d034, 0xb75e60c9,
        0x7e5a9fd8, 0x88732f25, 0x97e588d3, 0x61cc382e,
    },
    {
        0x00000000, 0x547df88f, 0xa8fbf11e, 0xfc860991,
        0x541b94cd, 0x00666c42, 0xfce065d3, 0xa89d9d5c,
        0xa837299a, 0xfc4ad115, 0x00ccd884, 0x54b1200b,
        0xfc2cbd57, 0xa85145d8, 0x54d74c49, 0x00aab4c6,
    },
    {
        0x00000000, 0x558225c5, 0xab044b8a, 0xfe866e4f,
        0x53e4e1e5, 0x0666c420, 0xf8e0aa6f, 0xad628faa,
        0xa7c9c3ca, 0xf24be60f, 0x0ccd8840, 0x594fad85,
        0xf42d222f, 0xa1af07ea, 0x5f2969a5, 0x0aab4c60,
    },
    {
        0x00000000, 0x4a7ff165, 0x94ffe2ca, 0xde8013af,
        0x2c13b365, 0x666c4200, 0xb8ec51af, 0xf293a0ca,
        0x582766ca, 0x125897af, 0xccd88400, 0x86a77565,
        0x7434d5af, 0x3e4b24ca, 0xe0cb3765, 0xaab4c600,
    },
    {
        0x00000000, 0xb04ecd94, 0x6571edd9, 0xd53f204d,
        0xcae3dbb2, 0x7aad1626, 0xaf92366b, 0x1fdcfbff,
        0x902bc195, 0x20650c01, 0xf55a2c4c, 0x4514e1d8,
        0x5ac81a27, 0xea86d7b3, 0x3fb9f7fe, 0x8ff73a6a,
    },
    {
        0x00000000, 0x25bbf5db, 0x4b77ebb6, 0x6ecc1e6d,
        0x96efd76c, 0xb35422b7, 0xdd983cda, 0xf823c901,
        0x2833d829, 0x0d882df2, 0x6344339f, 0x46ffc644,
        0xbedc0f45, 0x9b67fa9e, 0xf5abe4f3, 0xd0101128,
    },
    {
        0x00000000, 0x5067b052, 0xa0cf60a4, 0xf0a8d0f6,
        0x4472b7b9, 0x141507eb, 0xe4bdd71d, 0xb4da674f,
        0x88e56f72, 0xd882df20, 0x282a0fd6, 0x784dbf84,
        0xcc97d8cb, 0x9cf06899, 0x6c58b86f, 0x3c3f083d,
    },
};
static const uint32_t shift_64[8][16] = {
    {
        0x00000000, 0x740eef02, 0xe81dde04, 0x9c133106,
        0xd5d7caf9, 0xa1d925fb, 0x3dca14fd, 0x49c4fbff,
        0xae43e303, 0xda4d0c01, 0x465e3d07, 0x3250d205,
        0x7b9429fa, 0x0f9ac6f8, 0x9389f7fe, 0xe78718fc,
    },
    {
        0x00000000, 0x596bb0f7, 0xb2d761ee, 0xebbcd119,
        0x6042b52d, 0x392905da, 0xd295d4c3, 0x8bfe6434,
        0xc0856a5a, 0x99eedaad, 0x72520bb4, 0x2b39bb43,
        0xa0c7df77, 0xf9ac6f80, 0x1210be99, 0x4b7b0e6e,
    },
    {
        0x00000000, 0x84e6a245, 0x0c21327b, 0x88c7903e,
        0x184264f6, 0x9ca4c6b3, 0x1463568d, 0x9085f4c8,
        0x3084c9ec, 0xb4626ba9, 0x3ca5fb97, 0xb84359d2,
        0x28c6ad1a, 0xac200f5f, 0x24e79f61, 0xa0013d24,
    },
    {
        0x00000000, 0x610993d8, 0xc21327b0, 0xa31ab468,
        0x81ca3991, 0xe0c3aa49, 0x43d91e21, 0x22d08df9,
        0x067805d3, 0x6771960b, 0xc46b2263, 0xa562b1bb,
        0x87b23c42, 0xe6bbaf9a, 0x45a11bf2, 0x24a8882a,
    },
    {
        0x00000000, 0x0cf00ba6, 0x19e0174c, 0x15101cea,
        0x33c02e98, 0x3f30253e, 0x2a2039d4, 0x26d03272,
        0x67805d30, 0x6b705696, 0x7e604a7c, 0x729041da,
        0x544073a8, 0x58b0780e, 0x4da064e4, 0x41506f42,
    },
    {
        0x00000000, 0xcf00ba60, 0x9bed0231, 0x54edb851,
        0x32367293, 0xfd36c8f3, 0xa9db70a2, 0x66dbcac2,
        0x646ce526, 0xab6c5f46, 0xff81e717, 0x30815d77,
        0x565a97b5, 0x995a2dd5, 0xcdb79584, 0x02b72fe4,
    },
    {
        0x00000000, 0xc8d9ca4c, 0x945fe269, 0x5c862825,
        0x2d53b223, 0xe58a786f, 0xb90c504a, 0x71d59a06,
        0x5aa76446, 0x927eae0a, 0xcef8862f, 0x06214c63,
        0x77f4d665, 0xbf2d1c29, 0xe3ab340c, 0x2b72fe40,
    },
    {
        0x00000000, 0xb54ec88c, 0x6f71e7e9, 0xda3f2f65,
        0xdee3cfd2, 0x6bad075e, 0xb192283b, 0x04dce0b7,
        0xb82be955, 0x0d6521d9, 0xd75a0ebc, 0x6214c630,
        0x66c82687, 0xd386ee0b, 0x09b9c16e, 0xbcf709e2,
    },
};

XC_STREAMS_TARGET XC_FORCE_INLINE uint32_t xc_streams_shift(uint32_t c, const uint32_t t[8][16])
{
    return (t[0][c & 15] ^ t[1][(c >> 4) & 15]) ^ (t[2][(c >> 8) & 15] ^ t[3][(c >> 12) & 15]) ^
           (t[4][(c >> 16) & 15] ^ t[5][(c >> 20) & 15]) ^ (t[6][(c >> 24) & 15] ^ t[7][c >> 28]);
}

/* Blocks p[0, L), p[L, 2L), p[2L, 3L) from state c; L is a constant after
 * inlining, so the loop has fixed offsets. */
XC_STREAMS_TARGET XC_FORCE_INLINE uint32_t xc_streams_three(uint32_t c, const uint8_t *p, size_t L,
                                                            const uint32_t t[8][16])
{
    uint64_t c0 = c, c1 = 0, c2 = 0;
    for (size_t i = 0; i < L; i += 8) {
        c0 = XC_STREAMS_WORD(c0, xc_read_le64(p + i));
        c1 = XC_STREAMS_WORD(c1, xc_read_le64(p + L + i));
        c2 = XC_STREAMS_WORD(c2, xc_read_le64(p + 2 * L + i));
    }
    return xc_streams_shift(xc_streams_shift((uint32_t)c0, t) ^ (uint32_t)c1, t) ^ (uint32_t)c2;
}

/* Short inputs first, the only test they pass; the entry and its branch
 * targets start on 64-byte boundaries (see x64/crc32c_avx512.c). */
XC_STREAMS_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint32_t XC_STREAMS_FUNC(uint32_t crc, const uint8_t *p, size_t len)
{
    if (XC_LIKELY(len < 3 * 64)) return ~XC_STREAMS_SHORT(~crc, p, len);
    uint32_t c = ~crc;
    while (len >= 3 * 2048) {
        c = xc_streams_three(c, p, 2048, shift_2048);
        p += 3 * 2048;
        len -= 3 * 2048;
    }
    while (len >= 3 * 256) {
        c = xc_streams_three(c, p, 256, shift_256);
        p += 3 * 256;
        len -= 3 * 256;
    }
    while (len >= 3 * 64) {
        c = xc_streams_three(c, p, 64, shift_64);
        p += 3 * 64;
        len -= 3 * 64;
    }
    return ~XC_STREAMS_SHORT(c, p, len);
}

#undef XC_STREAMS_FUNC
#undef XC_STREAMS_TARGET
#undef XC_STREAMS_WORD
#undef XC_STREAMS_SHORT
