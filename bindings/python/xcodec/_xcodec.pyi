# SPDX-License-Identifier: BSD-2-Clause
# The extension module; its public names are re-exported by xcodec and
# xcodec.zstd, whose stubs describe them.
from typing import Any

version: str
version_number: int
ZSTD_CLEVEL_DEFAULT: int
ZSTD_MIN_CLEVEL: int
ZSTD_MAX_CLEVEL: int
ZSTD_DStreamOutSize: int

def __getattr__(name: str) -> Any: ...
