#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# dlsim as contrib/dlsim of an ns-3 3.37 source tree, as an ns-3 user builds it: `./dlsim
# contrib` (Debian's ns3 source package, fetched once; ns-3's configure and build with only
# the modules dlsim needs), then `./ns3 run` of an example and `./test.py -s dlsim`. The tree
# is kept outside the checkout (DLSIM_CONTRIB_TREE, default /var/cache/dlsim/ns-3.37), so that
# ns-3's own modules are built once: a later run rebuilds only what changed in dlsim.
# Usage: contrib-build-test.sh SOURCE_DIR
set -euo pipefail
ROOT="$1"
tree="${DLSIM_CONTRIB_TREE:-/var/cache/dlsim/ns-3.37}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
fail() { echo "FAIL: $*" >&2; tail -30 "$log" >&2; exit 1; }

# Warm: ns-3's core module is built in the tree (not only configured, or cut short before).
state=warm
compgen -G "$tree/build/lib*/libns3*-core*" >/dev/null || state=cold
if [[ ! -x "$tree/ns3" && $(id -u) -ne 0 ]]; then
  echo "skipped: no ns-3 tree in $tree, and fetching Debian's ns3 source package needs root"
  exit 77
fi
# A cold tree means building some 600 of ns-3's sources first: about 7 minutes on 2 cores, more
# than the rest of the suite's tests together. It is built when asked (DLSIM_TEST_CONTRIB=1, or
# once by `./dlsim contrib`); from then on every run of the suite rebuilds dlsim in it and runs
# this test.
if [[ $state == cold && "${DLSIM_TEST_CONTRIB:-0}" != 1 ]]; then
  echo "skipped: ns-3's modules are not built in $tree yet (about 7 minutes on 2 cores);" \
    "run ./dlsim contrib once, or the suite with DLSIM_TEST_CONTRIB=1"
  exit 77
fi
# The tree's contrib/dlsim is one checkout at a time: hold its lock for the whole test.
mkdir -p "$(dirname "$tree")"
exec 9>"$tree.lock"
flock -w 3600 9 || fail "$tree is locked by another build for an hour"
export DLSIM_CONTRIB_LOCKED="$tree"
start=$(date +%s)
"$ROOT/dlsim" contrib "$tree" >"$log" 2>&1 || fail "./dlsim contrib failed"
tree="$(cd "$tree" && pwd)"
built=$(( $(date +%s) - start ))
echo "contrib build: ${built} s with a ${state} cache ($tree)"

cd "$tree"
./ns3 run "dlsim-dpsgd-example --learners=4 --rounds=3 --degree=2" >"$log" 2>&1 \
  || fail "./ns3 run dlsim-dpsgd-example failed"
grep -q "learner 0 completed 3 rounds" "$log" || fail "the example did not complete its rounds"
echo "./ns3 run dlsim-dpsgd-example: $(grep "learner 0 completed" "$log" | head -1)"

./test.py --no-build -s dlsim >"$log" 2>&1 || fail "./test.py -s dlsim failed"
grep -q "PASS.*: TestSuite dlsim" "$log" || fail "./test.py ran no dlsim suite"
echo "./test.py -s dlsim: $(grep -c "PASS.*: TestSuite dlsim" "$log") suite passed: $(tail -1 "$log")"
