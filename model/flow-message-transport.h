// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A learner's messages as flows of the flow-level network model.
 */
#ifndef DLSIM_FLOW_MESSAGE_TRANSPORT_H
#define DLSIM_FLOW_MESSAGE_TRANSPORT_H

#include "flow-network.h"
#include "message-transport.h"
#include "tcp-message-transport.h"

#include <map>

namespace ns3
{

/**
 * \brief MessageTransport of network.model = flow: each message to each neighbour is a flow of
 * its simulation's FlowNetwork, over the route packets would take; what arrives is checked and
 * reassembled as on TCP (dlsim::MessageReassembler). A connection the flow network fails (a
 * link out of service for longer than TCP tries, a receiver that started anew) is handled as
 * TcpMessageTransport handles a lost one: reported through Handlers::lost, what it held counted
 * as lost, set up again after the reconnect interval; one that never came up is first tried
 * again, up to connectAttempts times, keeping what it holds.
 */
class FlowMessageTransport : public MessageTransport
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \param network the simulation's flow network, which carries the messages
     * \param learner the learner's id (for messages)
     * \param settings the TCP settings the flows follow (segment size, initial window, buffer,
     *        minimum RTO, largest payload)
     */
    FlowMessageTransport(Ptr<FlowNetwork> network,
                         uint32_t learner,
                         const TcpTransportSettings& settings);

    bool Open(Ptr<Node> node, const std::vector<LearnerPeer>& targets) override;
    void Close() override;
    void Send(const std::vector<uint32_t>& peers,
              std::shared_ptr<const std::vector<uint8_t>> framed,
              uint64_t valueBytes) override;
    std::vector<DroppedMessage> DropUnsent() override;
    uint32_t TakeLostSends() override;
    uint64_t GetReceivedBytes() const override;

  protected:
    /// Stop listening and close the connections.
    void DoDispose() override;

  private:
    void Arrived(std::shared_ptr<const std::vector<uint8_t>> framed);
    /// The flow network failed the connection to `peer` (reached at `address`).
    void Failed(uint32_t peer,
                const std::string& address,
                const std::string& why,
                bool everConnected,
                uint32_t held);

    uint32_t m_learner;
    TcpTransportSettings m_settings;
    Ptr<FlowNetwork> m_network;
    Ptr<Node> m_node;
    std::map<uint32_t, uint32_t> m_connections; ///< peer id -> the network's connection
    uint64_t m_received = 0;
    uint32_t m_lostSends = 0;                    ///< messages lost with failed connections
    std::map<uint32_t, ConnectionSetups> m_setups; ///< peer id -> its connection's setups
};

} // namespace ns3

#endif // DLSIM_FLOW_MESSAGE_TRANSPORT_H
