// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: train once, replay the network. A grid point that differs from another only in
 * network keys replays that one's recorded learning; its results must be exactly those of the
 * same point run in full.
 */
#include "grid-table.h"
#include "learning-record.h"
#include "point-tables.h"
#include "run-command.h"
#include "run-points.h"
#include "scenario-config.h"
#include "test-data.h"
#include "time-to-target.h"
#include "worker-pool.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

/// The algorithms of undirected overlays, then those of directed ones (push-sum).
const std::string kUndirected = "dpsgd, random-sampling, topk, jwins, choco";
const std::string kDirected = "sparse-push, scsp";

/// dlsim-run with the smallest learning that runs: 4 logistic learners on generated data.
const std::string kTiny = std::string(DLSIM_RUN_BINARY)
                          + " --dataset=synthetic --synthetic.train_samples=300 --model=logistic "
                            "--nodes=4 --degree=2 --no-plot";

/// A finished CHOCO-SGD run of kTiny (its recording resolves choco.gamma) in `folder`.
bool
TinyChocoRun(const std::string& folder, std::string& output)
{
    return RunCommand(kTiny + " --rounds=2 --algorithm=choco --out=" + folder, output) == 0;
}

/// Small runs of every algorithm; scsp adds its gossip rounds, eval.every 2 leaves rounds out.
std::string
Small(const std::string& network)
{
    return std::string(DLSIM_RUN_BINARY)
           + " --dataset=synthetic --synthetic.train_samples=300 --model=logistic --nodes=4 "
             "--degree=2 --rounds=4 --eval.every=2 --scsp.gossip_rounds=2 --no-plot -j 2 "
             "--network="
           + network;
}

/// The files a replay must reproduce byte for byte.
void
ExpectSameResults(const std::string& replayed, const std::string& full)
{
    for (const char* file : {"rounds.csv", "eval.csv", "curve.csv"})
    {
        EXPECT_EQ(ReadWholeFile(replayed + "/" + file), ReadWholeFile(full + "/" + file))
            << replayed << " and " << full << " differ in " << file;
    }
    EXPECT_NE(ReadWholeFile(replayed + "/config.ini").find("# replayed: "), std::string::npos)
        << replayed;
    // What the runs resolved on the overlay (CHOCO-SGD's step size), taken from the recording.
    auto resolvedLines = [](const std::string& folder)
    {
        std::istringstream lines(ReadWholeFile(folder + "/config.ini"));
        std::string kept;
        for (std::string line; std::getline(lines, line);)
        {
            kept += line.rfind("# resolved: ", 0) == 0 ? line + "\n" : "";
        }
        return kept;
    };
    EXPECT_EQ(resolvedLines(replayed), resolvedLines(full)) << replayed;
}

/**
 * For every algorithm: a grid over two rates trains at the first and replays at the second;
 * the replayed point equals the second rate's point run in full (a grid of one rate, so that
 * every point trains).
 */
void
ReplayEqualsFullRun(const std::string& network, const std::string& rateKey)
{
    const std::string out = FreshTempFolder("replay-" + network);
    for (const auto& [algorithms, topology] :
         {std::pair{kUndirected, "random-regular"}, std::pair{kDirected, "directed-exponential"}})
    {
        std::string output;
        const std::string grid = Small(network) + " --topology=" + topology + " --algorithm='"
                                 + algorithms + "' --" + rateKey;
        fs::remove_all(out + "/sweep");
        fs::remove_all(out + "/full");
        ASSERT_EQ(RunCommand(grid + "='20Mbps, 3Mbps' --out=" + out + "/sweep", output), 0)
            << output;
        const size_t count
            = static_cast<size_t>(std::count(algorithms.begin(), algorithms.end(), ',')) + 1;
        EXPECT_NE(output.find(std::to_string(count) + " of " + std::to_string(2 * count)
                              + " runs differ from another only in network keys"),
                  std::string::npos)
            << output;
        ASSERT_EQ(RunCommand(grid + "=3Mbps --out=" + out + "/full", output), 0) << output;
        EXPECT_EQ(output.find(", replays "), std::string::npos) << "one rate: every point trains";
        std::istringstream names(algorithms);
        for (std::string algorithm; std::getline(names >> std::ws, algorithm, ',');)
        {
            const std::string replayed
                = out + "/sweep/algorithm=" + algorithm + "_" + rateKey + "=3Mbps";
            ExpectSameResults(replayed, out + "/full/algorithm=" + algorithm);
            if (algorithm == "choco")
            {
                // Its step size from the recording, not tuned again.
                EXPECT_NE(ReadWholeFile(replayed + "/log.txt")
                              .find("resolved: choco.gamma = 0.158489319246, as the recorded run "
                                    "resolved it"),
                          std::string::npos)
                    << ReadWholeFile(replayed + "/log.txt");
            }
            // The replay took as long as the network at 3 Mbit/s makes it: not the recorded
            // times.
            EXPECT_NE(ReadWholeFile(replayed + "/rounds.csv"),
                      ReadWholeFile(out + "/sweep/algorithm=" + algorithm + "_" + rateKey
                                    + "=20Mbps/rounds.csv"));
        }
    }
    fs::remove_all(out);
}

