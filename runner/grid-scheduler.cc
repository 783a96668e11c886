// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "grid-scheduler.h"

#include "capture-config.h"
#include "external-command.h"
#include "grid-table.h"
#include "grid-time-left.h"
#include "learning-replay.h"
#include "result-files.h"
#include "results-plots.h"
#include "run-folder.h"
#include "scenario-runner.h"
#include "worker-pool.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// The grid's running children, for the signal handler (fixed storage: async-signal-safe).
constexpr size_t kMaxJobs = 1024;
volatile pid_t g_children[kMaxJobs] = {};

/// An interrupted grid takes its runs down with it, so that a rerun can take their folders over.
extern "C" void
StopChildren(int signal)
{
    for (size_t i = 0; i < kMaxJobs; ++i)
    {
        if (g_children[i] > 0)
        {
            ::kill(g_children[i], SIGTERM);
        }
    }
    // Reap them before leaving: an orphaned zombie would still look alive to the folder lock of
    // a rerun when init is slow to reap it.
    for (size_t i = 0; i < kMaxJobs; ++i)
    {
        if (g_children[i] > 0)
        {
            ::waitpid(g_children[i], nullptr, 0);
        }
    }
    ::_exit(128 + signal);
}

void
RememberChild(pid_t pid, bool add)
{
    for (size_t i = 0; i < kMaxJobs; ++i)
    {
        if (add ? g_children[i] == 0 : g_children[i] == pid)
        {
            g_children[i] = add ? pid : 0;
            return;
        }
    }
}

/// Start `self point.ini` with its output going to the point's log file; `replayFrom`: the
/// folder whose recorded learning it replays (empty: it trains); `share`: the threads it may use
/// (every core: run.threads = auto as it is). Returns its process and the threads it uses.
std::pair<pid_t, unsigned>
SpawnPoint(const std::string& self,
           const GridPoint& point,
           unsigned share,
           bool overwrite,
           const std::string& replayFrom)
{
    const std::string out = point.config.GetString("out");
    CreateOutputFolder(out, "");
    const std::string ini = out + "/point.ini";
    std::ostringstream text;
    point.config.WriteIni(text);
    WriteFileAtomically(ini, text.str());
    // The child opens its log only once it holds the folder's lock, so a second grid never
    // empties the log of a point another process still runs.
    std::vector<std::string> args = {self, ini, "--no-plot", "--log-file=" + out + "/log.txt"};
    if (overwrite)
    {
        args.push_back("--overwrite");
    }
    if (!replayFrom.empty())
    {
        args.push_back("--replay-from=" + replayFrom);
    }
    // Points running side by side share the cores: with more threads than cores the simulator
    // threads (each run's critical path) would wait for each other's workers. One thread trains
    // in the simulator's thread, which is best when the runs alone fill the cores.
    unsigned threads = share;
    if (point.config.GetString("run.threads") != "auto")
    {
        threads = static_cast<unsigned>(point.config.GetUint("run.threads", 1, 1024));
    }
    else if (share < WorkerPool::DefaultThreads())
    {
        args.push_back("--run.threads=" + std::to_string(share));
    }
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ);
    if (rc != 0)
    {
        throw std::runtime_error("cannot start " + self + ": " + std::strerror(rc));
    }
    return {pid, threads};
}

} // namespace

/**
 * A point is complete when it holds a finished run (IncompleteRunReason) of exactly this
 * configuration. A folder with a summary that is not a finished run's (empty, cut short,
 * binary, without the figures of a finished run) is reported and run again.
 */
bool
IsComplete(const GridPoint& point)
{
    const std::string out = point.config.GetString("out");
    const bool hasSummary = std::filesystem::exists(out + "/summary.json")
                            || std::filesystem::exists(out + "/summary.csv");
    if (!hasSummary)
    {
        return false;
    }
    if (const std::string why = IncompleteRunReason(out); !why.empty())
    {
        std::cout << "dlsim: warning: " << out << " is not a finished run (" << why
                  << "); running it again" << std::endl;
        return false;
    }
    std::ostringstream ini;
    point.config.WriteIni(ini);
    if (!SameConfiguration(ReadConfigIni(out), ini.str()))
    {
        return false;
    }
    // Captures do not change results, but a point asked for them is not done without them.
    if (const std::string missing = CaptureConfig::MissingFiles(point.config, out);
        !missing.empty())
    {
        std::cout << "dlsim: note: " << out << " has " << missing << "; running it again"
                  << std::endl;
        return false;
    }
    return true;
}

