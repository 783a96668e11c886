// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: proportional rate reduction (RFC 6937) as the Linux kernel computes it.
 */
#ifndef DLSIM_LINUX_PRR_RECOVERY_H
#define DLSIM_LINUX_PRR_RECOVERY_H

#include "ns3/tcp-recovery-ops.h"

namespace ns3
{

/**
 * \brief PRR with Linux's arithmetic (tcp_cwnd_reduction): what LinuxTcpSocket recovers with
 * where the TCP's recovery is ns-3's TcpPrrRecovery.
 *
 * ns-3 3.37's TcpPrrRecovery computes the slow-start reduction bound, max(prr_delivered -
 * prr_out, delivered) + one segment, in unsigned arithmetic: once more was sent in recovery
 * than delivered (every recovery that retransmits ahead of the ACKs), the difference wraps and
 * the bound becomes zero or negative, so that every other ACK sends nothing. A recovery that
 * lost most of its window then refills it at one segment per round trip (measured: 32 lost
 * segments took 4 s on a 10 Mbit/s access link) where Linux doubles the flight per round trip
 * up to ssthresh. This class computes the same bound with signed numbers, as Linux does, and
 * takes the proportional part against the window at the start of recovery (Linux's prior_cwnd)
 * rather than the bytes outstanding. When an ACK delivers nothing the window stays (Linux
 * returns early), except for the retransmission that opens the recovery. The +1 segment is
 * granted when the socket sets TcpSocketState::m_isRetransDataAcked (LinuxTcpSocket: SND.UNA
 * advanced and nothing was newly marked lost, Linux's condition).
 */
class LinuxPrrRecovery : public TcpRecoveryOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Not recovering.
    LinuxPrrRecovery() = default;
    /**
     * \brief Copy constructor.
     * \param recovery the object to copy
     */
    LinuxPrrRecovery(const LinuxPrrRecovery& recovery);

    /**
     * \name TcpRecoveryOps's hooks
     * PRR as the class describes it; the parameters are TcpRecoveryOps's.
     * @{
     */
    /// \return "LinuxPrrRecovery"
    std::string GetName() const override;
    /**
     * \brief Start a recovery: remember the window at its start (Linux's prior_cwnd).
     * \param tcb the socket state
     * \param dupAckCount duplicate ACKs received
     * \param unAckDataCount bytes not yet acknowledged
     * \param deliveredBytes bytes the ACK delivered
     */
    void EnterRecovery(Ptr<TcpSocketState> tcb,
                       uint32_t dupAckCount,
                       uint32_t unAckDataCount,
                       uint32_t deliveredBytes) override;
    /**
     * \brief Set the window for an ACK in recovery (Linux's tcp_cwnd_reduction).
     * \param tcb the socket state
     * \param deliveredBytes bytes the ACK delivered
     */
    void DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes) override;
    /**
     * \brief End the recovery, keeping the window PRR reached (the inflated window follows).
     * \param tcb the socket state
     */
    void ExitRecovery(Ptr<TcpSocketState> tcb) override;
    /**
     * \brief Count bytes sent in recovery (prr_out).
     * \param bytesSent bytes sent
     */
    void UpdateBytesSent(uint32_t bytesSent) override;
    /// \return a copy for an accepted connection
    Ptr<TcpRecoveryOps> Fork() override;
    /** @} */

  private:
    int64_t m_prrDelivered{0}; //!< bytes delivered since recovery began (Linux: prr_delivered)
    int64_t m_prrOut{0};       //!< bytes sent since recovery began (Linux: prr_out)
    int64_t m_priorCwnd{0};    //!< the window when recovery began (Linux: prior_cwnd)
};

} // namespace ns3

#endif
