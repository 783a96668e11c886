// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: CUBIC's congestion avoidance as the Linux kernel computes it, on ns-3's TcpCubic.
 */
#ifndef DLSIM_LINUX_CUBIC_H
#define DLSIM_LINUX_CUBIC_H

#include "ns3/nstime.h"
#include "ns3/tcp-cubic.h"

namespace ns3
{

/**
 * \brief ns-3's TcpCubic with Linux's congestion avoidance.
 *
 * ns-3 3.37's CUBIC grows the window along the cubic curve only. Linux's (RFC 8312 sec. 4.2,
 * "TCP-friendly region") also keeps an estimate of what Reno would have reached since the last
 * loss and grows at least that fast; with small windows (a 10 Mbit/s, 20 ms path holds 17
 * segments) that is what refills the window after a loss within a few round trips instead of
 * seconds, and with LinuxTcpSocket's fast recoveries (which, unlike timeouts, never restart slow
 * start) ns-3's curve alone shrinks the window round after round. Linux also moves the curve's
 * origin over idle periods, so that a window does not jump after a pause of the application,
 * and grows the window only while it limits the sender.
 *
 * HyStart is Linux's too: ns-3's leaves slow start only when the RTT has grown by a whole
 * minimum RTT (its threshold is the minimum RTT clamped to [HyStartDelayMin, HyStartDelayMax] =
 * [4 ms, 1 s]) or an ACK train spans a whole minimum RTT, and it is fed the smoothed RTT; on a
 * 100 ms path it overshoots by a full queue. Linux leaves when the RTT samples of a round grow
 * by an eighth of the minimum RTT (clamped to [4 ms, 16 ms]) or an ACK train spans half of it,
 * on the RTT samples of each ACK, which LinuxTcpSocket passes in (RttSample).
 * The multiplicative decrease and fast convergence stay ns-3's (they are Linux's already).
 *
 * Attribute (besides TcpCubic's): TcpFriendliness, the TCP-friendly region on or off (help
 * string in GetTypeId()).
 */
class LinuxCubic : public TcpCubic
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// A window controller in its initial state.
    LinuxCubic();
    /**
     * \brief Copy constructor (Fork).
     * \param sock the object to copy
     */
    LinuxCubic(const LinuxCubic& sock);

    /**
     * \name TcpCongestionOps's hooks
     * What each changes of TcpCubic's behaviour; the parameters are TcpCongestionOps's.
     * @{
     */
    /// \return "LinuxCubic"
    std::string GetName() const override;
    /**
     * \brief Grow the window the Linux way: slow start up to ssthresh, then the larger of the
     * cubic curve and the Reno estimate, only while the window limits the sender.
     * \param tcb the socket state
     * \param segmentsAcked segments the ACK acknowledged
     */
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;
    /**
     * \brief TcpCubic's multiplicative decrease, also remembering W_max for the curve.
     * \param tcb the socket state
     * \param bytesInFlight bytes in flight at the loss
     * \return the new slow-start threshold
     */
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    /**
     * \brief Ignored for HyStart: ns-3 passes the smoothed RTT, Linux's HyStart needs each
     * ACK's sample (RttSample).
     * \param tcb the socket state
     * \param segmentsAcked segments acknowledged
     * \param rtt the smoothed RTT
     */
    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override;
    /**
     * \brief Reset the curve after a timeout, as TcpCubic does.
     * \param tcb the socket state
     * \param newState the congestion state entered
     */
    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override;
    /**
     * \brief On a restart after idle, move the curve's origin by the idle time (Linux).
     * \param tcb the socket state
     * \param event the event
     */
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
    /// \return a copy for an accepted connection
    Ptr<TcpCongestionOps> Fork() override;
    /** @} */

    /**
     * \brief Tell whether the window limited the sender in the last window of data, and the
     * most segments that were outstanding then (Linux's is_cwnd_limited and max_packets_out):
     * the window grows only while limited or, in slow start, below twice that flight (Linux's
     * tcp_is_cwnd_limited).
     * \param limited whether the window limited the sender
     * \param maxPacketsOut the largest flight, in segments
     */
    void SetCwndLimited(bool limited, uint32_t maxPacketsOut);
    /**
     * \brief Linux's bictcp_acked: an RTT sample of an ACK that delivered new data (the newest
     * segment it delivered, not retransmitted); feeds the minimum RTT and HyStart.
     * \param tcb the socket state
     * \param rtt the sample
     */
    void RttSample(Ptr<TcpSocketState> tcb, const Time& rtt);
    /**
     * \brief Tell when data was last sent (Linux's lsndtime), for the idle shift.
     * \param when the time of the last data segment
     */
    void SetLastSendTime(Time when);

  private:
    /// Read TcpCubic's Beta, C, FastConvergence and HyStart attributes (once).
    void ReadParameters();
    /**
     * \brief Start a HyStart round (Linux's bictcp_hystart_reset).
     * \param tcb the socket state
     */
    void HystartReset(Ptr<const TcpSocketState> tcb);
    /**
     * \brief Linux's bictcp_update: the ACK count per window increment for the current window.
     * \param cwnd the window in segments
     * \param acked segments just acknowledged
     * \return ACKs per segment of growth
     */
    uint32_t Update(uint32_t cwnd, uint32_t acked);

    double m_beta{0.7};           //!< multiplicative decrease (TcpCubic's Beta)
    double m_cubicC{0.4};         //!< cubic scaling, segments per second cubed (TcpCubic's C)
    bool m_fastConvergence{true}; //!< TcpCubic's FastConvergence
    bool m_friendliness{true};    //!< grow at least as fast as Reno would (Linux's default)
    bool m_parametersRead{false}; //!< whether ReadParameters ran

    Time m_epochStart{Time::Min()}; //!< start of the current growth epoch (Min: none)
    double m_originPoint{0};        //!< window the curve is centred on, in segments
    double m_k{0};                  //!< seconds from the epoch start to the origin
    uint32_t m_lastMaxCwnd{0};      //!< window before the last reduction, in segments
    uint32_t m_renoCwnd{0};         //!< Reno's window estimate, in segments
    uint32_t m_ackCount{0};         //!< ACKed segments counted towards m_renoCwnd
    uint32_t m_cwndCount{0};        //!< ACKed segments counted towards the next increment
    Time m_delayMin{Time::Max()};   //!< smallest RTT seen
    bool m_cwndLimited{true};       //!< whether the window limits the sender
    uint32_t m_maxPacketsOut{0};    //!< the largest recent flight, in segments
    Time m_lastSend{Time::Min()};   //!< when data was last sent

    // HyStart (Linux's)
    bool m_hystart{true};                    //!< TcpCubic's HyStart
    uint32_t m_hystartLowWindow{16};         //!< TcpCubic's HyStartLowWindow
    uint32_t m_hystartMinSamples{8};         //!< TcpCubic's HyStartMinSamples
    Time m_hystartAckDelta{MilliSeconds(2)}; //!< TcpCubic's HyStartAckDelta
    bool m_found{false};                     //!< slow start's end was found
    Time m_roundStart;                       //!< start of the current round
    Time m_lastAck;                          //!< last ACK of the current ACK train
    SequenceNumber32 m_endSeq;               //!< the round ends when this is ACKed
    Time m_currRtt{Time::Max()};             //!< smallest RTT sample of the round
    uint32_t m_sampleCount{0};               //!< RTT samples of the round
};

} // namespace ns3

#endif // DLSIM_LINUX_CUBIC_H
