// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "tcp-message-transport.h"

#include "linux-tcp-socket.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimTcpMessageTransport");

NS_OBJECT_ENSURE_REGISTERED(MessageTransport);
NS_OBJECT_ENSURE_REGISTERED(TcpMessageTransport);

TypeId
MessageTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MessageTransport").SetParent<Object>().SetGroupName("Dlsim");
    return tid;
}

void
MessageTransport::SetHandlers(Handlers handlers)
{
    m_handlers = std::move(handlers);
}

TypeId
TcpMessageTransport::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TcpMessageTransport").SetParent<MessageTransport>().SetGroupName("Dlsim");
    return tid;
}

TcpMessageTransport::TcpMessageTransport(uint32_t learnerId, const TcpTransportSettings& settings)
    : m_learnerId(learnerId), m_settings(settings)
{}

TcpMessageTransport::~TcpMessageTransport() = default;

void
TcpMessageTransport::DoDispose()
{
    m_listener = nullptr;
    m_out.clear();
    m_in.clear();
    m_node = nullptr;
    MessageTransport::DoDispose();
}

Ptr<Socket>
TcpMessageTransport::CreateTcpSocket()
{
    Ptr<Socket> socket = m_settings.linuxTcp
                             ? Ptr<Socket>(LinuxTcpSocket::Create(m_node))
                             : Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    socket->SetAttribute("SegmentSize", UintegerValue(m_settings.segmentSize));
    socket->SetAttribute("SndBufSize", UintegerValue(m_settings.bufferSize));
    socket->SetAttribute("RcvBufSize", UintegerValue(m_settings.bufferSize));
    socket->SetAttribute("InitialCwnd", UintegerValue(m_settings.initialCwnd));
    socket->SetAttribute("MinRto", TimeValue(m_settings.minRto));
    socket->SetAttribute("DelAckTimeout", TimeValue(m_settings.delAckTimeout));
    return socket;
}

bool
TcpMessageTransport::Open(Ptr<Node> node, const std::vector<LearnerPeer>& targets)
{
    m_node = node;
    // Accepted sockets inherit the listener's TCP attributes.
    m_listener = CreateTcpSocket();
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_settings.port)) != 0
        || m_listener->Listen() != 0)
    {
        m_handlers.failed("cannot listen on TCP port " + std::to_string(m_settings.port));
        return false;
    }
    m_listener->SetAcceptCallback(MakeCallback(&TcpMessageTransport::AcceptRequest, this),
                                  MakeCallback(&TcpMessageTransport::NewConnection, this));
    for (const LearnerPeer& peer : targets)
    {
        OutConnection connection;
        connection.peer = peer;
        m_out.push_back(connection);
        Connect(m_out.back());
    }
    return true;
}

void
TcpMessageTransport::Connect(OutConnection& connection)
{
    connection.socket = CreateTcpSocket();
    connection.socket->Bind();
    connection.socket->SetConnectCallback(
        MakeCallback(&TcpMessageTransport::ConnectionSucceeded, this),
        MakeCallback(&TcpMessageTransport::ConnectionFailed, this));
    connection.socket->SetSendCallback(MakeCallback(&TcpMessageTransport::HandleSendSpace, this));
    if (m_settings.holdUntilSent)
    {
        // Only the send gate of rounds that do not wait reads what TCP has sent: no call per
        // packet where nothing waits on it.
        connection.socket->SetDataSentCallback(
            MakeCallback(&TcpMessageTransport::HandleDataSent, this));
    }
    connection.handed = 0;
    connection.sent = 0;
    connection.previousEnd = 0;
    connection.earlierEnd = 0;
    connection.socket->SetCloseCallbacks(
        MakeCallback(&TcpMessageTransport::HandlePeerClose, this),
        MakeCallback(&TcpMessageTransport::HandleConnectionError, this));
    connection.socket->Connect(InetSocketAddress(connection.peer.address, m_settings.port));
}

void
TcpMessageTransport::Silence(Ptr<Socket> socket)
{
    socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                               MakeNullCallback<void, Ptr<Socket>>());
    socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    socket->SetDataSentCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                              MakeNullCallback<void, Ptr<Socket>>());
    socket->Close();
}

void
TcpMessageTransport::Close()
{
    for (auto& connection : m_out)
    {
        Simulator::Cancel(connection.reconnect);
        Silence(connection.socket);
    }
    for (auto& [socket, reassembler] : m_in)
    {
        Silence(socket);
    }
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener->Close();
    }
    m_out.clear();
    m_in.clear();
    m_listener = nullptr;
}

