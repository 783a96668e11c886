// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-network.h"

#include "flow-cross-traffic.h"
#include "flow-message-transport.h"
#include "flow-window.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimFlowNetwork");
NS_OBJECT_ENSURE_REGISTERED(FlowNetwork);

namespace
{

/// The initial value of an ns-3 type's attribute (its default, as Config set it).
template<typename V>
auto
AttributeDefault(const std::string& type, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(TypeId::LookupByName(type).LookupAttributeByName(name, &info));
    return DynamicCast<const V>(info.initialValue)->Get();
}

/// The initial value of one of ns-3's TcpSocket attributes.
template<typename V>
auto
TcpSocketDefault(const std::string& name)
{
    return AttributeDefault<V>("ns3::TcpSocket", name);
}

/// TCP's longest retransmission timeout (ns-3's and Linux's backoff stops doubling there).
constexpr double kMaxTimeoutSeconds = 60.0;

} // namespace

TypeId
FlowNetwork::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowNetwork")
                            .SetParent<NetworkModel>()
                            .SetGroupName("Dlsim")
                            .AddConstructor<FlowNetwork>();
    return tid;
}

FlowNetwork::FlowNetwork() : m_sharing(m_links, m_connections), m_eventQueue(m_connections)
{
    m_links.SetAdded(
        [this](uint32_t link, Ptr<OutageErrorModel> outage)
        {
            m_sharing.AddLink();
            if (outage)
            {
                outage->TraceConnectWithoutContext(
                    "Down", MakeCallback(&FlowNetwork::OnOutage, this).Bind(link));
            }
        });
}

void
FlowNetwork::CheckScenario(const NetworkModelScenario& scenario)
{
    if (scenario.value("network") == "wifi")
    {
        throw std::invalid_argument("network.model = flow carries messages over point-to-point "
                                    "links only: network = wifi needs network.model = packet");
    }
    if (scenario.value("cross.traffic") == "bulk")
    {
        // ns-3's own TCP, which the bulk cross flows use over packets, leaves their links
        // 40-70% idle; a fair-share flow would slow the learners by up to half more.
        throw std::invalid_argument("cross.traffic = bulk: network.model = flow models UDP cross "
                                    "traffic only (cbr, onoff); use network.model = packet");
    }
    for (const std::string& key : scenario.changed("capture."))
    {
        if (key != "capture.snaplen")
        {
            throw std::invalid_argument(key
                                        + ": network.model = flow has no packets to capture; "
                                          "use network.model = packet");
        }
    }
}

void
FlowNetwork::CheckLinks(const std::vector<UnderlayLink>& links) const
{
    for (const auto& link : links)
    {
        if (link.loss > kMaxFlowLoss)
        {
            throw std::invalid_argument(
                FlowLossRefusal("link " + link.from + ":" + link.to, link.loss));
        }
    }
}

Ptr<MessageTransport>
FlowNetwork::CreateTransport(uint32_t learner, const TcpTransportSettings& settings)
{
    return CreateObject<FlowMessageTransport>(Ptr<FlowNetwork>(this), learner, settings);
}

Ptr<Application>
FlowNetwork::CreateCrossTraffic(Ptr<NetDevice> device,
                                const std::string& kind,
                                double rateBps,
                                uint32_t datagramBytes)
{
    Ptr<FlowCrossTraffic> load = CreateObject<FlowCrossTraffic>();
    load->Setup(this, device, kind, rateBps, datagramBytes);
    return load;
}

bool
FlowNetwork::MovesPackets() const
{
    return false;
}

NetworkModel::Carried
FlowNetwork::GetCarried(Ptr<NetDevice> device)
{
    return {GetTxBytes(device), GetOverflows(device)};
}

void
FlowNetwork::DoDispose()
{
    // The listeners and the connections' callbacks hold their transports, which hold this.
    m_listeners.clear();
    for (FlowConnection& c : m_connections)
    {
        Simulator::Cancel(c.retry);
        c.failed = nullptr;
        c.queue.clear();
    }
    m_links.Clear();
    Simulator::Cancel(m_event);
    Simulator::Cancel(m_reschedule);
    NetworkModel::DoDispose();
}

