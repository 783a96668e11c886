#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Checks every command README.md and doc/dlsim.rst show, without running any of them:
# each `./dlsim run|tune` or `dlsim-run` line (and every ``.. code-block:: ini`` snippet, as a
# scenario) is given to dlsim-run with --emit-jobs, which parses the command line, the scenario
# and every point's keys and runs nothing (a bad key exits 2). `./dlsim replay|plot|collect DIR`
# needs DIR to be a results folder an earlier checked line makes; `./dlsim program FILE` needs
# FILE to exist. Other lines (cmake, ns3, ctest, tools) are skipped with the reason.
#   test/doc-snippets-test.sh SOURCE_DIR DLSIM_RUN
set -u
[ $# -eq 2 ] || { echo "usage: $0 SOURCE_DIR DLSIM_RUN" >&2; exit 2; }
src=$1 bin=$2
[ -x "$bin" ] || { echo "$bin: not an executable" >&2; exit 1; }
cd "$src" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
checked=0 skipped=0 failed=0
: > "$tmp/made"    # results folders the checked lines would write, one a line

# The command lines of README.md's ```sh blocks and dlsim.rst's sh/console/bash code blocks,
# comments cut, continuation lines joined.
{
    awk '/^```(sh|bash|console)[ \t]*$/ {f = 1; next} /^```/ {f = 0} f' README.md
    awk '/^\.\. code-block:: (sh|bash|console)[ \t]*$/ {f = 1; next}
         f && NF && /^[^ \t]/ {f = 0} f' doc/dlsim.rst
} | sed -e 's/^[ \t]*\$ //' -e 's/[ \t]#.*$//' -e 's/^[ \t]*//' -e 's/[ \t]*$//' \
  | awk '/\\$/ {sub(/\\$/, ""); l = l $0; next} {print l $0; l = ""}' \
  | grep -v '^$' > "$tmp/lines"

# Checks one dlsim-run argument list ($@): its --out (or the scenario's default folder) is
# replaced by a temporary one, and --emit-jobs writes the jobs there instead of running them.
emit() {
    out="" n=0
    for a in "$@"; do
        n=$((n + 1))
        case $a in --out=*) out=${a#--out=} ;; esac
    done
    i=0
    for a in "$@"; do
        i=$((i + 1))
        # The line's own --out and --emit-jobs FILE give way to the temporary ones.
        if [ "${skip_next:-}" = 1 ]; then skip_next=0
        else case $a in --out=*) ;; --emit-jobs) skip_next=1 ;; --emit-jobs=*) ;; *) set -- "$@" "$a" ;; esac
        fi
        [ $i -ge $n ] && break
    done
    shift $n
    rm -rf "$tmp/out"
    "$bin" "$@" --out="$tmp/out" --emit-jobs "$tmp/jobs.txt" < /dev/null > "$tmp/log" 2>&1
    rc=$?
    if [ -z "$out" ]; then
        sc=scenarios/quickstart.ini
        for a in "$@"; do case $a in *.ini) sc=$a ;; esac; done
        out=results/$(basename "$sc" .ini)
    fi
    [ $rc -eq 0 ] && echo "$out" >> "$tmp/made"
    return $rc
}

verdict() {    # $1: ok, skip or FAIL; $2: the line; $3: the reason
    case $1 in
        ok) checked=$((checked + 1)) ;;
        skip) skipped=$((skipped + 1)) ;;
        *) failed=$((failed + 1)) ;;
    esac
    printf '%-4s %s%s\n' "$1" "$2" "${3:+   ($3)}"
}

while IFS= read -r line; do
    case $line in
        cd\ *|cmake\ *|./ns3\ *|./test.py*) verdict skip "$line" "builds or runs ns-3's tree"; continue ;;
        ./dlsim\ *|*dlsim-run\ *) ;;
        *) verdict skip "$line" "not a dlsim command"; continue ;;
    esac
    case $line in
        # eval below must see no redirection, pipe, list or expansion.
        *[\<\>\|\;\&\$\`]*) verdict FAIL "$line" "a dlsim line with shell syntax this test cannot check"; continue ;;
    esac
    # Word splitting as the shell does it, without expansion of anything but quotes.
    eval "set -- $line" 2> /dev/null || { verdict FAIL "$line" "does not parse as a shell line"; continue; }
    case "$1 ${2:-}" in
        "./dlsim run"|"./dlsim tune")
            sub=$2; shift 2
            [ $sub = tune ] && set -- --tune "$@"
            if printf '%s\n' "$@" | grep -qx 'SCENARIO.ini\|DIR\|RUN_DIR\|\[.*';  then
                verdict skip "$line" "a usage line with placeholders"
            elif [ "${1:-}" = --help ]; then
                "$bin" --help > /dev/null 2>&1 && verdict ok "$line" || verdict FAIL "$line" "--help failed"
            elif [ $# -eq 0 ] || case $1 in *.ini) false ;; *) true ;; esac && [ $sub = run ]; then
                if emit scenarios/quickstart.ini "$@"; then verdict ok "$line"
                else verdict FAIL "$line" "$(tail -n 1 "$tmp/log")"; fi
            elif emit "$@"; then verdict ok "$line"
            else verdict FAIL "$line" "$(tail -n 1 "$tmp/log")"; fi
            ;;
        "./dlsim replay"|"./dlsim plot"|"./dlsim collect")
            dir=${3:-}
            if [ "$dir" = DIR ] || [ "$dir" = RUN_DIR ]; then
                verdict skip "$line" "a usage line with placeholders"
            elif grep -qxF "$dir" "$tmp/made" || grep -q "^$dir/" "$tmp/made" \
                || grep -qxF "${dir%/*}" "$tmp/made"; then
                verdict ok "$line" "$dir is made by an earlier line"
            else
                verdict FAIL "$line" "$dir: no earlier line makes this results folder"
            fi
            ;;
        "./dlsim program")
            if [ -f "${3:-}" ]; then verdict ok "$line"
            else verdict FAIL "$line" "${3:-}: no such file"; fi
            ;;
        "./dlsim test") verdict skip "$line" "runs the test suite" ;;
        *)
            case $1 in
                dlsim-run|*/dlsim-run)
                    shift
                    if emit "$@"; then verdict ok "$line"
                    else verdict FAIL "$line" "$(tail -n 1 "$tmp/log")"; fi
                    ;;
                ./dlsim) verdict skip "$line" "./dlsim $2 is not a run" ;;
                cmake|./ns3|cd|./test.py) verdict skip "$line" "builds or runs ns-3's tree" ;;
                *) verdict skip "$line" "not a dlsim command" ;;
            esac
            ;;
    esac
done < "$tmp/lines"

# Every ini snippet of the doc, as a scenario of its own.
awk -v dir="$tmp" '
    /^\.\. code-block:: ini[ \t]*$/ {f = 1; n++; file = dir "/snippet-" n ".ini"; printf "" > file; next}
    f && NF && /^[^ \t]/ {f = 0}
    f {sub(/^   /, ""); print >> file}' doc/dlsim.rst
for f in "$tmp"/snippet-*.ini; do
    [ -f "$f" ] || break
    name="doc/dlsim.rst ini snippet $(basename "$f" .ini | sed 's/snippet-//')"
    rm -rf "$tmp/out"
    if "$bin" "$f" --out="$tmp/out" --emit-jobs "$tmp/jobs.txt" > "$tmp/log" 2>&1; then
        verdict ok "$name"
    else
        verdict FAIL "$name" "$(tail -n 1 "$tmp/log")"
    fi
done

echo "doc snippets: $checked checked, $skipped skipped, $failed failed"
[ $failed -eq 0 ]
