// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The underlay: the ns-3 network that carries the learners' bytes, whichever way it was built.
 */
#ifndef DLSIM_UNDERLAY_H
#define DLSIM_UNDERLAY_H

#include "learner-addresses.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/ptr.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/// One direction of one link as built: the device that transmits, and what it was given.
struct UnderlayLink
{
    std::string from;            ///< a learner's index ("3") or a router's name ("r0", "eu-west")
    std::string to;              ///< the node at the other end
    std::string role;            ///< direct, up (host to router), down, core, wan or router
    double bandwidthBps = 0.0;   ///< nominal rate (a rate trace's mean rate when one is applied)
    double latencySeconds = 0.0; ///< one-way propagation delay
    double loss = 0.0;           ///< packet loss probability at the receiving end
    std::string queue;           ///< the queue as installed, e.g. "84p" or "fq-codel 10240p"
    std::string trace;           ///< the rate trace's file, if any
    Ptr<NetDevice> device;       ///< the transmitting device
    /// What fires "PhyTxEnd" for every frame this direction sends: the device itself unless
    /// set (a Wi-Fi device's PHY, whose frames the device does not trace).
    Ptr<Object> txSource;
};

/**
 * \param link a link direction
 * \return the device at the receiving end of a point-to-point link direction; nullptr for a
 * shared medium (a channel with more than two devices, e.g. Wi-Fi), which has no one receiver
 */
Ptr<NetDevice> ReceiverOf(const UnderlayLink& link);

/// What an underlay helper built under the learners.
struct Underlay
{
    LearnerAddresses addresses;      ///< where each learner is reached
    std::vector<UnderlayLink> links; ///< every link direction, in the order they were built
    NodeContainer routers;           ///< nodes the helper created besides the learners' own
    /**
     * Set by an underlay that needs simulated time to come up before it carries anything (Wi-Fi
     * stations associate with their access points): it calls the function it is given once the
     * network is up. Unset: up at once, at time 0.
     */
    std::function<void(std::function<void()>)> whenUp;
};

/**
 * The seam between the overlay (who talks to whom) and the network underneath: a helper builds
 * some ns-3 network around the learners' nodes and says where each learner is reached.
 * LearnerHelper needs nothing else, so a user's own ns-3 network works just as well: it only
 * has to give every learner an IPv4 address its neighbours can route to.
 */
class UnderlayHelper
{
  public:
    virtual ~UnderlayHelper() = default;

    /**
     * \brief Build the network; installs the Internet stack.
     * \param learners the learners' nodes, learner i at learners.Get(i)
     * \return where each learner is reached and what was built
     */
    virtual Underlay Install(NodeContainer learners) = 0;
};

} // namespace ns3

#endif // DLSIM_UNDERLAY_H
