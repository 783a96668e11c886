// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "provenance.h"

#include "dlsim-version.h"
#include "external-command.h"
#include "torch-version.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

std::string
DlsimVersion()
{
    return DLSIM_VERSION;
}

std::string
Ns3Version()
{
    return DLSIM_NS3_VERSION;
}

std::string
VersionLine()
{
    return "dlsim " + DlsimVersion() + ", ns-3 " + Ns3Version() + ", LibTorch " + TorchVersion();
}

std::string
QuoteCommandLine(int argc, char** argv)
{
    return ShellCommandLine(std::vector<std::string>(argv, argv + argc));
}

} // namespace ns3
