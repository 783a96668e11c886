// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Other users' traffic on one link direction, as flows of the flow-level network model.
 */
#ifndef DLSIM_FLOW_CROSS_TRAFFIC_H
#define DLSIM_FLOW_CROSS_TRAFFIC_H

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/random-variable-stream.h"

#include <string>

namespace ns3
{

/// UDP (8), IPv4 (20) and PPP (2) headers of every cross-traffic datagram on a link, in bytes:
/// what its rate (of payload, as OnOffApplication's DataRate counts) takes of the link on top.
constexpr double kDatagramHeaderBytes = 8.0 + 20.0 + 2.0;

class FlowNetwork;

/**
 * \brief The cross traffic of CrossTrafficHelper on one link direction when messages are flows
 * (network.model = flow), installed on the node at the link's sending end:
 *  - "cbr": a load of the UDP payload rate (on the wire with the datagrams' UDP, IP and PPP
 *    headers) on the link direction for the whole run;
 *  - "onoff": the same load while on; on and off periods drawn from OnTime and OffTime in the
 *    order ns-3's OnOffApplication draws them, from the same streams (AssignStreams numbers
 *    them as it does), so that the flows see the packet level's periods.
 * Bulk TCP cross traffic has no flow form: over packets, ns-3's own TCP (which BulkSend uses)
 * leaves much of its links idle, and a flow taking its fair share would not be that.
 */
class FlowCrossTraffic : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \brief What to send, and over which link direction.
     * \param network the simulation's flow network, which takes the load
     * \param device the sending device of the link direction (on this application's node)
     * \param kind "cbr" or "onoff"
     * \param rateBps the UDP payload rate while on (cbr, onoff)
     * \param datagramBytes the UDP payload of each datagram (its headers' share depends on it)
     * \throws FlowModelError for another kind (bulk TCP traffic has no flow form), a null
     *         device, a rate that is not positive, or datagrams of 0 bytes
     */
    void Setup(Ptr<FlowNetwork> network,
               Ptr<NetDevice> device,
               const std::string& kind,
               double rateBps,
               uint32_t datagramBytes);

    /**
     * \brief Fix the random streams of the on and off periods (as OnOffApplication does).
     * \param stream the first stream
     * \return the number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;
    /// onoff: the load goes on now, and off after an on period.
    void TurnOn();
    /// onoff: the load goes off now, and on after an off period.
    void TurnOff();

    Ptr<FlowNetwork> m_network;          ///< the flow network that takes the load
    Ptr<NetDevice> m_device;             ///< the sending device of the loaded link direction
    std::string m_kind;                  ///< cbr or onoff
    double m_wireBps = 0.0;              ///< the load while on, headers included
    Ptr<RandomVariableStream> m_onTime;  ///< on periods (onoff)
    Ptr<RandomVariableStream> m_offTime; ///< off periods (onoff)
    bool m_loaded = false;               ///< whether m_load was added to the flow network
    uint32_t m_load = 0;                 ///< the load's id in the flow network
    EventId m_next;                      ///< the next switch on or off
};

} // namespace ns3

#endif // DLSIM_FLOW_CROSS_TRAFFIC_H
