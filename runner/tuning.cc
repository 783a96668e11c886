// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "tuning.h"

#include "result-files.h"
#include "run-catalogue.h"
#include "scenario-grid.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/// The tuned settings: the `tune.` key that lists candidates, and the algorithm key's suffix.
const std::vector<std::string> kTunedSettings = {"lr", "alpha", "gamma"};

/// "0.01, 0.03" from the list "[0.01, 0.03]".
std::string
AsAxis(const std::vector<std::string>& values)
{
    std::string axis;
    for (const auto& v : values)
    {
        axis += (axis.empty() ? "" : ", ") + v;
    }
    return axis;
}

/// The keys an algorithm's tuning varies (ALGORITHM.SETTING for every setting with candidates),
/// leaving out a key another algorithm of the scenario reads too (Sparse-Push's and SCSP's
/// sparse-push.alpha): one value of it could not be each one's best.
std::vector<std::string>
TunedKeys(const ScenarioConfig& config, const std::string& algorithm)
{
    const std::vector<std::string> listed = AxisValues(config, "algorithm");
    std::vector<std::string> keys;
    for (const auto& setting : kTunedSettings)
    {
        const std::string key = algorithm + "." + setting;
        if (config.GetList("tune." + setting).empty() || !FindScenarioKey(key))
        {
            continue;
        }
        bool shared = false;
        for (const auto& owner : AlgorithmsOfKey(key))
        {
            shared = shared
                     || (owner != algorithm
                         && std::find(listed.begin(), listed.end(), owner) != listed.end());
        }
        if (!shared)
        {
            keys.push_back(key);
        }
    }
    return keys;
}

double
Number(const RunRecord& run, const std::string& column)
{
    const std::string& text = run.summary.at(column);
    return text.empty() ? -1.0 : std::stod(text);
}

/**
 * The tuning grid, whose check of every point before any runs names a candidate that cannot run
 * by the key it became (dpsgd.lr): named here by the tune key the user gave, too.
 */
int
RunCandidates(const ScenarioConfig& config,
              const ScenarioConfig& tuning,
              const std::vector<GridPoint>& candidates,
              const GridOptions& options)
{
    try
    {
        return RunGrid(tuning, candidates, options);
    }
    catch (const ScenarioError& e)
    {
        const std::string message = e.what();
        for (const auto& algorithm : AxisValues(config, "algorithm"))
        {
            for (const auto& key : TunedKeys(config, algorithm))
            {
                if (message.find(key + ":") != std::string::npos)
                {
                    const std::string setting = key.substr(key.rfind('.') + 1);
                    throw ScenarioError("tune." + setting + ": a candidate of "
                                        + config.GetString("tune." + setting) + " cannot run as "
                                        + key + " (" + message + ")");
                }
            }
        }
        throw;
    }
}

} // namespace

std::string
TuningFolder(const ScenarioConfig& config)
{
    std::string out = config.GetString("out");
    while (out.size() > 1 && out.back() == '/')
    {
        out.pop_back();
    }
    return out + "-tuning";
}

std::vector<std::pair<std::string, std::string>>
TunedAt(const ScenarioConfig& config)
{
    std::vector<std::pair<std::string, std::string>> at;
    for (const auto& axis : GridAxes(config))
    {
        if (axis != "algorithm" && axis != "seed" && axis != "repeat")
        {
            at.emplace_back(axis, AxisValues(config, axis).front());
        }
    }
    return at;
}

ScenarioConfig
TuningConfig(const ScenarioConfig& config)
{
    const std::vector<std::string> axes = GridAxes(config);
    for (const auto& setting : kTunedSettings)
    {
        // "a, b" would make the candidates a grid axis: tuning runs, and comparisons, per value.
        if (std::find(axes.begin(), axes.end(), "tune." + setting) != axes.end())
        {
            throw ScenarioError("tune." + setting
                                + ": the candidates are one list in brackets, "
                                  "such as [0.01, 0.03]; '"
                                + config.GetString("tune." + setting)
                                + "' would be a grid axis of whole tunings");
        }
    }
    bool anything = false;
    for (const auto& algorithm : AxisValues(config, "algorithm"))
    {
        anything = anything || !TunedKeys(config, algorithm).empty();
    }
    if (!anything)
    {
        throw ScenarioError("tune: nothing to tune: tune.lr, tune.alpha and tune.gamma give no "
                            "candidate for "
                            + AsAxis(AxisValues(config, "algorithm"))
                            + " (an empty list [] tunes nothing); run the scenario without tune");
    }
    ScenarioConfig tuning = config;
    // Settings are chosen per algorithm, once: another axis would mix its values into one
    // choice, so the tuning runs at its first value and the comparison at all of them.
    for (const auto& [axis, value] : TunedAt(config))
    {
        tuning.Set(axis, value);
    }
    for (const auto& algorithm : AxisValues(config, "algorithm"))
    {
        for (const auto& key : TunedKeys(config, algorithm))
        {
            tuning.Set(key, AsAxis(config.GetList("tune." + key.substr(key.rfind('.') + 1))));
        }
    }
    tuning.Set("eval.on", "validation");
    const uint64_t rounds = config.GetUint("tune.rounds", 0, 100000000);
    if (rounds > 0)
    {
        tuning.Set("rounds", std::to_string(rounds));
    }
    // One seed: the settings are chosen once, then compared over every seed of the scenario.
    tuning.Set("seed", AxisValues(config, "seed").front());
    tuning.Set("repeat", "1");
    // Beside the comparison's folder, so that collecting the comparison leaves the tuning out.
    tuning.Set("out", TuningFolder(config));
    return tuning;
}

