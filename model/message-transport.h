// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * How a learner's messages reach its neighbours: the seam between the round logic and the
 * network model that carries the bytes.
 */
#ifndef DLSIM_MESSAGE_TRANSPORT_H
#define DLSIM_MESSAGE_TRANSPORT_H

#include "message-framing.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// Where to reach a neighbour: its id and its address on the link between the two hosts.
struct LearnerPeer
{
    uint32_t id = 0;     ///< the neighbour's learner id
    Ipv4Address address; ///< its address, as seen from this host
};

/// A message handed to a transport and dropped before any of its bytes left (DropUnsent).
struct DroppedMessage
{
    uint64_t size = 0;       ///< bytes of the framed message
    uint64_t valueBytes = 0; ///< of which model values
};

/**
 * The setups of one outgoing connection, counted alike by every transport: a connection that
 * never came up is tried again, keeping what it holds, until connectAttempts setups in all have
 * failed; then, or once it has been up, a failure loses it.
 */
struct ConnectionSetups
{
    uint32_t failed = 0;        ///< setups that failed before the connection first came up
    bool everConnected = false; ///< whether it has been up once

    /**
     * \brief Count a failure of the connection.
     * \param connectAttempts setups allowed in all
     * \return whether to try the setup again (else the connection is lost)
     */
    bool TryAgain(uint32_t connectAttempts)
    {
        return !everConnected && ++failed < connectAttempts;
    }

    /// \return " after N attempts" for a connection that never came up, else ""
    std::string Attempts() const
    {
        return everConnected
                   ? ""
                   : " after " + std::to_string(failed) + " attempt" + (failed == 1 ? "" : "s");
    }
};

/**
 * \brief Carries one learner's framed messages to its out-neighbours and hands it whole
 * messages from its in-neighbours.
 *
 * LearnerApplication runs rounds; a MessageTransport owns everything about the connections:
 * opening and accepting them, cutting messages into what the network takes, reassembling what
 * arrives, and reconnecting after a failure when the round logic allows it. What the transport
 * learns goes back through its Handlers, so the round logic never sees a socket.
 * TcpMessageTransport is the one over ns-3's TCP; another network model implements this interface.
 */
class MessageTransport : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// What the transport reports to the round logic.
    struct Handlers
    {
        /// A whole message arrived. Returns false when the learner has stopped (it then took
        /// nothing): no more messages are offered from what arrived with it.
        std::function<bool(dlsim::Message)> received;
        /**
         * A connection broke or could not be made; `why` says which and how, `peerClosed`
         * whether the neighbour closed it in an orderly way. Returns whether the transport
         * carries on: it forgets the connection, counts what it held to send as lost
         * (TakeLostSends) and connects again (outgoing ones) after the reconnect interval.
         */
        std::function<bool(const std::string& why, bool peerClosed)> lost;
        /// The transport cannot go on (it cannot listen, or bytes arrived that are no message).
        std::function<void(const std::string& why)> failed;
    };

    /**
     * \brief Set what the transport reports to (before Open).
     * \param handlers the round logic's answers
     */
    void SetHandlers(Handlers handlers);

    /**
     * \brief Start on `node`: accept connections, and connect to every peer in `targets`.
     * \param node the learner's host
     * \param targets every node the learner sends to, in any phase of its overlay
     * \return false (after Handlers::failed) when it cannot
     */
    virtual bool Open(Ptr<Node> node, const std::vector<LearnerPeer>& targets) = 0;
    /// Close every connection; nothing is reported about them afterwards.
    virtual void Close() = 0;
    /**
     * \brief Hand one framed message to the connections to `peers`; its bytes go as each
     * connection allows.
     * \param peers ids among the targets given to Open
     * \param framed the message with its header (FrameMessage), shared: a transport may keep
     *        it as it is instead of copying it
     * \param valueBytes of which model values
     */
    virtual void Send(const std::vector<uint32_t>& peers,
                      std::shared_ptr<const std::vector<uint8_t>> framed,
                      uint64_t valueBytes)
        = 0;
    /**
     * \brief Forget the messages none of whose bytes were handed to the network yet (a newer
     * model makes them worthless).
     * \return one entry per message and connection dropped
     */
    virtual std::vector<DroppedMessage> DropUnsent() = 0;
    /// \return messages lost with failed connections since the previous call
    virtual uint32_t TakeLostSends() = 0;
    /// \return payload bytes received so far (what a watchdog counts as progress)
    virtual uint64_t GetReceivedBytes() const = 0;

  protected:
    Handlers m_handlers; //!< set by SetHandlers
};

} // namespace ns3

#endif // DLSIM_MESSAGE_TRANSPORT_H
