// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A learner's messages over ns-3's TCP: one connection to each out-neighbour, one accepted from
 * each in-neighbour.
 */
#ifndef DLSIM_TCP_MESSAGE_TRANSPORT_H
#define DLSIM_TCP_MESSAGE_TRANSPORT_H

#include "message-transport.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

#include <deque>
#include <map>
#include <memory>

namespace ns3
{

/// The TCP the learners' sockets are (LearnerApplication's Tcp* attributes).
struct TcpTransportSettings
{
    bool linuxTcp = true;            ///< LinuxTcpSocket (RACK-TLP, Linux's timers), else ns-3's
    uint32_t segmentSize = 1448;     ///< MSS in bytes
    uint32_t bufferSize = 4 << 20;   ///< send and receive buffer in bytes
    uint32_t initialCwnd = 10;       ///< in segments
    Time minRto = MilliSeconds(200); ///< minimum retransmission timeout
    Time delAckTimeout = MilliSeconds(40);        ///< longest ACK delay
    uint16_t port = 9000;                         ///< where every learner listens
    uint64_t maxPayloadBytes = uint64_t(1) << 32; ///< largest payload a header may announce
    Time reconnectInterval = Seconds(1);          ///< wait before connecting again after a failure
    /// Tries to set up a connection that never came up (a peer still associating with its
    /// Wi-Fi access point, a link down at the start), reconnectInterval apart, before it counts
    /// as lost.
    uint32_t connectAttempts = 4;
    /**
     * Rounds that do not wait for every message: a queued message stays replaceable
     * (DropUnsent) until TCP has sent the message before the previous one (see PushBytes).
     */
    bool holdUntilSent = false;
};

/**
 * \brief MessageTransport over ns-3's TCP.
 *
 * Opens a listening socket and one connection to every target; a message is cut into packets
 * of at most kPieceSize bytes once and shared by every connection that sends it (ns-3 packets
 * share their bytes until written to). Incoming bytes are reassembled per connection
 * (dlsim::MessageReassembler). A failed connection is reported through Handlers::lost; if the round
 * logic carries on, an outgoing one is opened again after the reconnect interval and what it
 * held is lost (resending might duplicate a message that did arrive). A connection that never
 * came up is first tried again, up to connectAttempts times in all, keeping what it holds (none
 * of it was sent).
 */
class TcpMessageTransport : public MessageTransport
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \param learnerId whose transport this is (for logs and errors)
     * \param settings the sockets' TCP and the connections' behaviour
     */
    TcpMessageTransport(uint32_t learnerId, const TcpTransportSettings& settings);
    ~TcpMessageTransport() override;

    bool Open(Ptr<Node> node, const std::vector<LearnerPeer>& targets) override;
    void Close() override;
    void Send(const std::vector<uint32_t>& peers,
              std::shared_ptr<const std::vector<uint8_t>> framed,
              uint64_t valueBytes) override;
    std::vector<DroppedMessage> DropUnsent() override;
    uint32_t TakeLostSends() override;
    uint64_t GetReceivedBytes() const override;

    /**
     * Bytes handed to TCP in one packet, and read from it at once, at most. ns-3 keeps freed
     * packet buffers as large as the largest one ever freed for reuse, even by small packets: a
     * packet of a whole model would make every later packet hold that much memory. TCP cuts its
     * segments from the byte stream whatever the packets handed to it, so this changes no result.
     */
    static constexpr uint32_t kPieceSize = 65536;

  protected:
    /// Drop the sockets (without closing them: the simulation is over).
    void DoDispose() override;

  private:
    /// One outgoing TCP connection and the bytes still to hand to it.
    struct OutConnection
    {
        LearnerPeer peer;
        Ptr<Socket> socket;
        bool connected = false;

        /// A message waiting for (or partly handed to) TCP.
        struct Queued
        {
            /// The framed message in pieces of at most kPieceSize bytes, shared by every
            /// connection that sends it.
            std::shared_ptr<const std::vector<Ptr<Packet>>> pieces;
            uint64_t size = 0; ///< bytes of the framed message
            uint64_t valueBytes = 0; ///< of which model values
        };

        std::deque<Queued> queue;
        size_t offset = 0; ///< bytes of queue.front() already handed to TCP
        // Positions in this socket's byte stream (PushBytes says what for).
        uint64_t handed = 0;      ///< bytes handed to TCP
        uint64_t sent = 0;        ///< of which TCP has transmitted (DataSent)
        uint64_t previousEnd = 0; ///< where the message handed last ends
        uint64_t earlierEnd = 0;  ///< where the one handed before it ends
        EventId reconnect;
        ConnectionSetups setups; ///< whether it came up, and the requests that failed before
    };

    Ptr<Socket> CreateTcpSocket();
    void Connect(OutConnection& connection);
    /// A socket given up on: no more callbacks into this transport, and closed.
    void Silence(Ptr<Socket> socket);
    /// Tell the round logic; if it carries on, forget the connection (and reconnect, outgoing).
    void LoseConnection(Ptr<Socket> socket, const std::string& why, bool peerClosed);
    void Reconnect(uint32_t peer);
    void ConnectionSucceeded(Ptr<Socket> socket);
    void ConnectionFailed(Ptr<Socket> socket);
    bool AcceptRequest(Ptr<Socket> socket, const Address& from);
    void NewConnection(Ptr<Socket> socket, const Address& from);
    void HandleRead(Ptr<Socket> socket);
    void HandleSendSpace(Ptr<Socket> socket, uint32_t available);
    /// TCP transmitted `bytes` new bytes (DataSent: never called for retransmissions).
    void HandleDataSent(Ptr<Socket> socket, uint32_t bytes);
    void HandlePeerClose(Ptr<Socket> socket);
    void HandleConnectionError(Ptr<Socket> socket);
    std::string DescribeSocket(Ptr<Socket> socket) const;
    void PushBytes(OutConnection& connection);
    OutConnection& FindConnection(Ptr<Socket> socket);

    uint32_t m_learnerId;                           //!< whose transport this is
    TcpTransportSettings m_settings;                //!< as given
    Ptr<Node> m_node;                               //!< the host, from Open
    Ptr<Socket> m_listener;                         //!< accepts the in-neighbours' connections
    std::vector<OutConnection> m_out;               //!< one per target
    std::map<Ptr<Socket>, dlsim::MessageReassembler> m_in; //!< accepted connections
    /// What HandleRead copies a received packet into, kept from one read to the next.
    std::vector<uint8_t> m_readBuffer;
    uint64_t m_receivedBytes = 0; //!< payload bytes received so far
    uint32_t m_lostSends = 0;     //!< messages lost with connections since TakeLostSends
};

} // namespace ns3

#endif // DLSIM_TCP_MESSAGE_TRANSPORT_H
