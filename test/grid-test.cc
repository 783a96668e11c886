// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: grids of runs as a researcher uses them: cross products, resuming, job lists for
 * other machines, collecting and plotting, and one folder per run.
 */
#include "external-command.h"
#include "grid-time-left.h"
#include "results-writer.h"
#include "run-command.h"
#include "scenario-grid.h"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

size_t
Lines(const std::string& text)
{
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

const std::string kSmall = " --dataset=synthetic --synthetic.train_samples=300 --model=logistic "
                           "--nodes=4 --degree=2 --rounds=3 --eval.every=1";

TEST(Grid, SplitsValuesOutsideBrackets)
{
    EXPECT_EQ(SplitGridValues("dpsgd, jwins,choco"),
              (std::vector<std::string>{"dpsgd", "jwins", "choco"}));
    EXPECT_EQ(SplitGridValues("[0.1, 0.2], [1.0]"),
              (std::vector<std::string>{"[0.1, 0.2]", "[1.0]"}));
    EXPECT_EQ(SplitGridValues("ns3::UniformRandomVariable[Min=1|Max=2]").size(), 1u);
    ScenarioConfig c
        = ScenarioConfig::Load("", {"--algorithm=dpsgd, jwins", "--seed=1,2,3", "--out=r"});
    auto points = ExpandGrid(c);
    ASSERT_EQ(points.size(), 6u);
    EXPECT_EQ(points[0].name, "seed=1_algorithm=dpsgd");
    EXPECT_EQ(points[1].config.GetString("algorithm"), "jwins");
    EXPECT_EQ(points[5].config.GetString("out"), "r/seed=3_algorithm=jwins");
    EXPECT_THROW(ExpandGrid(ScenarioConfig::Load("", {"--seed=1,1"})), ScenarioError);
}

// An axis of one algorithm's key (its settings, its own learning rate) varies only that
// algorithm's points: 3 algorithms x 2 gammas x 2 CHOCO learning rates are 1 + 4 + 1 points,
// not 12; the others keep the keys' defaults.
TEST(Grid, AnAlgorithmsAxisVariesOnlyItsPoints)
{
    ScenarioConfig c = ScenarioConfig::Load("",
                                            {"--algorithm=dpsgd,choco,jwins",
                                             "--choco.gamma=0.2,0.4",
                                             "--choco.lr=0.01,0.05",
                                             "--jwins.lr=0.1",
                                             "--out=r"});
    auto points = ExpandGrid(c);
    std::vector<std::string> names;
    for (const auto& p : points)
    {
        names.push_back(p.name);
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"algorithm=dpsgd",
                                        "algorithm=choco_choco.gamma=0.2_choco.lr=0.01",
                                        "algorithm=choco_choco.gamma=0.2_choco.lr=0.05",
                                        "algorithm=choco_choco.gamma=0.4_choco.lr=0.01",
                                        "algorithm=choco_choco.gamma=0.4_choco.lr=0.05",
                                        "algorithm=jwins"}));
    EXPECT_EQ(points[0].config.GetString("choco.gamma"), "auto");
    EXPECT_EQ(points[0].config.GetString("choco.lr"), "");
    EXPECT_EQ(points[4].config.GetString("choco.lr"), "0.05");
    EXPECT_EQ(points[5].config.GetString("jwins.lr"), "0.1");
    // All axes another algorithm's: one run, in `out` itself.
    auto single = ExpandGrid(
        ScenarioConfig::Load("", {"--algorithm=dpsgd", "--choco.gamma=0.2,0.4", "--out=r"}));
    ASSERT_EQ(single.size(), 1u);
    EXPECT_EQ(single[0].config.GetString("out"), "r");
}

