// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: CUBIC's congestion avoidance as the Linux kernel computes it, on ns-3's TcpCubic.
 */
#include "linux-cubic.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimLinuxCubic");

NS_OBJECT_ENSURE_REGISTERED(LinuxCubic);

TypeId
LinuxCubic::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LinuxCubic")
                            .SetParent<TcpCubic>()
                            .SetGroupName("Internet")
                            .AddConstructor<LinuxCubic>()
                            .AddAttribute("TcpFriendliness",
                                          "Grow at least as fast as Reno would have since the "
                                          "last loss (RFC 8312 sec. 4.2; on in Linux).",
                                          BooleanValue(true),
                                          MakeBooleanAccessor(&LinuxCubic::m_friendliness),
                                          MakeBooleanChecker());
    return tid;
}

LinuxCubic::LinuxCubic() = default;

LinuxCubic::LinuxCubic(const LinuxCubic& sock)
    : TcpCubic(sock), m_beta(sock.m_beta), m_cubicC(sock.m_cubicC),
      m_fastConvergence(sock.m_fastConvergence), m_friendliness(sock.m_friendliness),
      m_parametersRead(sock.m_parametersRead)
{}

std::string
LinuxCubic::GetName() const
{
    return "LinuxCubic";
}

Ptr<TcpCongestionOps>
LinuxCubic::Fork()
{
    return CopyObject<LinuxCubic>(this);
}

void
LinuxCubic::SetCwndLimited(bool limited, uint32_t maxPacketsOut)
{
    m_cwndLimited = limited;
    m_maxPacketsOut = maxPacketsOut;
}

void
LinuxCubic::SetLastSendTime(Time when)
{
    m_lastSend = when;
}

uint32_t
LinuxCubic::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    ReadParameters();
    // The same W_max as TcpCubic (which keeps its own privately), for the curve below.
    const uint32_t cwnd = tcb->GetCwndInSegments();
    m_lastMaxCwnd = cwnd < m_lastMaxCwnd && m_fastConvergence
                        ? static_cast<uint32_t>(cwnd * (1 + m_beta) / 2)
                        : cwnd;
    m_epochStart = Time::Min();
    return TcpCubic::GetSsThresh(tcb, bytesInFlight);
}

void
LinuxCubic::PktsAcked(Ptr<TcpSocketState> /* tcb */,
                      uint32_t /* segmentsAcked */,
                      const Time& /* rtt */)
{
    // ns-3 passes the smoothed RTT here; Linux's HyStart needs each ACK's sample, which
    // RttSample gets instead. TcpCubic's own HyStart does not run.
}

void
LinuxCubic::HystartReset(Ptr<const TcpSocketState> tcb)
{
    m_roundStart = Simulator::Now();
    m_lastAck = m_roundStart;
    m_endSeq = tcb->m_highTxMark;
    m_currRtt = Time::Max();
    m_sampleCount = 0;
}

void
LinuxCubic::RttSample(Ptr<TcpSocketState> tcb, const Time& rtt)
{
    ReadParameters();
    const Time now = Simulator::Now();
    // Linux discards the samples of the first second after a reduction (the queue drains).
    if (m_epochStart != Time::Min() && now - m_epochStart < Seconds(1))
    {
        return;
    }
    const Time delay = std::max(rtt, MicroSeconds(1));
    m_delayMin = std::min(m_delayMin, delay);
    if (!m_hystart || m_found || tcb->m_cWnd >= tcb->m_ssThresh
        || tcb->GetCwndInSegments() < m_hystartLowWindow)
    {
        return;
    }
    if (tcb->m_lastAckedSeq > m_endSeq)
    {
        HystartReset(tcb);
    }
    // An ACK train (ACKs no further apart than HyStartAckDelta) spanning half the minimum RTT
    // means the window fills the path.
    if (now - m_lastAck <= m_hystartAckDelta)
    {
        m_lastAck = now;
        if (now - m_roundStart > m_delayMin / 2)
        {
            m_found = true;
        }
    }
    // The round's smallest RTT grew by an eighth of the minimum (4 to 16 ms): a queue builds.
    m_currRtt = std::min(m_currRtt, delay);
    if (m_sampleCount < m_hystartMinSamples)
    {
        ++m_sampleCount;
    }
    else if (m_currRtt > m_delayMin + std::clamp(m_delayMin / 8, MilliSeconds(4), MilliSeconds(16)))
    {
        m_found = true;
    }
    if (m_found)
    {
        NS_LOG_INFO(this << " HyStart leaves slow start at cwnd " << tcb->GetCwndInSegments()
                         << " (round's RTT " << m_currRtt.As(Time::MS) << ", minimum "
                         << m_delayMin.As(Time::MS) << ", round began "
                         << (now - m_roundStart).As(Time::MS) << " ago)");
        tcb->m_ssThresh = tcb->m_cWnd;
    }
}

void
LinuxCubic::CongestionStateSet(Ptr<TcpSocketState> tcb,
                               const TcpSocketState::TcpCongState_t newState)
{
    TcpCubic::CongestionStateSet(tcb, newState);
    if (newState == TcpSocketState::CA_LOSS)
    {
        // As TcpCubic's reset after a timeout.
        m_epochStart = Time::Min();
        m_lastMaxCwnd = 0;
        m_originPoint = 0;
        m_k = 0;
        m_delayMin = Time::Max();
        m_found = false;
    }
}