void
FlowNetwork::Listen(Ptr<Node> node, Deliver deliver)
{
    m_listeners[node->GetId()] = std::move(deliver);
    ++m_generation[node->GetId()]; // connections to an earlier listener are reset
}

void
FlowNetwork::StopListening(Ptr<Node> node)
{
    m_listeners.erase(node->GetId());
}

void
FlowNetwork::Measure(FlowConnection& c)
{
    flow::Measure(c, m_links, [this](uint32_t l) { m_sharing.MarkLink(l); });
}

void
FlowNetwork::NotifyDataRate(Ptr<NetDevice> device)
{
    uint32_t link = 0;
    if (!m_links.Find(device, &link))
    {
        return;
    }
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    SetRate(link, static_cast<double>(rate.Get().GetBitRate()));
}

void
FlowNetwork::SetRate(uint32_t link, double bitsPerSecond)
{
    // Every connection over the link, its bytes sent so far at the old rates, measured again:
    // its bottleneck, and the segment's transmission in its round trip and delivery.
    m_sharing.MarkLink(link);
    m_links[link].bitsPerSecond = bitsPerSecond;
    m_links[link].standingSeconds = flow::StandingDelayOf(m_links[link].queue, bitsPerSecond);
    for (uint32_t id = 0; id < m_connections.size(); ++id)
    {
        FlowConnection& c = m_connections[id];
        if (std::find(c.links.begin(), c.links.end(), link) != c.links.end())
        {
            flow::Bring(c, m_links);
            Measure(c);
            m_eventQueue.Touch(id); // its round trip, and so its window's steps, changed
        }
    }
    ++m_events;
    RescheduleSoon();
}

uint32_t
FlowNetwork::Connect(Ptr<Node> node,
                     Ipv4Address address,
                     const TcpTransportSettings& settings,
                     Failed failed)
{
    FlowConnection c;
    c.links = m_links.RouteOf(node, address, &c.to);
    if (c.links.empty())
    {
        throw FlowModelError("network.model = flow: node " + std::to_string(node->GetId())
                             + " would send to itself (a flow needs at least one link)");
    }
    c.segmentBytes = settings.segmentSize;
    c.minRtoSeconds = settings.minRto.GetSeconds();
    Measure(c);
    c.initialWindowBytes = settings.initialCwnd * c.segmentBytes;
    flow::Restart(c);
    c.bufferBytes = settings.bufferSize;
    c.failed = std::move(failed);
    c.dataRetries = TcpSocketDefault<UintegerValue>("DataRetries");
    // The Linux profile's CUBIC leaves slow start by Linux's HyStart (LinuxCubic); ns-3's own
    // TCP keeps slow start until its window stops limiting.
    c.hystart = settings.linuxTcp && AttributeDefault<BooleanValue>("ns3::TcpCubic", "HyStart");
    c.hystartLowWindow = AttributeDefault<UintegerValue>("ns3::TcpCubic", "HyStartLowWindow");
    c.hystartMinSamples = AttributeDefault<UintegerValue>("ns3::TcpCubic", "HyStartMinSamples");
    c.hystartAckDeltaSeconds
        = AttributeDefault<TimeValue>("ns3::TcpCubic", "HyStartAckDelta").GetSeconds();
    c.connCount = TcpSocketDefault<UintegerValue>("ConnCount");
    // The Linux profile's sockets set Linux's first SYN timeout (LinuxTcpSocket).
    c.connTimeoutSeconds
        = settings.linuxTcp ? 1.0 : TcpSocketDefault<TimeValue>("ConnTimeout").GetSeconds();
    m_connections.push_back(c);
    const auto id = static_cast<uint32_t>(m_connections.size() - 1);
    Handshake(id);
    return id;
}

