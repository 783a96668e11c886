// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A study on a network the program builds itself, with ns-3's own Wi-Fi helpers: stations
 * around one access point, each a learner, exchanging models through the AP. Every scratch
 * program links every ns-3 module Debian ships, so any ns-3 helper can be used here.
 *
 *   ./dlsim program scratch/wifi-study.cc --learners=8 --algorithm=jwins
 *   ./dlsim program scratch/wifi-study.cc --out=results/wifi-8 --flowmon=results/wifi-8.xml
 *   ./dlsim plot results/wifi-8
 *
 * With --out the program leaves a run folder as `./dlsim run` does: config.ini records
 * `network = own` and what the program says its network is, summary.json the command line and
 * the wire bytes; a run that stops early exits 1 and leaves no summary.json.
 */
#include "dataset-catalog.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/wifi-module.h"
#include "partitioner.h"
#include "results-plots.h"
#include "run-folder-writer.h"

#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

namespace
{

/// A number as a person writes it (5, 2.5), not as std::to_string does (5.000000).
std::string
Quantity(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t learnerCount = 8;
    uint32_t rounds = 6;
    std::string algorithm = "dpsgd";
    double distance = 5.0;
    double target = 0.8;
    std::string out;
    std::string flowmon;
    CommandLine cmd(__FILE__);
    cmd.AddValue("learners", "Number of learners (Wi-Fi stations)", learnerCount);
    cmd.AddValue("rounds", "Synchronous rounds", rounds);
    cmd.AddValue("algorithm", "dpsgd or jwins", algorithm);
    cmd.AddValue("distance", "Stations' distance from the AP, in metres", distance);
    cmd.AddValue("target", "Target accuracy of the run folder's summary", target);
    cmd.AddValue("out", "Also write a run folder here, as ./dlsim run does", out);
    cmd.AddValue("flowmon", "Write FlowMonitor's statistics to this XML file", flowmon);
    cmd.Parse(argc, argv);
    UseSingleThreadedTorch();

    // The network, as any ns-3 Wi-Fi program builds it: 802.11ac stations on a circle around
    // one AP, which forwards between them.
    NodeContainer stations;
    stations.Create(learnerCount);
    NodeContainer ap;
    ap.Create(1);
    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211ac);
    WifiMacHelper mac;
    const Ssid ssid("dlsim");
    mac.SetType("ns3::StaWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer stationDevices = wifi.Install(phy, mac, stations);
    mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer apDevice = wifi.Install(phy, mac, ap);
    wifi.AssignStreams(stationDevices, 100);
    wifi.AssignStreams(apDevice, 200);

    MobilityHelper mobility;
    Ptr<ListPositionAllocator> positions = CreateObject<ListPositionAllocator>();
    positions->Add(Vector(0, 0, 0));
    for (uint32_t i = 0; i < learnerCount; ++i)
    {
        const double angle = 2 * M_PI * i / learnerCount;
        positions->Add(Vector(distance * std::cos(angle), distance * std::sin(angle), 0));
    }
    mobility.SetPositionAllocator(positions);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(ap);
    mobility.Install(stations);

    InternetStackHelper internet;
    internet.Install(ap);
    internet.Install(stations);
    Ipv4AddressHelper ipv4("10.1.0.0", "255.255.255.0");
    ipv4.Assign(apDevice);
    Ipv4InterfaceContainer interfaces = ipv4.Assign(stationDevices);

    // The learners.
    DatasetChoice choice;
    choice.name = "synthetic";
    choice.synthetic.trainSamples = 200 * learnerCount;
    DatasetSplit data = LoadDataset(choice);
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
    // Stations associate during the first few hundred milliseconds; the learners start after.
    ApplicationContainer apps = learners.Install(stations, LearnerAddresses(interfaces));
    apps.Start(Seconds(1));

    FlowMonitorHelper flows;
    if (!flowmon.empty())
    {
        flows.InstallAll();
    }
    std::unique_ptr<RunFolderWriter> folder;
    std::unique_ptr<ResultsWriter> writer;
    if (!out.empty())
    {
        // The scenario keys that describe the run for figures and index.csv; `network = own`
        // with the program's own words for the network, which no scenario key describes.
        ScenarioConfig description
            = ScenarioConfig::Load("",
                                   {"--nodes=" + std::to_string(learnerCount),
                                    "--rounds=" + std::to_string(rounds),
                                    "--algorithm=" + algorithm,
                                    "--dataset=synthetic",
                                    "--model=mlp",
                                    "--degree=2",
                                    "--lr=0.05",
                                    "--eval.every=2",
                                    "--target_accuracy=" + std::to_string(target),
                                    "--network=own",
                                    "--own.description=802.11ac, " + std::to_string(learnerCount)
                                        + " stations at " + Quantity(distance) + " m around one AP",
                                    "--out=" + out});
        folder = std::make_unique<RunFolderWriter>(out, description, true);
        folder->SetCommandLine(argc, argv);
        folder->CountWireBytes(stations);
        writer = std::make_unique<ResultsWriter>(out, learnerCount, target, std::cout);
        writer->Attach(apps);
    }
    // Returns when every learner is done, though Wi-Fi beacons and FlowMonitor go on
    // (LearnerHelper::SetStopWhenDone).
    Simulator::Run();
    int status = 0;
    if (folder)
    {
        status = folder->Finish(*writer, 1, std::cerr);
    }
    if (!flowmon.empty())
    {
        flows.SerializeToXmlFile(flowmon, true, true);
    }
    std::cout << algorithm << " on " << learnerCount << " Wi-Fi stations: " << rounds
              << " rounds in " << Simulator::Now().GetSeconds() << " simulated s" << std::endl;
    Simulator::Destroy();
    if (folder && status == 0)
    {
        PlotRuns(out, std::cout);
    }
    return status;
}
