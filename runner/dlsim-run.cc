// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * dlsim-run [SCENARIO.ini] [--key=value ...] [-j N] [--tune-choco]
 * Runs a scenario and writes its run directory; a scenario with grid axes runs every point,
 * N at a time in separate processes, skipping points already complete.
 */
#include "capture-config.h"
#include "dataset.h"
#include "external-command.h"
#include "overlay-graph.h"
#include "provenance.h"
#include "random-variable-spec.h"
#include "result-files.h"
#include "results-plots.h"
#include "run-folder.h"
#include "scenario-grid.h"
#include "scenario-runner.h"
#include "worker-pool.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <spawn.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

extern char** environ;

using namespace ns3;

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

/// Render figures at the end of a run (off with --no-plot, and in grid children).
bool g_plot = true;

/// --overwrite: replace complete results of another configuration.
bool g_overwrite = false;

/// --figure-style, --log-x, --log-y: how the figures at the end of a run are drawn.
PlotOptions g_plotOptions;

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

/**
 * 2 for input that cannot run (a key, a value, a file of the scenario's), 1 for a run that
 * could not be carried out or stopped on an error (writing results, a stalled network).
 */
int
ExitStatusFor(const std::exception& e)
{
    const bool badInput
        = dynamic_cast<const ScenarioError*>(&e) || dynamic_cast<const ConfigValueError*>(&e)
          || dynamic_cast<const TopologyError*>(&e) || dynamic_cast<const DatasetError*>(&e);
    return badInput ? 2 : 1;
}

/// Create a folder, or say why not (e.g. permission denied).
void
CreateFolder(const std::string& folder)
{
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
    {
        throw ResultFileError("cannot create " + folder + ": " + error.message());
    }
}

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

void
PrintUsage(std::ostream& out)
{
    out << "usage: dlsim-run [SCENARIO.ini] [--key=value ...] [--ns3.TYPE::ATTRIBUTE=VALUE ...]\n"
        << "                 [-j N] [--overwrite] [--tune-choco] [--emit-jobs FILE] [--no-plot]\n"
        << "                 [--figure-style=screen|paper] [--log-x] [--log-y]\n"
        << "       dlsim-run --plot DIR [--target_accuracy=X] [--figure-style=screen|paper]\n"
        << "                 [--log-x] [--log-y]\n"
        << "       dlsim-run --collect DIR [the same options as --plot]\n"
        << "       dlsim-run --version\n"
        << "       dlsim-run --key-table   (the keys as the doc's reStructuredText table)\n"
        << "(./dlsim run, ./dlsim plot and ./dlsim collect call it this way.)\n\n"
        << "Runs a scenario (default scenarios/quickstart.ini) and writes its results.\n"
        << "A key given several comma-separated values (a, b, c) is a grid axis: every\n"
        << "combination runs in its own folder, N at a time with -j N; finished points are\n"
        << "skipped, so an interrupted grid resumes. --tune-choco prints CHOCO-SGD's\n"
        << "step-size tuning for the scenario and exits. --emit-jobs FILE writes one command\n"
        << "per point to FILE (for GNU parallel, e.g. parallel --sshloginfile HOSTS < FILE)\n"
        << "and a Slurm array job script FILE.slurm, and runs nothing; afterwards\n"
        << "'dlsim collect DIR' rebuilds the index and figures from the finished folders.\n"
        << "Figures (gnuplot, PNG and SVG) go to OUT/plots after every run; with\n"
        << "--figure-style=paper they are PDF and SVG, 3.5 in wide for one column of a paper.\n"
        << "--log-x and --log-y force log axes (a sweep's axis is logarithmic anyway when its\n"
        << "values span a factor of 10). --target_accuracy=X given to plot or collect\n"
        << "recomputes time, bytes and round to X from every run's curve.csv, in the figures\n"
        << "and in index.csv.\n\n"
        << "Any key can be set in the file or overridden on the command line:\n\n";
    for (const auto& key : ScenarioKeys())
    {
        out << "  --" << key.name << " (default '" << key.defaultValue << "')\n      " << key.help;
        for (size_t i = 0; i < key.attributes.size(); ++i)
        {
            out << (i == 0 ? " (sets " : ", ") << key.attributes[i];
        }
        out << (key.attributes.empty() ? "" : ")") << "\n";
    }
}

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

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
    if (!SameConfiguration(ReadFile(out + "/config.ini"), ini.str()))
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
RunSingle(const ScenarioConfig& config, const RunOptions& options)
{
    RunSummary summary = RunScenario(config, std::cout, options);
    std::cout << std::fixed << std::setprecision(4) << "dlsim: done: ";
    if (summary.finalAccuracyMean)
    {
        std::cout << "final mean accuracy " << *summary.finalAccuracyMean;
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
    if (g_plot)
    {
        PlotRuns(config.GetString("out"), std::cout, g_plotOptions);
    }
    return 0;
}

/// A wall time for people: "45 s", "3 min 20 s", "1 h 05 min".
std::string
HumanDuration(double seconds)
{
    const long s = std::lround(std::max(0.0, seconds));
    std::ostringstream text;
    if (s < 60)
    {
        text << s << " s";
    }
    else if (s < 3600)
    {
        text << s / 60 << " min " << s % 60 << " s";
    }
    else
    {
        text << s / 3600 << " h " << std::setw(2) << std::setfill('0') << s / 60 % 60 << " min";
    }
    return text.str();
}

/// A point's values on the grid's axes: "link.bandwidth=1Mbps, algorithm=dpsgd".
std::string
DescribePoint(const GridPoint& point)
{
    std::string text;
    for (const auto& [key, value] : point.values)
    {
        text += (text.empty() ? "" : ", ") + key + "=" + value;
    }
    return text;
}

/**
 * A summary figure times `scale` as text with 3 significant digits (`precision` decimals if
 * given), but never in exponent notation; `empty` for an empty field.
 */
std::string
Field(const std::string& value, int precision, double scale, const std::string& empty)
{
    if (value.empty())
    {
        return empty;
    }
    const double v = std::stod(value) * scale;
    if (precision < 0)
    {
        precision = v > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(v))), 0, 6) : 1;
    }
    std::ostringstream text;
    text << std::fixed << std::setprecision(precision) << v;
    return text.str();
}

