// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: hostile output folders, as a table. Whether a folder may be written is decided in one
 * place (CheckOutputFolder) for runs and grids alike, before anything is written: a finished
 * run's config.ini is never rewritten, a folder inside a replayed run is refused, a name over
 * 255 bytes is refused, and a second grid on a folder a grid holds is refused at once.
 */
#include "run-command.h"

#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

const std::string kSmall = std::string(DLSIM_RUN_BINARY)
                           + " --dataset=synthetic --synthetic.train_samples=200 "
                             "--model=logistic --nodes=4 --degree=2 --no-plot";

TEST(HostileInput, OutputFoldersAreCheckedInOnePlaceBeforeAnythingIsWritten)
{
    const std::string dir = FreshTempFolder("hostile-out");
    std::string output;
    ASSERT_EQ(RunCommand(kSmall + " --rounds=1 --out=" + dir + "/run", output), 0) << output;
    const std::string finishedIni = ReadWholeFile(dir + "/run/config.ini");
    struct Case
    {
        std::string name;
        std::string args;
        std::string words;
        std::string untouched; ///< a folder that must not be made ("" : none)
    };
    const std::string longName(300, 'n');
    const std::vector<Case> cases = {
        {"a grid over a finished run",
         "--lr=0.01,0.02 --out=" + dir + "/run",
         "holds the complete results of another configuration",
         ""},
        {"a run of another configuration over a finished run",
         "--lr=0.07 --out=" + dir + "/run",
         "differs in: lr",
         ""},
        {"a replay into its own run",
         "--replay " + dir + "/run --out=" + dir + "/run",
         "is the run folder whose recording is replayed",
         ""},
        {"a replay into a folder inside its run",
         "--replay " + dir + "/run --link.latency=40ms --out=" + dir + "/run/sub",
         "is inside the run folder whose recording is replayed",
         dir + "/run/sub"},
        {"a folder name over 255 bytes",
         "--out=" + dir + "/" + longName,
         "bytes a file system takes for one name",
         dir + "/" + longName.substr(0, 200)},
        {"a grid in a folder named over 255 bytes",
         "--lr=0.01,0.02 --out=" + dir + "/" + longName,
         "bytes a file system takes for one name",
         dir + "/" + longName.substr(0, 200)},
        {"a file as the folder", "--out=" + dir + "/run/config.ini", "is a file, not a folder", ""},
    };
    for (const Case& c : cases)
    {
        const int status = RunCommand("timeout 60 " + kSmall + " --rounds=1 " + c.args, output);
        EXPECT_EQ(status, 2) << c.name << ": " << output;
        EXPECT_NE(output.find("dlsim: error: "), std::string::npos) << c.name << ": " << output;
        EXPECT_NE(output.find(c.words), std::string::npos)
            << c.name << ": no '" << c.words << "' in: " << output;
        EXPECT_LT(output.size(), 5000u) << c.name << ": a long name is shortened in messages";
        EXPECT_EQ(ReadWholeFile(dir + "/run/config.ini"), finishedIni)
            << c.name << ": a finished run's config.ini is never rewritten";
        if (!c.untouched.empty())
        {
            EXPECT_FALSE(fs::exists(c.untouched)) << c.name << ": nothing is written";
        }
    }
    fs::remove_all(dir);
}

/// A grid holds its folder for its life (flock on .grid-lock): a second grid, or a run, on the
/// same --out is refused at once; once the first has ended, the folder is free again.
TEST(HostileInput, ASecondGridOnAFolderIsRefusedAtOnce)
{
    const std::string dir = FreshTempFolder("hostile-lock");
    const std::string grid = kSmall + " --rounds=3 --lr=0.01,0.02,0.03 -j 1 --out=" + dir + "/grid";
    const pid_t first = ::fork();
    ASSERT_GE(first, 0);
    if (first == 0)
    {
        ::execl("/bin/sh", "sh", "-c", (grid + " >/dev/null 2>&1").c_str(), (char*) nullptr);
        ::_exit(127);
    }
    // Bounded: the first grid takes its lock within seconds.
    for (int i = 0; i < 300 && !fs::exists(dir + "/grid/.grid-lock"); ++i)
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::string output;
    const auto start = std::chrono::steady_clock::now();
    const int second = RunCommand("timeout 60 " + grid, output);
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int status = 0;
    ::waitpid(first, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the first grid ends well";
    EXPECT_EQ(second, 2) << output;
    EXPECT_NE(output.find("is being written by"), std::string::npos) << output;
    EXPECT_LT(seconds, 20.0) << "refused at once, not made to wait";
    // The first grid is over: the folder is free, and the grid is complete.
    EXPECT_EQ(RunCommand("timeout 120 " + grid, output), 0) << output;
    EXPECT_NE(output.find("already complete"), std::string::npos) << output;
    fs::remove_all(dir);
}

/// A FIFO (or any file that is not a regular file) named as an input is refused at once by
/// name, whatever key names it: opening a FIFO for reading would wait for a writer for ever.
TEST(HostileInput, AFifoAsAnyInputFileIsRefusedAtOnce)
{
    const std::string dir = FreshTempFolder("hostile-fifo");
    const std::string fifo = dir + "/pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string output;
    ASSERT_EQ(RunCommand(kSmall + " --rounds=1 --out=" + dir + "/run", output), 0) << output;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"the scenario file", fifo},
        {"topology.file", "--topology=file --topology.file=" + fifo},
        {"partition.file", "--partition=file --partition.file=" + fifo},
        {"model.init_file", "--model.init_file=" + fifo},
        {"link.file", "--link.file=" + fifo},
        {"trace.file", "--trace.file=" + fifo},
        {"compute.file", "--compute.file=" + fifo},
    };
    fs::create_directory(dir + "/data");
    for (const char* name : {"train-images-idx3-ubyte",
                             "train-labels-idx1-ubyte",
                             "t10k-images-idx3-ubyte",
                             "t10k-labels-idx1-ubyte"})
    {
        ASSERT_EQ(::mkfifo((dir + "/data/" + name).c_str(), 0600), 0);
    }
    for (const auto& [name, args] : cases)
    {
        const int status = RunCommand(
            "timeout 60 " + kSmall + " --rounds=1 " + args + " --out=" + dir + "/x", output);
        EXPECT_EQ(status, 2) << name << ": " << output;
        EXPECT_NE(output.find("FIFO"), std::string::npos) << name << ": " << output;
        EXPECT_TRUE(!fs::exists(dir + "/x") || fs::is_empty(dir + "/x"))
            << name << ": nothing is written";
        fs::remove_all(dir + "/x");
    }
    // A dataset's files.
    EXPECT_EQ(RunCommand("timeout 60 " + std::string(DLSIM_RUN_BINARY)
                             + " --dataset=fashion-mnist --dataset.path=" + dir
                             + "/data --model=logistic --nodes=4 --no-plot --out=" + dir + "/x",
                         output),
              2)
        << output;
    EXPECT_NE(output.find("dataset.path: cannot read dataset file"), std::string::npos) << output;
    // A recording replaced by a FIFO.
    fs::remove(dir + "/run/learning.rec");
    ASSERT_EQ(::mkfifo((dir + "/run/learning.rec").c_str(), 0600), 0);
    EXPECT_EQ(RunCommand("timeout 60 " + std::string(DLSIM_RUN_BINARY) + " --replay " + dir
                             + "/run --link.latency=40ms --no-plot --out=" + dir + "/x",
                         output),
              2)
        << output;
    EXPECT_NE(output.find("FIFO"), std::string::npos) << output;
    fs::remove_all(dir);
}

} // namespace
} // namespace ns3
