// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: a TCP socket that recovers losses as the Linux kernel's TCP does (RACK-TLP, RFC 8985;
 * Linux's retransmission timeout and quick ACKs), on top of ns-3's own TcpSocketBase.
 */
#include "linux-tcp-socket.h"

#include "linux-cubic.h"
#include "linux-prr-recovery.h"
#include "linux-receive-window.h"
#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/rtt-estimator.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-option-sack.h"
#include "ns3/tcp-option-ts.h"
#include "ns3/tcp-prr-recovery.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimLinuxTcpSocket");

NS_OBJECT_ENSURE_REGISTERED(LinuxTcpSocket);

TypeId
LinuxTcpSocket::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LinuxTcpSocket")
              .SetParent<TcpSocketBase>()
              .SetGroupName("Internet")
              .AddConstructor<LinuxTcpSocket>()
              .AddAttribute("Rack",
                            "RACK time-based loss detection (RFC 8985 sec. 6).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&LinuxTcpSocket::m_rackEnabled),
                            MakeBooleanChecker())
              .AddAttribute("Tlp",
                            "Tail loss probes (RFC 8985 sec. 7).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&LinuxTcpSocket::m_tlpEnabled),
                            MakeBooleanChecker())
              .AddAttribute("QuickAcks",
                            "Segments acknowledged at once, without delay, when a connection's "
                            "data begins and after an idle gap longer than the RTO (Linux's "
                            "quick-ACK mode: 16); 0: off.",
                            UintegerValue(16),
                            MakeUintegerAccessor(&LinuxTcpSocket::m_quickAcks),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("ProbeAckDelay",
                            "Added to the probe timeout when one segment is outstanding, whose "
                            "ACK the receiver may delay (RFC 8985's WCDelAckT; Linux: 200 ms).",
                            TimeValue(MilliSeconds(200)),
                            MakeTimeAccessor(&LinuxTcpSocket::m_probeAckDelay),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ProbeSlack",
                            "Added to the probe timeout when more segments are outstanding "
                            "(Linux: two jiffies).",
                            TimeValue(MilliSeconds(2)),
                            MakeTimeAccessor(&LinuxTcpSocket::m_probeSlack),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("LinuxCubic",
                            "Where the TCP's congestion control is ns-3's TcpCubic, use "
                            "LinuxCubic (Linux's congestion avoidance: TCP-friendly region, idle "
                            "shift, growth only when window-limited) instead.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&LinuxTcpSocket::m_linuxCubic),
                            MakeBooleanChecker())
              .AddAttribute("LinuxPrr",
                            "Where the TCP's recovery is ns-3's TcpPrrRecovery, use "
                            "LinuxPrrRecovery (Linux's arithmetic, whose slow-start reduction "
                            "bound refills a window that lost most of its segments) instead.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&LinuxTcpSocket::m_linuxPrr),
                            MakeBooleanChecker())
              .AddAttribute("ReceiveAutotuning",
                            "Acknowledge at once every segment that grows Linux's receive "
                            "window (tcp_grow_window), the window following the receive buffer "
                            "that dynamic right-sizing sizes from ReceiveBuffer up to "
                            "ReceiveBufferMax.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&LinuxTcpSocket::m_receiveAutotuning),
                            MakeBooleanChecker())
              .AddAttribute("ReceiveBuffer",
                            "Initial receive buffer, bytes (Linux's tcp_rmem[1]).",
                            UintegerValue(131072),
                            MakeUintegerAccessor(&LinuxTcpSocket::m_receiveBuffer),
                            MakeUintegerChecker<uint32_t>(4096))
              .AddAttribute("ReceiveBufferMax",
                            "Largest receive buffer, bytes (Linux's tcp_rmem[2]).",
                            UintegerValue(6291456),
                            MakeUintegerAccessor(&LinuxTcpSocket::m_receiveBufferMax),
                            MakeUintegerChecker<uint32_t>(4096))
              .AddAttribute("ReceiveTruesize",
                            "Receive buffer a full-sized segment takes, bytes (Linux's skb "
                            "truesize, which depends on the network driver); 0: a power-of-two "
                            "buffer for the frame plus the sk_buff, 2304 bytes for a 1500-byte "
                            "packet.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&LinuxTcpSocket::m_receiveTruesize),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("SlowStartAfterIdle",
                            "Linux's tcp_slow_start_after_idle: new data after more than an RTO "
                            "without sending halves the window per RTO idle, down to the initial "
                            "window.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&LinuxTcpSocket::m_restartAfterIdle),
                            MakeBooleanChecker());
    return tid;
}

TypeId
LinuxTcpSocket::GetInstanceTypeId() const
{
    // TcpSocketBase returns its own TypeId here, which would hide this class's attributes.
    return GetTypeId();
}

LinuxTcpSocket::LinuxTcpSocket() = default;

LinuxTcpSocket::LinuxTcpSocket(const LinuxTcpSocket& sock)
    : TcpSocketBase(sock), m_rackEnabled(sock.m_rackEnabled), m_tlpEnabled(sock.m_tlpEnabled),
      m_quickAcks(sock.m_quickAcks), m_probeAckDelay(sock.m_probeAckDelay),
      m_probeSlack(sock.m_probeSlack), m_linuxCubic(sock.m_linuxCubic), m_linuxPrr(sock.m_linuxPrr),
      m_restartAfterIdle(sock.m_restartAfterIdle), m_receiveAutotuning(sock.m_receiveAutotuning),
      m_receiveBuffer(sock.m_receiveBuffer), m_receiveBufferMax(sock.m_receiveBufferMax),
      m_receiveTruesize(sock.m_receiveTruesize)
{
    // Only the configuration is copied: the accepted connection starts with no state.
}

LinuxTcpSocket::~LinuxTcpSocket()
{
    m_reorderEvent.Cancel();
    m_probeEvent.Cancel();
}

void
LinuxTcpSocket::DoDispose()
{
    m_reorderEvent.Cancel();
    m_probeEvent.Cancel();
    m_segments.clear();
    TcpSocketBase::DoDispose();
}

Ptr<LinuxTcpSocket>
LinuxTcpSocket::Create(Ptr<Node> node)
{
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(tcp, "LinuxTcpSocket::Create: node " << node->GetId() << " has no TCP");
    // The same parts TcpL4Protocol::CreateSocket gives its sockets, from its own attributes.
    TypeIdValue rttType;
    TypeIdValue congestionType;
    TypeIdValue recoveryType;
    tcp->GetAttribute("RttEstimatorType", rttType);
    tcp->GetAttribute("SocketType", congestionType);
    tcp->GetAttribute("RecoveryType", recoveryType);
    ObjectFactory factory;
    Ptr<LinuxTcpSocket> socket = CreateObject<LinuxTcpSocket>();
    socket->SetNode(node);
    socket->SetTcp(tcp);
    factory.SetTypeId(rttType.Get());
    socket->SetRtt(factory.Create<RttEstimator>());
    factory.SetTypeId(socket->m_linuxCubic && congestionType.Get() == TcpCubic::GetTypeId()
                          ? LinuxCubic::GetTypeId()
                          : congestionType.Get());
    socket->SetCongestionControlAlgorithm(factory.Create<TcpCongestionOps>());
    factory.SetTypeId(socket->m_linuxPrr && recoveryType.Get() == TcpPrrRecovery::GetTypeId()
                          ? LinuxPrrRecovery::GetTypeId()
                          : recoveryType.Get());
    socket->SetRecoveryAlgorithm(factory.Create<TcpRecoveryOps>());
    // Linux's first SYN timeout is TCP_TIMEOUT_INIT, 1 s (RFC 6298), doubled per retry;
    // ns-3's ConnTimeout is RFC 2988's 3 s.
    socket->SetAttribute("ConnTimeout", TimeValue(Seconds(1)));
    tcp->AddSocket(socket);
    return socket;
}

uint32_t
LinuxTcpSocket::GetProbeCount() const
{
    return m_probes;
}

uint32_t
LinuxTcpSocket::GetRackRetransmitCount() const
{
    return m_rackRetransmits;
}

uint32_t
LinuxTcpSocket::GetTimeoutCount() const
{
    return m_timeouts;
}

Ptr<TcpSocketBase>
LinuxTcpSocket::Fork()
{
    return CopyObject<LinuxTcpSocket>(this);
}

bool
LinuxTcpSocket::CanSendData() const
{
    return (m_endPoint != nullptr || m_endPoint6 != nullptr)
           && (m_state == ESTABLISHED || m_state == CLOSE_WAIT || m_state == FIN_WAIT_1
               || m_state == CLOSING || m_state == LAST_ACK);
}

// ---------------------------------------------------------------------------------------------
// Scoreboard

void
LinuxTcpSocket::Account(const Segment& segment, int sign)
{
    // Unsigned arithmetic wraps back exactly when a share is removed again.
    const uint32_t bytes = sign > 0 ? segment.size : -segment.size;
    const uint32_t one = sign > 0 ? 1 : -1;
    m_outBytes += bytes;
    if (segment.sacked)
    {
        m_sackedBytes += bytes;
        m_sackedCount += one;
    }
    else if (segment.retransmitted)
    {
        m_retransOut += one;
    }
    if (segment.lost)
    {
        m_lostBytes += bytes;
    }
}

size_t
LinuxTcpSocket::SplitAt(SequenceNumber32 seq)
{
    if (m_segments.empty() || seq <= m_segments.front().start)
    {
        return 0;
    }
    const Segment& last = m_segments.back();
    if (seq >= last.start + last.size)
    {
        return m_segments.size();
    }
    auto it = std::upper_bound(m_segments.begin(),
                               m_segments.end(),
                               seq,
                               [](SequenceNumber32 s, const Segment& segment)
                               { return s < segment.start; });
    const size_t index = static_cast<size_t>(it - m_segments.begin()) - 1;
    Segment& segment = m_segments[index];
    if (segment.start == seq)
    {
        return index;
    }
    Segment tail = segment;
    tail.start = seq;
    tail.size = segment.size - static_cast<uint32_t>(seq - segment.start);
    Account(segment, -1);
    segment.size -= tail.size;
    Account(segment, 1);
    Account(tail, 1);
    m_segments.insert(m_segments.begin() + static_cast<std::ptrdiff_t>(index) + 1, tail);
    return index + 1;
}

void
LinuxTcpSocket::RecordTransmission(SequenceNumber32 seq, uint32_t size, bool isNew)
{
    const Time now = Simulator::Now();
    if (isNew)
    {
        m_segments.push_back(Segment{seq, size, now, ++m_xmitCount, false, false, false});
        Account(m_segments.back(), 1);
        return;
    }
    // A retransmission: ns-3 may send it in other pieces than the first transmission (it merges
    // neighbours up to a segment), so the scoreboard takes over the range just sent.
    const size_t first = SplitAt(seq);
    const size_t end = SplitAt(seq + size);
    if (first >= end)
    {
        return; // no longer outstanding
    }
    for (size_t i = first; i < end; ++i)
    {
        Account(m_segments[i], -1);
    }
    m_segments.erase(m_segments.begin() + static_cast<std::ptrdiff_t>(first) + 1,
                     m_segments.begin() + static_cast<std::ptrdiff_t>(end));
    m_segments[first] = Segment{seq, size, now, ++m_xmitCount, true, false, false};
    Account(m_segments[first], 1);
}

void
LinuxTcpSocket::UpdateScoreboard(SequenceNumber32 ackNumber, const TcpHeader& tcpHeader)
{
    m_ackRttXmit = Time::Min();
    // Cumulatively acknowledged segments leave the scoreboard; those not SACKed before were
    // delivered by this ACK.
    while (!m_segments.empty())
    {
        Segment& head = m_segments.front();
        if (head.start + head.size <= ackNumber)
        {
            if (!head.sacked)
            {
                RackUpdate(head);
            }
            Account(head, -1);
            m_segments.pop_front();
        }
        else
        {
            if (head.start < ackNumber)
            {
                Account(head, -1);
                head.size -= static_cast<uint32_t>(ackNumber - head.start);
                head.start = ackNumber;
                Account(head, 1);
            }
            break;
        }
    }
    if (m_sackEnabled && tcpHeader.HasOption(TcpOption::SACK) && !m_segments.empty())
    {
        Ptr<const TcpOptionSack> sack
            = DynamicCast<const TcpOptionSack>(tcpHeader.GetOption(TcpOption::SACK));
        for (const auto& [left, right] : sack->GetSackList())
        {
            if (right <= ackNumber)
            {
                continue; // a D-SACK or an old block
            }
            // As ns-3's TcpTxBuffer, only segments wholly inside a block count as SACKed.
            auto it = std::lower_bound(m_segments.begin(),
                                       m_segments.end(),
                                       left,
                                       [](const Segment& segment, SequenceNumber32 s)
                                       { return segment.start < s; });
            for (; it != m_segments.end() && it->start + it->size <= right; ++it)
            {
                if (!it->sacked)
                {
                    RackUpdate(*it);
                    Account(*it, -1);
                    it->sacked = true;
                    it->lost = false;
                    Account(*it, 1);
                }
            }
        }
    }
    BytesInFlight(); // PRR and the congestion control read the traced copy
}

// ---------------------------------------------------------------------------------------------
// RACK (RFC 8985 sec. 6)

void
LinuxTcpSocket::RackUpdate(const Segment& segment)
{
    const Time rtt = Simulator::Now() - segment.xmitTs;
    // Sec. 6.2 step 2: an ACK of a retransmitted segment may be for its first transmission;
    // unless its timestamp echo shows it was sent for the retransmission (ns-3's timestamps
    // count milliseconds), one faster than the minimum RTT surely is and says nothing.
    if (segment.retransmitted)
    {
        const int64_t echo = AckEcho();
        const bool forRetransmission = echo >= 0 && echo >= segment.xmitTs.GetMilliSeconds();
        if (!forRetransmission && rtt < m_rackMinRtt)
        {
            NS_LOG_DEBUG(this << " ambiguous RTT " << rtt.As(Time::MS) << " of " << segment.start);
            return;
        }
    }
    else
    {
        m_rackMinRtt = std::min(m_rackMinRtt, rtt);
        if (segment.xmitTs >= m_ackRttXmit)
        {
            m_ackRtt = rtt;
            m_ackRttXmit = segment.xmitTs;
        }
    }
    m_rackRtt = rtt;
    const SequenceNumber32 end = segment.start + segment.size;
    // "Sent after" by the order of transmission, not RFC 8985's end_seq tie-break: Linux's
    // nanosecond send stamps tell apart two sends of one call, a simulation's do not, and ns-3
    // sends new data before this socket's retransmissions in the same instant; by sequence,
    // the new segment's SACK would mark the retransmission behind it lost, again and again.
    if (!m_rackValid || segment.xmitOrder > m_rackXmitOrder)
    {
        m_rackValid = true;
        m_rackXmitOrder = segment.xmitOrder;
        m_rackFromRetrans = segment.retransmitted;
    }
    // Sec. 6.2 step 3: an original transmission delivered below the highest delivered
    // sequence number was reordered by the network.
    if (end > m_rackFack)
    {
        m_rackFack = end;
    }
    else if (end < m_rackFack && !segment.retransmitted)
    {
        m_rackReordering = true;
    }
}

int64_t
LinuxTcpSocket::AckEcho() const
{
    if (m_ack == nullptr || !m_ack->HasOption(TcpOption::TS))
    {
        return -1;
    }
    return DynamicCast<const TcpOptionTS>(m_ack->GetOption(TcpOption::TS))->GetEcho();
}

Time
LinuxTcpSocket::ReorderWindow() const
{
    // Sec. 6.2 step 4: without reordering seen, a recovering sender, or one with DupThresh
    // segments SACKed, waits for no reordering at all (as the three-duplicate-ACK rule).
    if (!m_rackReordering)
    {
        const auto state = m_tcb->m_congState.Get();
        if (state == TcpSocketState::CA_RECOVERY || state == TcpSocketState::CA_LOSS
            || m_sackedCount >= m_retxThresh)
        {
            return Time(0);
        }
    }
    if (m_rackMinRtt == Time::Max())
    {
        return Time(0);
    }
    return std::min(m_rackMinRtt / 4, m_rtt->GetEstimate());
}

bool
LinuxTcpSocket::DetectLoss()
{
    // Without SACKed or retransmitted segments outstanding, every outstanding segment was sent
    // after the last one delivered, so none can be judged lost: skip the walk.
    if (!m_rackValid || (m_sackedCount == 0 && m_retransOut == 0 && !m_rackFromRetrans))
    {
        return false;
    }
    const Time now = Simulator::Now();
    const Time reorderWindow = ReorderWindow();
    Time timeout(0);
    bool newlyLost = false;
    for (Segment& segment : m_segments)
    {
        if (segment.sacked || segment.lost)
        {
            continue;
        }
        if (segment.xmitOrder >= m_rackXmitOrder)
        {
            if (!segment.retransmitted)
            {
                // First transmissions go out in sequence order, and a retransmission only
                // after its first transmission: everything above was sent later still.
                break;
            }
            continue; // sent after the RACK segment: nothing known yet
        }
        const Time remaining = segment.xmitTs + m_rackRtt + reorderWindow - now;
        if (remaining <= Time(0))
        {
            Account(segment, -1);
            segment.lost = true;
            Account(segment, 1);
            newlyLost = true;
        }
        else
        {
            timeout = std::max(timeout, remaining);
        }
    }
    if (timeout.IsStrictlyPositive())
    {
        // Sec. 6.3: look again when the last of them may be declared lost. A timer due
        // earlier stays (it looks again and re-arms): no cancel and schedule per ACK.
        const uint64_t due = (now + timeout).GetTimeStep();
        if (!m_reorderEvent.IsRunning() || m_reorderEvent.GetTs() > due)
        {
            m_reorderEvent.Cancel();
            m_reorderEvent = Simulator::Schedule(timeout, &LinuxTcpSocket::ReorderTimeout, this);
        }
    }
    if (newlyLost)
    {
        BytesInFlight();
    }
    return newlyLost;
}

void
LinuxTcpSocket::RecoverLosses(uint32_t currentDelivered)
{
    if (m_lostBytes == 0 || !CanSendData())
    {
        return;
    }
    const auto state = m_tcb->m_congState.Get();
    if (state == TcpSocketState::CA_OPEN || state == TcpSocketState::CA_DISORDER
        || state == TcpSocketState::CA_CWR)
    {
        NS_LOG_INFO(this << " RACK enters recovery, lost bytes " << m_lostBytes);
        // ns-3's fast recovery: the congestion control's decrease, PRR, and a retransmission of
        // the first lost segment (the head, which ns-3 marks lost).
        EnterRecovery(currentDelivered);
    }
    // The rest RACK found lost, lowest first, as far as the window (PRR's in recovery) allows;
    // ns-3's own SendPendingData follows with new data.
    for (size_t i = 0; i < m_segments.size() && m_lostBytes > 0; ++i)
    {
        if (!m_segments[i].lost)
        {
            continue;
        }
        // Copies: sending rewrites the scoreboard.
        const SequenceNumber32 start = m_segments[i].start;
        const uint32_t size = m_segments[i].size;
        if (BytesInFlight() + size > m_tcb->m_cWnd.Get() || SendDataPacket(start, size, true) == 0)
        {
            break;
        }
        ++m_rackRetransmits;
        NS_LOG_INFO(this << " RACK retransmits " << start << " in flight " << BytesInFlight()
                         << " cwnd " << m_tcb->m_cWnd);
    }
}

void
LinuxTcpSocket::ReorderTimeout()
{
    NS_LOG_FUNCTION(this);
    if (!CanSendData())
    {
        return;
    }
    if (DetectLoss() || m_lostBytes > 0)
    {
        RecoverLosses(0);
        SendPendingData(m_connected);
        ArmProbeIfDue();
    }
}

// ---------------------------------------------------------------------------------------------
// Tail loss probes (RFC 8985 sec. 7)

void
LinuxTcpSocket::ArmProbe()
{
    if (!m_tlpEnabled)
    {
        return;
    }
    const auto state = m_tcb->m_congState.Get();
    // Sec. 7.2, as Linux: one probe at a time, only in the open (or CWR) state, where no
    // loss is known; SACK makes the probe's ACK useful.
    if (m_probeOutstanding || m_segments.empty() || !m_sackEnabled
        || (state != TcpSocketState::CA_OPEN && state != TcpSocketState::CA_CWR) || !CanSendData())
    {
        m_probeArmed = false;
        return;
    }
    Time pto = Seconds(1);
    if (m_rtt->GetNSamples() > 0)
    {
        // One outstanding segment's ACK may be delayed by the receiver: wait for that too.
        pto = 2 * m_rtt->GetEstimate() + (m_segments.size() == 1 ? m_probeAckDelay : m_probeSlack);
    }
    if (m_retxEvent.IsRunning())
    {
        pto = std::min(pto, RtoDeadline() - Simulator::Now());
    }
    m_probeArmed = true;
    m_probeDeadline = Simulator::Now() + pto;
    // The timer is lazy: while it fires no later than the deadline it stays, and looks again
    // then; this spares a cancel and a schedule per segment sent.
    if (!m_probeEvent.IsRunning()
        || m_probeEvent.GetTs() > static_cast<uint64_t>(m_probeDeadline.GetTimeStep()))
    {
        m_probeEvent.Cancel();
        m_probeEvent = Simulator::Schedule(pto, &LinuxTcpSocket::ProbeTimeout, this);
    }
}

void
LinuxTcpSocket::ProbeTimeout()
{
    if (!m_probeArmed)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (now < m_probeDeadline)
    {
        m_probeEvent
            = Simulator::Schedule(m_probeDeadline - now, &LinuxTcpSocket::ProbeTimeout, this);
        return;
    }
    m_probeArmed = false;
    SendProbe();
}

void
LinuxTcpSocket::SendProbe()
{
    NS_LOG_FUNCTION(this);
    if (!CanSendData() || m_segments.empty())
    {
        return;
    }
    const uint32_t mss = m_tcb->m_segmentSize;
    const SequenceNumber32 high = m_tcb->m_highTxMark;
    const uint32_t unsent = m_txBuffer->SizeFromSequence(high);
    const uint32_t newBytes = std::min(mss, unsent);
    bool sentNew = false;
    // Sec. 7.3: new data if the receiver's window allows (regardless of the congestion window:
    // the probe replaces a segment presumed lost) ...
    if (newBytes > 0 && high + newBytes <= m_txBuffer->HeadSequence() + m_rWnd.Get())
    {
        const uint32_t sent = SendDataPacket(high, newBytes, m_connected);
        m_tcb->m_nextTxSequence = std::max(m_tcb->m_nextTxSequence.Get(), high + sent);
        sentNew = sent > 0;
    }
    // ... else the last segment sent, again (never a SACKed one: its ACK would say nothing).
    if (!sentNew)
    {
        const Segment& last = m_segments.back();
        if (last.sacked)
        {
            return;
        }
        SendDataPacket(last.start, last.size, true);
    }
    ++m_probes;
    NS_LOG_INFO(this << " probe " << (sentNew ? "new" : "retransmission") << " high "
                     << m_tcb->m_highTxMark << " una " << m_txBuffer->HeadSequence());
    m_probeOutstanding = true;
    m_probeEndSeq = m_tcb->m_highTxMark;
    m_probeRetransmitted = !sentNew;
    // The retransmission timeout restarts from the probe.
    m_retxEvent.Cancel();
    m_retxEvent = Simulator::Schedule(m_rto, &LinuxTcpSocket::ReTxTimeout, this);
}

void
LinuxTcpSocket::ProcessProbeAck(SequenceNumber32 ackNumber)
{
    if (!m_probeOutstanding || ackNumber < m_probeEndSeq)
    {
        return;
    }
    if (!m_probeRetransmitted)
    {
        m_probeOutstanding = false; // new data probed and acknowledged: no loss to answer
        return;
    }
    if (ackNumber > m_probeEndSeq)
    {
        // Sec. 7.4.2, as Linux: no sign (D-SACK) that the original arrived, so the probe
        // repaired a loss, which the congestion control answers as any other loss, once.
        m_probeOutstanding = false;
        if (m_tcb->m_congState == TcpSocketState::CA_OPEN)
        {
            m_tcb->m_ssThresh = m_congestionControl->GetSsThresh(m_tcb, BytesInFlight());
            m_tcb->m_cWnd = std::min(m_tcb->m_cWnd.Get(), m_tcb->m_ssThresh.Get());
            m_tcb->m_cWndInfl = m_tcb->m_cWnd;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ns-3 hooks

uint32_t
LinuxTcpSocket::SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck)
{
    const bool isNew = seq >= m_tcb->m_highTxMark.Get();
    const uint32_t size = TcpSocketBase::SendDataPacket(seq, maxSize, withAck);
    if (size > 0)
    {
        RecordTransmission(seq, size, isNew);
        m_lastSend = Simulator::Now();
        if (LinuxCubic* cubic = GetLinuxCubic())
        {
            cubic->SetLastSendTime(m_lastSend);
        }
        if (isNew)
        {
            ValidateCwnd();
            m_rearmProbe = true; // sec. 7.2: after new data (once the burst is out)
        }
    }
    return size;
}

void
LinuxTcpSocket::ArmProbeIfDue()
{
    // The probe timer is (re)armed once after an ACK or a write, not per segment of a burst:
    // its deadline only depends on the state after the burst.
    if (m_rearmProbe)
    {
        m_rearmProbe = false;
        ArmProbe();
    }
}

void
LinuxTcpSocket::ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    m_ack = &tcpHeader;
    TcpSocketBase::ReceivedAck(packet, tcpHeader);
    m_ack = nullptr;
    ArmProbeIfDue();
}

void
LinuxTcpSocket::ProcessAck(const SequenceNumber32& ackNumber,
                           bool scoreboardUpdated,
                           uint32_t currentDelivered,
                           const SequenceNumber32& oldHeadSequence)
{
    if (m_ack != nullptr)
    {
        UpdateScoreboard(ackNumber, *m_ack);
        if (LinuxCubic* cubic = GetLinuxCubic(); cubic != nullptr && m_ackRttXmit != Time::Min())
        {
            cubic->RttSample(m_tcb, m_ackRtt);
        }
    }
    // RACK marks its losses before ns-3 counts duplicate ACKs, so that a recovery ns-3 enters
    // on three of them starts from Linux's count of the bytes in flight.
    const bool newlyLost = m_rackEnabled && DetectLoss();
    // ns-3's PRR adds a segment to its slow-start reduction bound when this flag is set (ns-3
    // sets it when the ACK covers a retransmission); Linux adds it whenever SND.UNA advances
    // and nothing was newly lost, which lets a recovery that lost most of its window grow back
    // in slow start instead of one segment per round trip.
    m_tcb->m_isRetransDataAcked = ackNumber > oldHeadSequence && !newlyLost;
    TcpSocketBase::ProcessAck(ackNumber, scoreboardUpdated, currentDelivered, oldHeadSequence);
    ProcessProbeAck(ackNumber);
    if (m_rackEnabled)
    {
        RecoverLosses(currentDelivered);
    }
    if (ackNumber > oldHeadSequence)
    {
        m_rearmProbe = true; // sec. 7.2: after an ACK of new data
    }
    else if (m_tcb->m_congState != TcpSocketState::CA_OPEN
             && m_tcb->m_congState != TcpSocketState::CA_CWR)
    {
        m_probeArmed = false;
    }
}

void
LinuxTcpSocket::ReTxTimeout()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    if (m_retxEvent.GetUid() == m_rtoDeadlineUid && now < m_rtoDeadline)
    {
        // The lazy timer (RestartRto) fired before its deadline: it looks again then.
        m_retxEvent = Simulator::Schedule(m_rtoDeadline - now, &LinuxTcpSocket::ReTxTimeout, this);
        m_rtoDeadlineUid = m_retxEvent.GetUid();
        return;
    }
    if (m_probeArmed && CanSendData() && !m_segments.empty())
    {
        // Linux keeps the probe and the retransmission timeout in one timer: a probe that is
        // due replaces the timeout (its deadline never lies beyond it).
        m_probeArmed = false;
        m_probeEvent.Cancel();
        SendProbe();
        return;
    }
    m_probeArmed = false;
    if (CanSendData() && !m_segments.empty())
    {
        ++m_timeouts;
        NS_LOG_INFO(this << " RTO " << m_rto.Get().As(Time::MS) << " una "
                         << m_txBuffer->HeadSequence() << " segments " << m_segments.size()
                         << " lost bytes " << m_lostBytes << " state "
                         << TcpSocketState::TcpCongStateName[m_tcb->m_congState]);
        // Sec. 6.3 and ns-3 alike: after a timeout every segment not SACKed counts as lost (ns-3
        // marks its own scoreboard the same way in ReTxTimeout).
        for (Segment& segment : m_segments)
        {
            if (!segment.sacked && !segment.lost)
            {
                Account(segment, -1);
                segment.lost = true;
                Account(segment, 1);
            }
        }
        m_reorderEvent.Cancel();
        m_probeOutstanding = false;
        BytesInFlight();
    }
    // Linux lowers ssthresh on a timeout only if it was not already lowered for the losses
    // being recovered (tcp_enter_loss); ns-3 lowers it again.
    const bool recovering = m_tcb->m_congState == TcpSocketState::CA_RECOVERY
                            && m_recover > m_txBuffer->HeadSequence();
    const uint32_t ssThresh = m_tcb->m_ssThresh;
    TcpSocketBase::ReTxTimeout();
    if (recovering)
    {
        m_tcb->m_ssThresh = ssThresh;
    }
}

uint32_t
LinuxTcpSocket::BytesInFlight() const
{
    // Linux's count (RFC 6675's pipe with RACK's losses): sent, less SACKed, less lost and not
    // retransmitted since.
    const uint32_t inFlight = m_outBytes - m_sackedBytes - m_lostBytes;
    m_tcb->m_bytesInFlight = inFlight;
    return inFlight;
}

uint32_t
LinuxTcpSocket::AvailableWindow() const
{
    const uint32_t window = TcpSocketBase::AvailableWindow();
    if (window == 0 || !m_rackEnabled || m_tcb->m_congState != TcpSocketState::CA_RECOVERY)
    {
        return window;
    }
    // In recovery, once no new data is left, ns-3 retransmits unSACKed segments that nothing
    // judged lost (RFC 6675 NextSeg rules 3 and 4); Linux retransmits only what RACK (or ns-3's
    // own duplicate-ACK count) marked lost. Those segments are still in flight: resent, they
    // take the bottleneck from other flows (measured: 22 needless segments per loss at the end
    // of a message on a shared 10 Mbit/s uplink). The window stays closed for them.
    // While unsent data is left NextSeg never reaches those rules: no walk of the sent list
    // for every segment sent in recovery.
    if (m_txBuffer->SizeFromSequence(m_tcb->m_highTxMark) > 0)
    {
        return window;
    }
    SequenceNumber32 next;
    SequenceNumber32 high;
    if (!m_txBuffer->NextSeg(&next, &high, true) || next >= m_tcb->m_highTxMark
        || m_txBuffer->IsLost(next) || IsMarkedLost(next))
    {
        return window;
    }
    return 0;
}

bool
LinuxTcpSocket::IsMarkedLost(SequenceNumber32 seq) const
{
    auto it = std::upper_bound(m_segments.begin(),
                               m_segments.end(),
                               seq,
                               [](SequenceNumber32 s, const Segment& segment)
                               { return s < segment.start; });
    if (it == m_segments.begin())
    {
        return false;
    }
    --it;
    return seq < it->start + it->size && it->lost;
}

LinuxCubic*
LinuxTcpSocket::GetLinuxCubic()
{
    // Looked up again only when the congestion control was replaced (a cast per packet shows
    // in the simulation's cost).
    if (PeekPointer(m_congestionControl) != m_cubicOf)
    {
        m_cubicOf = PeekPointer(m_congestionControl);
        m_cubic = dynamic_cast<LinuxCubic*>(m_cubicOf);
    }
    return m_cubic;
}

void
LinuxTcpSocket::ValidateCwnd()
{
    // Linux holds the strongest signal for a window of data: limited once the flight reached
    // the window, until everything sent by then is ACKed; likewise the largest flight.
    const bool limited = BytesInFlight() >= m_tcb->m_cWnd.Get();
    if (m_txBuffer->HeadSequence() >= m_cwndUsageSeq || (limited && !m_cwndLimited))
    {
        m_cwndLimited = limited;
        m_cwndUsageSeq = m_tcb->m_highTxMark;
    }
    const auto packetsOut = static_cast<uint32_t>(m_segments.size());
    if (m_txBuffer->HeadSequence() >= m_maxPacketsSeq || packetsOut > m_maxPacketsOut)
    {
        m_maxPacketsOut = packetsOut;
        m_maxPacketsSeq = m_tcb->m_highTxMark;
    }
    if (LinuxCubic* cubic = GetLinuxCubic())
    {
        cubic->SetCwndLimited(m_cwndLimited, m_maxPacketsOut);
    }
}

int
LinuxTcpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    // Linux's slow start after idle (tcp_cwnd_restart): the path may have changed while the
    // application sent nothing for longer than an RTO, so the window halves per RTO idle, down
    // to the initial window, and ssthresh keeps three quarters of the old window.
    // Once per idle period: ns-3 transmits a write one time step later, so the writes of one
    // instant all find nothing in flight (Linux transmits the first at once, which ends it).
    if (m_restartAfterIdle && m_segments.empty() && m_lastSend != Time::Min()
        && m_lastSend != m_idleRestarted && m_tcb->m_congState == TcpSocketState::CA_OPEN)
    {
        m_idleRestarted = m_lastSend;
        Time idle = Simulator::Now() - m_lastSend;
        const uint32_t restart
            = std::min(GetInitialCwnd() * m_tcb->m_segmentSize, m_tcb->m_cWnd.Get());
        if (idle > m_rto.Get())
        {
            uint32_t cwnd = m_tcb->m_cWnd;
            m_tcb->m_ssThresh = std::max(m_tcb->m_ssThresh.Get(), cwnd / 4 * 3);
            while ((idle -= m_rto.Get()).IsStrictlyPositive() && cwnd > restart)
            {
                cwnd /= 2;
            }
            NS_LOG_INFO(this << " idle " << (Simulator::Now() - m_lastSend).As(Time::MS) << " (RTO "
                             << m_rto.Get().As(Time::MS) << ") restarts cwnd " << m_tcb->m_cWnd
                             << " as " << std::max(cwnd, restart) << " ssthresh "
                             << m_tcb->m_ssThresh);
            m_tcb->m_cWnd = std::max(cwnd, restart);
            m_tcb->m_cWndInfl = m_tcb->m_cWnd;
        }
    }
    const int sent = TcpSocketBase::Send(p, flags);
    ArmProbeIfDue();
    return sent;
}