// An algorithm's own learning rate replaces `lr` in its runs only: D-PSGD with dpsgd.lr = 0
// computes what it computes with lr = 0, and not what it computes with lr = 0.05 (which
// choco.lr = 0 leaves as it is).
TEST(Grid, AnAlgorithmsOwnLearningRateReplacesLr)
{
    const std::vector<std::string> base = {"--nodes=4",
                                           "--degree=2",
                                           "--dataset=synthetic",
                                           "--synthetic.train_samples=200",
                                           "--synthetic.test_samples=20",
                                           "--model=logistic",
                                           "--rounds=2",
                                           "--eval.every=1",
                                           "--no-plot"};
    auto run = [&base](const std::string& name, const std::string& extra)
    {
        const std::string out = ::testing::TempDir() + "dlsim-own-lr-" + name;
        std::string args = "--out=" + out + " --overwrite " + extra;
        for (const auto& b : base)
        {
            args += " " + b;
        }
        std::string output;
        EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " " + args, output), 0) << output;
        std::ifstream in(out + "/eval.csv");
        std::stringstream text;
        text << in.rdbuf();
        std::filesystem::remove_all(out);
        return text.str();
    };
    const std::string own = run("own", "--lr=0.05 --dpsgd.lr=0");
    const std::string shared = run("shared", "--lr=0");
    const std::string other = run("other", "--lr=0.05 --choco.lr=0");
    EXPECT_FALSE(own.empty());
    EXPECT_EQ(own, shared);
    EXPECT_NE(own, other);
}

// ./dlsim tune: each algorithm's candidates run on the validation set (never the test set) in
// OUT-tuning, the best by time to target is chosen and recorded with why, the comparison runs
// on the test set with the chosen values; a second call runs nothing new (resumes).
/// A small `--tune` command writing to `out` (and out-tuning, both emptied first).
std::string
TuneCommand(const std::string& out, const std::string& keys)
{
    std::filesystem::remove_all(out);
    std::filesystem::remove_all(out + "-tuning");
    return std::string(DLSIM_RUN_BINARY)
           + " --tune --nodes=4 --degree=2 --dataset=synthetic --synthetic.train_samples=400 "
             "--synthetic.test_samples=100 --model=logistic --rounds=4 --eval.every=1 "
             "--target_accuracy=0.9 --tune.lr=[0.001,0.1] --no-plot -j 2 "
           + keys + " --out=" + out;
}

TEST(Grid, TuneChoosesOnValidationThenCompares)
{
    const std::string out = ::testing::TempDir() + "dlsim-tune";
    const std::string command = TuneCommand(out, "--algorithm=dpsgd,choco --tune.gamma=[0.05,0.5]");
    std::string output;
    ASSERT_EQ(RunCommand(command, output), 0) << output;
    // The tuning's own folder is announced before anything runs, as beside --out.
    const size_t announced = output.find(" rounds each, in " + out + "-tuning (a folder beside "
                                         + out + ", which gets the comparison");
    EXPECT_NE(announced, std::string::npos) << output;
    EXPECT_LT(announced, output.find("[start]")) << output;
    // 2 D-PSGD candidates and 2 x 2 CHOCO-SGD ones, each evaluated on held-out training samples.
    size_t tuningRuns = 0;
    for (const auto& entry : std::filesystem::directory_iterator(out + "-tuning"))
    {
        if (std::filesystem::exists(entry.path() / "summary.json"))
        {
            ++tuningRuns;
            std::ifstream ini(entry.path() / "config.ini");
            std::stringstream text;
            text << ini.rdbuf();
            EXPECT_NE(text.str().find("\non = validation\n"), std::string::npos) << entry.path();
        }
    }
    EXPECT_EQ(tuningRuns, 6u);
    const auto choice = ReadCsvByColumn(out + "-tuning/choice.csv");
    ASSERT_EQ(choice.size(), 3u) << output; // dpsgd.lr, choco.gamma, choco.lr
    EXPECT_EQ(choice[0].at("key"), "dpsgd.lr");
    EXPECT_EQ(choice[0].at("value"), "0.1") << "a learning rate 100 times smaller cannot be faster";
    EXPECT_EQ(choice[0].at("candidates"), "2");
    EXPECT_TRUE(std::filesystem::exists(out + "/tuned-settings.csv"));
    // The comparison: on the test set, with the chosen values, named in the legend.
    std::ifstream ini(out + "/algorithm=dpsgd/config.ini");
    std::stringstream text;
    text << ini.rdbuf();
    EXPECT_NE(text.str().find("\non = test\n"), std::string::npos);
    EXPECT_NE(text.str().find("\n[dpsgd]\nlr = 0.1\n"), std::string::npos) << text.str();
    EXPECT_NE(output.find("dlsim: tune: dpsgd: dpsgd.lr = 0.1 (best time to target"),
              std::string::npos)
        << output;
    std::string again;
    ASSERT_EQ(RunCommand(command, again), 0) << again;
    EXPECT_EQ(again.find("[start]"), std::string::npos) << again;
    std::filesystem::remove_all(out);
    std::filesystem::remove_all(out + "-tuning");
}

