# SPDX-License-Identifier: BSD-2-Clause
"""Builds the xcodec Python package: the C library, then xcodec._xcodec.

The library is built by its own CMake project (the one build system of the
sources: ISA selection, IFUNC detection, the dependencies it finds), as a
static, position-independent archive in the build directory; the
extension module links it in whole, so the package carries the library
inside its one shared object and needs nothing installed at run time.  The
linker hides the archive's symbols (--exclude-libs), so the module exports
nothing but its init function and cannot clash with a libxcodec.so in the
same process.

The C sources are looked for, in order: XCODEC_SOURCE_DIR; xcodec-src/
beside this file (what an sdist carries, see SDist below); the source tree
this directory sits in (../..).  Environment: XCODEC_CMAKE (the cmake
program), XCODEC_BUILD_JOBS (parallel jobs, default 2), XCODEC_CMAKE_ARGS
(extra -D options, e.g. -DXCODEC_FORCE_PORTABLE=ON).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
# What an sdist copies from the source tree: enough to configure and build
# the library alone (the CMake project includes bindings/python itself).
SDIST_TREE = ("CMakeLists.txt", "LICENSE", "cmake", "include", "src",
              os.path.join("bindings", "python", "CMakeLists.txt"))


def source_root():
    candidates = [os.environ.get("XCODEC_SOURCE_DIR"), os.path.join(HERE, "xcodec-src"),
                  os.path.normpath(os.path.join(HERE, "..", ".."))]
    for c in candidates:
        if c and os.path.isfile(os.path.join(c, "include", "xcodec.h")) \
                and os.path.isfile(os.path.join(c, "CMakeLists.txt")):
            return os.path.abspath(c)
    sys.exit("xcodec: the C sources were not found (set XCODEC_SOURCE_DIR to the source tree)")


def version(root):
    with open(os.path.join(root, "include", "xcodec.h"), encoding="utf-8") as f:
        text = f.read()
    parts = [re.search(r"#define XC_VERSION_%s (\d+)" % p, text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


class BuildExt(build_ext):
    """Builds the C library with CMake, then the extension against it."""

    def build_extension(self, ext):
        root = source_root()
        build_dir = os.path.abspath(os.path.join(self.build_temp, "xcodec-lib"))
        cmake = os.environ.get("XCODEC_CMAKE") or shutil.which("cmake")
        if not cmake:
            sys.exit("xcodec: cmake is needed to build the library (Debian: cmake)")
        configure = [cmake, "-S", root, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                     "-DXCODEC_BUILD_SHARED=OFF", "-DXCODEC_BUILD_STATIC=ON",
                     "-DXCODEC_BUILD_PROGRAMS=OFF", "-DXCODEC_BUILD_TESTS=OFF",
                     "-DXCODEC_BUILD_BENCH=OFF", "-DXCODEC_BUILD_FUZZ=OFF"]
        configure += shlex.split(os.environ.get("XCODEC_CMAKE_ARGS", ""))
        jobs = os.environ.get("XCODEC_BUILD_JOBS", "2")
        self.announce("xcodec: " + " ".join(configure), level=2)
        subprocess.check_call(configure)
        subprocess.check_call([cmake, "--build", build_dir, "--target", "xcodec_static",
                               "-j", jobs])
        archive = os.path.join(build_dir, "libxcodec.a")
        ext.include_dirs.append(os.path.join(root, "include"))
        ext.extra_objects.append(archive)
        # What the library itself links with, as its pkg-config file says.
        with open(os.path.join(build_dir, "xcodec.pc"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("Libs.private:"):
                    ext.extra_link_args.extend(shlex.split(line.split(":", 1)[1]))
        ext.extra_link_args.append("-Wl,--exclude-libs,ALL")
        super().build_extension(ext)


class SDist(sdist):
    """An sdist that carries the C sources under xcodec-src/, so that
    `pip install xcodec-X.tar.gz` builds without the source tree."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        root = source_root()
        for item in SDIST_TREE:
            src = os.path.join(root, item)
            dst = os.path.join(base_dir, "xcodec-src", item)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isdir(src):
                shutil.copytree(src, dst)
            else:
                shutil.copy2(src, dst)


ROOT = source_root()
SOURCES = ["_xcodec.c", "zstd_compressor.c", "zstd_decompressor.c", "zstd_dict.c",
           "zstd_seekable.c"]

setup(
    name="xcodec",
    version=version(ROOT),
    description="zstd (the shape of compression.zstd), CRC32C and the Internet checksum, "
                "over the xcodec C library",
    license="BSD-2-Clause",
    python_requires=">=3.10",
    packages=["xcodec", "xcodec.zstd"],
    package_data={"xcodec": ["py.typed", "*.pyi"], "xcodec.zstd": ["*.pyi"]},
    ext_modules=[Extension(
        "xcodec._xcodec",
        sources=[os.path.join("src", s) for s in SOURCES],
        depends=[os.path.join("src", "binding.h")],
        extra_compile_args=["-std=c11", "-O2", "-Wall", "-Wextra", "-Wshadow",
                            "-Wmissing-prototypes", "-fvisibility=hidden"],
    )],
    cmdclass={"build_ext": BuildExt, "sdist": SDist},
    zip_safe=False,
)