int
EmitJobs(const ScenarioConfig& config,
         const std::vector<GridPoint>& points,
         const std::string& file)
{
    // A jobs file holds one command per line: a path with a line break cannot be written into
    // it as one word that every shell reads back (POSIX quoting keeps the break).
    auto checkOneLine = [](const std::string& what, const std::string& path)
    {
        if (path.find_first_of("\n\r") != std::string::npos)
        {
            throw ScenarioError("--emit-jobs: " + what + " '" + path
                                + "' holds a line break, which a jobs file (one command per "
                                  "line) cannot carry; choose another name");
        }
    };
    checkOneLine("the jobs file", file);
    for (const auto& point : points)
    {
        checkOneLine("out", point.config.GetString("out"));
        std::ostringstream ini;
        point.config.WriteIni(ini);
        try
        {
            CheckOutputFolder(point.config.GetString("out"), ini.str(), false, FolderWriter::Run);
        }
        catch (const std::exception& e)
        {
            throw ScenarioError("grid point " + point.name + ": " + e.what());
        }
    }
    // A relative path starting with '-' would be read as an option.
    auto asArgument = [](const std::string& path)
    {
        return ShellQuote(path.rfind('-', 0) == 0 ? "./" + path : path);
    };
    std::ostringstream jobs;
    size_t count = 0;
    for (const auto& point : points)
    {
        const std::string out = point.config.GetString("out");
        CreateOutputFolder(out, "");
        std::ostringstream ini;
        point.config.WriteIni(ini);
        WriteFileAtomically(out + "/point.ini", ini.str());
        // Relative paths: the command runs from the project root on whichever host gets it.
        jobs << "./dlsim run " << asArgument(out + "/point.ini") << "\n";
        ++count;
    }
    WriteFileAtomically(file, jobs.str());
    // Slurm's default MaxArraySize (1001) refuses an array of more than 1,000 tasks: a larger
    // grid gives each task every 1,000th line. The stride is the array's size as Slurm says it,
    // so that `sbatch --array=1-N` on the command line still runs every line once.
    constexpr size_t kMaxArrayTasks = 1000;
    const size_t tasks = std::min(count, kMaxArrayTasks);
    std::ostringstream slurm;
    slurm << "#!/bin/bash\n"
          << "# Slurm array job: task K of N runs lines K, K+N, K+2N, ... of " << asArgument(file)
          << ".\n# Submit from the dlsim project root with: sbatch " << asArgument(file + ".slurm")
          << "\n"
          << "#SBATCH --job-name=dlsim\n"
          << "#SBATCH --array=1-" << tasks << "\n"
          << "#SBATCH --cpus-per-task=1\n"
          << "#SBATCH --output=dlsim-%A_%a.log\n"
          << "set -euo pipefail\n"
          << "cd \"${SLURM_SUBMIT_DIR:-.}\"\n"
          << "tasks=${SLURM_ARRAY_TASK_COUNT:-" << tasks << "}\n"
          << "lines=$(wc -l < " << asArgument(file) << ")\n"
          << "status=0\n"
          << "for ((n = SLURM_ARRAY_TASK_ID; n <= lines; n += tasks)); do\n"
          << "  line=$(sed -n \"${n}p\" " << asArgument(file) << ")\n"
          << "  eval \"$line\" || status=1\n"
          << "done\n"
          << "exit $status\n";
    WriteFileAtomically(file + ".slurm", slurm.str());
    std::cout << "dlsim: " << count << " commands in " << file << " (GNU parallel: parallel "
              << "--sshloginfile HOSTS --workdir $PWD < " << asArgument(file)
              << "), Slurm array job of " << tasks << " tasks in " << file << ".slurm"
              << (tasks < count ? " (Slurm's default MaxArraySize allows 1,000: each task runs "
                                  "every 1,000th command)"
                                : "")
              << "; afterwards: ./dlsim collect " << asArgument(config.GetString("out"))
              << std::endl;
    return 0;
}

