// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the shared underlays against arithmetic: uplinks shared by a host's messages, fair
 * shares, asymmetric access, loss, and the direct network's results kept byte for byte.
 */
#include "cross-traffic-helper.h"
#include "direct-underlay-helper.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/network-module.h"
#include "routed-underlay-helper.h"
#include "router-topology-reader.h"
#include "run-command.h"
#include "synthetic-dataset.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <random>
#include <set>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/// One message's journey: handed to TCP at `sent`, fully received at `received`.
struct Transfer
{
    double sent = -1.0;
    double received = -1.0;
    uint64_t bytes = 0;
};

using Transfers = std::map<std::pair<uint32_t, uint32_t>, Transfer>; // (sender, receiver)

Transfers* g_transfers = nullptr;
uint32_t g_learnersLeft = 0;

/// Cross traffic never ends by itself: stop the simulation once every learner is done.
void
OnRoundCompleted(const RoundReport& /* report */)
{
    if (--g_learnersLeft == 0)
    {
        Simulator::Stop();
    }
}

void
OnSent(const MessageReport& r)
{
    auto& t = (*g_transfers)[{r.sender, r.receiver}];
    t.sent = r.time.GetSeconds();
    t.bytes = r.totalBytes;
}

void
OnReceived(const MessageReport& r)
{
    (*g_transfers)[{r.sender, r.receiver}].received = r.time.GetSeconds();
}

/// What one run produced: every transfer of its single round and every learner's final model.
struct RoundResult
{
    Transfers transfers;
    std::vector<std::vector<float>> models;
    double end = 0.0;
};

/**
 * One round of D-PSGD with lr 0 (models differ at the start, so aggregation is visible) on the
 * MLP (a message of 407,113 bytes), 10 ms of compute, over the underlay the helper builds.
 */
RoundResult
RunOneRound(const OverlayGraph& overlay,
            UnderlayHelper& helper,
            const std::function<void(const Underlay&)>& extra = nullptr)
{
    RngSeedManager::SetSeed(5);
    UseSingleThreadedTorch();
    const uint32_t n = overlay.GetNNodes();
    NodeContainer nodes;
    nodes.Create(n);
    Underlay underlay = helper.Install(nodes);
    if (extra)
    {
        extra(underlay);
    }

    SyntheticSpec spec;
    spec.trainSamples = 40 * n;
    spec.testSamples = 10;
    DatasetSplit data = MakeSyntheticDataset(spec);
    TrainingConfig training;
    training.model = "mlp";
    training.lr = 0.0;
    training.localSteps = 1;
    LearnerHelper learners;
    learners.SetData(data, PartitionIid(*data.train, n, 1));
    learners.SetTraining(training);
    learners.SetSharing(SharingConfig{"dpsgd"});
    learners.SetOverlay(overlay);
    learners.SetSameInitialModel(false);
    learners.SetComputeTimeModel(ComputeTimeModel("fixed", "1", 0.01, 1.0));
    learners.SetAttribute("Rounds", UintegerValue(1));
    learners.SetAttribute("Evaluate", BooleanValue(false));
    // These tests measure how links are shared, behind deep queues (DeepQueue): with a 200 ms
    // minimum timeout TCP would retransmit segments that are only queued there, so use
    // RFC 6298's 1 s (and ns-3's own delayed-ACK timeout with it).
    learners.SetAttribute("TcpMinRto", TimeValue(Seconds(1)));
    learners.SetAttribute("TcpDelAckTimeout", TimeValue(MilliSeconds(200)));
    ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
    apps.Start(Seconds(0));

    RoundResult result;
    g_transfers = &result.transfers;
    for (uint32_t i = 0; i < n; ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext("MessageSent", MakeCallback(&OnSent));
        apps.Get(i)->TraceConnectWithoutContext("MessageReceived", MakeCallback(&OnReceived));
        apps.Get(i)->TraceConnectWithoutContext("RoundCompleted", MakeCallback(&OnRoundCompleted));
    }
    g_learnersLeft = n;
    Simulator::Run();
    result.end = 0;
    for (const auto& [pair, t] : result.transfers)
    {
        result.end = std::max(result.end, t.received);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        auto app = DynamicCast<LearnerApplication>(apps.Get(i));
        EXPECT_EQ(app->GetCompletedRounds(), 1u) << "learner " << i;
        result.models.push_back(app->GetLearner().GetParameters());
    }
    Simulator::Destroy();
    g_transfers = nullptr;
    for (const auto& [pair, t] : result.transfers)
    {
        EXPECT_GE(t.received, t.sent) << pair.first << "->" << pair.second << " never arrived";
    }
    return result;
}

