// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: rounds that do not wait for every neighbour (deadline and wait-free rounds), checked
 * against synchronous rounds and against the arithmetic of compute and timeout.
 */
#include "csv-rows.h"
#include "fault-plan.h"
#include "run-command.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iomanip>
#include <map>
#include <sstream>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

const std::string kRun = std::string(DLSIM_RUN_BINARY) + " --no-plot --overwrite";
// Six learners on a ring, 0.3 s of compute per round (3 steps of 0.1 s).
const std::string kRing = " --nodes=6 --topology=ring --dataset=synthetic --model=mlp --lr=0.05"
                          " --compute.model=fixed --compute.step_seconds=0.1";

std::string
Folder(const std::string& name)
{
    return (fs::temp_directory_path() / ("dlsim-rounds-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

/// Write `text` to a file in the temporary folder and return its path.
std::string
WriteFile(const std::string& name, const std::string& text)
{
    std::string path = Folder(name);
    std::ofstream(path) << text;
    return path;
}

/// The value of a numeric field of summary.json, e.g. "simulated_time_s" or "fresh".
double
SummaryNumber(const std::string& dir, const std::string& field)
{
    std::string json = ReadWholeFile(dir + "/summary.json");
    size_t at = json.find("\"" + field + "\": ");
    EXPECT_NE(at, std::string::npos) << field;
    return at == std::string::npos ? -1.0 : std::stod(json.substr(at + field.size() + 4));
}

std::string
RunDlsim(const std::string& name, const std::string& args)
{
    std::string out = Folder(name);
    std::string output;
    EXPECT_EQ(RunCommand(kRun + args + " --out=" + out, output), 0) << output;
    return out;
}

// Deadline rounds that wait for ever are synchronous rounds: the same results, byte for byte,
// for an algorithm whose messages are models and for one whose messages are increments.
TEST(RoundModes, DeadlineWithoutTimeoutIsSyncByteForByte)
{
    for (const std::string algorithm : {"dpsgd", "choco --choco.gamma=0.5"})
    {
        const std::string args = kRing + " --rounds=6 --eval.every=3 --algorithm=" + algorithm;
        std::string sync = RunDlsim("sync", args);
        std::string forever = RunDlsim("forever", args + " --rounds.mode=deadline");
        std::string late = RunDlsim("late", args + " --rounds.mode=deadline --rounds.timeout=1000s");
        for (const char* file : {"rounds.csv", "eval.csv", "curve.csv", "receipt.csv"})
        {
            const std::string expected = ReadWholeFile(sync + "/" + file);
            EXPECT_FALSE(expected.empty()) << file;
            EXPECT_EQ(ReadWholeFile(forever + "/" + file), expected) << algorithm << " " << file;
            EXPECT_EQ(ReadWholeFile(late + "/" + file), expected) << algorithm << " " << file;
        }
        EXPECT_EQ(SummaryNumber(sync, "fresh"), 6 * 2 * 6) << "every message used in its round";
        for (const auto& dir : {sync, forever, late})
        {
            fs::remove_all(dir);
        }
    }
}

// Rounds of 0.03 s of compute behind 10 Mbit/s uplinks and 50 Mbit/s downlinks: a learner's
// next message is ready before TCP has acknowledged (in part: sent) the previous one. A deadline
// that never fires must not hold it back, under either TCP profile: same times, same models.
TEST(RoundModes, AnUnreachableDeadlineKeepsTheTimesOfSyncRounds)
{
    for (const std::string profile : {"ns3", "linux"})
    {
        const std::string args = " --nodes=4 --topology=ring --dataset=synthetic --model=mlp"
                                 " --lr=0.05 --compute.model=fixed --compute.step_seconds=0.01"
                                 " --rounds=4 --eval.every=2 --network=access --tcp.profile="
                                 + profile;
        std::string sync = RunDlsim("fast-sync", args);
        std::string late
            = RunDlsim("fast-late", args + " --rounds.mode=deadline --rounds.timeout=1000s");
        for (const char* file : {"rounds.csv", "eval.csv", "curve.csv", "receipt.csv"})
        {
            const std::string expected = ReadWholeFile(sync + "/" + file);
            EXPECT_FALSE(expected.empty()) << file;
            EXPECT_EQ(ReadWholeFile(late + "/" + file), expected) << profile << " " << file;
        }
        fs::remove_all(sync);
        fs::remove_all(late);
    }
}

// Learner 0 sends through a 100x slower uplink. Synchronous rounds all wait for it; deadline
// rounds end at most the timeout after the own message went out, so every round lasts at most
// compute + timeout, and learner 0's messages miss their rounds.
TEST(RoundModes, ASlowLinkDoesNotHoldDeadlineRoundsBack)
{
    std::string hosts = "host,up,down,latency\n0,0.1Mbps,50Mbps,5ms\n";
    for (int i = 1; i < 6; ++i)
    {
        hosts += std::to_string(i) + ",10Mbps,50Mbps,5ms\n";
    }
    const std::string args = kRing + " --rounds=8 --eval.every=4 --network=access --access.file="
                             + WriteFile("hosts.csv", hosts);
    std::string sync = RunDlsim("slow-sync", args);
    std::string deadline = RunDlsim("slow-deadline", args + " --rounds.mode=deadline --rounds.timeout=1s");

    // Each round: 0.3 s of compute, then at most 1 s of waiting.
    const double compute = 0.3;
    const double timeout = 1.0;
    std::map<std::string, double> previousEnd;
    for (const auto& row : ReadCsv(deadline + "/rounds.csv"))
    {
        double end = std::stod(row[2]);
        double start = previousEnd.count(row[0]) ? previousEnd[row[0]] : 0.0;
        // rounds.csv prints 9 significant digits: 1e-7 s at most at these times.
        EXPECT_LE(end - start, compute + timeout + 1e-7)
            << "learner " << row[0] << " round " << row[1];
        EXPECT_GE(end - start, compute - 1e-7);
        previousEnd[row[0]] = end;
    }
    const double syncTime = SummaryNumber(sync, "simulated_time_s");
    const double deadlineTime = SummaryNumber(deadline, "simulated_time_s");
    EXPECT_LE(deadlineTime, 8 * (compute + timeout) + 1e-9);
    // 8 rounds of 2 messages of ~0.41 MB through 0.1 Mbit/s take at least 500 s.
    EXPECT_GT(syncTime, 500.0);
    EXPECT_GT(syncTime, 40 * deadlineTime);

    // Learner 0's neighbours (1 and 5) aggregate almost nothing from it; its messages are late.
    uint32_t fromNeighbours = 0;
    uint32_t late = 0;
    uint32_t replaced = 0;
    for (const auto& row : ReadCsv(deadline + "/receipt.csv"))
    {
        if (row[0] == "0")
        {
            replaced += std::stoul(row[8]);
        }
        if (row[0] == "1" || row[0] == "5")
        {
            fromNeighbours += std::stoul(row[3]) + std::stoul(row[4]);
        }
        late += std::stoul(row[5]);
    }
    EXPECT_LE(fromNeighbours, 2u * 8 + 2) << "about one message a round (from the fast side)";
    EXPECT_GT(late, 0u) << "late messages are counted as dropped";
    // Its uplink carries one message at a time; newer models replace the ones still queued.
    EXPECT_GT(replaced, 8u) << "learner 0's unsent models are superseded, not piled up in TCP";
    EXPECT_GT(SummaryNumber(deadline, "dropped"), 0.0);
    // Learning still happens: the fast learners mix among themselves.
    EXPECT_GT(SummaryNumber(deadline, "mean"), 0.5);
    fs::remove_all(sync);
    fs::remove_all(deadline);
}

// Wait-free rounds: a learner with a 4x slower device does a quarter of the rounds of the
// others in the same simulated time, nobody waits for it, and the curve follows the clock.
TEST(RoundModes, WaitFreeRoundsLetFastLearnersDoMoreRounds)
{
    std::string speeds = "node,gflops\n0,0.0025\n";
    for (int i = 1; i < 6; ++i)
    {
        speeds += std::to_string(i) + ",0.01\n";
    }
    std::string out = RunDlsim("async",
                          " --nodes=6 --topology=ring --dataset=synthetic --model=mlp --lr=0.05"
                          " --rounds=1000 --rounds.mode=async --rounds.duration=20s"
                          " --eval.interval=5s --compute.file="
                              + WriteFile("speeds.csv", speeds));
    std::map<std::string, uint32_t> rounds;
    std::map<std::string, double> compute;
    for (const auto& row : ReadCsv(out + "/rounds.csv"))
    {
        ++rounds[row[0]];
        compute[row[0]] = std::stod(row[3]);
    }
    ASSERT_EQ(rounds.size(), 6u);
    EXPECT_NEAR(compute["0"], 4 * compute["1"], 1e-9);
    for (const auto& [node, count] : rounds)
    {
        // Rounds start until 20 s: ceil(20 / compute) of them, none waiting for messages.
        EXPECT_EQ(count, static_cast<uint32_t>(std::ceil(20.0 / compute[node]))) << node;
    }
    EXPECT_GE(rounds["1"], 3 * rounds["0"]);
    // One curve line every 5 s, until the first tick after the last round: 0, 5, ..., 25.
    auto curve = ReadCsv(out + "/curve.csv");
    ASSERT_EQ(curve.size(), 6u);
    for (size_t k = 0; k < curve.size(); ++k)
    {
        EXPECT_EQ(std::stod(curve[k][1]), 5.0 * k);
    }
    EXPECT_GT(std::stod(curve.back()[3]), 0.8);
    EXPECT_EQ(SummaryNumber(out, "min_per_node"), rounds["0"]);
    fs::remove_all(out);
}

// Wait-free rounds with identical learners and links: every learner does the same number of
// rounds, as in synchronous rounds of the same length (none waits, none is slower).
TEST(RoundModes, WaitFreeRoundsOfIdenticalLearnersStayInStep)
{
    const std::string common = kRing + " --rounds=8 --eval.interval=1s";
    std::string sync = RunDlsim("step-sync", common);
    std::string async = RunDlsim("step-async", common + " --rounds.mode=async");
    auto count = [](const std::string& dir)
    {
        std::map<std::string, uint32_t> rounds;
        for (const auto& row : ReadCsv(dir + "/rounds.csv"))
        {
            ++rounds[row[0]];
        }
        return rounds;
    };
    EXPECT_EQ(count(async), count(sync));
    EXPECT_EQ(count(async).size(), 6u);
    for (const auto& [node, rounds] : count(async))
    {
        EXPECT_EQ(rounds, 8u) << node;
    }
    // Every async round ends when its compute does (0.3 s each), all learners together.
    for (const auto& row : ReadCsv(async + "/rounds.csv"))
    {
        EXPECT_NEAR(std::stod(row[2]), 0.3 * std::stoul(row[1]), 1e-9) << row[0];
    }
    fs::remove_all(sync);
    fs::remove_all(async);
}

/**
 * AD-PSGD through the simulated network. Synchronous rounds wait for the node's own exchange
 * only: every round lasts at least its compute time plus a whole model each way over a
 * 10 Mbit/s link, and every node sends two models per round on average (its request and one
 * answer), as many bytes as D-PSGD on the same ring. Wait-free rounds never wait: a round ends
 * when its compute does, and sends a request only when the node's previous one was answered.
 * Both are the same with one thread or two.
 */
TEST(RoundModes, AdpsgdExchangesPairwiseThroughTheNetwork)
{
    const std::string common = kRing + " --rounds=8 --eval.interval=1s";
    const std::string sync = RunDlsim("adpsgd-sync", common + " --algorithm=adpsgd");
    const std::string async
        = RunDlsim("adpsgd-async", common + " --algorithm=adpsgd --rounds.mode=async");
    const std::string threads = RunDlsim(
        "adpsgd-threads", common + " --algorithm=adpsgd --rounds.mode=async --run.threads=2");
    const std::string dpsgd = RunDlsim("adpsgd-dpsgd", common + " --algorithm=dpsgd");
    EXPECT_EQ(SummaryNumber(sync, "values"), SummaryNumber(dpsgd, "values"));
    EXPECT_EQ(SummaryNumber(sync, "fresh"), 6 * 8) << "one answer per node and round";
    EXPECT_GT(SummaryNumber(sync, "mean"), 0.8) << "it learns";
    // One request of a round's value bytes is the model: D-PSGD sends it to 2 neighbours.
    const double model = std::stod(ReadCsv(dpsgd + "/rounds.csv").at(0).at(5)) / 2;
    const double exchange = 0.3 + 2 * model * 8 / 10e6;
    std::map<std::string, double> last;
    for (const auto& row : ReadCsv(sync + "/rounds.csv"))
    {
        const double end = std::stod(row[2]);
        EXPECT_GT(end - last[row[0]], exchange) << "node " << row[0] << ", round " << row[1];
        last[row[0]] = end;
    }
    EXPECT_EQ(last.size(), 6u);
    auto rows = ReadCsv(async + "/rounds.csv");
    ASSERT_EQ(rows.size(), 6u * 8);
    for (const auto& row : rows)
    {
        EXPECT_NEAR(std::stod(row[2]), 0.3 * std::stoul(row[1]), 1e-9) << row[0];
    }
    // One exchange of its own at a time: a round whose request is unanswered asks nobody.
    EXPECT_LT(SummaryNumber(async, "values"), SummaryNumber(sync, "values"));
    EXPECT_GE(SummaryNumber(async, "fresh") + SummaryNumber(async, "stale"), 6 * 2);
    EXPECT_EQ(ReadWholeFile(async + "/rounds.csv"), ReadWholeFile(threads + "/rounds.csv"));
    EXPECT_EQ(ReadWholeFile(async + "/eval.csv"), ReadWholeFile(threads + "/eval.csv"));
    EXPECT_FALSE(fs::exists(sync + "/learning.rec")) << "its learning depends on the network";
    for (const std::string& dir : {sync, async, threads, dpsgd})
    {
        fs::remove_all(dir);
    }
}

TEST(RoundModes, BadRoundKeysAreRejectedByName)
{
    const std::map<std::string, std::string> cases = {
        {" --rounds.mode=lazy", "rounds.mode"},
        {" --rounds.mode=deadline --rounds.timeout=-3s", "rounds.timeout"},
        {" --rounds.mode=async", "needs eval.interval"},
        // A budget in synchronous rounds is evaluated by rounds; learners that stop at
        // different rounds need a clock.
        {" --rounds.mode=deadline --rounds.timeout=1s --rounds.duration=10s",
         "rounds.duration needs eval.interval"},
        {" --algorithm=adpsgd --rounds.duration=10s", "learners that exchange pairwise"},
        {" --rounds.mode=deadline --rounds.late=maybe", "rounds.late"},
        {" --compute.file=/nonexistent/speeds.csv", "compute.file"},
        {" --eval.interval=1s --faults.crash=[9@1s]", "node 9 does not exist"},
        {" --eval.interval=1s --faults.crash=[1@5s-2s]", "must end after it starts"},
        {" --eval.interval=1s --faults.crash=[1@5s-9s,1@8s]", "overlapping outages"},
        {" --eval.interval=1s --faults.links=[0-1@5s]", "A:B"},
        {" --eval.interval=1s --faults.links=[0:4@5s]", "no link joins 0 and 4"},
        {" --faults.crash=[1@5s]", "faults need eval.interval"},
    };
    for (const auto& [args, expected] : cases)
    {
        std::string output;
        EXPECT_EQ(RunCommand(kRun + kRing + " --rounds=2" + args + " --out=" + Folder("bad"), output),
                  2)
            << args << "\n"
            << output;
        EXPECT_NE(output.find(expected), std::string::npos) << args << "\n" << output;
    }
    fs::remove_all(Folder("bad"));
}

// Six learners on a ring with deadline rounds and a clock for evaluations, for the fault tests.
const std::string kFaulty = kRing + " --rounds=100000 --rounds.mode=deadline --rounds.timeout=1s"
                                    " --eval.interval=5s";

/// The end times of each learner's rounds, from rounds.csv.
std::map<uint32_t, std::vector<double>>
RoundEnds(const std::string& dir)
{
    std::map<uint32_t, std::vector<double>> ends;
    for (const auto& row : ReadCsv(dir + "/rounds.csv"))
    {
        ends[std::stoul(row[0])].push_back(std::stod(row[2]));
    }
    return ends;
}

// Learner 2 crashes for good at 10 s and learner 4 is off from 12 s to 25 s. The run completes;
// the others keep learning; learner 2's outputs stop at its crash, learner 4's pause.
TEST(Faults, ACrashedLearnerStopsAndTheOthersGoOn)
{
    std::string out = RunDlsim("crash",
                               kFaulty + " --rounds.duration=40s --faults.crash='[2@10s, 4@12s-25s]'");
    auto ends = RoundEnds(out);
    ASSERT_EQ(ends.size(), 6u);
    EXPECT_LT(ends[2].back(), 10.0);
    for (double t : ends[4])
    {
        EXPECT_FALSE(t > 12.0 && t < 25.0 + 0.3) << "learner 4 ended a round at " << t;
    }
    EXPECT_GT(ends[4].back(), 39.0) << "learner 4 came back and went on";
    EXPECT_GT(ends[0].size(), 2 * ends[2].size());
    for (const auto& row : ReadCsv(out + "/eval.csv"))
    {
        const double t = std::stod(row[1]);
        if (row[2] == "2")
        {
            EXPECT_LT(t, 10.0) << "a crashed learner evaluates nothing";
        }
        if (row[2] == "4")
        {
            EXPECT_FALSE(t >= 12.0 && t < 25.0) << t;
        }
    }
    // Survivors learned: well above chance (10 classes).
    auto curve = ReadCsv(out + "/curve.csv");
    ASSERT_FALSE(curve.empty());
    EXPECT_GT(std::stod(curve.back()[3]), 0.5);
    EXPECT_EQ(ReadWholeFile(out + "/faults.csv"),
              "time_s,event,subject\n10,crash-for-good,2\n12,crash,4\n25,recover,4\n");
    std::string json = ReadWholeFile(out + "/summary.json");
    EXPECT_NE(json.find("\"faults\": {\"crashes\": 2, \"recoveries\": 1, \"link_outages\": 0, "
                        "\"learners_lost\": [2]}"),
              std::string::npos)
        << json;
    fs::remove_all(out);
}

// Synchronous rounds cannot lose a neighbour: the run ends with an error naming the learner,
// and what it computed until then stays on disk.
TEST(Faults, ACrashInSyncRoundsEndsTheRunNamingTheLearner)
{
    std::string out = Folder("sync-crash");
    std::string output;
    EXPECT_EQ(RunCommand(kRun + kRing + " --rounds=1000 --eval.interval=5s --faults.crash='[2@10s]'"
                             + " --out=" + out,
                         output),
              1)
        << output;
    EXPECT_NE(output.find("learner 2 crashed at 10 s"), std::string::npos) << output;
    EXPECT_NE(output.find("use rounds.mode = async, or deadline with a rounds.timeout"),
              std::string::npos)
        << output;
    EXPECT_TRUE(fs::exists(out + "/rounds.csv.partial"));
    fs::remove_all(out);
}

// Deadline rounds without a timeout wait for every in-neighbour as sync rounds do: a crash ends
// the run when it happens instead of leaving the neighbours to wait for the watchdog.
TEST(Faults, ACrashInDeadlineRoundsWithoutATimeoutEndsTheRunAtOnce)
{
    std::string out = Folder("deadline-crash");
    std::string output;
    EXPECT_EQ(RunCommand(kRun + kRing + " --rounds=1000 --rounds.mode=deadline"
                             + " --eval.interval=5s --faults.crash='[2@10s]' --out=" + out,
                         output),
              1)
        << output;
    EXPECT_NE(output.find("learner 2 crashed at 10 s"), std::string::npos) << output;
    EXPECT_NE(output.find("deadline rounds without rounds.timeout"), std::string::npos) << output;
    EXPECT_NE(output.find("run stopped at 10 s"), std::string::npos) << output;
    fs::remove_all(out);
}

// A host that is off from 0 s starts when it recovers, in either mode that tolerates crashes;
// the documented "for good" row of faults.file (empty up_s) is accepted; a fault after the end
// of the run is reported as not having happened.
TEST(Faults, CrashesAtTheStartForGoodFromAFileAndAfterTheEnd)
{
    // kRing with a model and data that cost little to train.
    const std::string kTiny = " --nodes=6 --topology=ring --dataset=synthetic"
                              " --synthetic.train_samples=300 --model=logistic"
                              " --compute.model=fixed --compute.step_seconds=0.1";
    for (const std::string mode :
         {" --rounds.mode=async", " --rounds.mode=deadline --rounds.timeout=1s"})
    {
        std::string out = RunDlsim("crash-at-0",
                                   kTiny + mode
                                       + " --rounds=100000 --eval.interval=5s"
                                         " --rounds.duration=10s"
                                         " --faults.crash='[1@0s-500ms]'");
        EXPECT_EQ(ReadWholeFile(out + "/faults.csv"),
                  "time_s,event,subject\n0,crash,1\n0.5,recover,1\n")
            << mode;
        auto ends = RoundEnds(out);
        ASSERT_FALSE(ends[1].empty()) << mode;
        EXPECT_GE(ends[1].front(), 0.5 + 0.3) << mode << ": learner 1 trains once it is up";
        EXPECT_GT(ends[1].size(), 10u) << mode;
        fs::remove_all(out);
    }
    const std::string file = WriteFile("faults-file.csv", "node,down_s,up_s\n1,3,\n");
    std::string out = Folder("for-good");
    std::string output;
    EXPECT_EQ(RunCommand(kRun + kTiny + " --rounds=100000 --rounds.mode=deadline"
                             + " --rounds.timeout=1s --eval.interval=5s"
                             + " --rounds.duration=10s --faults.file=" + file
                             + " --faults.crash='[2@1000s]' --faults.links='[0:1@2000s-2001s]'"
                               " --out="
                             + out,
                         output),
              0)
        << output;
    EXPECT_EQ(ReadWholeFile(out + "/faults.csv"), "time_s,event,subject\n3,crash-for-good,1\n");
    EXPECT_NE(output.find("note: faults: the crash of host 2 at 1000 s did not happen: the run "
                          "ended at"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("note: faults: the outage of link 0:1 at 2000 s did not happen"),
              std::string::npos)
        << output;
    fs::remove_all(out);
    fs::remove(file);
}

// A faults.links item naming no link is refused before the run folder is written, and a grid
// refuses it before running any point.
// An availability trace (node, online_s, offline_s) becomes the outages between its intervals:
// off before the first, between two, and after the last; hosts not listed are always on.
TEST(Faults, AnAvailabilityTraceBecomesTheOutagesBetweenItsIntervals)
{
    const std::string trace = WriteFile("availability.csv",
                                        "node,online_s,offline_s\n"
                                        "1,10,20\n"
                                        "1,30,\n"
                                        "2,0,50\n");
    FaultPlan plan = ReadFaultPlan({}, "", trace, {}, 4);
    ASSERT_EQ(plan.hosts.size(), 3u);
    EXPECT_EQ(plan.hosts[0].node, 1u);
    EXPECT_EQ(plan.hosts[0].down, 0.0);
    EXPECT_EQ(plan.hosts[0].up, 10.0);
    EXPECT_EQ(plan.hosts[1].down, 20.0);
    EXPECT_EQ(plan.hosts[1].up, 30.0);
    EXPECT_EQ(plan.hosts[2].node, 2u);
    EXPECT_EQ(plan.hosts[2].down, 50.0);
    EXPECT_TRUE(std::isinf(plan.hosts[2].up));
    const std::string overlapping
        = WriteFile("overlapping.csv", "node,online_s,offline_s\n1,10,20\n1,15,30\n");
    try
    {
        ReadFaultPlan({}, "", overlapping, {}, 4);
        ADD_FAILURE() << "overlapping intervals were accepted";
    }
    catch (const dlsim::ConfigValueError& e)
    {
        EXPECT_NE(std::string(e.what()).find("overlapping.csv:3: node 1"), std::string::npos)
            << e.what();
    }
    fs::remove(trace);
    fs::remove(overlapping);
}

// Churn by rates: every host alternates crashes and recoveries, starting up, at exponential
// times drawn from its own seeded stream: the same with 1 and 2 worker threads, another draw
// with another seed; the run completes.
TEST(Faults, ChurnByRatesAlternatesAndIsSeeded)
{
    const std::string churn = kRing
                              + " --rounds=8 --rounds.mode=async"
                                " --eval.interval=1s --faults.mean_up=1s --faults.mean_down=500ms";
    const std::string one = RunDlsim("churn-1", churn + " --run.threads=1");
    const std::string two = RunDlsim("churn-2", churn + " --run.threads=2");
    const std::string other = RunDlsim("churn-3", churn + " --seed=2");
    const std::string events = ReadWholeFile(one + "/faults.csv");
    EXPECT_EQ(events, ReadWholeFile(two + "/faults.csv"));
    EXPECT_EQ(ReadWholeFile(one + "/rounds.csv"), ReadWholeFile(two + "/rounds.csv"));
    EXPECT_NE(events, ReadWholeFile(other + "/faults.csv"));
    std::map<std::string, std::string> last; // host -> its last event
    size_t crashes = 0;
    for (const auto& row : ReadCsv(one + "/faults.csv"))
    {
        const std::string& event = row[1];
        ASSERT_TRUE(event == "crash" || event == "recover") << event;
        EXPECT_NE(last[row[2]], event) << "host " << row[2] << " at " << row[0];
        EXPECT_GT(std::stod(row[0]), 0.0);
        last[row[2]] = event;
        crashes += event == "crash";
    }
    EXPECT_GE(crashes, 3u) << events;
    for (const auto& dir : {one, two, other})
    {
        EXPECT_TRUE(fs::exists(dir + "/summary.json")) << dir;
        fs::remove_all(dir);
    }
}

TEST(Faults, AMissingLinkIsRefusedBeforeAnythingIsWritten)
{
    std::string out = Folder("missing-link");
    fs::remove_all(out);
    std::string output;
    EXPECT_EQ(RunCommand(kRun + kFaulty + " --faults.links='[0:4@5s-6s]' --out=" + out, output), 2)
        << output;
    EXPECT_NE(output.find("no link joins 0 and 4"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(out + "/config.ini")) << "nothing written";
    EXPECT_FALSE(fs::exists(out + "/rounds.csv.partial")) << "nothing written";
    EXPECT_FALSE(fs::exists(out + "/.lock"));
    fs::remove_all(out);
    EXPECT_EQ(RunCommand(kRun + kFaulty + " --seed=1,2 --faults.links='[0:4@5s-6s]' --out=" + out,
                         output),
              2)
        << output;
    EXPECT_NE(output.find("grid point"), std::string::npos) << output;
    EXPECT_NE(output.find("no link joins 0 and 4"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(out)) << "no point ran";
}

// Synchronous rounds under a time budget: every learner completes the same last round (the
// highest any had started when the first round ended after the budget), so none waits for a
// message its neighbours never send. Learners of different speeds end a round at different
// times; the budget is put between the first and the last end of one round, where a learner
// that stopped at its own first round end after the budget would leave a faster neighbour
// waiting for ever.
TEST(RoundModes, SyncRoundsUnderABudgetAgreeOnTheirLastRound)
{
    const std::string speeds
        = WriteFile("speeds.csv", "node,gflops\n0,1\n1,3\n2,1.5\n3,5\n4,1\n5,2\n");
    const std::string run = " --nodes=6 --topology=ring --dataset=synthetic"
                            " --synthetic.train_samples=300 --model=logistic --rounds=100000"
                            " --eval.interval=1s --compute.file="
                            + speeds;
    std::string out = RunDlsim("budget", run + " --rounds.duration=1s");
    std::map<uint32_t, std::pair<double, double>> spread; // round: first and last end
    for (const auto& row : ReadCsv(out + "/rounds.csv"))
    {
        const double t = std::stod(row[2]);
        auto [it, added] = spread.emplace(std::stoul(row[1]), std::make_pair(t, t));
        it->second = {std::min(it->second.first, t), std::max(it->second.second, t)};
    }
    double budget = 0.0;
    for (const auto& [round, ends] : spread)
    {
        if (round >= 3 && ends.second > ends.first + 1e-4)
        {
            budget = (ends.first + ends.second) / 2;
            break;
        }
    }
    ASSERT_GT(budget, 0.0) << "no round whose learners end it at different times";
    std::ostringstream duration;
    duration << std::setprecision(9) << budget << "s";
    std::string output;
    ASSERT_EQ(
        RunCommand(kRun + run + " --rounds.duration=" + duration.str() + " --out=" + out, output),
        0)
        << duration.str() << "\n"
        << output;
    auto ends = RoundEnds(out);
    ASSERT_EQ(ends.size(), 6u);
    for (const auto& [learner, times] : ends)
    {
        EXPECT_EQ(times.size(), ends[0].size()) << "learner " << learner;
    }
    fs::remove_all(out);
    fs::remove(speeds);
}

// The link between learners 0 and 1 fails from 20 s to 150 s. TCP retransmits until it gives
// up (about two minutes with a 1 s minimum RTO), the messages it held are lost, the learners
// reconnect, and once the link is back learner 1 hears from both neighbours again.
TEST(Faults, AFailedLinkLosesMessagesAndConnectionsComeBack)
{
    std::string out
        = RunDlsim("link",
                   " --nodes=6 --topology=ring --dataset=synthetic --model=mlp --lr=0.05"
                   " --compute.model=fixed --compute.step_seconds=0.3 --rounds=100000"
                   " --rounds.mode=deadline"
                           " --rounds.timeout=2s --eval.interval=20s --rounds.duration=200s"
                           " --faults.links='[0:1@20s-150s]'");
    uint32_t lost = 0;
    uint32_t duringOutage = 0;
    uint32_t outageRounds = 0;
    uint32_t afterwards = 0;
    uint32_t laterRounds = 0;
    for (const auto& row : ReadCsv(out + "/receipt.csv"))
    {
        lost += std::stoul(row[9]);
        if (row[0] != "1")
        {
            continue;
        }
        const double t = std::stod(row[2]);
        const uint32_t used = std::stoul(row[3]) + std::stoul(row[4]);
        if (t > 25.0 && t < 150.0)
        {
            duringOutage += used;
            ++outageRounds;
        }
        if (t > 170.0)
        {
            afterwards += used;
            ++laterRounds;
        }
    }
    EXPECT_GT(lost, 0u) << "messages TCP held when it gave up";
    EXPECT_EQ(duringOutage, outageRounds) << "only learner 2's messages reach learner 1";
    EXPECT_EQ(afterwards, 2 * laterRounds) << "both neighbours again after the link is back";
    EXPECT_GT(laterRounds, 10u);
    EXPECT_EQ(ReadWholeFile(out + "/faults.csv"),
              "time_s,event,subject\n20,link-down,0:1\n150,link-up,0:1\n");
    fs::remove_all(out);
}

} // namespace
} // namespace ns3
