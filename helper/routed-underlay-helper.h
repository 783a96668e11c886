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
#include <string>
#include <vector>

namespace ns3
{

/// A router-level network and where each learner host attaches to it.
struct RouterNetwork
{
    struct Link
    {
        uint32_t a = 0;
        uint32_t b = 0;
        double bandwidthBps = 0.0;
        double latencySeconds = 0.0;
        std::string role; ///< core, wan or router
    };

    std::vector<std::string> routers; ///< router names, e.g. "core", "eu-west"
    std::vector<Link> links;
    std::vector<uint32_t> attachment; ///< the router of each learner host
    std::vector<AccessLink> access;   ///< each learner host's access link
};

/// Rate of an "unlimited" core or WAN link: serialising a 1500-byte packet takes 0.12 us.
constexpr double kUnlimitedBps = 100e9;

/**
 * The `access` network: every host's access link ends at its ISP's edge router, and the edge
 * routers meet at one core router over core links of `coreBps` (0: unlimited) and
 * `coreLatency` each. With an unlimited, zero-latency core the edge routers add nothing and are
 * left out: access links then end at the core router itself.
 */
RouterNetwork MakeAccessNetwork(std::vector<AccessLink> access,
                                double coreBps,
                                double coreLatencySeconds);

/**
 * The `regions` network: one router per region with the access links of its learners, and a
 * WAN link between every two regions with the matrix's latency and `wanBps` (0: unlimited).
 */
RouterNetwork MakeRegionNetwork(std::vector<AccessLink> access,
                                const std::vector<uint32_t>& regionOf,
                                const LatencyMatrix& regions,
                                double wanBps);

/**
 * Builds a RouterNetwork in ns-3: one node per router, a point-to-point link per access link
 * (separate rates per direction) and per router link, the Internet stack, and global routing.
 * Learner i is reached at its address on its access link.
 */
class RoutedUnderlayHelper : public UnderlayHelper
{
  public:
    explicit RoutedUnderlayHelper(RouterNetwork network);

    void SetLinkBehaviour(const LinkBehaviour& behaviour);
    /// The random streams of the loss models start here.
    int64_t AssignStreams(int64_t stream);

    Underlay Install(NodeContainer learners) override;

  private:
    RouterNetwork m_network;
    LinkBehaviour m_behaviour;
    int64_t m_stream = 1000;
};

} // namespace ns3

#endif // DLSIM_ROUTED_UNDERLAY_HELPER_H
