// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Runs one scenario end to end: data, overlay, links, learners, simulation, results.
 */
#ifndef DLSIM_SCENARIO_RUNNER_H
#define DLSIM_SCENARIO_RUNNER_H

#include "results-writer.h"
#include "scenario-config.h"

#include <ostream>
#include <string>

namespace ns3
{

/// How RunScenario treats its run folder.
struct RunOptions
{
    /// Replace complete results of another configuration in the folder (else an error).
    bool overwrite = false;
    /// Once the folder is locked, send stdout and stderr to this file (a grid point's log).
    std::string logFile;
    /// The command that started the run, for its provenance.
    std::string commandLine;
    /// A finished run's folder whose recorded learning this run replays over its own network
    /// (learning-replay.h): nothing is trained; empty: train.
    std::string replayFrom;
    /// With `network.model = auto`: the model this run uses ("flow" or "packet"), chosen by
    /// RunScenario's flows-first run; empty: RunScenario chooses (see kAutoNetworkModel).
    std::string networkModel;
};

/**
 * The value of network.model that picks the model per run: flows first (in OUT/.flows), then
 * the same learning replayed over packets where the flows were approximate (their windows
 * overflowed a queue or a link lost packets, summary.json's network_fidelity), over flows where
 * not. summary.json's resolved network.model says which made the run's numbers.
 */
constexpr const char* kAutoNetworkModel = "auto";

/**
 * Run the scenario and write its run directory (config.ini, partition.csv, links.csv,
 * rounds.csv, eval.csv, curve.csv, summary.csv, summary.json). Progress goes to `log`. Throws
 * ScenarioError (or another std::exception) with a message for the user when the scenario
 * cannot run or stops early; files written during the run then keep their ".partial" suffix.
 */
RunSummary RunScenario(const ScenarioConfig& config,
                       std::ostream& log,
                       const RunOptions& options = RunOptions());

/**
 * Everything RunScenario checks before it starts (every key, the overlay, the underlay's
 * files, that the dataset's files exist), without writing anything: a grid checks all its
 * points with it before it starts any.
 */
void CheckScenario(const ScenarioConfig& config);

/**
 * Print CHOCO-SGD's consensus step-size tuning for the scenario's overlay and compression:
 * the final consensus error of compressed gossip on random vectors for every gamma of the grid.
 */
void PrintChocoTuning(const ScenarioConfig& config, std::ostream& out);

/**
 * \return the standard error a run had before its `logFile` took it (a descriptor), so that a
 * log that could not be written can still be reported; -1 when no log file took it.
 */
int StderrBeforeLogFile();

} // namespace ns3

#endif // DLSIM_SCENARIO_RUNNER_H
