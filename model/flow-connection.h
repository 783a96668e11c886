// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow model's connections: one TCP connection's state (route, window, handshake, stall),
 * and what a new socket, an outage and a timeout do to it.
 */
#ifndef DLSIM_FLOW_CONNECTION_H
#define DLSIM_FLOW_CONNECTION_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FlowLinks;

/**
 * What a sender learns when its connection failed (TCP gave up, or the receiver reset it):
 * why, whether the connection had ever been set up, and how many messages it held (the
 * flowing one included). The connection sends nothing until FlowNetwork::Reconnect.
 */
using FlowFailed = std::function<void(const std::string& why, bool everConnected, uint32_t held)>;

/// A message queued on a connection.
struct FlowQueued
{
    std::shared_ptr<const std::vector<uint8_t>> framed; ///< its bytes, as framed
    uint64_t valueBytes = 0;                            ///< of which model values
};

/// One connection of the flow model: its route, its TCP window and its lifecycle.
struct FlowConnection
{
    uint32_t to = 0;                       ///< the receiving node
    std::vector<uint32_t> links;           ///< the route's link directions
    double rttSeconds = 0.0;               ///< propagation both ways plus a segment's transmissions
    double propagationSeconds = 0.0;       ///< the route's latency one way
    double deliveryDelay = 0.0;            ///< from the last byte leaving to its arrival
    double bottleneck = 0.0;               ///< the smallest payload rate on the route
    uint32_t bottleneckLink = 0;           ///< the link direction of that rate
    double lossSpacingBytes = 0.0;         ///< bytes between loss events (infinity: no loss)
    double sinceLossBytes = 0.0;           ///< bytes sent since the last loss event
    double ssthreshBytes = 0.0;            ///< slow start ends here (infinity until a loss)
    double windowMaxBytes = 0.0;           ///< the window before the last loss (CUBIC's W_max)
    Time lastLoss;                         ///< when the last loss event was (CUBIC's epoch began)
    bool hystart = false;                  ///< slow start ends when the round trip grows (Linux's)
    uint32_t hystartLowWindow = 16;        ///< HyStart acts from this window (segments)
    uint32_t hystartMinSamples = 8;        ///< RTT samples of a round before it acts
    double hystartAckDeltaSeconds = 0.002; ///< ACKs this close form a train
    bool hystartFound = false;             ///< HyStart acted (it acts once)
    bool fromHystart = false;              ///< CUBIC's epoch began at HyStart's exit, not at a loss
    double ackDelaySeconds = 0.0;          ///< its ACKs' wait behind the other direction's data
    double startWaitSeconds = 0.0;         ///< its first window's wait behind the others' (its
                                           ///< message's first round trip; 0 after it)
    Time lastStart = Time::Min();          ///< when its current message started
    double burstBytes = 0.0;               ///< the first window it sent at its message's start
    double burstAheadBytes = 0.0;          ///< the first windows queued before its own then
    double tailLostBytes = 0.0;            ///< its message's end dropped from its first window
    bool restFits = false;                 ///< RestFits at the last event (a change marks the flow)
    double roundStartBytes = 0.0;          ///< the head's remaining bytes at its round trip's start
    double segmentBytes = 1448;            ///< the segment size (payload)
    double windowBytes = 0.0;              ///< the congestion window
    double initialWindowBytes = 0.0;       ///< the initial window
    double bufferBytes = 0.0;              ///< the send buffer bounds the window
    double rtoSeconds = 0.0;               ///< the idle restart's timeout (RTT + minimum RTO)
    double minRtoSeconds = 0.2;            ///< the minimum RTO
    Time readyAt;                          ///< the handshake's end
    Time lastSent = Time::Min();           ///< when its previous message's last byte left
    std::deque<FlowQueued> queue;          ///< the head is the active flow once started
    bool active = false;                   ///< the head is flowing
    double remaining = 0.0;                ///< bytes of the head still to leave (at broughtAt)
    double rate = 0.0;                     ///< bytes per second now
    Time broughtAt;                  ///< remaining, sinceLossBytes and txBytes hold until then
    Time eventAt = Time::Max();      ///< its next event (in the FlowEventQueue while active)
    Time nextWindowStep;             ///< when the window grows next (while it limits)
    bool closed = false;             ///< closed by its sender
    FlowFailed failed;               ///< told when the connection fails
    uint32_t dataRetries = 6;        ///< tries of a stalled established connection
    uint32_t connCount = 6;          ///< tries of a stalled handshake
    double connTimeoutSeconds = 1.0; ///< the handshake's first timeout
    uint64_t generation = 0;         ///< the receiver's Listen count at the handshake
    bool established = false;        ///< the handshake got through once
    bool broken = false;             ///< failed, until Reconnect
    bool stalled = false;            ///< its route went down: waiting for a try to get through
    uint32_t tries = 0;              ///< tries lost since it stalled
    double timeoutSeconds = 0.0;     ///< the backed-off timeout of the next try
    EventId retry;                   ///< the next try (stalled) or the handshake's end
};

namespace flow
{

/// A connection as a new socket has it: no handshake yet, the initial window, no loss.
void Restart(FlowConnection& c);

/// \return whether a link on a connection's route, either way, is out of service
bool Blocked(const FlowConnection& c, const FlowLinks& links);

/// \return the timeout of a flow that stalls now: its RTO, with the standing queue it kept
double StallTimeout(const FlowConnection& c, const FlowLinks& links);

} // namespace flow

} // namespace ns3

#endif // DLSIM_FLOW_CONNECTION_H
