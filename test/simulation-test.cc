// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: whole simulations on small generated data: consensus, timing, learning,
 * reproducibility, and the command line's errors.
 */
#include "direct-underlay-helper.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "mixing-weights.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "run-command.h"
#include "run-folder-writer.h"
#include "scenario-runner.h"
#include "synthetic-dataset.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <sstream>
#include <thread>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

std::string
TempDir(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path()
               / ("dlsim-sim-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(dir);
    return dir.string();
}

double
MaxDistanceToMean(const std::vector<std::vector<double>>& x)
{
    size_t n = x.size();
    size_t d = x[0].size();
    std::vector<double> mean(d, 0.0);
    for (const auto& xi : x)
    {
        for (size_t k = 0; k < d; ++k)
        {
            mean[k] += xi[k] / n;
        }
    }
    double worst = 0.0;
    for (const auto& xi : x)
    {
        double s = 0.0;
        for (size_t k = 0; k < d; ++k)
        {
            s += (xi[k] - mean[k]) * (xi[k] - mean[k]);
        }
        worst = std::max(worst, std::sqrt(s));
    }
    return worst;
}

// (a) With lr = 0 and different initial models, full sharing is plain gossip averaging: after
// R rounds the models are exactly W^R X0 for the Metropolis-Hastings matrix W of the overlay.
TEST(Simulation, FullSharingDrivesModelsToTheirAverageAsTheMixingMatrixPredicts)
{
    const uint32_t n = 8;
    const uint32_t rounds = 6;
    RngSeedManager::SetSeed(3);
    UseSingleThreadedTorch();
    SyntheticSpec spec;
    spec.trainSamples = 400;
    spec.testSamples = 50;
    DatasetSplit data = MakeSyntheticDataset(spec);

    NodeContainer nodes;
    nodes.Create(n);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    OverlayGraph graph = MakeRandomRegularGraph(n, 3, rng);
    DirectUnderlayHelper direct(graph);
    direct.SetLinkModel(LinkModel("100Mbps", "1ms"));
    Underlay underlay = direct.Install(nodes);

    TrainingConfig training;
    training.model = "logistic";
    training.lr = 0.0;
    LearnerHelper learners;
    learners.SetData(data, PartitionIid(*data.train, n, 1));
    learners.SetTraining(training);
    learners.SetSharing(SharingConfig{"dpsgd"});
    learners.SetOverlay(graph);
    learners.SetSameInitialModel(false);
    learners.SetComputeTimeModel(ComputeTimeModel("fixed", "1", 0.01, 1.0));
    learners.SetAttribute("Rounds", UintegerValue(rounds));
    learners.SetAttribute("Evaluate", BooleanValue(false));
    ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
    apps.Start(Seconds(0));

    std::vector<std::vector<double>> x(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto p = DynamicCast<LearnerApplication>(apps.Get(i))->GetLearner().GetParameters();
        x[i].assign(p.begin(), p.end());
    }
    ASSERT_NE(x[0], x[1]) << "the learners must start from different models";
    const double initialSpread = MaxDistanceToMean(x);

    // Predict: X_R = W^R X_0.
    std::vector<std::vector<double>> predicted = x;
    for (uint32_t r = 0; r < rounds; ++r)
    {
        std::vector<std::vector<double>> next(n, std::vector<double>(x[0].size(), 0.0));
        for (uint32_t i = 0; i < n; ++i)
        {
            double self = 1.0;
            for (uint32_t j : graph.GetOutNeighbours(i))
            {
                double w = MetropolisHastingsWeight(graph.GetOutNeighbours(i).size(),
                                                    graph.GetOutNeighbours(j).size());
                self -= w;
                for (size_t k = 0; k < x[0].size(); ++k)
                {
                    next[i][k] += w * predicted[j][k];
                }
            }
            for (size_t k = 0; k < x[0].size(); ++k)
            {
                next[i][k] += self * predicted[i][k];
            }
        }
        predicted = next;
    }

    Simulator::Run();
    std::vector<std::vector<double>> final(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto app = DynamicCast<LearnerApplication>(apps.Get(i));
        EXPECT_EQ(app->GetCompletedRounds(), rounds);
        auto p = app->GetLearner().GetParameters();
        final[i].assign(p.begin(), p.end());
        for (size_t k = 0; k < p.size(); ++k)
        {
            ASSERT_NEAR(final[i][k], predicted[i][k], 1e-5) << "node " << i << " parameter " << k;
        }
    }
    Simulator::Destroy();

    const double predictedRatio = MaxDistanceToMean(predicted) / initialSpread;
    const double measuredRatio = MaxDistanceToMean(final) / initialSpread;
    EXPECT_LT(predictedRatio, 0.5);
    EXPECT_NEAR(measuredRatio, predictedRatio, 1e-4 * predictedRatio + 1e-6);
    // The average is preserved (W is doubly stochastic).
    for (size_t k = 0; k < x[0].size(); k += 97)
    {
        double before = 0;
        double after = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            before += x[i][k] / n;
            after += final[i][k] / n;
        }
        EXPECT_NEAR(after, before, 1e-5);
    }
}