Time
LinuxTcpSocket::LinuxRtoFloor() const
{
    // Linux bounds the RTT variation term, not the timeout, by rto_min: RTO = SRTT +
    // max(4 * RTTVAR, rto_min). Before the first sample it is the plain minimum.
    if (m_rtt->GetNSamples() == 0)
    {
        return m_minRto;
    }
    return m_rtt->GetEstimate() + m_minRto;
}

void
LinuxTcpSocket::SendEmptyPacket(uint8_t flags)
{
    if ((flags & TcpHeader::SYN) != 0)
    {
        m_synSent = Simulator::Now();
        ++m_synsSent;
    }
    TcpSocketBase::SendEmptyPacket(flags);
}

void
LinuxTcpSocket::EstimateRtt(const TcpHeader& tcpHeader)
{
    if (m_synSent != Time::Min())
    {
        if (m_synsSent == 1)
        {
            m_rackMinRtt = std::min(m_rackMinRtt, Simulator::Now() - m_synSent);
        }
        m_synSent = Time::Min();
    }
    const uint32_t samples = m_rtt->GetNSamples();
    TcpSocketBase::EstimateRtt(tcpHeader);
    if (m_rtt->GetNSamples() != samples)
    {
        m_rto = std::max(m_rto.Get(), LinuxRtoFloor());
    }
}

