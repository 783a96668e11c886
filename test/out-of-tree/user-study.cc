// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: a user's own program, compiled against the installed package: a few learners on
 * dedicated links, checked to finish their rounds.
 */
#include "dataset-catalog.h"
#include "direct-underlay-helper.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "partitioner.h"
#include "provenance.h"

#include <iostream>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

int
main()
{
    UseSingleThreadedTorch();
    DatasetChoice choice;
    choice.name = "synthetic";
    choice.synthetic.trainSamples = 400;
    DatasetSplit data = LoadDataset(choice);
    NodeContainer nodes;
    nodes.Create(4);
    OverlayGraph ring = MakeRingGraph(4);
    DirectUnderlayHelper direct(ring);
    direct.SetLinkModel(LinkModel("10Mbps", "5ms"));
    Underlay underlay = direct.Install(nodes);
    TrainingConfig training;
    training.model = "logistic";
    LearnerHelper learners;
    learners.SetData(data, PartitionIid(*data.train, 4, 1));
    learners.SetTraining(training);
    learners.SetSharing(SharingConfig{"dpsgd"});
    learners.SetOverlay(ring);
    learners.SetAttribute("Rounds", UintegerValue(3));
    ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
    apps.Start(Seconds(0));
    Simulator::Run();
    uint32_t done = DynamicCast<LearnerApplication>(apps.Get(0))->GetCompletedRounds();
    Simulator::Destroy();
    std::cout << "out-of-tree study on " << VersionLine() << ": learner 0 completed " << done
              << " rounds" << std::endl;
    return done == 3 ? 0 : 1;
}
