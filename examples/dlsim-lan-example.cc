// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Learners on a network built by hand, as an ns-3 user builds any network: two offices, each a
 * CSMA (Ethernet) LAN of hosts behind its router, and the two routers joined by a slower
 * point-to-point WAN link. Nothing of dlsim's own underlays is used: the learners only need
 * their nodes and the addresses at which their neighbours reach them.
 *
 *   build/dlsim-lan-example --learners=8 --rounds=10 --wanRate=10Mbps --wanDelay=20ms
 *
 * The program checks that every learner finished every round, that the mean accuracy reached
 * --minAccuracy, and that the WAN link carried at least the bytes of every message sent from
 * one office to the other (all of them must cross it); otherwise it exits non-zero.
 */
#include "example-setup.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "overlay-graph.h"
#include "partitioner.h"

#include <iostream>
#include <map>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DlsimLanExample");

namespace
{

uint32_t g_half = 0;          ///< learners [0, g_half) are in office A, the rest in office B
uint64_t g_crossingBytes = 0; ///< bytes of messages sent from one office to the other
uint64_t g_wanBytes = 0;      ///< bytes the WAN link's two devices transmitted

void
CountMessage(const MessageReport& report)
{
    if ((report.sender < g_half) != (report.receiver < g_half))
    {
        g_crossingBytes += report.totalBytes;
    }
}

void
CountWanPacket(Ptr<const Packet> packet)
{
    g_wanBytes += packet->GetSize();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t learnerCount = 8;
    uint32_t degree = 3;
    uint32_t rounds = 10;
    uint32_t seed = 1;
    std::string lanRate = "100Mbps";
    std::string wanRate = "10Mbps";
    std::string wanDelay = "20ms";
    double minAccuracy = 0.0;

    CommandLine cmd(__FILE__);
    cmd.AddValue("learners", "Number of learners, split between the two offices", learnerCount);
    cmd.AddValue("degree", "Degree of the random regular overlay", degree);
    cmd.AddValue("rounds", "Synchronous rounds", rounds);
    cmd.AddValue("seed", "Seed of everything random", seed);
    cmd.AddValue("lanRate", "Rate of each office's shared Ethernet", lanRate);
    cmd.AddValue("wanRate", "Rate of the link between the two offices' routers", wanRate);
    cmd.AddValue("wanDelay", "One-way delay of that link", wanDelay);
    cmd.AddValue("minAccuracy", "Fail unless the final mean accuracy reaches this", minAccuracy);
    cmd.Parse(argc, argv);
    if (learnerCount < 4 || degree >= learnerCount)
    {
        std::cerr << "need at least 4 learners and a degree below the learner count" << std::endl;
        return 2;
    }
    RngSeedManager::SetSeed(seed);
    UseSingleThreadedTorch();

    // The network, built by hand: hosts and a router on each of two CSMA LANs, routers linked.
    g_half = learnerCount / 2;
    NodeContainer hosts;
    hosts.Create(learnerCount);
    NodeContainer routers;
    routers.Create(2);
    InternetStackHelper internet;
    internet.SetIpv6StackInstall(false);
    internet.Install(hosts);
    internet.Install(routers);

    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", StringValue(lanRate));
    csma.SetChannelAttribute("Delay", StringValue("50us"));
    Ipv4AddressHelper addresses;
    std::vector<Ipv4Address> learnerAddress(learnerCount);
    for (uint32_t office = 0; office < 2; ++office)
    {
        NodeContainer lan;
        uint32_t first = office == 0 ? 0 : g_half;
        uint32_t last = office == 0 ? g_half : learnerCount;
        for (uint32_t i = first; i < last; ++i)
        {
            lan.Add(hosts.Get(i));
        }
        lan.Add(routers.Get(office));
        addresses.SetBase(office == 0 ? "192.168.1.0" : "192.168.2.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(csma.Install(lan));
        for (uint32_t i = first; i < last; ++i)
        {
            learnerAddress[i] = interfaces.GetAddress(i - first);
        }
    }
    PointToPointHelper wan;
    wan.SetDeviceAttribute("DataRate", StringValue(wanRate));
    wan.SetChannelAttribute("Delay", StringValue(wanDelay));
    NetDeviceContainer wanDevices = wan.Install(routers);
    addresses.SetBase("10.255.0.0", "255.255.255.252");
    addresses.Assign(wanDevices);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    for (uint32_t d = 0; d < 2; ++d)
    {
        wanDevices.Get(d)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&CountWanPacket));
    }

    // The learners: an overlay over the hosts, whatever network carries it.
    DatasetSplit data = *LoadExampleData(
        "synthetic", seed, kDefaultFashionMnistDir, std::nullopt, 200 * learnerCount);
    Ptr<UniformRandomVariable> overlayRng = CreateObject<UniformRandomVariable>();
    overlayRng->SetStream(0);
    OverlayGraph overlay = MakeRandomRegularGraph(learnerCount, degree, overlayRng);

    TrainingConfig training;
    training.model = "logistic";
    training.lr = 0.05;
    LearnerHelper learners;
    learners.SetData(data, PartitionShards(*data.train, learnerCount, 2, seed));
    learners.SetTraining(training);
    learners.SetSharing(SharingConfig{"dpsgd"});
    learners.SetOverlay(overlay);
    learners.SetSeed(seed);
    learners.AssignStreams(10);
    learners.SetAttribute("Rounds", UintegerValue(rounds));
    learners.SetAttribute("EvalEvery", UintegerValue(rounds));
    ApplicationContainer apps = learners.Install(hosts, LearnerAddresses(learnerAddress));
    apps.Start(Seconds(0));
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext("MessageSent", MakeCallback(&CountMessage));
    }
    AccuracyLog accuracy;
    accuracy.Connect(apps);

    Simulator::Run();
    bool ok = true;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        uint32_t done = DynamicCast<LearnerApplication>(apps.Get(i))->GetCompletedRounds();
        if (done != rounds)
        {
            std::cerr << "learner " << i << " completed " << done << " of " << rounds << " rounds"
                      << std::endl;
            ok = false;
        }
    }
    const double finalAccuracy = accuracy.MeanAt(rounds);
    std::cout << learnerCount << " learners in two offices, " << rounds << " rounds in "
              << Simulator::Now().GetSeconds() << " simulated s; final mean accuracy "
              << finalAccuracy << std::endl;
    std::cout << "messages between the offices: " << g_crossingBytes
              << " bytes; the WAN link transmitted " << g_wanBytes
              << " bytes (payload, TCP/IP headers and ACKs)" << std::endl;
    if (finalAccuracy < minAccuracy)
    {
        std::cerr << "final mean accuracy " << finalAccuracy << " is below " << minAccuracy
                  << std::endl;
        ok = false;
    }
    if (g_crossingBytes == 0 || g_wanBytes < g_crossingBytes)
    {
        std::cerr << "the WAN link carried less than the messages that had to cross it"
                  << std::endl;
        ok = false;
    }
    Simulator::Destroy();
    return ok ? 0 : 1;
}
