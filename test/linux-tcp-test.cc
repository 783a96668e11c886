// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: LinuxTcpSocket recovers the losses ns-3's TCP leaves to its retransmission timeout: a
 * lost last segment (tail loss probe) and a lost retransmission (RACK). One transfer over one
 * 10 Mbit/s, 10 ms link with a deterministic drop, for each TCP.
 */
#include "linux-tcp-socket.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

/// Drops the first `times` transmissions of the data segment that starts at `seq` (relative to
/// the first data byte), as they arrive at the receiver's device.
class SegmentDropper : public ErrorModel
{
  public:
    SegmentDropper(uint32_t firstByte, uint32_t times) : m_firstByte(firstByte), m_times(times) {}

    uint32_t GetDropped() const
    {
        return m_dropped;
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        Ptr<Packet> copy = p->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        TcpHeader tcp;
        copy->RemoveHeader(ppp);
        copy->RemoveHeader(ip);
        copy->RemoveHeader(tcp);
        if (copy->GetSize() == 0 || (tcp.GetFlags() & TcpHeader::SYN) != 0)
        {
            return false;
        }
        // Data starts one after the initial sequence number, which ns-3 sets to 0.
        if (tcp.GetSequenceNumber().GetValue() == m_firstByte + 1 && m_dropped < m_times)
        {
            ++m_dropped;
            return true;
        }
        return false;
    }

    void DoReset() override {}

    uint32_t m_firstByte;
    uint32_t m_times;
    uint32_t m_dropped{0};
};

/// What one transfer did.
struct Transfer
{
    double seconds{0};   ///< from the first data segment to the last byte received (0: never)
    uint32_t dropped{0}; ///< segments the error model dropped
    uint32_t probes{0};  ///< tail loss probes (linux only)
    uint32_t rackRetransmits{0}; ///< RACK retransmissions (linux only)
    uint32_t timeouts{0};        ///< retransmission timeouts (linux only)
};

constexpr uint32_t kMss = 1448;

/**
 * Send `segments` full segments from node 0 to node 1 and drop the first `times`
 * transmissions of segment `dropIndex` (0-based). Both ends use LinuxTcpSocket if `useLinux`,
 * else ns-3's TcpSocketBase; both with a 1 s minimum RTO and a 40 ms delayed ACK, so that only
 * the loss recovery differs.
 */