TEST(Replay, AReplayedPointEqualsItsFullRunOnDirectLinks)
{
    ReplayEqualsFullRun("direct", "link.bandwidth");
}

TEST(Replay, AReplayedPointEqualsItsFullRunBehindAccessLinks)
{
    ReplayEqualsFullRun("access", "access.up");
}

/**
 * With -j 2, a point whose replays wait for it runs alone and gets every core (run.threads =
 * auto); points that train side by side share them, no more threads than cores between them.
 */
TEST(Replay, APointThatTrainsAloneGetsEveryCore)
{
    const std::string out = FreshTempFolder("replay-threads");
    const uint32_t cores = dlsim::WorkerPool::DefaultThreads();
    for (const std::string algorithms : {"dpsgd", "dpsgd, jwins"})
    {
        std::string output;
        fs::remove_all(out);
        ASSERT_EQ(RunCommand(Small("direct") + " --topology=random-regular --algorithm='"
                                 + algorithms + "' --link.bandwidth='20Mbps, 3Mbps' --out=" + out,
                             output),
                  0)
            << output;
        std::vector<uint32_t> trainings; // the threads of each point that trained
        for (const auto& point : fs::directory_iterator(out))
        {
            if (!point.is_directory())
            {
                continue;
            }
            const std::string config = ReadWholeFile(point.path().string() + "/config.ini");
            const size_t at = config.find("# threads: ");
            ASSERT_NE(at, std::string::npos) << point.path();
            if (config.find("# replayed: ") == std::string::npos)
            {
                trainings.push_back(static_cast<uint32_t>(std::stoul(config.substr(at + 11))));
            }
        }
        std::sort(trainings.begin(), trainings.end());
        if (algorithms == "dpsgd")
        {
            EXPECT_EQ(trainings, std::vector<uint32_t>{cores}) << output;
        }
        else
        {
            // The first takes half the cores, the second what is left.
            EXPECT_EQ(trainings,
                      (std::vector<uint32_t>{std::max(1u, cores / 2),
                                             std::max(1u, cores - std::max(1u, cores / 2))}))
                << output;
        }
    }
    fs::remove_all(out);
}

/// Fashion-MNIST's four IDX files in `dir`: `train` and `test` samples of 28x28 pixels.
void
WriteIdxDataset(const std::string& dir, uint32_t train, uint32_t test)
{
    fs::create_directories(dir);
    for (const auto& [prefix, n] : {std::pair{"train", train}, std::pair{"t10k", test}})
    {
        std::vector<uint8_t> pixels(size_t{n} * 28 * 28);
        std::vector<uint8_t> labels(n);
        for (size_t i = 0; i < pixels.size(); ++i)
        {
            pixels[i] = static_cast<uint8_t>((i * 37 + i / 784 * 11) % 256);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            labels[i] = static_cast<uint8_t>(i % 10);
        }
        const std::vector<uint8_t> images = MakeIdx({n, 28, 28}, pixels);
        const std::vector<uint8_t> classes = MakeIdx({n}, labels);
        std::ofstream(dir + "/" + prefix + "-images-idx3-ubyte", std::ios::binary)
            .write(reinterpret_cast<const char*>(images.data()),
                   static_cast<std::streamsize>(images.size()));
        std::ofstream(dir + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary)
            .write(reinterpret_cast<const char*>(classes.data()),
                   static_cast<std::streamsize>(classes.size()));
    }
}

