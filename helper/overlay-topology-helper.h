/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Builds the simulated network of an overlay: one point-to-point link per overlay edge.
 */
#ifndef DLSIM_OVERLAY_TOPOLOGY_HELPER_H
#define DLSIM_OVERLAY_TOPOLOGY_HELPER_H

#include "link-model.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"
#include "overlay-graph.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/// An overlay as installed on ns-3 nodes: graph, link parameters and addresses.
class Overlay
{
  public:
    Overlay() = default;
    explicit Overlay(OverlayGraph graph);

    const OverlayGraph& GetGraph() const;
    /// The parameters each link got, in the order of GetGraph().GetLinks().
    const std::vector<LinkParameters>& GetLinks() const;
    NetDeviceContainer GetDevices() const;
    /// The address of `node` on its link to `neighbour` (where the neighbour reaches it).
    Ipv4Address GetAddress(uint32_t node, uint32_t neighbour) const;

    /// Record an installed link: its parameters, its two devices and the addresses of u and v.
    void AddLink(const LinkParameters& link,
                 NetDeviceContainer devices,
                 Ipv4Address addressU,
                 Ipv4Address addressV);

  private:
    std::optional<OverlayGraph> m_graph;
    std::vector<LinkParameters> m_links;
    NetDeviceContainer m_devices;
    std::map<std::pair<uint32_t, uint32_t>, Ipv4Address> m_addresses;
};

/**
 * Creates one point-to-point link per pair of learners that an overlay edge joins, installs
 * the Internet stack where missing and gives every link its own /30 subnet.
 *
 * Link bandwidth and latency come from a LinkModel when one is set, else from the
 * PointToPointHelper's own DataRate and Delay attributes. The link queue is a drop-tail queue
 * large enough never to drop a model (default 100000 packets) with no traffic-control queue
 * disc in front of it: the default FqCoDel would drop packets of a model burst and distort
 * transfer times. Transfer time then follows bandwidth, latency and TCP, not queue management.
 */
class OverlayTopologyHelper
{
  public:
    explicit OverlayTopologyHelper(OverlayGraph graph);

    void SetLinkModel(const LinkModel& model);
    /// Link MTU in bytes (IP packet size), default 1500.
    void SetMtu(uint32_t mtu);
    /// Capacity of each link direction's device queue, e.g. "100000p".
    void SetQueueSize(const std::string& size);

    /// Build the links between nodes.Get(u) and nodes.Get(v) for every overlay link u-v.
    Overlay Install(NodeContainer nodes, PointToPointHelper p2p);

  private:
    OverlayGraph m_graph;
    std::optional<LinkModel> m_linkModel;
    uint32_t m_mtu = 1500;
    std::string m_queueSize = "100000p";
};

} // namespace ns3

#endif // DLSIM_OVERLAY_TOPOLOGY_HELPER_H
