// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * ns-3's test runner for the standalone build: runs the TestSuites linked in (dlsim's, from
 * dlsim-test-suite.cc) as ns-3's test-runner does in a source tree, e.g. `--suite=dlsim`.
 */
#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
