// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow model's routes: the link directions of the underlay as the flows see them (rate,
 * latency, queue, loss, outage), found hop by hop from the nodes' IPv4 routing, and what a
 * route's links make of a connection's round trip.
 */
#ifndef DLSIM_FLOW_ROUTES_H
#define DLSIM_FLOW_ROUTES_H

#include "flow-connection.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "outage-error-model.h"

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/// A network the flow model cannot carry (a link that is not point-to-point, no route).
class FlowModelError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * The largest random loss (link.loss) a flow's periodic-loss model takes: the top of its
 * validation against packets (within 19% at 0.1% to 2%, 2 to 50 Mbit/s, 1 to 50 ms). Above it,
 * retransmission timeouts, which flows do not model, decide how long a transfer takes.
 */
constexpr double kMaxFlowLoss = 0.02;

/**
 * \param where the link direction or node, e.g. "link 0:1"
 * \param loss its loss, above kMaxFlowLoss
 * \return why network.model = flow refuses it, naming link.loss and what to use instead
 */
std::string FlowLossRefusal(const std::string& where, double loss);

/// What the queue in front of a link direction holds.
struct QueueLimit
{
    double bytes = 0.0;          ///< a drop-tail queue's size (infinity for an AQM)
    double targetSeconds = -1.0; ///< an AQM's target delay (negative: drop-tail)
};

namespace flow
{

/// TCP (20 + 12 of timestamps), IPv4 (20) and PPP (2) headers of every segment, in bytes.
constexpr double kHeaderBytes = 54.0;
/// An ACK is the headers alone, one for every second segment (delayed ACKs).
constexpr double kAckBytesPerSegment = kHeaderBytes / 2.0;

/// What `bytes` of a flow's data take on each link of its route: with its segments' headers.
inline double
DataWireBytes(double bytes, double segmentBytes)
{
    return bytes + bytes / segmentBytes * kHeaderBytes;
}

/// What the ACKs of `bytes` of a flow's data take on each link's other direction.
inline double
AckWireBytes(double bytes, double segmentBytes)
{
    return bytes / segmentBytes * kAckBytesPerSegment;
}

/**
 * The queueing delay a bulk TCP flow keeps on a link direction, which its RTT estimate (and so
 * its retransmission timeout) includes: an AQM's target delay, else the time to send a full
 * drop-tail queue (loss-based TCP fills it).
 */
double StandingDelayOf(const QueueLimit& queue, double bitsPerSecond);

} // namespace flow

/// One direction of a point-to-point link.
struct FlowLink
{
    double payloadBytesPerSecond = 0.0; ///< the rate less the headers' share
    double bitsPerSecond = 0.0;         ///< the device's rate
    double latencySeconds = 0.0;        ///< the channel's delay
    double loadBitsPerSecond = 0.0;     ///< taken by loads (FlowNetwork::AddLoad) now
    double loss = 0.0;                  ///< the probability that a packet is lost on it
    bool down = false;                  ///< out of service (its OutageErrorModel)
    double standingSeconds = 0.0;       ///< the queueing delay a bulk TCP flow keeps
    Ptr<PointToPointNetDevice> device;  ///< the sending device (its queue, for the above)
    uint32_t reverse = 0;               ///< the link's other direction
    std::vector<uint32_t> connections;  ///< active flows over it (by connection)
    double txBytes = 0.0;               ///< put on it so far (FlowNetwork::GetTxBytes)
    QueueLimit queue;                   ///< its queue (drop-tail size or AQM target)
    bool overflowing = false;           ///< the windows over it exceed pipe and queue now
    uint64_t overflows = 0;             ///< times they came to (FlowNetwork::GetOverflows)
};

/**
 * \brief The link directions the flows of one network have used, by index, each made from its
 * sending device on first use (with its other direction, which carries its ACKs).
 */
class FlowLinks
{
  public:
    /// What the owner does with a link direction just made (its index, its outage model if any).
    using Added = std::function<void(uint32_t link, Ptr<OutageErrorModel> outage)>;

    /// \param added told of every link direction made from now
    void SetAdded(Added added);

    /**
     * \param device a sending device
     * \return its link direction's index (made on first use)
     * \throws FlowModelError when the device is not on a point-to-point link, or its receiver
     * loses packets other than as a RateErrorModel in packets
     */
    uint32_t LinkOf(Ptr<NetDevice> device);

    /**
     * \brief The route from `node` to `address`, as link indices, by the nodes' own routing.
     * \param node the sending host
     * \param address the receiver's address
     * \param[out] to the receiving node's id
     * \return the link directions, in order
     * \throws FlowModelError when there is no route or a hop is not a point-to-point link
     */
    std::vector<uint32_t> RouteOf(Ptr<Node> node, Ipv4Address address, uint32_t* to);

    /**
     * \param device a sending device
     * \param[out] link its link direction, when known
     * \return whether a route or a load used the device
     */
    bool Find(Ptr<NetDevice> device, uint32_t* link) const;

    /// \return the link directions made so far
    uint32_t GetN() const;

    /// \param link an index below GetN() \return that link direction
    FlowLink& operator[](uint32_t link);
    /// \param link an index below GetN() \return that link direction
    const FlowLink& operator[](uint32_t link) const;

    /// Forget the devices (they hold the nodes) and the callback.
    void Clear();

  private:
    std::vector<FlowLink> m_links;                     ///< by index
    std::map<Ptr<NetDevice>, uint32_t> m_linkOfDevice; ///< the sending device's link direction
    Added m_added;                                     ///< told of every new link direction
};

namespace flow
{

/**
 * A connection's round-trip time, retransmission timeout, delivery delay, bottleneck and loss
 * spacing from its links' rates; each of its links' payload rate is set for the connection's
 * segment size on the way (every learner of a run has the same).
 * \param c the connection, its route set
 * \param links the network's links
 * \param changed told of every link whose payload rate this changed (a new link, a new rate,
 * another segment size)
 */
void Measure(FlowConnection& c, FlowLinks& links, const std::function<void(uint32_t)>& changed);

} // namespace flow

} // namespace ns3

#endif // DLSIM_FLOW_ROUTES_H