/// Run a small scenario in this process and return its run directory.
std::string
RunSmallScenario(const std::string& name,
                 std::vector<std::string> overrides,
                 RunSummary* summary = nullptr)
{
    std::string out = TempDir(name);
    overrides.push_back("--out=" + out);
    std::ostringstream log;
    RunSummary s = RunScenario(ScenarioConfig::Load("", overrides), log);
    if (summary)
    {
        *summary = s;
    }
    return out;
}

/// Duration of node 0's last round from rounds.csv.
double
LastRoundDuration(const std::string& dir)
{
    std::vector<double> ends;
    for (const auto& row : ReadCsv(dir + "/rounds.csv"))
    {
        if (row[0] == "0")
        {
            ends.push_back(std::stod(row[2]));
        }
    }
    return ends.at(ends.size() - 1) - ends.at(ends.size() - 2);
}

/// An own program's set-up: 4 learners on a ring of 100 Mbit/s links, logistic regression on
/// generated data, D-PSGD, 0.1 s of compute per round.
struct SmallRing
{
    static constexpr uint32_t kLearners = 4; ///< learners
    DatasetSplit data;                       ///< generated
    NodeContainer nodes;                     ///< their hosts
    Underlay underlay;                       ///< direct links
    LearnerHelper learners;                  ///< set up, not installed

    SmallRing()
    {
        RngSeedManager::SetSeed(3);
        UseSingleThreadedTorch();
        SyntheticSpec spec;
        spec.trainSamples = 200;
        spec.testSamples = 20;
        data = MakeSyntheticDataset(spec);
        nodes.Create(kLearners);
        OverlayGraph graph = MakeRingGraph(kLearners);
        DirectUnderlayHelper direct(graph);
        direct.SetLinkModel(LinkModel("100Mbps", "1ms"));
        underlay = direct.Install(nodes);
        TrainingConfig training;
        training.model = "logistic";
        learners.SetData(data, PartitionIid(*data.train, kLearners, 1));
        learners.SetTraining(training);
        learners.SetSharing(SharingConfig{"dpsgd"});
        learners.SetOverlay(graph);
        learners.SetComputeTimeModel(ComputeTimeModel("fixed", "1", 0.1, 1.0));
    }
};

// An own program that sets EvalInterval gets timed evaluations from LearnerHelper's clock, with
// no runner: every learner at every multiple of the interval, ticks reported in order, and the
// simulation ends by itself after the tick that follows the last round (no Simulator::Stop).
TEST(Simulation, AnOwnProgramsEvalIntervalIsKeptByTheHelpersClock)
{
    const uint32_t n = SmallRing::kLearners;
    SmallRing ring;
    LearnerHelper& learners = ring.learners;
    NodeContainer& nodes = ring.nodes;
    Underlay& underlay = ring.underlay;
    learners.SetAttribute("Rounds", UintegerValue(5));
    learners.SetAttribute("EvalInterval", TimeValue(MilliSeconds(200)));
    ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
    apps.Start(Seconds(0));
    Ptr<EvaluationClock> clock = learners.GetEvaluationClock();
    ASSERT_TRUE(clock);

    static std::vector<std::pair<uint32_t, double>> evaluations; // (tick, simulated seconds)
    static std::vector<uint32_t> ticks;
    static double lastRoundEnd;
    evaluations.clear();
    ticks.clear();
    lastRoundEnd = 0.0;
    for (uint32_t i = 0; i < n; ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext("Evaluated", MakeCallback(+[](const EvalReport& r) {
                                                    evaluations.emplace_back(r.round,
                                                                             r.time.GetSeconds());
                                                }));
        apps.Get(i)->TraceConnectWithoutContext(
            "RoundCompleted", MakeCallback(+[](const RoundReport& r) {
                lastRoundEnd = std::max(lastRoundEnd, r.time.GetSeconds());
            }));
    }
    clock->TraceConnectWithoutContext(
        "Tick", MakeCallback(+[](uint32_t index) { ticks.push_back(index); }));
    Simulator::Run();
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_TRUE(DynamicCast<LearnerApplication>(apps.Get(i))->IsFinished()) << i;
    }
    Simulator::Destroy();

    // Ticks at 0, 0.2, 0.4, ... up to the first one after the last round.
    ASSERT_GT(lastRoundEnd, 0.2);
    const auto expectedTicks = static_cast<uint32_t>(std::ceil(lastRoundEnd / 0.2)) + 1;
    std::cout << "last round ended at " << lastRoundEnd << " s; " << ticks.size() << " ticks"
              << std::endl;
    ASSERT_EQ(ticks.size(), expectedTicks);
    for (uint32_t k = 0; k < ticks.size(); ++k)
    {
        EXPECT_EQ(ticks[k], k);
    }
    ASSERT_EQ(evaluations.size(), expectedTicks * n);
    for (size_t k = 0; k < evaluations.size(); ++k)
    {
        EXPECT_EQ(evaluations[k].first, k / n);
        EXPECT_DOUBLE_EQ(evaluations[k].second, 0.2 * (k / n));
    }
}

