// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-network.h"

#include "flow-cross-traffic.h"
#include "flow-message-transport.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"
#include "outage-error-model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimFlowNetwork");
NS_OBJECT_ENSURE_REGISTERED(FlowNetwork);

namespace
{

/// TCP (20 + 12 of timestamps), IPv4 (20) and PPP (2) headers of every segment, in bytes.
constexpr double kHeaderBytes = 54.0;
/// An ACK is the headers alone, one for every second segment (delayed ACKs).
constexpr double kAckBytesPerSegment = kHeaderBytes / 2.0;

/// What `bytes` of a flow's data take on each link of its route: with its segments' headers.
double
DataWireBytes(double bytes, double segmentBytes)
{
    return bytes + bytes / segmentBytes * kHeaderBytes;
}

/// What the ACKs of `bytes` of a flow's data take on each link's other direction.
double
AckWireBytes(double bytes, double segmentBytes)
{
    return bytes / segmentBytes * kAckBytesPerSegment;
}

/**
 * The probability that a packet is lost on its way into `receiver` through `model` (its
 * ReceiveErrorModel, or what an OutageErrorModel applies while the link is up): a
 * RateErrorModel in packets (link.loss), or 0 without one.
 * \throws FlowModelError for any other error model (the flow model knows no other loss)
 */
double
LossOf(Ptr<NetDevice> receiver, Ptr<ErrorModel> model)
{
    if (!model)
    {
        return 0.0;
    }
    Ptr<RateErrorModel> rate = DynamicCast<RateErrorModel>(model);
    if (!rate || rate->GetUnit() != RateErrorModel::ERROR_UNIT_PACKET)
    {
        throw FlowModelError("network.model = flow models random loss of packets only (a "
                             "RateErrorModel in packets, as link.loss installs), and node "
                             + std::to_string(receiver->GetNode()->GetId()) + " receives through a "
                             + model->GetInstanceTypeId().GetName()
                             + (rate ? " in bytes or bits" : "") + " (use network.model = packet)");
    }
    return rate->IsEnabled() ? rate->GetRate() : 0.0;
}

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

/**
 * The queue in front of `device`: a queue discipline's (its limit, or where it has a target
 * delay, CoDel and FQ-CoDel, that target: it drops before it is full) or else the device's
 * drop-tail queue.
 */
QueueLimit
QueueLimitOf(Ptr<PointToPointNetDevice> device)
{
    auto bytes = [&](QueueSize size)
    {
        return size.GetUnit() == QueueSizeUnit::PACKETS
                   ? size.GetValue() * (device->GetMtu() + 2.0) // PPP's header
                   : static_cast<double>(size.GetValue());
    };
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
    if (!disc)
    {
        return {bytes(device->GetQueue()->GetMaxSize()), -1.0};
    }
    TypeId::AttributeInformation target;
    if (disc->GetInstanceTypeId().LookupAttributeByName("Target", &target))
    {
        // Read through the attribute's own checker: CoDel's Target is a TimeValue, FQ-CoDel's a
        // StringValue ("5ms"), and reading one as the other aborts.
        Ptr<AttributeValue> value = target.checker->Create();
        disc->GetAttribute("Target", *value);
        const Time delay(value->SerializeToString(target.checker));
        return {std::numeric_limits<double>::infinity(), delay.GetSeconds()};
    }
    return {bytes(disc->GetMaxSize()), -1.0};
}

/**
 * The queueing delay a bulk TCP flow keeps on a link direction, which its RTT estimate (and so
 * its retransmission timeout) includes: an AQM's target delay, else the time to send a full
 * drop-tail queue (loss-based TCP fills it).
 */
double
StandingDelayOf(const QueueLimit& queue, double bitsPerSecond)
{
    return queue.targetSeconds >= 0.0 ? queue.targetSeconds : queue.bytes * 8.0 / bitsPerSecond;
}

/// `byLink` holds `links` entries, 0 on the links of `component` (the others keep theirs).
void
ZeroOn(std::vector<double>& byLink, size_t links, const std::vector<uint32_t>& component)
{
    byLink.resize(links);
    for (uint32_t l : component)
    {
        byLink[l] = 0.0;
    }
}

/// CUBIC's constants (RFC 8312): the window's cut at a loss and its curve's scale.
constexpr double kCubicBeta = 0.7;
constexpr double kCubicC = 0.4;

/// TCP's longest retransmission timeout (ns-3's and Linux's backoff stops doubling there).
constexpr double kMaxTimeoutSeconds = 60.0;

/// Beyond this (a century), a flow's next event is none: the clock's nanoseconds end at 292 years.
constexpr double kNoEventSeconds = 3.2e9;

/// Whether `node` has `address` on one of its interfaces.
bool
Owns(Ptr<Node> node, Ipv4Address address)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    for (uint32_t i = 0; ipv4 && i < ipv4->GetNInterfaces(); ++i)
    {
        for (uint32_t j = 0; j < ipv4->GetNAddresses(i); ++j)
        {
            if (ipv4->GetAddress(i, j).GetLocal() == address)
            {
                return true;
            }
        }
    }
    return false;
}

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
    for (Connection& c : m_connections)
    {
        Simulator::Cancel(c.retry);
        c.failed = nullptr;
        c.queue.clear();
    }
    for (Link& link : m_links)
    {
        link.device = nullptr;
    }
    m_linkOfDevice.clear();
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

