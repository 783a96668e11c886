#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the API reference from doc/Doxyfile into OUTPUT_DIR (html/index.html there) and lists
# doxygen's warnings. With --check (the ctest doc.doxygen) any warning is a failure: every public
# class, function, member, attribute and trace source of model/, model/core/ and helper/ is
# documented, with its parameters and return value.
#   doc/doxygen.sh SOURCE_DIR OUTPUT_DIR [--check]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 SOURCE_DIR OUTPUT_DIR [--check]" >&2; exit 2; }
src=$1 out=$2 check=${3:-}
if ! command -v doxygen > /dev/null; then
    # Part of dlsim's stack: failing here, not skipping, keeps the check from going quiet.
    echo "doxygen is not installed: ./dlsim installs it (Debian package doxygen), or apt-get install doxygen" >&2
    exit 1
fi
mkdir -p "$out"
log="$out/doxygen-warnings.txt"
rm -f "$log"
cd "$src"
# The settings after the Doxyfile's override it: output and warnings go to the build directory.
{ cat doc/Doxyfile; echo "OUTPUT_DIRECTORY = $out"; echo "WARN_LOGFILE = $log"; } | doxygen -
count=$(grep -c 'warning:' "$log" || true)
if [ -s "$log" ]; then
    cat "$log" >&2
    echo "doxygen: $count warnings (listed above; also in $log)" >&2
    if [ "$check" = --check ]; then
        exit 1
    fi
else
    echo "doxygen: no warnings"
fi
echo "API reference: $out/html/index.html"
