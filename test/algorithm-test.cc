// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: every sharing algorithm in whole simulations: consensus with lr = 0, equivalences
 * with D-PSGD, and JWINS's byte budget.
 */
#include "choco-tuning.h"
#include "consensus-measures.h"
#include "direct-underlay-helper.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "scenario-runner.h"
#include "synthetic-dataset.h"

#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

using Models = std::vector<std::vector<double>>;

struct Outcome
{
    Models initial;
    Models final;
};

/**
 * Run `rounds` rounds of an algorithm on n learners with logistic regression on generated
 * data; lr = 0 turns it into pure gossip. Different initial models unless sameInit.
 */
Outcome
Simulate(const SharingConfig& sharing,
         const OverlaySchedule& schedule,
         uint32_t rounds,
         double lr = 0.0,
         bool sameInit = false)
{
    const uint32_t n = schedule.GetNNodes();
    RngSeedManager::SetSeed(5);
    UseSingleThreadedTorch();
    SyntheticSpec spec;
    spec.trainSamples = 50 * n;
    spec.testSamples = 20;
    DatasetSplit data = MakeSyntheticDataset(spec);

    NodeContainer nodes;
    nodes.Create(n);
    DirectUnderlayHelper direct(schedule.Union());
    direct.SetLinkModel(LinkModel("100Mbps", "1ms"));
    Underlay underlay = direct.Install(nodes);

    TrainingConfig training;
    training.model = "logistic";
    training.lr = lr;
    LearnerHelper learners;
    learners.SetData(data, PartitionIid(*data.train, n, 1));
    learners.SetTraining(training);
    learners.SetSharing(sharing);
    learners.SetSchedule(schedule);
    learners.SetSameInitialModel(sameInit);
    learners.SetComputeTimeModel(ComputeTimeModel("fixed", "1", 0.01, 1.0));
    learners.SetAttribute("Rounds", UintegerValue(rounds));
    learners.SetAttribute("Evaluate", BooleanValue(false));
    ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
    apps.Start(Seconds(0));

    Outcome outcome;
    auto params = [&apps](uint32_t i)
    {
        auto p = DynamicCast<LearnerApplication>(apps.Get(i))->GetLearner().GetParameters();
        return std::vector<double>(p.begin(), p.end());
    };
    for (uint32_t i = 0; i < n; ++i)
    {
        outcome.initial.push_back(params(i));
    }
    Simulator::Run();
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_TRUE(DynamicCast<LearnerApplication>(apps.Get(i))->IsFinished()) << "node " << i;
        outcome.final.push_back(params(i));
    }
    Simulator::Destroy();
    return outcome;
}

/// How far the final models are from the initial average, relative to the initial spread.
double
DistanceToInitialAverage(const Outcome& o)
{
    std::vector<double> average = Mean(o.initial);
    return MaxDistance(o.final, average) / MaxDistance(o.initial, average);
}

OverlaySchedule
FixedGraph()
{
    RngSeedManager::SetSeed(5); // the graph must not depend on what ran before
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    return OverlaySchedule(MakeRandomRegularGraph(8, 3, rng));
}

SharingConfig
Algorithm(const std::string& name, double alpha = 0.1)
{
    SharingConfig s;
    s.algorithm = name;
    s.alpha = alpha;
    return s;
}

/**
 * The nodes agree (the largest distance from their mean, relative to the initial spread, is
 * below `spreadTolerance`) and agree on the initial average (the mean's distance from it,
 * relative to the initial spread, is below `averageTolerance`).
 */
void
ExpectConsensus(const std::string& what,
                const Outcome& o,
                double spreadTolerance,
                double averageTolerance)
{
    const Consensus c = MeasureConsensus(o.initial, o.final);
    const double spread = c.spread;
    const double drift = c.drift;
    std::cout << what << ": final spread " << spread << ", distance of the consensus from the "
              << "initial average " << drift << " (relative to the initial spread)" << std::endl;
    EXPECT_LT(spread, spreadTolerance) << what;
    EXPECT_LT(drift, averageTolerance) << what;
}

