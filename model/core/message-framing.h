// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Length-prefixed messages on a byte stream (TCP): framing and reassembly.
 */
#ifndef DLSIM_MESSAGE_FRAMING_H
#define DLSIM_MESSAGE_FRAMING_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
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

/**
 * A message's payload bytes: owned, or a view into a buffer that other messages share. A flow
 * hands the same framed message to each of a sender's neighbours, and copying it for each (a
 * whole model, four or more times a round) costs more than simulating the flows.
 */
class PayloadBytes
{
  public:
    PayloadBytes() = default;
    /**
     * \brief Owns the bytes (not explicit: a payload built as a vector is one).
     * \param bytes the payload
     */
    PayloadBytes(std::vector<uint8_t> bytes);
    /**
     * \brief Views part of a shared buffer, keeping it alive.
     * \param buffer the bytes
     * \param offset where the payload starts in them
     * \param size its length (offset + size within the buffer)
     */
    PayloadBytes(std::shared_ptr<const std::vector<uint8_t>> buffer, size_t offset, size_t size);

    /// \return the first byte (nullptr when empty)
    const uint8_t* data() const;
    /// \return the number of bytes
    size_t size() const;
    /// \return whether there are none
    bool empty() const;
    /// \return a copy of the bytes
    std::vector<uint8_t> ToVector() const;

    /// Same bytes, wherever they are held.
    friend bool operator==(const PayloadBytes& a, const PayloadBytes& b);

  private:
    std::shared_ptr<const std::vector<uint8_t>> m_buffer;
    size_t m_offset = 0;
    size_t m_size = 0;
};

/// A complete message.
struct Message
{
    MessageHeader header; ///< who sent it, in which round
    PayloadBytes payload; ///< header.payloadLength bytes
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
    /**
     * \brief Take the next bytes of the stream, held in a shared buffer: the messages that lie
     * whole in it are views of it, not copies; the rest is fed as by Feed(data, size).
     * \param buffer the bytes (kept alive by the messages that view it)
     * \throws FramingError for a bad header or a payload over the limit
     */
    void Feed(const std::shared_ptr<const std::vector<uint8_t>>& buffer);
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
    MessageHeader m_header;         ///< of the message being reassembled
    std::vector<uint8_t> m_payload; ///< its payload so far
    size_t m_payloadFill = 0;
    std::deque<Message> m_complete;

    /// \return the header in `bytes` (MessageHeader::kSize of them), checked
    MessageHeader ParseHeader(const uint8_t* bytes) const;
};

} // namespace dlsim

#endif // DLSIM_MESSAGE_FRAMING_H
