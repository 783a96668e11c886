// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Where results came from: the versions of dlsim, ns-3 and LibTorch, and the command line.
 */
#ifndef DLSIM_PROVENANCE_H
#define DLSIM_PROVENANCE_H

#include <string>

namespace ns3
{

/// dlsim's version: `git describe` of the sources it was built from, or the release number.
std::string DlsimVersion();
std::string Ns3Version();

/// One line: "dlsim VERSION, ns-3 VERSION, LibTorch VERSION".
std::string VersionLine();

/// The command line, each argument quoted for a POSIX shell where needed (ShellQuote).
std::string QuoteCommandLine(int argc, char** argv);

} // namespace ns3

#endif // DLSIM_PROVENANCE_H