/// Bytes a message of `bytes` puts on the wire: 54 bytes per 1448-byte segment (IPv4 20, TCP
/// 20, timestamps 12, PPP 2).
double
WireBytes(double bytes)
{
    return bytes + std::ceil(bytes / 1448) * 54;
}

/// The ACKs a receiver returns for a message: at most one 54-byte packet per data segment.
double
AckBytes(double bytes)
{
    return std::ceil(bytes / 1448) * 54;
}

OverlayGraph
Star(uint32_t leaves)
{
    OverlayGraph g(leaves + 1, false);
    for (uint32_t i = 1; i <= leaves; ++i)
    {
        g.AddEdge(0, i);
    }
    return g;
}

std::vector<AccessLink>
SameAccess(uint32_t hosts, double up, double down, double latency)
{
    return std::vector<AccessLink>(hosts, AccessLink{up, down, latency});
}

/// A deep queue, so that these tests measure sharing, not TCP's recovery from drops.
LinkBehaviour
DeepQueue()
{
    LinkBehaviour b;
    b.queue = "100000p";
    return b;
}

// A hub sends one message to each of its d neighbours through its one uplink of rate U: the
// last arrives after d x M x 8 / U (plus its ACKs for the neighbours' messages, which share the
// uplink, and the path latency), where dedicated links take M x 8 / U.
TEST(Underlay, AHostsMessagesShareItsUplink)
{
    const uint32_t d = 4;
    const double up = 10e6;
    const double latency = 0.002;
    RoutedUnderlayHelper access(MakeAccessNetwork(SameAccess(d + 1, up, 1e9, latency), 0, 0));
    access.SetLinkBehaviour(DeepQueue());
    RoundResult shared = RunOneRound(Star(d), access);

    DirectUnderlayHelper direct(Star(d));
    direct.SetLinkModel(LinkModel("10Mbps", "4ms"));
    direct.SetLinkBehaviour(DeepQueue());
    RoundResult dedicated = RunOneRound(Star(d), direct);

    const double m = static_cast<double>(shared.transfers.at({0, 1}).bytes);
    const double path = 2 * latency;
    double last = 0;
    double first = 1e9;
    double lastDirect = 0;
    for (uint32_t i = 1; i <= d; ++i)
    {
        const Transfer& t = shared.transfers.at({0, i});
        last = std::max(last, t.received - t.sent);
        first = std::min(first, t.received - t.sent);
        const Transfer& td = dedicated.transfers.at({0, i});
        lastDirect = std::max(lastDirect, td.received - td.sent);
    }
    const double low = d * WireBytes(m) * 8 / up + path;
    const double high = d * (WireBytes(m) + AckBytes(m)) * 8 / up + path;
    std::cout << "hub to " << d << " neighbours over one " << up / 1e6 << " Mbit/s uplink: last "
              << last << " s, first " << first << " s, predicted " << low << " to " << high
              << " s; dedicated links " << lastDirect << " s (predicted "
              << WireBytes(m) * 8 / up + 0.004 << " to "
              << (WireBytes(m) + AckBytes(m)) * 8 / up + 0.004 << " s)" << std::endl;
    EXPECT_GE(last, low * 0.999);
    EXPECT_LE(last, high * 1.01);
    // Dedicated links: one message's time, not d (plus the ACKs of the neighbour's message,
    // which come the other way on the same link, and up to 8% for TCP's start while each
    // side's ACKs wait behind the other side's data and Linux's HyStart leaves slow start
    // before the link is full: measured 0.3783 s, 6.8% above 0.3541 s; the same start on the
    // comparison's case a takes the Linux kernel's time within 2%, see Timing fidelity).
    EXPECT_GE(lastDirect, WireBytes(m) * 8 / up + 0.004);
    EXPECT_LE(lastDirect, ((WireBytes(m) + AckBytes(m)) * 8 / up + 0.004) * 1.08);
    // Fair shares: with the uplink split evenly, no flow finishes much before the others.
    EXPECT_GE(first, 0.85 * last) << "flows sharing the uplink got unequal shares";
}

