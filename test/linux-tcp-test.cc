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
#include <map>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

/// Drops the first `times` transmissions of each of `count` consecutive data segments, the
/// first of which starts at `firstByte` (relative to the first data byte), as they arrive at
/// the receiver's device.
class SegmentDropper : public ErrorModel
{
  public:
    SegmentDropper(uint32_t firstByte, uint32_t times, uint32_t count = 1)
        : m_firstByte(firstByte), m_times(times), m_count(count)
    {}

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
        const uint32_t offset = tcp.GetSequenceNumber().GetValue() - 1;
        if (offset < m_firstByte || offset >= m_firstByte + m_count * copy->GetSize())
        {
            return false;
        }
        if (m_seen[offset]++ < m_times)
        {
            ++m_dropped;
            return true;
        }
        return false;
    }

    void DoReset() override {}

    uint32_t m_firstByte;
    uint32_t m_times;
    uint32_t m_count;
    std::map<uint32_t, uint32_t> m_seen; //!< transmissions seen per segment
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
    uint32_t cwndBeforeAgain{0}; ///< the sender's window before the second message (bytes)
    uint32_t cwndAgain{0};       ///< and as it sends the second message
    uint32_t acks{0};            ///< packets the receiver sent (its SYN-ACK and ACKs)
};

constexpr uint32_t kMss = 1448;

/**
 * Send `segments` full segments from node 0 to node 1 and drop the first `times`
 * transmissions of segment `dropIndex` (0-based). Both ends use LinuxTcpSocket if `useLinux`,
 * else ns-3's TcpSocketBase; both with a 1 s minimum RTO and a 40 ms delayed ACK, so that only
 * the loss recovery differs. Linux's receiver grows its window (and ACKs each segment that
 * grows it) only if `receiveAutotuning`: without, how far the sender got when a loss strikes
 * does not depend on it.
 */
