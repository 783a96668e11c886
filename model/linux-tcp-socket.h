// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: a TCP socket that recovers losses as the Linux kernel's TCP does (RACK-TLP, RFC 8985;
 * Linux's retransmission timeout and quick ACKs), on top of ns-3's own TcpSocketBase.
 */
#ifndef DLSIM_LINUX_TCP_SOCKET_H
#define DLSIM_LINUX_TCP_SOCKET_H

#include "linux-receive-window.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/tcp-socket-base.h"

#include <deque>

namespace ns3
{

class LinuxCubic;
class Node;

/**
 * \brief ns-3's TcpSocketBase with the loss recovery of the Linux kernel.
 *
 * ns-3 3.37 recovers a loss only through three duplicate ACKs or a retransmission timeout: a
 * loss at the end of a transfer (too few segments behind it for three SACKs) and a lost
 * retransmission both wait for the timeout, at least a second by default. Linux detects both
 * within about a round trip. This socket adds what makes the difference, and keeps everything
 * else of ns-3's TCP (SACK scoreboard, Nagle, windows; the congestion control and PRR with
 * Linux's arithmetic: LinuxCubic, LinuxPrrRecovery):
 *
 * - RACK (RFC 8985 sec. 6): a segment is lost when a segment sent after it was delivered and
 *   more than one RTT plus a reordering window has passed since it was sent. This finds lost
 *   retransmissions and losses with fewer than three SACKs behind them. RACK's losses enter
 *   ns-3's fast recovery (EnterRecovery, so PRR paces the retransmissions) and are
 *   retransmitted by this socket, ahead of new data.
 * - Tail loss probes (RFC 8985 sec. 7): about two smoothed RTTs after the last transmission
 *   without an ACK, one segment (new data, or the last one sent again) asks for an ACK whose
 *   SACK then lets RACK repair the tail instead of the retransmission timeout.
 * - Linux's timers: the retransmission timeout is SRTT plus the larger of four mean deviations
 *   and the minimum RTO (Linux's rttvar floor; MinRto then means what Linux's rto_min means),
 *   and the receiver acknowledges the first segments of a connection, and those after an idle
 *   gap longer than its RTO, at once (Linux's quick-ACK mode) rather than delaying them, and
 *   every segment that grows its receive window (LinuxReceiveWindow): most segments of a
 *   connection's first transfers, while the receive buffer grows.
 * - Only what is lost is retransmitted: in recovery ns-3 also resends, once no new data is
 *   left, unSACKed segments nobody judged lost (RFC 6675 NextSeg rules 3 and 4); Linux does
 *   not, and neither does this socket (AvailableWindow).
 *
 * Bytes in flight are counted as Linux counts them (sent, less SACKed, less marked lost and not
 * yet retransmitted), from this socket's own per-segment scoreboard: ns-3's TcpTxBuffer keeps
 * its sent list private and cannot mark a segment lost that is not at the head.
 *
 * Create one with Create() (TcpL4Protocol::CreateSocket always makes a TcpSocketBase); accepted
 * connections of a listening LinuxTcpSocket are LinuxTcpSockets too.
 *
 * Attributes (ns3::LinuxTcpSocket::NAME; their help strings are in GetTypeId()), each of which
 * turns one of the differences above off for comparisons: Rack, Tlp, QuickAcks, ProbeAckDelay,
 * ProbeSlack, LinuxCubic, LinuxPrr, SlowStartAfterIdle, ReceiveAutotuning (with its host
 * settings ReceiveBuffer, ReceiveBufferMax, ReceiveTruesize). No trace sources besides
 * TcpSocketBase's.
 */
class LinuxTcpSocket : public TcpSocketBase
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /// \return the TypeId of LinuxTcpSocket (so that Fork's copies are LinuxTcpSockets too)
    TypeId GetInstanceTypeId() const override;

    /// A socket not yet bound to a node (see Create()).
    LinuxTcpSocket();
    /**
     * \brief Copy constructor, used by Fork() for accepted connections.
     * \param sock the listening socket
     */
    LinuxTcpSocket(const LinuxTcpSocket& sock);
    ~LinuxTcpSocket() override;

    /**
     * \brief Create a socket on a node's TCP, as TcpL4Protocol::CreateSocket does, with the
     * protocol's congestion control, recovery algorithm and RTT estimator.
     * \param node a node with ns-3's Internet stack
     * \return the socket, registered with the node's TcpL4Protocol
     */
    static Ptr<LinuxTcpSocket> Create(Ptr<Node> node);