/// A replay of an image dataset reads its labels (for the partition), not its images: it runs
/// even once the images are gone, with the results of the full run.
TEST(Replay, AReplayOfAnImageDatasetReadsItsLabelsOnly)
{
    const std::string out = FreshTempFolder("replay-images");
    const std::string data = out + "/data";
    WriteIdxDataset(data, 80, 30);
    const std::string run = std::string(DLSIM_RUN_BINARY)
                            + " --dataset=fashion-mnist --dataset.path=" + data
                            + " --model=logistic --nodes=4 --degree=2 --rounds=2 --batch_size=4 "
                              "--local_steps=1 --eval.test_samples=30 --algorithm=jwins "
                              "--no-plot -j 2";
    std::string output;
    ASSERT_EQ(RunCommand(run + " --link.bandwidth='20Mbps, 3Mbps' --out=" + out + "/sweep", output),
              0)
        << output;
    ASSERT_EQ(RunCommand(run + " --link.bandwidth=3Mbps --out=" + out + "/full", output), 0)
        << output;
    const std::string fullLog = output; // a single run's log is its output
    const std::string replayed = out + "/sweep/link.bandwidth=3Mbps";
    ExpectSameResults(replayed, out + "/full");
    EXPECT_EQ(ReadWholeFile(replayed + "/partition.csv"),
              ReadWholeFile(out + "/full/partition.csv"));
    const std::string log = ReadWholeFile(replayed + "/log.txt");
    EXPECT_NE(log.find("dataset: labels only"), std::string::npos) << log;
    // The same dataset line as the run that loaded the images: sizes, shape, normalisation.
    const size_t line = fullLog.find("dataset: ");
    ASSERT_NE(line, std::string::npos) << fullLog;
    EXPECT_NE(log.find(fullLog.substr(line, fullLog.find('\n', line) - line)), std::string::npos)
        << log;

    // The training images cut short after their header: a run that trains is refused, a replay
    // does not read them.
    const std::vector<uint8_t> header = MakeIdx({80, 28, 28}, {});
    std::ofstream(data + "/train-images-idx3-ubyte", std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(header.data()),
               static_cast<std::streamsize>(header.size()));
    EXPECT_EQ(RunCommand(run + " --link.bandwidth=3Mbps --out=" + out + "/refused", output), 2)
        << output;
    EXPECT_NE(output.find("truncated"), std::string::npos) << output;
    ASSERT_EQ(
        RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out
                       + "/sweep/link.bandwidth=20Mbps --link.bandwidth=3Mbps --no-plot --out="
                       + out + "/again",
                   output),
        0)
        << output;
    ExpectSameResults(out + "/again", out + "/full");
    fs::remove_all(out);
}

/// A resumed grid whose finished source holds a recording it cannot read (damaged, or of
/// another format) trains the points that would have replayed it.
TEST(Replay, AResumedGridTrainsWhereTheRecordingCannotBeRead)
{
    const std::string out = FreshTempFolder("replay-unreadable");
    const std::string grid
        = kTiny + " --rounds=2 --algorithm=jwins --link.bandwidth='20Mbps, 3Mbps' --out=" + out;
    std::string output;
    ASSERT_EQ(RunCommand(grid, output), 0) << output;
    const std::string full = ReadWholeFile(out + "/link.bandwidth=3Mbps/rounds.csv");
    const std::string recording = out + "/link.bandwidth=20Mbps/learning.rec";
    const std::string original = ReadWholeFile(recording);
    const dlsim::LearningRecord record = dlsim::ReadLearningRecord(recording);
    // Damaged; of a newer format (version 9); of learning keys another dlsim had.
    std::string newer = original;
    newer[8] = 9;
    dlsim::LearningRecord otherKeys = record;
    otherKeys.learning += "some.future.key = 1\n";
    for (const auto& write :
         std::vector<std::function<void()>>{
             [&] { std::ofstream(recording, std::ios::trunc) << "DLSIMREC old"; },
             [&] { std::ofstream(recording, std::ios::binary | std::ios::trunc) << newer; },
             [&]
             {
                 dlsim::WriteLearningRecord(recording, otherKeys);
             }})
    {
        write();
        fs::remove_all(out + "/link.bandwidth=3Mbps");
        ASSERT_EQ(RunCommand(grid, output), 0) << output;
        EXPECT_NE(output.find("link.bandwidth=20Mbps: already complete"), std::string::npos)
            << output;
        EXPECT_EQ(output.find(", replays "), std::string::npos) << output;
        EXPECT_EQ(ReadWholeFile(out + "/link.bandwidth=3Mbps/config.ini").find("# replayed"),
                  std::string::npos);
        // Trained instead: the same results.
        EXPECT_EQ(ReadWholeFile(out + "/link.bandwidth=3Mbps/rounds.csv"), full);
    }
    fs::remove_all(out);
}

