// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A study as a researcher writes one in scratch/: every .cc file here is built as its own
 * program, and `./dlsim program scratch/access-study.cc --learners=8` builds and runs it.
 * Here: D-PSGD or JWINS on learners behind home access links (slow uplinks), comparing the
 * time to a target accuracy for a given uplink rate.
 *
 *   ./dlsim program scratch/access-study.cc --learners=8 --up=2Mbps --algorithm=jwins
 *   ./dlsim program scratch/access-study.cc --out=results/access-2M   # a run folder, then:
 *   ./dlsim plot results/access-2M
 */
#include "dataset-catalog.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "partitioner.h"
#include "random-variable-spec.h"
#include "results-plots.h"
#include "routed-underlay-helper.h"
#include "run-folder-writer.h"

#include <iostream>
#include <map>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

namespace
{

std::map<uint32_t, std::pair<double, std::vector<double>>> g_evaluations; // round: time, accs

void
Evaluated(const EvalReport& report)
{
    auto& e = g_evaluations[report.round];
    e.first = std::max(e.first, report.time.GetSeconds());
    e.second.push_back(report.accuracy);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t learnerCount = 8;
    uint32_t rounds = 20;
    std::string up = "2Mbps";
    std::string down = "20Mbps";
    std::string algorithm = "dpsgd";
    double target = 0.8;
    std::string out;
    CommandLine cmd(__FILE__);
    cmd.AddValue("learners", "Number of learners", learnerCount);
    cmd.AddValue("rounds", "Synchronous rounds", rounds);
    cmd.AddValue("up", "Every host's uplink rate", up);
    cmd.AddValue("down", "Every host's downlink rate", down);
    cmd.AddValue("algorithm", "dpsgd or jwins", algorithm);
    cmd.AddValue("target", "Accuracy whose time to reach is printed", target);
    cmd.AddValue("out", "Also write a run folder here, as ./dlsim run does", out);
    cmd.Parse(argc, argv);
    UseSingleThreadedTorch();

    DatasetChoice choice;
    choice.name = "synthetic";
    choice.synthetic.trainSamples = 200 * learnerCount;
    DatasetSplit data = LoadDataset(choice);

    NodeContainer hosts;
    hosts.Create(learnerCount);
    const double upBps = ParseDataRateBps("--up", up);
    const double downBps = ParseDataRateBps("--down", down);
    RoutedUnderlayHelper network(MakeAccessNetwork(
        std::vector<AccessLink>(learnerCount, AccessLink{upBps, downBps, 0.005}), 0, 0));
    Underlay underlay = network.Install(hosts);

    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    TrainingConfig training;
    training.model = "mlp";
    training.lr = 0.05;
    LearnerHelper learners;
    learners.SetData(data, PartitionShards(*data.train, learnerCount, 2, 1));
    learners.SetTraining(training);
    learners.SetSharing(SharingConfig{algorithm});
    learners.SetOverlay(MakeRandomRegularGraph(learnerCount, 2, rng));
    learners.SetAttribute("Rounds", UintegerValue(rounds));
    learners.SetAttribute("EvalEvery", UintegerValue(2));
    ApplicationContainer apps = learners.Install(hosts, underlay.addresses);
    apps.Start(Seconds(0));
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext("Evaluated", MakeCallback(&Evaluated));
    }
    // With --out, the same results as a run folder: the scenario keys describe the run for the
    // figures and index.csv; ResultsWriter writes the CSVs while the simulation runs.
    std::unique_ptr<RunFolderWriter> folder;
    std::unique_ptr<ResultsWriter> writer;
    if (!out.empty())
    {
        ScenarioConfig description = ScenarioConfig::Load(
            "",
            {"--nodes=" + std::to_string(learnerCount), "--rounds=" + std::to_string(rounds),
             "--algorithm=" + algorithm, "--dataset=synthetic", "--model=mlp", "--degree=2",
             "--lr=0.05", "--network=access", "--access.up=" + up, "--access.down=" + down,
             "--access.latency=5ms", "--eval.every=2", "--target_accuracy=" + std::to_string(target),
             "--out=" + out});
        folder = std::make_unique<RunFolderWriter>(out, description, true);
        folder->SetCommandLine(argc, argv);
        folder->CountWireBytes(hosts);
        writer = std::make_unique<ResultsWriter>(out, learnerCount, target, std::cout);
        writer->Attach(apps);
    }
    Simulator::Run();
    // A run that stopped early (a learner failed) leaves no summary and exits 1.
    const int status = folder ? folder->Finish(*writer, 1, std::cerr) : 0;
    Simulator::Destroy();
    if (status != 0)
    {
        return status;
    }
    if (folder)
    {
        PlotRuns(out, std::cout);
    }

    for (const auto& [round, e] : g_evaluations)
    {
        double mean = 0;
        for (double a : e.second)
        {
            mean += a / e.second.size();
        }
        std::cout << "round " << round << ": " << e.first << " s, mean accuracy " << mean
                  << std::endl;
        if (mean >= target)
        {
            std::cout << algorithm << " reached " << target << " after " << e.first
                      << " simulated s with " << up << " uplinks" << std::endl;
            return 0;
        }
    }
    std::cout << algorithm << " did not reach " << target << std::endl;
    return 0;
}
