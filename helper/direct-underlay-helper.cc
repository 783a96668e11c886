// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "direct-underlay-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimDirectUnderlayHelper");

void
InstallInternetWhereMissing(NodeContainer nodes)
{
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
}

DirectUnderlayHelper::DirectUnderlayHelper(OverlayGraph graph) : m_graph(std::move(graph)) {}

void
DirectUnderlayHelper::SetLinkModel(const LinkModel& model)
{
    m_linkModel = model;
}

void
DirectUnderlayHelper::SetLinkBehaviour(const LinkBehaviour& behaviour)
{
    CheckLinkBehaviour(behaviour);
    m_behaviour = behaviour;
}

void
DirectUnderlayHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceAttributes.emplace_back(name, value.Copy());
}

void
DirectUnderlayHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelAttributes.emplace_back(name, value.Copy());
}

int64_t
DirectUnderlayHelper::AssignStreams(int64_t stream)
{
    m_stream = stream;
    return AssignLossStreams(m_lossModels, stream);
}

Underlay
DirectUnderlayHelper::Install(NodeContainer learners)
{
    NS_ABORT_MSG_UNLESS(learners.GetN() == m_graph.GetNNodes(),
                        "overlay has " << m_graph.GetNNodes() << " learners but the container "
                                       << learners.GetN() << " nodes");
    InstallInternetWhereMissing(learners);
    auto pairs = m_graph.GetLinks();
    std::vector<LinkParameters> drawn;
    if (m_linkModel)
    {
        drawn = m_linkModel->Draw(pairs);
    }
    UnderlayLinkHelper links(m_behaviour);
    links.SetFirstStream(m_stream);
    for (const auto& [name, value] : m_deviceAttributes)
    {
        links.GetPointToPoint().SetDeviceAttribute(name, *value);
    }
    for (const auto& [name, value] : m_channelAttributes)
    {
        links.GetPointToPoint().SetChannelAttribute(name, *value);
    }
    Underlay underlay;
    for (size_t k = 0; k < pairs.size(); ++k)
    {
        auto [u, v] = pairs[k];
        double rate = m_linkModel ? drawn[k].bandwidthBps : -1.0;
        double latency = m_linkModel ? drawn[k].latencySeconds : -1.0;
        auto link = links.Install(learners.Get(u),
                                  learners.Get(v),
                                  rate,
                                  rate,
                                  latency,
                                  underlay.links,
                                  std::to_string(u),
                                  std::to_string(v),
                                  "direct",
                                  "direct");
        underlay.addresses.SetPairAddress(u, v, link.interfaces.GetAddress(0));
        underlay.addresses.SetPairAddress(v, u, link.interfaces.GetAddress(1));
        NS_LOG_INFO("link " << u << "-" << v << ": " << underlay.links.back().bandwidthBps
                            << " bit/s, " << underlay.links.back().latencySeconds << " s");
    }
    m_lossModels = links.GetLossModels();
    return underlay;
}

} // namespace ns3
