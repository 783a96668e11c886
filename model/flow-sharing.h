// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow model's link sharing: weighted max-min fairness (weights inversely proportional to
 * the round-trip times) by progressive filling, over the groups of links whose flows changed,
 * with the ACKs' share of the other directions, their wait behind those directions' data, and
 * the queues' overflow.
 */
#ifndef DLSIM_FLOW_SHARING_H
#define DLSIM_FLOW_SHARING_H

#include "flow-connection.h"
#include "flow-routes.h"
#include "indexed-min-heap.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief The rates of a network's flows: links are marked as their flows change, and the
 * groups of links and flows joined to the marked ones are shared again (the same rates to the
 * last bit as sharing the whole network, at a fraction of the cost).
 */
class FlowSharing
{
  public:
    /**
     * \param links the network's links (their rates, loads, flows; overflows are counted there)
     * \param connections the network's connections (their rates are set here)
     */
    FlowSharing(FlowLinks& links, std::vector<FlowConnection>& connections);

    /// A link direction was made (FlowLinks::Added): its marks.
    void AddLink();
    /// A link direction whose flows' rates may have changed: shared again at the next Share.
    /// \param link the link direction
    void MarkLink(uint32_t link);
    /// A connection whose rate may have changed (its links, and their other directions).
    /// \param id the connection
    void Mark(uint32_t id);
    /**
     * The links and flows to share again: those joined (by flows, their links and the ACKs'
     * other directions) to the marked links, each in ascending order; clears the marks.
     * \param[out] links the links, empty on entry
     * \param[out] flows the connections, empty on entry
     */
    void Component(std::vector<uint32_t>& links, std::vector<uint32_t>& flows);
    /**
     * Rates without ACKs, then again with each link's capacity less the ACKs of the flows in
     * its other direction at those rates (a small correction: one pass is enough), for a
     * component whose flows were brought to now; the ACKs' wait and the overflows on the way.
     * \param component the links, from Component
     * \param flows the connections, from Component
     */
    void Share(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows);

  private:
    /// Rates by weighted progressive filling over these links (payload capacities by link
    /// index) for these flows.
    void Fill(const std::vector<uint32_t>& component,
              const std::vector<uint32_t>& flows,
              const std::vector<double>& capacity);
    /// The ACKs' wait of a component's flows behind their route's other direction's data.
    void DelayAcks(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows);
    /// Count the links of `component` whose windows came to overflow them (GetOverflows).
    void CheckOverflow(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows);

    FlowLinks& m_links;                         ///< the network's links
    std::vector<FlowConnection>& m_connections; ///< the network's connections
    std::vector<uint32_t> m_changed;            ///< marked links (MarkLink), in marking order
    std::vector<char> m_marked;                 ///< by link: in m_changed
    std::vector<char> m_inComponent;            ///< by link: scratch of Component
    std::vector<char> m_flowInComponent;        ///< by connection: scratch of Component
    // Scratch of Share and Fill, by link (and by connection: m_fixed, 1 but mid-Fill).
    std::vector<double> m_capacity;
    /// A progressive filling's heap entry: (rate per unit of weight, link or flow).
    using FillEntry = std::pair<double, uint32_t>;
    std::vector<FillEntry> m_windowHeap; ///< Fill's flows by window rate
    IndexedMinHeap m_linkHeap;           ///< Fill's links by share per weight
    std::vector<double> m_left;
    std::vector<double> m_weights;
    std::vector<uint32_t> m_count;
    std::vector<char> m_fixed;
    std::vector<double> m_burst;  ///< by link: the windows queued there (DelayAcks)
    std::vector<double> m_queued; ///< by link: the windows beyond the pipe (CheckOverflow)
};

} // namespace ns3

#endif // DLSIM_FLOW_SHARING_H