void
FlowNetwork::Reconnect(uint32_t connection, Time after, bool keep)
{
    FlowConnection& c = m_connections.at(connection);
    if (!keep)
    {
        c.queue.clear();
    }
    c.broken = false;
    flow::Restart(c);
    c.retry = Simulator::Schedule(after, &FlowNetwork::Handshake, this, connection);
}

bool
FlowNetwork::ReceiverStartedAnew(const FlowConnection& c) const
{
    // A stack that started anew since the handshake knows no such connection: it resets it.
    const auto generation = m_generation.find(c.to);
    return m_listeners.count(c.to) == 0 || generation == m_generation.end()
           || generation->second != c.generation;
}

void
FlowNetwork::Handshake(uint32_t id)
{
    FlowConnection& c = m_connections[id];
    if (c.closed)
    {
        return;
    }
    if (flow::Blocked(c, m_links))
    {
        Stall(id, c.connTimeoutSeconds); // the SYN is lost
        return;
    }
    // Data can leave with the ACK of the SYN-ACK, one round trip on; the connection is the
    // receiver's listener's of then (a receiver that starts anew later resets it).
    c.readyAt = Simulator::Now() + Seconds(c.rttSeconds);
    c.retry = Simulator::Schedule(Seconds(c.rttSeconds),
                                  [this, id]()
                                  {
                                      FlowConnection& c = m_connections[id];
                                      if (flow::Blocked(c, m_links))
                                      {
                                          // The SYN-ACK or the ACK is lost: the SYN again.
                                          Stall(id, c.connTimeoutSeconds);
                                          return;
                                      }
                                      if (m_listeners.count(c.to) == 0)
                                      {
                                          Fail(id, "was refused: the receiver does not listen");
                                          return;
                                      }
                                      c.generation = m_generation[c.to];
                                      c.established = true;
                                      StartHead(id);
                                  });
}

void
FlowNetwork::Stall(uint32_t id, double timeoutSeconds)
{
    FlowConnection& c = m_connections[id];
    flow::Bring(c, m_links);
    c.stalled = true;
    c.rate = 0.0;
    m_sharing.Mark(id);
    m_eventQueue.Touch(id); // it has no next event while stalled
    c.tries = 0;
    c.timeoutSeconds = timeoutSeconds;
    Simulator::Cancel(c.retry);
    c.retry = Simulator::Schedule(Seconds(timeoutSeconds), &FlowNetwork::Retry, this, id);
    ++m_events;
    RescheduleSoon();
}

void
FlowNetwork::Retry(uint32_t id)
{
    FlowConnection& c = m_connections[id];
    if (c.closed || c.broken || !c.stalled)
    {
        return;
    }
    ++m_events;
    if (!flow::Blocked(c, m_links))
    {
        c.stalled = false;
        if (!c.established)
        {
            Handshake(id); // this SYN gets through
            return;
        }
        // The retransmission reaches the receiver.
        if (ReceiverStartedAnew(c))
        {
            Fail(id, "was reset by the receiver, which started anew");
            return;
        }
        // After a timeout TCP restarts from a one-segment window (RFC 5681), slow-starting to
        // what CUBIC leaves of the window it had.
        flow::BringTo(c, m_links, Simulator::Now()); // stalled, it sent nothing
        flow::LoseOnce(c);
        c.windowBytes = c.segmentBytes;
        c.nextWindowStep = Simulator::Now() + Seconds(c.rttSeconds);
        c.roundStartBytes = c.remaining;
        m_sharing.Mark(id);
        if (c.active)
        {
            RescheduleSoon();
        }
        else
        {
            StartHead(id);
        }
        return;
    }
    // ns-3 gives up after DataRetries retransmissions, and after ConnCount SYNs (the first
    // one included).
    if (c.established ? c.tries >= c.dataRetries : c.tries + 1 >= c.connCount)
    {
        std::ostringstream why;
        why << (c.established ? "TCP gave up after "
                              : "TCP gave up on the connection request after ")
            << c.tries << (c.established ? " retransmissions" : " retries")
            << " (a link on the route was out of service)";
        Fail(id, why.str());
        return;
    }
    ++c.tries;
    c.timeoutSeconds = std::min(2.0 * c.timeoutSeconds, kMaxTimeoutSeconds);
    c.retry = Simulator::Schedule(Seconds(c.timeoutSeconds), &FlowNetwork::Retry, this, id);
}

