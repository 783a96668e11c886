// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The `direct` underlay: one dedicated point-to-point link per overlay edge.
 */
#ifndef DLSIM_DIRECT_UNDERLAY_HELPER_H
#define DLSIM_DIRECT_UNDERLAY_HELPER_H

#include "link-model.h"
#include "overlay-graph.h"
#include "underlay-link-helper.h"
#include "underlay.h"

#include <optional>
#include <string>

namespace ns3
{

/**
 * Creates one point-to-point link per pair of learners that an overlay edge joins, installs
 * the Internet stack where missing and gives every link its own /30 subnet; learner i is
 * reached by neighbour j at its address on the i-j link. Nothing is shared: a node's messages
 * to its neighbours never compete, so a transfer takes its size over the link's rate plus the
 * latency (and TCP's dynamics). The reference against which shared underlays are compared.
 *
 * Link bandwidth and latency come from a LinkModel when one is set, else from the device and
 * channel attributes given with SetDeviceAttribute / SetChannelAttribute. Queues and loss follow
 * the LinkBehaviour (default: drop-tail device queue sized by AutoQueueSize, no loss).
 */
class DirectUnderlayHelper : public UnderlayHelper
{
  public:
    /// \param graph the overlay (or the union of its phases): one link per pair it joins
    explicit DirectUnderlayHelper(OverlayGraph graph);

    /// \param model draws every link's bandwidth and latency (instead of the attributes)
    void SetLinkModel(const LinkModel& model);
    /// \param behaviour queues, losses and MTU of every link (default: LinkBehaviour())
    void SetLinkBehaviour(const LinkBehaviour& behaviour);
    /**
     * \brief Set an attribute of every PointToPointNetDevice (e.g. "DataRate" when no LinkModel
     * is set).
     * \param name the attribute's name
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every PointToPointChannel (e.g. "Delay").
     * \param name the attribute's name
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /**
     * The random streams of the loss models, one per lossy link direction from `stream` on:
     * before Install, where Install starts them (default 1000), returning 0; after it, assigned
     * at once, returning the number used, as ns-3 helpers chain AssignStreams.
     * \param stream the first stream
     * \return the number of streams used (0 before Install)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Build the links between learners.Get(u) and learners.Get(v) for every overlay
     * link u-v.
     * \param learners the learners' nodes
     * \return the pair addresses and the links built
     */
    Underlay Install(NodeContainer learners) override;

  private:
    OverlayGraph m_graph;
    std::optional<LinkModel> m_linkModel;
    LinkBehaviour m_behaviour;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_deviceAttributes;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_channelAttributes;
    int64_t m_stream = 1000;
    std::vector<Ptr<RateErrorModel>> m_lossModels; ///< what Install built, for AssignStreams
};

/**
 * \brief Install the Internet stack (IPv4 only) on every node that has none yet.
 * \param nodes the nodes
 */
void InstallInternetWhereMissing(NodeContainer nodes);

} // namespace ns3

#endif // DLSIM_DIRECT_UNDERLAY_HELPER_H