/// The field of a summary.csv row (ReadSummaryCsvRow) in the column named `column`.
std::string
SummaryField(const std::vector<std::string>& fields, const std::string& column)
{
    std::stringstream header(SummaryCsvHeader());
    size_t i = 0;
    for (std::string name; std::getline(header, name, ','); ++i)
    {
        if (name == column)
        {
            return i < fields.size() ? fields[i] : "";
        }
    }
    return "";
}

/// What a finished point reached, from its summary.csv: "final accuracy 0.712, target at 51.9 s".
std::string
DescribeOutcome(const std::string& out)
{
    auto fields = ReadSummaryCsvRow(out + "/summary.csv");
    if (!fields)
    {
        return "no summary";
    }
    const std::string time = SummaryField(*fields, "time_to_target_s");
    return "final accuracy "
           + Field(SummaryField(*fields, "final_accuracy_mean"), 3, 1, "none (no evaluation)")
           + ", target " + (time.empty() ? "not reached" : "at " + Field(time, -1, 1, "") + " s");
}

/**
 * The table at the end of a grid: one row per point with its swept values, the final mean
 * accuracy and time and bytes to the target (as in index.csv), so that a grid's outcome can
 * be read without opening any file.
 */
void
PrintGridTable(const std::vector<GridPoint>& points,
               const std::vector<bool>& failed,
               const std::string& target,
               std::ostream& out)
{
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header;
    for (const auto& [key, value] : points[0].values)
    {
        header.push_back(key);
    }
    for (const char* column : {"final accuracy", "time to target (s)", "MB/node to target"})
    {
        header.push_back(column);
    }
    rows.push_back(header);
    for (size_t i = 0; i < points.size(); ++i)
    {
        std::vector<std::string> row;
        for (const auto& [key, value] : points[i].values)
        {
            row.push_back(value);
        }
        auto fields = ReadSummaryCsvRow(points[i].config.GetString("out") + "/summary.csv");
        if (failed[i] || !fields)
        {
            row.insert(row.end(), {"failed", "-", "-"});
        }
        else
        {
            row.push_back(
                Field(SummaryField(*fields, "final_accuracy_mean"), 3, 1, "no evaluation"));
            row.push_back(Field(SummaryField(*fields, "time_to_target_s"), -1, 1, "not reached"));
            row.push_back(
                Field(SummaryField(*fields, "bytes_per_node_to_target"), -1, 1e-6, "not reached"));
        }
        rows.push_back(row);
    }
    std::vector<size_t> widths(header.size(), 0);
    for (const auto& row : rows)
    {
        for (size_t c = 0; c < row.size(); ++c)
        {
            widths[c] = std::max(widths[c], row[c].size());
        }
    }
    out << "dlsim: grid results (target accuracy " << target
        << "; time and bytes to it interpolated between evaluations):\n";
    for (const auto& row : rows)
    {
        out << " ";
        for (size_t c = 0; c < row.size(); ++c)
        {
            out << " " << std::left << std::setw(static_cast<int>(widths[c])) << row[c];
        }
        out << std::right << "\n";
    }
    out << std::flush;
}

