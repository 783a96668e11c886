// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the Linux kernel's receive-window autotuning, as far as it decides when a receiver
 * acknowledges at once.
 */
#include "linux-receive-window.h"

#include <algorithm>

namespace ns3
{

namespace
{
// Linux's window arithmetic works in 256ths of the buffer (TCP_RMEM_TO_WIN_SCALE).
constexpr uint32_t kRatioShift = 8;
// Largest window a SYN can offer (no scaling applies to it).
constexpr uint32_t kMaxSynWindow = 65535;
// TCP_MIN_MSS, TCP_MSS_DEFAULT, TCP_INIT_CWND.
constexpr uint32_t kMinMss = 88;
constexpr uint32_t kDefaultMss = 536;
constexpr uint32_t kInitCwnd = 10;
} // namespace

void
LinuxReceiveWindow::Start(const Config& config, Time now, uint32_t advmss)
{
    m_config = config;
    m_config.bufferMax = std::max(config.buffer, config.bufferMax);
    if (m_config.truesize == 0)
    {
        m_config.truesize = DefaultTruesize(advmss);
    }
    m_advmss = advmss;
    m_scalingRatio = 1U << (kRatioShift - 1);
    m_buffer = config.buffer;
    // tcp_select_initial_window: the whole buffer's window, in whole segments, within what a
    // SYN can say.
    const auto full = static_cast<uint32_t>(WinFromSpace(m_buffer));
    m_rcvWnd = std::min(full, kMaxSynWindow);
    if (m_rcvWnd > advmss)
    {
        m_rcvWnd -= m_rcvWnd % advmss;
    }
    // tcp_init_buffer_space: the clamp is the buffer's window less one segment kept in reserve
    // (tcp_app_win's application share is nothing at its default, 31).
    m_windowClamp = full;
    if (m_windowClamp > 2 * advmss && m_windowClamp + advmss > full)
    {
        m_windowClamp = std::max(2 * advmss, full - advmss);
    }
    m_rcvSsthresh = std::min(m_rcvWnd, m_windowClamp);
    m_space = std::min({m_rcvSsthresh, m_rcvWnd, kInitCwnd * advmss});
    m_spaceSeq = 0;
    m_spaceTime = now;
    // tcp_initialize_rcv_mss: an underestimate until a full segment is seen.
    m_rcvMss = std::max(std::min({advmss, m_rcvWnd / 2, kDefaultMss}), kMinMss);
    m_rcvRtt = Time(0);
    m_lastEcho = -1;
}

bool
LinuxReceiveWindow::Receive(Time now, uint32_t length, int64_t tsEchoMs)
{
    // tcp_rcv_rtt_measure_ts: our timestamp echoed back on a full segment is a round trip.
    if (tsEchoMs >= 0 && tsEchoMs != m_lastEcho)
    {
        m_lastEcho = tsEchoMs;
        if (length >= m_rcvMss)
        {
            const Time sample
                = MilliSeconds(std::max<int64_t>(1, now.GetMilliSeconds() - tsEchoMs));
            m_rcvRtt = m_rcvRtt.IsZero() ? sample : m_rcvRtt + (sample - m_rcvRtt) / 8;
        }
    }
    // tcp_measure_rcv_mss: the first full-sized segment tells how much buffer a segment takes;
    // the clamp follows the new ratio of window to buffer.
    if (length >= m_rcvMss)
    {
        if (length != m_rcvMss)
        {
            const uint32_t ratio = std::max<uint32_t>(
                1, static_cast<uint32_t>((uint64_t(length) << kRatioShift) / m_config.truesize));
            if (ratio != m_scalingRatio)
            {
                m_scalingRatio = ratio;
                SetWindowClamp(static_cast<uint32_t>(WinFromSpace(m_buffer)));
                m_space = std::min<uint64_t>(m_space, m_windowClamp);
            }
        }
        m_rcvMss = std::min(length, m_advmss);
    }
    // tcp_grow_window, for segments of 128 bytes or more: room is what the clamp and the free
    // buffer allow beyond the window offered so far (the segment itself is not read yet).
    if (length < 128)
    {
        return false;
    }
    const uint64_t freeSpace
        = WinFromSpace(m_buffer > m_config.truesize ? m_buffer - m_config.truesize : 0);
    const int64_t room
        = static_cast<int64_t>(std::min<uint64_t>(m_windowClamp, freeSpace)) - m_rcvSsthresh;
    if (room <= 0)
    {
        return false;
    }
    uint32_t incr = 0;
    if (WinFromSpace(m_config.truesize) <= length)
    {
        incr = 2 * m_advmss;
    }
    else
    {
        // __tcp_grow_window: a segment that takes much more buffer than it carries grows the
        // window only while the window is small against the largest buffer.
        uint64_t truesize = WinFromSpace(m_config.truesize) >> 1;
        uint64_t window = WinFromSpace(m_config.bufferMax) >> 1;
        while (m_rcvSsthresh <= window)
        {
            if (truesize <= length)
            {
                incr = 2 * m_rcvMss;
                break;
            }
            truesize >>= 1;
            window >>= 1;
        }
    }
    if (incr == 0)
    {
        return false;
    }
    incr = std::max(incr, 2 * length);
    m_rcvSsthresh += static_cast<uint32_t>(std::min<int64_t>(room, incr));
    return true;
}

void
LinuxReceiveWindow::Read(Time now, uint64_t readTotal)
{
    // tcp_rcv_space_adjust: once per receiver RTT, a buffer for twice what was read in it (and
    // more while that grows, for a sender in slow start).
    if (m_rcvRtt.IsZero() || now - m_spaceTime < m_rcvRtt)
    {
        return;
    }
    const uint64_t copied = readTotal - m_spaceSeq;
    if (copied > m_space)
    {
        uint64_t window = 2 * copied + 16 * uint64_t(m_advmss);
        const uint64_t grow = window * (copied - m_space) / std::max<uint64_t>(m_space, 1);
        window += 2 * grow;
        const auto buffer
            = static_cast<uint32_t>(std::min<uint64_t>(SpaceFromWin(window), m_config.bufferMax));
        if (buffer > m_buffer)
        {
            m_buffer = buffer;
            m_windowClamp = static_cast<uint32_t>(WinFromSpace(m_buffer));
        }
        m_space = copied;
    }
    m_spaceSeq = readTotal;
    m_spaceTime = now;
}

uint64_t
LinuxReceiveWindow::WinFromSpace(uint64_t space) const
{
    return (space * m_scalingRatio) >> kRatioShift;
}

uint64_t
LinuxReceiveWindow::SpaceFromWin(uint64_t window) const
{
    return (window << kRatioShift) / m_scalingRatio;
}

void
LinuxReceiveWindow::SetWindowClamp(uint32_t clamp)
{
    // Growing the clamp lets rcv_ssthresh follow up to the window already offered.
    if (clamp > m_windowClamp)
    {
        m_rcvSsthresh = std::max(std::min(m_rcvWnd, clamp), m_rcvSsthresh);
    }
    else
    {
        m_rcvSsthresh = std::min(m_rcvSsthresh, clamp);
    }
    m_windowClamp = clamp;
}

uint32_t
LinuxReceiveWindow::DefaultTruesize(uint32_t mss)
{
    // A received frame sits in a power-of-two buffer with the driver's headroom (NET_SKB_PAD,
    // 64) and skb_shared_info (320), plus the sk_buff itself (256): 2304 bytes for a 1500-byte
    // packet, what Linux charges on a veth or a typical NIC.
    const uint32_t frame = mss + 52 + 14 + 64 + 320;
    uint32_t buffer = 1;
    while (buffer < frame)
    {
        buffer <<= 1;
    }
    return buffer + 256;
}

} // namespace ns3