/// The resolved values a recording holds go into config.ini and summary.json: a value its key
/// does not accept, or a key the scenario does not leave to the overlay, is refused by name.
TEST(Replay, ARecordingsResolvedValuesAreChecked)
{
    const std::string out = FreshTempFolder("replay-resolved");
    std::string output;
    ASSERT_TRUE(TinyChocoRun(out + "/run", output)) << output;
    const std::string recording = out + "/run/learning.rec";
    const dlsim::LearningRecord record = dlsim::ReadLearningRecord(recording);
    ASSERT_EQ(record.resolved.count("choco.gamma"), 1u);
    for (const auto& [key, value, message] :
         {std::tuple<std::string, std::string, std::string>{
              "choco.gamma", "0.5\nlr = 9", "resolves choco.gamma to '0.5"},
          {"choco.gamma", "auto", "not a value of that key"},
          {"choco.alpha", "0.3", "resolves choco.alpha, which this scenario does not leave"}})
    {
        dlsim::LearningRecord hostile = record;
        hostile.resolved[key] = value;
        dlsim::WriteLearningRecord(recording, hostile);
        EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out
                                 + "/run --link.latency=40ms --no-plot --out=" + out + "/replay",
                             output),
                  2)
            << output;
        EXPECT_NE(output.find(message), std::string::npos) << output;
        EXPECT_FALSE(fs::exists(out + "/replay/config.ini"))
            << "refused before anything is written";
    }
    fs::remove_all(out);
}

