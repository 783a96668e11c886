// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * `./dlsim tune SCENARIO`: each algorithm's own settings chosen on a validation set held out
 * of the training data, then the comparison run with them.
 */
#ifndef DLSIM_TUNING_H
#define DLSIM_TUNING_H

#include "grid-scheduler.h"
#include "scenario-config.h"

#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// What tuning chose for one algorithm, and why.
struct TunedChoice
{
    std::string algorithm;                     ///< e.g. "choco"
    std::map<std::string, std::string> values; ///< key -> chosen value, e.g. choco.lr -> 0.03
    std::string run;       ///< the tuning run (folder under OUT/tuning) it came from
    std::string criterion; ///< "time to target" or "final accuracy" (on the validation set)
    double score = 0.0;    ///< that time (s) or accuracy
    uint32_t tried = 0;    ///< candidates finished
};

/**
 * \param config the scenario
 * \return its axes other than algorithm and seed, each with the value tuning runs at: its
 * first (settings are chosen once per algorithm, then compared at every value)
 */
std::vector<std::pair<std::string, std::string>> TunedAt(const ScenarioConfig& config);

/**
 * \brief The tuning grid of a scenario: every algorithm of its `algorithm` axis with each of
 * its own settings listed by `tune.lr`, `tune.alpha` and `tune.gamma` (as ALGORITHM.lr,
 * ALGORITHM.alpha, ALGORITHM.gamma where the algorithm has that key; an algorithm's axes vary
 * only its points), evaluated on the validation set (eval.on = validation), for `tune.rounds`
 * rounds, with the scenario's first seed and the first value of each other axis (TunedAt), in
 * OUT-tuning (TuningFolder).
 * \param config the scenario
 * \return the tuning grid's configuration
 */
ScenarioConfig TuningConfig(const ScenarioConfig& config);

/// \param config the scenario \return where its tuning runs go: OUT-tuning, beside OUT
std::string TuningFolder(const ScenarioConfig& config);

/**
 * \brief Each algorithm's best tuning run: the earliest to reach the target on the validation
 * set, or, where none of its runs reached it, the highest final validation accuracy.
 * \param tuning the tuning grid's configuration (TuningConfig)
 * \param log where unfinished tuning runs are named
 * \return one choice per algorithm of the scenario; throws ScenarioError when an algorithm has
 * no finished tuning run
 */
std::vector<TunedChoice> ChooseSettings(const ScenarioConfig& tuning, std::ostream& log);

/**
 * \brief Run `./dlsim tune`: the tuning grid (skipping finished runs, as every grid does), the
 * choice (OUT-tuning/choice.csv, with why; copied to OUT/tuned-settings.csv), then the
 * comparison with the chosen values in OUT.
 * With `emitJobs`, the jobs of the first grid not finished are written instead and nothing
 * runs: run them, then `./dlsim tune` again goes on from there.
 * \param config the scenario
 * \param options how the grids run
 * \param emitJobs a jobs file to write instead of running, or ""
 * \return the exit status
 */
int RunTuning(const ScenarioConfig& config,
              const GridOptions& options,
              const std::string& emitJobs);

} // namespace ns3

#endif // DLSIM_TUNING_H
