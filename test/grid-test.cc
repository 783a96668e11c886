// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: grids of runs as a researcher uses them: cross products, resuming, job lists for
 * other machines, collecting and plotting, and one folder per run.
 */
#include "run-command.h"
#include "scenario-grid.h"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
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
    EXPECT_NE(index.find("seed,algorithm,run,target_accuracy,final_accuracy_mean"), std::string::npos) << index;
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
    const std::string config = out + "/seed=2_algorithm=dpsgd/config.ini";
    std::string text = ReadWholeFile(config);
    const std::string threads = "\nthreads = " + std::to_string(share) + "\n";
    ASSERT_NE(text.find(threads), std::string::npos);
    text.replace(text.find(threads), threads.size(), "\nthreads = 7\n");
    std::ofstream(config) << text;
    fs::remove(out + "/index.csv");
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --collect " + out, output), 0) << output;
    const std::string collected = ReadWholeFile(out + "/index.csv");
    EXPECT_EQ(Lines(collected), 5u);
    EXPECT_EQ(collected.find("run.threads"), std::string::npos) << collected;
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
    EXPECT_NE(lines.find("./dlsim run '" + out + "/link.bandwidth=10Mbps/point.ini'"),
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

} // namespace
} // namespace ns3