/// Every value of a recording whose checksum holds is checked before anything is written: each
/// out of its range is refused (exit 2) by a message naming the value, its place and its range.
TEST(Replay, EveryRecordedValueOutOfRangeIsRefusedByName)
{
    const std::string out = FreshTempFolder("replay-values");
    std::string output;
    ASSERT_TRUE(TinyChocoRun(out + "/run", output)) << output;
    const std::string recording = out + "/run/learning.rec";
    const dlsim::LearningRecord record = dlsim::ReadLearningRecord(recording);
    ASSERT_FALSE(record.nodes.empty());
    ASSERT_FALSE(record.nodes[1].evaluations.empty());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    using Alter = std::function<void(dlsim::LearningRecord&)>;
    const std::vector<std::tuple<std::string, Alter, std::string>> cases = {
        {"accuracy above 1",
         [](auto& r) { r.nodes[1].evaluations[0].accuracy = 1.5; },
         "node 1, evaluation 1 (after round "},
        {"accuracy below 0",
         [](auto& r) { r.nodes[1].evaluations[0].accuracy = -0.1; },
         "accuracy -0.1 is not in [0, 1]"},
        {"accuracy NaN",
         [nan](auto& r) { r.nodes[1].evaluations[0].accuracy = nan; },
         "accuracy nan is not in [0, 1]"},
        {"loss infinite before divergence",
         [inf](auto& r) { r.nodes[1].evaluations[0].loss = inf; },
         "loss inf is not a finite number"},
        {"loss negative",
         [](auto& r) { r.nodes[1].evaluations[0].loss = -1; },
         "loss -1 is not a finite number of at least 0"},
        {"training loss negative",
         [](auto& r) { r.nodes[2].rounds[0].trainLoss = -3; },
         "node 2, round 1: training loss -3 is below 0"},
        {"compute time negative",
         [](auto& r) { r.nodes[0].computeTimeNs = -5; },
         "a node's header holds values no recording has"},
        {"compute time of centuries",
         [](auto& r) { r.nodes[0].computeTimeNs = INT64_MAX; },
         "is out of range (0 to 10^6 s a round"},
        {"payload over 4 GiB",
         [](auto& r) { r.nodes[3].rounds[1].payloadBytes = uint64_t{1} << 40; },
         "node 3, round 2: payload of 1099511627776 bytes"},
        {"values beyond the payload",
         [](auto& r) { r.nodes[3].rounds[0].valueBytes = r.nodes[3].rounds[0].payloadBytes + 1; },
         "a round has more value bytes than payload bytes"},
        {"a learner too few",
         [](auto& r) { r.nodes.pop_back(); },
         "learner count: the recording holds 3 learners; the scenario has nodes = 4"},
        {"a round too few",
         [](auto& r) { r.nodes[2].rounds.pop_back(); },
         "node 2: the recording holds 1 rounds; the scenario has rounds = 2"},
        {"other training rounds",
         [](auto& r) { r.nodes[2].trainingRounds = 7; },
         "training rounds are 7; the scenario has rounds = 2"},
        {"an evaluation missing",
         [](auto& r) { r.nodes[1].evaluations.pop_back(); },
         "no evaluation after round 2, which the scenario evaluates (eval.every = 10, rounds = 2)"},
        {"a learner without evaluations",
         [](auto& r) { r.nodes[1].evaluations.clear(); },
         "evaluations: 3 learners have evaluations in the recording; the scenario evaluates 4"},
        {"an evaluation after a round not recorded",
         [](auto& r) { r.nodes[1].evaluations.back().round = 9; },
         "the round is beyond the recording's 2 rounds"},
        {"directed flag of another algorithm",
         [](auto& r) { r.nodes[0].directed = true; },
         "marks the algorithm as made for directed graphs, but choco is made for undirected"},
    };
    for (const auto& [name, alter, message] : cases)
    {
        dlsim::LearningRecord hostile = record;
        alter(hostile);
        dlsim::WriteLearningRecord(recording, hostile);
        fs::remove_all(out + "/replay");
        EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out
                                 + "/run --link.latency=40ms --no-plot --out=" + out + "/replay",
                             output),
                  2)
            << name << ": " << output;
        EXPECT_NE(output.find(message), std::string::npos) << name << ": " << output;
        // Named by the reader where the file's own layout rules the value out, else by the check.
        EXPECT_TRUE(output.find("cannot replay " + recording) != std::string::npos
                    || output.find(recording + " is damaged") != std::string::npos)
            << name << ": " << output;
        EXPECT_FALSE(fs::exists(out + "/replay")) << name << ": refused before anything is written";
    }
    // Untouched, the same recording replays.
    dlsim::WriteLearningRecord(recording, record);
    EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out
                             + "/run --link.latency=40ms --no-plot --out=" + out + "/replay",
                         output),
              0)
        << output;
    fs::remove_all(out);
}

/// A replay that cannot run is refused (exit 2) before any folder is made: a learning key, also
/// as a grid axis; --replay twice; the source folder as --out; a file as --out.
TEST(Replay, ARefusedReplayWritesNothing)
{
    const std::string out = FreshTempFolder("replay-refused");
    std::string output;
    ASSERT_TRUE(TinyChocoRun(out + "/run", output)) << output;
    const std::string config = ReadWholeFile(out + "/run/config.ini");
    const std::string replay
        = std::string(DLSIM_RUN_BINARY) + " --no-plot --replay " + out + "/run";
    for (const auto& [arguments, message] : std::vector<std::pair<std::string, std::string>>{
             {" --lr=0.5 --out=" + out + "/made", "lr (recorded: '0.01', asked: '0.5')"},
             {" --lr=0.5", "lr (recorded: '0.01', asked: '0.5')"},
             {" --lr='0.01, 0.1' --out=" + out + "/made", "grid point lr=0.1: cannot replay"},
             {" --replay " + out + "/run --out=" + out + "/made", "--replay given twice"},
             {" --link.bandwidth=2Mbps --overwrite --out=" + out + "/run",
              "is the run folder whose recording is replayed"},
             {" --link.bandwidth='1Mbps, 2Mbps' --out=" + out + "/run",
              "is the run folder whose recording is replayed"}})
    {
        EXPECT_EQ(RunCommand(replay + arguments, output), 2) << arguments << "\n" << output;
        EXPECT_NE(output.find(message), std::string::npos) << arguments << "\n" << output;
        EXPECT_FALSE(fs::exists(out + "/made")) << arguments;
        EXPECT_FALSE(fs::exists(out + "/run-replay-lr=0.5")) << arguments;
        EXPECT_EQ(ReadWholeFile(out + "/run/config.ini"), config) << arguments;
    }
    std::ofstream(out + "/afile") << "x";
    EXPECT_EQ(RunCommand(replay + " --link.bandwidth=2Mbps --out=" + out + "/afile", output), 2)
        << output;
    EXPECT_NE(output.find("afile is a file, not a folder"), std::string::npos) << output;
    fs::remove_all(out);
}

