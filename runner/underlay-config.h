// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The scenario's `network` keys: which underlay carries the learners' bytes, and how its links
 * behave. The one place where a scenario's underlay is read, built and reported.
 */
#ifndef DLSIM_UNDERLAY_CONFIG_H
#define DLSIM_UNDERLAY_CONFIG_H

#include "network-model.h"
#include "ns3/node-container.h"
#include "overlay-graph.h"
#include "scenario-config.h"
#include "underlay.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

struct RunSummary;

class UnderlayHelper;

struct UnderlayRegistration;

/// The link roles scenario keys may name: all, access (up and down) and every role of a
/// registered underlay.
std::vector<std::string> KnownLinkRoles();

/**
 * The link directions a scenario key chooses (trace.links, capture.pcap, capture.ascii): items
 * that are link roles (KnownLinkRoles: all, access for up and down, or a role of an underlay) or
 * one direction named FROM:TO as the `from` and `to` columns of links.csv name it ("3:core",
 * "eu-west:us-east"). The one way a scenario selects links.
 */
class LinkSelection
{
  public:
    /// Read `key` of network `network`; throws ConfigValueError naming the key and the item
    /// that is neither a role nor FROM:TO.
    LinkSelection(const ScenarioConfig& c, const std::string& key, const std::string& network);

    /// Whether the key lists nothing.
    bool Empty() const;

    /// Whether `link` is among the chosen directions.
    bool Selects(const UnderlayLink& link) const;

    /**
     * Before the network is built, from the roles it will have: throws ConfigValueError unless
     * some item can select a link (a role the network has, or a FROM:TO item, checked later).
     * A role the network lacks is allowed beside one it has, so that one list serves a grid
     * over networks (e.g. [up, wan] for access and regions).
     */
    void CheckRoles(const std::vector<std::string>& roles) const;

    /// Once the network is built: throws ConfigValueError naming a FROM:TO item that names no
    /// link direction of `underlay`, or when nothing is selected.
    void Check(const Underlay& underlay) const;

  private:
    std::string m_key;
    std::string m_network;
    std::vector<std::string> m_roles;
    std::vector<std::pair<std::string, std::string>> m_directions; ///< FROM:TO items
};

/**
 * Reads and checks every underlay key of the scenario, so that errors show before anything is
 * built or loaded, then builds the chosen underlay (its UnderlayRegistration) and applies what
 * every underlay has: link behaviour, cross traffic and rate traces.
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
     * (routing a large router file) are reported to `log`, if given. The cross traffic and rate
     * traces reach the simulation's `network` model (NetworkModel::CreateCrossTraffic,
     * NotifyDataRate).
     */
    Underlay Install(NodeContainer learners,
                     const OverlayGraph& overlay,
                     int64_t stream,
                     Ptr<NetworkModel> network,
                     std::ostream* log = nullptr);

    /**
     * Run the simulation until `underlay` is up (Underlay::whenUp; at once when it has none),
     * at most 60 s of simulated time, so that the learners start on a network that carries
     * their packets. Throws ScenarioError when it did not come up; logs when it did.
     */
    void BringUp(const Underlay& underlay, std::ostream& log) const;

    /// A one-line description for the run log, e.g. "access: 16 hosts, up 1-10 Mbit/s ...".
    std::string Describe(const Underlay& underlay) const;

    /// The links `key` selects (a LinkSelection), its roles checked against this network's
    /// unless it lists nothing. Throws ConfigValueError naming the key.
    LinkSelection ReadSelection(const std::string& key) const;

  private:
    const ScenarioConfig& m_config;
    uint32_t m_learners;
    std::string m_network;
    const UnderlayRegistration& m_registration;
};

/**
 * Counts what every link direction of an underlay transmits (every packet that leaves the
 * device: payload, headers, ACKs, retransmissions, cross traffic) and loses (packets its
 * sending queue drops on overflow, packets its receiving device discards as lost), and writes
 * links.csv.
 */
class LinkUsage
{
  public:
    /**
     * \param underlay the links to count
     * \param network the simulation's network model: where it moves packets, the devices' own
     * traces count what they send and drop; where it does not (flows), it says what it carried
     */
    LinkUsage(const Underlay& underlay, Ptr<NetworkModel> network);
    /**
     * \brief At the end of the run: links.csv (each link direction with its parameters, bytes
     * sent, utilisation and losses), one line for the run log on what the queues dropped (or,
     * with a network model that moves no packets, would have), and the totals for the summary.
     * \param path where links.csv goes
     * \param simulatedSeconds the run's simulated time (utilisation)
     * \param log where the line goes
     * \param summary gets the packets dropped by full queues and lost on links (none where a
     * Wi-Fi link cannot count its own), or with flows their overflow count
     */
    void Report(const std::string& path,
                double simulatedSeconds,
                std::ostream& log,
                RunSummary& summary) const;

    /**
     * \return bytes sent so far by the link directions that leave a learner's host (data,
     * retransmissions and ACKs alike): with packets, whether the learners' TCP is still at work
     * when no new payload byte arrives; 0 with a network model that moves no packets
     */
    uint64_t HostBytesSent() const;

  private:
    std::vector<UnderlayLink> m_links;
    Ptr<NetworkModel> m_network;
    std::vector<uint64_t> m_bytes;
    /// Per direction: packets dropped by its queue (or queue disc) and lost on the way in;
    /// -1 where they cannot be counted (Wi-Fi, whose MAC retries and drops are its own; flows).
    std::vector<int64_t> m_dropped;
    std::vector<int64_t> m_lost;
};

} // namespace ns3

#endif // DLSIM_UNDERLAY_CONFIG_H
