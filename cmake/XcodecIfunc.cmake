# SPDX-License-Identifier: BSD-2-Clause
# Sets XC_HAVE_IFUNC when the checksum entry points can be bound with GNU
# IFUNC: an ELF target with glibc, whose compiler and linker build and link a
# program with an ifunc symbol.  glibc's dynamic linker binds them at load
# time and its static start-up code through IRELATIVE relocations, so shared
# libraries, programs linked with the static library and fully static
# programs all get them.  musl, the BSDs, macOS and Windows have no IFUNC (or
# none glibc's way) and keep the dispatch table; so does XCODEC_IFUNC=OFF.
include(CheckCSourceCompiles)
set(XC_HAVE_IFUNC OFF)
if(XCODEC_IFUNC)
  check_c_source_compiles([=[
#include <stdlib.h>
#if !defined(__ELF__) || !defined(__GLIBC__)
#  error "GNU IFUNC needs ELF and glibc"
#endif
static int one(void) { return 1; }
typedef int (*fn)(void);
static fn resolve(void) { return one; }
int picked(void) __attribute__((ifunc("resolve")));
int main(void) { return picked() == 1 ? EXIT_SUCCESS : EXIT_FAILURE; }
]=] XC_IFUNC_LINKS)
  if(XC_IFUNC_LINKS)
    set(XC_HAVE_IFUNC ON)
  endif()
endif()
if(XC_HAVE_IFUNC)
  message(STATUS "xcodec: checksum entry points bound with GNU IFUNC")
else()
  message(STATUS "xcodec: checksum entry points dispatch through the kernel table")
endif()
