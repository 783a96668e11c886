/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "overlay-topology-helper.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimOverlayTopologyHelper");

Overlay::Overlay(OverlayGraph graph) : m_graph(std::move(graph)) {}

const OverlayGraph&
Overlay::GetGraph() const
{
    NS_ABORT_MSG_UNLESS(m_graph, "Overlay not installed");
    return *m_graph;
}

const std::vector<LinkParameters>&
Overlay::GetLinks() const
{
    return m_links;
}

NetDeviceContainer
Overlay::GetDevices() const
{
    return m_devices;
}

Ipv4Address
Overlay::GetAddress(uint32_t node, uint32_t neighbour) const
{
    auto it = m_addresses.find({node, neighbour});
    NS_ABORT_MSG_IF(it == m_addresses.end(),
                    "no link between learners " << node << " and " << neighbour);
    return it->second;
}

void
Overlay::AddLink(const LinkParameters& link,
                 NetDeviceContainer devices,
                 Ipv4Address addressU,
                 Ipv4Address addressV)
{
    m_links.push_back(link);
    m_devices.Add(devices);
    m_addresses[{link.u, link.v}] = addressU;
    m_addresses[{link.v, link.u}] = addressV;
}

OverlayTopologyHelper::OverlayTopologyHelper(OverlayGraph graph) : m_graph(std::move(graph)) {}

void
OverlayTopologyHelper::SetLinkModel(const LinkModel& model)
{
    m_linkModel = model;
}

void
OverlayTopologyHelper::SetMtu(uint32_t mtu)
{
    m_mtu = mtu;
}

void
OverlayTopologyHelper::SetQueueSize(const std::string& size)
{
    m_queueSize = size;
}

Overlay
OverlayTopologyHelper::Install(NodeContainer nodes, PointToPointHelper p2p)
{
    NS_ABORT_MSG_UNLESS(nodes.GetN() == m_graph.GetNNodes(),
                        "overlay has " << m_graph.GetNNodes() << " learners but the container "
                                       << nodes.GetN() << " nodes");
    InternetStackHelper internet;
    // IPv6 would add router solicitations and DAD probes, with random timing, to every link.
    internet.SetIpv6StackInstall(false);
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        if (!nodes.Get(i)->GetObject<Ipv4>())
        {
            internet.Install(nodes.Get(i));
        }
    }
    auto pairs = m_graph.GetLinks();
    std::vector<LinkParameters> drawn;
    if (m_linkModel)
    {
        drawn = m_linkModel->Draw(pairs);
    }
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue(m_queueSize));

    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    TrafficControlHelper noQueueDisc;
    Overlay overlay(m_graph);
    for (size_t k = 0; k < pairs.size(); ++k)
    {
        auto [u, v] = pairs[k];
        if (m_linkModel)
        {
            uint64_t bps = static_cast<uint64_t>(drawn[k].bandwidthBps + 0.5);
            p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(bps)));
            p2p.SetChannelAttribute("Delay", TimeValue(Seconds(drawn[k].latencySeconds)));
        }
        NetDeviceContainer devices = p2p.Install(nodes.Get(u), nodes.Get(v));
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        addresses.NewNetwork();
        // Assign() installs the default FqCoDel queue disc; take it off again (see class doc).
        noQueueDisc.Uninstall(devices);

        // Record what the devices really got, whichever way it was set.
        LinkParameters link;
        link.u = u;
        link.v = v;
        DataRateValue rate;
        devices.Get(0)->GetAttribute("DataRate", rate);
        link.bandwidthBps = static_cast<double>(rate.Get().GetBitRate());
        TimeValue delay;
        devices.Get(0)->GetChannel()->GetAttribute("Delay", delay);
        link.latencySeconds = delay.Get().GetSeconds();
        overlay.AddLink(link, devices, interfaces.GetAddress(0), interfaces.GetAddress(1));
        NS_LOG_INFO("link " << u << "-" << v << ": " << link.bandwidthBps << " bit/s, "
                            << link.latencySeconds << " s");
    }
    return overlay;
}

} // namespace ns3