/// ./dlsim replay RUN_DIR --KEY=VALUE: an old run over a new network, and what it refuses.
TEST(Replay, AFinishedRunIsReplayedOverAnotherNetworkAndNothingElse)
{
    const std::string out = FreshTempFolder("replay-command");
    const std::string base = std::string(DLSIM_RUN_BINARY)
                             + " --dataset=synthetic --synthetic.train_samples=300 "
                               "--model=logistic --nodes=4 --degree=2 --rounds=3 --no-plot";
    std::string output;
    ASSERT_EQ(RunCommand(base + " --algorithm=jwins --out=" + out + "/run", output), 0) << output;
    ASSERT_TRUE(fs::exists(out + "/run/learning.rec"));
    ASSERT_EQ(
        RunCommand(base + " --algorithm=jwins --link.latency=80ms --out=" + out + "/full", output),
        0)
        << output;
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out
                             + "/run --link.latency=80ms --no-plot",
                         output),
              0)
        << output;
    EXPECT_NE(output.find("nothing is trained"), std::string::npos) << output;
    ExpectSameResults(out + "/run-replay-link.latency=80ms", out + "/full");

    // A key that changes what is learned is named, and nothing is run.
    EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out
                             + "/run --lr=0.1 --out=" + out + "/lr",
                         output),
              2)
        << output;
    EXPECT_NE(output.find("lr (recorded: '0.01', asked: '0.1') changes what is learned"),
              std::string::npos)
        << output;
    EXPECT_FALSE(fs::exists(out + "/lr/rounds.csv"));

    // A run whose learning depended on its network recorded none, and says why.
    ASSERT_EQ(RunCommand(base
                             + " --rounds.mode=async --eval.interval=1s --rounds.duration=5s "
                               "--out="
                             + out + "/async",
                         output),
              0)
        << output;
    EXPECT_NE(output.find("cannot be replayed over another network: rounds.mode = async"),
              std::string::npos)
        << output;
    EXPECT_FALSE(fs::exists(out + "/async/learning.rec"));
    EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out
                             + "/async --link.latency=80ms",
                         output),
              2)
        << output;
    EXPECT_NE(output.find("rounds.mode = async: what a learner aggregates depends on when "
                          "messages arrive"),
              std::string::npos)
        << output;

    // A damaged recording is named.
    std::ofstream(out + "/run/learning.rec", std::ios::trunc) << "DLSIMREC but not one";
    EXPECT_EQ(
        RunCommand(std::string(DLSIM_RUN_BINARY) + " --replay " + out + "/run --link.latency=40ms",
                   output),
        2)
        << output;
    EXPECT_NE(output.find(out + "/run/learning.rec"), std::string::npos) << output;
    fs::remove_all(out);
}

/// A grid whose axes are network keys but whose learning depends on the network says so once.
TEST(Replay, AGridThatCannotReplaySaysWhy)
{
    const std::string out = FreshTempFolder("replay-async");
    std::string output;
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY)
                             + " --dataset=synthetic --synthetic.train_samples=300 "
                               "--model=logistic --nodes=4 --degree=2 --rounds=3 --no-plot "
                               "--rounds.mode=deadline --rounds.timeout=1s "
                               "--link.bandwidth='10Mbps, 2Mbps' -j 2 --out="
                             + out,
                         output),
              0)
        << output;
    EXPECT_NE(output.find("every run trains (no replay): rounds.mode = deadline"),
              std::string::npos)
        << output;
    fs::remove_all(out);
}

/// The last round a run's rounds.csv holds.
int
LastRound(const std::string& folder)
{
    std::istringstream lines(ReadWholeFile(folder + "/rounds.csv"));
    int last = 0;
    for (std::string line; std::getline(lines, line);)
    {
        const size_t comma = line.find(',');
        if (comma != std::string::npos && std::isdigit(static_cast<unsigned char>(line[comma + 1])))
        {
            last = std::max(last, std::stoi(line.substr(comma + 1)));
        }
    }
    return last;
}