void
FlowNetwork::Fail(uint32_t id, const std::string& why)
{
    FlowConnection& c = m_connections[id];
    // Its bytes so far; not its window's steps (it stops, and a try that just got through left
    // the steps of its stall behind).
    flow::BringTo(c, m_links, Simulator::Now());
    Simulator::Cancel(c.retry);
    Deactivate(id);
    c.stalled = false;
    c.broken = true;
    const bool established = c.established;
    const auto held = static_cast<uint32_t>(c.queue.size());
    const Failed failed = c.failed; // it may connect again, and m_connections grow
    ++m_events;
    RescheduleSoon();
    failed(why, established, held);
}

void
FlowNetwork::OnOutage(uint32_t link, bool down)
{
    m_links[link].down = down;
    ++m_events;
    if (!down)
    {
        return; // stalled connections find out at their next try, as TCP does
    }
    for (uint32_t id = 0; id < m_connections.size(); ++id)
    {
        FlowConnection& c = m_connections[id];
        if (c.active && !c.stalled && !c.closed && flow::Blocked(c, m_links))
        {
            flow::Bring(c, m_links); // its timeout depends on whether its window holds the rest
            Stall(id, flow::StallTimeout(c, m_links));
        }
    }
}

void
FlowNetwork::Send(uint32_t connection,
                  std::shared_ptr<const std::vector<uint8_t>> framed,
                  uint64_t valueBytes)
{
    FlowConnection& c = m_connections.at(connection);
    if (c.closed)
    {
        return;
    }
    c.queue.push_back({std::move(framed), valueBytes});
    StartHead(connection);
}

uint32_t
FlowNetwork::AddLoad(Ptr<NetDevice> device)
{
    m_loads.push_back({m_links.LinkOf(device), 0.0});
    return static_cast<uint32_t>(m_loads.size() - 1);
}

void
FlowNetwork::SetLoad(uint32_t load, double bitsPerSecond)
{
    FlowLoad& l = m_loads.at(load);
    flow::BringLoad(l, m_links);
    m_links[l.link].loadBitsPerSecond += bitsPerSecond - l.bitsPerSecond;
    m_sharing.MarkLink(l.link);
    l.bitsPerSecond = bitsPerSecond;
    ++m_events;
    RescheduleSoon();
}

std::vector<DroppedMessage>
FlowNetwork::DropUnsent(uint32_t connection)
{
    FlowConnection& c = m_connections.at(connection);
    std::vector<DroppedMessage> dropped;
    const size_t keep = c.active ? 1 : 0; // the flowing head has left in part
    while (c.queue.size() > keep)
    {
        const FlowQueued& q = c.queue.back();
        dropped.push_back({q.framed->size(), q.valueBytes});
        c.queue.pop_back();
    }
    return dropped;
}

void
FlowNetwork::Close(uint32_t connection)
{
    FlowConnection& c = m_connections.at(connection);
    // Its bytes so far (it stops: its window's steps do not matter).
    flow::BringTo(c, m_links, Simulator::Now());
    Simulator::Cancel(c.retry);
    Deactivate(connection);
    c.queue.clear();
    c.failed = nullptr; // it holds its transport
    c.closed = true;
    RescheduleSoon();
}

uint64_t
FlowNetwork::GetEvents() const
{
    return m_events;
}

uint64_t
FlowNetwork::GetOverflows(Ptr<NetDevice> device) const
{
    uint32_t link = 0;
    return m_links.Find(device, &link) ? m_links[link].overflows : 0;
}

