// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: proportional rate reduction (RFC 6937) as the Linux kernel computes it.
 */
#include "linux-prr-recovery.h"

#include "ns3/log.h"
#include "ns3/tcp-socket-state.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimLinuxPrrRecovery");
NS_OBJECT_ENSURE_REGISTERED(LinuxPrrRecovery);

TypeId
LinuxPrrRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LinuxPrrRecovery")
                            .SetParent<TcpRecoveryOps>()
                            .SetGroupName("Internet")
                            .AddConstructor<LinuxPrrRecovery>();
    return tid;
}

LinuxPrrRecovery::LinuxPrrRecovery(const LinuxPrrRecovery& recovery) : TcpRecoveryOps(recovery)
{
    // A forked socket starts outside recovery: nothing of the counters carries over.
}

std::string
LinuxPrrRecovery::GetName() const
{
    return "LinuxPrrRecovery";
}

void
LinuxPrrRecovery::EnterRecovery(Ptr<TcpSocketState> tcb,
                                uint32_t /* dupAckCount */,
                                uint32_t /* unAckDataCount */,
                                uint32_t deliveredBytes)
{
    NS_LOG_FUNCTION(this << tcb << deliveredBytes);
    // ns-3 has set the new ssthresh and not yet touched the window (tcp_init_cwnd_reduction).
    m_prrDelivered = 0;
    m_prrOut = 0;
    m_priorCwnd = std::max<int64_t>(tcb->m_cWnd.Get(), tcb->m_segmentSize);
    DoRecovery(tcb, deliveredBytes);
}

void
LinuxPrrRecovery::DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes)
{
    NS_LOG_FUNCTION(this << tcb << deliveredBytes);
    const int64_t mss = tcb->m_segmentSize;
    if (deliveredBytes == 0 && m_prrOut > 0)
    {
        return;
    }
    m_prrDelivered += deliveredBytes;
    const int64_t inFlight = tcb->m_bytesInFlight.Get();
    const int64_t ssthresh = tcb->m_ssThresh.Get();
    const int64_t delta = ssthresh - inFlight;
    int64_t sendCount;
    if (delta < 0)
    {
        // RFC 6937's proportional part: ssthresh/prior_cwnd of what was delivered, rounded up.
        sendCount = (ssthresh * m_prrDelivered + m_priorCwnd - 1) / m_priorCwnd - m_prrOut;
    }
    else
    {
        // The slow-start reduction bound: as in slow start, what was delivered and a segment
        // more, up to ssthresh.
        sendCount = std::max<int64_t>(m_prrDelivered - m_prrOut, deliveredBytes);
        if (tcb->m_isRetransDataAcked)
        {
            sendCount += mss;
        }
        sendCount = std::min(delta, sendCount);
    }
    // The retransmission that opens the recovery always goes out.
    sendCount = std::max<int64_t>(sendCount, m_prrOut > 0 ? 0 : mss);
    tcb->m_cWnd = static_cast<uint32_t>(std::max<int64_t>(inFlight + sendCount, 0));
    NS_LOG_DEBUG("delivered " << deliveredBytes << " prr_delivered " << m_prrDelivered
                              << " prr_out " << m_prrOut << " in flight " << inFlight
                              << " ssthresh " << ssthresh << " cwnd " << tcb->m_cWnd);
    tcb->m_cWndInfl = tcb->m_cWnd;
}

void
LinuxPrrRecovery::ExitRecovery(Ptr<TcpSocketState> tcb)
{
    NS_LOG_FUNCTION(this << tcb);
    tcb->m_cWndInfl = tcb->m_cWnd;
}

void
LinuxPrrRecovery::UpdateBytesSent(uint32_t bytesSent)
{
    m_prrOut += bytesSent;
}

Ptr<TcpRecoveryOps>
LinuxPrrRecovery::Fork()
{
    return CopyObject<LinuxPrrRecovery>(this);
}

} // namespace ns3
