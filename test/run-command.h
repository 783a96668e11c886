// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: test utilities for running the command-line programs and reading what they wrote.
 */
#ifndef DLSIM_TEST_RUN_COMMAND_H
#define DLSIM_TEST_RUN_COMMAND_H

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ns3
{

/// An empty folder "dlsim-NAME-PID" under the temporary directory, unique to this test process.
inline std::string
FreshTempFolder(const std::string& name)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path()
                                      / ("dlsim-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

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

/// Rows of a CSV file (header skipped), fields as text.
inline std::vector<std::vector<std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line))
    {
        std::vector<std::string> fields;
        std::stringstream ss(line);
        for (std::string f; std::getline(ss, f, ',');)
        {
            fields.push_back(f);
        }
        rows.push_back(fields);
    }
    return rows;
}

} // namespace ns3

#endif // DLSIM_TEST_RUN_COMMAND_H