    /// \return tail loss probes sent
    uint32_t GetProbeCount() const;
    /// \return segments RACK found lost and this socket retransmitted
    uint32_t GetRackRetransmitCount() const;
    /// \return retransmission timeouts that fired (probes excluded)
    uint32_t GetTimeoutCount() const;

  protected:
    /**
     * \name TcpSocketBase's hooks
     * What each adds to ns-3's behaviour; the parameters are TcpSocketBase's.
     * @{
     */
    /// \return a copy for an accepted connection: a LinuxTcpSocket
    Ptr<TcpSocketBase> Fork() override;
    /**
     * \brief Send as ns-3 does, recording the transmission in this socket's scoreboard and
     * (re)arming the probe timer once per burst.
     * \param seq the first sequence number to send
     * \param maxSize the most bytes to send
     * \param withAck whether to set the ACK flag
     * \return bytes sent
     */
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;
    /**
     * \brief Keep the ACK at hand for ProcessAck (its timestamp echo and SACK blocks).
     * \param packet the segment
     * \param tcpHeader its header
     */
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    /**
     * \brief Update the scoreboard and run RACK before ns-3 counts duplicate ACKs, so that a
     * recovery ns-3 enters starts from Linux's count of the bytes in flight; then retransmit
     * RACK's losses.
     * \param ackNumber the cumulative ACK
     * \param scoreboardUpdated whether the ACK's SACK blocks changed ns-3's scoreboard
     * \param currentDelivered bytes the ACK delivered
     * \param oldHeadSequence the first unacknowledged sequence number before the ACK
     */
    void ProcessAck(const SequenceNumber32& ackNumber,
                    bool scoreboardUpdated,
                    uint32_t currentDelivered,
                    const SequenceNumber32& oldHeadSequence) override;
    /**
     * \brief Receive as ns-3 does, acknowledging at once in Linux's quick-ACK mode.
     * \param packet the segment
     * \param tcpHeader its header
     */
    void ReceivedData(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    /**
     * \brief Queue data, restarting the window after idle as Linux does (tcp_cwnd_restart).
     * \param p the data
     * \param flags socket flags
     * \return as TcpSocketBase::Send
     */
    int Send(Ptr<Packet> p, uint32_t flags) override;
    /**
     * \brief Estimate the RTT as Linux does: from the newest original segment an ACK delivered,
     * the handshake included.
     * \param tcpHeader the ACK's header
     */
    void EstimateRtt(const TcpHeader& tcpHeader) override;
    /**
     * \brief Send a segment without data, noting when a SYN went out (handshake RTT).
     * \param flags the TCP flags
     */
    void SendEmptyPacket(uint8_t flags) override;
    /**
     * \brief Take a new ACK as ns-3 does, but restart the retransmission timer on every ACK of
     * new data (RFC 6298 sec. 5.3), with Linux's floor SRTT + MinRto.
     * \param seq the new cumulative ACK
     * \param resetRTO ignored: the timer restarts on every new ACK
     */
    void NewAck(const SequenceNumber32& seq, bool resetRTO) override;
    /// The retransmission timeout, lowering ssthresh only if the losses being recovered did not
    /// already lower it (Linux's tcp_enter_loss).
    void ReTxTimeout() override;
    /// \return bytes in flight as Linux counts them: sent, less SACKed, less lost and not
    /// retransmitted since
    uint32_t BytesInFlight() const override;
    /// \return the window ns-3 would allow, closed in recovery for segments nothing judged lost
    uint32_t AvailableWindow() const override;
    /// Cancel this socket's timers, then dispose as TcpSocketBase does.
    void DoDispose() override;
    /** @} */

  private:
    /// One transmitted range of sequence numbers, as last sent.
    struct Segment
    {
        SequenceNumber32 start; //!< first sequence number
        uint32_t size;          //!< bytes
        Time xmitTs;            //!< when last (re)transmitted
        uint64_t xmitOrder;     //!< rank of that transmission among this socket's sends
        bool retransmitted;     //!< sent more than once: its RTT samples are ambiguous
        bool sacked;            //!< selectively acknowledged
        bool lost;              //!< marked lost and not retransmitted since
    };

    /**
     * \brief Record a transmission of [seq, seq + size) in the scoreboard.
     * \param seq first sequence number sent
     * \param size bytes sent
     * \param isNew whether the range was never sent before
     */
    void RecordTransmission(SequenceNumber32 seq, uint32_t size, bool isNew);
    /**
     * \brief Split the scoreboard entry holding seq so that one starts at seq.
     * \param seq a sequence number inside the scoreboard
     * \return the index of the entry starting at seq, or the scoreboard's size if seq lies
     *         beyond it
     */
    size_t SplitAt(SequenceNumber32 seq);
    /**
     * \brief Whether the scoreboard marks the segment holding seq lost.
     * \param seq a sequence number
     * \return true if an outstanding segment holds seq and is marked lost
     */
    bool IsMarkedLost(SequenceNumber32 seq) const;
    /**
     * \brief Take in a cumulative ACK and the SACK blocks of tcpHeader: drop what is
     * acknowledged, mark what is SACKed, and feed RACK with every newly delivered segment.
     * \param ackNumber the cumulative ACK
     * \param tcpHeader the ACK's header (for its SACK option)
     */
    void UpdateScoreboard(SequenceNumber32 ackNumber, const TcpHeader& tcpHeader);
    /**
     * \brief RFC 8985 sec. 6.2 steps 2 and 3: RACK.rtt, RACK.xmit_ts and RACK.end_seq from a
     * delivered segment; reordering seen when it lies below the highest delivered one.
     * \param segment a segment just cumulatively ACKed or SACKed
     */
    void RackUpdate(const Segment& segment);
    /// \return the timestamp echo of the ACK being processed, in ms (-1: none)
    int64_t AckEcho() const;
    /// \return RACK.reo_wnd (RFC 8985 sec. 6.2 step 4)
    Time ReorderWindow() const;
    /**
     * \brief RFC 8985 sec. 6.2 step 5: mark lost every segment sent before the RACK segment
     * whose time is up; arm the reorder timer for the earliest that may still arrive.
     * \return whether a segment was newly marked lost
     */
    bool DetectLoss();
    /**
     * \brief Act on RACK's losses: enter fast recovery if not recovering yet, then retransmit
     * the lost segments, lowest first, as far as the congestion window allows.
     * \param currentDelivered bytes delivered by the ACK being processed (for PRR)
     */
    void RecoverLosses(uint32_t currentDelivered);
    /// The reorder timer fired (RFC 8985 sec. 6.3).
    void ReorderTimeout();
    /// Arm (or disarm) the tail loss probe timer (RFC 8985 sec. 7.2).
    void ArmProbe();
    /// ArmProbe if new data went out or an ACK advanced since the last time.
    void ArmProbeIfDue();
    /// The probe timer fired: send the probe if it is due (RFC 8985 sec. 7.3).
    void ProbeTimeout();
    /// Send a tail loss probe and restart the retransmission timer (RFC 8985 sec. 7.3).
    void SendProbe();
    /**
     * \brief Add (sign 1) or remove (sign -1) a segment's share of the scoreboard's counters.
     * \param segment the segment
     * \param sign 1 or -1
     */
    void Account(const Segment& segment, int sign);
    /// \return whether the connection is in a state that sends data
    bool CanSendData() const;
    /**
     * \brief RFC 8985 sec. 7.4: an ACK beyond a retransmitted probe without sign that the
     * original arrived means the probe repaired a loss: reduce the congestion window once.
     * \param ackNumber the cumulative ACK
     */
    void ProcessProbeAck(SequenceNumber32 ackNumber);
    /// \return the retransmission timeout's floor the Linux way: SRTT + MinRto
    Time LinuxRtoFloor() const;
    /// \brief Restart the retransmission timer from now with m_rto (lazily: see m_rtoDeadline)
    void RestartRto();
    /// \return when the retransmission timer expires (Time::Max if it is not running)
    Time RtoDeadline() const;
    /**
     * \brief Linux's tcp_cwnd_validate after new data went out: whether the window limited the
     * sender, held for a window of data, told to LinuxCubic.
     */
    void ValidateCwnd();
    /// \return the congestion control if it is LinuxCubic, else nullptr
    LinuxCubic* GetLinuxCubic();

    // Attributes
    bool m_rackEnabled{true}; //!< RACK loss detection on
    bool m_tlpEnabled{true};  //!< tail loss probes on
    uint32_t m_quickAcks{16}; //!< quick ACKs on a connection's start or after idle (Linux: 16)
    Time m_probeAckDelay;     //!< PTO allowance for a delayed ACK when one segment is in flight
    Time m_probeSlack;        //!< PTO allowance otherwise (Linux: two jiffies)
    bool m_linuxCubic{true};  //!< replace TcpCubic by LinuxCubic
    bool m_linuxPrr{true};    //!< replace TcpPrrRecovery by LinuxPrrRecovery
    bool m_restartAfterIdle{true}; //!< Linux's tcp_slow_start_after_idle
    bool m_receiveAutotuning{true};       //!< ACK at once when the receive window grows
    uint32_t m_receiveBuffer{131072};     //!< initial receive buffer (tcp_rmem[1])
    uint32_t m_receiveBufferMax{6291456}; //!< largest receive buffer (tcp_rmem[2])
    uint32_t m_receiveTruesize{0};        //!< buffer per full segment (0: derived from the MSS)

    // Scoreboard
    std::deque<Segment> m_segments; //!< sent, not cumulatively ACKed, in sequence order
    uint32_t m_outBytes{0};         //!< bytes in m_segments
    uint32_t m_sackedBytes{0};      //!< of which SACKed
    uint32_t m_lostBytes{0};        //!< of which lost and not retransmitted since
    uint32_t m_sackedCount{0};      //!< SACKed segments
    uint32_t m_retransOut{0};       //!< retransmitted segments not yet delivered

    // RACK state (RFC 8985 sec. 6.1)
    bool m_rackValid{false};        //!< a segment was delivered since the connection began
    uint64_t m_rackXmitOrder{0};    //!< xmitOrder of the RACK segment (orders ties of xmit_ts)
    uint64_t m_xmitCount{0};        //!< transmissions so far: the next one's xmitOrder
    Time m_rackRtt;                 //!< RACK.rtt
    Time m_rackMinRtt{Time::Max()}; //!< RACK.min_RTT
    SequenceNumber32 m_rackFack;    //!< highest delivered end sequence number (RACK.fack)
    bool m_rackReordering{false};   //!< RACK.reordering_seen
    bool m_rackFromRetrans{false};  //!< the RACK segment was a retransmission
    EventId m_reorderEvent;         //!< the reorder timer

    // The retransmission timer restarted on every ACK: m_retxEvent fires at or before
    // m_rtoDeadline, which holds while m_retxEvent is the event of m_rtoDeadlineUid.
    Time m_rtoDeadline;           //!< when the timeout is due
    uint32_t m_rtoDeadlineUid{0}; //!< the event m_rtoDeadline belongs to (0: none)

    // TLP state (RFC 8985 sec. 7.1)
    EventId m_probeEvent;             //!< the probe timer (lazy: fires at or before the deadline)
    bool m_probeArmed{false};         //!< a probe is due at m_probeDeadline
    bool m_rearmProbe{false};         //!< new data sent or an ACK advanced: ArmProbe once
    Time m_probeDeadline;             //!< when the probe is due
    bool m_probeOutstanding{false};   //!< a probe was sent and TLP.end_seq is not yet ACKed
    SequenceNumber32 m_probeEndSeq;   //!< TLP.end_seq
    bool m_probeRetransmitted{false}; //!< TLP.is_retrans

    TcpCongestionOps* m_cubicOf{nullptr}; //!< the congestion control m_cubic was found for
    LinuxCubic* m_cubic{nullptr};         //!< it, if it is LinuxCubic

    // Window validation (Linux's tcp_cwnd_validate)
    bool m_cwndLimited{false};         //!< the window limited the sender
    SequenceNumber32 m_cwndUsageSeq;   //!< until this is ACKed, m_cwndLimited stands
    uint32_t m_maxPacketsOut{0};       //!< largest flight in segments (Linux's max_packets_out)
    SequenceNumber32 m_maxPacketsSeq;  //!< until this is ACKed, m_maxPacketsOut stands
    Time m_lastSend{Time::Min()};      //!< when data was last sent (Linux's lsndtime)
    Time m_idleRestarted{Time::Min()}; //!< m_lastSend of the idle period last restarted from

    // Handshake RTT: Linux's minimum RTT includes it, and its small packets make it the
    // smallest; RACK's test for ambiguous retransmissions needs that floor.
    Time m_synSent{Time::Min()}; //!< when the SYN (or SYN-ACK) went out (Min: not pending)
    uint32_t m_synsSent{0};      //!< SYNs (or SYN-ACKs) sent: one makes an unambiguous sample

    // Receiver
    uint32_t m_quickAcksLeft{0};    //!< ACKs still to send at once
    LinuxReceiveWindow m_rcvWindow; //!< the receive window's growth (ReceiveAutotuning)
    uint64_t m_rxDelivered{0};      //!< bytes received in order since the window started
    Time m_lastDataRx{Time::Min()}; //!< when data last arrived (Time::Min: never)

    const TcpHeader* m_ack{nullptr}; //!< the ACK ReceivedAck is processing, for ProcessAck
    Time m_ackRtt;                   //!< its RTT sample: newest original segment it delivered
    Time m_ackRttXmit{Time::Min()};  //!< when that segment was sent (Min: no sample)

    // Counters for tests and logs
    uint32_t m_probes{0};          //!< probes sent
    uint32_t m_rackRetransmits{0}; //!< RACK retransmissions
    uint32_t m_timeouts{0};        //!< retransmission timeouts
};

} // namespace ns3

#endif // DLSIM_LINUX_TCP_SOCKET_H