// ./dlsim tune on a scenario with another axis: each algorithm's setting is chosen once, at the
// axis' first value (said so), and the comparison runs at every value.
TEST(Grid, TuneChoosesAtAnotherAxisFirstValueAndComparesAtAll)
{
    const std::string out = ::testing::TempDir() + "dlsim-tune-axis";
    const std::string command = TuneCommand(out, "--algorithm=dpsgd --link.latency=50ms,1ms");
    std::string output;
    ASSERT_EQ(RunCommand(command, output), 0) << output;
    EXPECT_NE(output.find("dlsim: tune: tuned at link.latency = 50ms (the first of 2 values)"),
              std::string::npos)
        << output;
    size_t tuningRuns = 0;
    for (const auto& entry : std::filesystem::directory_iterator(out + "-tuning"))
    {
        if (std::filesystem::exists(entry.path() / "summary.json"))
        {
            ++tuningRuns;
            EXPECT_NE(ReadWholeFile((entry.path() / "config.ini").string())
                          .find("\n[link]\nbandwidth = 10Mbps\nlatency = 50ms\n"),
                      std::string::npos)
                << entry.path();
        }
    }
    EXPECT_EQ(tuningRuns, 2u);
    size_t compared = 0;
    for (const char* latency : {"50ms", "1ms"})
    {
        const std::string config = ReadWholeFile(out + "/link.latency=" + latency + "/config.ini");
        EXPECT_NE(config.find("\n[dpsgd]\nlr = 0.1\n"), std::string::npos) << config;
        compared += config.find(std::string("\nbandwidth = 10Mbps\nlatency = ") + latency + "\n")
                    != std::string::npos;
    }
    EXPECT_EQ(compared, 2u);
    std::filesystem::remove_all(out);
    std::filesystem::remove_all(out + "-tuning");
}

