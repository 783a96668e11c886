// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The ns-3 TestSuite "dlsim": whole simulations through the helper API, checked against
 * arithmetic. Run by `./test.py -s dlsim` in an ns-3 source tree (dlsim as contrib/dlsim) and
 * by the standalone build's ctest `ns3-suite.dlsim` (test/ns3/ns3-test-runner.cc).
 */
#include "compute-time-model.h"
#include "direct-underlay-helper.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "ns3/test.h"
#include "overlay-graph.h"
#include "partitioner.h"
#include "synthetic-dataset.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/// A set-up shared by the cases: `n` learners of logistic regression on generated data (784
/// features, 10 classes), D-PSGD, 0.1 s of compute per round, one link per overlay edge.
struct Learners
{
    NodeContainer nodes;    ///< one per learner
    Underlay underlay;      ///< the links
    LearnerHelper learners; ///< set up, not installed

    Learners(uint32_t n, const OverlayGraph& graph, const std::string& rate, double lr)
    {
        RngSeedManager::SetSeed(5);
        UseSingleThreadedTorch();
        SyntheticSpec spec;
        spec.trainSamples = 200;
        spec.testSamples = 20;
        DatasetSplit data = MakeSyntheticDataset(spec);
        nodes.Create(n);
        DirectUnderlayHelper direct(graph);
        direct.SetLinkModel(LinkModel(rate, "5ms"));
        underlay = direct.Install(nodes);
        TrainingConfig training;
        training.model = "logistic";
        training.lr = lr;
        training.localSteps = 1; // 0.1 s of compute per round: one step of 0.1 s
        learners.SetData(data, PartitionIid(*data.train, n, 1));
        learners.SetTraining(training);
        learners.SetSharing(SharingConfig{"dpsgd"});
        learners.SetOverlay(graph);
        learners.SetComputeTimeModel(ComputeTimeModel("fixed", "1", 0.1, 1.0));
        learners.SetAttribute("EvalEvery", UintegerValue(1000));
    }
};

/**
 * Two learners on one 10 Mbit/s, 5 ms link: a round lasts the compute time, plus the message's
 * bytes on the wire at the link's rate (54 bytes of PPP, IPv4 and TCP headers with timestamps
 * per 1448-byte segment), plus the latency. The peer's ACKs share the link with its own
 * message: at most one 54-byte ACK per data segment on top.
 */
class RoundTimeTestCase : public TestCase
{
  public:
    RoundTimeTestCase() : TestCase("a round lasts compute plus wire bytes at the rate plus latency")
    {}

  private:
    void DoRun() override
    {
        Learners setup(2, MakeCompleteGraph(2), "10Mbps", 0.05);
        setup.learners.SetAttribute("Rounds", UintegerValue(4));
        ApplicationContainer apps = setup.learners.Install(setup.nodes, setup.underlay.addresses);
        apps.Start(Seconds(0));
        apps.Get(0)->TraceConnectWithoutContext(
            "RoundCompleted", MakeCallback(&RoundTimeTestCase::RoundCompleted, this));
        Simulator::Run();
        Simulator::Destroy();

        const std::vector<RoundReport>& rounds = m_rounds;
        NS_TEST_ASSERT_MSG_EQ(rounds.size(), 4, "learner 0 completed 4 rounds");
        const RoundReport& last = rounds.back();
        const double message = static_cast<double>(last.valueBytes + last.metadataBytes);
        NS_TEST_ASSERT_MSG_EQ(last.valueBytes, 4 * (784 * 10 + 10), "the model's float32 values");
        const double segments = std::ceil(message / 1448);
        const double expected = 0.1 + (message + 54 * segments) * 8 / 10e6 + 0.005;
        const double acks = 54 * segments * 8 / 10e6;
        const double measured = (last.time - rounds[rounds.size() - 2].time).GetSeconds();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(measured, expected - 1e-6, "round shorter than its bytes");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(measured, expected + acks, "round longer than its bytes");
    }

    /// RoundCompleted of learner 0.
    void RoundCompleted(const RoundReport& report)
    {
        m_rounds.push_back(report);
    }

    std::vector<RoundReport> m_rounds; ///< learner 0's rounds
};

/**
 * D-PSGD without training (lr 0) on a ring of 4 with Metropolis-Hastings weights (1/3 each):
 * the mixing matrix is doubly stochastic with second eigenvalue 1/3, so after 20 rounds every
 * model is the initial average to within float precision (3^-20 of the initial spread).
 */
class ConsensusTestCase : public TestCase
{
  public:
    ConsensusTestCase() : TestCase("D-PSGD without training reaches the initial average") {}

  private:
    static std::vector<std::vector<float>> Models(const ApplicationContainer& apps)
    {
        std::vector<std::vector<float>> models;
        for (uint32_t i = 0; i < apps.GetN(); ++i)
        {
            models.push_back(
                DynamicCast<LearnerApplication>(apps.Get(i))->GetLearner().GetParameters());
        }
        return models;
    }

    void DoRun() override
    {
        Learners setup(4, MakeRingGraph(4), "100Mbps", 0.0);
        setup.learners.SetSameInitialModel(false);
        setup.learners.SetAttribute("Rounds", UintegerValue(20));
        ApplicationContainer apps = setup.learners.Install(setup.nodes, setup.underlay.addresses);
        apps.Start(Seconds(0));
        std::vector<std::vector<float>> initial;
        // During the first round's compute time, before anything was averaged.
        Simulator::Schedule(Seconds(0.05), [&]() { initial = Models(apps); });
        Simulator::Run();
        const std::vector<std::vector<float>> final = Models(apps);
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(initial.size(), 4, "initial models read");
        double initialSpread = 0;
        double finalSpread = 0;
        double drift = 0;
        for (size_t k = 0; k < initial[0].size(); ++k)
        {
            double mean0 = 0;
            double mean1 = 0;
            for (size_t i = 0; i < 4; ++i)
            {
                mean0 += initial[i][k] / 4.0;
                mean1 += final[i][k] / 4.0;
            }
            for (size_t i = 0; i < 4; ++i)
            {
                initialSpread = std::max(initialSpread, std::abs(initial[i][k] - mean0));
                finalSpread = std::max(finalSpread, std::abs(final[i][k] - mean0));
            }
            drift = std::max(drift, std::abs(mean1 - mean0));
        }
        NS_TEST_ASSERT_MSG_GT(initialSpread, 1e-3, "the learners start from different models");
        NS_TEST_ASSERT_MSG_LT(finalSpread, 1e-5, "every model is the initial average");
        NS_TEST_ASSERT_MSG_LT(drift, 1e-6, "the average is kept");
    }
};

/// The suite `./test.py -s dlsim` runs.
class DlsimTestSuite : public TestSuite
{
  public:
    DlsimTestSuite() : TestSuite("dlsim", UNIT)
    {
        AddTestCase(new RoundTimeTestCase, TestCase::QUICK);
        AddTestCase(new ConsensusTestCase, TestCase::QUICK);
    }
};

DlsimTestSuite g_dlsimTestSuite; ///< registers the suite

} // namespace
} // namespace ns3