// Simulator::Run of an own program returns when the learners are done, though FlowMonitor keeps
// scheduling its checks for ever (LearnerHelper::SetStopWhenDone, on by default); with it off,
// only the program's own stop ends the run.
TEST(Simulation, AnOwnProgramsRunReturnsWhenTheLearnersAreDone)
{
    for (bool stopWhenDone : {true, false})
    {
        const uint32_t n = SmallRing::kLearners;
        SmallRing ring;
        LearnerHelper& learners = ring.learners;
        NodeContainer& nodes = ring.nodes;
        Underlay& underlay = ring.underlay;
        learners.SetAttribute("Rounds", UintegerValue(3));
        learners.SetStopWhenDone(stopWhenDone);
        ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
        apps.Start(Seconds(0));
        FlowMonitorHelper flows;
        flows.InstallAll();
        const Time guard = Seconds(300);
        Simulator::Stop(guard);
        Simulator::Run();
        const Time end = Simulator::Now();
        for (uint32_t i = 0; i < n; ++i)
        {
            EXPECT_TRUE(DynamicCast<LearnerApplication>(apps.Get(i))->IsFinished()) << i;
        }
        Simulator::Destroy();
        std::cout << "stop when done " << stopWhenDone << ": Simulator::Run returned at "
                  << end.GetSeconds() << " s" << std::endl;
        if (stopWhenDone)
        {
            EXPECT_LT(end, Seconds(5));
        }
        else
        {
            EXPECT_EQ(end, guard);
        }
    }
}

// One default whichever way dlsim is driven: a program's CHOCO-SGD without a step size gets
// what the scenario key's default (`auto`) gives a run of the runner on the same ring and seed.
TEST(Simulation, AProgramsChocoStepSizeDefaultIsTheScenariosAuto)
{
    SmallRing ring;
    SharingConfig choco;
    choco.algorithm = "choco";
    ring.learners.SetSharing(choco);
    ring.learners.SetSeed(7);
    ring.learners.SetAttribute("Rounds", UintegerValue(1));
    ring.learners.Install(ring.nodes, ring.underlay.addresses);
    Simulator::Destroy();
    const auto& resolved = ring.learners.GetResolved();
    ASSERT_EQ(resolved.count("choco.gamma"), 1u);

    RunSummary summary;
    const std::string dir = RunSmallScenario("choco-auto",
                                             {"--nodes=4",
                                              "--topology=ring",
                                              "--seed=7",
                                              "--algorithm=choco",
                                              "--dataset=synthetic",
                                              "--synthetic.train_samples=200",
                                              "--synthetic.test_samples=20",
                                              "--model=logistic",
                                              "--rounds=1"},
                                             &summary);
    ASSERT_EQ(summary.resolved.count("choco.gamma"), 1u);
    EXPECT_EQ(resolved.at("choco.gamma"), summary.resolved.at("choco.gamma"));
    std::cout << "CHOCO-SGD's default step size on a ring of 4, seed 7: program "
              << resolved.at("choco.gamma") << ", scenario " << summary.resolved.at("choco.gamma")
              << std::endl;
    std::filesystem::remove_all(dir);
}