void
LinuxTcpSocket::NewAck(const SequenceNumber32& seq, bool /* resetRTO */)
{
    // ns-3's formula, max(SRTT + 4 * RTTVAR, MinRto), with the floor raised to SRTT + MinRto,
    // is Linux's (ns-3's granularity term kept). Linux also restarts the timer on every
    // ACK of new data (RFC 6298 sec. 5.3), where ns-3 restarts it on only the first partial
    // ACK of a recovery (RFC 6582): a recovery of many segments over a long path then ends
    // in a timeout in the middle, and a go-back-N resend of the rest.
    if (m_state != SYN_RCVD)
    {
        m_rto = Max(m_rtt->GetEstimate() + Max(m_clockGranularity, m_rtt->GetVariation() * 4),
                    LinuxRtoFloor());
        RestartRto();
    }
    TcpSocketBase::NewAck(seq, false);
}

void
LinuxTcpSocket::RestartRto()
{
    // A cancel and a schedule per ACK would leave one dead event per ACK in ns-3's scheduler
    // (7% more events on a shared uplink); the timer is lazy instead, as the probe's: while it
    // fires no later than the new deadline it stays, and looks again when it fires.
    const Time deadline = Simulator::Now() + m_rto;
    if (!m_retxEvent.IsRunning()
        || m_retxEvent.GetTs() > static_cast<uint64_t>(deadline.GetTimeStep()))
    {
        m_retxEvent.Cancel();
        m_retxEvent = Simulator::Schedule(m_rto, &LinuxTcpSocket::ReTxTimeout, this);
    }
    m_rtoDeadline = deadline;
    m_rtoDeadlineUid = m_retxEvent.GetUid();
}

