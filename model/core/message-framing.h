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

namespace ns3
{

/// A stream that does not carry well-formed dlsim messages.
class FramingError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// Kinds of message. Only model payloads exist so far; the field leaves room for control traffic.
enum class MessageType : uint8_t
{
    ModelPayload = 1,
};

/**
 * The fixed-size header in front of every payload, little-endian on the wire:
 * magic u32 "DLSM", version u8, type u8, reserved u16 (zero), sender u32, round u32,
 * sender degree u32, payload length u64. 28 bytes, counted as metadata.
 */
struct MessageHeader
{
    static constexpr uint32_t kMagic = 0x4D534C44; // the bytes 'D' 'L' 'S' 'M'
    static constexpr uint8_t kVersion = 1;
    static constexpr size_t kSize = 28;

    MessageType type = MessageType::ModelPayload;
    uint32_t sender = 0;
    uint32_t round = 0;
    uint32_t senderDegree = 0;
    uint64_t payloadLength = 0;
};

/// A complete message.
struct Message
{
    MessageHeader header;
    std::vector<uint8_t> payload;
};

/// Header bytes followed by the payload bytes.
std::vector<uint8_t> FrameMessage(MessageHeader header, const std::vector<uint8_t>& payload);

/**
 * Rebuilds messages from a byte stream cut at arbitrary places: feed it whatever arrived, then
 * pop the complete messages. A bad magic number, version or type, or a payload longer than the
 * limit, throws FramingError: the stream cannot be resynchronised after that.
 */
class MessageReassembler
{
  public:
    explicit MessageReassembler(uint64_t maxPayloadLength);

    void Feed(const uint8_t* data, size_t size);
    bool HasMessage() const;
    Message Pop();
    /// Bytes of an incomplete message held so far.
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

} // namespace ns3

#endif // DLSIM_MESSAGE_FRAMING_H
