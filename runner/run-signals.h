// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * How a run leaves on a signal or a crash: its folder's lock released, the step it was in named.
 */
#ifndef DLSIM_RUN_SIGNALS_H
#define DLSIM_RUN_SIGNALS_H

namespace ns3
{

/**
 * Install the handlers of a run's process: an interrupt (SIGINT, SIGTERM, SIGHUP) or a crash
 * (SIGABRT, SIGFPE, SIGSEGV, SIGBUS, on a stack of its own) releases the run folder's lock and
 * leaves, a crash saying at which step of the run it came (GetRunStep); a file size limit fails
 * a write instead of killing the process. A grid's point (DLSIM_GRID_PARENT set) dies with its
 * grid.
 */
void InstallFailureHandlers();

} // namespace ns3

#endif // DLSIM_RUN_SIGNALS_H