/**
 * One simulated-time budget (rounds.duration) for every point of a sweep, with replay: a slower
 * network replays a prefix of a faster one's recording; a faster network than the recording's
 * trains ("[again]"). Either way each point equals its own full run, byte for byte, and the
 * budget, not the rounds, ends it.
 */
TEST(Replay, OneTimeBudgetForEveryPointReplaysAndEqualsFullRuns)
{
    const std::string out = FreshTempFolder("replay-budget");
    const std::string run = std::string(DLSIM_RUN_BINARY)
                            + " --dataset=synthetic --synthetic.train_samples=300 "
                              "--model=logistic --nodes=4 --degree=2 --rounds=60 --eval.every=2 "
                              "--rounds.duration=1s --no-plot -j 2";
    std::string output;
    for (const char* rate : {"20Mbps", "3Mbps"})
    {
        ASSERT_EQ(RunCommand(run + " --link.bandwidth=" + rate + " --out=" + out + "/full-" + rate,
                             output),
                  0)
            << output;
        // Rounds stop at the budget (on an evaluated round), far below the cap of 60.
        EXPECT_LT(LastRound(out + "/full-" + rate), 50) << rate;
        EXPECT_EQ(LastRound(out + "/full-" + rate) % 2, 0) << rate;
    }
    EXPECT_GT(LastRound(out + "/full-20Mbps"), LastRound(out + "/full-3Mbps"));
    // Fast first: the slow point replays a prefix of the fast one's recording.
    ASSERT_EQ(RunCommand(run + " --link.bandwidth='20Mbps, 3Mbps' --out=" + out + "/a", output), 0)
        << output;
    EXPECT_NE(output.find("replays " + out + "/a/link.bandwidth=20Mbps"), std::string::npos)
        << output;
    ExpectSameResults(out + "/a/link.bandwidth=3Mbps", out + "/full-3Mbps");
    // Slow first: the fast point's network runs past the recording within the budget; it trains.
    ASSERT_EQ(RunCommand(run + " --link.bandwidth='3Mbps, 20Mbps' --out=" + out + "/b", output), 0)
        << output;
    EXPECT_NE(output.find("[again] link.bandwidth=20Mbps"), std::string::npos) << output;
    for (const char* file : {"rounds.csv", "eval.csv", "curve.csv"})
    {
        EXPECT_EQ(ReadWholeFile(out + "/b/link.bandwidth=20Mbps/" + file),
                  ReadWholeFile(out + "/full-20Mbps/" + file))
            << file;
    }
    fs::remove_all(out);
}

/// rounds.until_target ends a run once the target has held at that many evaluations in a row,
/// at a round the learners agree on, the same whatever the worker threads; a grid of such runs
/// still replays, each point byte-identical to its full run.
TEST(Replay, UntilTargetEndsOnceHeldAndReplays)
{
    const std::string out = FreshTempFolder("replay-until-target");
    const std::string run = std::string(DLSIM_RUN_BINARY)
                            + " --dataset=synthetic --synthetic.train_samples=300 "
                              "--model=logistic --nodes=4 --degree=2 --rounds=60 --eval.every=2 "
                              "--target_accuracy=0.8 --rounds.until_target=2 --no-plot";
    std::string output;
    for (const char* threads : {"1", "2"})
    {
        ASSERT_EQ(RunCommand(run + " --link.bandwidth=3Mbps --run.threads=" + threads
                                 + " --out=" + out + "/full-" + threads,
                             output),
                  0)
            << output;
    }
    EXPECT_NE(output.find("at 2 evaluations in a row (rounds.until_target)"), std::string::npos)
        << output;
    for (const char* file : {"rounds.csv", "eval.csv", "curve.csv", "receipt.csv"})
    {
        EXPECT_EQ(ReadWholeFile(out + "/full-1/" + file), ReadWholeFile(out + "/full-2/" + file))
            << file << " depends on the threads";
    }
    const int last = LastRound(out + "/full-1");
    EXPECT_LT(last, 30);
    EXPECT_EQ(last % 2, 0);
    // The curve's last evaluations are at the target, the one before the two that held it not.
    std::istringstream lines(ReadWholeFile(out + "/full-1/curve.csv"));
    std::vector<double> accuracy;
    for (std::string line; std::getline(lines, line);)
    {
        if (std::isdigit(static_cast<unsigned char>(line[0])))
        {
            accuracy.push_back(ParseCurveLine(line).accuracyMean);
        }
    }
    ASSERT_GE(accuracy.size(), 3u);
    EXPECT_GE(accuracy.back(), 0.8);
    size_t held = 0;
    while (held < accuracy.size() && accuracy[accuracy.size() - 1 - held] >= 0.8)
    {
        ++held;
    }
    EXPECT_GE(held, 2u);
    EXPECT_LE(held, 3u) << "it ends at the next evaluated round after the target held twice";
    ASSERT_EQ(
        RunCommand(run + " --link.bandwidth='20Mbps, 3Mbps' -j 2 --out=" + out + "/grid", output),
        0)
        << output;
    EXPECT_NE(output.find("replays " + out + "/grid/link.bandwidth=20Mbps"), std::string::npos)
        << output;
    ExpectSameResults(out + "/grid/link.bandwidth=3Mbps", out + "/full-1");
    fs::remove_all(out);
}

