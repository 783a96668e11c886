// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The scenario's `network` keys: which underlay carries the learners' bytes, and how its links
 * behave. The one place where a scenario's underlay is read, built and reported.
 */
#ifndef DLSIM_UNDERLAY_CONFIG_H
#define DLSIM_UNDERLAY_CONFIG_H

#include "ns3/node-container.h"
#include "overlay-graph.h"
#include "scenario-config.h"
#include "underlay.h"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class UnderlayHelper;

/// The underlays a scenario can choose with `network`.
const std::vector<std::string>& KnownNetworks();

/**
 * Reads and checks every underlay key of the scenario, so that errors show before anything is
 * built or loaded, then builds the chosen underlay and applies link traces.
 */
class UnderlayConfig
{
  public:
    /// Throws ScenarioError or ConfigValueError naming the offending key or file.
    UnderlayConfig(const ScenarioConfig& c, uint32_t learners, uint32_t mtu);

    const std::string& GetNetwork() const;

    /**
     * Build the underlay under `learners` (learner i on learners.Get(i)) for `overlay`, drawing
     * from ns-3 random streams from `stream` upwards. Steps that take more than a few seconds
     * (routing a large router file) are reported to `log`, if given.
     */
    Underlay Install(NodeContainer learners,
                     const OverlayGraph& overlay,
                     int64_t stream,
                     std::ostream* log = nullptr);

    /// A one-line description for the run log, e.g. "access: 16 hosts, up 1-10 Mbit/s ...".
    std::string Describe(const Underlay& underlay) const;

  private:
    std::unique_ptr<UnderlayHelper> MakeHelper(const OverlayGraph& overlay,
                                               uint32_t learners,
                                               int64_t stream,
                                               std::ostream* log) const;

    const ScenarioConfig& m_config;
    uint32_t m_learners;
    std::string m_network;
};

/**
 * Counts the bytes every link direction of an underlay transmits (every packet that leaves the
 * device: payload, headers, ACKs, retransmissions, cross traffic) and writes links.csv.
 */
class LinkUsage
{
  public:
    explicit LinkUsage(const Underlay& underlay);
    /// links.csv: each link direction with its parameters, bytes sent and utilisation.
    void WriteCsv(const std::string& path, double simulatedSeconds) const;

  private:
    void Count(uint32_t link, Ptr<const Packet> packet);

    std::vector<UnderlayLink> m_links;
    std::vector<uint64_t> m_bytes;
};

} // namespace ns3

#endif // DLSIM_UNDERLAY_CONFIG_H
