// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "external-command.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ns3
{

std::string
ShellQuote(const std::string& word)
{
    const bool plain = !word.empty()
                       && word.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                 "0123456789-_./=:,+@%")
                              == std::string::npos;
    if (plain)
    {
        return word;
    }
    std::string quoted = "'";
    for (char c : word)
    {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

std::string
ShellCommandLine(const std::vector<std::string>& argv)
{
    std::string line;
    for (const auto& word : argv)
    {
        line += (line.empty() ? "" : " ") + ShellQuote(word);
    }
    return line;
}

void
RunProgram(const std::vector<std::string>& argv,
           const std::string& logPath,
           const std::string& hint)
{
    if (argv.empty())
    {
        throw std::logic_error("RunProgram: no program given");
    }
    const std::string& program = argv[0];
    // The log is opened here rather than in the child, so that a log that cannot be written is
    // reported as such, and so that it exists whenever the message below points at it.
    const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0)
    {
        throw std::runtime_error("cannot write " + logPath + " (the log of " + program
                                 + "): " + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, log, 1);
    posix_spawn_file_actions_adddup2(&actions, log, 2);
    std::vector<char*> args;
    for (const auto& a : argv)
    {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, program.c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(log);
    if (rc == ENOENT)
    {
        throw std::runtime_error("cannot run " + program
                                 + ": it is not installed (not found on "
                                   "PATH)"
                                 + (hint.empty() ? "" : "; " + hint));
    }
    if (rc != 0)
    {
        throw std::runtime_error("cannot run " + program + ": " + std::strerror(rc));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
    {
        if (errno != EINTR)
        {
            throw std::runtime_error("lost " + program + " (pid " + std::to_string(pid)
                                     + "): " + std::strerror(errno));
        }
    }
    if (WIFSIGNALED(status))
    {
        throw std::runtime_error(program + " was killed by signal "
                                 + std::to_string(WTERMSIG(status)) + " ("
                                 + strsignal(WTERMSIG(status)) + "); see " + logPath);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        throw std::runtime_error(program + " failed with exit status "
                                 + std::to_string(WEXITSTATUS(status)) + "; see " + logPath);
    }
}

} // namespace ns3