int
RunGrid(const ScenarioConfig& config,
        const std::vector<GridPoint>& points,
        const GridOptions& options)
{
    const unsigned jobs = options.jobs;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const std::string root = config.GetString("out");
    std::ostringstream gridIni;
    config.WriteIni(gridIni);
    // A second grid on the folder, or a finished run's folder, is refused at once.
    CheckOutputFolder(
        root, gridIni.str(), options.overwrite, FolderWriter::Grid, options.replayFrom);
    // Every point's configuration is checked before any runs, so a bad value in the last
    // point does not surface hours into the grid.
    for (const auto& point : points)
    {
        try
        {
            std::ostringstream ini;
            point.config.WriteIni(ini);
            CheckOutputFolder(point.config.GetString("out"),
                              ini.str(),
                              options.overwrite,
                              FolderWriter::Run,
                              options.replayFrom);
            CheckScenario(point.config);
            // A grid of replays: every point must learn what the recording holds.
            if (!options.replayFrom.empty())
            {
                LoadRecordFor(options.replayFrom, point.config);
            }
        }
        catch (const std::exception& e)
        {
            throw ScenarioError("grid point " + point.name + ": " + e.what());
        }
    }
    CreateOutputFolder(root, "");
    // Held to the grid's end: a grid that took the folder while the points were checked is
    // found here.
    GridFolderLock gridLock(root);
    if (HasCompleteResults(root))
    {
        // --overwrite over a finished run's folder: its results are not the grid's.
        ClearRunResults(root);
    }
    WriteFileAtomically(root + "/config.ini", gridIni.str());
    ::setenv("DLSIM_GRID_PARENT", std::to_string(::getpid()).c_str(), 1);
    std::cout << "dlsim: grid of " << points.size() << " runs over " << GridAxes(config).size()
              << " axes, " << jobs << " at a time; results in " << root << "/" << std::endl;
    auto start = std::chrono::steady_clock::now();
    std::signal(SIGINT, StopChildren);
    std::signal(SIGTERM, StopChildren);
    std::signal(SIGHUP, StopChildren);
    using Clock = std::chrono::steady_clock;
    struct Running
    {
        size_t point;
        Clock::time_point started;
        unsigned threads; ///< the threads it uses, its share of the cores to its end
    };

    std::map<pid_t, Running> running;
    std::vector<bool> failed(points.size(), false);
    // Train once, replay the network: a point that learns what an earlier one learns waits for
    // it and replays its recording (learning-replay.h).
    std::vector<size_t> sources;
    if (options.replayFrom.empty())
    {
        sources = ReplaySources(points);
        if (!config.GetBool("run.replay"))
        {
            std::iota(sources.begin(), sources.end(), size_t{0}); // every point trains
        }
    }
    enum class State
    {
        Waiting,
        Running,
        Done,
    };
    std::vector<State> state(points.size(), State::Waiting);
    if (!sources.empty())
    {
        size_t replays = 0;
        for (size_t i = 0; i < points.size(); ++i)
        {
            replays += sources[i] != i ? 1 : 0;
        }
        if (replays > 0)
        {
            std::cout << "dlsim: " << replays << " of " << points.size()
                      << " runs differ from another only in network keys: they replay its "
                         "recorded learning instead of training"
                      << std::endl;
        }
        else if (points.size() > 1)
        {
            // One line saying why, when the axes are network keys but learning depends on them.
            const std::string why = ReplayObstacle(points.front().config);
            const bool networkAxes = !GridAxes(config).empty() &&
                                     [&config]()
            {
                for (const auto& axis : GridAxes(config))
                {
                    const ScenarioKey* key = FindScenarioKey(axis);
                    if (!key || !key->network)
                    {
                        return false;
                    }
                }
                return true;
            }();
            if (networkAxes && !why.empty())
            {
                std::cout << "dlsim: every run trains (no replay): " << why << std::endl;
            }
        }
    }
    else
    {
        std::cout << "dlsim: every run replays the learning recorded in " << options.replayFrom
                  << std::endl;
    }
    // The folder a point replays, once its source has finished (empty: it trains). Whether a
    // source's recording can be replayed is decided once, for all of its followers (they have
    // the same learning keys).
    std::map<std::string, bool> readable;
    auto replayFolder = [&](size_t i) -> std::string
    {
        if (sources.empty())
        {
            return options.replayFrom;
        }
        if (sources[i] == i || failed[sources[i]])
        {
            return "";
        }
        const std::string folder = points[sources[i]].config.GetString("out");
        // A source finished before recordings existed, or whose recording this dlsim cannot
        // read or use (damaged, another format, other learning keys), trains its followers
        // afresh.
        auto known = readable.find(folder);
        if (known == readable.end())
        {
            known = readable.emplace(folder, CanReplay(folder, points[i].config)).first;
        }
        return known->second ? folder : "";
    };
    auto startable = [&](size_t i)
    {
        return state[i] == State::Waiting
               && (sources.empty() || sources[i] == i || state[sources[i]] == State::Done);
    };
    // The points that train start before those that replay: replays wait for a training, so a
    // training started late would end the grid with one core idle (as longest-first list
    // scheduling puts the long jobs first).
    std::vector<size_t> order(points.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_partition(order.begin(),
                          order.end(),
                          [&sources](size_t i) { return sources.empty() || sources[i] == i; });
    size_t next = 0; // points started (or skipped) so far
    size_t finished = 0;
    auto elapsed = [&start]()
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    auto kindOf = [&sources](size_t i)
    {
        return sources.empty() || sources[i] == i ? PointKind::Trains : PointKind::Replays;
    };
    // The wall time left, from the points that ran to an end here, by kind: a grid trains its
    // first points and replays the rest, which cost a fraction of a training.
    GridTimeLeft timeLeft;
    auto describeTimeLeft = [&]()
    {
        std::vector<PointKind> waiting;
        for (size_t i = 0; i < points.size(); ++i)
        {
            if (state[i] == State::Waiting)
            {
                waiting.push_back(kindOf(i));
            }
        }
        std::vector<std::pair<PointKind, double>> runs;
        for (const auto& [pid, run] : running)
        {
            runs.emplace_back(kindOf(run.point),
                              std::chrono::duration<double>(Clock::now() - run.started).count());
        }
        const GridTimeLeft::Estimate left = timeLeft.Left(waiting, runs, jobs);
        std::string text = "about " + HumanDuration(left.seconds) + " left";
        if (left.replaysAsTrainings)
        {
            text = "at most " + text + " (no replay has finished: replays counted as trainings)";
        }
        else if (left.trainingsAsReplays)
        {
            text = "at least " + text + " (no training has finished: trainings counted as replays)";
        }
        return text;
    };
    while (next < points.size() || !running.empty())
    {
        const size_t startedBefore = next;
        for (size_t k = 0; k < order.size() && running.size() < jobs; ++k)
        {
            const size_t i = order[k];
            if (!startable(i))
            {
                continue;
            }
            const GridPoint& point = points[i];
            ++next;
            if (IsComplete(point))
            {
                state[i] = State::Done;
                std::cout << "[" << ++finished << "/" << points.size() << "] " << point.name
                          << ": already complete, skipped" << std::endl;
                k = static_cast<size_t>(-1); // its followers may start now: look again
                continue;
            }
            const std::string replay = replayFolder(i);
            // The cores left to the runs that can start now (this one among them), shared by as
            // many as may start: a point that trains while its replays wait for it runs alone
            // and gets every core; a run keeps its share to its end, so the running ones'
            // threads are not given twice.
            unsigned used = 0;
            for (const auto& [pid, run] : running)
            {
                used += run.threads;
            }
            size_t ready = 0;
            for (size_t j = 0; j < points.size(); ++j)
            {
                ready += startable(j) ? 1 : 0;
            }
            const unsigned cores = WorkerPool::DefaultThreads();
            const size_t sharing = std::max<size_t>(1, std::min(jobs - running.size(), ready));
            const unsigned share
                = std::max(1u, (cores > used ? cores - used : 0u) / static_cast<unsigned>(sharing));
            const auto [child, threads] = SpawnPoint(self, point, share, options.overwrite, replay);
            state[i] = State::Running;
            running[child] = {i, Clock::now(), threads};
            RememberChild(child, true);
            std::cout << "[start] " << point.name << " (point " << i + 1 << " of " << points.size()
                      << ": " << DescribePoint(point) << ")"
                      << (replay.empty() ? "" : ", replays " + replay) << std::endl;
        }
        if (running.empty())
        {
            // A point waits only for a point that trains, which can always start: nothing
            // started with nothing running would wait for ever.
            if (next == startedBefore)
            {
                throw std::logic_error("grid: points wait for each other");
            }
            continue;
        }
        int status = 0;
        pid_t pid = ::wait(&status);
        if (pid < 0)
        {
            break;
        }
        const Running run = running.at(pid);
        const size_t index = run.point;
        const Clock::time_point started = run.started;
        running.erase(pid);
        RememberChild(pid, false);
        const GridPoint& point = points[index];
        const std::string out = point.config.GetString("out");
        if (!sources.empty() && sources[index] != index && WIFEXITED(status)
            && WEXITSTATUS(status) == kRecordingTooShortExit)
        {
            // Its network runs further within the budget than its source's did: it trains, and
            // the source's followers not started yet replay its longer recording instead.
            const size_t source = sources[index];
            for (size_t j = 0; j < points.size(); ++j)
            {
                if (sources[j] == source && state[j] == State::Waiting)
                {
                    sources[j] = index;
                }
            }
            sources[index] = index;
            state[index] = State::Waiting;
            --next;
            std::cout << "[again] " << point.name << ": the recording of "
                      << points[source].config.GetString("out")
                      << " ends before this network's budget does; it trains" << std::endl;
            continue;
        }
        state[index] = State::Done;
        std::cout << "[" << ++finished << "/" << points.size() << "] " << point.name << ": ";
        const double pointWall = std::chrono::duration<double>(Clock::now() - started).count();
        timeLeft.Finished(kindOf(index), pointWall);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        {
            std::cout << "done in " << HumanDuration(pointWall) << " wall (" << DescribeOutcome(out)
                      << ")";
        }
        else
        {
            failed[index] = true;
            std::cout << "FAILED, see " << out << "/log.txt";
        }
        if (finished < points.size())
        {
            std::cout << "; " << describeTimeLeft();
        }
        std::cout << std::endl;
    }

    // The index: one row per finished point, written as `dlsim collect` writes it.
    std::vector<std::string> finishedDirs;
    for (size_t i = 0; i < points.size(); ++i)
    {
        const std::string out = points[i].config.GetString("out");
        if (!failed[i] && HasCompleteResults(out))
        {
            finishedDirs.push_back(out);
        }
    }
    std::ostringstream quiet;
    const size_t indexed = IndexRuns(root, finishedDirs, quiet);
    const size_t failures = points.size() - indexed;
    std::cout << "dlsim: index of " << indexed << " runs in " << root << "/index.csv, wall time "
              << std::fixed << std::setprecision(0) << elapsed() << " s" << std::endl;
    WriteFileAtomically(
        root + "/" + kGridSummaryFile,
        PrintGridTable(points, failed, config.GetString("target_accuracy"), std::cout));
    if (failures > 0)
    {
        std::cerr << "dlsim: error: " << failures << " of " << points.size() << " runs failed"
                  << std::endl;
        return 1;
    }
    if (options.plot)
    {
        PlotRuns(root, std::cout, options.plotOptions);
    }
    return 0;
}

} // namespace ns3
