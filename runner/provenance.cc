// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "provenance.h"

#include "dlsim-version.h"
#include "torch-version.h"

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
    std::string line;
    for (int i = 0; i < argc; ++i)
    {
        std::string arg = argv[i];
        const bool plain = !arg.empty()
                           && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                    "0123456789-_./=:,+@%")
                                  == std::string::npos;
        if (!plain)
        {
            std::string quoted = "'";
            for (char c : arg)
            {
                quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            }
            arg = quoted + "'";
        }
        line += (i ? " " : "") + arg;
    }
    return line;
}

} // namespace ns3