TEST(Grid, RunsEveryPointWritesAnIndexAndResumes)
{
    std::string out
        = (fs::temp_directory_path() / ("dlsim-grid-" + std::to_string(getpid()))).string();
    fs::remove_all(out);
    std::string command = std::string(DLSIM_RUN_BINARY) + kSmall
                          + " --algorithm='dpsgd, jwins' --seed='1, 2' -j 2 --out=" + out;
    std::string output;
    ASSERT_EQ(RunCommand(command, output), 0) << output;
    std::string index = ReadWholeFile(out + "/index.csv");
    EXPECT_EQ(Lines(index), 5u) << index; // header + 4 runs
    EXPECT_NE(index.find("seed,algorithm,run,target_accuracy,final_accuracy_mean"),
              std::string::npos)
        << index;
    for (std::string figure :
         {"accuracy-vs-time", "accuracy-vs-bytes", "accuracy-vs-rounds", "sweep-seed-time"})
    {
        if (figure == "sweep-seed-time")
        {
            EXPECT_FALSE(fs::exists(out + "/plots/" + figure + ".png")) << "seeds are not a sweep";
            continue;
        }
        EXPECT_GT(fs::file_size(out + "/plots/" + figure + ".png"), 1000u) << figure;
        EXPECT_GT(fs::file_size(out + "/plots/" + figure + ".svg"), 1000u) << figure;
    }

    // Two points at a time share the cores: each got its half of them (at least one thread),
    // which the resume below must not take for another configuration.
    const unsigned share = std::max(1u, std::thread::hardware_concurrency() / 2);
    EXPECT_NE(ReadWholeFile(out + "/seed=1_algorithm=dpsgd/config.ini")
                  .find("\nthreads = " + std::to_string(share) + "\n"),
              std::string::npos);

    // Interrupted: one point lost its results. Only that one runs again.
    std::string redo = out + "/seed=2_algorithm=jwins";
    std::string before = ReadWholeFile(redo + "/eval.csv");
    fs::remove(redo + "/summary.json");
    std::string untouched = ReadWholeFile(out + "/seed=1_algorithm=dpsgd/rounds.csv");
    ASSERT_EQ(RunCommand(command, output), 0) << output;
    EXPECT_EQ(static_cast<size_t>(std::count(output.begin(), output.end(), '\n')) > 0, true);
    EXPECT_NE(output.find("seed=1_algorithm=dpsgd: already complete, skipped"), std::string::npos)
        << output;
    EXPECT_NE(output.find("[start] seed=2_algorithm=jwins"), std::string::npos) << output;
    EXPECT_EQ(output.find("[start] seed=1_algorithm=dpsgd"), std::string::npos) << output;
    EXPECT_EQ(ReadWholeFile(redo + "/eval.csv"), before) << "the rerun reproduces the lost run";
    EXPECT_EQ(ReadWholeFile(out + "/seed=1_algorithm=dpsgd/rounds.csv"), untouched);

    // collect rebuilds the index from the folders alone. A point run with another thread count
    // (by hand, or resumed with another -j) is the same run: the thread count is no axis.
    const std::string resumedIndex = ReadWholeFile(out + "/index.csv");
    const std::string config = out + "/seed=2_algorithm=dpsgd/config.ini";
    std::string text = ReadWholeFile(config);
    const std::string threads = "\nthreads = " + std::to_string(share) + "\n";
    ASSERT_NE(text.find(threads), std::string::npos);
    text.replace(text.find(threads), threads.size(), "\nthreads = 7\n");
    std::ofstream(config) << text;
    fs::remove(out + "/index.csv");
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --collect " + out, output), 0) << output;
    const std::string collected = ReadWholeFile(out + "/index.csv");
    EXPECT_EQ(collected, resumedIndex) << "one index writer: the grid's and collect's agree";
    EXPECT_EQ(collected.find("run.threads"), std::string::npos) << collected;
    fs::remove_all(out);
}

// The grid and `collect` once wrote their indexes apart: a grid over 10Mbps and 1Mbps listed its
// points in scenario order, collect in folder-name order ("...=10Mbps" before "...=1Mbps").
TEST(Grid, IndexListsSweptRatesByValueAsCollectDoes)
{
    const std::string out
        = (fs::temp_directory_path() / ("dlsim-rates-" + std::to_string(getpid()))).string();
    fs::remove_all(out);
    std::string output;
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + kSmall
                             + " --link.bandwidth='10Mbps, 1Mbps' --no-plot -j 2 --out=" + out,
                         output),
              0)
        << output;
    const std::string index = ReadWholeFile(out + "/index.csv");
    const size_t slow = index.find("\n1Mbps,1000000,");
    const size_t fast = index.find("\n10Mbps,10000000,");
    ASSERT_NE(slow, std::string::npos) << index;
    ASSERT_NE(fast, std::string::npos) << index;
    EXPECT_LT(slow, fast) << index;
    fs::remove(out + "/index.csv");
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --collect " + out, output), 0) << output;
    EXPECT_EQ(ReadWholeFile(out + "/index.csv"), index);
    fs::remove_all(out);
}