std::vector<TunedChoice>
ChooseSettings(const ScenarioConfig& tuning, std::ostream& log)
{
    const std::string dir = tuning.GetString("out");
    // Only this tuning's candidates, finished with exactly their configuration: never a run
    // left in the folder by an earlier tuning with other candidates or budgets.
    std::vector<RunRecord> runs;
    for (const GridPoint& point : ExpandGrid(tuning))
    {
        if (IsComplete(point))
        {
            std::vector<RunRecord> found
                = ReadFinishedRuns(point.config.GetString("out"), -1.0, log);
            runs.insert(runs.end(), found.begin(), found.end());
        }
    }
    std::vector<TunedChoice> choices;
    for (const auto& algorithm : AxisValues(tuning, "algorithm"))
    {
        const std::vector<std::string> keys = TunedKeys(tuning, algorithm);
        const RunRecord* best = nullptr;
        bool bestReached = false;
        uint32_t tried = 0;
        for (const RunRecord& run : runs)
        {
            if (run.config.at("algorithm") != algorithm)
            {
                continue;
            }
            ++tried;
            const double time = Number(run, "time_to_target_s");
            const bool reached = time >= 0.0;
            // Reaching the target beats not reaching it; then earlier, or more accurate.
            const bool better
                = !best || (reached && !bestReached)
                  || (reached && bestReached && time < Number(*best, "time_to_target_s"))
                  || (!reached && !bestReached
                      && Number(run, "final_accuracy_mean") > Number(*best, "final_accuracy_mean"));
            if (better)
            {
                best = &run;
                bestReached = reached;
            }
        }
        if (!best)
        {
            throw ScenarioError("tune: no finished tuning run of " + algorithm + " in " + dir
                                + " (see the runs' log.txt)");
        }
        TunedChoice choice;
        choice.algorithm = algorithm;
        for (const auto& key : keys)
        {
            choice.values[key] = best->config.at(key);
        }
        choice.run = std::filesystem::relative(best->dir, dir).string();
        choice.criterion = bestReached ? "time to target" : "final accuracy";
        choice.score = Number(*best, bestReached ? "time_to_target_s" : "final_accuracy_mean");
        choice.tried = tried;
        choices.push_back(choice);
    }
    return choices;
}

int
RunTuning(const ScenarioConfig& config, const GridOptions& options, const std::string& emitJobs)
{
    const ScenarioConfig tuning = TuningConfig(config);
    const std::vector<GridPoint> candidates = ExpandGrid(tuning);
    std::cout << "dlsim: tune: " << candidates.size()
              << " runs choose each algorithm's settings on a validation set ("
              << tuning.GetString("eval.validation") << " of the training samples, held out), "
              << tuning.GetString("rounds") << " rounds each, in " << tuning.GetString("out")
              << " (a folder beside " << config.GetString("out")
              << ", which gets the comparison with the settings chosen)" << std::endl;
    for (const auto& [axis, value] : TunedAt(config))
    {
        std::cout << "dlsim: tune: tuned at " << axis << " = " << value << " (the first of "
                  << AxisValues(config, axis).size()
                  << " values); the comparison runs with every one of them" << std::endl;
    }
    if (!emitJobs.empty())
    {
        if (!std::all_of(candidates.begin(), candidates.end(), IsComplete))
        {
            std::cout << "dlsim: tune: run these jobs, then ./dlsim tune again for the comparison"
                      << std::endl;
            return EmitJobs(tuning, candidates, emitJobs);
        }
    }
    else if (const int status = RunCandidates(config, tuning, candidates, options); status != 0)
    {
        std::cerr << "dlsim: tune: some tuning runs failed; choosing among those that finished"
                  << std::endl;
    }

    const std::vector<TunedChoice> choices = ChooseSettings(tuning, std::cerr);
    std::ostringstream csv;
    csv << "algorithm,key,value,criterion,score,run,candidates\n";
    ScenarioConfig comparison = config;
    for (const TunedChoice& c : choices)
    {
        std::cout << "dlsim: tune: " << c.algorithm << ":";
        for (const auto& [key, value] : c.values)
        {
            std::cout << " " << key << " = " << value;
            csv << CsvField(c.algorithm) << "," << CsvField(key) << "," << CsvField(value) << ","
                << CsvField(c.criterion) << "," << c.score << "," << CsvField(c.run) << ","
                << c.tried << "\n";
            comparison.Set(key, value);
        }
        std::ostringstream score;
        score << std::defaultfloat << std::setprecision(4) << c.score;
        std::cout << " (best " << c.criterion << " on the validation set: " << score.str()
                  << (c.criterion == "time to target" ? " s" : "") << ", of " << c.tried
                  << " runs; " << c.run << ")" << std::endl;
    }
    WriteFileAtomically(tuning.GetString("out") + "/choice.csv", csv.str());
    std::filesystem::create_directories(config.GetString("out"));
    WriteFileAtomically(config.GetString("out") + "/tuned-settings.csv", csv.str());
    std::cout << "dlsim: tune: the choice and why: " << tuning.GetString("out")
              << "/choice.csv (and " << config.GetString("out") << "/tuned-settings.csv)"
              << std::endl;

    const std::vector<GridPoint> points = ExpandGrid(comparison);
    if (!emitJobs.empty())
    {
        return EmitJobs(comparison, points, emitJobs);
    }
    return RunGrid(comparison, points, options);
}

} // namespace ns3
