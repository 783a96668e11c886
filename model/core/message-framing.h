// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Length-prefixed messages on a byte stream (TCP): framing and reassembly.
 */
#ifndef DLSIM_MESSAGE_FRAMING_H
#define DLSIM_MESSAGE_FRAMING_H

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

namespace dlsim
{

/// A stream that does not carry well-formed dlsim messages.
class FramingError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// Kinds of message.
enum class MessageType : uint8_t
{
    ModelPayload = 1, ///< an algorithm's encoded payload
    /// A payload sent back to a ModelPayload's sender, whose round it names (pairwise
    /// exchanges: SharingAlgorithm::AnswersMessages)
    Answer = 2,
};

/**
 * The fixed-size header in front of every payload, little-endian on the wire:
 * magic u32 "DLSM", version u8, type u8, reserved u16 (zero), sender u32, round u32,
 * sender degree u32, payload length u64. 28 bytes, counted as metadata.
 */
struct MessageHeader
{
    static constexpr uint32_t kMagic = 0x4D534C44; ///< the bytes 'D' 'L' 'S' 'M'
    static constexpr uint8_t kVersion = 1;         ///< the only version read
    static constexpr size_t kSize = 28;            ///< bytes on the wire

    MessageType type = MessageType::ModelPayload; ///< what the payload is
    uint32_t sender = 0;                          ///< the sending learner's index
    uint32_t round = 0;                           ///< the sender's round
    uint32_t senderDegree = 0;  ///< the sender's out-degree in that round (push-sum weights)
    uint64_t payloadLength = 0; ///< bytes of payload that follow
};

/// A complete message.
struct Message
{
    MessageHeader header;         ///< who sent it, in which round
    std::vector<uint8_t> payload; ///< header.payloadLength bytes
};

/**
 * \param header the header (its payloadLength is set from `payload`)
 * \param payload the payload
 * \return the header's bytes followed by the payload's, as sent
 */
std::vector<uint8_t> FrameMessage(MessageHeader header, const std::vector<uint8_t>& payload);

/**
 * Rebuilds messages from a byte stream cut at arbitrary places: feed it whatever arrived, then
 * pop the complete messages. A bad magic number, version or type, or a payload longer than the
 * limit, throws FramingError: the stream cannot be resynchronised after that.
 */
class MessageReassembler
{
  public:
    /// \param maxPayloadLength longer payloads are refused (a bound on memory per connection)
    explicit MessageReassembler(uint64_t maxPayloadLength);

    /**
     * \brief Take the next bytes of the stream.
     * \param data the bytes
     * \param size how many
     * \throws FramingError for a bad header or a payload over the limit
     */
    void Feed(const uint8_t* data, size_t size);
    /// \return whether a complete message is waiting
    bool HasMessage() const;
    /**
     * \return the oldest complete message, removed
     * \throws FramingError when there is none (see HasMessage())
     */
    Message Pop();
    /// \return bytes of an incomplete message held so far
    size_t Pending() const;

  private:
    uint64_t m_maxPayloadLength;
    uint8_t m_headerBytes[MessageHeader::kSize];
    size_t m_headerFill = 0;
    bool m_haveHeader = false;
    Message m_current;
    size_t m_payloadFill = 0;
    std::deque<Message> m_complete;

    void ParseHeader();
};

} // namespace dlsim

#endif // DLSIM_MESSAGE_FRAMING_H
