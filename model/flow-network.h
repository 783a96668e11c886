// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow-level network model: messages as flows sharing the underlay's links.
 */
#ifndef DLSIM_FLOW_NETWORK_H
#define DLSIM_FLOW_NETWORK_H

#include "indexed-min-heap.h"
#include "message-transport.h"
#include "network-model.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"
#include "tcp-message-transport.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
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

/// What the queue in front of a link direction holds.
struct QueueLimit
{
    double bytes = 0.0;          ///< a drop-tail queue's size (infinity for an AQM)
    double targetSeconds = -1.0; ///< an AQM's target delay (negative: drop-tail)
};

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
 */
class FlowNetwork : public NetworkModel
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \brief What network.model = flow cannot carry, refused by key: a Wi-Fi underlay (its
     * links are not point-to-point), bulk TCP cross traffic, packet captures.
     * \param scenario the scenario's keys
     * \throws std::invalid_argument naming the key
     */
    static void CheckScenario(const NetworkModelScenario& scenario);

    /// A FlowMessageTransport over this network.
    Ptr<MessageTransport> CreateTransport(uint32_t learner,
                                          const TcpTransportSettings& settings) override;
    /// A FlowCrossTraffic load on the device's link direction (cbr, onoff).
    Ptr<Application> CreateCrossTraffic(Ptr<NetDevice> device,
                                        const std::string& kind,
                                        double rateBps,
                                        uint32_t datagramBytes) override;
    /// \return false: the flows' bytes are counted by GetTxBytes, not by the devices
    bool MovesPackets() const override;
    /// GetTxBytes and GetOverflows of the device.
    Carried GetCarried(Ptr<NetDevice> device) override;

    /// What a listening learner does with a message that arrived whole (framed).
    using Deliver = std::function<void(std::shared_ptr<const std::vector<uint8_t>> framed)>;
    /**
     * What a sender learns when its connection failed (TCP gave up, or the receiver reset it):
     * why, whether the connection had ever been set up, and how many messages it held (the
     * flowing one included). The connection sends nothing until Reconnect.
     */
    using Failed = std::function<void(const std::string& why, bool everConnected, uint32_t held)>;

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
    /// One direction of a point-to-point link.
    struct Link
    {
        double payloadBytesPerSecond = 0.0; ///< the rate less the headers' share
        double bitsPerSecond = 0.0;         ///< the device's rate
        double latencySeconds = 0.0;        ///< the channel's delay
        double loadBitsPerSecond = 0.0;     ///< taken by loads (AddLoad) now
        double loss = 0.0;                  ///< the probability that a packet is lost on it
        bool down = false;                  ///< out of service (its OutageErrorModel)
        double standingSeconds = 0.0;       ///< the queueing delay a bulk TCP flow keeps
        Ptr<PointToPointNetDevice> device;  ///< the sending device (its queue, for the above)
        uint32_t reverse = 0;               ///< the link's other direction
        std::vector<uint32_t> connections;  ///< active flows over it (by connection)
        double txBytes = 0.0;               ///< put on it so far (GetTxBytes)
        QueueLimit queue;                   ///< its queue (QueueLimitOf)
        bool overflowing = false;           ///< the windows over it exceed pipe and queue now
        uint64_t overflows = 0;             ///< times they came to (GetOverflows)
    };

    struct Queued
    {
        std::shared_ptr<const std::vector<uint8_t>> framed;
        uint64_t valueBytes = 0;
    };

    /// A load on one link direction.
    struct Load
    {
        uint32_t link = 0;          ///< the link direction it loads
        double bitsPerSecond = 0.0; ///< its rate on the wire now
        Time broughtAt;             ///< its link's txBytes hold its bits until then
    };

    struct Connection
    {
        uint32_t to = 0;             ///< the receiving node
        std::vector<uint32_t> links; ///< the route's link directions
        double rttSeconds = 0.0;     ///< propagation both ways plus a segment's transmissions
        double propagationSeconds = 0.0; ///< the route's latency one way
        double deliveryDelay = 0.0;  ///< from the last byte leaving to its arrival
        double bottleneck = 0.0;     ///< the smallest payload rate on the route
        uint32_t bottleneckLink = 0; ///< the link direction of that rate
        double lossSpacingBytes = 0.0; ///< bytes between loss events (infinity: no loss)
        double sinceLossBytes = 0.0;   ///< bytes sent since the last loss event
        double ssthreshBytes = 0.0;    ///< slow start ends here (infinity until a loss)
        double windowMaxBytes = 0.0;   ///< the window before the last loss (CUBIC's W_max)
        Time lastLoss;                 ///< when the last loss event was (CUBIC's epoch began)
        bool hystart = false;          ///< slow start ends when the round trip grows (Linux's)
        uint32_t hystartLowWindow = 16; ///< HyStart acts from this window (segments)
        uint32_t hystartMinSamples = 8; ///< RTT samples of a round before it acts
        double hystartAckDeltaSeconds = 0.002; ///< ACKs this close form a train
        bool hystartFound = false;             ///< HyStart acted (it acts once)
        bool fromHystart = false;       ///< CUBIC's epoch began at HyStart's exit, not at a loss
        double ackDelaySeconds = 0.0;   ///< its ACKs' wait behind the other direction's data
        double startWaitSeconds = 0.0;  ///< its first window's wait behind the others' (its
                                        ///< message's first round trip; 0 after it)
        Time lastStart = Time::Min();   ///< when its current message started
        double burstBytes = 0.0;        ///< the first window it sent at its message's start
        double burstAheadBytes = 0.0;   ///< the first windows queued before its own then
        double tailLostBytes = 0.0;     ///< its message's end dropped from its first window
        bool restFits = false;          ///< RestFits at the last event (a change marks the flow)
        double roundStartBytes = 0.0;   ///< the head's remaining bytes at its round trip's start
        double segmentBytes = 1448;
        double windowBytes = 0.0; ///< the congestion window
        double initialWindowBytes = 0.0;
        double bufferBytes = 0.0;    ///< the send buffer bounds the window
        double rtoSeconds = 0.0;     ///< the idle restart's timeout (RTT + minimum RTO)
        double minRtoSeconds = 0.2;  ///< the minimum RTO
        Time readyAt;                ///< the handshake's end
        Time lastSent = Time::Min(); ///< when its previous message's last byte left
        std::deque<Queued> queue;    ///< the head is the active flow once started
        bool active = false;         ///< the head is flowing
        double remaining = 0.0;      ///< bytes of the head still to leave (at broughtAt)
        double rate = 0.0;           ///< bytes per second now
        Time broughtAt;              ///< remaining, sinceLossBytes and txBytes hold until then
        Time eventAt = Time::Max();  ///< its next event (in m_eventQueue while active)
        Time nextWindowStep;         ///< when the window grows next (while it limits)
        bool closed = false;
        Failed failed;                   ///< told when the connection fails
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

    /// The route from `node` to `address`, as link indices (made on first use per direction).
    std::vector<uint32_t> RouteOf(Ptr<Node> node, Ipv4Address address, uint32_t* to);
    uint32_t LinkOf(Ptr<NetDevice> device);
    /// A connection's round-trip time, retransmission timeout, delivery delay and bottleneck
    /// from its links' rates; each of its links' payload rate is set for the connection's
    /// segment size on the way (every learner of a run has the same; a change marks the link).
    void Measure(Connection& c);
    /// Bring the flows to now, give a link direction its new rate and share the links again.
    void SetRate(uint32_t link, double bitsPerSecond);
    /// Start the head message of a connection whose handshake is over, if it is waiting.
    void StartHead(uint32_t id);
    /// Make a connection's head message its active flow, from now.
    void Activate(uint32_t id);
    /// A connection's flow no longer crosses its links (it ended, failed or was closed).
    void Deactivate(uint32_t id);
    /**
     * Bring a connection's bytes to now at its rate (its remaining bytes, the bytes since its last
     * loss, its links' txBytes), with the window steps that came before now on the way: nothing
     * that decides a step (rate, window, round trip, the queues' overflow) changed since it was
     * last brought, as any change brings it first.
     * \param c the connection
     * \param cut whether its window was cut at a step of this event (a cut comes once an event)
     */
    void Bring(Connection& c, bool& cut);
    /// Bring a connection to now (Bring) outside a flow event: no cut at its steps yet.
    void Bring(Connection& c);
    /// Bring a connection's bytes (only) to time `t`, at its rate.
    void BringTo(Connection& c, Time t);
    /// Bring a load's bits on its link to now.
    void BringLoad(Load& load);
    /**
     * One round trip's window step of a connection (at its time): a cut where its window waits
     * over an overflowing queue (once an event: `cut`), else growth while its window limits it.
     */
    void Step(Connection& c, bool& cut);
    /// A connection whose next event must be found again at the next Reschedule.
    void Touch(uint32_t id);
    /// \return m_eventQueue's order: by next event, ties by id (a pass over the flows' order)
    auto EventOrder() const
    {
        return [this](uint32_t a, uint32_t b)
        {
            const Time& ta = m_connections[a].eventAt;
            const Time& tb = m_connections[b].eventAt;
            return ta < tb || (ta == tb && a < b);
        };
    }
    /// \return when a connection's next event is, from now: its end, its rest coming to fit its
    /// window, its next loss, its window's step (while that steps anything); Time::Max() if none
    Time NextEvent(const Connection& c) const;
    /// A link direction whose flows' rates may have changed: shared again at the next Reschedule.
    void MarkLink(uint32_t link);
    /// A connection whose rate may have changed (its links, and their other directions).
    void Mark(uint32_t id);
    /// The links and flows to share again: those joined (by flows, their links and the ACKs'
    /// other directions) to the marked links, each in ascending order; clears the marks.
    void Component(std::vector<uint32_t>& links, std::vector<uint32_t>& flows);
    /// Rates by weighted progressive filling over these links (payload capacities by link
    /// index) for these flows.
    void Fill(const std::vector<uint32_t>& component,
              const std::vector<uint32_t>& flows,
              const std::vector<double>& capacity);
    /// Rates (with the ACKs' share of the links), then the next event.
    void Reschedule();
    /// Reschedule once, later at this time: rate and load changes come many at one time (a
    /// trace's step on every traced link, every cbr load at the start), one sharing serves all.
    void RescheduleSoon();
    void OnEvent();
    /// A link direction went out of service or came back (its OutageErrorModel's Down trace).
    void OnOutage(uint32_t link, bool down);
    /// A connection as a new socket has it: no handshake yet, the initial window, no loss.
    static void Restart(Connection& c);
    /// Whether a connection's receiver stopped listening, or listens anew, since its handshake.
    bool ReceiverStartedAnew(const Connection& c) const;
    /// Whether a link on a connection's route, either way, is out of service.
    bool Blocked(const Connection& c) const;
    /// The handshake of a connection, now: it completes one round trip on, or stalls.
    void Handshake(uint32_t id);
    /// The timeout of a flow that stalls now: its RTO, with the standing queue it kept.
    double StallTimeout(const Connection& c) const;
    /// A stalled connection's flow stops; its first try comes after its timeout.
    void Stall(uint32_t id, double timeoutSeconds);
    /// A stalled connection's timeout: the try gets through (resume) or is lost (back off).
    void Retry(uint32_t id);
    /// A connection fails: its flow stops, and its sender is told.
    void Fail(uint32_t id, const std::string& why);
    double WindowRate(const Connection& c) const;
    /// \return a connection's window as it limits the sender (the send buffer bounds it)
    static double Window(const Connection& c);
    /// \return whether the rest of a connection's head message fits in its window
    static bool RestFits(const Connection& c);
    /// \return a connection's round trip with its ACKs' wait behind the other direction's data
    static double RoundTrip(const Connection& c);
    /// The ACKs' wait of a component's flows behind their route's other direction's data.
    void DelayAcks(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows);
    /**
     * \param c an active connection
     * \return whether part of its window waits in a queue on its route that the windows there
     * overflow (CheckOverflow)
     */
    bool Overflows(const Connection& c) const;
    /**
     * \param id a connection whose message starts from idle, now
     * \return whether its first window meets a queue that times it out: the first windows ahead
     * of it fill its first link's drop-tail queue, or take longer to send than its retransmission
     * timeout leaves beyond its round trip; it then waits that timeout (TCP's go-back after a
     * timeout, which the packet level does not undo), else a tail dropped cuts its window
     */
    bool FirstWindowTimesOut(uint32_t id);
    /// Count the links of `component` whose windows came to overflow them (GetOverflows).
    void CheckOverflow(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows);
    /// Linux's HyStart at a window step: whether slow start ends here (and the window it ends at).
    bool LeaveSlowStart(Connection& c) const;
    /// Whether a connection's window grows at its next step: below its send buffer, it limits
    /// the flow (as Linux grows only a window that limits).
    bool WindowGrows(const Connection& c) const;
    /// One round trip's growth of a connection's window that sent `sentBytes` in it: in slow
    /// start by what was sent (doubling a full window), else CUBIC's (while it limits).
    void GrowWindow(Connection& c, double sentBytes) const;
    /// A loss event: the window is cut (CUBIC's beta) and slow start ends.
    static void LoseOnce(Connection& c);

    std::vector<Link> m_links;
    std::map<Ptr<NetDevice>, uint32_t> m_linkOfDevice;
    std::vector<Connection> m_connections;
    /// The active connections by their next event (ties by id): an event visits the flows
    /// whose event it is and those whose rates it changes, not every flow (a pass over all
    /// active flows at every flow's end made a thousand learners' rounds quadratic).
    IndexedMinHeap m_eventQueue;
    std::vector<uint32_t> m_due;     ///< scratch of OnEvent: the connections whose event is now
    std::vector<uint32_t> m_touched; ///< connections whose next event Reschedule finds again
    std::vector<char> m_isTouched;   ///< by connection: in m_touched
    std::vector<Load> m_loads;
    std::map<uint32_t, Deliver> m_listeners; ///< by node id
    std::map<uint32_t, uint64_t> m_generation; ///< by node id: how often it started listening
    EventId m_event;                         ///< the next flow event (an end or a window step)
    EventId m_reschedule;                    ///< the pending RescheduleSoon
    uint64_t m_events = 0;                   ///< flow events handled so far
    std::vector<uint32_t> m_changed;         ///< marked links (MarkLink), in marking order
    std::vector<char> m_marked;              ///< by link: in m_changed
    std::vector<char> m_inComponent;         ///< by link: scratch of Component
    std::vector<char> m_flowInComponent;     ///< by connection: scratch of Component
    // Scratch of Reschedule and Fill, by link (and by connection: m_fixed, 1 but mid-Fill).
    std::vector<double> m_capacity;
    /// A progressive filling's heap entry: (rate per unit of weight, link or flow).
    using FillEntry = std::pair<double, uint32_t>;
    std::vector<FillEntry> m_windowHeap; ///< Fill's flows by window rate
    IndexedMinHeap m_linkHeap;           ///< Fill's links by share per weight
    std::vector<double> m_left;
    std::vector<double> m_weights;
    std::vector<uint32_t> m_count;
    std::vector<char> m_fixed;
    std::vector<double> m_burst;  ///< by link: the windows queued there (DelayAcks)
    std::vector<double> m_queued; ///< by link: the windows beyond the pipe (CheckOverflow)
};

} // namespace ns3

#endif // DLSIM_FLOW_NETWORK_H
