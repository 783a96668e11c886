// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * dlsim-run [SCENARIO.ini] [--key=value ...] [-j N] [--tune-choco]
 * Runs a scenario and writes its run directory; a scenario with grid axes runs every point,
 * N at a time in separate processes, skipping points already complete.
 */
#include "csv-rows.h"
#include "dataset.h"
#include "grid-scheduler.h"
#include "learning-record.h"
#include "learning-replay.h"
#include "overlay-graph.h"
#include "provenance.h"
#include "results-plots.h"
#include "run-arguments.h"
#include "run-folder.h"
#include "run-signals.h"
#include "scenario-grid.h"
#include "scenario-runner.h"
#include "tuning.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <new>
#include <unistd.h>

using namespace ns3;
using namespace dlsim; // the learning core (model/core)

// jemalloc (linked in by CMakeLists.txt) reads its options from this symbol. A round frees
// models' worth of messages and parameter copies at once; giving the pages back to the system
// within a second instead of ten keeps a run of many learners from holding on to rounds of
// freed memory (measured: the same speed, about a sixth less peak memory with 1,000 learners).
extern "C"
{
    const char* malloc_conf = "dirty_decay_ms:1000,muzzy_decay_ms:0";
}

namespace
{

/**
 * 2 for input that cannot run (a key, a value, a file of the scenario's), 1 for a run that
 * could not be carried out or stopped on an error (writing results, a stalled network).
 */
int
ExitStatusFor(const std::exception& e)
{
    const bool badInput
        = dynamic_cast<const ScenarioError*>(&e) || dynamic_cast<const ConfigValueError*>(&e)
          || dynamic_cast<const TopologyError*>(&e) || dynamic_cast<const DatasetError*>(&e)
          || dynamic_cast<const LearningRecordError*>(&e);
    return badInput ? 2 : 1;
}

int
RunSingle(const ScenarioConfig& config,
          const RunOptions& options,
          bool plot,
          const PlotOptions& plotOptions)
{
    RunSummary summary = RunScenario(config, std::cout, options);
    std::cout << std::fixed << std::setprecision(4) << "dlsim: done: ";
    if (summary.finalAccuracyMean)
    {
        std::cout << "final mean accuracy " << *summary.finalAccuracyMean
                  << (summary.trainingDiverged.empty() ? "" : " (the training diverged)");
    }
    else
    {
        std::cout << "no evaluation (no accuracy)";
    }
    std::cout << ", simulated time " << summary.simulatedSeconds << " s, " << std::setprecision(2)
              << (summary.valueBytesPerNode + summary.metadataBytesPerNode) / 1e6
              << " MB sent per node, wall time " << summary.wallSeconds << " s\n"
              << "dlsim: results in " << config.GetString("out")
              << "/ (summary.json, rounds.csv, eval.csv, curve.csv, config.ini)" << std::endl;
    if (plot)
    {
        PlotRuns(config.GetString("out"), std::cout, plotOptions);
    }
    // A log file that filled up lost lines: the run's results are complete, its log is not.
    std::cout.flush();
    std::cerr.flush();
    if (!std::cout || !std::cerr)
    {
        const std::string message = "dlsim: error: the log file " + options.logFile
                                    + " could not be written whole (is the disk full?); the "
                                      "results in "
                                    + config.GetString("out") + " are complete\n";
        const int fd = StderrBeforeLogFile() >= 0 ? StderrBeforeLogFile() : STDERR_FILENO;
        [[maybe_unused]] const ssize_t written = ::write(fd, message.data(), message.size());
        return 1;
    }
    return 0;
}

/// --plot DIR, --collect DIR.
int
PlotOrCollect(const RunArguments& line)
{
    // A new target changes the to-target columns of index.csv as well as the figures, so that
    // the two never disagree.
    const double target = line.plotOptions.targetAccuracy;
    if (line.action == RunArguments::Action::Collect
        || (target >= 0.0 && std::filesystem::exists(line.folder + "/index.csv")))
    {
        CollectRuns(line.folder, std::cout, target);
    }
    PlotRuns(line.folder, std::cout, line.plotOptions);
    return 0;
}

/**
 * Where `./dlsim replay RUN_DIR --KEY=VALUE ...` writes without --out: next to RUN_DIR, named
 * after what changed, so that replays over different networks do not meet.
 */
std::string
DefaultReplayFolder(std::string run, const std::vector<std::string>& overrides)
{
    while (run.size() > 1 && run.back() == '/')
    {
        run.pop_back();
    }
    std::string folder = run + "-replay";
    for (const std::string& token : overrides)
    {
        std::string part = token.substr(token.find_first_not_of('-'));
        for (char& c : part)
        {
            c = (c == '/' || c == ' ' || c == ',') ? '_' : c;
        }
        folder += "-" + part;
    }
    return folder;
}

/// A scenario: a single run, a grid, its jobs written out, or CHOCO-SGD's tuning for it.
int
RunScenarioOrGrid(const RunArguments& line, RunOptions options)
{
    std::vector<std::string> overrides = line.overrides;
    const std::string replay = line.replay.empty() ? line.replayFrom : line.replay;
    if (!replay.empty() && (line.tune || line.tuneChoco || !line.emitJobs.empty()))
    {
        throw ScenarioError("--replay and --replay-from run a recorded learning: they take no "
                            "--tune, --tune-choco or --emit-jobs");
    }
    if (!line.replay.empty()
        && std::none_of(overrides.begin(),
                        overrides.end(),
                        [](const std::string& token) { return token.rfind("--out=", 0) == 0; }))
    {
        overrides.push_back("--out=" + DefaultReplayFolder(line.replay, line.overrides));
    }
    ScenarioConfig config = ScenarioConfig::Load(line.scenarioFile, overrides);
    std::vector<GridPoint> points = ExpandGrid(config);
    if (line.tuneChoco)
    {
        for (const auto& point : points)
        {
            PrintChocoTuning(point.config, std::cout);
        }
        return 0;
    }
    if (line.tune)
    {
        return RunTuning(
            config, {line.jobs, line.overwrite, line.plot, line.plotOptions}, line.emitJobs);
    }
    if (!line.emitJobs.empty())
    {
        return EmitJobs(config, points, line.emitJobs);
    }
    if (GridAxes(config).empty())
    {
        options.overwrite = line.overwrite;
        options.logFile = line.logFile;
        options.replayFrom = replay;
        return RunSingle(config, options, line.plot, line.plotOptions);
    }
    return RunGrid(
        config, points, {line.jobs, line.overwrite, line.plot, line.plotOptions, replay});
}

/**
 * An error message as printed: one of over 4 KB (a key or value of megabytes quoted whole) keeps
 * its first 2,000 and last 500 bytes, and says how much it left out.
 */
std::string
PrintableMessage(const std::string& message)
{
    constexpr size_t kLongest = 4096;
    if (message.size() <= kLongest)
    {
        return message;
    }
    return message.substr(0, 2000) + " ... (" + std::to_string(message.size() - 2500)
           + " bytes left out) ... " + message.substr(message.size() - 500);
}

} // namespace