/// Every link of the ring drops every packet until `until`, as a network not yet up at the start.
void
DropEverythingUntil(const NodeContainer& nodes, Time until)
{
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        for (uint32_t d = 0; d < nodes.Get(i)->GetNDevices(); ++d)
        {
            auto device = DynamicCast<PointToPointNetDevice>(nodes.Get(i)->GetDevice(d));
            if (!device)
            {
                continue;
            }
            auto drop = CreateObject<RateErrorModel>();
            drop->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            drop->SetRate(1.0);
            device->SetReceiveErrorModel(drop);
            Simulator::Schedule(until, [drop]() { drop->Disable(); });
        }
    }
}

// A first connection that cannot be set up is tried again (ConnectAttempts, ReconnectInterval
// apart) before a synchronous run fails; and an own program's run folder (RunFolderWriter) of a
// run that failed has no summary: Finish returns 1 and says why. The network drops everything
// for the first 2.5 s and a connection request fails after one SYN (ConnCount 1) and the Linux
// TCP's initial retransmission timeout of 1 s: attempts at 0 s and 2 s fail (at 1 s and 3 s),
// the one at 4 s succeeds. With 4 attempts (the default) the run completes; with 2 it fails at
// 3 s, naming the connection.
TEST(Simulation, AFirstConnectionIsTriedAgainBeforeASynchronousRunFails)
{
    for (uint32_t attempts : {4u, 2u})
    {
        Config::SetDefault("ns3::TcpSocket::ConnCount", UintegerValue(1));
        const uint32_t n = SmallRing::kLearners;
        SmallRing ring;
        ring.learners.SetAttribute("Rounds", UintegerValue(3));
        ring.learners.SetAttribute("ConnectAttempts", UintegerValue(attempts));
        DropEverythingUntil(ring.nodes, Seconds(2.5));
        ApplicationContainer apps = ring.learners.Install(ring.nodes, ring.underlay.addresses);
        apps.Start(Seconds(0));
        const std::string out = TempDir("connect-" + std::to_string(attempts));
        RunFolderWriter folder(
            out,
            ScenarioConfig::Load("", {"--nodes=4", "--network=own", "--own.description=a ring"}));
        folder.CountWireBytes(ring.nodes);
        std::ostringstream log;
        ResultsWriter writer(out, n, 0.5, log);
        writer.Attach(apps);
        Simulator::Stop(Seconds(300));
        Simulator::Run();
        std::ostringstream errors;
        const int status = folder.Finish(writer, 3, errors);
        Simulator::Destroy();
        Config::Reset();
        if (attempts == 4)
        {
            EXPECT_EQ(status, 0) << errors.str();
            EXPECT_TRUE(std::filesystem::exists(out + "/summary.json"));
            EXPECT_TRUE(std::filesystem::exists(out + "/rounds.csv"));
            std::ifstream json(out + "/summary.json");
            const std::string summary((std::istreambuf_iterator<char>(json)),
                                      std::istreambuf_iterator<char>());
            EXPECT_EQ(summary.find("\"wire_bytes_per_node\": 0,"), std::string::npos) << summary;
        }
        else
        {
            EXPECT_EQ(status, 1);
            EXPECT_NE(errors.str().find("could not connect to learner"), std::string::npos)
                << errors.str();
            EXPECT_NE(errors.str().find("after 2 attempts"), std::string::npos) << errors.str();
            EXPECT_NE(errors.str().find("run stopped at 3 s"), std::string::npos) << errors.str();
            EXPECT_FALSE(std::filesystem::exists(out + "/summary.json"));
            EXPECT_FALSE(std::filesystem::exists(out + "/summary.csv"));
            EXPECT_TRUE(std::filesystem::exists(out + "/rounds.csv.partial"));
        }
        std::filesystem::remove_all(out);
    }
}

