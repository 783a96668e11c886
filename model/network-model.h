// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The network models a learner's messages can travel by (network.model): packets through ns-3's
 * TCP, or flows sharing the same links. A registration says what the model refuses and makes one
 * NetworkModel per simulation; everything that moves bytes over the links (learners, cross
 * traffic, rate traces, the links' byte counts) reaches the model through that object.
 */
#ifndef DLSIM_NETWORK_MODEL_H
#define DLSIM_NETWORK_MODEL_H

#include "message-transport.h"
#include "ns3/application.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "registry.h"
#include "tcp-message-transport.h"
#include "underlay.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief One simulation's network model, as its registration makes it (one per simulation,
 * held by whoever installs that simulation's learners, cross traffic and rate traces), so that
 * two simulations in one process, or one per MPI rank, each have their own.
 */
class NetworkModel : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \brief Make one learner's transport.
     * \param learner the learner's id
     * \param settings the application's TCP settings
     * \return the transport
     */
    virtual Ptr<MessageTransport> CreateTransport(uint32_t learner,
                                                  const TcpTransportSettings& settings)
        = 0;

    /**
     * \brief Cross traffic on one link direction in the model's own form.
     * \param device the sending device of the link direction
     * \param kind "cbr", "onoff" or "bulk" (CrossTrafficHelper's)
     * \param rateBps the UDP payload rate while on
     * \param datagramBytes the UDP payload of each datagram
     * \return the application to install on the device's node, or null: the traffic goes as
     * packets (ns-3's own applications)
     * \throws std::runtime_error for traffic the model cannot carry
     */
    virtual Ptr<Application> CreateCrossTraffic(Ptr<NetDevice> device,
                                                const std::string& kind,
                                                double rateBps,
                                                uint32_t datagramBytes);

    /**
     * \brief A device's DataRate has just changed (a rate trace's step). A model that moves
     * packets through the devices needs nothing more; one that does not takes the new rate.
     * \param device the device whose DataRate was set
     */
    virtual void NotifyDataRate(Ptr<NetDevice> device);

    /// What a model that moves no packets through the devices says of one link direction.
    struct Carried
    {
        uint64_t txBytes = 0;   ///< the bytes its sending device carried (links.csv)
        uint64_t overflows = 0; ///< times its queue would have overflowed over packets
    };

    /// \return whether packets cross the devices, so that their own traces count what they send
    /// and drop (else GetCarried says)
    virtual bool MovesPackets() const = 0;

    /**
     * \param device a link direction's sending device
     * \return what the model carried over it (only where MovesPackets is false)
     */
    virtual Carried GetCarried(Ptr<NetDevice> device);

    /**
     * \brief What this model cannot carry in a built network, refused before the run starts:
     * the registration's check sees the scenario's keys, this the links as built (rates and
     * losses drawn or read from files included). Nothing by default.
     * \param links every link direction of the underlay
     * \throws std::invalid_argument naming the key and the link
     */
    virtual void CheckLinks(const std::vector<UnderlayLink>& links) const;
};

/// network.model = packet: every segment through ns-3's TCP (TcpMessageTransport).
class PacketNetworkModel : public NetworkModel
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    Ptr<MessageTransport> CreateTransport(uint32_t learner,
                                          const TcpTransportSettings& settings) override;
    bool MovesPackets() const override;
};

/// What a network model's check reads of a scenario (the runner's keys, by name).
struct NetworkModelScenario
{
    /// A key's value as the scenario gives it (its default where it gives none).
    std::function<std::string(const std::string& key)> value;
    /// The keys whose names start with a prefix ("capture.") that the scenario sets to other
    /// than their defaults.
    std::function<std::vector<std::string>(const std::string& prefix)> changed;
};

/// One network model: its name (network.model), a line of help, what it refuses and its factory.
struct NetworkModelRegistration
{
    static constexpr const char* kKind = "network model"; ///< what the registry's errors call it

    std::string name;                      ///< network.model's value
    std::string help;                      ///< one line for `--help`
    std::vector<dlsim::AlgorithmKey> keys; ///< its scenario keys (none so far)
    /// What of a scenario the model cannot carry: throws std::invalid_argument naming the key
    /// (before anything is built or written). Unset: it carries every scenario.
    std::function<void(const NetworkModelScenario& scenario)> check;
    /// Makes the model of one simulation.
    std::function<Ptr<NetworkModel>()> create;

    /// \return dlsim's own network models: packet, flow
    static std::vector<NetworkModelRegistration> Builtins();
};

/// The network models by name.
using NetworkModelRegistry = dlsim::Registry<NetworkModelRegistration>;

} // namespace ns3

#endif // DLSIM_NETWORK_MODEL_H