TEST(Grid, AnInterruptedGridStopsItsRunsAndResumes)
{
    std::string out
        = (fs::temp_directory_path() / ("dlsim-stop-" + std::to_string(getpid()))).string();
    fs::remove_all(out);
    std::string command = std::string(DLSIM_RUN_BINARY)
                          + " --dataset=synthetic --synthetic.train_samples=300 --model=logistic "
                            "--nodes=4 --degree=2 --rounds=60 --eval.every=10 --no-plot "
                            "--seed='1, 2, 3, 4' -j 2 --out="
                          + out;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
    {
        execl("/bin/sh", "sh", "-c", ("exec " + command + " > /dev/null 2>&1").c_str(), nullptr);
        _exit(127);
    }
    // Interrupt once the first runs are under way.
    for (int i = 0; i < 200 && !fs::exists(out + "/seed=1/config.ini"); ++i)
    {
        usleep(20000);
    }
    usleep(300000);
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the grid was interrupted";
    EXPECT_FALSE(fs::exists(out + "/index.csv"));
    std::string output;
    ASSERT_EQ(RunCommand(command, output), 0) << output; // no "being written" errors: runs stopped
    EXPECT_EQ(Lines(ReadWholeFile(out + "/index.csv")), 5u) << output;
    fs::remove_all(out);
}

TEST(Grid, EmitsJobsForGnuParallelAndSlurm)
{
    std::string out
        = (fs::temp_directory_path() / ("dlsim-jobs-" + std::to_string(getpid()))).string();
    fs::remove_all(out);
    std::string jobs = out + "-jobs.txt";
    std::string output;
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + kSmall
                             + " --link.bandwidth='1Mbps, 10Mbps, 100Mbps' --emit-jobs " + jobs
                             + " --out=" + out,
                         output),
              0)
        << output;
    std::string lines = ReadWholeFile(jobs);
    EXPECT_EQ(Lines(lines), 3u) << lines;
    EXPECT_NE(lines.find("./dlsim run " + ShellQuote(out + "/link.bandwidth=10Mbps/point.ini")),
              std::string::npos)
        << lines;
    EXPECT_TRUE(fs::exists(out + "/link.bandwidth=100Mbps/point.ini"));
    EXPECT_FALSE(fs::exists(out + "/link.bandwidth=100Mbps/summary.json")) << "nothing runs";
    std::string slurm = ReadWholeFile(jobs + ".slurm");
    EXPECT_NE(slurm.find("#SBATCH --array=1-3"), std::string::npos) << slurm;
    // A job line runs on its own, as another host would run it.
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " '" + out
                             + "/link.bandwidth=1Mbps/point.ini' --no-plot",
                         output),
              0)
        << output;
    EXPECT_TRUE(fs::exists(out + "/link.bandwidth=1Mbps/summary.json"));
    fs::remove_all(out);
    fs::remove(jobs);
    fs::remove(jobs + ".slurm");
}

TEST(Grid, TwoRunsNeverShareAFolder)
{
    std::string out
        = (fs::temp_directory_path() / ("dlsim-lock-" + std::to_string(getpid()))).string();
    fs::create_directories(out);
    std::ofstream(out + "/.lock") << getpid() << "\n"; // this process is alive: the folder is busy
    std::string output;
    EXPECT_NE(RunCommand(std::string(DLSIM_RUN_BINARY) + kSmall + " --out=" + out, output), 0);
    EXPECT_NE(output.find("is being written by process"), std::string::npos) << output;
    std::ofstream(out + "/.lock") << 999999999 << "\n"; // no such process: a stale lock
    EXPECT_EQ(
        RunCommand(std::string(DLSIM_RUN_BINARY) + kSmall + " --no-plot --out=" + out, output), 0)
        << output;
    EXPECT_FALSE(fs::exists(out + "/.lock"));
    fs::remove_all(out);
}