// (b) Two nodes, one link: a round takes compute + message bytes on the wire / bandwidth +
// latency. The wire bytes add 54 bytes per 1448-byte segment (IPv4 20, TCP 20, timestamps 12,
// PPP 2). The only overhead not accounted for is the peer's ACKs, which share the link with the
// peer's own message: at most one 54-byte ACK per data segment.
TEST(Simulation, RoundTimeMatchesComputePlusTransferPlusLatency)
{
    std::vector<std::string> base = {"--nodes=2",
                                     "--topology=complete",
                                     "--dataset=synthetic",
                                     "--synthetic.train_samples=200",
                                     "--synthetic.test_samples=20",
                                     "--model=logistic",
                                     "--partition=iid",
                                     "--compute.model=fixed",
                                     "--compute.step_seconds=0.1",
                                     "--local_steps=1",
                                     "--rounds=4",
                                     "--eval.every=1000",
                                     "--link.latency=5ms"};
    auto fast = base;
    fast.push_back("--link.bandwidth=10Mbps");
    auto slow = base;
    slow.push_back("--link.bandwidth=5Mbps");
    std::string fastDir = RunSmallScenario("timing-fast", fast);
    std::string slowDir = RunSmallScenario("timing-slow", slow);

    const double params = 784 * 10 + 10;
    const double messageBytes = 28 + 5 + 4 * params; // header, payload form + length, values
    const double segments = std::ceil(messageBytes / 1448);
    const double wireBytes = messageBytes + segments * 54;
    const double ackBytes = segments * 54;
    for (auto [dir, bps] : {std::make_pair(fastDir, 10e6), std::make_pair(slowDir, 5e6)})
    {
        double expected = 0.1 + wireBytes * 8 / bps + 0.005;
        double measured = LastRoundDuration(dir);
        std::cout << "round time at " << bps / 1e6 << " Mbit/s: measured " << measured
                  << " s, expected " << expected << " s (+ at most " << ackBytes * 8 / bps
                  << " s of ACKs)" << std::endl;
        EXPECT_GE(measured, expected - 1e-6) << dir;
        EXPECT_LE(measured, expected + ackBytes * 8 / bps) << dir;
        // Exact byte accounting: one message per round to the one neighbour.
        auto row = ReadCsv(dir + "/rounds.csv").back();
        EXPECT_EQ(row[5], std::to_string(int(4 * params)));
        EXPECT_EQ(row[6], "33");
    }
    double growth = LastRoundDuration(slowDir) - LastRoundDuration(fastDir);
    double expectedGrowth = wireBytes * 8 / 5e6 - wireBytes * 8 / 10e6;
    std::cout << "halving the bandwidth added " << growth << " s, expected " << expectedGrowth
              << " s" << std::endl;
    EXPECT_NEAR(growth, expectedGrowth, ackBytes * 8 / 5e6);
    std::filesystem::remove_all(fastDir);
    std::filesystem::remove_all(slowDir);
}

// Messages much larger than the TCP buffers go out in many pieces and arrive in arbitrary
// fragments; the models, and so the accuracies, must not depend on that.
TEST(Simulation, SmallTcpBuffersChangeTimingButNotTheModels)
{
    std::vector<std::string> base = {"--nodes=4",
                                     "--topology=ring",
                                     "--dataset=synthetic",
                                     "--synthetic.train_samples=400",
                                     "--model=logistic",
                                     "--rounds=3",
                                     "--eval.every=1"};
    auto small = base;
    small.push_back("--tcp.buffer=3000");
    small.push_back("--tcp.segment_size=536");
    std::string normalDir = RunSmallScenario("buffers-normal", base);
    std::string smallDir = RunSmallScenario("buffers-small", small);
    // Rows come in event order, which timing changes: compare by (round, node).
    auto byRoundAndNode = [](std::vector<std::vector<std::string>> rows)
    {
        std::sort(rows.begin(),
                  rows.end(),
                  [](const auto& a, const auto& b)
                  {
                      return std::make_pair(std::stoi(a[0]), std::stoi(a[2]))
                             < std::make_pair(std::stoi(b[0]), std::stoi(b[2]));
                  });
        return rows;
    };
    auto normal = byRoundAndNode(ReadCsv(normalDir + "/eval.csv"));
    auto tiny = byRoundAndNode(ReadCsv(smallDir + "/eval.csv"));
    ASSERT_EQ(normal.size(), tiny.size());
    for (size_t i = 0; i < normal.size(); ++i)
    {
        EXPECT_EQ(normal[i][3], tiny[i][3]) << "accuracy, row " << i;
        EXPECT_EQ(normal[i][4], tiny[i][4]) << "loss, row " << i;
    }
    EXPECT_GT(LastRoundDuration(smallDir), LastRoundDuration(normalDir));
    std::filesystem::remove_all(normalDir);
    std::filesystem::remove_all(smallDir);
}

