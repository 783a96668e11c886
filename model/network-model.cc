// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "network-model.h"

#include "flow-network.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NetworkModel);
NS_OBJECT_ENSURE_REGISTERED(PacketNetworkModel);

TypeId
NetworkModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NetworkModel").SetParent<Object>().SetGroupName("Dlsim");
    return tid;
}

Ptr<Application>
NetworkModel::CreateCrossTraffic(Ptr<NetDevice> /* device */,
                                 const std::string& /* kind */,
                                 double /* rateBps */,
                                 uint32_t /* datagramBytes */)
{
    return nullptr;
}

void
NetworkModel::NotifyDataRate(Ptr<NetDevice> /* device */)
{}

void
NetworkModel::CheckLinks(const std::vector<UnderlayLink>& /* links */) const
{}

NetworkModel::Carried
NetworkModel::GetCarried(Ptr<NetDevice> /* device */)
{
    return {};
}

TypeId
PacketNetworkModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PacketNetworkModel")
                            .SetParent<NetworkModel>()
                            .SetGroupName("Dlsim")
                            .AddConstructor<PacketNetworkModel>();
    return tid;
}

Ptr<MessageTransport>
PacketNetworkModel::CreateTransport(uint32_t learner, const TcpTransportSettings& settings)
{
    return CreateObject<TcpMessageTransport>(learner, settings);
}

bool
PacketNetworkModel::MovesPackets() const
{
    return true;
}

std::vector<NetworkModelRegistration>
NetworkModelRegistration::Builtins()
{
    NetworkModelRegistration packet;
    packet.name = "packet";
    packet.help = "every segment through ns-3's TCP and links, the reference";
    packet.create = []()
    {
        return Ptr<NetworkModel>(CreateObject<PacketNetworkModel>());
    };
    NetworkModelRegistration flow;
    flow.name = "flow";
    flow.help = "each message a flow over the same point-to-point links, shared max-min "
                "fairly with TCP's slow start, headers and latency, simulated only when a flow "
                "starts, ends or changes rate; faster, optimistic where TCP leaves links idle: "
                "see the doc's Flow-level network model";
    flow.check = FlowNetwork::CheckScenario;
    flow.create = []()
    {
        return Ptr<NetworkModel>(CreateObject<FlowNetwork>());
    };
    return {packet, flow};
}

} // namespace ns3
