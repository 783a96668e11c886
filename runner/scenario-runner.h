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

namespace ns3
{

/**
 * Run the scenario and write its run directory (config.ini, partition.csv, links.csv,
 * rounds.csv, eval.csv, summary.json). Progress goes to `log`. Throws ScenarioError (or another
 * std::exception) with a message for the user when the scenario cannot run.
 */
RunSummary RunScenario(const ScenarioConfig& config, std::ostream& log);

/**
 * Print CHOCO-SGD's consensus step-size tuning for the scenario's overlay and compression:
 * the final consensus error of compressed gossip on random vectors for every gamma of the grid.
 */
void PrintChocoTuning(const ScenarioConfig& config, std::ostream& out);

} // namespace ns3

#endif // DLSIM_SCENARIO_RUNNER_H