TEST(Grid, ARunKeepsAFolderNameAShellWouldActOn)
{
    const auto [base, cwd, out] = MakeHostileFolders("weird-run");
    const std::string binary = DLSIM_RUN_BINARY;

    // A run with figures, from another working directory: everything lands in `out`.
    std::string output;
    ASSERT_EQ(RunCommand("cd " + ShellQuote(cwd) + " && " + binary + kSmall
                             + " --out=" + ShellQuote(out + "/single"),
                         output),
              0)
        << output;
    EXPECT_TRUE(fs::exists(out + "/single/summary.json"));
    EXPECT_GT(fs::file_size(out + "/single/plots/accuracy-vs-time.png"), 1000u);
    EXPECT_TRUE(fs::is_empty(cwd)) << "the run wrote outside its folder";
    // The command recorded in config.ini gives a shell back the arguments as they were.
    const std::string config = ReadWholeFile(out + "/single/config.ini");
    const size_t at = config.find("# command: ");
    ASSERT_NE(at, std::string::npos) << config;
    const std::string recorded = config.substr(at + 11, config.find('\n', at) - at - 11);
    std::ofstream(base + "/words.sh")
        << "set -- " << recorded << "\nfor w in \"$@\"; do printf '%s\\n' \"$w\"; done\n";
    ASSERT_EQ(RunCommand("sh " + ShellQuote(base + "/words.sh"), output), 0) << output;
    EXPECT_NE(output.find("\n--out=" + out + "/single\n"), std::string::npos) << output;

    EXPECT_FALSE(AnyFileNamedPwned(base)) << "a path ran as a command";
    fs::remove_all(base);
}

TEST(Grid, EmittedJobsKeepAFolderNameAShellWouldActOn)
{
    const auto [base, cwd, out] = MakeHostileFolders("weird-jobs");
    const std::string binary = DLSIM_RUN_BINARY;
    std::string output;
    // Jobs for a grid, run by sh (as GNU parallel does) and by bash (as Slurm does), from a
    // project root whose ./dlsim passes its arguments on to the runner.
    const std::string jobs = base + "/jobs 'x'.txt";
    ASSERT_EQ(RunCommand(binary + kSmall + " --seed='1, 2' --emit-jobs " + ShellQuote(jobs)
                             + " --out=" + ShellQuote(out + "/grid"),
                         output),
              0)
        << output;
    std::ofstream(cwd + "/dlsim") << "#!/bin/sh\n[ \"$1\" = run ] || exit 9\nshift\nexec "
                                  << ShellQuote(binary) << " \"$@\" --no-plot\n";
    ::chmod((cwd + "/dlsim").c_str(), 0755);
    std::ifstream lines(jobs);
    std::string first;
    ASSERT_TRUE(std::getline(lines, first));
    std::ofstream(base + "/job1.sh") << first << "\n";
    ASSERT_EQ(
        RunCommand("cd " + ShellQuote(cwd) + " && sh " + ShellQuote(base + "/job1.sh"), output), 0)
        << first << "\n"
        << output;
    EXPECT_TRUE(fs::exists(out + "/grid/seed=1/summary.json")) << first;
    ASSERT_EQ(RunCommand("cd " + ShellQuote(cwd) + " && SLURM_ARRAY_TASK_ID=2 bash "
                             + ShellQuote(jobs + ".slurm"),
                         output),
              0)
        << ReadWholeFile(jobs + ".slurm") << output;
    EXPECT_TRUE(fs::exists(out + "/grid/seed=2/summary.json"));
    EXPECT_FALSE(AnyFileNamedPwned(base)) << "a path ran as a command";
    // An array of at most 1,000 tasks (Slurm's default MaxArraySize) covers any number of
    // lines: task 7 of 1,000 runs lines 7, 1,007 and 2,007 of 2,500, and each line once.
    {
        std::ofstream many(jobs);
        for (int n = 1; n <= 2500; ++n)
        {
            many << "echo " << n << " >> " << ShellQuote(base + "/ran") << "\n";
        }
    }
    ASSERT_EQ(RunCommand("cd " + ShellQuote(cwd)
                             + " && SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_COUNT=1000 bash "
                             + ShellQuote(jobs + ".slurm"),
                         output),
              0)
        << output;
    EXPECT_EQ(ReadWholeFile(base + "/ran"), "7\n1007\n2007\n");
    fs::remove_all(base);
}

/// One way a summary.json can fail to be a finished run's.
struct MalformedSummary
{
    std::string name;
    /// The broken summary.json from the good one; nullopt: remove the file.
    std::optional<std::string> (*make)(const std::string& good);
};

