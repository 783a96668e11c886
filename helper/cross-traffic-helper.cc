// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "cross-traffic-helper.h"

#include "flow-cross-traffic.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/on-off-helper.h"
#include "ns3/onoff-application.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "random-variable-spec.h"

#include <algorithm>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimCrossTrafficHelper");

namespace
{

constexpr uint16_t kCrossPort = 9;
/// UDP payload of every cross datagram, over packets and over flows.
constexpr uint32_t kDatagramBytes = 1448;

/// The address of `device`'s interface.
Ipv4Address
AddressOf(Ptr<NetDevice> device)
{
    Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
    int32_t interface = ipv4->GetInterfaceForDevice(device);
    return ipv4->GetAddress(static_cast<uint32_t>(interface), 0).GetLocal();
}

/// The on or off periods of onoff traffic, over packets and over flows alike.
std::string
ExponentialOf(double meanSeconds)
{
    return "ns3::ExponentialRandomVariable[Mean=" + std::to_string(meanSeconds) + "]";
}

} // namespace

CrossTrafficHelper::CrossTrafficHelper(const std::string& kind,
                                       double rateBps,
                                       double onSeconds,
                                       double offSeconds)
    : m_kind(kind), m_rateBps(rateBps), m_onSeconds(onSeconds), m_offSeconds(offSeconds)
{
    if (kind != "cbr" && kind != "onoff" && kind != "bulk")
    {
        throw ConfigValueError("cross.traffic: '" + ShownText(kind)
                               + "' is not one of none, cbr, onoff, bulk");
    }
    if (kind != "bulk" && !(rateBps > 0))
    {
        throw ConfigValueError("cross.rate: must be positive");
    }
    if (kind == "onoff" && !(onSeconds > 0 && offSeconds > 0))
    {
        throw ConfigValueError("cross.on and cross.off: must be positive for onoff traffic");
    }
}

void
CrossTrafficHelper::SetNetworkModel(Ptr<NetworkModel> model)
{
    m_network = model;
}

ApplicationContainer
CrossTrafficHelper::Install(const Underlay& underlay, const std::vector<std::string>& roles)
{
    ApplicationContainer apps;
    std::vector<Ptr<Node>> sinks;
    for (const UnderlayLink& link : underlay.links)
    {
        if (std::find(roles.begin(), roles.end(), link.role) == roles.end())
        {
            continue;
        }
        // On the wire with its headers: 999 Mbit/s of 1,448-byte datagrams take 1,019.7 Mbit/s.
        const double wireBps = m_rateBps * (kDatagramBytes + kDatagramHeaderBytes) / kDatagramBytes;
        if (m_kind == "cbr" && link.bandwidthBps > 0 && wireBps >= link.bandwidthBps)
        {
            // Its queue would stay full for good: the learners' TCP starves and no round ends.
            std::ostringstream text;
            text << "cross.rate: " << RateText(m_rateBps) << " of cbr traffic ("
                 << RateText(wireBps) << " with its UDP, IP and PPP headers) is not below the "
                 << RateText(link.bandwidthBps) << " of link " << link.from << " -> " << link.to
                 << " (" << link.role << "), which it would fill for good; give a lower rate, "
                 << "or onoff traffic";
            throw ConfigValueError(text.str());
        }
        if (Ptr<Application> source = m_network ? m_network->CreateCrossTraffic(
                                          link.device, m_kind, m_rateBps, kDatagramBytes)
                                                : nullptr)
        {
            if (m_kind == "onoff")
            {
                source->SetAttribute("OnTime", StringValue(ExponentialOf(m_onSeconds)));
                source->SetAttribute("OffTime", StringValue(ExponentialOf(m_offSeconds)));
            }
            link.device->GetNode()->AddApplication(source);
            m_sources.Add(source);
            apps.Add(source);
            continue;
        }
        Ptr<NetDevice> receiver = ReceiverOf(link);
        InetSocketAddress destination(AddressOf(receiver), kCrossPort);
        const bool tcp = m_kind == "bulk";
        if (std::find(sinks.begin(), sinks.end(), receiver->GetNode()) == sinks.end())
        {
            for (const char* factory : {"ns3::UdpSocketFactory", "ns3::TcpSocketFactory"})
            {
                PacketSinkHelper sink(factory,
                                      InetSocketAddress(Ipv4Address::GetAny(), kCrossPort));
                apps.Add(sink.Install(receiver->GetNode()));
            }
            sinks.push_back(receiver->GetNode());
        }
        ApplicationContainer source;
        if (tcp)
        {
            BulkSendHelper bulk("ns3::TcpSocketFactory", destination);
            bulk.SetAttribute("MaxBytes", UintegerValue(0));
            source = bulk.Install(link.device->GetNode());
        }
        else
        {
            OnOffHelper onoff("ns3::UdpSocketFactory", destination);
            onoff.SetConstantRate(DataRate(static_cast<uint64_t>(m_rateBps + 0.5)), kDatagramBytes);
            if (m_kind == "onoff")
            {
                onoff.SetAttribute("OnTime", StringValue(ExponentialOf(m_onSeconds)));
                onoff.SetAttribute("OffTime", StringValue(ExponentialOf(m_offSeconds)));
            }
            source = onoff.Install(link.device->GetNode());
        }
        m_sources.Add(source);
        apps.Add(source);
        NS_LOG_INFO("cross traffic " << m_kind << " " << link.from << " -> " << link.to);
    }
    if (m_sources.GetN() == 0)
    {
        std::string list;
        for (const auto& r : roles)
        {
            list += (list.empty() ? "" : ", ") + r;
        }
        throw ConfigValueError("cross.links: the network has no link of role " + list
                               + " to carry cross traffic");
    }
    apps.Start(Seconds(0));
    return apps;
}

int64_t
CrossTrafficHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (uint32_t i = 0; i < m_sources.GetN(); ++i)
    {
        if (Ptr<OnOffApplication> onoff = DynamicCast<OnOffApplication>(m_sources.Get(i)))
        {
            used += onoff->AssignStreams(stream + used);
        }
        else if (Ptr<FlowCrossTraffic> flows = DynamicCast<FlowCrossTraffic>(m_sources.Get(i)))
        {
            used += flows->AssignStreams(stream + used); // the same streams as over packets
        }
    }
    return used;
}

} // namespace ns3
