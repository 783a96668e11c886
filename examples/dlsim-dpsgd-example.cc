// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * D-PSGD on a random 4-regular overlay, written as an ns-3 program: nodes, point-to-point
 * links, the overlay topology helper and the learner helper, with CommandLine arguments.
 *
 *   build/dlsim-dpsgd-example --learners=8 --rounds=20 --dataRate=10Mbps --delay=5ms
 *   build/dlsim-dpsgd-example --dataset=fashion-mnist --model=gn-lenet --rounds=100
 */
#include "direct-underlay-helper.h"
#include "example-setup.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "partitioner.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DlsimDpsgdExample");

int
main(int argc, char* argv[])
{
    uint32_t learnerCount = 8;
    uint32_t degree = 4;
    uint32_t rounds = 20;
    uint32_t seed = 1;
    std::string dataRate = "10Mbps";
    std::string delay = "5ms";
    std::string dataset = "synthetic";
    std::string model = "logistic";
    double lr = 0.05;

    CommandLine cmd(__FILE__);
    cmd.AddValue("learners", "Number of learners (hosts)", learnerCount);
    cmd.AddValue("degree", "Degree of the random regular overlay", degree);
    cmd.AddValue("rounds", "Synchronous rounds", rounds);
    cmd.AddValue("seed", "Seed of everything random", seed);
    cmd.AddValue("dataRate", "Bandwidth of every link", dataRate);
    cmd.AddValue("delay", "One-way latency of every link", delay);
    cmd.AddValue("dataset", "synthetic or fashion-mnist", dataset);
    cmd.AddValue("model", "logistic, mlp or gn-lenet", model);
    cmd.AddValue("lr", "SGD learning rate", lr);
    cmd.Parse(argc, argv);

    RngSeedManager::SetSeed(seed);
    UseSingleThreadedTorch();

    // The data: generated clusters, or Fashion-MNIST from Debian's dataset-fashion-mnist.
    std::optional<DatasetSplit> loaded = LoadExampleData(dataset, seed);
    if (!loaded)
    {
        return 2;
    }
    DatasetSplit data = *loaded;
    Partition partition = PartitionShards(*data.train, learnerCount, 2, seed);

    // One ns-3 node per learner, one point-to-point link per overlay edge.
    NodeContainer nodes;
    nodes.Create(learnerCount);
    Ptr<UniformRandomVariable> topologyRng = CreateObject<UniformRandomVariable>();
    topologyRng->SetStream(0);
    OverlayGraph graph = MakeRandomRegularGraph(learnerCount, degree, topologyRng);
    DirectUnderlayHelper direct(graph);
    direct.SetDeviceAttribute("DataRate", StringValue(dataRate));
    direct.SetChannelAttribute("Delay", StringValue(delay));
    Underlay underlay = direct.Install(nodes);

    TrainingConfig training;
    training.model = model;
    training.lr = lr;
    SharingConfig sharing;
    sharing.algorithm = "dpsgd";

    LearnerHelper learners;
    learners.SetData(data, partition);
    learners.SetTraining(training);
    learners.SetSharing(sharing);
    learners.SetOverlay(graph);
    learners.SetSeed(seed);
    learners.AssignStreams(10);
    learners.SetAttribute("Rounds", UintegerValue(rounds));
    learners.SetAttribute("EvalEvery", UintegerValue(std::max(1u, rounds / 4)));
    ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
    apps.Start(Seconds(0));
    AccuracyLog accuracy;
    accuracy.Connect(apps);

    // The learners stop sending after their last round, so the simulation ends by itself.
    Simulator::Run();
    for (uint32_t round : accuracy.Rounds())
    {
        std::cout << "round " << round << ": mean test accuracy " << std::fixed
                  << std::setprecision(4) << accuracy.MeanAt(round) << std::endl;
    }
    uint32_t completed = DynamicCast<LearnerApplication>(apps.Get(0))->GetCompletedRounds();
    std::cout << "learner 0 completed " << completed << " rounds" << std::endl;
    Simulator::Destroy();
    return completed == rounds ? 0 : 1;
}
