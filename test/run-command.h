// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: test utilities for running the command-line programs and reading what they wrote.
 */
#ifndef DLSIM_TEST_RUN_COMMAND_H
#define DLSIM_TEST_RUN_COMMAND_H

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace ns3
{

/// Run a shell command; returns its exit status and leaves stdout and stderr in `output`.
inline int
RunCommand(const std::string& command, std::string& output)
{
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    char buffer[4096];
    output.clear();
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe))
    {
        output.append(buffer, n);
    }
    int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// A whole file as text ("" when it cannot be read).
inline std::string
ReadWholeFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace ns3

#endif // DLSIM_TEST_RUN_COMMAND_H