// (c) Learning works end to end: accuracy rises far above chance (10%).
TEST(Simulation, AccuracyRisesFarAboveChance)
{
    RunSummary summary;
    std::string dir = RunSmallScenario("learning",
                                       {"--nodes=8",
                                        "--degree=3",
                                        "--dataset=synthetic",
                                        "--synthetic.train_samples=2000",
                                        "--synthetic.test_samples=500",
                                        "--synthetic.noise=2.0",
                                        "--model=mlp",
                                        "--lr=0.05",
                                        "--batch_size=16",
                                        "--rounds=30",
                                        "--eval.every=10",
                                        "--target_accuracy=0.6"},
                                       &summary);
    EXPECT_GT(summary.finalAccuracyMean.value_or(-1.0), 0.8);
    EXPECT_GT(summary.finalAccuracyMin.value_or(-1.0), 0.6);
    ASSERT_TRUE(summary.timeToTarget.has_value());
    EXPECT_GT(*summary.timeToTarget, 0.0);
    EXPECT_LE(*summary.timeToTarget, summary.simulatedSeconds);
    // The host's CPU time in training: some, and no more than every core for the whole run.
    EXPECT_GT(summary.trainingCpuSeconds, 0.0);
    EXPECT_LE(summary.trainingCpuSeconds,
              summary.wallSeconds * std::max(1u, std::thread::hardware_concurrency()));
    // The sharing work runs in the simulator's one thread: some, and no more than the run took.
    EXPECT_GT(summary.sharingCpuSeconds, 0.0);
    EXPECT_LE(summary.sharingCpuSeconds, summary.wallSeconds);
    // Every evaluation of round 0 sees the same initial model: at chance level.
    auto evals = ReadCsv(dir + "/eval.csv");
    EXPECT_LT(std::stod(evals.at(0)[3]), 0.3);
    std::string json = ReadWholeFile(dir + "/summary.json");
    for (std::string key : {"\"final_accuracy\"",
                            "\"time_to_target_s\"",
                            "\"bytes_per_node\"",
                            "\"wall_time_s\"",
                            "\"training_cpu_s\"",
                            "\"sharing_cpu_s\"",
                            "\"seed\": 1"})
    {
        EXPECT_NE(json.find(key), std::string::npos) << key;
    }
    EXPECT_NE(ReadWholeFile(dir + "/config.ini").find("nodes = 8"), std::string::npos);
    EXPECT_EQ(ReadCsv(dir + "/partition.csv").size(), 8u);
    std::filesystem::remove_all(dir);
}

std::string
RunBinary(const std::string& args, int* status = nullptr)
{
    std::string output;
    int s = RunCommand(std::string(DLSIM_RUN_BINARY) + " " + args, output);
    if (status)
    {
        *status = s;
    }
    return output;
}

// (d) The same seed gives identical results, byte for byte, in separate processes.
TEST(Simulation, SameSeedGivesIdenticalResults)
{
    std::string common = "--nodes=6 --degree=2 --dataset=synthetic --synthetic.train_samples=600 "
                         "--model=mlp --rounds=5 --eval.every=2 "
                         "--link.bandwidth='ns3::UniformRandomVariable[Min=5|Max=20]' "
                         "--compute.device_gflops='ns3::UniformRandomVariable[Min=1|Max=4]'";
    std::string a = TempDir("seed-a");
    std::string b = TempDir("seed-b");
    std::string c = TempDir("seed-c");
    int status = -1;
    RunBinary(common + " --out=" + a, &status);
    ASSERT_EQ(status, 0);
    RunBinary(common + " --out=" + b, &status);
    ASSERT_EQ(status, 0);
    RunBinary(common + " --seed=2 --out=" + c, &status);
    ASSERT_EQ(status, 0);
    for (std::string file : {"/eval.csv", "/rounds.csv", "/links.csv", "/partition.csv"})
    {
        EXPECT_EQ(ReadWholeFile(a + file), ReadWholeFile(b + file)) << file;
        EXPECT_FALSE(ReadWholeFile(a + file).empty()) << file;
    }
    EXPECT_NE(ReadWholeFile(a + "/rounds.csv"), ReadWholeFile(c + "/rounds.csv"));
    EXPECT_NE(ReadWholeFile(a + "/links.csv"), ReadWholeFile(c + "/links.csv"));
    for (const auto& d : {a, b, c})
    {
        std::filesystem::remove_all(d);
    }
}

} // namespace
} // namespace ns3
