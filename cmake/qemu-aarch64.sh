#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# CTest's emulator for the Arm64 build: the CPU model comes from XC_QEMU_CPU
# at run time (default "max": CRC, PMULL, SHA3), so one build is tested on
# several CPUs.
exec qemu-aarch64 -cpu "${XC_QEMU_CPU:-max}" "$@"
