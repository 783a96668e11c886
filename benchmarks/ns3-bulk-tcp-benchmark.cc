// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What ns-3's own TCP costs to move bytes, with nothing of dlsim in the way: ns-3's
 * BulkSendApplication and PacketSink on point-to-point links, one flow each way on every link
 * (as an overlay edge of dlsim's direct underlay carries), the TCP settings
 * and links dlsim uses (no queue disc, a device queue of one 100 ms round trip; MSS = MTU - 52, 4 MiB buffers, initial window 10, minimum RTO 1 s, delayed ACK
 * 200 ms). BulkSend sends dummy (zero-area) payload in 64 KB writes. It prints simulated payload
 * megabytes per wall second and wall microseconds per data segment: the reference against which
 * dlsim's own figures (network-cost-benchmark) show what dlsim adds to ns-3's TCP.
 *
 * Usage: ns3-bulk-tcp-benchmark [--links=192] [--bytes=335000] [--rate=100Mbps] [--delay=10ms]
 *                            [--mtu=1500]
 * --bytes is per flow; the defaults are one D-PSGD round of 96 GN-LeNet learners on a 4-regular
 * overlay (192 edges, a 335 KB model each way).
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cmath>

#include <chrono>
#include <cstdio>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t links = 192;
    uint64_t bytes = 335000;
    std::string rate = "100Mbps";
    std::string delay = "10ms";
    uint32_t mtu = 1500;
    CommandLine cmd(__FILE__);
    cmd.AddValue("links", "number of links, one TCP flow each way on each", links);
    cmd.AddValue("bytes", "payload bytes per flow", bytes);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("delay", "one-way link delay", delay);
    cmd.AddValue("mtu", "link MTU in bytes", mtu);
    cmd.Parse(argc, argv);

    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mtu - 52));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4194304));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4194304));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));

    const double bps = static_cast<double>(DataRate(rate).GetBitRate());
    const auto queuePackets = static_cast<uint32_t>(std::max(8.0, std::ceil(bps * 0.1 / 8 / mtu)));
    PointToPointHelper p2p;
    p2p.SetQueue("ns3::DropTailQueue",
                 "MaxSize",
                 QueueSizeValue(QueueSize(std::to_string(queuePackets) + "p")));
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    InternetStackHelper internet;
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    const uint16_t port = 9;
    for (uint32_t l = 0; l < links; ++l)
    {
        NodeContainer pair;
        pair.Create(2);
        internet.Install(pair);
        NetDeviceContainer devices = p2p.Install(pair);
        Ipv4InterfaceContainer ends = addresses.Assign(devices);
        addresses.NewNetwork();
        // As dlsim's links: no queue disc, a drop-tail device queue of one 100 ms round trip.
        TrafficControlHelper().Uninstall(devices);
        for (uint32_t from = 0; from < 2; ++from)
        {
            BulkSendHelper send("ns3::TcpSocketFactory",
                                InetSocketAddress(ends.GetAddress(1 - from), port));
            send.SetAttribute("MaxBytes", UintegerValue(bytes));
            send.SetAttribute("SendSize", UintegerValue(65536)); // dlsim hands TCP 64 KB pieces
            send.Install(pair.Get(from)).Start(Seconds(0));
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            sink.Install(pair.Get(from)).Start(Seconds(0));
        }
    }

    const auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double simulated = Simulator::Now().GetSeconds();
    Simulator::Destroy();

    const uint32_t flows = 2 * links;
    const double payloadMb = static_cast<double>(bytes) * flows / 1e6;
    const double segments = std::ceil(static_cast<double>(bytes) / (mtu - 52)) * flows;
    std::printf("ns-3 bulk TCP, %u links x 2 flows x %llu bytes, %s, %s, MTU %u: simulated %.2f "
                "s, wall %.2f s, %.1f payload MB/s, %.2f us per data segment\n",
                links,
                static_cast<unsigned long long>(bytes),
                rate.c_str(),
                delay.c_str(),
                mtu,
                simulated,
                wall,
                payloadMb / wall,
                wall / segments * 1e6);
    return 0;
}