/// Start `self point.ini` with its output going to the point's log file.
pid_t
SpawnPoint(const std::string& self, const GridPoint& point, unsigned runsAtOnce)
{
    const std::string out = point.config.GetString("out");
    CreateFolder(out);
    const std::string ini = out + "/point.ini";
    std::ostringstream text;
    point.config.WriteIni(text);
    WriteFileAtomically(ini, text.str());
    // The child opens its log only once it holds the folder's lock, so a second grid never
    // empties the log of a point another process still runs.
    std::vector<std::string> args = {self, ini, "--no-plot", "--log-file=" + out + "/log.txt"};
    if (g_overwrite)
    {
        args.push_back("--overwrite");
    }
    // Points running side by side share the cores: with more threads than cores the simulator
    // threads (each run's critical path) would wait for each other's workers. One thread trains
    // in the simulator's thread, which is best when the runs alone fill the cores.
    if (runsAtOnce > 1 && point.config.GetString("run.threads") == "auto")
    {
        args.push_back("--run.threads="
                       + std::to_string(std::max(1u, WorkerPool::DefaultThreads() / runsAtOnce)));
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
    return pid;
}

/// Write one command line per point (GNU parallel) and a Slurm array job script.
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
        CreateFolder(out);
        std::ostringstream ini;
        point.config.WriteIni(ini);
        WriteFileAtomically(out + "/point.ini", ini.str());
        // Relative paths: the command runs from the project root on whichever host gets it.
        jobs << "./dlsim run " << asArgument(out + "/point.ini") << "\n";
        ++count;
    }
    WriteFileAtomically(file, jobs.str());
    std::ostringstream slurm;
    slurm << "#!/bin/bash\n"
          << "# Slurm array job: one task per line of " << asArgument(file) << ". Submit from the\n"
          << "# dlsim project root with: sbatch " << asArgument(file + ".slurm") << "\n"
          << "#SBATCH --job-name=dlsim\n"
          << "#SBATCH --array=1-" << count << "\n"
          << "#SBATCH --cpus-per-task=1\n"
          << "#SBATCH --output=dlsim-%A_%a.log\n"
          << "set -euo pipefail\n"
          << "cd \"${SLURM_SUBMIT_DIR:-.}\"\n"
          << "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" " << asArgument(file) << ")\n"
          << "eval \"$line\"\n";
    WriteFileAtomically(file + ".slurm", slurm.str());
    std::cout << "dlsim: " << count << " commands in " << file << " (GNU parallel: parallel "
              << "--sshloginfile HOSTS --workdir $PWD < " << asArgument(file)
              << "), Slurm array job in " << file << ".slurm; afterwards: ./dlsim collect "
              << asArgument(config.GetString("out")) << std::endl;
    return 0;
}

