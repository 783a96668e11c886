// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the Linux kernel's receive-window autotuning, as far as it decides when a receiver
 * acknowledges at once.
 */
#ifndef DLSIM_LINUX_RECEIVE_WINDOW_H
#define DLSIM_LINUX_RECEIVE_WINDOW_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The receive side of a Linux TCP connection: its buffer, window clamp and receive
 * slow-start threshold (rcv_ssthresh), and whether a segment grew the window.
 *
 * Linux acknowledges every segment that lets it offer a larger window (tcp_grow_window sets
 * quick-ACK mode), and its window grows while the receive buffer does: from about 64 KB, as
 * dynamic right-sizing (tcp_rcv_space_adjust) sizes the buffer to about twice, in slow start
 * four times or more, what the application read in the last round trip. On a connection's
 * first transfers that is most segments, where a receiver that only delays its ACKs would
 * acknowledge every other one: the sender's RTT samples per segment halve, and with them how
 * far past the path's capacity HyStart lets slow start run (HyStart waits for eight samples).
 *
 * The arithmetic is Linux 6.x's: scaling_ratio (payload per byte of buffer, from the first
 * full-sized segment's truesize), tcp_init_buffer_space, tcp_measure_rcv_mss,
 * tcp_grow_window, tcp_rcv_space_adjust (once per receiver RTT, measured with timestamps as
 * tcp_rcv_rtt_measure_ts does). The application is taken to read every segment as it arrives
 * (what a LearnerApplication does), so no data waits in the buffer. Only the decision to ACK
 * is modelled: the advertised window stays ns-3's.
 */
class LinuxReceiveWindow
{
  public:
    /// What a Linux host is configured with.
    struct Config
    {
        uint32_t buffer{131072};     //!< initial receive buffer (tcp_rmem[1])
        uint32_t bufferMax{6291456}; //!< largest receive buffer (tcp_rmem[2])
        uint32_t truesize{0};        //!< buffer a received full segment takes (0: DefaultTruesize)
    };

    /**
     * \brief Start a connection's receive side (tcp_select_initial_window,
     * tcp_init_buffer_space).
     * \param config the host's buffers (a largest buffer below the initial one is the initial)
     * \param now the time
     * \param advmss the largest segment payload this side advertised
     */
    void Start(const Config& config, Time now, uint32_t advmss);

    /**
     * \param mss a full segment's payload
     * \return the buffer memory Linux charges for a received full segment (its truesize) on
     * common drivers
     */
    static uint32_t DefaultTruesize(uint32_t mss);

    /// \return whether Start was called
    bool Started() const
    {
        return m_advmss != 0;
    }

    /**
     * \brief An in-order segment arrived (tcp_measure_rcv_mss, tcp_rcv_rtt_measure_ts,
     * tcp_grow_window).
     * \param now the time
     * \param length its payload bytes
     * \param tsEchoMs its timestamp echo in milliseconds (the receiver's own clock), or -1
     * \return whether the window grew, so that Linux acknowledges this segment at once
     */
    bool Receive(Time now, uint32_t length, int64_t tsEchoMs);

    /**
     * \brief The application read up to byte `readTotal` of the stream (tcp_rcv_space_adjust).
     * \param now the time
     * \param readTotal bytes read since the connection began
     */
    void Read(Time now, uint64_t readTotal);

    /// \return the receive slow-start threshold: the largest window offered so far, bytes
    uint32_t RcvSsthresh() const
    {
        return m_rcvSsthresh;
    }

    /// \return the window clamp, bytes
    uint32_t WindowClamp() const
    {
        return m_windowClamp;
    }

    /// \return the receive buffer, bytes
    uint32_t Buffer() const
    {
        return m_buffer;
    }

  private:
    /// \return the window `space` bytes of buffer hold (tcp_win_from_space)
    uint64_t WinFromSpace(uint64_t space) const;
    /// \return the buffer a window of `window` bytes needs (tcp_space_from_win)
    uint64_t SpaceFromWin(uint64_t window) const;
    /// \brief Set the window clamp, raising rcv_ssthresh with it (tcp_set_window_clamp)
    void SetWindowClamp(uint32_t clamp);

    Config m_config;              //!< the host's buffers
    uint32_t m_advmss{0};         //!< advertised MSS (0: not started)
    uint32_t m_rcvWnd{0};         //!< the window offered in the SYN or SYN-ACK
    uint32_t m_scalingRatio{128}; //!< window per buffer byte, in 256ths (Linux's default: half)
    uint32_t m_rcvMss{536};       //!< the peer's segment size as seen (TCP_MSS_DEFAULT at first)
    uint32_t m_buffer{0};         //!< sk_rcvbuf
    uint32_t m_windowClamp{0};    //!< largest window to offer
    uint32_t m_rcvSsthresh{0};    //!< largest window offered so far
    uint64_t m_space{0};          //!< bytes read in the last measured receiver RTT (rcvq_space)
    uint64_t m_spaceSeq{0};       //!< bytes read when that measurement began
    Time m_spaceTime;             //!< when it began
    Time m_rcvRtt;                //!< receiver's RTT estimate (zero: none yet)
    int64_t m_lastEcho{-1};       //!< timestamp echo of the last RTT sample
};

} // namespace ns3

#endif // DLSIM_LINUX_RECEIVE_WINDOW_H