/// Test names in gtest's messages.
void
PrintTo(const MalformedSummary& kind, std::ostream* out)
{
    *out << kind.name;
}

class CompleteRun : public ::testing::TestWithParam<MalformedSummary>
{};

/// The grid of the tests below: two points, seed=1 and seed=2.
std::string
TwoPointGrid(const std::string& out)
{
    return std::string(DLSIM_RUN_BINARY) + kSmall + " --no-plot --seed='1, 2' -j 2 --out=" + out;
}

/**
 * The two points of TwoPointGrid(out) as finished runs, written by hand: config.ini as the
 * runner writes a point's configuration (its point.ini, from --emit-jobs), summary.csv and
 * summary.json by the run's own writers.
 */
void
WriteFinishedGrid(const std::string& out)
{
    std::string output;
    ASSERT_EQ(RunCommand(TwoPointGrid(out) + " --emit-jobs " + out + "/jobs.txt", output), 0)
        << output;
    for (const std::string point : {"/seed=1", "/seed=2"})
    {
        const std::string folder = out + point;
        std::ofstream(folder + "/config.ini") << ReadWholeFile(folder + "/point.ini");
        RunSummary summary;
        summary.nodes = 4;
        summary.rounds = 3;
        summary.finalRound = 3;
        summary.finalAccuracyMean = summary.finalAccuracyMin = summary.finalAccuracyMax = 0.5;
        summary.simulatedSeconds = 1;
        summary.wallSeconds = 1;
        std::ofstream(folder + "/summary.csv") << SummaryCsvHeader() << "\n"
                                               << SummaryCsvRow(summary) << "\n";
        WriteSummaryJson(summary, folder + "/summary.json");
    }
}

/**
 * Grid resume, a run into a used folder, and collect agree on what a complete run is: a
 * folder whose summary.json is missing, cut short, binary, `{}` or holds NaN is not one.
 */
TEST_P(CompleteRun, ResumeOverwriteAndCollectAgreeOnAMalformedSummary)
{
    const MalformedSummary& kind = GetParam();
    const std::string out = FreshTempFolder("complete-" + kind.name);
    WriteFinishedGrid(out);
    const std::string grid = TwoPointGrid(out);
    const std::string point = out + "/seed=2";
    std::string output;
    const std::string good = ReadWholeFile(point + "/summary.json");
    auto breakSummary = [&]()
    {
        const auto broken = kind.make(good);
        fs::remove(point + "/summary.json");
        if (broken)
        {
            std::ofstream(point + "/summary.json", std::ios::binary) << *broken;
        }
    };
    const std::string reported = point + " is not a finished run (";

    // collect: left out, and said so.
    breakSummary();
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --collect " + out, output), 0) << output;
    EXPECT_NE(output.find(reported), std::string::npos) << output;
    EXPECT_EQ(Lines(ReadWholeFile(out + "/index.csv")), 2u) << "header and seed=1 only";

    // A run of another configuration into the folder: nothing complete to protect.
    ASSERT_EQ(
        RunCommand(std::string(DLSIM_RUN_BINARY) + kSmall + " --no-plot --seed=7 --out=" + point,
                   output),
        0)
        << output;
    EXPECT_NE(ReadWholeFile(point + "/config.ini").find("seed = 7"), std::string::npos);

    // Grid resume: reported and run again; the other point is skipped.
    breakSummary();
    ASSERT_EQ(RunCommand(grid, output), 0) << output;
    EXPECT_NE(output.find(reported), std::string::npos) << output;
    EXPECT_NE(output.find("seed=1: already complete, skipped"), std::string::npos) << output;
    EXPECT_NE(output.find("[start] seed=2"), std::string::npos) << output;
    EXPECT_NE(ReadWholeFile(point + "/config.ini").find("seed = 2"), std::string::npos);
    EXPECT_EQ(Lines(ReadWholeFile(out + "/index.csv")), 3u);
    fs::remove_all(out);
}

