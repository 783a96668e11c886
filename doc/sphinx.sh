#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the documentation (doc/index.rst and the chapters it lists) to HTML in OUTPUT_DIR with
# Sphinx. With --check (the ctest doc.sphinx) every Sphinx warning is an error.
#   doc/sphinx.sh SOURCE_DIR OUTPUT_DIR [--check]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 SOURCE_DIR OUTPUT_DIR [--check]" >&2; exit 2; }
src=$1 out=$2 check=${3:-}
if ! command -v sphinx-build > /dev/null; then
    # Part of dlsim's stack (./dlsim installs python3-sphinx): failing, not skipping, keeps the
    # check from going quiet.
    echo "sphinx-build is not installed: ./dlsim installs it (Debian package python3-sphinx)" >&2
    exit 1
fi
set -- -q -b html -d "$out/.doctrees"
[ "$check" = --check ] && set -- "$@" -W --keep-going
sphinx-build "$@" "$src/doc" "$out"
echo "dlsim documentation: $out/index.html"
