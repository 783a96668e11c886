// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: what happens when things go wrong: full disks, interrupted and killed runs, stalled
 * networks, busy or foreign run folders, and results that must stay right.
 */
#include "run-command.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

const std::string kRun = std::string(DLSIM_RUN_BINARY) + " --no-plot";
const std::string kSmall = " --dataset=synthetic --synthetic.train_samples=300 --model=logistic "
                           "--nodes=4 --degree=2 --eval.every=1";

std::string
Folder(const std::string& name)
{
    std::string dir
        = (fs::temp_directory_path() / ("dlsim-fail-" + std::to_string(::getpid()) + "-" + name))
              .string();
    fs::remove_all(dir);
    return dir;
}

// A full disk (here: a file-size limit, which fails writes the same way) ends the run with an
// error naming the file, and leaves no summary that would make a grid skip the point.
TEST(Failure, AFullDiskEndsTheRunWithAnErrorAndNoSummary)
{
    std::string out = Folder("full");
    std::string output;
    // 8 blocks of 512 bytes: config.ini fits, rounds.csv of 40 rounds x 4 nodes does not.
    int status
        = RunCommand("ulimit -f 8; exec " + kRun + kSmall + " --rounds=40 --out=" + out, output);
    EXPECT_EQ(status, 1) << output;
    EXPECT_NE(output.find("cannot write " + out), std::string::npos) << output;
    EXPECT_NE(output.find("File too large"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(out + "/summary.json"));
    EXPECT_FALSE(fs::exists(out + "/summary.csv"));
    EXPECT_FALSE(fs::exists(out + "/.lock")) << "the lock is released";
    // Run again with room: it completes.
    ASSERT_EQ(RunCommand(kRun + kSmall + " --rounds=40 --out=" + out, output), 0) << output;
    EXPECT_TRUE(fs::exists(out + "/summary.json"));
    fs::remove_all(out);
}

// An interrupted run keeps what it computed up to its last evaluation, under names that say
// it is incomplete, and releases its folder.
TEST(Failure, AnInterruptedRunKeepsItsPartialResults)
{
    std::string out = Folder("interrupted");
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
    {
        std::string command = "exec " + kRun
                              + " --dataset=synthetic --model=mlp --nodes=4 --degree=2"
                                " --eval.every=1 --rounds=100000 --out="
                              + out + " > /dev/null 2>&1";
        execl("/bin/sh", "sh", "-c", command.c_str(), nullptr);
        _exit(127);
    }
    // Wait until a few evaluations are on disk (up to a minute on a loaded machine), then
    // interrupt.
    for (int i = 0; i < 3000; ++i)
    {
        std::error_code e;
        if (fs::file_size(out + "/curve.csv.partial", e) > 200 && !e)
        {
            break;
        }
        usleep(20000);
    }
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    auto rows = ReadCsv(out + "/curve.csv.partial");
    EXPECT_GE(rows.size(), 3u) << "evaluations flushed before the interruption";
    EXPECT_FALSE(ReadCsv(out + "/rounds.csv.partial").empty());
    EXPECT_FALSE(fs::exists(out + "/curve.csv"));
    EXPECT_FALSE(fs::exists(out + "/summary.json"));
    EXPECT_FALSE(fs::exists(out + "/.lock"));
    fs::remove_all(out);
}

// Complete results of one configuration are not silently replaced by another's.
TEST(Failure, ARunRefusesToOverwriteAnotherConfigurationsResults)
{
    std::string out = Folder("overwrite");
    std::string output;
    ASSERT_EQ(RunCommand(kRun + kSmall + " --rounds=2 --out=" + out, output), 0) << output;
    std::string before = ReadWholeFile(out + "/summary.json");
    EXPECT_EQ(RunCommand(kRun + kSmall + " --rounds=3 --lr=0.1 --out=" + out, output), 2);
    EXPECT_NE(output.find("another configuration"), std::string::npos) << output;
    EXPECT_NE(output.find("differs in: lr, rounds"), std::string::npos) << output;
    EXPECT_EQ(ReadWholeFile(out + "/summary.json"), before);
    // The same configuration may run again; another one with --overwrite.
    ASSERT_EQ(RunCommand(kRun + kSmall + " --rounds=2 --out=" + out, output), 0) << output;
    ASSERT_EQ(RunCommand(kRun + kSmall + " --rounds=3 --lr=0.1 --overwrite --out=" + out, output),
              0)
        << output;
    EXPECT_EQ(ReadCsv(out + "/rounds.csv").size(), 12u);
    fs::remove_all(out);
}

// With only some learners evaluating, every figure still counts every node's bytes: the curve's
// bytes per node at an evaluation equal the mean of all nodes' cumulative bytes in rounds.csv.
TEST(Failure, CurveBytesCountEveryNodeWhenFewEvaluate)
{
    std::string out = Folder("evalnodes");
    std::string output;
    ASSERT_EQ(RunCommand(kRun
                             + " --dataset=synthetic --synthetic.train_samples=800 --model=mlp"
                               " --nodes=16 --degree=4 --rounds=6 --eval.every=2 --eval.nodes=2"
                               " --out="
                             + out,
                         output),
              0)
        << output;
    std::map<std::string, double> bytesAfter; // round -> sum over nodes
    std::map<std::string, int> nodesIn;
    for (const auto& row : ReadCsv(out + "/rounds.csv"))
    {
        bytesAfter[row[1]] += std::stod(row[7]) + std::stod(row[8]);
        ++nodesIn[row[1]];
    }
    auto curve = ReadCsv(out + "/curve.csv");
    ASSERT_EQ(curve.size(), 4u); // rounds 0, 2, 4, 6
    for (const auto& row : curve)
    {
        if (row[0] == "0")
        {
            continue;
        }
        ASSERT_EQ(nodesIn[row[0]], 16);
        EXPECT_NEAR(std::stod(row[2]), bytesAfter[row[0]] / 16, 1.0) << "round " << row[0];
    }
    fs::remove_all(out);
}

// A network that cannot carry the messages ends the run with an error, not a hang.
TEST(Failure, AStalledNetworkEndsWithAClearError)
{
    std::string out = Folder("stalled");
    std::string output;
    int status = RunCommand(kRun + kSmall
                                + " --rounds=3 --link.bandwidth=1kbps"
                                  " --run.stall_timeout=5s --out="
                                + out,
                            output);
    EXPECT_EQ(status, 1) << output;
    EXPECT_NE(output.find("run stopped at"), std::string::npos) << output;
    EXPECT_NE(output.find("learner"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(out + "/summary.json"));
    EXPECT_FALSE(fs::exists(out + "/.lock"));
    // A limit on simulated time does the same.
    status = RunCommand(kRun + kSmall + " --rounds=50 --run.time_limit=0.5s --out=" + out, output);
    EXPECT_EQ(status, 1) << output;
    EXPECT_NE(output.find("run.time_limit"), std::string::npos) << output;
    fs::remove_all(out);
}

// Memory that runs out (here: a 4 GB address-space limit against 31 GB of synthetic images)
// ends the run naming the step it came in, with exit status 1, not a bare std::bad_alloc.
TEST(Failure, OutOfMemoryNamesTheStep)
{
    const std::string out = Folder("memory");
    std::string output;
    EXPECT_EQ(RunCommand("ulimit -v 4000000; exec " + kRun
                             + " --dataset=synthetic --synthetic.train_samples=10000000 "
                               "--model=logistic --nodes=4 --degree=2 --rounds=1 --out="
                             + out,
                         output),
              1)
        << output;
    EXPECT_NE(output.find("dlsim: error: out of memory while loading and partitioning the data"),
              std::string::npos)
        << output;
    fs::remove_all(out);
}

// Training that diverges (losses that overflow to NaN at a learning rate of 10^6) is said when it
// starts and recorded in summary.json; the run still finishes, as a point of a sweep over
// learning rates must. A run that trains well records nothing.
TEST(Failure, DivergedTrainingIsSaidAndRecorded)
{
    const std::string out = Folder("diverged");
    const std::string run = kRun
                            + " --dataset=synthetic --synthetic.train_samples=300 --model=mlp "
                              "--nodes=4 --degree=2 --eval.every=1 --rounds=3 --out="
                            + out;
    std::string output;
    ASSERT_EQ(RunCommand(run + " --lr=1e6", output), 0) << output;
    EXPECT_NE(output.find("'s training loss is not finite ("), std::string::npos) << output;
    EXPECT_NE(output.find("final mean accuracy 0.1000 (the training diverged)"), std::string::npos)
        << output;
    std::ifstream summary(out + "/summary.json");
    std::stringstream json;
    json << summary.rdbuf();
    EXPECT_NE(json.str().find("\"training_diverged\": \"4 of 4 learners, learner "),
              std::string::npos)
        << json.str();
    ASSERT_EQ(RunCommand(run + " --lr=0.05 --overwrite", output), 0) << output;
    EXPECT_EQ(output.find("training diverged"), std::string::npos) << output;
    EXPECT_EQ(output.find("not finite"), std::string::npos) << output;
    std::ifstream again(out + "/summary.json");
    std::stringstream fine;
    fine << again.rdbuf();
    EXPECT_NE(fine.str().find("\"training_diverged\": \"\""), std::string::npos) << fine.str();
    fs::remove_all(out);
}

// The automatic watchdog: a run that sends nothing (a TCP window below one segment) stops after
// 120 s of simulated time, while rounds of 150 s of compute, during which nothing arrives,
// do not look stalled.
TEST(Failure, TheAutomaticWatchdogTellsAStallFromALongComputation)
{
    std::string out = Folder("auto-stall");
    std::string output;
    EXPECT_EQ(RunCommand(kRun + kSmall + " --rounds=2 --ns3.ns3::TcpSocketBase::MaxWindowSize=1"
                             + " --out=" + out,
                         output),
              1)
        << output;
    EXPECT_NE(output.find("sent a byte for 120 s of simulated time (run.stall_timeout = auto"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("the network is stalled"), std::string::npos) << output;
    // A 1 kbit/s link is slow, not stalled: its TCP retransmits for minutes with no new payload
    // byte arriving (from 100 s to 220 s of this run), and the run finishes at 1,522 s. Each
    // of its 1,500-byte frames takes 12 s (arithmetic), shorter than the floor of 120 s.
    EXPECT_EQ(
        RunCommand(kRun + kSmall + " --rounds=2 --link.bandwidth=1000bps --overwrite --out=" + out,
                   output),
        0)
        << output;
    EXPECT_EQ(
        RunCommand(kRun + kSmall + " --rounds=2 --compute.model=fixed"
                       + " --compute.step_seconds=50 --local_steps=3 --overwrite --out=" + out,
                   output),
        0)
        << output;
    fs::remove_all(out);
}

// A lock left by a process that is gone, or whose pid now belongs to another process, does not
// block the folder; a folder that cannot be created says why.
TEST(Failure, StaleLocksAreTakenOverAndFolderErrorsSayWhy)
{
    std::string out = Folder("lock");
    fs::create_directories(out);
    // pid 1 is alive, but it did not take this lock (its start time differs).
    std::ofstream(out + "/.lock") << "1 123456789\n";
    std::string output;
    ASSERT_EQ(RunCommand(kRun + kSmall + " --rounds=1 --out=" + out, output), 0) << output;
    // A live lock does block.
    std::ifstream stat("/proc/self/stat");
    std::ofstream(out + "/.lock") << ::getpid() << " 0\n";
    EXPECT_EQ(RunCommand(kRun + kSmall + " --rounds=1 --out=" + out, output), 2);
    EXPECT_NE(output.find("is being written by process"), std::string::npos) << output;
    fs::remove_all(out);
    EXPECT_EQ(RunCommand(kRun + kSmall + " --rounds=1 --out=/etc/hostname/run", output), 1);
    EXPECT_NE(output.find("Not a directory"), std::string::npos) << output;
}

// A killed grid (SIGKILL, no chance to clean up) takes its runs with it; run again, it
// completes every point with the results a clean run gives.
TEST(Failure, AKilledGridResumesToCompleteCorrectResults)
{
    std::string out = Folder("killed");
    std::string clean = Folder("clean");
    const std::string grid = kSmall + " --rounds=30 --seed='1, 2, 3' -j 2";
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
    {
        std::string command = "exec " + kRun + grid + " --out=" + out + " > /dev/null 2>&1";
        execl("/bin/sh", "sh", "-c", command.c_str(), nullptr);
        _exit(127);
    }
    for (int i = 0; i < 3000 && !fs::exists(out + "/seed=1/rounds.csv.partial"); ++i)
    {
        usleep(10000);
    }
    usleep(100000);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    usleep(300000); // the children get SIGTERM from the kernel when their parent dies
    std::string output;
    ASSERT_EQ(RunCommand(kRun + grid + " --out=" + out, output), 0) << output;
    ASSERT_EQ(RunCommand(kRun + grid + " --out=" + clean, output), 0) << output;
    for (const char* seed : {"seed=1", "seed=2", "seed=3"})
    {
        for (const char* file : {"rounds.csv", "eval.csv", "curve.csv"})
        {
            EXPECT_EQ(ReadWholeFile(out + "/" + seed + "/" + file),
                      ReadWholeFile(clean + "/" + seed + "/" + file))
                << seed << " " << file;
        }
    }
    fs::remove_all(out);
    fs::remove_all(clean);
}

// A grid checks every point before it starts any: a bad value in the last point stops it at
// once, and nothing runs.
TEST(Failure, AGridChecksEveryPointBeforeRunningAny)
{
    std::string out = Folder("gridcheck");
    std::string output;
    EXPECT_EQ(RunCommand(kRun + kSmall + " --rounds=2 --link.bandwidth='10Mbps, fast' --out=" + out,
                         output),
              2);
    EXPECT_NE(output.find("link.bandwidth"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(out + "/link.bandwidth=10Mbps/rounds.csv.partial"));
    EXPECT_FALSE(fs::exists(out + "/link.bandwidth=10Mbps/summary.json"));
    fs::remove_all(out);
}

// A node with fewer samples than batch_size trains on all of them and is charged for what it
// computed, and the log says so.
TEST(Failure, SmallPartitionsAreChargedForWhatTheyCompute)
{
    std::string out = Folder("batch");
    std::string output;
    ASSERT_EQ(RunCommand(kRun + kSmall
                             + " --rounds=1 --batch_size=100 --compute.model=flops"
                               " --out="
                             + out,
                         output),
              0)
        << output;
    EXPECT_NE(output.find("fewer than batch_size 100"), std::string::npos) << output;
    // Logistic regression is 47,040 FLOP per sample, 3 steps on a 10 GFLOP/s device, on all of
    // the node's samples (about 75 of the 300).
    std::map<std::string, double> samples;
    for (const auto& row : ReadCsv(out + "/partition.csv"))
    {
        samples[row[0]] = std::stod(row[1]);
    }
    auto rows = ReadCsv(out + "/rounds.csv");
    ASSERT_EQ(rows.size(), 4u);
    for (const auto& row : rows)
    {
        ASSERT_LT(samples[row[0]], 100);
        EXPECT_NEAR(std::stod(row[3]), 3 * samples[row[0]] * 47040.0 / 10e9, 1e-9) << row[0];
    }
    fs::remove_all(out);
}

// Any ns-3 attribute can be set from a scenario: recorded in config.ini, and it takes effect
// (here: an ACK for every segment instead of every second one puts more bytes on the wire;
// with ns-3's own TCP, whose receiver otherwise delays its ACKs: the Linux profile's ACKs most
// segments of a short run at once anyway, as its window grows).
TEST(Failure, Ns3AttributesFromTheScenarioTakeEffectAndAreRecorded)
{
    std::string a = Folder("ns3-default");
    std::string b = Folder("ns3-delack");
    std::string output;
    const std::string ns3Tcp = kRun + kSmall + " --rounds=3 --tcp.profile=ns3";
    ASSERT_EQ(RunCommand(ns3Tcp + " --out=" + a, output), 0) << output;
    ASSERT_EQ(RunCommand(ns3Tcp + " --ns3.ns3::TcpSocket::DelAckCount=1 --out=" + b, output), 0)
        << output;
    EXPECT_NE(ReadWholeFile(b + "/config.ini").find("[ns3]\nns3::TcpSocket::DelAckCount = 1"),
              std::string::npos);
    auto wire = [](const std::string& dir)
    {
        return std::stod(ReadCsv(dir + "/summary.csv")[0][9]);
    };
    EXPECT_GT(wire(b), wire(a) * 1.01) << "more ACKs on the wire";
    // The recorded configuration runs again as it is.
    ASSERT_EQ(RunCommand(kRun + " " + b + "/config.ini --out=" + b + "-again", output), 0)
        << output;
    EXPECT_EQ(ReadWholeFile(b + "/rounds.csv"), ReadWholeFile(b + "-again/rounds.csv"));
    for (const auto& d : {a, b, b + "-again"})
    {
        fs::remove_all(d);
    }
}

} // namespace
} // namespace ns3
