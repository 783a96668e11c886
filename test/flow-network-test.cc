// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the flow network belongs to the simulation that made it. Two flow simulations built in
 * one process, one after the other and side by side in one ns-3 simulation, each with its own
 * FlowNetwork, give every message the arrival time, the events and the link bytes each gives
 * alone; the times are checked against the links' arithmetic too.
 */
#include "flow-network.h"
#include "network-model.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/// What one flow simulation gave: each message's arrival, its network's events and the bytes
/// its bottleneck carried.
struct FlowOutcome
{
    std::map<std::string, double> arrivals; ///< message name -> arrival (s)
    uint64_t events = 0;
    uint64_t bottleneckBytes = 0;

    bool operator==(const FlowOutcome& other) const
    {
        return arrivals == other.arrivals && events == other.events
               && bottleneckBytes == other.bottleneckBytes;
    }
};

/// A dumbbell's half: two senders behind a router, one receiver behind a 10 Mbit/s, 20 ms
/// bottleneck; its own FlowNetwork, made by the flow model's registration.
struct Dumbbell
{
    NodeContainer senders;
    Ptr<Node> router;
    Ptr<Node> receiver;
    Ptr<NetDevice> bottleneck; ///< the router's device towards the receiver
    Ipv4Address receiverAddress;
    Ptr<FlowNetwork> network;
    FlowOutcome outcome;
};

/// Build one dumbbell on subnets 10.`base`.x.0 (two side by side need different bases).
std::unique_ptr<Dumbbell>
BuildDumbbell(uint32_t base)
{
    auto d = std::make_unique<Dumbbell>();
    d->senders.Create(2);
    d->router = CreateObject<Node>();
    d->receiver = CreateObject<Node>();
    InternetStackHelper internet;
    internet.Install(d->senders);
    internet.Install(d->router);
    internet.Install(d->receiver);
    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    access.SetChannelAttribute("Delay", StringValue("5ms"));
    PointToPointHelper narrow;
    narrow.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    narrow.SetChannelAttribute("Delay", StringValue("20ms"));
    Ipv4AddressHelper addresses;
    for (uint32_t i = 0; i < 2; ++i)
    {
        NetDeviceContainer link = access.Install(d->senders.Get(i), d->router);
        addresses.SetBase(
            ("10." + std::to_string(base) + "." + std::to_string(i + 1) + ".0").c_str(),
            "255.255.255.0");
        addresses.Assign(link);
    }
    NetDeviceContainer last = narrow.Install(d->router, d->receiver);
    addresses.SetBase(("10." + std::to_string(base) + ".9.0").c_str(), "255.255.255.0");
    d->receiverAddress = addresses.Assign(last).GetAddress(1);
    d->bottleneck = last.Get(0);
    const NetworkModelRegistration* flow = NetworkModelRegistry::Find("flow");
    d->network = DynamicCast<FlowNetwork>(flow->create());
    return d;
}

/// Messages of `bytes` from both senders to the receiver: the second sender starts later, so
/// that the two share the bottleneck for part of the time.
void
SendMessages(Dumbbell& d, double bytes)
{
    Dumbbell* self = &d;
    d.network->Listen(d.receiver,
                      [self](std::shared_ptr<const std::vector<uint8_t>> framed)
                      {
                          const std::string name(framed->begin(), framed->begin() + 2);
                          self->outcome.arrivals[name] = Simulator::Now().GetSeconds();
                      });
    TcpTransportSettings settings;
    for (uint32_t i = 0; i < 2; ++i)
    {
        const uint32_t connection
            = d.network->Connect(d.senders.Get(i),
                                 d.receiverAddress,
                                 settings,
                                 [](const std::string& why, bool, uint32_t) { FAIL() << why; });
        for (uint32_t m = 0; m < 2; ++m)
        {
            auto framed = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(bytes), 0);
            (*framed)[0] = static_cast<uint8_t>('a' + i);
            (*framed)[1] = static_cast<uint8_t>('0' + m);
            Simulator::Schedule(Seconds(0.3 * i + 0.05 * m),
                                [network = d.network, connection, framed]()
                                { network->Send(connection, framed, framed->size()); });
        }
    }
}

/// Run the simulation (the dumbbells given, routed) to its end and read their outcomes.
void
RunAndRead(const std::vector<Dumbbell*>& dumbbells)
{
    Simulator::Stop(Seconds(60));
    Simulator::Run();
    for (Dumbbell* d : dumbbells)
    {
        d->outcome.events = d->network->GetEvents();
        d->outcome.bottleneckBytes = d->network->GetCarried(d->bottleneck).txBytes;
    }
}

/// One dumbbell alone in its simulation.
FlowOutcome
Alone(uint32_t base, double bytes)
{
    std::unique_ptr<Dumbbell> d = BuildDumbbell(base);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    SendMessages(*d, bytes);
    RunAndRead({d.get()});
    FlowOutcome outcome = d->outcome;
    d->network->Dispose();
    Simulator::Destroy();
    return outcome;
}

TEST(FlowNetworkOwnership, TwoSimulationsAloneAndSideBySideAgree)
{
    const double bytesA = 1e6;
    const double bytesB = 3e5;
    const FlowOutcome a = Alone(1, bytesA);
    const FlowOutcome b = Alone(2, bytesB);
    ASSERT_EQ(a.arrivals.size(), 4U);
    ASSERT_EQ(b.arrivals.size(), 4U);
    // The bottleneck carries the four messages at 10 Mbit/s, with their segments' 54 bytes of
    // headers every 1448: the last arrival is no earlier than that, plus a handshake and one
    // way's propagation (independent of the flow model's sharing and windows).
    for (const auto& [outcome, bytes] : {std::pair{a, bytesA}, std::pair{b, bytesB}})
    {
        double last = 0.0;
        for (const auto& [name, at] : outcome.arrivals)
        {
            last = std::max(last, at);
        }
        const double wire = 4.0 * bytes * (1448.0 + 54.0) / 1448.0;
        EXPECT_GE(last, wire * 8.0 / 10e6 + 0.060);
        // ... and no later than that with a few round trips of slow start on top.
        EXPECT_LE(last, wire * 8.0 / 10e6 + 0.060 + 12 * 0.052);
        EXPECT_GE(outcome.bottleneckBytes, static_cast<uint64_t>(wire * 0.999));
    }

    // One after the other: the same again (nothing is left of the previous simulation).
    EXPECT_EQ(Alone(1, bytesA), a);

    // Side by side in one simulation, each with its own flow network.
    std::unique_ptr<Dumbbell> first = BuildDumbbell(1);
    std::unique_ptr<Dumbbell> second = BuildDumbbell(2);
    ASSERT_NE(first->network, second->network);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    SendMessages(*first, bytesA);
    SendMessages(*second, bytesB);
    RunAndRead({first.get(), second.get()});
    EXPECT_EQ(first->outcome, a);
    EXPECT_EQ(second->outcome, b);
    // Neither network carried the other's bytes.
    EXPECT_EQ(first->network->GetCarried(second->bottleneck).txBytes, 0U);
    EXPECT_EQ(second->network->GetCarried(first->bottleneck).txBytes, 0U);
    first->network->Dispose();
    second->network->Dispose();
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