// A transfer is limited by the slower of the sender's uplink and the receiver's downlink.
// (Printed, not asserted: the reverse transfer, slowed by its ACKs queueing on the slow link.)
TEST(Underlay, AsymmetricAccessLimitsByTheSlowerEnd)
{
    OverlayGraph pair(2, false);
    pair.AddEdge(0, 1);
    const double slow = 2e6;
    const double fast = 50e6;
    // (a) slow uplink at the sender, (b) slow downlink at the receiver.
    std::vector<AccessLink> a = {{slow, fast, 0.001}, {fast, fast, 0.001}};
    std::vector<AccessLink> b = {{fast, fast, 0.001}, {fast, slow, 0.001}};
    RoutedUnderlayHelper slowUp(MakeAccessNetwork(a, 0, 0));
    slowUp.SetLinkBehaviour(DeepQueue());
    RoutedUnderlayHelper slowDown(MakeAccessNetwork(b, 0, 0));
    slowDown.SetLinkBehaviour(DeepQueue());
    RoundResult ra = RunOneRound(pair, slowUp);
    RoundResult rb = RunOneRound(pair, slowDown);
    const double m = static_cast<double>(ra.transfers.at({0, 1}).bytes);
    const double low = WireBytes(m) * 8 / slow;
    const double high = (WireBytes(m) + AckBytes(m)) * 8 / slow + 0.002 + 1500 * 8 / fast;
    for (const auto& [name, r] :
         {std::make_pair("slow uplink", ra), std::make_pair("slow downlink", rb)})
    {
        const Transfer& t = r.transfers.at({0, 1});
        const Transfer& back = r.transfers.at({1, 0});
        std::cout << name << ": 0->1 " << t.received - t.sent << " s (predicted " << low << " to "
                  << high << " s), 1->0 " << back.received - back.sent << " s" << std::endl;
        EXPECT_GE(t.received - t.sent, low);
        EXPECT_LE(t.received - t.sent, high * 1.01);
        // The other direction has fast links only, yet takes about as long: its ACKs queue
        // behind the data on the slow link (the classic trouble of asymmetric access), so
        // this is not asserted.
    }
}

// Three senders into one receiver's downlink of rate D: each gets D / 3.
TEST(Underlay, IncomingMessagesShareTheDownlink)
{
    const double down = 3e6;
    std::vector<AccessLink> access = SameAccess(4, 100e6, 100e6, 0.001);
    access[0].downBps = down;
    RoutedUnderlayHelper helper(MakeAccessNetwork(access, 0, 0));
    helper.SetLinkBehaviour(DeepQueue());
    RoundResult r = RunOneRound(Star(3), helper);
    const double m = static_cast<double>(r.transfers.at({1, 0}).bytes);
    const double low = 3 * WireBytes(m) * 8 / down;
    const double high = 3 * (WireBytes(m) + AckBytes(m)) * 8 / down + 0.004;
    double first = 1e9;
    double last = 0;
    for (uint32_t i = 1; i <= 3; ++i)
    {
        const Transfer& t = r.transfers.at({i, 0});
        first = std::min(first, t.received - t.sent);
        last = std::max(last, t.received - t.sent);
    }
    std::cout << "3 senders into a " << down / 1e6 << " Mbit/s downlink: first " << first
              << " s, last " << last << " s, predicted " << low << " to " << high << " s"
              << std::endl;
    EXPECT_GE(last, low * 0.999);
    EXPECT_LE(last, high * 1.01);
    EXPECT_GE(first, 0.85 * last);
}