Time
LinuxTcpSocket::RtoDeadline() const
{
    if (!m_retxEvent.IsRunning())
    {
        return Time::Max();
    }
    // ns-3's own code schedules the timer too (the first segment after an idle period): then
    // the event's time is the deadline.
    if (m_retxEvent.GetUid() == m_rtoDeadlineUid)
    {
        return m_rtoDeadline;
    }
    return TimeStep(m_retxEvent.GetTs());
}

void
LinuxTcpSocket::ReceivedData(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    const uint32_t size = packet->GetSize();
    const Time now = Simulator::Now();
    const SequenceNumber32 expected = m_tcb->m_rxBuffer->NextRxSequence();
    bool windowGrew = false;
    if (size > 0 && m_receiveAutotuning && tcpHeader.GetSequenceNumber() == expected)
    {
        if (!m_rcvWindow.Started())
        {
            m_rcvWindow.Start({m_receiveBuffer, m_receiveBufferMax, m_receiveTruesize},
                              now,
                              m_tcb->m_segmentSize);
        }
        int64_t echo = -1;
        if (tcpHeader.HasOption(TcpOption::TS))
        {
            echo = DynamicCast<const TcpOptionTS>(tcpHeader.GetOption(TcpOption::TS))->GetEcho();
        }
        windowGrew = m_rcvWindow.Receive(now, size, echo);
    }
    if (size > 0 && m_delAckMaxCount > 0)
    {
        // Linux's quick-ACK mode: the sender's window is small when a connection starts and
        // after an idle period (it restarts slow start), so delayed ACKs would slow it down;
        // and a segment that grew the receive window is acknowledged at once (its quick |= 1),
        // so that the sender learns of the larger window.
        if (m_quickAcks > 0 && (m_lastDataRx == Time::Min() || now - m_lastDataRx > m_rto.Get()))
        {
            m_quickAcksLeft = m_quickAcks;
        }
        m_lastDataRx = now;
        if (windowGrew)
        {
            m_quickAcksLeft |= 1;
        }
        if (m_quickAcksLeft > 0)
        {
            --m_quickAcksLeft;
            m_delAckCount = m_delAckMaxCount - 1; // the next in-order segment is ACKed at once
        }
    }
    TcpSocketBase::ReceivedData(packet, tcpHeader);
    if (m_rcvWindow.Started())
    {
        // The application reads what arrives in order before the next segment (ns-3 calls it
        // back from ReceivedData): dynamic right-sizing counts what it read.
        m_rxDelivered += static_cast<uint32_t>(m_tcb->m_rxBuffer->NextRxSequence() - expected);
        m_rcvWindow.Read(now, m_rxDelivered - m_tcb->m_rxBuffer->Available());
    }
}

} // namespace ns3
