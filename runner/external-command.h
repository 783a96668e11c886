// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Other programs, started without a shell, and command lines written for a shell to run later:
 * a path (a run folder, a script) is always one argument, whatever characters it holds.
 */
#ifndef DLSIM_EXTERNAL_COMMAND_H
#define DLSIM_EXTERNAL_COMMAND_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * `word` as one word of a POSIX shell command line: unchanged when it holds only characters
 * no shell treats specially, otherwise between single quotes, each ' written as '\''. Every
 * command line dlsim writes for others (jobs files, Slurm scripts, the recorded command line)
 * quotes its words with this.
 */
std::string ShellQuote(const std::string& word);

/// The words of `argv`, each ShellQuote'd, separated by spaces.
std::string ShellCommandLine(const std::vector<std::string>& argv);

/**
 * Run `argv[0]` (searched on PATH) with the arguments `argv`, no shell in between, with its
 * standard output and error written to `logPath` (created or emptied first, so that it exists
 * whenever a message points at it) and its standard input empty, and wait for it. Throws
 * std::runtime_error naming the program and the log when it cannot be started (a program not
 * installed says so, followed by `hint`, e.g. which package provides it), is killed by a
 * signal or exits with a status other than 0.
 */
void RunProgram(const std::vector<std::string>& argv,
                const std::string& logPath,
                const std::string& hint = "");

} // namespace ns3

#endif // DLSIM_EXTERNAL_COMMAND_H