// The partial-model family's receiver rule (missing coefficients filled with the receiver's
// own) is not mass-preserving, so its consensus lands near, not exactly on, the average.
TEST(AlgorithmConsensus, DpsgdRandomSamplingTopkAndJwinsReachTheAverage)
{
    ExpectConsensus("dpsgd", Simulate(Algorithm("dpsgd"), FixedGraph(), 40), 1e-4, 1e-6);
    ExpectConsensus("random-sampling 0.37",
                    Simulate(Algorithm("random-sampling", 0.37), FixedGraph(), 100),
                    1e-3,
                    0.3);
    // Without training every score is zero: ties are broken per node and round, so every
    // coordinate gets shared sooner or later. (With accumulation, coordinates nobody has
    // changed keep score 0 and lose to any that moved: without training, top-k with
    // accumulation never reaches them. JWINS gets there through its full-share rounds.)
    ExpectConsensus("topk 0.1", Simulate(Algorithm("topk", 0.1), FixedGraph(), 200), 0.05, 0.3);
    ExpectConsensus("jwins", Simulate(Algorithm("jwins"), FixedGraph(), 100), 1e-3, 0.3);
}

TEST(AlgorithmConsensus, ChocoWithTunedStepSizeReachesTheAverage)
{
    ChocoTuningSpec spec;
    OverlaySchedule fixed = FixedGraph();
    const OverlayGraph& g = fixed.At(1);
    for (uint32_t i = 0; i < g.GetNNodes(); ++i)
    {
        spec.neighbours.push_back(g.GetOutNeighbours(i));
    }
    spec.alpha = 0.1;
    double gamma = TuneChocoGamma(spec).bestGamma;
    std::cout << "choco top-10%: tuned gamma " << gamma << std::endl;
    SharingConfig choco = Algorithm("choco", 0.1);
    choco.chocoGamma = gamma;
    ExpectConsensus("choco top-10%", Simulate(choco, FixedGraph(), 150), 1e-3, 1e-5);
}

/// A directed graph whose push-sum weights are column- but not row-stochastic.
OverlaySchedule
LopsidedDirectedGraph()
{
    OverlayGraph g(6, true);
    for (uint32_t i = 0; i < 6; ++i)
    {
        g.AddEdge(i, (i + 1) % 6);
    }
    g.AddEdge(0, 2);
    g.AddEdge(0, 3);
    g.AddEdge(3, 5);
    return OverlaySchedule(g);
}

// Push-sum keeps the sum of the models and of the weights, so the de-biased models z = x / u
// meet at the exact average even where the weights are not doubly stochastic.
TEST(AlgorithmConsensus, SparsePushAndScspReachTheAverageOfTheDebiasedModels)
{
    SharingConfig sp = Algorithm("sparse-push", 0.5);
    sp.pushEta = 0.1;
    // While the nodes still disagree, the plain mean of the z_i may differ from the average by
    // about the remaining spread; once they agree (SCSP below) it is the average.
    ExpectConsensus("sparse-push 50% directed ring",
                    Simulate(sp, OverlaySchedule(MakeDirectedRingGraph(8)), 400),
                    0.05,
                    0.01);
    ExpectConsensus("sparse-push 50% time-varying exponential",
                    Simulate(sp, MakeTimeVaryingExponentialSchedule(8, 1), 400),
                    0.05,
                    0.01);
    ExpectConsensus(
        "sparse-push 50% lopsided", Simulate(sp, LopsidedDirectedGraph(), 400), 0.05, 0.01);
    SharingConfig sp10 = Algorithm("sparse-push", 0.1);
    sp10.pushEta = 0.05;
    ExpectConsensus(
        "sparse-push 10% lopsided", Simulate(sp10, LopsidedDirectedGraph(), 600), 0.1, 0.01);
    SharingConfig scsp = sp10;
    scsp.algorithm = "scsp";
    scsp.scspGossipRounds = 60;
    ExpectConsensus("scsp 10% directed ring",
                    Simulate(scsp, OverlaySchedule(MakeDirectedRingGraph(8)), 100),
                    1e-2,
                    1e-5);
    ExpectConsensus("scsp 10% time-varying exponential",
                    Simulate(scsp, MakeTimeVaryingExponentialSchedule(8, 1), 100),
                    1e-5,
                    1e-5);
    ExpectConsensus("scsp 10% lopsided", Simulate(scsp, LopsidedDirectedGraph(), 100), 1e-2, 1e-5);
}