uint32_t
FlowNetwork::LinkOf(Ptr<NetDevice> device)
{
    const auto it = m_linkOfDevice.find(device);
    if (it != m_linkOfDevice.end())
    {
        return it->second;
    }
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device);
    Ptr<PointToPointChannel> channel
        = p2p ? DynamicCast<PointToPointChannel>(p2p->GetChannel()) : nullptr;
    if (!channel)
    {
        throw FlowModelError("network.model = flow carries messages over point-to-point links "
                             "only, and node "
                             + std::to_string(device->GetNode()->GetId()) + " sends over a "
                             + device->GetInstanceTypeId().GetName()
                             + " (use network.model = packet)");
    }
    DataRateValue rate;
    p2p->GetAttribute("DataRate", rate);
    TimeValue delay;
    channel->GetAttribute("Delay", delay);
    Link link;
    link.bitsPerSecond = static_cast<double>(rate.Get().GetBitRate());
    link.latencySeconds = delay.Get().GetSeconds();
    link.queue = QueueLimitOf(p2p);
    link.standingSeconds = StandingDelayOf(link.queue, link.bitsPerSecond);
    link.device = p2p;
    Ptr<NetDevice> other
        = channel->GetDevice(0) == device ? channel->GetDevice(1) : channel->GetDevice(0);
    PointerValue errors;
    other->GetAttribute("ReceiveErrorModel", errors);
    // Faults put an OutageErrorModel in front of the link's own loss.
    Ptr<OutageErrorModel> outage = DynamicCast<OutageErrorModel>(errors.Get<ErrorModel>());
    link.loss = LossOf(other, outage ? outage->GetInner() : errors.Get<ErrorModel>());
    link.down = outage && outage->IsDown();
    m_links.push_back(link);
    m_marked.push_back(0);
    m_inComponent.push_back(0);
    const auto index = static_cast<uint32_t>(m_links.size() - 1);
    m_linkOfDevice[device] = index;
    if (outage)
    {
        outage->TraceConnectWithoutContext("Down",
                                           MakeCallback(&FlowNetwork::OnOutage, this).Bind(index));
    }
    // The other direction carries this one's ACKs (and this one the other's).
    const uint32_t reverse = LinkOf(other);
    m_links[index].reverse = reverse;
    m_links[reverse].reverse = index;
    return index;
}

std::vector<uint32_t>
FlowNetwork::RouteOf(Ptr<Node> node, Ipv4Address address, uint32_t* to)
{
    // The nodes' own routing, hop by hop: the route packets would take.
    std::vector<uint32_t> links;
    Ptr<Node> at = node;
    for (int hop = 0; hop < 256; ++hop)
    {
        if (Owns(at, address))
        {
            *to = at->GetId();
            return links;
        }
        Ptr<Ipv4> ipv4 = at->GetObject<Ipv4>();
        Ipv4Header header;
        header.SetDestination(address);
        header.SetProtocol(6);
        Socket::SocketErrno error = Socket::ERROR_NOTERROR;
        Ptr<Ipv4Route> route = ipv4 ? ipv4->GetRoutingProtocol()->RouteOutput(
                                   Create<Packet>(), header, nullptr, error)
                                    : nullptr;
        if (!route)
        {
            throw FlowModelError("network.model = flow: node " + std::to_string(at->GetId())
                                 + " has no route to learner address " +
                                 [&address]()
                                 {
                                     std::ostringstream text;
                                     text << address;
                                     return text.str();
                                 }());
        }
        Ptr<NetDevice> device = route->GetOutputDevice();
        links.push_back(LinkOf(device));
        Ptr<Channel> channel = device->GetChannel();
        at = (channel->GetDevice(0) == device ? channel->GetDevice(1) : channel->GetDevice(0))
                 ->GetNode();
    }
    throw FlowModelError("network.model = flow: the route from node "
                         + std::to_string(node->GetId()) + " does not end within 256 hops");
}

void
FlowNetwork::Measure(Connection& c)
{
    const double wire = c.segmentBytes + kHeaderBytes;
    double propagation = 0.0;
    double transmissions = 0.0;
    c.deliveryDelay = 0.0;
    c.bottleneck = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < c.links.size(); ++i)
    {
        Link& link = m_links[c.links[i]];
        const double before = link.payloadBytesPerSecond;
        link.payloadBytesPerSecond = link.bitsPerSecond / 8.0 * c.segmentBytes / wire;
        if (link.payloadBytesPerSecond != before)
        {
            MarkLink(c.links[i]); // a new link, a new rate, or another segment size
        }
        propagation += link.latencySeconds;
        const double transmission = wire * 8.0 / link.bitsPerSecond;
        transmissions += transmission;
        // The last segment crosses every hop after the first after it left.
        c.deliveryDelay += link.latencySeconds + (i > 0 ? transmission : 0.0);
        if (link.payloadBytesPerSecond < c.bottleneck)
        {
            c.bottleneck = link.payloadBytesPerSecond;
            c.bottleneckLink = c.links[i];
        }
    }
    c.propagationSeconds = propagation;
    c.rttSeconds = 2.0 * propagation + transmissions;
    // Linux's RTO once the RTT is measured: the RTT plus its minimum variance term.
    c.rtoSeconds = c.rttSeconds + c.minRtoSeconds;
    // Random loss at rate p: one loss event every 1/p segments.
    double delivered = 1.0;
    for (uint32_t l : c.links)
    {
        delivered *= 1.0 - m_links[l].loss;
    }
    const double p = 1.0 - delivered;
    c.lossSpacingBytes = p > 0.0 ? c.segmentBytes / p : std::numeric_limits<double>::infinity();
}

