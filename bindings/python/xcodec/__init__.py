# SPDX-License-Identifier: BSD-2-Clause
"""xcodec from Python: zstd, CRC32C and the Internet checksum.

    import xcodec
    import xcodec.zstd as zstd      # the shape of Python 3.14's compression.zstd

    frame = zstd.compress(data)
    assert zstd.decompress(frame) == data
    xcodec.crc32c(b"123456789") == 0xE3069283
    xcodec.inet_checksum(header) == 0   # a valid IPv4 header

The library is compiled into the extension module xcodec._xcodec when the
package is built (pip install, see README.md), so nothing else is loaded at
run time.  Inputs may be any object with the buffer protocol holding
contiguous bytes (bytes, bytearray, memoryview, array, mmap); they are read
in place, never copied, and large ones are worked on without the GIL.
"""

from xcodec import _xcodec

__all__ = ["crc32c", "inet_checksum", "cpucap", "impl_name", "__version__"]

__version__ = _xcodec.version


def crc32c(data, value=0):
    """The CRC32C (Castagnoli) of data, continuing from value: the result of
    one call is the value of the next, so data may come in pieces."""
    return _xcodec.crc32c(data, value)


def inet_checksum(data):
    """The Internet checksum (RFC 1071) of data: the 16-bit value of a
    checksum field (0 over a header whose field is right)."""
    return _xcodec.inet_checksum(data)


def cpucap():
    """The library's description of the CPU, the tier in force and the
    XC_CPUCAP cap."""
    return _xcodec.cpucap()


def impl_name(kernel):
    """The variant in use for a kernel ('crc32c', 'inet', 'zstd_decode',
    'zstd_encode'), or None for an unknown name."""
    return _xcodec.impl_name(kernel)
