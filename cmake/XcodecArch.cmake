# SPDX-License-Identifier: BSD-2-Clause
# Sets XC_ARCH (x64, arm64 or other) from the target processor, and XC_TIERS,
# the XC_CPUCAP values that the tests run under, lowest first.
string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _xc_proc)
if(_xc_proc MATCHES "^(x86_64|amd64|x64)$")
  set(XC_ARCH x64)
  set(XC_TIERS portable sse42 pclmul avx2 avx512)
elseif(_xc_proc MATCHES "^(aarch64|arm64)$")
  set(XC_ARCH arm64)
  set(XC_TIERS portable crc pmull sha3)
else()
  set(XC_ARCH other)
  set(XC_TIERS portable)
endif()
if(XCODEC_FORCE_PORTABLE)
  set(XC_TIERS portable)
endif()