void
FlowNetwork::NotifyDataRate(Ptr<NetDevice> device)
{
    const auto it = m_linkOfDevice.find(device);
    if (it == m_linkOfDevice.end())
    {
        return;
    }
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    SetRate(it->second, static_cast<double>(rate.Get().GetBitRate()));
}

void
FlowNetwork::SetRate(uint32_t link, double bitsPerSecond)
{
    // Every connection over the link, its bytes sent so far at the old rates, measured again:
    // its bottleneck, and the segment's transmission in its round trip and delivery.
    MarkLink(link);
    m_links[link].bitsPerSecond = bitsPerSecond;
    m_links[link].standingSeconds = StandingDelayOf(m_links[link].queue, bitsPerSecond);
    for (uint32_t id = 0; id < m_connections.size(); ++id)
    {
        Connection& c = m_connections[id];
        if (std::find(c.links.begin(), c.links.end(), link) != c.links.end())
        {
            Bring(c);
            Measure(c);
            Touch(id); // its round trip, and so its window's steps, changed
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
    Connection c;
    c.links = RouteOf(node, address, &c.to);
    if (c.links.empty())
    {
        throw FlowModelError("network.model = flow: node " + std::to_string(node->GetId())
                             + " would send to itself (a flow needs at least one link)");
    }
    c.segmentBytes = settings.segmentSize;
    c.minRtoSeconds = settings.minRto.GetSeconds();
    Measure(c);
    c.initialWindowBytes = settings.initialCwnd * c.segmentBytes;
    Restart(c);
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
FlowNetwork::Restart(Connection& c)
{
    c.established = false;
    c.readyAt = Time::Max();
    c.windowBytes = c.initialWindowBytes;
    c.ssthreshBytes = std::numeric_limits<double>::infinity();
    c.windowMaxBytes = 0.0;
    c.fromHystart = false;
    c.hystartFound = false;
    c.lastSent = Time::Min();
    c.sinceLossBytes = 0.0;
}

void
FlowNetwork::Reconnect(uint32_t connection, Time after, bool keep)
{
    Connection& c = m_connections.at(connection);
    if (!keep)
    {
        c.queue.clear();
    }
    c.broken = false;
    Restart(c);
    c.retry = Simulator::Schedule(after, &FlowNetwork::Handshake, this, connection);
}

bool
FlowNetwork::ReceiverStartedAnew(const Connection& c) const
{
    // A stack that started anew since the handshake knows no such connection: it resets it.
    const auto generation = m_generation.find(c.to);
    return m_listeners.count(c.to) == 0 || generation == m_generation.end()
           || generation->second != c.generation;
}

bool
FlowNetwork::Blocked(const Connection& c) const
{
    for (uint32_t l : c.links)
    {
        if (m_links[l].down || m_links[m_links[l].reverse].down)
        {
            return true;
        }
    }
    return false;
}

void
FlowNetwork::Handshake(uint32_t id)
{
    Connection& c = m_connections[id];
    if (c.closed)
    {
        return;
    }
    if (Blocked(c))
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
                                      Connection& c = m_connections[id];
                                      if (Blocked(c))
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
    Connection& c = m_connections[id];
    Bring(c);
    c.stalled = true;
    c.rate = 0.0;
    Mark(id);
    Touch(id); // it has no next event while stalled
    c.tries = 0;
    c.timeoutSeconds = timeoutSeconds;
    Simulator::Cancel(c.retry);
    c.retry = Simulator::Schedule(Seconds(timeoutSeconds), &FlowNetwork::Retry, this, id);
    ++m_events;
    RescheduleSoon();
}

double
FlowNetwork::StallTimeout(const Connection& c) const
{
    // A flow held back by a link, not by its window, has filled that link's queue as TCP
    // does: its RTT estimate, and so its timeout, includes the standing queue (the slowest
    // link's, where a flow alone is held back).
    const bool linkLimited = c.rate < WindowRate(c) * (1.0 - 1e-9);
    return c.rtoSeconds + (linkLimited ? m_links[c.bottleneckLink].standingSeconds : 0.0);
}

void
FlowNetwork::Retry(uint32_t id)
{
    Connection& c = m_connections[id];
    if (c.closed || c.broken || !c.stalled)
    {
        return;
    }
    ++m_events;
    if (!Blocked(c))
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
        BringTo(c, Simulator::Now()); // stalled, it sent nothing
        LoseOnce(c);
        c.windowBytes = c.segmentBytes;
        c.nextWindowStep = Simulator::Now() + Seconds(c.rttSeconds);
        c.roundStartBytes = c.remaining;
        Mark(id);
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
    Connection& c = m_connections[id];
    // Its bytes so far; not its window's steps (it stops, and a try that just got through left
    // the steps of its stall behind).
    BringTo(c, Simulator::Now());
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
        Connection& c = m_connections[id];
        if (c.active && !c.stalled && !c.closed && Blocked(c))
        {
            Bring(c); // its timeout depends on whether its window holds the rest
            Stall(id, StallTimeout(c));
        }
    }
}

void
FlowNetwork::Send(uint32_t connection,
                  std::shared_ptr<const std::vector<uint8_t>> framed,
                  uint64_t valueBytes)
{
    Connection& c = m_connections.at(connection);
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
    m_loads.push_back({LinkOf(device), 0.0});
    return static_cast<uint32_t>(m_loads.size() - 1);
}

void
FlowNetwork::SetLoad(uint32_t load, double bitsPerSecond)
{
    Load& l = m_loads.at(load);
    BringLoad(l);
    m_links[l.link].loadBitsPerSecond += bitsPerSecond - l.bitsPerSecond;
    MarkLink(l.link);
    l.bitsPerSecond = bitsPerSecond;
    ++m_events;
    RescheduleSoon();
}

std::vector<DroppedMessage>
FlowNetwork::DropUnsent(uint32_t connection)
{
    Connection& c = m_connections.at(connection);
    std::vector<DroppedMessage> dropped;
    const size_t keep = c.active ? 1 : 0; // the flowing head has left in part
    while (c.queue.size() > keep)
    {
        const Queued& q = c.queue.back();
        dropped.push_back({q.framed->size(), q.valueBytes});
        c.queue.pop_back();
    }
    return dropped;
}

void
FlowNetwork::Close(uint32_t connection)
{
    Connection& c = m_connections.at(connection);
    BringTo(c, Simulator::Now()); // its bytes so far (it stops: its window's steps do not matter)
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
    const auto it = m_linkOfDevice.find(device);
    return it == m_linkOfDevice.end() ? 0 : m_links[it->second].overflows;
}

void
FlowNetwork::CheckOverflow(const std::vector<uint32_t>& component,
                           const std::vector<uint32_t>& flows)
{
    // A window beyond what its flow's rate keeps in flight over its round trip waits in a
    // queue; over packets the bursts of the windows that share a link's queue do not fit it
    // once those excesses exceed it, and segments drop.
    ZeroOn(m_queued, m_links.size(), component);
    for (uint32_t id : flows)
    {
        const Connection& c = m_connections[id];
        if (c.active && !c.stalled)
        {
            const double excess = std::max(0.0, Window(c) - c.rate * c.rttSeconds);
            for (uint32_t l : c.links)
            {
                m_queued[l] += excess;
            }
        }
    }
    for (uint32_t l : component)
    {
        Link& link = m_links[l];
        const bool overflowing = m_queued[l] > link.queue.bytes;
        if (overflowing && !link.overflowing)
        {
            ++link.overflows;
        }
        link.overflowing = overflowing;
    }
}

bool
FlowNetwork::FirstWindowTimesOut(uint32_t id)
{
    Connection& c = m_connections[id];
    Link& first = m_links[c.links.front()];
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

bool
FlowNetwork::Overflows(const Connection& c) const
{
    if (Window(c) - c.rate * c.rttSeconds <= 0.0)
    {
        return false; // none of its window waits in a queue
    }
    for (uint32_t l : c.links)
    {
        if (m_links[l].overflowing)
        {
            return true;
        }
    }
    return false;
}

uint64_t
FlowNetwork::GetTxBytes(Ptr<NetDevice> device)
{
    const auto it = m_linkOfDevice.find(device);
    if (it == m_linkOfDevice.end())
    {
        return 0;
    }
    // What the link holds, and what the flows over it (their segments) and over its other
    // direction (their ACKs) and its loads put on it since they were last brought up: counted,
    // not brought (bringing a flow steps its window; a look must not change the simulation).
    const uint32_t l = it->second;
    const Time now = Simulator::Now();
    double bytes = m_links[l].txBytes;
    for (uint32_t id : m_links[l].connections)
    {
        const Connection& c = m_connections[id];
        bytes += DataWireBytes(c.rate * (now - c.broughtAt).GetSeconds(), c.segmentBytes);
    }
    for (uint32_t id : m_links[m_links[l].reverse].connections)
    {
        const Connection& c = m_connections[id];
        bytes += AckWireBytes(c.rate * (now - c.broughtAt).GetSeconds(), c.segmentBytes);
    }
    for (const Load& load : m_loads)
    {
        if (load.link == l)
        {
            bytes += load.bitsPerSecond / 8.0 * (now - load.broughtAt).GetSeconds();
        }
    }
    return static_cast<uint64_t>(std::llround(bytes));
}

double
FlowNetwork::WindowRate(const Connection& c) const
{
    // A window that holds the rest of the message lets it all go at once: no ACK is awaited.
    if (RestFits(c))
    {
        return std::numeric_limits<double>::infinity();
    }
    return Window(c) / RoundTrip(c);
}

double
FlowNetwork::Window(const Connection& c)
{
    return std::min(c.windowBytes, c.bufferBytes);
}

bool
FlowNetwork::RestFits(const Connection& c)
{
    // Within a millibyte: a rounding remainder, not data.
    return c.remaining <= Window(c) + 1e-3;
}

double
FlowNetwork::RoundTrip(const Connection& c)
{
    return c.rttSeconds + c.ackDelaySeconds;
}

void
FlowNetwork::DelayAcks(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows)
{
    // TCP's ACKs wait in the queues of their route's other direction, behind that direction's
    // data. Connections sending both ways at once fall into step (Zhang, Shenker and Clark 1991,
    // "ACK compression"): each sends its window as one burst into its slowest link's queue, the
    // ACKs that queue behind it leave only after it, all together, and one latency later
    // release the next burst. A round trip is then the bursts ahead of its ACKs plus one way's
    // latency, not the latency both ways: a direction of a link is busy for W/C of every
    // W/C + latency, and stays short of its rate while the windows grow. The wait, per link
    // the ACKs cross: the windows queued there (of the flows it is the slowest link of, at most
    // the queue's capacity), less the latency they overlap with.
    ZeroOn(m_burst, m_links.size(), component);
    for (uint32_t id : flows)
    {
        const Connection& c = m_connections[id];
        if (c.active && !c.stalled)
        {
            m_burst[c.bottleneckLink] += Window(c) / c.bottleneck;
        }
    }
    for (uint32_t id : flows)
    {
        Connection& c = m_connections[id];
        c.ackDelaySeconds = 0.0;
        for (uint32_t l : c.links)
        {
            const uint32_t back = m_links[l].reverse;
            c.ackDelaySeconds += std::max(
                0.0, std::min(m_burst[back], m_links[back].standingSeconds) - c.propagationSeconds);
        }
    }
}

bool
FlowNetwork::LeaveSlowStart(Connection& c) const
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
                m_links[l].payloadBytesPerSecond
                    / static_cast<double>(std::max<size_t>(1, m_links[l].connections.size())));
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
FlowNetwork::WindowGrows(const Connection& c) const
{
    // Not WindowRate: a window that holds the rest of the message still grows in slow start.
    return c.windowBytes < c.bufferBytes && Window(c) / RoundTrip(c) < c.bottleneck;
}

void
FlowNetwork::GrowWindow(Connection& c, double sentBytes) const
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
FlowNetwork::LoseOnce(Connection& c)
{
    // Fast convergence (RFC 8312, section 4.6): a loss below the last W_max lowers it further.
    c.windowMaxBytes = c.windowBytes < c.windowMaxBytes ? c.windowBytes * (1.0 + kCubicBeta) / 2.0
                                                        : c.windowBytes;
    c.windowBytes = std::max(2.0 * c.segmentBytes, kCubicBeta * c.windowBytes);
    c.ssthreshBytes = c.windowBytes;
    c.fromHystart = false;
    c.lastLoss = Simulator::Now();
}

void
FlowNetwork::StartHead(uint32_t id)
{
    Connection& c = m_connections[id];
    if (c.closed || c.broken || c.stalled || !c.established || c.active || c.queue.empty()
        || Simulator::Now() < c.readyAt)
    {
        return;
    }
    if (!Blocked(c) && ReceiverStartedAnew(c))
    {
        Fail(id, "was reset by the receiver, which started anew");
        return;
    }
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
    NS_LOG_INFO("flow " << id << " to node " << c.to << " starts " << c.queue.front().framed->size()
                        << " B, window " << c.windowBytes << " rtt " << RoundTrip(c) * 1e3
                        << " ms");
    Activate(id);
    ++m_events;
    // Its first segments are lost (the queues drained while idle), or its first window meets a
    // queue that times it out: it tries again after its retransmission timeout.
    if (Blocked(c) || FirstWindowTimesOut(id))
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
    Connection& c = m_connections[id];
    c.active = true;
    c.restFits = false;
    c.remaining = static_cast<double>(c.queue.front().framed->size());
    c.broughtAt = Simulator::Now();
    c.roundStartBytes = c.remaining;
    c.nextWindowStep = Simulator::Now() + Seconds(c.rttSeconds);
    // A sender's messages that start together put their first windows into its first link's
    // queue at once, in the order they start: this one's first segments wait behind the others'
    // windows (less their initial windows, which Linux's minimum RTT already holds).
    const Link& first = m_links[c.links.front()];
    double ahead = 0.0;
    c.burstAheadBytes = 0.0;
    for (uint32_t q : first.connections)
    {
        const Connection& other = m_connections[q];
        if (other.lastStart == Simulator::Now())
        {
            ahead += other.burstBytes - std::min(other.initialWindowBytes, other.remaining);
            c.burstAheadBytes += other.burstBytes;
        }
    }
    // What it puts into the queue now, before a drop may cut its window; nothing of this
    // message is lost yet.
    c.burstBytes = std::min(Window(c), c.remaining);
    c.tailLostBytes = 0.0;
    c.startWaitSeconds = first.payloadBytesPerSecond > 0.0
                             ? std::max(0.0, ahead) / first.payloadBytesPerSecond
                             : 0.0;
    c.lastStart = Simulator::Now();
    for (uint32_t l : c.links)
    {
        m_links[l].connections.push_back(id);
    }
    Mark(id);
}

void
FlowNetwork::Deactivate(uint32_t id)
{
    Connection& c = m_connections[id];
    if (c.active)
    {
        Mark(id); // the flows it shared with get its share
        for (uint32_t l : c.links)
        {
            auto& on = m_links[l].connections;
            on.erase(std::remove(on.begin(), on.end(), id), on.end());
        }
    }
    c.active = false;
    if (m_eventQueue.Contains(id))
    {
        m_eventQueue.Erase(id, EventOrder());
    }
    c.eventAt = Time::Max();
}

void
FlowNetwork::BringTo(Connection& c, Time t)
{
    if (t <= c.broughtAt)
    {
        return; // never back: its bytes until then are counted
    }
    const double dt = (t - c.broughtAt).GetSeconds();
    c.broughtAt = t;
    if (!c.active)
    {
        return;
    }
    const double bytes = c.rate * dt;
    c.remaining -= bytes;
    c.sinceLossBytes += bytes;
    for (uint32_t l : c.links)
    {
        m_links[l].txBytes += DataWireBytes(bytes, c.segmentBytes);
        m_links[m_links[l].reverse].txBytes += AckWireBytes(bytes, c.segmentBytes);
    }
}

void
FlowNetwork::Bring(Connection& c, bool& cut)
{
    const Time now = Simulator::Now();
    while (c.active && !c.stalled && c.nextWindowStep < now)
    {
        BringTo(c, c.nextWindowStep);
        Step(c, cut);
    }
    BringTo(c, now);
}

void
FlowNetwork::Bring(Connection& c)
{
    bool cut = false;
    Bring(c, cut);
}

void
FlowNetwork::BringLoad(Load& load)
{
    const Time now = Simulator::Now();
    m_links[load.link].txBytes += load.bitsPerSecond / 8.0 * (now - load.broughtAt).GetSeconds();
    load.broughtAt = now;
}

void
FlowNetwork::Step(Connection& c, bool& cut)
{
    if (Overflows(c))
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
    else if (WindowGrows(c) && !LeaveSlowStart(c))
    {
        GrowWindow(c, c.roundStartBytes - c.remaining);
    }
    c.startWaitSeconds = 0.0; // only the message's first round trip waits so
    c.roundStartBytes = c.remaining;
    c.nextWindowStep += Seconds(RoundTrip(c));
}

void
FlowNetwork::Touch(uint32_t id)
{
    if (m_isTouched.size() < m_connections.size())
    {
        m_isTouched.resize(m_connections.size(), 0);
    }
    if (!m_isTouched[id])
    {
        m_isTouched[id] = 1;
        m_touched.push_back(id);
    }
}

void
FlowNetwork::MarkLink(uint32_t link)
{
    if (!m_marked[link])
    {
        m_marked[link] = 1;
        m_changed.push_back(link);
    }
}

void
FlowNetwork::Mark(uint32_t id)
{
    // Its ACKs take from its links' other directions: their flows' shares change with it.
    for (uint32_t l : m_connections[id].links)
    {
        MarkLink(l);
        MarkLink(m_links[l].reverse);
    }
}

void
FlowNetwork::Component(std::vector<uint32_t>& links, std::vector<uint32_t>& flows)
{
    // Max-min sharing falls apart into the groups of flows that share links, ACKs included (a
    // flow's ACKs take from its links' other directions): only the groups of the links that
    // changed need sharing again, the same rates to the last bit, at a fraction of the cost.
    auto reach = [&](uint32_t l)
    {
        if (!m_inComponent[l])
        {
            m_inComponent[l] = 1;
            links.push_back(l);
        }
    };
    for (uint32_t l : m_changed)
    {
        m_marked[l] = 0;
        reach(l);
    }
    m_changed.clear();
    // Breadth first: `links` grows as flows bring their links in.
    for (size_t next = 0; next < links.size(); ++next)
    {
        for (uint32_t id : m_links[links[next]].connections)
        {
            if (m_flowInComponent[id])
            {
                continue;
            }
            m_flowInComponent[id] = 1;
            flows.push_back(id);
            for (uint32_t l : m_connections[id].links)
            {
                reach(l);
                reach(m_links[l].reverse);
            }
        }
    }
    for (uint32_t l : links)
    {
        m_inComponent[l] = 0;
    }
    for (uint32_t id : flows)
    {
        m_flowInComponent[id] = 0;
    }
    // The order the whole network's sharing took them in: the same arithmetic.
    std::sort(links.begin(), links.end());
    std::sort(flows.begin(), flows.end());
}

void
FlowNetwork::Fill(const std::vector<uint32_t>& component,
                  const std::vector<uint32_t>& flows,
                  const std::vector<double>& capacity)
{
    // Weighted max-min fairness by progressive filling: TCP flows sharing a bottleneck get
    // rates inversely proportional to their round-trip times; a window caps its flow. The most
    // constrained link (smallest capacity left per unit of weight) or window is fixed first;
    // heaps keep that O((flows x hops + links) log) per filling, for hundreds of flows.
    std::vector<double>& left = m_left;
    std::vector<double>& weights = m_weights;
    std::vector<uint32_t>& count = m_count; // unfixed flows: weights may keep a rounding
    std::vector<char>& fixed = m_fixed; // 1 outside `flows`, and for stalled flows
    for (uint32_t l : component)
    {
        left[l] = capacity[l];
        weights[l] = 0.0;
        count[l] = 0;
    }
    // The flows by window rate, a min-heap in a vector the network keeps (an event fills again,
    // and fresh heaps cost allocations every time).
    std::vector<FillEntry>& windows = m_windowHeap;
    windows.clear();
    const auto later = std::greater<FillEntry>();
    size_t unfixed = 0;
    for (uint32_t id : flows)
    {
        const Connection& c = m_connections[id];
        if (c.active && !c.stalled)
        {
            fixed[id] = 0;
            ++unfixed;
            windows.emplace_back(WindowRate(c) * c.rttSeconds, id);
            for (uint32_t l : c.links)
            {
                weights[l] += 1.0 / c.rttSeconds;
                ++count[l];
            }
        }
    }
    std::make_heap(windows.begin(), windows.end(), later);
    // The links by share per unit of weight (ties by id), an indexed min-heap: fixing a flow
    // moves each of its links in place, so the heap holds every link once, however many flows
    // cross it (a core link crossed by hundreds of flows would otherwise gather an entry per
    // flow fixed).
    IndexedMinHeap& heap = m_linkHeap;
    heap.Clear();
    heap.Reserve(m_links.size());
    auto before = [&](uint32_t a, uint32_t b)
    {
        const double ka = left[a] / weights[a];
        const double kb = left[b] / weights[b];
        return ka < kb || (ka == kb && a < b);
    };
    for (uint32_t l : component)
    {
        if (count[l] > 0)
        {
            heap.Push(l, before);
        }
    }
    auto fix = [&](uint32_t id, double perWeight)
    {
        Connection& c = m_connections[id];
        fixed[id] = 1;
        --unfixed;
        c.rate = std::max(0.0, perWeight) / c.rttSeconds;
        for (uint32_t l : c.links)
        {
            left[l] -= c.rate;
            weights[l] -= 1.0 / c.rttSeconds;
            --count[l];
            if (!heap.Contains(l))
            {
                continue; // the bottleneck being fixed
            }
            if (count[l] == 0)
            {
                heap.Erase(l, before);
            }
            else
            {
                heap.Update(l, before);
            }
        }
    };
    while (unfixed > 0)
    {
        while (!windows.empty() && fixed[windows.front().second])
        {
            std::pop_heap(windows.begin(), windows.end(), later);
            windows.pop_back();
        }
        const bool byWindow
            = !windows.empty()
              && (heap.Empty() || windows.front().first < left[heap.Top()] / weights[heap.Top()]);
        if (byWindow)
        {
            const FillEntry top = windows.front();
            std::pop_heap(windows.begin(), windows.end(), later);
            windows.pop_back();
            fix(top.second, top.first);
            continue;
        }
        const uint32_t l = heap.Top();
        const double share = left[l] / weights[l];
        heap.Erase(l, before);
        // Every unfixed flow over the bottleneck gets its weighted share.
        for (uint32_t id : m_links[l].connections)
        {
            if (!fixed[id])
            {
                fix(id, share);
            }
        }
    }
}

void
FlowNetwork::Reschedule()
{
    // Rates without ACKs, then again with each link's capacity less the ACKs of the flows in
    // its other direction at those rates (a small correction: one pass is enough); only for
    // the links whose flows may have changed and the flows sharing with them.
    m_left.resize(m_links.size());
    m_weights.resize(m_links.size());
    m_count.resize(m_links.size());
    m_capacity.resize(m_links.size());
    m_fixed.resize(m_connections.size(), 1);
    m_flowInComponent.resize(m_connections.size(), 0);
    std::vector<uint32_t> component;
    std::vector<uint32_t> flows;
    Component(component, flows);
    // Their rates change here: their bytes so far went at the old ones.
    for (uint32_t id : flows)
    {
        Bring(m_connections[id]);
        Touch(id);
    }
    DelayAcks(component, flows);
    std::vector<double>& capacity = m_capacity;
    for (uint32_t l : component)
    {
        // A load's packets go first: UDP does not back off, so TCP gets what it leaves.
        const Link& link = m_links[l];
        capacity[l] = link.payloadBytesPerSecond
                      * std::max(0.0, 1.0 - link.loadBitsPerSecond / link.bitsPerSecond);
    }
    Fill(component, flows, capacity);
    for (uint32_t id : flows)
    {
        const Connection& c = m_connections[id];
        if (c.active)
        {
            for (uint32_t l : c.links)
            {
                capacity[m_links[l].reverse] -= c.rate * kAckBytesPerSegment / c.segmentBytes;
            }
        }
    }
    for (uint32_t l : component)
    {
        capacity[l] = std::max(0.0, capacity[l]);
    }
    Fill(component, flows, capacity);
    CheckOverflow(component, flows);
    // The next events of the flows this event changed or was for; the others' stay as they
    // were (their rates, windows and round trips did not change, and their bytes go on as
    // reckoned).
    m_eventQueue.Reserve(m_connections.size());
    const auto order = EventOrder();
    for (uint32_t id : m_touched)
    {
        m_isTouched[id] = 0;
        Connection& c = m_connections[id];
        // The flows whose rates were found again (RestFits as their sharing took it).
        c.restFits = c.active && RestFits(c);
        c.eventAt = c.active && !c.stalled ? NextEvent(c) : Time::Max();
        const bool queued = m_eventQueue.Contains(id);
        if (c.eventAt == Time::Max())
        {
            if (queued)
            {
                m_eventQueue.Erase(id, order);
            }
        }
        else if (queued)
        {
            m_eventQueue.Update(id, order);
        }
        else
        {
            m_eventQueue.Push(id, order);
        }
    }
    m_touched.clear();
    Simulator::Cancel(m_event);
    if (!m_eventQueue.Empty())
    {
        m_event = Simulator::Schedule(m_connections[m_eventQueue.Top()].eventAt - Simulator::Now(),
                                      &FlowNetwork::OnEvent,
                                      this);
    }
}

Time
FlowNetwork::NextEvent(const Connection& c) const
{
    // A flow's end, the rest of its message coming to fit its window (from then the window does
    // not hold it back), its next loss, or a window's step while it grows (a window over an
    // overflowing queue is cut at its next step).
    double next = std::numeric_limits<double>::infinity();
    if (c.rate > 0.0)
    {
        next = std::max(0.0, c.remaining) / c.rate;
        if (c.remaining > Window(c))
        {
            next = std::min(next, (c.remaining - Window(c)) / c.rate);
        }
        if (std::isfinite(c.lossSpacingBytes))
        {
            next = std::min(next, std::max(0.0, c.lossSpacingBytes - c.sinceLossBytes) / c.rate);
        }
    }
    const Time now = Simulator::Now();
    // Rounded up to the clock's step: at the event the flow has sent its last byte. A rate left
    // from rounding (bytes a century) has no event: its nanoseconds would overflow the clock.
    Time at = next < kNoEventSeconds
                  ? now + NanoSeconds(static_cast<int64_t>(std::ceil(next * 1e9)))
                  : Time::Max();
    if (WindowGrows(c) || Overflows(c))
    {
        at = std::min(at, std::max(now, c.nextWindowStep)); // a step due comes now
    }
    return at;
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
    std::vector<uint32_t>& due = m_due;
    due.clear();
    const auto order = EventOrder();
    while (!m_eventQueue.Empty() && m_connections[m_eventQueue.Top()].eventAt <= now)
    {
        const uint32_t id = m_eventQueue.Top();
        m_eventQueue.Erase(id, order);
        m_connections[id].eventAt = Time::Max();
        due.push_back(id);
    }
    std::sort(due.begin(), due.end());
    std::vector<uint32_t> done;
    for (uint32_t id : due)
    {
        Connection& c = m_connections[id];
        Touch(id);
        // Stalled at this instant, before the sharing that drops its event: it sends nothing,
        // and its window waits for its timeout's try.
        if (c.stalled)
        {
            continue;
        }
        const double window = c.windowBytes;
        bool cut = false;
        Bring(c, cut);
        // Less than a millibyte left: a rounding remainder, not data.
        if (c.remaining <= 1e-3)
        {
            done.push_back(id);
            continue;
        }
        // Within a millibyte of the spacing: the event this wake-up was scheduled for.
        if (c.sinceLossBytes >= c.lossSpacingBytes - 1e-3)
        {
            LoseOnce(c);
            c.sinceLossBytes -= c.lossSpacingBytes;
        }
        // The event this wake-up may have been for: the rest came to fit in the window, and the
        // window no longer holds it back (or a loss cut a window that held it).
        const bool fits = RestFits(c);
        if (fits != c.restFits)
        {
            c.restFits = fits;
            Mark(id);
        }
        while (c.nextWindowStep <= now)
        {
            Step(c, cut);
        }
        if (c.windowBytes != window)
        {
            Mark(id);
        }
    }
    for (uint32_t id : done)
    {
        Connection& c = m_connections[id];
        std::shared_ptr<const std::vector<uint8_t>> framed = c.queue.front().framed;
        c.queue.pop_front();
        // The ACKs of the last round trip's bytes still grow a window in slow start.
        if (c.windowBytes < c.ssthreshBytes && WindowGrows(c))
        {
            GrowWindow(c, c.roundStartBytes);
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
        Connection& c = m_connections[id];
        if (!c.queue.empty() && !c.closed)
        {
            // The next message of the stream follows at once, with the window as it is.
            Activate(id);
        }
    }
    Reschedule();
}

} // namespace ns3