void
ExpectSameModels(const std::string& what, const Outcome& a, const Outcome& b, double tolerance)
{
    double worst = 0.0;
    for (size_t i = 0; i < a.final.size(); ++i)
    {
        for (size_t k = 0; k < a.final[i].size(); ++k)
        {
            worst = std::max(worst, std::fabs(a.final[i][k] - b.final[i][k]));
        }
    }
    std::cout << what << ": largest difference from D-PSGD " << worst << std::endl;
    EXPECT_LT(worst, tolerance) << what;
}

TEST(AlgorithmEquivalence, DegenerateSettingsGiveDpsgd)
{
    // With training (lr > 0) so that the models really move.
    Outcome dpsgd = Simulate(Algorithm("dpsgd"), FixedGraph(), 8, 0.05, true);
    SharingConfig jwins = Algorithm("jwins");
    jwins.jwinsAlphas = {1.0};
    ExpectSameModels(
        "jwins alphas [1.0]", dpsgd, Simulate(jwins, FixedGraph(), 8, 0.05, true), 1e-4);
    SharingConfig choco = Algorithm("choco", 1.0);
    choco.chocoGamma = 1.0;
    ExpectSameModels(
        "choco alpha 1 gamma 1", dpsgd, Simulate(choco, FixedGraph(), 8, 0.05, true), 1e-4);
    ExpectSameModels(
        "topk alpha 1", dpsgd, Simulate(Algorithm("topk", 1.0), FixedGraph(), 8, 0.05, true), 1e-4);
}

// JWINS's budget: with the default fraction list (expected fraction 0.343) a node sends
// 0.30-0.42 of full sharing's bytes on GN-LeNet, indices included.
TEST(AlgorithmBudget, JwinsSendsAThirdOfFullSharingOnGnLenet)
{
    auto run = [](const std::string& algorithm)
    {
        std::string out = (std::filesystem::temp_directory_path()
                           / ("dlsim-budget-" + algorithm + "-" + std::to_string(::getpid())))
                              .string();
        std::ostringstream log;
        RunSummary s = RunScenario(ScenarioConfig::Load("",
                                                        {"--nodes=8",
                                                         "--degree=4",
                                                         "--dataset=synthetic",
                                                         "--synthetic.train_samples=800",
                                                         "--synthetic.test_samples=50",
                                                         "--model=gn-lenet",
                                                         "--lr=0.05",
                                                         "--rounds=40",
                                                         "--eval.every=1000",
                                                         "--algorithm=" + algorithm,
                                                         "--out=" + out}),
                                   log);
        std::filesystem::remove_all(out);
        return s;
    };
    RunSummary full = run("dpsgd");
    RunSummary jwins = run("jwins");
    double fullBytes = full.valueBytesPerNode + full.metadataBytesPerNode;
    double jwinsBytes = jwins.valueBytesPerNode + jwins.metadataBytesPerNode;
    double ratio = jwinsBytes / fullBytes;
    double metadataShare = jwins.metadataBytesPerNode / jwinsBytes;
    std::cout << "JWINS / full sharing bytes per node: " << ratio << " (values "
              << jwins.valueBytesPerNode / full.valueBytesPerNode << "); metadata is "
              << metadataShare << " of JWINS's bytes" << std::endl;
    EXPECT_GE(ratio, 0.30);
    EXPECT_LE(ratio, 0.42);
    EXPECT_GT(metadataShare, 0.0);
    EXPECT_LT(metadataShare, 0.2);
}

} // namespace
} // namespace ns3
