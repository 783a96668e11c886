// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "routed-underlay-helper.h"

#include "direct-underlay-helper.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "random-variable-spec.h"

#include <chrono>
#include <iomanip>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

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

namespace
{

/// Seconds since `start`, for the progress of slow steps.
double
SecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Steps quicker than this are not reported.
constexpr double kReportAfterSeconds = 2.0;

} // namespace

std::vector<std::vector<int32_t>>
InstallShortestPathRoutes(const RouterNetwork& network,
                          const NodeContainer& routers,
                          const std::vector<UnderlayLinkHelper::Link>& access,
                          const std::vector<UnderlayLinkHelper::Link>& routerLinks,
                          const std::function<void(const std::string&)>& progress)
{
    const auto start = std::chrono::steady_clock::now();
    const auto r = static_cast<uint32_t>(network.routers.size());
    Ipv4StaticRoutingHelper helper;
    // A host has one interface: everything goes to its router (global routing, too, gives a
    // node with one link a default route).
    for (uint32_t i = 0; i < access.size(); ++i)
    {
        auto [ipv4, interface] = access[i].interfaces.Get(0);
        helper.GetStaticRouting(ipv4)->SetDefaultRoute(access[i].interfaces.GetAddress(1),
                                                       interface);
    }
    // Each router's neighbours in the order of its links, as global routing's router LSAs list
    // them (its access links come first, but hosts lead nowhere, so they do not change the
    // order in which routers are reached).
    struct Neighbour
    {
        uint32_t router;
        uint32_t link;
    };
    std::vector<std::vector<Neighbour>> neighbours(r);
    for (uint32_t k = 0; k < network.links.size(); ++k)
    {
        neighbours[network.links[k].a].push_back({network.links[k].b, k});
        neighbours[network.links[k].b].push_back({network.links[k].a, k});
    }
    // Router link k seen from `router`: the far end's address and the router's interface.
    auto wayOut = [&](uint32_t router, uint32_t k)
    {
        const bool first = network.links[k].a == router;
        return std::make_pair(routerLinks[k].interfaces.GetAddress(first ? 1 : 0),
                              routerLinks[k].interfaces.Get(first ? 0 : 1).second);
    };
    std::vector<bool> served(r, false);
    for (uint32_t router : network.attachment)
    {
        served[router] = true;
    }
    std::vector<std::vector<int32_t>> hops(r);
    std::vector<int32_t> distance(r);
    std::vector<uint32_t> exitLink(r); // the link out of the source towards each router
    std::vector<uint32_t> queue(r);
    double reported = 0;
    for (uint32_t source = 0; source < r; ++source)
    {
        // Breadth first, first come first served: a router's way out is the one of the router
        // it was first reached from, as in global routing's SPF with unit metrics.
        std::fill(distance.begin(), distance.end(), -1);
        distance[source] = 0;
        size_t head = 0;
        size_t tail = 0;
        queue[tail++] = source;
        while (head < tail)
        {
            const uint32_t v = queue[head++];
            for (const Neighbour& n : neighbours[v])
            {
                if (distance[n.router] < 0)
                {
                    distance[n.router] = distance[v] + 1;
                    exitLink[n.router] = v == source ? n.link : exitLink[v];
                    queue[tail++] = n.router;
                }
            }
        }
        Ptr<Ipv4StaticRouting> routing
            = helper.GetStaticRouting(routers.Get(source)->GetObject<Ipv4>());
        // A router with one router link (an edge router of the access network) sends everything
        // that is not for its own hosts over it: one default route instead of one per learner.
        const bool stub = neighbours[source].size() == 1;
        if (stub)
        {
            auto [next, interface] = wayOut(source, neighbours[source][0].link);
            routing->SetDefaultRoute(next, interface);
        }
        for (uint32_t i = 0; i < network.attachment.size() && !stub; ++i)
        {
            const uint32_t to = network.attachment[i];
            if (to == source)
            {
                continue; // on a link of this router
            }
            if (distance[to] < 0)
            {
                throw ConfigValueError(network.source + ": router " + network.routers[to]
                                       + " cannot be reached from router "
                                       + network.routers[source]);
            }
            auto [next, interface] = wayOut(source, exitLink[to]);
            routing->AddHostRouteTo(access[i].interfaces.GetAddress(0), next, interface);
        }
        if (served[source])
        {
            hops[source] = distance;
        }
        if (progress && SecondsSince(start) > reported + 5)
        {
            reported = SecondsSince(start);
            progress("routing: " + std::to_string(source + 1) + " of " + std::to_string(r)
                     + " routers, " + std::to_string(static_cast<int>(reported)) + " s");
        }
    }
    return hops;
}

