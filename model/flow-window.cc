// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-window.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimFlowWindow");

namespace flow
{

namespace
{

/// CUBIC's constants (RFC 8312): the window's cut at a loss and its curve's scale.
constexpr double kCubicBeta = 0.7;
constexpr double kCubicC = 0.4;

} // namespace

double
Window(const FlowConnection& c)
{
    return std::min(c.windowBytes, c.bufferBytes);
}

bool
RestFits(const FlowConnection& c)
{
    // Within a millibyte: a rounding remainder, not data.
    return c.remaining <= Window(c) + 1e-3;
}

double
RoundTrip(const FlowConnection& c)
{
    return c.rttSeconds + c.ackDelaySeconds;
}

double
WindowRate(const FlowConnection& c)
{
    // A window that holds the rest of the message lets it all go at once: no ACK is awaited.
    if (RestFits(c))
    {
        return std::numeric_limits<double>::infinity();
    }
    return Window(c) / RoundTrip(c);
}

bool
WindowGrows(const FlowConnection& c)
{
    // Not WindowRate: a window that holds the rest of the message still grows in slow start.
    return c.windowBytes < c.bufferBytes && Window(c) / RoundTrip(c) < c.bottleneck;
}

void
GrowWindow(FlowConnection& c, double sentBytes)
{
    if (c.windowBytes < c.ssthreshBytes)
    {
        // Linux grows the window by every segment ACKed while it is below twice the most in
        // flight (tcp_is_cwnd_limited): doubling where the window was full, up to twice what was
        // sent where the message ended first.
        c.windowBytes = std::min(
            {c.ssthreshBytes,
             c.bufferBytes,
             std::max(c.windowBytes, std::min(c.windowBytes + sentBytes, 2.0 * sentBytes))});
        return;
    }
    if (c.restFits)
    {
        return; // CUBIC grows only a window that limits the sender
    }
    // CUBIC (RFC 8312, section 4, C = 0.4, beta = 0.7), in segments and seconds since the loss:
    // W(t) = C (t - K)^3 + W_max with K = cbrt(W_max (1 - beta) / C), or where larger the
    // Reno-friendly estimate beta W_max + 3 (1 - beta) / (1 + beta) t / RTT.
    // After HyStart's exit the epoch starts at the window then, with no W_max (Linux: K = 0,
    // the Reno estimate from the window).
    const double t = (Simulator::Now() - c.lastLoss).GetSeconds();
    const double wMax = c.windowMaxBytes / c.segmentBytes;
    const double k = c.fromHystart ? 0.0 : std::cbrt(wMax * (1.0 - kCubicBeta) / kCubicC);
    const double cubic = kCubicC * std::pow(t - k, 3.0) + wMax;
    const double reno = (c.fromHystart ? 1.0 : kCubicBeta) * wMax
                        + 3.0 * (1.0 - kCubicBeta) / (1.0 + kCubicBeta) * t / RoundTrip(c);
    // Without a W_max (no loss yet) Linux grows the window by at least one segment every 20
    // acknowledged (tcp_cubic.c: "the initial growth ... may be too conservative"), 5% a round
    // trip: far faster than the curve from a window HyStart left at.
    const double floor = c.fromHystart ? c.windowBytes * (1.0 + 1.0 / 20.0) : c.windowBytes;
    c.windowBytes
        = std::min(c.bufferBytes, std::max(floor, std::max(cubic, reno) * c.segmentBytes));
}

void
LoseOnce(FlowConnection& c)
{
    // Fast convergence (RFC 8312, section 4.6): a loss below the last W_max lowers it further.
    c.windowMaxBytes = c.windowBytes < c.windowMaxBytes ? c.windowBytes * (1.0 + kCubicBeta) / 2.0
                                                        : c.windowBytes;
    c.windowBytes = std::max(2.0 * c.segmentBytes, kCubicBeta * c.windowBytes);
    c.ssthreshBytes = c.windowBytes;
    c.fromHystart = false;
    c.lastLoss = Simulator::Now();
}

bool
LeaveSlowStart(FlowConnection& c, const FlowLinks& links)
{
    // Linux's HyStart (LinuxCubic, as the packet level runs it), once per connection, from a
    // window of HyStartLowWindow segments on, has two ways out of slow start:
    // - the round's smallest RTT sample exceeds the minimum RTT by an eighth of it (4 to 16 ms),
    //   once HyStartMinSamples ACKs of the round (one segment each, as Linux ACKs a growing
    //   connection) have grown the window. A flow's own queue never gets there (its window
    //   stops growing at the path's capacity); the ACKs' wait behind the other direction's
    //   data does, and so, in a message's first round trip, does the wait of its first window
    //   behind the windows its sender's other messages started with (Activate);
    // - an ACK train: the window's ACKs, no further apart than HyStartAckDelta, keep coming
    //   for more than half the minimum RTT. They come as the window's segments leave its
    //   slowest link, at its share of it (its rate, or the link's rate over the flows on it
    //   where the window holds the flow back and its segments leave in a burst); ACKs that
    //   waited behind the other direction's data come in one burst, and no train.
    if (!c.hystart || c.hystartFound || c.windowBytes >= c.ssthreshBytes
        || c.windowBytes < c.hystartLowWindow * c.segmentBytes)
    {
        return false;
    }
    const double threshold = std::clamp(c.rttSeconds / 8.0, 0.004, 0.016);
    bool found = c.ackDelaySeconds + c.startWaitSeconds > threshold;
    if (!found && c.ackDelaySeconds <= 0.0)
    {
        // Max-min sharing gives a flow its slowest link's even share at least: more where
        // the link holds it back, less where its window does.
        double even = std::numeric_limits<double>::infinity();
        for (uint32_t l : c.links)
        {
            even = std::min(
                even,
                links[l].payloadBytesPerSecond
                    / static_cast<double>(std::max<size_t>(1, links[l].connections.size())));
        }
        const double share = std::max(c.rate, even);
        found = share > 0.0 && c.segmentBytes / share <= c.hystartAckDeltaSeconds
                && Window(c) / share > c.rttSeconds / 2.0;
    }
    if (!found)
    {
        return false;
    }
    c.windowBytes = std::min(
        {c.bufferBytes, c.ssthreshBytes, c.windowBytes + c.hystartMinSamples * c.segmentBytes});
    NS_LOG_INFO("flow to node " << c.to << ": HyStart leaves slow start at window "
                                << c.windowBytes / c.segmentBytes << " segments (ACKs wait "
                                << c.ackDelaySeconds * 1e3 << " ms, its first window "
                                << c.startWaitSeconds * 1e3 << " ms)");
    c.hystartFound = true;
    c.ssthreshBytes = c.windowBytes;
    // CUBIC's epoch starts here, from this window (Linux: no W_max yet, so K = 0).
    c.windowMaxBytes = c.windowBytes;
    c.fromHystart = true;
    c.lastLoss = Simulator::Now();
    return true;
}

bool
Overflows(const FlowConnection& c, const FlowLinks& links)
{
    if (Window(c) - c.rate * c.rttSeconds <= 0.0)
    {
        return false; // none of its window waits in a queue
    }
    for (uint32_t l : c.links)
    {
        if (links[l].overflowing)
        {
            return true;
        }
    }
    return false;
}

void
Step(FlowConnection& c, const FlowLinks& links, bool& cut)
{
    if (Overflows(c, links))
    {
        // Over packets the burst of this window did not fit a queue on its route: segments
        // dropped there, and a round trip later TCP cuts the window as for any loss (once a round
        // trip, as one recovery covers the losses of one window; steps missed since, with the
        // overflow as it was, cut nothing more).
        if (!cut)
        {
            LoseOnce(c);
            cut = true;
        }
    }
    else if (WindowGrows(c) && !LeaveSlowStart(c, links))
    {
        GrowWindow(c, c.roundStartBytes - c.remaining);
    }
    c.startWaitSeconds = 0.0; // only the message's first round trip waits so
    c.roundStartBytes = c.remaining;
    c.nextWindowStep += Seconds(RoundTrip(c));
}

bool
FirstWindowTimesOut(FlowConnection& c, FlowLinks& links)
{
    FlowLink& first = links[c.links.front()];
    if (first.queue.targetSeconds >= 0.0 || first.payloadBytesPerSecond <= 0.0)
    {
        return false; // an AQM keeps its delay short and drops early instead
    }
    // A sender's messages that start together put their whole first windows into its first
    // link's queue at once (the device sends one packet while the queue holds the rest). What
    // does not fit is dropped; a window whose first segment waits so long behind the others that
    // its ACK comes back after the retransmission timeout (RTT + RTO_min) times out, even though
    // nothing of it was lost: the timeout resends it and the window starts again from one
    // segment.
    const double payloadPerQueuedByte = c.segmentBytes / (c.segmentBytes + kHeaderBytes);
    const double room = first.queue.bytes * payloadPerQueuedByte + c.segmentBytes;
    const double wait = c.burstAheadBytes / first.payloadBytesPerSecond;
    // Both are what the packets' queue would do to the windows: counted with the overflows.
    if (c.burstAheadBytes >= room || wait > c.rtoSeconds - c.rttSeconds)
    {
        ++first.overflows;
        return true;
    }
    if (c.burstAheadBytes + std::min(Window(c), c.remaining) > room)
    {
        if (c.remaining <= Window(c))
        {
            c.tailLostBytes = c.burstAheadBytes + c.remaining - room;
        }
        // Its tail is dropped: the segments before it are ACKed, and the recovery cuts the window.
        ++first.overflows;
        LoseOnce(c);
    }
    return false;
}

void
RestartAfterIdle(FlowConnection& c, uint32_t id)
{
    if (c.lastSent != Time::Min())
    {
        // Linux's slow start after idle: the window halves for every RTO without sending, down
        // to the initial window.
        double idle = (Simulator::Now() - c.lastSent).GetSeconds();
        // CUBIC's curve does not count the idle time (Linux moves its epoch on).
        c.lastLoss += Simulator::Now() - c.lastSent;
        const double before = c.windowBytes;
        if (idle > c.rtoSeconds)
        {
            // Slow start takes the window back to where it was, or three quarters of it
            // (tcp_cwnd_restart: tcp_current_ssthresh).
            c.ssthreshBytes = std::max(c.ssthreshBytes, 0.75 * c.windowBytes);
        }
        while ((idle -= c.rtoSeconds) > 0.0 && c.windowBytes > c.initialWindowBytes)
        {
            c.windowBytes = std::max(c.initialWindowBytes, c.windowBytes / 2.0);
        }
        NS_LOG_INFO("flow " << id << " to node " << c.to << " idle "
                            << (Simulator::Now() - c.lastSent).As(Time::MS) << " (RTO "
                            << c.rtoSeconds * 1e3 << " ms) window " << before << " -> "
                            << c.windowBytes << " ssthresh " << c.ssthreshBytes);
    }
}

} // namespace flow
} // namespace ns3
