// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "routed-underlay-helper.h"

#include "direct-underlay-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "random-variable-spec.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimRoutedUnderlayHelper");

RouterNetwork
MakeAccessNetwork(std::vector<AccessLink> access, double coreBps, double coreLatencySeconds)
{
    RouterNetwork net;
    net.routers.push_back("core");
    const auto hosts = static_cast<uint32_t>(access.size());
    if (coreBps <= 0.0 && coreLatencySeconds <= 0.0)
    {
        net.attachment.assign(hosts, 0);
    }
    else
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            net.routers.push_back("edge" + std::to_string(h));
            net.attachment.push_back(h + 1);
            RouterNetwork::Link link;
            link.a = h + 1;
            link.b = 0;
            link.bandwidthBps = coreBps > 0.0 ? coreBps : kUnlimitedBps;
            link.latencySeconds = coreLatencySeconds;
            link.role = "core";
            net.links.push_back(link);
        }
    }
    net.access = std::move(access);
    return net;
}

RouterNetwork
MakeRegionNetwork(std::vector<AccessLink> access,
                  const std::vector<uint32_t>& regionOf,
                  const LatencyMatrix& regions,
                  double wanBps)
{
    RouterNetwork net;
    net.routers = regions.names;
    const auto r = static_cast<uint32_t>(regions.names.size());
    for (uint32_t i = 0; i < r; ++i)
    {
        for (uint32_t j = i + 1; j < r; ++j)
        {
            RouterNetwork::Link link;
            link.a = i;
            link.b = j;
            link.bandwidthBps = wanBps > 0.0 ? wanBps : kUnlimitedBps;
            link.latencySeconds = regions.seconds[i][j];
            link.role = "wan";
            net.links.push_back(link);
        }
    }
    net.attachment = regionOf;
    net.access = std::move(access);
    return net;
}

RoutedUnderlayHelper::RoutedUnderlayHelper(RouterNetwork network) : m_network(std::move(network)) {}

void
RoutedUnderlayHelper::SetLinkBehaviour(const LinkBehaviour& behaviour)
{
    CheckLinkBehaviour(behaviour);
    m_behaviour = behaviour;
}

int64_t
RoutedUnderlayHelper::AssignStreams(int64_t stream)
{
    m_stream = stream;
    return 0;
}

Underlay
RoutedUnderlayHelper::Install(NodeContainer learners)
{
    const uint32_t n = learners.GetN();
    if (m_network.attachment.size() != n || m_network.access.size() != n)
    {
        throw ConfigValueError("network: " + std::to_string(n) + " learners but "
                               + std::to_string(m_network.access.size())
                               + " access links were given");
    }
    Underlay underlay;
    underlay.routers.Create(static_cast<uint32_t>(m_network.routers.size()));
    InstallInternetWhereMissing(learners);
    InstallInternetWhereMissing(underlay.routers);
    // Under the weak end-system model (ns-3's default) a router checks every address of every
    // interface before forwarding a packet: with one interface per attached host that scan was
    // a fifth of a 96-host access run. Nothing is addressed to a router but through the
    // interface it arrives on (cross traffic to the link's far end), so the strong model
    // delivers and forwards exactly the same packets, checking the arrival interface only.
    for (uint32_t r = 0; r < underlay.routers.GetN(); ++r)
    {
        underlay.routers.Get(r)->GetObject<Ipv4>()->SetAttribute("WeakEsModel",
                                                                 BooleanValue(false));
    }

    UnderlayLinkHelper links(m_behaviour);
    links.SetFirstStream(m_stream);
    std::vector<Ipv4Address> addresses;
    for (uint32_t i = 0; i < n; ++i)
    {
        const AccessLink& a = m_network.access[i];
        const uint32_t router = m_network.attachment[i];
        auto link = links.Install(learners.Get(i),
                                  underlay.routers.Get(router),
                                  a.upBps,
                                  a.downBps,
                                  a.latencySeconds,
                                  underlay.links,
                                  std::to_string(i),
                                  m_network.routers[router],
                                  "up",
                                  "down");
        addresses.push_back(link.interfaces.GetAddress(0));
    }
    for (const auto& l : m_network.links)
    {
        links.Install(underlay.routers.Get(l.a),
                      underlay.routers.Get(l.b),
                      l.bandwidthBps,
                      l.bandwidthBps,
                      l.latencySeconds,
                      underlay.links,
                      m_network.routers[l.a],
                      m_network.routers[l.b],
                      l.role,
                      l.role);
    }
    underlay.addresses = LearnerAddresses(addresses);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    NS_LOG_INFO(n << " hosts on " << m_network.routers.size() << " routers, "
                  << underlay.links.size() << " link directions");
    return underlay;
}

} // namespace ns3
