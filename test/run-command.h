// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: test utilities for running the command-line programs and reading what they wrote.
 */
#ifndef DLSIM_TEST_RUN_COMMAND_H
#define DLSIM_TEST_RUN_COMMAND_H

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
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

/**
 * A folder name holding everything a shell acts on: quotes of both kinds, command
 * substitutions, backquotes, `;`, spaces and non-ASCII letters. Whatever runs with it must
 * create no file named PWNED*, anywhere (AnyFileNamedPwned).
 */
const std::string kShellHostileName = "it's \"odd\" $(touch PWNED1) `touch PWNED2` \xc3\xa9 "
                                      "\xe6\x95\xb0\xe6\x8d\xae;touch PWNED3;x";

/// Whether a file whose name starts with PWNED exists under `dir` (recursively).
inline bool
AnyFileNamedPwned(const std::string& dir)
{
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    {
        if (entry.path().filename().string().rfind("PWNED", 0) == 0)
        {
            return true;
        }
    }
    return false;
}

/// Folders for a test with shell-hostile paths (FreshTempFolder underneath).
struct HostileFolders
{
    std::string base; ///< everything the test creates is below it
    std::string cwd;  ///< an empty folder to run commands in
    std::string out;  ///< base/kShellHostileName/inj;touch PWNED;x (not created)
};

inline HostileFolders
MakeHostileFolders(const std::string& name)
{
    HostileFolders f;
    f.base = FreshTempFolder(name);
    f.cwd = f.base + "/cwd";
    std::filesystem::create_directories(f.cwd);
    f.out = f.base + "/" + kShellHostileName + "/inj;touch PWNED;x";
    return f;
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

/// Rows of a CSV file dlsim wrote as column name to text (no quoted commas in it).
inline std::vector<std::map<std::string, std::string>>
ReadCsvByColumn(const std::string& path)
{
    std::ifstream in(path);
    std::string headerLine;
    std::getline(in, headerLine);
    std::vector<std::string> header;
    std::stringstream hs(headerLine);
    for (std::string f; std::getline(hs, f, ',');)
    {
        header.push_back(f);
    }
    std::vector<std::map<std::string, std::string>> rows;
    for (const auto& fields : ReadCsv(path))
    {
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size(); ++i)
        {
            row[header[i]] = i < fields.size() ? fields[i] : "";
        }
        rows.push_back(row);
    }
    return rows;
}

} // namespace ns3

#endif // DLSIM_TEST_RUN_COMMAND_H
