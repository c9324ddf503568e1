# SPDX-License-Identifier: BSD-2-Clause
"""xcodec.crc32c and xcodec.inet_checksum: known answers, pieces, buffers."""

import array
import os
import unittest

import xcodec


def crc32c_slow(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def inet_slow(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


class Checksums(unittest.TestCase):
    def test_crc32c(self):
        self.assertEqual(xcodec.crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(xcodec.crc32c(b""), 0)
        data = os.urandom(3000)
        self.assertEqual(xcodec.crc32c(data), crc32c_slow(data))
        self.assertEqual(xcodec.crc32c(data[1234:], xcodec.crc32c(data[:1234])),
                         xcodec.crc32c(data))
        for buf in (bytearray(data), memoryview(data), array.array("B", data)):
            self.assertEqual(xcodec.crc32c(buf), crc32c_slow(data))
        big = os.urandom(1 << 21)
        self.assertEqual(xcodec.crc32c(big), xcodec.crc32c(big[1:], xcodec.crc32c(big[:1])))

    def test_inet_checksum(self):
        # RFC 1071's example words.
        self.assertEqual(xcodec.inet_checksum(bytes.fromhex("0001f203f4f5f6f7")),
                         inet_slow(bytes.fromhex("0001f203f4f5f6f7")))
        for n in (0, 1, 2, 3, 19, 20, 1500):
            data = os.urandom(n)
            self.assertEqual(xcodec.inet_checksum(data), inet_slow(data), n)
        header = bytearray(bytes.fromhex("45000073000040004011") + b"\0\0" +
                           bytes.fromhex("c0a80001c0a800c7"))
        c = xcodec.inet_checksum(header)
        header[10:12] = c.to_bytes(2, "big")
        self.assertEqual(xcodec.inet_checksum(header), 0)

    def test_info(self):
        self.assertIn("tier=", xcodec.cpucap())
        self.assertIsNotNone(xcodec.impl_name("crc32c"))
        self.assertIsNone(xcodec.impl_name("nothing"))
        self.assertRegex(xcodec.__version__, r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()
