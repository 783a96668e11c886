// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "network-model.h"

#include "flow-message-transport.h"
#include "flow-network.h"

namespace ns3
{

std::vector<NetworkModelRegistration>
NetworkModelRegistration::Builtins()
{
    NetworkModelRegistration packet;
    packet.name = "packet";
    packet.help = "every segment through ns-3's TCP and links, the reference";
    packet.create = [](uint32_t learner, const TcpTransportSettings& settings)
    {
        return Ptr<MessageTransport>(CreateObject<TcpMessageTransport>(learner, settings));
    };
    NetworkModelRegistration flow;
    flow.name = "flow";
    flow.help = "each message a flow over the same point-to-point links, shared max-min "
                "fairly with TCP's slow start, headers and latency, simulated only when a flow "
                "starts, ends or changes rate; faster, optimistic where TCP leaves links idle: "
                "see the doc's Flow-level network model";
    flow.create = [](uint32_t learner, const TcpTransportSettings& settings)
    {
        return Ptr<MessageTransport>(CreateObject<FlowMessageTransport>(learner, settings));
    };
    flow.carried = [](Ptr<NetDevice> device)
    {
        Ptr<FlowNetwork> network = FlowNetwork::Get();
        return NetworkModelRegistration::Carried{network->GetTxBytes(device),
                                                 network->GetOverflows(device)};
    };
    return {packet, flow};
}

} // namespace ns3
