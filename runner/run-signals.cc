// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-signals.h"

#include "run-folder.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/prctl.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// write(2) of a C string: all a signal handler may print with.
void
WriteFromSignalHandler(const char* text)
{
    ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void) ignored;
}

/**
 * A single run stopped by a signal, an abort or a crash releases its folder's lock on the way
 * out; what it computed stays in its *.csv.partial files. A crash (SIGABRT, SIGFPE, SIGSEGV,
 * SIGBUS) says which step of the run it came in: only async-signal-safe calls here.
 */
extern "C" void
LeaveOnSignal(int signal)
{
    RunFolderLock::ReleaseFromSignalHandler();
    const char* crash = signal == SIGABRT   ? "aborted by a failed check in ns-3 or a library"
                        : signal == SIGFPE  ? "arithmetic error (SIGFPE) in ns-3 or a library"
                        : signal == SIGSEGV ? "invalid memory access (SIGSEGV) in ns-3 or a library"
                        : signal == SIGBUS  ? "bus error (SIGBUS) in ns-3 or a library"
                                            : nullptr;
    if (crash)
    {
        WriteFromSignalHandler("dlsim: error: ");
        WriteFromSignalHandler(crash);
        WriteFromSignalHandler(" while ");
        WriteFromSignalHandler(GetRunStep());
        WriteFromSignalHandler(" (see above); the run folder's lock is released, and what the run "
                               "computed until then is in its *.csv.partial files\n");
        ::_exit(1);
    }
    ::_exit(128 + signal);
}

} // namespace

void
InstallFailureHandlers()
{
    std::signal(SIGINT, LeaveOnSignal);
    std::signal(SIGTERM, LeaveOnSignal);
    std::signal(SIGHUP, LeaveOnSignal);
    // Crashes run the handler on a stack of its own (a stack overflow leaves none), once: a
    // crash in the handler itself ends the process with the default action.
    static char crashStack[64 * 1024];
    stack_t stack = {};
    stack.ss_sp = crashStack;
    stack.ss_size = sizeof crashStack;
    ::sigaltstack(&stack, nullptr);
    struct sigaction crash = {};
    crash.sa_handler = LeaveOnSignal;
    crash.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&crash.sa_mask);
    for (int signal : {SIGABRT, SIGFPE, SIGSEGV, SIGBUS})
    {
        ::sigaction(signal, &crash, nullptr);
    }
    // A file size limit (or a full quota) then fails the write with an error we report,
    // instead of killing the process.
    std::signal(SIGXFSZ, SIG_IGN);
    // A grid point dies with its grid, even one killed with SIGKILL.
    if (const char* parent = std::getenv("DLSIM_GRID_PARENT"))
    {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (std::to_string(::getppid()) != parent)
        {
            ::_exit(1); // the grid was already gone
        }
    }
}

} // namespace ns3
