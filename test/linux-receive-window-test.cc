// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: LinuxReceiveWindow follows Linux's receive-window arithmetic. Expected values are
 * worked out by hand from Linux 6.x's formulas, and checked against what the kernel of the
 * Linux comparison (validation/linux-tcp) reported through TCP_INFO and on the wire with its
 * defaults (tcp_rmem 131072 / 6291456, 1448-byte segments in 2304 bytes of buffer).
 */
#include "linux-receive-window.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

constexpr uint32_t kMss = 1448;

LinuxReceiveWindow
Started()
{
    LinuxReceiveWindow window;
    window.Start(LinuxReceiveWindow::Config{}, Seconds(0), kMss);
    return window;
}

TEST(LinuxReceiveWindow, TruesizeOfAFullSegmentIsA2KBufferAndItsSkb)
{
    EXPECT_EQ(LinuxReceiveWindow::DefaultTruesize(kMss), 2048u + 256u);
    // Jumbo frames take a 16 KB buffer.
    EXPECT_EQ(LinuxReceiveWindow::DefaultTruesize(8948), 16384u + 256u);
}

TEST(LinuxReceiveWindow, StartsWithHalfTheBufferLessOneSegment)
{
    // The default ratio counts half of the 128 KB buffer as window (65536 bytes); the clamp
    // keeps one segment in reserve: 64088 bytes.
    const LinuxReceiveWindow window = Started();
    EXPECT_EQ(window.Buffer(), 131072u);
    EXPECT_EQ(window.WindowClamp(), 65536u - kMss);
    EXPECT_EQ(window.RcvSsthresh(), 65536u - kMss);
}

TEST(LinuxReceiveWindow, TheFirstFullSegmentsGrowTheWindowToTheBuffersShare)
{
    // The first full segment sets the ratio to 1448 * 256 / 2304 = 160 (62.5%): the clamp
    // becomes 131072 * 160 / 256 = 81920 and rcv_ssthresh the SYN-ACK's window, 45 segments
    // (65160). Each segment then grows it by two segments (2896) up to the free buffer's
    // window, (131072 - 2304) * 160 / 256 = 80480: six segments grow it, the last by 840 bytes.
    // The kernel showed the same on the wire (windows of 67, 70, 73, 75, 78 and 79 KiB on the
    // first six ACKs) and rcv_ssthresh 80480 in TCP_INFO.
    LinuxReceiveWindow window = Started();
    uint32_t grew = 0;
    for (int i = 0; i < 20; ++i)
    {
        grew += window.Receive(MilliSeconds(10 + i), kMss, -1) ? 1 : 0;
    }
    EXPECT_EQ(grew, 6u);
    EXPECT_EQ(window.WindowClamp(), 81920u);
    EXPECT_EQ(window.RcvSsthresh(), 80480u);
    // Small segments never grow it.
    LinuxReceiveWindow small = Started();
    EXPECT_FALSE(small.Receive(MilliSeconds(10), 100, -1));
}

TEST(LinuxReceiveWindow, RightSizingGrowsTheBufferOncePerReceiverRtt)
{
    // A timestamp echo 100 ms old gives the receiver's RTT. 28960 bytes read in the next RTT,
    // twice the first measurement's 10 segments (14480), size the window for slow start:
    // 2 * 28960 + 16 * 1448 = 81088, plus twice its growth (81088 * 14480 / 14480): 243264;
    // the buffer that holds it is 243264 * 256 / 160 = 389222 bytes, whose window (the new
    // clamp) is 243263.
    LinuxReceiveWindow window = Started();
    ASSERT_TRUE(window.Receive(MilliSeconds(100), kMss, 0));
    window.Read(MilliSeconds(100), kMss);
    // Within the RTT nothing is measured.
    window.Read(MilliSeconds(150), kMss + 28960);
    EXPECT_EQ(window.Buffer(), 131072u);
    window.Read(MilliSeconds(200), kMss + 28960);
    EXPECT_EQ(window.Buffer(), 389222u);
    EXPECT_EQ(window.WindowClamp(), 243263u);
    // With room again, the next segment grows the window and is acknowledged at once.
    EXPECT_TRUE(window.Receive(MilliSeconds(201), kMss, 100));
}

TEST(LinuxReceiveWindow, TheBufferStopsAtItsLargestSize)
{
    LinuxReceiveWindow::Config config;
    config.bufferMax = 200000;
    LinuxReceiveWindow window;
    window.Start(config, Seconds(0), kMss);
    ASSERT_TRUE(window.Receive(MilliSeconds(100), kMss, 0));
    window.Read(MilliSeconds(100), kMss);
    window.Read(MilliSeconds(200), kMss + 10 * 28960);
    EXPECT_EQ(window.Buffer(), 200000u);
    EXPECT_EQ(window.WindowClamp(), 200000u * 160 / 256);
}

} // namespace
} // namespace ns3