// Lost packets are retransmitted by TCP: every message arrives intact (the aggregated models
// are exactly those of a lossless run), only later.
TEST(Underlay, ALossyNetworkDeliversEveryMessageIntactButLater)
{
    const OverlayGraph overlay = Star(3);
    RoutedUnderlayHelper clean(MakeAccessNetwork(SameAccess(4, 10e6, 50e6, 0.005), 0, 0));
    RoundResult a = RunOneRound(overlay, clean);
    LinkBehaviour lossy;
    lossy.loss = 0.01;
    RoutedUnderlayHelper noisy(MakeAccessNetwork(SameAccess(4, 10e6, 50e6, 0.005), 0, 0));
    noisy.SetLinkBehaviour(lossy);
    RoundResult b = RunOneRound(overlay, noisy);
    std::cout << "round end without loss " << a.end << " s, with 1% loss " << b.end << " s"
              << std::endl;
    ASSERT_EQ(a.models.size(), b.models.size());
    for (size_t i = 0; i < a.models.size(); ++i)
    {
        EXPECT_EQ(a.models[i], b.models[i]) << "learner " << i << " aggregated other bytes";
    }
    EXPECT_GT(b.end, a.end);
}

// AssignStreams after Install chains as ns-3's helpers do: it returns the streams it used (one
// per lossy link direction: the receiving end's loss model), so the next helper starts after.
TEST(Underlay, AssignStreamsAfterInstallReturnsTheStreamsUsed)
{
    LinkBehaviour lossy;
    lossy.loss = 0.01;
    const OverlayGraph ring = MakeRingGraph(3);
    DirectUnderlayHelper direct(ring);
    direct.SetLinkModel(LinkModel("10Mbps", "1ms"));
    direct.SetLinkBehaviour(lossy);
    NodeContainer nodes;
    nodes.Create(3);
    const Underlay built = direct.Install(nodes);
    EXPECT_EQ(direct.AssignStreams(100), static_cast<int64_t>(built.links.size()))
        << "3 links, 2 directions each";
    Simulator::Destroy();
    Ipv4AddressGenerator::Reset(); // the next network's links use the same address space

    RoutedUnderlayHelper routed(MakeAccessNetwork(SameAccess(3, 10e6, 50e6, 0.005), 0, 0));
    routed.SetLinkBehaviour(lossy);
    NodeContainer hosts;
    hosts.Create(3);
    const Underlay access = routed.Install(hosts);
    EXPECT_EQ(routed.AssignStreams(200), static_cast<int64_t>(access.links.size()));
    Simulator::Destroy();
    Ipv4AddressGenerator::Reset();
}

// Two regions: a message between them takes its transfer time plus the WAN link's latency
// from the matrix, on top of what the same message takes inside one region.
TEST(Underlay, RegionsAddTheWanLatencyOfTheMatrix)
{
    const LatencyMatrix world = BuiltinRegionLatencies();
    OverlayGraph pair(2, false);
    pair.AddEdge(0, 1);
    const auto access = SameAccess(2, 10e6, 50e6, 0.001);
    // us-east (0) and ap-singapore (3), then both in us-east.
    RoutedUnderlayHelper apart(MakeRegionNetwork(access, {0, 3}, world, 0));
    RoutedUnderlayHelper together(MakeRegionNetwork(access, {0, 0}, world, 0));
    RoundResult far = RunOneRound(pair, apart);
    RoundResult near = RunOneRound(pair, together);
    const Transfer& tf = far.transfers.at({0, 1});
    const Transfer& tn = near.transfers.at({0, 1});
    const double wan = world.seconds[0][3];
    const double farTime = tf.received - tf.sent;
    const double nearTime = tn.received - tn.sent;
    std::cout << "us-east to ap-singapore: " << farTime << " s; inside us-east: " << nearTime
              << " s; WAN one-way latency " << wan << " s" << std::endl;
    EXPECT_NEAR(wan, 0.10835, 1e-9);
    EXPECT_GE(farTime, WireBytes(tf.bytes) * 8 / 10e6 + 0.002 + wan);
    EXPECT_GE(farTime - nearTime, wan);
}

