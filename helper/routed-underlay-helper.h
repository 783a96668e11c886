// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Underlays of routers: every learner host has one access link to a router, and routers are
 * joined by core or WAN links. The `access` and `regions` networks are built this way.
 */
#ifndef DLSIM_ROUTED_UNDERLAY_HELPER_H
#define DLSIM_ROUTED_UNDERLAY_HELPER_H

#include "access-model.h"
#include "region-model.h"
#include "underlay-link-helper.h"
#include "underlay.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/// A router-level network and where each learner host attaches to it.
struct RouterNetwork
{
    /// A link between two routers.
    struct Link
    {
        uint32_t a = 0;              ///< one router's index
        uint32_t b = 0;              ///< the other router's index
        double bandwidthBps = 0.0;   ///< both ways (kUnlimitedBps for an unlimited link)
        double latencySeconds = 0.0; ///< one way
        std::string role;            ///< core, wan or router
    };

    std::vector<std::string> routers; ///< router names, e.g. "core", "eu-west"
    std::vector<Link> links;          ///< links between routers
    std::vector<uint32_t> attachment; ///< the router of each learner host
    std::vector<AccessLink> access;   ///< each learner host's access link
    std::string source = "network";   ///< what errors name, e.g. "underlay.file isp.inet"
};

/// Rate of an "unlimited" core or WAN link: serialising a 1500-byte packet takes 0.12 us.
constexpr double kUnlimitedBps = 100e9;

/**
 * The `access` network: every host's access link ends at its ISP's edge router, and the edge
 * routers meet at one core router over core links of `coreBps` (0: unlimited) and
 * `coreLatency` each. With an unlimited, zero-latency core the edge routers add nothing and are
 * left out: access links then end at the core router itself.
 * \param access each learner host's access link
 * \param coreBps the core links' rate (0: unlimited)
 * \param coreLatencySeconds the core links' latency
 * \return the network
 */
RouterNetwork MakeAccessNetwork(std::vector<AccessLink> access,
                                double coreBps,
                                double coreLatencySeconds);

/**
 * The `regions` network: one router per region with the access links of its learners, and a
 * WAN link between every two regions with the matrix's latency and `wanBps` (0: unlimited).
 * \param access each learner host's access link
 * \param regionOf each learner's region
 * \param regions the regions and their latencies
 * \param wanBps the WAN links' rate (0: unlimited)
 * \return the network
 */
RouterNetwork MakeRegionNetwork(std::vector<AccessLink> access,
                                const std::vector<uint32_t>& regionOf,
                                const LatencyMatrix& regions,
                                double wanBps);

/**
 * Builds a RouterNetwork in ns-3: one node per router, a point-to-point link per access link
 * (separate rates per direction) and per router link, the Internet stack, and static routes
 * along shortest paths (see InstallShortestPathRoutes). Learner i is reached at its address on
 * its access link.
 */
class RoutedUnderlayHelper : public UnderlayHelper
{
  public:
    /// \param network the routers, their links and the learners' access links
    explicit RoutedUnderlayHelper(RouterNetwork network);

    /// \param behaviour MTU, queues and losses of every link (default: LinkBehaviour())
    void SetLinkBehaviour(const LinkBehaviour& behaviour);
    /**
     * The random streams of the loss models, one per lossy link direction from `stream` on:
     * before Install, where Install starts them (default 1000), returning 0; after it, assigned
     * at once, returning the number used, as ns-3 helpers chain AssignStreams.
     * \param stream the first stream
     * \return the number of streams used (0 before Install)
     */
    int64_t AssignStreams(int64_t stream);
    /**
     * The learner pairs that exchange messages (default: every pair). Install throws
     * ConfigValueError when the path of one crosses more routers than the IP TTL lets a packet
     * cross (ns-3's Ipv4L3Protocol::DefaultTtl - 1): its packets would be dropped on the way.
     * \param pairs (sender, receiver) learner pairs
     */
    void SetTalkingPairs(std::vector<std::pair<uint32_t, uint32_t>> pairs);
    /// \param progress where Install reports the steps that took more than a few seconds
    /// (large networks)
    void SetProgress(std::function<void(const std::string&)> progress);

    /**
     * \brief Build the routers, the links and the routes.
     * \param learners the learner hosts, one per access link
     * \return the addresses, devices and links built
     * \throws ConfigValueError when a talking pair's path does not fit the IP TTL
     */
    Underlay Install(NodeContainer learners) override;

  private:
    /// Throws unless every talking pair's path fits the IP TTL (see SetTalkingPairs).
    void CheckPathsFitTheTtl(const NodeContainer& learners,
                             const std::vector<std::vector<int32_t>>& hops) const;

    RouterNetwork m_network;
    LinkBehaviour m_behaviour;
    int64_t m_stream = 1000;
    std::vector<Ptr<RateErrorModel>> m_lossModels; ///< what Install built, for AssignStreams
    std::optional<std::vector<std::pair<uint32_t, uint32_t>>> m_pairs;
    std::function<void(const std::string&)> m_progress;
};

/**
 * Routes for a RouterNetwork built in ns-3 (routers[r] is router r; learner i's access link
 * is access[i], router link k is routerLinks[k], each Link's first end the learner or link.a):
 * every learner host sends everything to its router, and every router gets a host route to
 * every learner of another router, along a shortest path in router hops. These are the paths
 * ns-3's global routing (link metric 1, no ECMP) chooses, tie for tie: a breadth-first search
 * from each router that visits neighbours in the order of their links, each router keeping the
 * first way out it was reached by (the test Underlay.StaticRoutesAreGlobalRoutingsRoutes
 * checks this). Global routing instead runs an SPF whose candidate queue is a sorted list over
 * every node and interface, and so takes minutes at a thousand routers; this takes one
 * breadth-first search per router. Returns the router hops from every router with learners
 * to every router (hops[a][b]; rows of routers without learners are empty). `progress`, if set,
 * is told every few seconds how far the searches are.
 * \param network the network
 * \param routers its routers' nodes
 * \param access the learners' access links as built
 * \param routerLinks the router links as built
 * \param progress told how far the searches are (may be empty)
 * \return the router hops hops[a][b]
 */
std::vector<std::vector<int32_t>> InstallShortestPathRoutes(
    const RouterNetwork& network,
    const NodeContainer& routers,
    const std::vector<UnderlayLinkHelper::Link>& access,
    const std::vector<UnderlayLinkHelper::Link>& routerLinks,
    const std::function<void(const std::string&)>& progress);

} // namespace ns3

#endif // DLSIM_ROUTED_UNDERLAY_HELPER_H