Transfer
RunTransfer(bool useLinux, uint32_t segments, uint32_t dropIndex, uint32_t times)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    link.SetChannelAttribute("Delay", StringValue("10ms"));
    NetDeviceContainer devices = link.Install(nodes);
    Ptr<SegmentDropper> dropper = CreateObject<SegmentDropper>(dropIndex * kMss, times);
    devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(dropper));
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    const auto make = [useLinux](Ptr<Node> node)
    {
        Ptr<Socket> socket = useLinux ? Ptr<Socket>(LinuxTcpSocket::Create(node))
                                      : Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        socket->SetAttribute("SegmentSize", UintegerValue(kMss));
        socket->SetAttribute("SndBufSize", UintegerValue(1 << 20));
        socket->SetAttribute("RcvBufSize", UintegerValue(1 << 20));
        socket->SetAttribute("MinRto", TimeValue(Seconds(1)));
        socket->SetAttribute("DelAckTimeout", TimeValue(MilliSeconds(40)));
        return socket;
    };

    const uint32_t total = segments * kMss;
    uint32_t received = 0;
    Time done;
    Ptr<Socket> listener = make(nodes.Get(1));
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9000));
    listener->Listen();
    listener->SetAcceptCallback(
        MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
        MakeBoundCallback(
            +[](uint32_t* count, Time* at, uint32_t want, Ptr<Socket> s, const Address&)
            {
                s->SetRecvCallback(MakeBoundCallback(
                    +[](uint32_t* count, Time* at, uint32_t want, Ptr<Socket> r)
                    {
                        while (Ptr<Packet> p = r->Recv())
                        {
                            *count += p->GetSize();
                        }
                        if (*count >= want && at->IsZero())
                        {
                            *at = Simulator::Now();
                        }
                    },
                    count,
                    at,
                    want));
            },
            &received,
            &done,
            total));

    Ptr<Socket> sender = make(nodes.Get(0));
    Time start;
    sender->SetConnectCallback(MakeBoundCallback(
                                   +[](uint32_t bytes, Time* at, Ptr<Socket> s)
                                   {
                                       *at = Simulator::Now();
                                       s->Send(Create<Packet>(bytes));
                                   },
                                   total,
                                   &start),
                               MakeNullCallback<void, Ptr<Socket>>());
    sender->Bind();
    // Connect once the simulation runs (the nodes' traffic control starts then).
    const Address peer = InetSocketAddress(interfaces.GetAddress(1), 9000);
    Simulator::Schedule(Seconds(0), [sender, peer]() { sender->Connect(peer); });
    Simulator::Stop(Seconds(20));
    Simulator::Run();

    Transfer result;
    result.seconds = done.IsZero() ? 0 : (done - start).GetSeconds();
    result.dropped = dropper->GetDropped();
    if (Ptr<LinuxTcpSocket> s = DynamicCast<LinuxTcpSocket>(sender))
    {
        result.probes = s->GetProbeCount();
        result.rackRetransmits = s->GetRackRetransmitCount();
        result.timeouts = s->GetTimeoutCount();
    }
    Simulator::Destroy();
    return result;
}

TEST(LinuxTcp, TailLossProbeRepairsALostLastSegmentWithoutATimeout)
{
    // 20 segments, the last one lost once: nothing follows it to be SACKed.
    const Transfer ns3 = RunTransfer(false, 20, 19, 1);
    const Transfer lx = RunTransfer(true, 20, 19, 1);
    ASSERT_EQ(ns3.dropped, 1u);
    ASSERT_EQ(lx.dropped, 1u);
    // ns-3 waits for its 1 s retransmission timeout.
    EXPECT_GT(ns3.seconds, 1.0);
    // The probe (two RTTs plus the delayed-ACK allowance, about 0.25 s) repairs it.
    EXPECT_GT(lx.seconds, 0.0);
    EXPECT_LT(lx.seconds, 0.5);
    EXPECT_GE(lx.probes, 1u);
    EXPECT_EQ(lx.timeouts, 0u);
}

TEST(LinuxTcp, RackRetransmitsALostRetransmissionWithoutATimeout)
{
    // 60 segments; the 11th is lost, and so is its fast retransmission.
    const Transfer ns3 = RunTransfer(false, 60, 10, 2);
    const Transfer lx = RunTransfer(true, 60, 10, 2);
    ASSERT_EQ(ns3.dropped, 2u);
    ASSERT_EQ(lx.dropped, 2u);
    EXPECT_GT(ns3.seconds, 1.0);
    EXPECT_GT(lx.seconds, 0.0);
    EXPECT_LT(lx.seconds, 0.5);
    EXPECT_GE(lx.rackRetransmits, 1u);
    EXPECT_EQ(lx.timeouts, 0u);
}

TEST(LinuxTcp, LosslessTransferIsUntouched)
{
    // Without a loss both TCPs take the same time within a round trip (the receivers' ACKs
    // differ: Linux's quick ACKs at the start).
    const Transfer ns3 = RunTransfer(false, 60, 1000, 0);
    const Transfer lx = RunTransfer(true, 60, 1000, 0);
    EXPECT_GT(ns3.seconds, 0.0);
    EXPECT_NEAR(lx.seconds, ns3.seconds, 0.02);
    EXPECT_EQ(lx.rackRetransmits, 0u);
    EXPECT_EQ(lx.timeouts, 0u);
}

} // namespace
} // namespace ns3
