# SPDX-License-Identifier: BSD-2-Clause
# Cross build for Arm64 with Debian's gcc-aarch64-linux-gnu and multiarch
# :arm64 libraries; tests run under qemu-aarch64 (XC_QEMU_CPU picks the CPU).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(XC_QEMU_CPU "max" CACHE STRING "CPU model for qemu-aarch64")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -cpu ${XC_QEMU_CPU} -L /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
