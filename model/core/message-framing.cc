// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "message-framing.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace dlsim
{

namespace
{

template<typename T>
void
PutLe(uint8_t* out, T value)
{
    for (size_t i = 0; i < sizeof(T); ++i)
    {
        out[i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
    }
}

template<typename T>
T
GetLe(const uint8_t* in)
{
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
    {
        v |= static_cast<uint64_t>(in[i]) << (8 * i);
    }
    return static_cast<T>(v);
}

} // namespace

PayloadBytes::PayloadBytes(std::vector<uint8_t> bytes) : m_size(bytes.size())
{
    if (!bytes.empty())
    {
        m_buffer = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    }
}

PayloadBytes::PayloadBytes(std::shared_ptr<const std::vector<uint8_t>> buffer,
                           size_t offset,
                           size_t size)
    : m_buffer(std::move(buffer)), m_offset(offset), m_size(size)
{
    if (m_size > 0
        && (!m_buffer || m_offset > m_buffer->size() || m_size > m_buffer->size() - m_offset))
    {
        throw std::out_of_range("PayloadBytes: a view beyond its buffer");
    }
}

const uint8_t*
PayloadBytes::data() const
{
    return m_size == 0 ? nullptr : m_buffer->data() + m_offset;
}

size_t
PayloadBytes::size() const
{
    return m_size;
}

bool
PayloadBytes::empty() const
{
    return m_size == 0;
}

std::vector<uint8_t>
PayloadBytes::ToVector() const
{
    return std::vector<uint8_t>(data(), data() + m_size);
}

bool
operator==(const PayloadBytes& a, const PayloadBytes& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

std::vector<uint8_t>
FrameMessage(MessageHeader header, const std::vector<uint8_t>& payload)
{
    header.payloadLength = payload.size();
    // Only the header is zero-filled first: the payload is appended, not written over zeros.
    std::vector<uint8_t> out(MessageHeader::kSize);
    out.reserve(MessageHeader::kSize + payload.size());
    uint8_t* p = out.data();
    PutLe<uint32_t>(p, MessageHeader::kMagic);
    p[4] = MessageHeader::kVersion;
    p[5] = static_cast<uint8_t>(header.type);
    PutLe<uint16_t>(p + 6, 0);
    PutLe<uint32_t>(p + 8, header.sender);
    PutLe<uint32_t>(p + 12, header.round);
    PutLe<uint32_t>(p + 16, header.senderDegree);
    PutLe<uint64_t>(p + 20, header.payloadLength);
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

MessageReassembler::MessageReassembler(uint64_t maxPayloadLength)
    : m_maxPayloadLength(maxPayloadLength)
{}

MessageHeader
MessageReassembler::ParseHeader(const uint8_t* p) const
{
    if (GetLe<uint32_t>(p) != MessageHeader::kMagic)
    {
        throw FramingError("stream does not carry dlsim messages (bad magic number)");
    }
    if (p[4] != MessageHeader::kVersion)
    {
        throw FramingError("unsupported message version " + std::to_string(p[4]));
    }
    if ((p[5] != static_cast<uint8_t>(MessageType::ModelPayload)
         && p[5] != static_cast<uint8_t>(MessageType::Answer))
        || GetLe<uint16_t>(p + 6) != 0)
    {
        throw FramingError("unknown message type " + std::to_string(p[5]));
    }
    MessageHeader h;
    h.type = static_cast<MessageType>(p[5]);
    h.sender = GetLe<uint32_t>(p + 8);
    h.round = GetLe<uint32_t>(p + 12);
    h.senderDegree = GetLe<uint32_t>(p + 16);
    h.payloadLength = GetLe<uint64_t>(p + 20);
    if (h.payloadLength > m_maxPayloadLength)
    {
        throw FramingError("message announces " + std::to_string(h.payloadLength)
                           + " payload bytes, more than the limit of "
                           + std::to_string(m_maxPayloadLength));
    }
    return h;
}

void
MessageReassembler::Feed(const uint8_t* data, size_t size)
{
    while (size > 0 || (m_haveHeader && m_payloadFill == m_header.payloadLength))
    {
        if (!m_haveHeader)
        {
            size_t take = std::min(size, MessageHeader::kSize - m_headerFill);
            std::memcpy(m_headerBytes + m_headerFill, data, take);
            m_headerFill += take;
            data += take;
            size -= take;
            if (m_headerFill < MessageHeader::kSize)
            {
                return;
            }
            m_header = ParseHeader(m_headerBytes);
            // Reserved, not resized: the bytes are appended as they arrive, not over zeros.
            m_payload.clear();
            m_payload.reserve(m_header.payloadLength);
            m_payloadFill = 0;
            m_haveHeader = true;
        }
        size_t take
            = static_cast<size_t>(std::min<uint64_t>(size, m_header.payloadLength - m_payloadFill));
        m_payload.insert(m_payload.end(), data, data + take);
        m_payloadFill += take;
        data += take;
        size -= take;
        if (m_payloadFill == m_header.payloadLength)
        {
            m_complete.push_back(Message{m_header, PayloadBytes(std::move(m_payload))});
            m_payload = std::vector<uint8_t>();
            m_haveHeader = false;
            m_headerFill = 0;
            m_payloadFill = 0;
        }
    }
}

void
MessageReassembler::Feed(const std::shared_ptr<const std::vector<uint8_t>>& buffer)
{
    const uint8_t* data = buffer->data();
    const size_t size = buffer->size();
    size_t at = 0;
    // Between messages, each one whole in the buffer is a view of it.
    while (!m_haveHeader && m_headerFill == 0 && size - at >= MessageHeader::kSize)
    {
        const MessageHeader h = ParseHeader(data + at);
        if (h.payloadLength > size - at - MessageHeader::kSize)
        {
            break;
        }
        m_complete.push_back(
            Message{h, PayloadBytes(buffer, at + MessageHeader::kSize, h.payloadLength)});
        at += MessageHeader::kSize + h.payloadLength;
    }
    Feed(data + at, size - at);
}

bool
MessageReassembler::HasMessage() const
{
    return !m_complete.empty();
}

Message
MessageReassembler::Pop()
{
    if (m_complete.empty())
    {
        throw FramingError("no complete message to pop");
    }
    Message m = std::move(m_complete.front());
    m_complete.pop_front();
    return m;
}

size_t
MessageReassembler::Pending() const
{
    return m_headerFill + m_payloadFill;
}

} // namespace dlsim