void
TcpMessageTransport::LoseConnection(Ptr<Socket> socket, const std::string& why, bool peerClosed)
{
    if (!m_handlers.lost(why, peerClosed))
    {
        return;
    }
    NS_LOG_INFO("learner " << m_learnerId << " " << why);
    if (auto in = m_in.find(socket); in != m_in.end())
    {
        // A partly received message on it is lost with it; the sender reconnects.
        Silence(socket);
        m_in.erase(in);
        return;
    }
    OutConnection& connection = FindConnection(socket);
    // What TCP could not deliver is lost: resending might duplicate a message that did arrive.
    m_lostSends += static_cast<uint32_t>(connection.queue.size());
    connection.queue.clear();
    connection.offset = 0;
    connection.connected = false;
    Silence(socket);
    const uint32_t peer = connection.peer.id;
    connection.reconnect = Simulator::Schedule(
        m_settings.reconnectInterval, &TcpMessageTransport::Reconnect, this, peer);
}

void
TcpMessageTransport::Reconnect(uint32_t peer)
{
    for (auto& connection : m_out)
    {
        if (connection.peer.id == peer)
        {
            Connect(connection);
            return;
        }
    }
}

TcpMessageTransport::OutConnection&
TcpMessageTransport::FindConnection(Ptr<Socket> socket)
{
    for (auto& connection : m_out)
    {
        if (connection.socket == socket)
        {
            return connection;
        }
    }
    NS_FATAL_ERROR("learner " << m_learnerId << ": callback for an unknown socket");
}

void
TcpMessageTransport::ConnectionSucceeded(Ptr<Socket> socket)
{
    OutConnection& connection = FindConnection(socket);
    NS_LOG_INFO("learner " << m_learnerId << " connected to " << connection.peer.id);
    connection.connected = true;
    connection.setups.everConnected = true;
    PushBytes(connection);
}

void
TcpMessageTransport::ConnectionFailed(Ptr<Socket> socket)
{
    OutConnection& connection = FindConnection(socket);
    std::ostringstream address;
    address << connection.peer.address;
    if (connection.setups.TryAgain(m_settings.connectAttempts))
    {
        // Not lost yet: nothing was handed to this socket, so the queue is kept whole.
        NS_LOG_INFO("learner " << m_learnerId << " could not connect to " << connection.peer.id
                               << " (attempt " << connection.setups.failed << "); trying again");
        Silence(socket);
        const uint32_t peer = connection.peer.id;
        connection.reconnect = Simulator::Schedule(
            m_settings.reconnectInterval, &TcpMessageTransport::Reconnect, this, peer);
        return;
    }
    LoseConnection(socket,
                   "could not connect to learner " + std::to_string(connection.peer.id) + " at "
                       + address.str() + connection.setups.Attempts()
                       + " (no route, or TCP gave up on the connection request)",
                   false);
}

bool
TcpMessageTransport::AcceptRequest(Ptr<Socket> /* socket */, const Address& /* from */)
{
    return true;
}

void
TcpMessageTransport::NewConnection(Ptr<Socket> socket, const Address& /* from */)
{
    m_in.emplace(socket, MessageReassembler(m_settings.maxPayloadBytes));
    socket->SetRecvCallback(MakeCallback(&TcpMessageTransport::HandleRead, this));
    socket->SetCloseCallbacks(MakeCallback(&TcpMessageTransport::HandlePeerClose, this),
                              MakeCallback(&TcpMessageTransport::HandleConnectionError, this));
}

void
TcpMessageTransport::HandleSendSpace(Ptr<Socket> socket, uint32_t /* available */)
{
    OutConnection& connection = FindConnection(socket);
    if (connection.connected)
    {
        PushBytes(connection);
    }
}

void
TcpMessageTransport::HandleDataSent(Ptr<Socket> socket, uint32_t bytes)
{
    OutConnection& connection = FindConnection(socket);
    const bool wasHeld = connection.sent < connection.earlierEnd;
    connection.sent += bytes;
    // Only the gate's opening can release a message here (sends free no buffer space).
    if (connection.connected && wasHeld && connection.sent >= connection.earlierEnd)
    {
        PushBytes(connection);
    }
}

void
TcpMessageTransport::Send(const std::vector<uint32_t>& peers,
                          std::shared_ptr<const std::vector<uint8_t>> framed,
                          uint64_t valueBytes)
{
    const std::vector<uint8_t>& bytes = *framed;
    // One set of packets shared by every connection: the bytes are the same for all neighbours.
    auto pieces = std::make_shared<std::vector<Ptr<Packet>>>();
    pieces->reserve(bytes.size() / kPieceSize + 1);
    for (size_t begin = 0; begin < bytes.size(); begin += kPieceSize)
    {
        const auto size = static_cast<uint32_t>(std::min<size_t>(kPieceSize, bytes.size() - begin));
        pieces->push_back(Create<Packet>(bytes.data() + begin, size));
    }
    for (uint32_t peer : peers)
    {
        OutConnection& connection = *std::find_if(
            m_out.begin(), m_out.end(), [peer](const auto& c) { return c.peer.id == peer; });
        connection.queue.push_back({pieces, bytes.size(), valueBytes});
        PushBytes(connection);
    }
}

