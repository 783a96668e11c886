#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Own programs as an ns-3 user writes them (scratch/), through `./dlsim program`:
#  - a scratch file that does not compile stops only itself: with one in scratch/, `./dlsim run
#    --help` and the Wi-Fi study (ns-3's own WifiHelper, every ns-3 module linked) still build
#    and run, and `./dlsim program` of the broken file fails naming it;
#  - the Wi-Fi study's run folder tells the truth: `network = own` with its description, the
#    command line, and the wire bytes measured on Wi-Fi.
# Usage: scratch-programs-test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
ROOT="$1"
export DLSIM_BUILD_DIR="$2"
cd "$ROOT"
rm -f scratch/ctest-broken-*.cc # left by a run that was killed before its cleanup
broken="scratch/ctest-broken-$$.cc"
out="$(mktemp -d)"
trap 'rm -f "$ROOT/$broken"; rm -rf "$out"' EXIT
printf '// written by the test scratch.programs\nint main() { return not_declared_anywhere; }\n' >"$broken"

fail() { echo "FAIL: $*" >&2; exit 1; }

if ./dlsim program "$broken" >"$out/broken.txt" 2>&1; then
  fail "./dlsim program of a broken file succeeded"
fi
grep -q "ctest-broken-$$.cc" "$out/broken.txt" || fail "the error does not name the broken file: $(tail -5 "$out/broken.txt")"
./dlsim run --help >"$out/help.txt" 2>&1 || fail "./dlsim run --help failed with a broken scratch file: $(tail -5 "$out/help.txt")"
grep -q -- "--network" "$out/help.txt" || fail "./dlsim run --help printed no key table"

./dlsim program scratch/wifi-study.cc --learners=4 --rounds=2 --out="$out/wifi" >"$out/wifi.txt" 2>&1 \
  || fail "the Wi-Fi study failed: $(tail -20 "$out/wifi.txt")"
grep -q "dpsgd on 4 Wi-Fi stations: 2 rounds" "$out/wifi.txt" || fail "the Wi-Fi study did not run its rounds"
test -f "$out/wifi/summary.json" || fail "no summary.json in the Wi-Fi study's run folder"
grep -q "^network = own$" "$out/wifi/config.ini" || fail "config.ini does not say network = own"
grep -q "^description = 802.11ac, 4 stations" "$out/wifi/config.ini" || fail "config.ini has no network description"
grep -q '"command_line": ".*wifi-study --learners=4 --rounds=2' "$out/wifi/summary.json" \
  || fail "summary.json has no command line"
wire=$(sed -n 's/.*"wire_bytes_per_node": \([0-9.e+]*\),.*/\1/p' "$out/wifi/summary.json")
value=$(sed -n 's/.*"bytes_per_node": {"values": \([0-9.e+]*\),.*/\1/p' "$out/wifi/summary.json")
awk -v w="$wire" -v v="$value" 'BEGIN { exit !(v > 0 && w > v) }' \
  || fail "wire bytes per node ($wire) are not above the model bytes ($value)"

echo "scratch programs: --help and the Wi-Fi study ran beside a broken scratch file (wire $wire B/node, values $value B/node); the broken one failed alone"