uint64_t
FlowNetwork::GetTxBytes(Ptr<NetDevice> device)
{
    uint32_t link = 0;
    return m_links.Find(device, &link) ? flow::TxBytes(m_links, m_connections, m_loads, link) : 0;
}

void
FlowNetwork::StartHead(uint32_t id)
{
    FlowConnection& c = m_connections[id];
    if (c.closed || c.broken || c.stalled || !c.established || c.active || c.queue.empty()
        || Simulator::Now() < c.readyAt)
    {
        return;
    }
    if (!flow::Blocked(c, m_links) && ReceiverStartedAnew(c))
    {
        Fail(id, "was reset by the receiver, which started anew");
        return;
    }
    flow::RestartAfterIdle(c, id);
    NS_LOG_INFO("flow " << id << " to node " << c.to << " starts " << c.queue.front().framed->size()
                        << " B, window " << c.windowBytes << " rtt " << flow::RoundTrip(c) * 1e3
                        << " ms");
    Activate(id);
    ++m_events;
    // Its first segments are lost (the queues drained while idle), or its first window meets a
    // queue that times it out: it tries again after its retransmission timeout.
    if (flow::Blocked(c, m_links) || flow::FirstWindowTimesOut(c, m_links))
    {
        Stall(id, c.rtoSeconds);
        return;
    }
    // Once per instant: a learner's message starts a flow to each neighbour, and learners
    // with the same compute time send together; sharing the links after each start cost one
    // progressive filling per flow (half the flow model's time behind access links).
    RescheduleSoon();
}

void
FlowNetwork::Activate(uint32_t id)
{
    FlowConnection& c = m_connections[id];
    c.active = true;
    c.restFits = false;
    c.remaining = static_cast<double>(c.queue.front().framed->size());
    c.broughtAt = Simulator::Now();
    c.roundStartBytes = c.remaining;
    c.nextWindowStep = Simulator::Now() + Seconds(c.rttSeconds);
    // A sender's messages that start together put their first windows into its first link's
    // queue at once, in the order they start: this one's first segments wait behind the others'
    // windows (less their initial windows, which Linux's minimum RTT already holds).
    const FlowLink& first = m_links[c.links.front()];
    double ahead = 0.0;
    c.burstAheadBytes = 0.0;
    for (uint32_t q : first.connections)
    {
        const FlowConnection& other = m_connections[q];
        if (other.lastStart == Simulator::Now())
        {
            ahead += other.burstBytes - std::min(other.initialWindowBytes, other.remaining);
            c.burstAheadBytes += other.burstBytes;
        }
    }
    // What it puts into the queue now, before a drop may cut its window; nothing of this
    // message is lost yet.
    c.burstBytes = std::min(flow::Window(c), c.remaining);
    c.tailLostBytes = 0.0;
    c.startWaitSeconds = first.payloadBytesPerSecond > 0.0
                             ? std::max(0.0, ahead) / first.payloadBytesPerSecond
                             : 0.0;
    c.lastStart = Simulator::Now();
    for (uint32_t l : c.links)
    {
        m_links[l].connections.push_back(id);
    }
    m_sharing.Mark(id);
}

void
FlowNetwork::Deactivate(uint32_t id)
{
    FlowConnection& c = m_connections[id];
    if (c.active)
    {
        m_sharing.Mark(id); // the flows it shared with get its share
        for (uint32_t l : c.links)
        {
            auto& on = m_links[l].connections;
            on.erase(std::remove(on.begin(), on.end(), id), on.end());
        }
    }
    c.active = false;
    m_eventQueue.Remove(id);
}