void
LinuxCubic::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event)
{
    TcpCubic::CwndEvent(tcb, event);
    if (event == TcpSocketState::CA_EVENT_TX_START && m_epochStart != Time::Min()
        && m_lastSend != Time::Min())
    {
        // Linux: the application was idle; the curve waits for it (the epoch moves by the
        // idle time, never beyond now).
        const Time now = Simulator::Now();
        m_epochStart = std::min(now, m_epochStart + (now - m_lastSend));
    }
}

void
LinuxCubic::ReadParameters()
{
    if (m_parametersRead)
    {
        return;
    }
    // TcpCubic's attributes, which it keeps privately; read once they are set.
    DoubleValue beta;
    DoubleValue c;
    BooleanValue fastConvergence;
    GetAttribute("Beta", beta);
    GetAttribute("C", c);
    GetAttribute("FastConvergence", fastConvergence);
    m_beta = beta.Get();
    m_cubicC = c.Get();
    m_fastConvergence = fastConvergence.Get();
    BooleanValue hystart;
    UintegerValue lowWindow;
    UintegerValue minSamples;
    TimeValue ackDelta;
    GetAttribute("HyStart", hystart);
    GetAttribute("HyStartLowWindow", lowWindow);
    GetAttribute("HyStartMinSamples", minSamples);
    GetAttribute("HyStartAckDelta", ackDelta);
    m_hystart = hystart.Get();
    m_hystartLowWindow = static_cast<uint32_t>(lowWindow.Get());
    m_hystartMinSamples = static_cast<uint32_t>(minSamples.Get());
    m_hystartAckDelta = ackDelta.Get();
    m_parametersRead = true;
}

uint32_t
LinuxCubic::Update(uint32_t cwnd, uint32_t acked)
{
    ReadParameters();
    const Time now = Simulator::Now();
    m_ackCount += acked;
    if (m_epochStart == Time::Min())
    {
        m_epochStart = now;
        m_ackCount = acked;
        m_renoCwnd = cwnd;
        if (m_lastMaxCwnd <= cwnd)
        {
            m_k = 0;
            m_originPoint = cwnd;
        }
        else
        {
            m_k = std::cbrt((m_lastMaxCwnd - cwnd) / m_cubicC);
            m_originPoint = m_lastMaxCwnd;
        }
    }
    // Where the curve is one minimum RTT from now (Linux adds delay_min to t).
    double t = (now - m_epochStart).GetSeconds();
    if (m_delayMin != Time::Max())
    {
        t += m_delayMin.GetSeconds();
    }
    const double offset = std::abs(t - m_k);
    const double delta = m_cubicC * offset * offset * offset;
    const double target = t < m_k ? m_originPoint - delta : m_originPoint + delta;
    uint32_t cnt = target > cwnd ? static_cast<uint32_t>(cwnd / (target - cwnd)) : 100 * cwnd;
    if (m_lastMaxCwnd == 0)
    {
        cnt = std::min(cnt, 20U); // no loss yet: the curve's start is too timid (Linux)
    }
    if (m_friendliness)
    {
        // Reno with CUBIC's beta adds 3 (1 - beta) / (1 + beta) segments per RTT (RFC 8312
        // sec. 4.2): one per cwnd (1 + beta) / (3 (1 - beta)) ACKed segments, a factor Linux
        // keeps in eighths (15/8 for beta = 0.7).
        const auto betaScale = static_cast<uint32_t>(8 * (1 + m_beta) / (3 * (1 - m_beta)));
        const uint32_t perSegment = std::max(1U, (cwnd * betaScale) >> 3);
        while (m_ackCount > perSegment)
        {
            m_ackCount -= perSegment;
            ++m_renoCwnd;
        }
        if (m_renoCwnd > cwnd)
        {
            cnt = std::min(cnt, cwnd / (m_renoCwnd - cwnd));
        }
    }
    return std::max(cnt, 2U);
}

void
LinuxCubic::IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked)
{
    // Linux: a window the sender does not fill is not evidence for a larger one; slow start may
    // still reach twice the last flight (after a timeout the window restarts far below it).
    const bool slowStart = tcb->m_cWnd < tcb->m_ssThresh;
    if (!m_cwndLimited && !(slowStart && tcb->GetCwndInSegments() < 2 * m_maxPacketsOut))
    {
        return;
    }
    if (tcb->m_cWnd < tcb->m_ssThresh)
    {
        // Linux's tcp_slow_start: one segment per segment ACKed, up to ssthresh; what is left
        // goes to congestion avoidance.
        if (m_hystart && tcb->m_lastAckedSeq > m_endSeq)
        {
            HystartReset(tcb);
        }
        const uint32_t before = tcb->m_cWnd;
        const uint64_t grown = before + uint64_t(segmentsAcked) * tcb->m_segmentSize;
        tcb->m_cWnd = static_cast<uint32_t>(std::min<uint64_t>(grown, tcb->m_ssThresh));
        segmentsAcked -= std::min(segmentsAcked, (tcb->m_cWnd.Get() - before) / tcb->m_segmentSize);
        if (tcb->m_cWnd < tcb->m_ssThresh)
        {
            return;
        }
    }
    // Linux's tcp_cong_avoid_ai: one segment per cnt ACKed segments.
    const uint32_t cwnd = tcb->GetCwndInSegments();
    const uint32_t cnt = Update(cwnd, segmentsAcked);
    uint32_t grown = cwnd;
    if (m_cwndCount >= cnt)
    {
        m_cwndCount = 0;
        ++grown;
    }
    m_cwndCount += segmentsAcked;
    if (m_cwndCount >= cnt)
    {
        grown += m_cwndCount / cnt;
        m_cwndCount %= cnt;
    }
    tcb->m_cWnd = grown * tcb->m_segmentSize;
}

} // namespace ns3