/// A point that did not reach the target says what ended it: the budget, or the rounds.
TEST(GridTable, NotReachedSaysWhetherTheBudgetOrTheRoundsEndedTheRun)
{
    auto table = [](const std::string& duration, const std::string& simulated)
    {
        RunPoint point;
        point.values = {{"algorithm", "choco"}};
        RunRecord run;
        run.config = {{"rounds", "120"}, {"rounds.duration", duration}};
        run.summary = {{"final_accuracy_mean", "0.4"},
                       {"time_to_target_s", ""},
                       {"bytes_per_node_to_target", ""},
                       {"simulated_time_s", simulated}};
        point.runs.push_back(run);
        return GridTable({point}, "0.55");
    };
    EXPECT_NE(table("1500s", "1502.3").find("not reached within 1500 s"), std::string::npos)
        << table("1500s", "1502.3");
    EXPECT_NE(table("1500s", "199")
                  .find("not reached in 120 rounds (the cap, before the 1500 s "
                        "budget)"),
              std::string::npos)
        << table("1500s", "199");
    EXPECT_NE(table("none", "199").find("not reached in 120 rounds"), std::string::npos)
        << table("none", "199");
}

/// Where the paired test over seeds and the points' own intervals (the figures' bands)
/// disagree, the table says so: times of 10, 20 and 30 s against 11, 21.1 and 30.9 s overlap
/// widely, yet every seed is 0.9-1.1 s apart (t = 17.3, p = 0.0033: R's t.test, paired).
TEST(GridTable, SaysWhereThePairedTestAndTheBandsDisagree)
{
    auto point = [](const std::string& algorithm, const std::vector<std::string>& times)
    {
        RunPoint p;
        p.values = {{"algorithm", algorithm}};
        for (size_t i = 0; i < times.size(); ++i)
        {
            RunRecord run;
            for (const auto& key : ScenarioKeys())
            {
                run.config[key.name] = key.defaultValue; // as a run's config.ini gives them all
            }
            run.config["algorithm"] = algorithm;
            run.config["seed"] = std::to_string(i + 1);
            run.summary = {{"final_accuracy_mean", "0.8"},
                           {"time_to_target_s", times[i]},
                           {"bytes_per_node_to_target", "1000000"},
                           {"simulated_time_s", "40"}};
            p.runs.push_back(run);
        }
        return p;
    };
    const std::vector<RunPoint> points
        = {point("choco", {"11", "21.1", "30.9"}), point("dpsgd", {"10", "20", "30"})};
    const std::string table = GridTable(points, "0.7");
    EXPECT_NE(table.find("the paired t-test (over seeds"), std::string::npos) << table;
    EXPECT_NE(table.find("gamma auto) against D-PSGD, time_to_target_s: paired over 3 seeds, p = "
                         "0.0033, a difference, though the two 95% intervals overlap"),
              std::string::npos)
        << table;
    // Equal accuracies and bytes: no difference, and overlapping intervals agree with that.
    EXPECT_EQ(table.find("final_accuracy_mean: paired"), std::string::npos) << table;
    const std::string csv = ComparisonsCsv(points, {"algorithm", "seed"});
    EXPECT_NE(csv.find(",time_to_target_s,3,3,1,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",yes,yes,1 2 3\n"), std::string::npos) << csv;
}

} // namespace
} // namespace ns3