// Constant-rate UDP cross traffic of rate X on a WAN link of capacity C leaves the learners at
// most C - X: a transfer across it takes at least M x 8 / (C - X).
TEST(Underlay, CrossTrafficTakesItsShareOfTheWan)
{
    const LatencyMatrix world = FirstRegions(BuiltinRegionLatencies(), 2);
    OverlayGraph pair(2, false);
    pair.AddEdge(0, 1);
    const auto access = SameAccess(2, 100e6, 100e6, 0.001);
    const double wanBps = 10e6;
    const double crossBps = 5e6;
    RoutedUnderlayHelper clean(MakeRegionNetwork(access, {0, 1}, world, wanBps));
    RoutedUnderlayHelper busy(MakeRegionNetwork(access, {0, 1}, world, wanBps));
    RoundResult a = RunOneRound(pair, clean);
    RoundResult b = RunOneRound(pair,
                                busy,
                                [crossBps](const Underlay& u)
                                {
                                    CrossTrafficHelper cross("cbr", crossBps, 1, 1);
                                    cross.Install(u, {"wan"});
                                    cross.AssignStreams(50);
                                });
    const Transfer& ta = a.transfers.at({0, 1});
    const Transfer& tb = b.transfers.at({0, 1});
    const double leftOver = WireBytes(tb.bytes) * 8 / (wanBps - crossBps);
    std::cout << "transfer over a " << wanBps / 1e6 << " Mbit/s WAN: " << ta.received - ta.sent
              << " s alone, " << tb.received - tb.sent << " s next to " << crossBps / 1e6
              << " Mbit/s of UDP (at least " << leftOver << " s)" << std::endl;
    EXPECT_GE(ta.received - ta.sent, WireBytes(ta.bytes) * 8 / wanBps);
    EXPECT_GE(tb.received - tb.sent, leftOver);
}

