#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The Python package as a user installs it: a fresh venv in the build
# directory, `pip install` offline, then the unittest suite from the venv.
#   venv_test.sh PYTHON SOURCE_DIR WORK_DIR
# The venv sees Debian's site packages (--system-site-packages): that is
# where setuptools' wheel builder (python3-wheel) and the peer the tests
# compare with (python3-zstandard) come from, with no package index.  The
# package is copied to WORK_DIR/src first, because pip builds in place and
# a test must not write into the source tree; the copy keeps its build/
# between runs, so only the first run compiles the whole library.
set -eu
python=$1
src=$2
work=$3
venv=$work/venv
rm -rf "$venv"
mkdir -p "$work/src"
"$python" -m venv --system-site-packages "$venv"
cp -R "$src/bindings/python/setup.py" "$src/bindings/python/pyproject.toml" \
      "$src/bindings/python/MANIFEST.in" "$src/bindings/python/src" \
      "$src/bindings/python/xcodec" "$work/src/"
rm -f "$work/src/xcodec/"*.so
XCODEC_SOURCE_DIR=$src "$venv/bin/pip" install --no-index --no-build-isolation \
    --quiet --disable-pip-version-check "$work/src"
# From a directory without the package in it, so the installed one is tested.
cd "$work"
PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m unittest discover -s "$src/bindings/python/tests" -t "$src/bindings/python/tests"
