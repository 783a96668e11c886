// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-routes.h"

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"

#include <limits>
#include <sstream>
#include <string>
#include <utility>

namespace ns3
{

std::string
FlowLossRefusal(const std::string& where, double loss)
{
    std::ostringstream text;
    text << "link.loss: network.model = flow models random loss up to " << kMaxFlowLoss
         << " (the doc's Random loss table), and " << where << " loses " << loss
         << ", where TCP's retransmission timeouts decide the time; use network.model = "
            "packet, or auto (which runs such a scenario over packets)";
    return text.str();
}

namespace
{

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
    const double loss = rate->IsEnabled() ? rate->GetRate() : 0.0;
    // Beyond the validated range TCP's retransmission timeouts and their backoff decide a
    // transfer's time, which the periodic-loss model leaves out: flows finished in a fraction of
    // a second where packets took seconds, or gave up. Refused rather than reported.
    if (loss > kMaxFlowLoss)
    {
        throw FlowModelError(
            FlowLossRefusal("node " + std::to_string(receiver->GetNode()->GetId()), loss));
    }
    return loss;
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

namespace flow
{

double
StandingDelayOf(const QueueLimit& queue, double bitsPerSecond)
{
    return queue.targetSeconds >= 0.0 ? queue.targetSeconds : queue.bytes * 8.0 / bitsPerSecond;
}

} // namespace flow

void
FlowLinks::SetAdded(Added added)
{
    m_added = std::move(added);
}

uint32_t
FlowLinks::LinkOf(Ptr<NetDevice> device)
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
    FlowLink link;
    link.bitsPerSecond = static_cast<double>(rate.Get().GetBitRate());
    link.latencySeconds = delay.Get().GetSeconds();
    link.queue = QueueLimitOf(p2p);
    link.standingSeconds = flow::StandingDelayOf(link.queue, link.bitsPerSecond);
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
    const auto index = static_cast<uint32_t>(m_links.size() - 1);
    m_linkOfDevice[device] = index;
    if (m_added)
    {
        m_added(index, outage);
    }
    // The other direction carries this one's ACKs (and this one the other's).
    const uint32_t reverse = LinkOf(other);
    m_links[index].reverse = reverse;
    m_links[reverse].reverse = index;
    return index;
}

std::vector<uint32_t>
FlowLinks::RouteOf(Ptr<Node> node, Ipv4Address address, uint32_t* to)
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

bool
FlowLinks::Find(Ptr<NetDevice> device, uint32_t* link) const
{
    const auto it = m_linkOfDevice.find(device);
    if (it == m_linkOfDevice.end())
    {
        return false;
    }
    *link = it->second;
    return true;
}

uint32_t
FlowLinks::GetN() const
{
    return static_cast<uint32_t>(m_links.size());
}

FlowLink&
FlowLinks::operator[](uint32_t link)
{
    return m_links[link];
}

const FlowLink&
FlowLinks::operator[](uint32_t link) const
{
    return m_links[link];
}

void
FlowLinks::Clear()
{
    for (FlowLink& link : m_links)
    {
        link.device = nullptr;
    }
    m_linkOfDevice.clear();
    m_added = nullptr;
}

namespace flow
{

void
Measure(FlowConnection& c, FlowLinks& links, const std::function<void(uint32_t)>& changed)
{
    const double wire = c.segmentBytes + kHeaderBytes;
    double propagation = 0.0;
    double transmissions = 0.0;
    c.deliveryDelay = 0.0;
    c.bottleneck = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < c.links.size(); ++i)
    {
        FlowLink& link = links[c.links[i]];
        const double before = link.payloadBytesPerSecond;
        link.payloadBytesPerSecond = link.bitsPerSecond / 8.0 * c.segmentBytes / wire;
        if (link.payloadBytesPerSecond != before)
        {
            changed(c.links[i]); // a new link, a new rate, or another segment size
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
        delivered *= 1.0 - links[l].loss;
    }
    const double p = 1.0 - delivered;
    c.lossSpacingBytes = p > 0.0 ? c.segmentBytes / p : std::numeric_limits<double>::infinity();
}

} // namespace flow

} // namespace ns3