void
TcpMessageTransport::PushBytes(OutConnection& connection)
{
    while (connection.connected && !connection.queue.empty())
    {
        const OutConnection::Queued& message = connection.queue.front();
        uint32_t room = connection.socket->GetTxAvailable();
        if (room == 0)
        {
            return; // HandleSendSpace resumes when TCP has freed buffer space
        }
        if (connection.offset == 0 && m_settings.holdUntilSent
            && connection.sent < connection.earlierEnd)
        {
            // A message waits in the queue, where a newer one can still replace it, until TCP
            // has sent (HandleDataSent; acknowledged is later) the message before the previous
            // one. Not the previous one: synchronous rounds often hand a message over while the
            // tail of the previous one is still unsent (an uplink slower than the downlink), and
            // holding it back until then makes TCP cut other segments, so a deadline that never
            // fires would change the timing. The one before the previous one is always sent by
            // then where the receiver awaits every message and sends to this learner too: a
            // message of round r + 2 needs the neighbours' of round r + 1, which needed this
            // learner's of round r. A link too slow for the rounds still has at most two
            // messages in TCP not yet all sent; newer models replace the queued ones.
            return;
        }
        const Ptr<Packet>& piece = (*message.pieces)[connection.offset / kPieceSize];
        const auto within = static_cast<uint32_t>(connection.offset % kPieceSize);
        const uint32_t chunk = std::min(room, piece->GetSize() - within);
        // Copies share the piece's bytes: every neighbour's TCP holds the same buffer.
        Ptr<Packet> packet = within == 0 && chunk == piece->GetSize()
                                 ? piece->Copy()
                                 : piece->CreateFragment(within, chunk);
        int sent = connection.socket->Send(packet);
        if (sent <= 0)
        {
            return;
        }
        connection.offset += static_cast<size_t>(sent);
        connection.handed += static_cast<uint64_t>(sent);
        if (connection.offset == message.size)
        {
            connection.queue.pop_front();
            connection.offset = 0;
            connection.earlierEnd = connection.previousEnd;
            connection.previousEnd = connection.handed;
        }
    }
}

std::vector<DroppedMessage>
TcpMessageTransport::DropUnsent()
{
    std::vector<DroppedMessage> dropped;
    for (auto& connection : m_out)
    {
        // The front message may be partly with TCP already: it must be finished.
        auto firstUnsent = connection.queue.begin();
        if (firstUnsent != connection.queue.end() && connection.offset > 0)
        {
            ++firstUnsent;
        }
        for (auto it = firstUnsent; it != connection.queue.end(); ++it)
        {
            dropped.push_back({it->size, it->valueBytes});
        }
        connection.queue.erase(firstUnsent, connection.queue.end());
    }
    return dropped;
}

uint32_t
TcpMessageTransport::TakeLostSends()
{
    return std::exchange(m_lostSends, 0);
}

uint64_t
TcpMessageTransport::GetReceivedBytes() const
{
    return m_receivedBytes;
}

void
TcpMessageTransport::HandleRead(Ptr<Socket> socket)
{
    auto it = m_in.find(socket);
    NS_ABORT_MSG_IF(it == m_in.end(), "data on an unknown socket");
    MessageReassembler& reassembler = it->second;
    Ptr<Packet> packet;
    while ((packet = socket->Recv(kPieceSize, 0)))
    {
        const uint32_t size = packet->GetSize();
        if (size == 0)
        {
            break;
        }
        m_receivedBytes += size;
        // Grown, never shrunk: no fresh zero-filled buffer for every read.
        if (m_readBuffer.size() < size)
        {
            m_readBuffer.resize(size);
        }
        packet->CopyData(m_readBuffer.data(), size);
        try
        {
            reassembler.Feed(m_readBuffer.data(), size);
        }
        catch (const std::exception& e)
        {
            m_handlers.failed(std::string("received bytes that are not a message: ") + e.what());
            return;
        }
        // What arrives after the learner stopped is read (and counted) but not delivered.
        while (reassembler.HasMessage() && m_handlers.received(reassembler.Pop()))
        {}
    }
}

void
TcpMessageTransport::HandlePeerClose(Ptr<Socket> socket)
{
    LoseConnection(socket,
                   "a neighbour closed its connection " + DescribeSocket(socket)
                       + " before the run ended",
                   true);
}

void
TcpMessageTransport::HandleConnectionError(Ptr<Socket> socket)
{
    LoseConnection(socket,
                   "lost its connection " + DescribeSocket(socket)
                       + ": TCP gave up (too many retransmissions, or the peer reset it)",
                   false);
}

std::string
TcpMessageTransport::DescribeSocket(Ptr<Socket> socket) const
{
    for (const auto& connection : m_out)
    {
        if (connection.socket == socket)
        {
            return "to learner " + std::to_string(connection.peer.id);
        }
    }
    Address peer;
    std::ostringstream text;
    if (socket->GetPeerName(peer) == 0 && InetSocketAddress::IsMatchingType(peer))
    {
        text << "from " << InetSocketAddress::ConvertFrom(peer).GetIpv4();
    }
    else
    {
        text << "from a neighbour";
    }
    return text.str();
}

} // namespace ns3