Transfer
RunTransfer(bool useLinux,
            uint32_t segments,
            uint32_t dropIndex,
            uint32_t times,
            uint32_t dropCount = 1,
            bool linuxPrr = true,
            uint32_t writes = 1,
            double againAfter = 0,
            bool receiveAutotuning = false)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    link.SetChannelAttribute("Delay", StringValue("10ms"));
    NetDeviceContainer devices = link.Install(nodes);
    Ptr<SegmentDropper> dropper = CreateObject<SegmentDropper>(dropIndex * kMss, times, dropCount);
    devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(dropper));
    uint32_t acks = 0;
    devices.Get(1)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeBoundCallback(
            +[](uint32_t* count, Ptr<const Packet>) { ++*count; }, &acks));
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    const auto make = [useLinux, linuxPrr, receiveAutotuning](Ptr<Node> node)
    {
        Config::SetDefault("ns3::LinuxTcpSocket::LinuxPrr", BooleanValue(linuxPrr));
        Ptr<Socket> socket = useLinux ? Ptr<Socket>(LinuxTcpSocket::Create(node))
                                      : Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        Config::SetDefault("ns3::LinuxTcpSocket::LinuxPrr", BooleanValue(true));
        if (useLinux)
        {
            socket->SetAttribute("ReceiveAutotuning", BooleanValue(receiveAutotuning));
        }
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
    // The message in `writes` pieces written at once, as a learner writes one; if againAfter,
    // the same message again that many seconds after the first write (the windows traced).
    const auto write = [total, writes](Ptr<Socket> s)
    {
        for (uint32_t i = 0; i < writes; ++i)
        {
            s->Send(Create<Packet>(total / writes + (i + 1 == writes ? total % writes : 0)));
        }
    };
    Time start;
    sender->SetConnectCallback(MakeBoundCallback(
                                   +[](decltype(write)* send, double again, Time* at, Ptr<Socket> s)
                                   {
                                       *at = Simulator::Now();
                                       (*send)(s);
                                       if (again > 0)
                                       {
                                           Simulator::Schedule(Seconds(again),
                                                               [send, s]() { (*send)(s); });
                                       }
                                   },
                                   &write,
                                   againAfter,
                                   &start),
                               MakeNullCallback<void, Ptr<Socket>>());
    std::vector<std::pair<Time, uint32_t>> windows;
    sender->TraceConnectWithoutContext(
        "CongestionWindow",
        MakeBoundCallback(
            +[](std::vector<std::pair<Time, uint32_t>>* log, uint32_t, uint32_t now)
            { log->emplace_back(Simulator::Now(), now); },
            &windows));
    sender->Bind();
    // Connect once the simulation runs (the nodes' traffic control starts then).
    const Address peer = InetSocketAddress(interfaces.GetAddress(1), 9000);
    Simulator::Schedule(Seconds(0), [sender, peer]() { sender->Connect(peer); });
    Simulator::Stop(Seconds(20));
    Simulator::Run();

    Transfer result;
    result.seconds = done.IsZero() ? 0 : (done - start).GetSeconds();
    // The window at the end of the instant the second message is written.
    const Time again = start + Seconds(againAfter);
    for (const auto& [at, cwnd] : windows)
    {
        if (againAfter > 0 && at < again)
        {
            result.cwndBeforeAgain = cwnd;
        }
        else if (againAfter > 0 && at == again)
        {
            result.cwndAgain = cwnd;
        }
    }
    result.dropped = dropper->GetDropped();
    result.acks = acks;
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

TEST(LinuxTcp, RecoveryRefillsAWindowThatLostMostOfItsSegments)
{
    // 100 segments; the last 70 are lost once (a queue overflow takes the whole tail), so the
    // tail loss probe's SACK finds nothing in flight. Linux's PRR lets the flight double per
    // round trip up to ssthresh while they are repaired; ns-3 3.37's PRR (unsigned arithmetic)
    // and a retransmission judged lost whenever new data sent in the same instant was SACKed
    // kept it at one or two segments: a round trip per lost segment.
    const Transfer lx = RunTransfer(true, 100, 30, 1, 40);
    const Transfer ns3Prr = RunTransfer(true, 100, 30, 1, 40, false);
    ASSERT_EQ(lx.dropped, 40u);
    ASSERT_EQ(ns3Prr.dropped, 40u);
    EXPECT_EQ(lx.timeouts, 0u);
    const Transfer clean = RunTransfer(true, 100, 1000, 0);
    // What the losses cost, in round trips of about 21 ms (measured: 0.176 s, about eight,
    // against 0.496 s, about twenty-four, with ns-3's PRR).
    EXPECT_GT(clean.seconds, 0.0);
    EXPECT_GT(lx.seconds, clean.seconds);
    EXPECT_LT(lx.seconds - clean.seconds, 10 * 0.021);
    EXPECT_GT(ns3Prr.seconds - clean.seconds, 20 * 0.021);
}

TEST(LinuxTcp, IdleLongerThanTheRtoHalvesTheWindowOnce)
{
    // 60 segments written in 6 pieces, and again 1.6 s later: about 1.45 s after the last
    // send, between one and two RTOs (1 s minimum RTO here). Linux halves the window once
    // (tcp_cwnd_restart: once per RTO of idle beyond the first). ns-3 sends a write one time
    // step later, so each piece found nothing in flight and halved it again, down to the
    // initial window.
    const Transfer lx = RunTransfer(true, 60, 1000, 0, 1, true, 6, 1.6);
    ASSERT_GT(lx.cwndBeforeAgain, 20 * kMss);
    EXPECT_EQ(lx.cwndAgain, lx.cwndBeforeAgain / 2);
}

TEST(LinuxTcp, SegmentsThatGrowTheReceiveWindowAreAcknowledgedAtOnce)
{
    // 100 segments. A receiver that only delays its ACKs sends its SYN-ACK, 16 quick ACKs and
    // one ACK per two of the other 84 segments: 59 packets. Linux's grows its window with the
    // buffer on a connection's first transfer, and acknowledges each segment that grows it
    // (its kernel ACKed 108 of the 129 ACKs of the comparison's first 232-segment transfer one
    // segment each): most of the 100 (93 packets here).
    const Transfer delayed = RunTransfer(true, 100, 1000, 0);
    const Transfer tuned = RunTransfer(true, 100, 1000, 0, 1, true, 1, 0, true);
    EXPECT_EQ(delayed.acks, 59u);
    EXPECT_GE(tuned.acks, 85u);
    EXPECT_LE(tuned.acks, 101u);
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