/// `good` with the value of `field` replaced by `value` (as written: "field": VALUE).
std::string
WithValue(std::string good, const std::string& field, const std::string& value)
{
    const size_t at = good.find("\"" + field + "\": ");
    if (at == std::string::npos)
    {
        return good;
    }
    const size_t start = at + field.size() + 4;
    good.replace(start, good.find_first_of(",}\n", start) - start, value);
    return good;
}

INSTANTIATE_TEST_SUITE_P(
    Malformed,
    CompleteRun,
    ::testing::Values(MalformedSummary{"missing",
                                       [](const std::string&) -> std::optional<std::string>
                                       {
                                           return std::nullopt;
                                       }},
                      MalformedSummary{"truncated",
                                       [](const std::string& good) -> std::optional<std::string>
                                       {
                                           return good.substr(0, good.size() / 2);
                                       }},
                      MalformedSummary{"binary",
                                       [](const std::string&) -> std::optional<std::string>
                                       {
                                           return std::string("\x00\xff\x7f{\x01\"\x80\n", 8);
                                       }},
                      MalformedSummary{"empty_object",
                                       [](const std::string&) -> std::optional<std::string>
                                       {
                                           return std::string("{}");
                                       }},
                      MalformedSummary{"nan",
                                       [](const std::string& good) -> std::optional<std::string>
                                       {
                                           return WithValue(good, "wall_time_s", "nan");
                                       }},
                      MalformedSummary{"null_time",
                                       [](const std::string& good) -> std::optional<std::string>
                                       {
                                           return WithValue(good, "simulated_time_s", "null");
                                       }},
                      MalformedSummary{"unfinished",
                                       [](const std::string& good) -> std::optional<std::string>
                                       {
                                           return WithValue(good, "status", "\"running\"");
                                       }}),
    [](const ::testing::TestParamInfo<MalformedSummary>& info) { return info.param.name; });

} // namespace
} // namespace ns3

// A grid trains its first points and replays the rest at a fraction of a training's cost: the
// time left is estimated by kind (the figures are arithmetic on the given wall times).
TEST(Grid, TheTimeLeftIsEstimatedPerKindOfPoint)
{
    using ns3::GridTimeLeft;
    using ns3::PointKind;
    GridTimeLeft left;
    left.Finished(PointKind::Trains, 100.0);
    left.Finished(PointKind::Trains, 120.0);
    // No replay finished yet: 2 waiting replays at the trainings' mean of 110 s, one running
    // training with 10 s of its 110 left, on 2 jobs: (220 + 100) / 2, an upper bound.
    GridTimeLeft::Estimate e
        = left.Left({PointKind::Replays, PointKind::Replays}, {{PointKind::Trains, 10.0}}, 2);
    EXPECT_DOUBLE_EQ(e.seconds, 160.0);
    EXPECT_TRUE(e.replaysAsTrainings);
    EXPECT_FALSE(e.trainingsAsReplays);
    // Once a replay has finished (20 s), replays are estimated at their own mean: (40 + 100) / 2.
    left.Finished(PointKind::Replays, 20.0);
    e = left.Left({PointKind::Replays, PointKind::Replays}, {{PointKind::Trains, 10.0}}, 2);
    EXPECT_DOUBLE_EQ(e.seconds, 70.0);
    EXPECT_FALSE(e.replaysAsTrainings);
    // A running point past its kind's mean adds nothing; one job left for one point.
    e = left.Left({}, {{PointKind::Replays, 30.0}}, 4);
    EXPECT_DOUBLE_EQ(e.seconds, 0.0);
    e = left.Left({PointKind::Trains}, {}, 4);
    EXPECT_DOUBLE_EQ(e.seconds, 110.0);
    // Trainings with only replays timed: a lower bound, and said.
    GridTimeLeft replaysOnly;
    replaysOnly.Finished(PointKind::Replays, 5.0);
    e = replaysOnly.Left({PointKind::Trains}, {}, 1);
    EXPECT_DOUBLE_EQ(e.seconds, 5.0);
    EXPECT_TRUE(e.trainingsAsReplays);
}
