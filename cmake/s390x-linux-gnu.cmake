# SPDX-License-Identifier: BSD-2-Clause
# Cross build for big-endian s390x with Debian's gcc-s390x-linux-gnu and
# multiarch :s390x libraries; tests run under qemu-s390x.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER s390x-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE s390x-linux-gnu)
# No -L: the multiarch libc6:s390x (pulled in by libcmocka0:s390x) provides
# /lib/ld64.so.1; mixing it with the cross toolchain's own libc copy under
# /usr/s390x-linux-gnu makes every program abort at start-up.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
