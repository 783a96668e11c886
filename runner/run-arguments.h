// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The command line of dlsim-run (what `./dlsim run`, `plot` and `collect` call), read with
 * Boost.Program_options.
 */
#ifndef DLSIM_RUN_ARGUMENTS_H
#define DLSIM_RUN_ARGUMENTS_H

#include "figure-style.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// What dlsim-run was asked to do, and how.
struct RunArguments
{
    enum class Action
    {
        Run,      ///< run the scenario (a grid when a key has several values)
        Plot,     ///< --plot DIR: the figures of the runs under DIR
        Collect,  ///< --collect DIR: index.csv and figures of the runs under DIR
        Help,     ///< -h, --help
        Version,  ///< --version
        KeyTable, ///< --key-table
    };
    Action action = Action::Run;
    std::string scenarioFile; ///< "" when none was given
    /// "--key=value" (or "--key" alone) for the scenario, as ScenarioConfig::Load takes them.
    std::vector<std::string> overrides;
    std::string folder; ///< of --plot and --collect
    unsigned jobs = 1;
    bool tuneChoco = false;
    bool tune = false; ///< --tune: ./dlsim tune (tuning.h)
    bool plot = true;  ///< draw figures at the end (--no-plot: not)
    bool overwrite = false;
    PlotOptions plotOptions;
    std::string logFile;  ///< --log-file
    std::string emitJobs; ///< --emit-jobs FILE
    /// --replay RUN_DIR (./dlsim replay): the scenario is RUN_DIR/config.ini, replayed
    std::string replay;
    std::string replayFrom; ///< --replay-from RUN_DIR: replay its recording (a grid's points)
};

/**
 * Read dlsim-run's arguments. Options dlsim-run knows are read here; any other --KEY=VALUE
 * (or --KEY VALUE) is a scenario key passed on in `overrides`, for the scenario parser to check.
 * Throws ScenarioError naming the option and the value for a bad command line.
 */
RunArguments ParseRunArguments(int argc, char** argv);

/// The usage text of --help: the options, then every scenario key with its default.
void PrintUsage(std::ostream& out);

} // namespace ns3

#endif // DLSIM_RUN_ARGUMENTS_H
