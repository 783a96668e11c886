// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow-level network model: messages as flows sharing the underlay's links.
 */
#ifndef DLSIM_FLOW_NETWORK_H
#define DLSIM_FLOW_NETWORK_H

#include "flow-accounting.h"
#include "flow-connection.h"
#include "flow-events.h"
#include "flow-routes.h"
#include "flow-sharing.h"
#include "message-transport.h"
#include "network-model.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "tcp-message-transport.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Every message of a simulation as a fluid flow over the point-to-point links of its
 * route, the links shared max-min fairly with weights inversely proportional to the flows'
 * round-trip times (TCP's RTT bias), with the corrections TCP needs: each segment's TCP/IP and
 * PPP headers take their share of a link (segment / (segment + 54) of its rate carries
 * payload), the ACKs (54 bytes for every second segment) take theirs of the other direction, a
 * connection can send one round trip after it is opened (the handshake), a message's rate is
 * bounded by its window over the round-trip time, the window starting at the initial window and
 * doubling every round trip (slow start) until it no longer limits the flow, and halving for every
 * retransmission timeout of idleness before a message (Linux's slow start after idle); a window
 * that holds the rest of a message does not limit it, and in slow start a window grows by what
 * was ACKed while it is below twice what was in flight (Linux's tcp_is_cwnd_limited). A flow's
 * ACKs wait in the queues of its route's other direction: the windows of the flows whose slowest
 * link that is (at most the queue's capacity), less the one-way latency they overlap with, join
 * its round trip. This is where two-way traffic falls into step (ACK compression, Zhang, Shenker
 * and Clark 1991): each connection sends its window as a burst, the ACKs queued behind it leave
 * together and release the next burst one latency later, so a link direction is busy for W/C of
 * every W/C + latency. With the Linux profile, HyStart ends slow start, once per connection,
 * when that wait exceeds an eighth of the round trip (4 to 16 ms) or when the window's ACKs, at
 * the flow's share of its slowest link, span half the round trip (its ACK train), and the window
 * then grows as Linux's CUBIC without a W_max (at least 5% a round trip); an idle restart keeps
 * ssthresh at three quarters of the old window at least. A message
 * arrives one propagation delay, plus one segment's transmission on every later hop, after its last
 * byte left. Messages of one connection go one after the other (one TCP stream). Random loss
 * on a route (a link's ReceiveErrorModel: a RateErrorModel in packets, as link.loss installs),
 * at rate p, is a loss event every 1/p segments a connection sends (the mean spacing, as in
 * Mathis et al. 1997's periodic loss): slow start ends, the window is cut to 0.7 of itself and
 * grows as CUBIC's (RFC 8312: the larger of the cubic curve and the Reno-friendly line),
 * evaluated every round trip; the time a recovery or a timeout takes is not modelled. UDP cross
 * traffic is a load that takes its rate off a link direction before the flows share it
 * (AddLoad, SetLoad). A link's rate may change during a run (rate traces: NotifyDataRate).
 * Events happen only when a flow starts or ends, a window grows (every round trip, the ACKs' wait
 * included), the rest of a message comes to fit in its window, a load or a link's rate
 * changes; nothing else is simulated. Routes are read from the nodes' IPv4 routing, hop by hop.
 * A link out of service (an OutageErrorModel on its receiving device: faults.links, crashes)
 * stalls the flows over it in either direction; as TCP's, a stalled connection tries again
 * after its retransmission timeout, doubling it every time (its handshake after ConnTimeout),
 * resumes from a one-segment window once a try gets through, is reset when its receiver started
 * anew meanwhile, and fails after DataRetries retransmissions (a handshake after ConnCount SYNs);
 * the timeout of a flow held back by its slowest link includes that link's standing queue
 * (TCP's RTT estimate does). A message whose last byte left before an outage still arrives.
 * A drop-tail queue's overflow is approximated where the packet level shows it costs most
 * (FirstWindowTimesOut): a sender's messages that start together put their whole first windows
 * into its first link's queue at once; a window that finds the queue full, or whose first
 * segment waits behind the others longer than its timeout allows beyond its round trip, waits
 * that timeout and starts again from one segment (a stall, as for an outage), and one whose tail
 * does not fit is cut as for a loss; where that tail is its message's end, nothing behind it
 * reveals the loss and the message arrives a recovery later (a tail-loss probe two round trips
 * on, then a round trip for each lost segment). While windows over a link exceed its pipe and queue
 * (CheckOverflow), the connections whose windows wait there are cut as for a loss at their next
 * window step, once a round trip. Both are counted (GetOverflows). Not modelled: the time a
 * recovery takes, a retransmission's own wait in a full queue (timeouts backing off), a flow's
 * own queueing delay, the unfair sharing of a link by the bursts of several connections, TCP
 * cross traffic.
 *
 * The parts, each its own file pair: the links and routes (flow-routes), a connection's state
 * (flow-connection), its TCP window (flow-window), the links' sharing (flow-sharing), the
 * flows' next events (flow-events) and the byte counts (flow-accounting). This class holds
 * them together: the transports' and the runner's interface, and each connection's lifecycle
 * (handshake, idle restart, stalls and tries, failure, its messages one after the other).
 */
class FlowNetwork : public NetworkModel
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// A network with no links and no connections yet.
    FlowNetwork();

    /**
     * \brief What network.model = flow cannot carry, refused by key: a Wi-Fi underlay (its
     * links are not point-to-point), bulk TCP cross traffic, packet captures.
     * \param scenario the scenario's keys
     * \throws std::invalid_argument naming the key
     */
    static void CheckScenario(const NetworkModelScenario& scenario);

    /**
     * \brief Random loss above kMaxFlowLoss on any link direction, refused: beyond it TCP's
     * retransmission timeouts decide a transfer's time, which flows do not model.
     * \param links every link direction of the underlay
     * \throws std::invalid_argument naming link.loss, the link and its loss
     */
    void CheckLinks(const std::vector<UnderlayLink>& links) const override;

    /**
     * \brief A learner's transport whose messages are flows of this network.
     * \param learner the learner's id
     * \param settings the application's TCP settings (the flows' segment size, buffers, timers)
     * \return a FlowMessageTransport over this network
     */
    Ptr<MessageTransport> CreateTransport(uint32_t learner,
                                          const TcpTransportSettings& settings) override;
    /**
     * \brief Cross traffic as a load of this network on one link direction.
     * \param device the sending device of the link direction
     * \param kind "cbr" or "onoff" ("bulk" is refused by CheckScenario)
     * \param rateBps the UDP payload rate while on
     * \param datagramBytes the UDP payload of each datagram
     * \return a FlowCrossTraffic application for the device's node
     */
    Ptr<Application> CreateCrossTraffic(Ptr<NetDevice> device,
                                        const std::string& kind,
                                        double rateBps,
                                        uint32_t datagramBytes) override;
    /// \return false: the flows' bytes are counted by GetTxBytes, not by the devices
    bool MovesPackets() const override;
    /**
     * \param device a link direction's sending device
     * \return its bytes on the wire (GetTxBytes) and how often the flows' windows exceeded
     * its queue (GetOverflows)
     */
    Carried GetCarried(Ptr<NetDevice> device) override;

    /// What a listening learner does with a message that arrived whole (framed).
    using Deliver = std::function<void(std::shared_ptr<const std::vector<uint8_t>> framed)>;
    /**
     * What a sender learns when its connection failed (TCP gave up, or the receiver reset it):
     * why, whether the connection had ever been set up, and how many messages it held (the
     * flowing one included). The connection sends nothing until Reconnect.
     */
    using Failed = FlowFailed;

    /**
     * \brief A learner's transport takes messages sent to `node`.
     * \param node its host
     * \param deliver called at every arrival
     */
    void Listen(Ptr<Node> node, Deliver deliver);
    /// \param node a host that no longer takes messages (what arrives for it is lost)
    void StopListening(Ptr<Node> node);

    /**
     * \brief Open a connection (its first message can leave one round trip later).
     * \param node the sending host
     * \param address where the receiver is reached
     * \param settings the TCP settings (segment size, initial window, buffer, minimum RTO)
     * \param failed called when the connection fails (see Failed)
     * \return the connection's id
     * \throws FlowModelError when there is no route or a hop is not a point-to-point link
     */
    uint32_t Connect(Ptr<Node> node,
                     Ipv4Address address,
                     const TcpTransportSettings& settings,
                     Failed failed);
    /**
     * \brief Set a failed connection up again, with a new handshake after `after`.
     * \param connection from Connect, failed
     * \param after the wait before the handshake
     * \param keep whether it keeps the messages it held (none of them had left), else forgets them
     */
    void Reconnect(uint32_t connection, Time after, bool keep);
    /**
     * \brief Queue a message on a connection; it starts when the ones before it have left.
     * \param connection from Connect
     * \param framed the message's bytes (shared by the connections that send it)
     * \param valueBytes of which model values
     */
    void Send(uint32_t connection,
              std::shared_ptr<const std::vector<uint8_t>> framed,
              uint64_t valueBytes);
    /**
     * \brief A load that does not respond to congestion (UDP cross traffic) on one link
     * direction, at first 0.
     * \param device the sending device of the link direction
     * \return the load's id, for SetLoad
     * \throws FlowModelError when the device is not on a point-to-point link
     */
    uint32_t AddLoad(Ptr<NetDevice> device);
    /**
     * \brief From now, a load takes this many bit/s of its link direction's rate (its packets'
     * headers included); the flows share what is left.
     * \param load from AddLoad
     * \param bitsPerSecond the load's rate on the wire (0: off)
     */
    void SetLoad(uint32_t load, double bitsPerSecond);

    /**
     * \param connection from Connect
     * \return the messages queued on it that have not started, now dropped
     */
    std::vector<DroppedMessage> DropUnsent(uint32_t connection);
    /// \param connection from Connect: closed, its messages (sent or not) forgotten
    void Close(uint32_t connection);

    /// \return flow events handled so far (starts, ends, window steps, loss events, load and
    /// rate changes, outages, stalls, tries and failures)
    uint64_t GetEvents() const;

    /**
     * \param device a point-to-point link direction's sending device
     * \return the bytes the flows and loads have put on it so far: each flow's bytes with its
     * segments' headers, its ACKs' headers on the reverse direction, and the loads' bits; no
     * handshakes and no retransmissions (losses slow flows down, they resend nothing)
     */
    uint64_t GetTxBytes(Ptr<NetDevice> device);

    /**
     * \param device a point-to-point link direction's sending device
     * \return how many times the windows of the flows over it came to exceed what its pipe and
     * its drop-tail queue hold, or a first window timed out in it (FirstWindowTimesOut): where
     * TCP over packets would lose segments to the queue's overflow, which the flow model only
     * approximates (it stays optimistic there)
     */
    uint64_t GetOverflows(Ptr<NetDevice> device) const;

    /**
     * \brief A point-to-point device's DataRate has just changed (a rate trace's step): the
     * flows over that link direction take the new rate from now. Does nothing when the device
     * is unknown to this network (its rate is read when a route or a load first uses it).
     * \param device the device whose DataRate attribute was set
     */
    void NotifyDataRate(Ptr<NetDevice> device) override;

  protected:
    /// Forget the listeners, the connections' callbacks and the links' devices.
    void DoDispose() override;

  private:
    /// flow::Measure, a link whose payload rate changes marked for sharing again.
    void Measure(FlowConnection& c);
    /// Bring the flows to now, give a link direction its new rate and share the links again.
    void SetRate(uint32_t link, double bitsPerSecond);
    /// Start the head message of a connection whose handshake is over, if it is waiting.
    void StartHead(uint32_t id);
    /// Make a connection's head message its active flow, from now.
    void Activate(uint32_t id);
    /// A connection's flow no longer crosses its links (it ended, failed or was closed).
    void Deactivate(uint32_t id);
    /// Rates (with the ACKs' share of the links), then the next event.
    void Reschedule();
    /// Reschedule once, later at this time: rate and load changes come many at one time (a
    /// trace's step on every traced link, every cbr load at the start), one sharing serves all.
    void RescheduleSoon();
    /// The flows whose event is now: their ends, losses and window steps, then Reschedule.
    void OnEvent();
    /// A link direction went out of service or came back (its OutageErrorModel's Down trace).
    void OnOutage(uint32_t link, bool down);
    /// Whether a connection's receiver stopped listening, or listens anew, since its handshake.
    bool ReceiverStartedAnew(const FlowConnection& c) const;
    /// The handshake of a connection, now: it completes one round trip on, or stalls.
    void Handshake(uint32_t id);
    /// A stalled connection's flow stops; its first try comes after its timeout.
    void Stall(uint32_t id, double timeoutSeconds);
    /// A stalled connection's timeout: the try gets through (resume) or is lost (back off).
    void Retry(uint32_t id);
    /// A connection fails: its flow stops, and its sender is told.
    void Fail(uint32_t id, const std::string& why);

    FlowLinks m_links;                         ///< the link directions, with routes (flow-routes.h)
    std::vector<FlowConnection> m_connections; ///< by id
    FlowSharing m_sharing;                     ///< the links' sharing (flow-sharing.h)
    FlowEventQueue m_eventQueue;               ///< the flows by next event (flow-events.h)
    std::vector<FlowLoad> m_loads;             ///< by id
    std::map<uint32_t, Deliver> m_listeners;   ///< by node id
    std::map<uint32_t, uint64_t> m_generation; ///< by node id: how often it started listening
    EventId m_event;                           ///< the next flow event (an end or a window step)
    EventId m_reschedule;                      ///< the pending RescheduleSoon
    uint64_t m_events = 0;                     ///< flow events handled so far
};

} // namespace ns3

#endif // DLSIM_FLOW_NETWORK_H