int
RunGrid(const ScenarioConfig& config, const std::vector<GridPoint>& points, unsigned jobs)
{
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const std::string root = config.GetString("out");
    // Every point's configuration is checked before any runs, so a bad value in the last
    // point does not surface hours into the grid.
    for (const auto& point : points)
    {
        try
        {
            CheckScenario(point.config);
        }
        catch (const std::exception& e)
        {
            throw ScenarioError("grid point " + point.name + ": " + e.what());
        }
    }
    CreateFolder(root);
    {
        std::ostringstream ini;
        config.WriteIni(ini);
        WriteFileAtomically(root + "/config.ini", ini.str());
    }
    ::setenv("DLSIM_GRID_PARENT", std::to_string(::getpid()).c_str(), 1);
    std::cout << "dlsim: grid of " << points.size() << " runs over " << GridAxes(config).size()
              << " axes, " << jobs << " at a time; results in " << root << "/" << std::endl;
    auto start = std::chrono::steady_clock::now();
    std::signal(SIGINT, StopChildren);
    std::signal(SIGTERM, StopChildren);
    std::signal(SIGHUP, StopChildren);
    using Clock = std::chrono::steady_clock;
    std::map<pid_t, std::pair<size_t, Clock::time_point>> running; // point, start
    std::vector<bool> failed(points.size(), false);
    size_t next = 0;
    size_t finished = 0;
    double pointSeconds = 0.0; // wall time of the points that ran to an end here
    size_t pointsTimed = 0;
    auto elapsed = [&start]()
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    // The wall time left: a finished point's mean for every point not started, the rest of it
    // for every running one, shared by the parallel jobs.
    auto timeLeft = [&]()
    {
        const double mean = pointSeconds / pointsTimed;
        double work = mean * static_cast<double>(points.size() - next);
        for (const auto& [pid, started] : running)
        {
            work += std::max(
                0.0, mean - std::chrono::duration<double>(Clock::now() - started.second).count());
        }
        const size_t remaining = points.size() - finished;
        return work / static_cast<double>(std::max<size_t>(1, std::min<size_t>(jobs, remaining)));
    };
    while (next < points.size() || !running.empty())
    {
        while (next < points.size() && running.size() < jobs)
        {
            const GridPoint& point = points[next];
            if (IsComplete(point))
            {
                std::cout << "[" << ++finished << "/" << points.size() << "] " << point.name
                          << ": already complete, skipped" << std::endl;
            }
            else
            {
                pid_t child = SpawnPoint(
                    self, point, static_cast<unsigned>(std::min<size_t>(jobs, points.size())));
                running[child] = {next, Clock::now()};
                RememberChild(child, true);
                std::cout << "[start] " << point.name << " (point " << next + 1 << " of "
                          << points.size() << ": " << DescribePoint(point) << ")" << std::endl;
            }
            ++next;
        }
        if (running.empty())
        {
            continue;
        }
        int status = 0;
        pid_t pid = ::wait(&status);
        if (pid < 0)
        {
            break;
        }
        const auto [index, started] = running.at(pid);
        running.erase(pid);
        RememberChild(pid, false);
        const GridPoint& point = points[index];
        const std::string out = point.config.GetString("out");
        std::cout << "[" << ++finished << "/" << points.size() << "] " << point.name << ": ";
        const double pointWall = std::chrono::duration<double>(Clock::now() - started).count();
        pointSeconds += pointWall;
        ++pointsTimed;
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
            std::cout << "; about " << HumanDuration(timeLeft()) << " left";
        }
        std::cout << std::endl;
    }

    // The index: one row per finished point, written as `dlsim collect` writes it.
    std::vector<std::string> finishedDirs;
    for (size_t i = 0; i < points.size(); ++i)
    {
        const std::string out = points[i].config.GetString("out");
        if (!failed[i] && ReadSummaryCsvRow(out + "/summary.csv") && HasCompleteResults(out))
        {
            finishedDirs.push_back(out);
        }
    }
    std::ostringstream quiet;
    const size_t indexed = IndexRuns(root, finishedDirs, quiet);
    const size_t failures = points.size() - indexed;
    std::cout << "dlsim: index of " << indexed << " runs in " << root << "/index.csv, wall time "
              << std::fixed << std::setprecision(0) << elapsed() << " s" << std::endl;
    PrintGridTable(points, failed, config.GetString("target_accuracy"), std::cout);
    if (failures > 0)
    {
        std::cerr << "dlsim: error: " << failures << " of " << points.size() << " runs failed"
                  << std::endl;
        return 1;
    }
    if (g_plot)
    {
        PlotRuns(root, std::cout, g_plotOptions);
    }
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string file;
    std::vector<std::string> overrides;
    unsigned jobs = 1;
    bool tuneChoco = false;
    std::string emitJobs;
    RunOptions options;
    options.commandLine = QuoteCommandLine(argc, argv);
    InstallFailureHandlers();
    if (argc >= 3 && (std::string(argv[1]) == "--plot" || std::string(argv[1]) == "--collect"))
    {
        try
        {
            // Optionally a new target: its time and bytes come from the runs' curve.csv.
            PlotOptions plotOptions;
            for (int i = 3; i < argc; ++i)
            {
                std::string arg = argv[i];
                if ((arg == "--figure-style" || arg == "--target_accuracy") && i + 1 < argc)
                {
                    arg += "=" + std::string(argv[++i]);
                }
                if (!ParsePlotOption(arg, plotOptions))
                {
                    throw ScenarioError("dlsim plot/collect take only --target_accuracy=X, "
                                        "--figure-style=screen|paper, --log-x and --log-y "
                                        "after DIR, got '"
                                        + arg + "'");
                }
            }
            const std::string dir = argv[2];
            // A new target changes the to-target columns of index.csv as well as the figures,
            // so that the two never disagree.
            if (std::string(argv[1]) == "--collect"
                || (plotOptions.targetAccuracy >= 0.0
                    && std::filesystem::exists(dir + "/index.csv")))
            {
                CollectRuns(dir, std::cout, plotOptions.targetAccuracy);
            }
            PlotRuns(dir, std::cout, plotOptions);
            return 0;
        }
        catch (const std::exception& e)
        {
            std::cerr << "dlsim: error: " << e.what() << std::endl;
            return ExitStatusFor(e);
        }
    }
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg == "-h" || arg == "--help")
        {
            PrintUsage(std::cout);
            return 0;
        }
        if (arg == "--version")
        {
            std::cout << VersionLine() << std::endl;
            return 0;
        }
        if (arg == "--key-table")
        {
            WriteKeyTableRst(std::cout);
            return 0;
        }
        if (arg == "--tune-choco")
        {
            tuneChoco = true;
        }
        else if (arg == "--no-plot")
        {
            g_plot = false;
        }
        else if (arg == "--overwrite")
        {
            g_overwrite = true;
        }
        else if (arg == "--log-x" || arg == "--log-y" || arg.rfind("--figure-style", 0) == 0)
        {
            if (arg == "--figure-style" && i + 1 < argc)
            {
                arg += "=" + std::string(argv[++i]);
            }
            try
            {
                ParsePlotOption(arg, g_plotOptions);
            }
            catch (const std::exception& e)
            {
                std::cerr << "dlsim: error: " << e.what() << std::endl;
                return 2;
            }
        }
        else if (arg.rfind("--log-file=", 0) == 0)
        {
            options.logFile = arg.substr(11);
        }
        else if (arg == "--emit-jobs" || arg.rfind("--emit-jobs=", 0) == 0)
        {
            emitJobs = arg == "--emit-jobs" ? (i + 1 < argc ? argv[++i] : "") : arg.substr(12);
            if (emitJobs.empty())
            {
                std::cerr << "dlsim: error: --emit-jobs needs a file name\n";
                return 2;
            }
        }
        else if (arg == "-j" || arg.rfind("-j", 0) == 0 || arg.rfind("--jobs", 0) == 0)
        {
            std::string value = arg == "-j" || arg == "--jobs" ? (i + 1 < argc ? argv[++i] : "")
                                : arg.rfind("--jobs=", 0) == 0 ? arg.substr(7)
                                                               : arg.substr(2);
            char* end = nullptr;
            long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || n < 1 || n > 1024)
            {
                std::cerr
                    << "dlsim: error: -j expects a number of parallel runs from 1 to 1024, got '"
                    << value << "'\n";
                return 2;
            }
            jobs = static_cast<unsigned>(n);
        }
        else if (arg.rfind("--", 0) == 0)
        {
            // Accept both --key=value and --key value.
            if (arg.find('=') == std::string::npos && i + 1 < argc
                && std::string(argv[i + 1]).rfind("-", 0) != 0)
            {
                arg += "=" + std::string(argv[++i]);
            }
            overrides.push_back(arg);
        }
        else if (file.empty())
        {
            file = arg;
        }
        else
        {
            std::cerr << "dlsim: error: more than one scenario file given ('" << file << "' and '"
                      << arg << "')\n";
            return 2;
        }
    }
    if (file.empty() && std::getenv("DLSIM_DEFAULT_SCENARIO"))
    {
        file = std::getenv("DLSIM_DEFAULT_SCENARIO"); // set by ./dlsim run
    }
    try
    {
        ScenarioConfig config = ScenarioConfig::Load(file, overrides);
        std::vector<GridPoint> points = ExpandGrid(config);
        if (tuneChoco)
        {
            for (const auto& point : points)
            {
                PrintChocoTuning(point.config, std::cout);
            }
            return 0;
        }
        if (!emitJobs.empty())
        {
            return EmitJobs(config, points, emitJobs);
        }
        if (GridAxes(config).empty())
        {
            options.overwrite = g_overwrite;
            return RunSingle(config, options);
        }
        return RunGrid(config, points, jobs);
    }
    catch (const std::exception& e)
    {
        std::cerr << "dlsim: error: " << e.what() << std::endl;
        return ExitStatusFor(e);
    }
}