int
main(int argc, char** argv)
{
    RunOptions options;
    options.commandLine = QuoteCommandLine(argc, argv);
    InstallFailureHandlers();
    try
    {
        const RunArguments line = ParseRunArguments(argc, argv);
        switch (line.action)
        {
            case RunArguments::Action::Help:
                PrintUsage(std::cout);
                return 0;
            case RunArguments::Action::Version:
                std::cout << VersionLine() << std::endl;
                return 0;
            case RunArguments::Action::KeyTable:
                WriteKeyTableRst(std::cout);
                return 0;
            case RunArguments::Action::Plot:
            case RunArguments::Action::Collect:
                return PlotOrCollect(line);
            case RunArguments::Action::Run:
                break;
        }
        return RunScenarioOrGrid(line, options);
    }
    catch (const std::bad_alloc&)
    {
        // The step says which part did not fit: the data, the learners' models, the network.
        const char* step = GetRunStep();
        std::cerr << "dlsim: error: out of memory" << (step && *step ? " while " : "")
                  << (step ? step : "")
                  << ": the scenario does not fit in the memory this process may use (fewer "
                     "nodes, samples or links, a smaller model, or a higher ulimit -v)"
                  << std::endl;
        return 1;
    }
    catch (const RecordingTooShortError& e)
    {
        std::cerr << "dlsim: error: " << PrintableMessage(e.what()) << std::endl;
        return kRecordingTooShortExit;
    }
    catch (const std::exception& e)
    {
        std::cerr << "dlsim: error: " << PrintableMessage(e.what()) << std::endl;
        return ExitStatusFor(e);
    }
}
