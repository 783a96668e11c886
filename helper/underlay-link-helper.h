// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Builds the point-to-point links of an underlay: rates, delay, queue, queue discipline, loss.
 */
#ifndef DLSIM_UNDERLAY_LINK_HELPER_H
#define DLSIM_UNDERLAY_LINK_HELPER_H

#include "ns3/error-model.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/point-to-point-helper.h"
#include "underlay.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// How the links of an underlay queue and lose packets (the same for every link).
struct LinkBehaviour
{
    /**
     * Queue size of each link direction: "auto", packets ("100p") or bytes ("150000B").
     * Without a queue discipline this is the device's drop-tail queue; with one, the queue
     * discipline's limit ("auto" then keeps that discipline's own ns-3 default).
     */
    std::string queue = "auto";
    /// none (a drop-tail device queue only), fq-codel, codel, pie or fifo.
    std::string queueDisc = "none";
    /// Probability that a packet is lost on the link (each direction, independently).
    double loss = 0.0;
    uint32_t mtu = 1500; ///< bytes of IP packet per link (the devices' MTU)
};

/// \return the queue disciplines LinkBehaviour::queueDisc accepts
const std::vector<std::string>& KnownQueueDiscs();

/**
 * \param behaviour the behaviour to check
 * \throws ConfigValueError naming link.queue, link.queue_disc, link.loss or link.mtu
 */
void CheckLinkBehaviour(const LinkBehaviour& behaviour);

/**
 * What queue = "auto" gives a device: the bandwidth-delay product of a round trip of
 * max(100 ms, twice the link's latency), in MTU-sized packets, at least 8 packets. Enough for
 * TCP to keep the link busy, short enough that the queueing delay (at most the round trip the
 * buffer is sized for) never outlasts TCP's retransmission timer.
 * \param bandwidthBps the device's rate
 * \param latencySeconds the link's one-way latency
 * \param mtu the MTU
 * \return the queue size, in packets ("40p")
 */
std::string AutoQueueSize(double bandwidthBps, double latencySeconds, uint32_t mtu);

/**
 * Installs one point-to-point link between two nodes at a time, each direction with its own
 * rate, and records both directions as UnderlayLink entries. Every link gets its own /30
 * subnet from one address space, so links built by one helper never collide. The Internet
 * stack must already be on both nodes.
 */
class UnderlayLinkHelper
{
  public:
    /// \param behaviour queues, losses and MTU of every link
    explicit UnderlayLinkHelper(LinkBehaviour behaviour);

    /// \param stream the first random stream of the loss models, one per link direction from
    /// it upwards (default 1000)
    void SetFirstStream(int64_t stream);

    /// \return the helper's own PointToPointHelper, for device and channel attributes of every
    /// link
    PointToPointHelper& GetPointToPoint();

    /// What Install built.
    struct Link
    {
        NetDeviceContainer devices;        ///< a's device, then b's
        Ipv4InterfaceContainer interfaces; ///< a's address, then b's
    };

    /**
     * Link a and b. A rate or latency below zero keeps the PointToPointHelper's own attribute.
     * The two directions are appended to `links` named by nameA/nameB with the roles given.
     * \param a one node
     * \param b the other node
     * \param rateAtoB bit/s from a to b
     * \param rateBtoA bit/s from b to a
     * \param latencySeconds one-way latency
     * \param links where both directions are recorded
     * \param nameA a's name in links.csv
     * \param nameB b's name in links.csv
     * \param roleAtoB the role of the direction a to b ("up", "core", ...)
     * \param roleBtoA the role of the direction b to a
     * \return the devices and addresses
     */
    Link Install(Ptr<Node> a,
                 Ptr<Node> b,
                 double rateAtoB,
                 double rateBtoA,
                 double latencySeconds,
                 std::vector<UnderlayLink>& links,
                 const std::string& nameA,
                 const std::string& nameB,
                 const std::string& roleAtoB,
                 const std::string& roleBtoA);

    /// \return the loss models installed so far (links with LinkBehaviour::loss > 0), in
    /// stream order
    const std::vector<Ptr<RateErrorModel>>& GetLossModels() const;

  private:
    /// Record what `sender` got, give it its queue, and `receiver` its loss model.
    void ConfigureDirection(Ptr<NetDevice> sender, Ptr<NetDevice> receiver, UnderlayLink& record);

    LinkBehaviour m_behaviour;
    PointToPointHelper m_p2p;
    Ipv4AddressHelper m_addresses;
    int64_t m_nextStream = 1000;
    std::vector<Ptr<RateErrorModel>> m_lossModels;
};

/**
 * Give `models` the streams from `stream` on, one each, as ns-3 helpers' AssignStreams do;
 * \param models the loss models
 * \param stream the first stream
 * \return the number of streams used
 */
int64_t AssignLossStreams(const std::vector<Ptr<RateErrorModel>>& models, int64_t stream);

} // namespace ns3

#endif // DLSIM_UNDERLAY_LINK_HELPER_H
