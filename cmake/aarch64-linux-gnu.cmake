# SPDX-License-Identifier: BSD-2-Clause
# Cross build for Arm64 with Debian's gcc-aarch64-linux-gnu and multiarch
# :arm64 libraries; tests run under qemu-aarch64 through qemu-aarch64.sh (XC_QEMU_CPU in the
# environment picks the CPU model at test time).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/qemu-aarch64.sh)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
