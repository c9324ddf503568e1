# SPDX-License-Identifier: BSD-2-Clause
# The libzstd-compatible library (XCODEC_ZSTD_COMPAT): libzstd.so.1 made of
# xcodec's objects and the shim in src/compat/, built in a folder of its
# own (compat/ in the build tree) so that nothing in the build that links
# the system's -lzstd can pick it up, and installed into
# ${libdir}/xcodec-compat/, never over the system's library.
#
# The version it reports (ZSTD_versionNumber) defaults to the system
# libzstd's found here: programs compare it with the version they were
# built against.
if(NOT XCODEC_ZSTD_COMPAT_VERSION)
  find_path(XC_SYSTEM_ZSTD_INCLUDE zstd.h)
  set(_v "1.5.6")
  if(XC_SYSTEM_ZSTD_INCLUDE AND EXISTS "${XC_SYSTEM_ZSTD_INCLUDE}/zstd.h")
    file(STRINGS "${XC_SYSTEM_ZSTD_INCLUDE}/zstd.h" _lines
         REGEX "^#define ZSTD_VERSION_(MAJOR|MINOR|RELEASE) +[0-9]+")
    foreach(_l ${_lines})
      if(_l MATCHES "MAJOR +([0-9]+)")
        set(_ma ${CMAKE_MATCH_1})
      elseif(_l MATCHES "MINOR +([0-9]+)")
        set(_mi ${CMAKE_MATCH_1})
      elseif(_l MATCHES "RELEASE +([0-9]+)")
        set(_re ${CMAKE_MATCH_1})
      endif()
    endforeach()
    if(DEFINED _ma AND DEFINED _mi AND DEFINED _re)
      set(_v "${_ma}.${_mi}.${_re}")
    endif()
  endif()
  set(XCODEC_ZSTD_COMPAT_VERSION "${_v}" CACHE STRING
      "libzstd version the compat library reports (default: the system's)")
endif()
string(REPLACE "." ";" _parts "${XCODEC_ZSTD_COMPAT_VERSION}")
list(GET _parts 0 _ma)
list(GET _parts 1 _mi)
list(GET _parts 2 _re)
math(EXPR XC_COMPAT_ZSTD_VERSION_NUMBER "${_ma} * 10000 + ${_mi} * 100 + ${_re}")
set(XC_COMPAT_ZSTD_VERSION_STRING "${XCODEC_ZSTD_COMPAT_VERSION}")
message(STATUS "xcodec: libzstd-compatible library reports libzstd ${XC_COMPAT_ZSTD_VERSION_STRING}")

file(GLOB XC_COMPAT_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/compat/*.c)
add_library(xcodec_zstd_compat SHARED $<TARGET_OBJECTS:xcodec_objects> ${XC_COMPAT_SOURCES})
target_include_directories(xcodec_zstd_compat PRIVATE
  ${PROJECT_SOURCE_DIR}/include/compat ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_compile_options(xcodec_zstd_compat PRIVATE ${XC_WARNINGS})
target_compile_definitions(xcodec_zstd_compat PRIVATE XCODEC_SHARED_BUILD _POSIX_C_SOURCE=200809L
  XC_COMPAT_ZSTD_VERSION=${XC_COMPAT_ZSTD_VERSION_NUMBER}
  XC_COMPAT_ZSTD_VERSION_STRING="${XC_COMPAT_ZSTD_VERSION_STRING}")
if(XC_XXHASH_INCLUDE)
  target_include_directories(xcodec_zstd_compat PRIVATE ${XC_XXHASH_INCLUDE})
endif()
set_target_properties(xcodec_zstd_compat PROPERTIES
  OUTPUT_NAME zstd
  VERSION ${XC_COMPAT_ZSTD_VERSION_STRING}
  SOVERSION 1
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/compat
  LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/zstd_compat.map)
target_link_options(xcodec_zstd_compat PRIVATE
  "LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/zstd_compat.map"
  "LINKER:--exclude-libs,ALL" "LINKER:--no-undefined"
  # Calls inside the library bind inside it: a process that also has the
  # system's libzstd or a static xcodec (the differential test) must not
  # send the shim's own calls there.
  "LINKER:-Bsymbolic")
target_link_libraries(xcodec_zstd_compat PRIVATE ${XC_LINK_DEPS})

install(TARGETS xcodec_zstd_compat
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/xcodec-compat)
install(FILES include/compat/zstd.h include/compat/zdict.h include/compat/zstd_errors.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xcodec-compat)
file(RELATIVE_PATH XC_COMPAT_PC_PREFIX_REL
  "${CMAKE_INSTALL_FULL_LIBDIR}/xcodec-compat/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
configure_file(cmake/libzstd.pc.in ${PROJECT_BINARY_DIR}/compat/libzstd.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/compat/libzstd.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/xcodec-compat/pkgconfig)
