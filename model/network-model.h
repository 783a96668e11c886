// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The network models a learner's messages can travel by (network.model): packets through ns-3's
 * TCP, or flows sharing the same links.
 */
#ifndef DLSIM_NETWORK_MODEL_H
#define DLSIM_NETWORK_MODEL_H

#include "message-transport.h"
#include "registry.h"
#include "tcp-message-transport.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/// One network model: its name (network.model), a line of help and its transport's factory.
struct NetworkModelRegistration
{
    static constexpr const char* kKind = "network model"; ///< what the registry's errors call it

    std::string name;                      ///< network.model's value
    std::string help;                      ///< one line for `--help`
    std::vector<dlsim::AlgorithmKey> keys; ///< its scenario keys (none so far)
    /// Makes one learner's transport from the application's TCP settings.
    std::function<Ptr<MessageTransport>(uint32_t learner, const TcpTransportSettings& settings)>
        create;
    /// What a model that moves no packets through the devices says of one link direction at
    /// the end of the run.
    struct Carried
    {
        uint64_t txBytes = 0;   ///< the bytes its sending device carried (links.csv)
        uint64_t overflows = 0; ///< times its queue would have overflowed over packets
    };
    /// Unset: the devices' own traces count every packet they transmit and drop.
    std::function<Carried(Ptr<NetDevice> device)> carried;

    /// \return dlsim's own network models: packet, flow
    static std::vector<NetworkModelRegistration> Builtins();
};

/// The network models by name.
using NetworkModelRegistry = dlsim::Registry<NetworkModelRegistration>;

} // namespace ns3

#endif // DLSIM_NETWORK_MODEL_H