RoutedUnderlayHelper::RoutedUnderlayHelper(RouterNetwork network) : m_network(std::move(network)) {}

void
RoutedUnderlayHelper::CheckPathsFitTheTtl(const NodeContainer& learners,
                                          const std::vector<std::vector<int32_t>>& hops) const
{
    // Every router on the way decrements the TTL and drops a packet whose TTL reaches 0: a
    // packet crosses at most DefaultTtl - 1 routers. TCP would only see a connection that
    // never opens, and the run would end in "no route".
    UintegerValue ttl;
    learners.Get(0)->GetObject<Ipv4L3Protocol>()->GetAttribute("DefaultTtl", ttl);
    const uint64_t maxRouters = ttl.Get() - 1;
    auto check = [&](uint32_t a, uint32_t b)
    {
        const uint64_t routers = hops[m_network.attachment[a]][m_network.attachment[b]] + 1;
        if (routers > maxRouters)
        {
            throw ConfigValueError(
                m_network.source + ": the path from learner " + std::to_string(a) + " (router "
                + m_network.routers[m_network.attachment[a]] + ") to learner " + std::to_string(b)
                + " (router " + m_network.routers[m_network.attachment[b]] + ") crosses "
                + std::to_string(routers) + " routers (" + std::to_string(routers + 1)
                + " hops), but an IP packet crosses at most " + std::to_string(maxRouters)
                + " (ns-3's Ipv4L3Protocol::DefaultTtl is " + std::to_string(ttl.Get())
                + "): its packets would be dropped on the way");
        }
    };
    if (m_pairs)
    {
        for (const auto& [a, b] : *m_pairs)
        {
            check(a, b);
        }
        return;
    }
    for (uint32_t a = 0; a < learners.GetN(); ++a)
    {
        for (uint32_t b = a + 1; b < learners.GetN(); ++b)
        {
            check(a, b);
        }
    }
}

void
RoutedUnderlayHelper::SetTalkingPairs(std::vector<std::pair<uint32_t, uint32_t>> pairs)
{
    m_pairs = std::move(pairs);
}

void
RoutedUnderlayHelper::SetProgress(std::function<void(const std::string&)> progress)
{
    m_progress = std::move(progress);
}

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
    return AssignLossStreams(m_lossModels, stream);
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
    const auto start = std::chrono::steady_clock::now();
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
    std::vector<UnderlayLinkHelper::Link> accessLinks;
    std::vector<UnderlayLinkHelper::Link> routerLinks;
    for (uint32_t i = 0; i < n; ++i)
    {
        const AccessLink& a = m_network.access[i];
        const uint32_t router = m_network.attachment[i];
        const auto& link = accessLinks.emplace_back(links.Install(learners.Get(i),
                                                                  underlay.routers.Get(router),
                                                                  a.upBps,
                                                                  a.downBps,
                                                                  a.latencySeconds,
                                                                  underlay.links,
                                                                  std::to_string(i),
                                                                  m_network.routers[router],
                                                                  "up",
                                                                  "down"));
        addresses.push_back(link.interfaces.GetAddress(0));
    }
    double reported = 0;
    for (const auto& l : m_network.links)
    {
        if (m_progress && SecondsSince(start) > reported + 5)
        {
            reported = SecondsSince(start);
            m_progress("network: " + std::to_string(routerLinks.size()) + " of "
                       + std::to_string(m_network.links.size()) + " router links built, "
                       + std::to_string(static_cast<int>(reported)) + " s");
        }
        routerLinks.push_back(links.Install(underlay.routers.Get(l.a),
                                            underlay.routers.Get(l.b),
                                            l.bandwidthBps,
                                            l.bandwidthBps,
                                            l.latencySeconds,
                                            underlay.links,
                                            m_network.routers[l.a],
                                            m_network.routers[l.b],
                                            l.role,
                                            l.role));
    }
    underlay.addresses = LearnerAddresses(addresses);
    const double built = SecondsSince(start);
    std::vector<std::vector<int32_t>> hops = InstallShortestPathRoutes(
        m_network, underlay.routers, accessLinks, routerLinks, m_progress);
    if (m_progress && SecondsSince(start) > kReportAfterSeconds)
    {
        std::ostringstream s;
        s << std::fixed << std::setprecision(1) << "routing: " << m_network.routers.size()
          << " routers, " << m_network.links.size() << " router links: built in " << built
          << " s, routes in " << SecondsSince(start) - built << " s";
        m_progress(s.str());
    }
    CheckPathsFitTheTtl(learners, hops);
    NS_LOG_INFO(n << " hosts on " << m_network.routers.size() << " routers, "
                  << underlay.links.size() << " link directions");
    m_lossModels = links.GetLossModels();
    return underlay;
}

} // namespace ns3
