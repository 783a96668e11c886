// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-message-transport.h"

#include "message-framing.h"

#include <sstream>
#include <utility>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FlowMessageTransport);

TypeId
FlowMessageTransport::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FlowMessageTransport").SetParent<MessageTransport>().SetGroupName("Dlsim");
    return tid;
}

FlowMessageTransport::FlowMessageTransport(Ptr<FlowNetwork> network,
                                           uint32_t learner,
                                           const TcpTransportSettings& settings)
    : m_learner(learner), m_settings(settings), m_network(network)
{}

bool
FlowMessageTransport::Open(Ptr<Node> node, const std::vector<LearnerPeer>& targets)
{
    m_node = node;
    Ptr<FlowMessageTransport> self = this;
    m_network->Listen(node,
                      [self](std::shared_ptr<const std::vector<uint8_t>> framed)
                      { self->Arrived(std::move(framed)); });
    try
    {
        for (const LearnerPeer& peer : targets)
        {
            if (m_connections.find(peer.id) == m_connections.end())
            {
                const uint32_t id = peer.id;
                std::ostringstream address;
                address << peer.address;
                m_connections[peer.id] = m_network->Connect(
                    node,
                    peer.address,
                    m_settings,
                    [self, id, to = address.str()](
                        const std::string& why, bool everConnected, uint32_t held)
                    { self->Failed(id, to, why, everConnected, held); });
            }
        }
    }
    catch (const FlowModelError& e)
    {
        m_handlers.failed(e.what());
        return false;
    }
    return true;
}

void
FlowMessageTransport::Close()
{
    if (!m_network || !m_node)
    {
        return; // never opened
    }
    m_network->StopListening(m_node);
    for (const auto& [peer, connection] : m_connections)
    {
        m_network->Close(connection);
    }
    m_connections.clear();
    // A learner that starts anew (a recovery) sets its connections up as new ones.
    m_setups.clear();
}

void
FlowMessageTransport::DoDispose()
{
    Close();
    m_network = nullptr;
    m_node = nullptr;
    MessageTransport::DoDispose();
}

void
FlowMessageTransport::Send(const std::vector<uint32_t>& peers,
                           std::shared_ptr<const std::vector<uint8_t>> framed,
                           uint64_t valueBytes)
{
    // One buffer shared by every flow that carries it, as TCP's connections share one packet set.
    for (uint32_t peer : peers)
    {
        m_network->Send(m_connections.at(peer), framed, valueBytes);
    }
}

std::vector<DroppedMessage>
FlowMessageTransport::DropUnsent()
{
    std::vector<DroppedMessage> dropped;
    for (const auto& [peer, connection] : m_connections)
    {
        for (const DroppedMessage& message : m_network->DropUnsent(connection))
        {
            dropped.push_back(message);
        }
    }
    return dropped;
}

uint32_t
FlowMessageTransport::TakeLostSends()
{
    return std::exchange(m_lostSends, 0);
}

void
FlowMessageTransport::Failed(uint32_t peer,
                             const std::string& address,
                             const std::string& why,
                             bool everConnected,
                             uint32_t held)
{
    const auto it = m_connections.find(peer);
    if (it == m_connections.end())
    {
        return;
    }
    ConnectionSetups& setups = m_setups[peer];
    setups.everConnected = setups.everConnected || everConnected;
    if (setups.TryAgain(m_settings.connectAttempts))
    {
        // Kept whole: none of what the connection holds has left.
        m_network->Reconnect(it->second, m_settings.reconnectInterval, true);
        return;
    }
    const std::string what = setups.everConnected
                                 ? "lost its connection to learner " + std::to_string(peer) + " at "
                                       + address + ": " + why
                                 : "could not connect to learner " + std::to_string(peer) + " at "
                                       + address + setups.Attempts() + " (" + why + ")";
    if (!m_handlers.lost(what, false))
    {
        return;
    }
    // What TCP could not deliver is lost: resending might duplicate a message that did arrive.
    m_lostSends += held;
    m_network->Reconnect(it->second, m_settings.reconnectInterval, false);
}

uint64_t
FlowMessageTransport::GetReceivedBytes() const
{
    return m_received;
}

void
FlowMessageTransport::Arrived(std::shared_ptr<const std::vector<uint8_t>> framed)
{
    m_received += framed->size();
    // The same checks as on TCP: a message is read from its bytes, each receiver's a view of
    // the one buffer.
    MessageReassembler reassembler(m_settings.maxPayloadBytes);
    try
    {
        reassembler.Feed(framed);
    }
    catch (const FramingError& e)
    {
        m_handlers.failed(std::string("received bytes that are no message: ") + e.what());
        return;
    }
    while (reassembler.HasMessage() && m_handlers.received(reassembler.Pop()))
    {}
}

} // namespace ns3