// A router-level topology read with ns-3's topology readers: the same network from its Inet
// and its Orbis file, and clear errors for files ns-3 would read only in part.
TEST(Underlay, RouterTopologyFilesAreReadWhole)
{
    const std::string dir = std::string(DLSIM_SOURCE_DIR) + "/scenarios/underlays/";
    RouterNetwork inet = ReadRouterTopology(dir + "small-isp.inet", "inet");
    RouterNetwork orbis = ReadRouterTopology(dir + "small-isp.orbis", "orbis");
    EXPECT_EQ(inet.routers.size(), 8u);
    EXPECT_EQ(inet.links.size(), 10u);
    EXPECT_EQ(inet.routers, orbis.routers);
    ASSERT_EQ(inet.links.size(), orbis.links.size());

    auto write = [](const std::string& name, const std::string& text)
    {
        std::string path = (std::filesystem::temp_directory_path()
                            / ("dlsim-" + std::to_string(::getpid()) + name))
                               .string();
        std::ofstream(path) << text;
        return path;
    };
    auto error = [](const std::string& path, const std::string& format)
    {
        try
        {
            ReadRouterTopology(path, format);
        }
        catch (const std::exception& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    std::string cut = write("cut.inet", "3 2\n0 0 0\n1 0 0\n2 0 0\n0 1 1\n");
    EXPECT_NE(error(cut, "inet").find("announces 3 nodes and 2 links"), std::string::npos)
        << error(cut, "inet");
    std::string apart = write("apart.orbis", "0 1\n2 3\n");
    EXPECT_NE(error(apart, "orbis").find("not connected"), std::string::npos)
        << error(apart, "orbis");
    std::string odd = write("odd.orbis", "0 1\n1 2 3\n");
    EXPECT_NE(error(odd, "orbis").find(":2: expected 'FROM TO'"), std::string::npos)
        << error(odd, "orbis");
    EXPECT_NE(error("/nonexistent.inet", "inet").find("cannot open /nonexistent.inet"),
              std::string::npos);
    // An Inet file read as Orbis says which format it looks like.
    EXPECT_NE(error(dir + "small-isp.inet", "orbis")
                  .find(":2: expected 'FROM TO' (the file looks like an Inet file: set "
                        "underlay.format = inet)"),
              std::string::npos)
        << error(dir + "small-isp.inet", "orbis");
    // Rocketfuel weights files list a link once per direction: one link; the same direction
    // twice is an error.
    std::string both = write("both.weights", "a b 1\nb a 1\nb c 2\nc b 2\n");
    RouterNetwork rocketfuel = ReadRouterTopology(both, "rocketfuel");
    EXPECT_EQ(rocketfuel.routers.size(), 3u);
    EXPECT_EQ(rocketfuel.links.size(), 2u);
    std::string again = write("again.weights", "a b 1\nb c 2\na b 1\n");
    EXPECT_NE(error(again, "rocketfuel").find(":3: the link between a and b is listed twice"),
              std::string::npos)
        << error(again, "rocketfuel");
    std::string loop = write("loop.inet", "2 2\n0 0 0\n1 0 0\n0 1 1\n1 1 1\n");
    EXPECT_NE(error(loop, "inet").find(":5: router 1 is linked to itself"), std::string::npos)
        << error(loop, "inet");
    std::string lonely = write("lonely.inet", "3 1\n0 0 0\n1 0 0\n2 0 0\n0 1 1\n");
    EXPECT_NE(error(lonely, "inet").find(":4: node 2 has no link"), std::string::npos)
        << error(lonely, "inet");
    for (const auto& p : {cut, apart, odd, both, again, loop, lonely})
    {
        std::filesystem::remove(p);
    }
}

/// The output device `protocol` picks on `node` for a packet to `to` (null: none).
Ptr<NetDevice>
OutputDevice(Ptr<Ipv4RoutingProtocol> protocol, Ipv4Address to)
{
    Ipv4Header header;
    header.SetDestination(to);
    Socket::SocketErrno error;
    Ptr<Ipv4Route> route = protocol->RouteOutput(Create<Packet>(), header, nullptr, error);
    return route ? route->GetOutputDevice() : nullptr;
}

// dlsim's static routes are the ones ns-3's global routing computes, tie for tie: on the
// shipped router files and on random graphs full of equal-cost paths, every node sends a
// packet for every learner out of the same device under both (global routing is computed here
// on top of the static routes, into its own lower-priority table of the node's list routing).
TEST(Underlay, StaticRoutesAreGlobalRoutingsRoutes)
{
    const std::string dir = std::string(DLSIM_SOURCE_DIR) + "/scenarios/underlays/";
    std::vector<RouterNetwork> networks = {ReadRouterTopology(dir + "small-isp.inet", "inet"),
                                           ReadRouterTopology(dir + "small-isp.orbis", "orbis")};
    std::mt19937 random(7);
    for (uint32_t routers : {12u, 30u, 60u})
    {
        // A ring of routers (every pair has two ways round) with chords: many equal paths.
        RouterNetwork net;
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        for (uint32_t r = 0; r < routers; ++r)
        {
            net.routers.push_back("r" + std::to_string(r));
        }
        auto add = [&](uint32_t a, uint32_t b)
        {
            if (a != b && pairs.insert({std::min(a, b), std::max(a, b)}).second)
            {
                RouterNetwork::Link l;
                l.a = a;
                l.b = b;
                l.role = "router";
                net.links.push_back(l);
            }
        };
        for (uint32_t r = 0; r < routers; ++r)
        {
            add(r, (r + 1) % routers);
        }
        while (net.links.size() < routers * 3 / 2)
        {
            add(random() % routers, random() % routers);
        }
        // Two routers hanging off the others by one link (stub routers get a default route).
        for (uint32_t r = routers; r < routers + 2; ++r)
        {
            net.routers.push_back("r" + std::to_string(r));
            add(r, random() % routers);
        }
        std::shuffle(net.links.begin(), net.links.end(), random);
        networks.push_back(net);
    }
    for (RouterNetwork& net : networks)
    {
        const uint32_t learners = 10;
        net.attachment.clear();
        for (uint32_t i = 0; i < learners; ++i)
        {
            net.attachment.push_back(random() % net.routers.size());
        }
        for (auto& l : net.links)
        {
            l.bandwidthBps = 1e9;
            l.latencySeconds = 1e-3;
        }
        net.access.assign(learners, AccessLink{1e8, 1e8, 1e-3});
        NodeContainer hosts;
        hosts.Create(learners);
        Underlay underlay = RoutedUnderlayHelper(net).Install(hosts);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        NodeContainer all(hosts, underlay.routers);
        uint32_t compared = 0;
        for (uint32_t k = 0; k < all.GetN(); ++k)
        {
            auto list
                = DynamicCast<Ipv4ListRouting>(all.Get(k)->GetObject<Ipv4>()->GetRoutingProtocol());
            ASSERT_TRUE(list);
            Ptr<Ipv4RoutingProtocol> byStatic;
            Ptr<Ipv4RoutingProtocol> byGlobal;
            for (uint32_t p = 0; p < list->GetNRoutingProtocols(); ++p)
            {
                int16_t priority;
                Ptr<Ipv4RoutingProtocol> protocol = list->GetRoutingProtocol(p, priority);
                (DynamicCast<Ipv4GlobalRouting>(protocol) ? byGlobal : byStatic) = protocol;
            }
            for (uint32_t i = 0; i < learners; ++i)
            {
                const Ipv4Address to = underlay.addresses.Get(i, 0);
                if (hosts.Get(i) == all.Get(k))
                {
                    continue;
                }
                Ptr<NetDevice> viaStatic = OutputDevice(byStatic, to);
                ASSERT_TRUE(viaStatic) << "node " << k << " has no static route to " << to;
                // Global routing has no route for a directly attached learner; static routing's
                // route is the connected network then.
                Ptr<NetDevice> viaGlobal = OutputDevice(byGlobal, to);
                if (viaGlobal)
                {
                    EXPECT_EQ(viaStatic, viaGlobal)
                        << net.routers.size() << " routers: node " << k << " to learner " << i;
                    ++compared;
                }
            }
        }
        EXPECT_GT(compared, learners * net.routers.size() / 2);
        Simulator::Destroy();
    }
}

// The direct network with the queue and TCP it always had (100000 packets, ns-3's own TCP
// with its minimum RTO of 1 s) reproduces, byte for byte,
// the results the module wrote before underlays existed (stored in test/data/golden-direct).
TEST(Underlay, DirectNetworkWithTheOldQueueReproducesEarlierResults)
{
    const std::string common = " --nodes=6 --rounds=6 --dataset=synthetic --model=mlp --degree=2"
                               " --lr=0.05 --eval.every=3 --link.queue=100000p --tcp.profile=ns3"
                               " --no-plot";
    const std::map<std::string, std::string> runs = {
        {"dpsgd",
         " --link.bandwidth='ns3::UniformRandomVariable[Min=1|Max=20]'"
         " --link.latency='ns3::UniformRandomVariable[Min=1|Max=30]' --tcp.buffer=65536"},
        {"jwins", " --algorithm=jwins --link.bandwidth=2Mbps --link.latency=5ms"},
    };
    for (const auto& [name, args] : runs)
    {
        std::string out = (std::filesystem::temp_directory_path()
                           / ("dlsim-golden-" + std::to_string(::getpid()) + "-" + name))
                              .string();
        std::filesystem::remove_all(out);
        std::string output;
        ASSERT_EQ(
            RunCommand(std::string(DLSIM_RUN_BINARY) + common + args + " --out=" + out, output), 0)
            << output;
        for (const char* file : {"rounds.csv", "eval.csv", "curve.csv"})
        {
            EXPECT_EQ(ReadWholeFile(out + "/" + file),
                      ReadWholeFile(std::string(DLSIM_TEST_DATA_DIR) + "/golden-direct/" + name
                                    + "/" + file))
                << name << " " << file;
        }
        std::filesystem::remove_all(out);
    }
}

} // namespace
} // namespace ns3