void
FlowNetwork::Reschedule()
{
    // Rates without ACKs, then again with each link's capacity less the ACKs of the flows in
    // its other direction at those rates (a small correction: one pass is enough); only for
    // the links whose flows may have changed and the flows sharing with them.
    std::vector<uint32_t> component;
    std::vector<uint32_t> flows;
    m_sharing.Component(component, flows);
    // Their rates change here: their bytes so far went at the old ones.
    for (uint32_t id : flows)
    {
        flow::Bring(m_connections[id], m_links);
        m_eventQueue.Touch(id);
    }
    m_sharing.Share(component, flows);
    m_eventQueue.Requeue(m_links);
    Simulator::Cancel(m_event);
    if (!m_eventQueue.Empty())
    {
        m_event = Simulator::Schedule(
            m_eventQueue.Next() - Simulator::Now(), &FlowNetwork::OnEvent, this);
    }
}

void
FlowNetwork::RescheduleSoon()
{
    // Nothing is sent between now and then (no time passes), so the bytes stay right.
    if (!m_reschedule.IsRunning())
    {
        m_reschedule = Simulator::ScheduleNow(&FlowNetwork::Reschedule, this);
    }
}

void
FlowNetwork::OnEvent()
{
    ++m_events;
    const Time now = Simulator::Now();
    // The flows whose event this is, in the order of their ids (a pass over the flows').
    const std::vector<uint32_t>& due = m_eventQueue.TakeDue(now);
    std::vector<uint32_t> done;
    for (uint32_t id : due)
    {
        FlowConnection& c = m_connections[id];
        m_eventQueue.Touch(id);
        // Stalled at this instant, before the sharing that drops its event: it sends nothing,
        // and its window waits for its timeout's try.
        if (c.stalled)
        {
            continue;
        }
        const double window = c.windowBytes;
        bool cut = false;
        flow::Bring(c, m_links, cut);
        // Less than a millibyte left: a rounding remainder, not data.
        if (c.remaining <= 1e-3)
        {
            done.push_back(id);
            continue;
        }
        // Within a millibyte of the spacing: the event this wake-up was scheduled for.
        if (c.sinceLossBytes >= c.lossSpacingBytes - 1e-3)
        {
            flow::LoseOnce(c);
            c.sinceLossBytes -= c.lossSpacingBytes;
        }
        // The event this wake-up may have been for: the rest came to fit in the window, and the
        // window no longer holds it back (or a loss cut a window that held it).
        const bool fits = flow::RestFits(c);
        if (fits != c.restFits)
        {
            c.restFits = fits;
            m_sharing.Mark(id);
        }
        while (c.nextWindowStep <= now)
        {
            flow::Step(c, m_links, cut);
        }
        if (c.windowBytes != window)
        {
            m_sharing.Mark(id);
        }
    }
    for (uint32_t id : done)
    {
        FlowConnection& c = m_connections[id];
        std::shared_ptr<const std::vector<uint8_t>> framed = c.queue.front().framed;
        c.queue.pop_front();
        // The ACKs of the last round trip's bytes still grow a window in slow start.
        if (c.windowBytes < c.ssthreshBytes && flow::WindowGrows(c))
        {
            flow::GrowWindow(c, c.roundStartBytes);
        }
        Deactivate(id);
        NS_LOG_INFO("flow " << id << " to node " << c.to << " ends, window " << c.windowBytes);
        c.lastSent = now;
        const uint32_t to = c.to;
        // A message whose end was dropped with nothing behind it to reveal the loss: a tail-loss
        // probe two round trips later finds it out, then the lost segments go one a round trip.
        const double recovery
            = c.tailLostBytes > 0.0
                  ? (2.0 + std::ceil(c.tailLostBytes / c.segmentBytes)) * c.rttSeconds
                  : 0.0;
        Simulator::Schedule(Seconds(c.deliveryDelay + recovery),
                            [this, to, framed]()
                            {
                                const auto it = m_listeners.find(to);
                                if (it != m_listeners.end())
                                {
                                    it->second(framed);
                                }
                            });
    }
    for (uint32_t id : done)
    {
        FlowConnection& c = m_connections[id];
        if (!c.queue.empty() && !c.closed)
        {
            // The next message of the stream follows at once, with the window as it is.
            Activate(id);
        }
    }
    Reschedule();
}

} // namespace ns3
