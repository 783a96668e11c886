// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Other users' traffic on the links between routers, competing with the learners'.
 */
#ifndef DLSIM_CROSS_TRAFFIC_HELPER_H
#define DLSIM_CROSS_TRAFFIC_HELPER_H

#include "network-model.h"
#include "ns3/application-container.h"
#include "underlay.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * Installs one flow per selected link direction, from the router at its sending end to the
 * router at its receiving end, starting at time 0 and running until the simulation stops:
 *  - "cbr": UDP at a constant `rate` (ns-3's OnOffApplication, always on);
 *  - "onoff": UDP at `rate` while on, with exponentially distributed on and off periods of
 *    the given means (so the mean load is rate x on / (on + off));
 *  - "bulk": a TCP transfer that never ends (BulkSendApplication), taking whatever share TCP
 *    gives it.
 * UDP packets are 1448 bytes. Sinks are PacketSinks on port 9. The same traffic is
 * flows (FlowCrossTraffic) with
 * SetNetworkModel of the flow model, and there are no sinks.
 */
class CrossTrafficHelper
{
  public:
    /**
     * \param kind "cbr", "onoff" or "bulk"
     * \param rateBps the UDP rate (cbr, onoff)
     * \param onSeconds onoff: the mean on period
     * \param offSeconds onoff: the mean off period
     * \throws ConfigValueError naming cross.traffic on an unknown kind
     */
    CrossTrafficHelper(const std::string& kind,
                       double rateBps,
                       double onSeconds,
                       double offSeconds);

    /**
     * \brief Install the traffic in the form of the network model the learners' messages
     * travel by (NetworkModel::CreateCrossTraffic: flows of the flow-level model,
     * FlowCrossTraffic), where it has one; else as packets (the default).
     * \param model the simulation's network model
     */
    void SetNetworkModel(Ptr<NetworkModel> model);

    /**
     * \brief Install flows on every link direction of `underlay` whose role is in `roles`.
     * \param underlay what an underlay helper built
     * \param roles link roles ("up", "core", "wan", ...)
     * \return the sources and sinks (as flows: the sources, FlowCrossTraffic; no sinks)
     * \throws FlowModelError as flows, for bulk traffic (it has no flow form)
     */
    ApplicationContainer Install(const Underlay& underlay, const std::vector<std::string>& roles);

    /**
     * \brief Fix the random streams of the on/off periods (after Install).
     * \param stream the first stream
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    std::string m_kind;
    double m_rateBps;
    double m_onSeconds;
    double m_offSeconds;
    Ptr<NetworkModel> m_network; ///< SetNetworkModel's
    ApplicationContainer m_sources;
};

} // namespace ns3

#endif // DLSIM_CROSS_TRAFFIC_HELPER_H
