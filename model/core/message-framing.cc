// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "message-framing.h"

#include <algorithm>
#include <cstring>
#include <string>

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

void
MessageReassembler::ParseHeader()
{
    const uint8_t* p = m_headerBytes;
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
    MessageHeader& h = m_current.header;
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
    // Reserved, not resized: the bytes are appended as they arrive, with no zero-filling first.
    m_current.payload.reserve(h.payloadLength);
    m_payloadFill = 0;
    m_haveHeader = true;
}

void
MessageReassembler::Feed(const uint8_t* data, size_t size)
{
    while (size > 0 || (m_haveHeader && m_payloadFill == m_current.header.payloadLength))
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
            ParseHeader();
        }
        size_t take = static_cast<size_t>(
            std::min<uint64_t>(size, m_current.header.payloadLength - m_payloadFill));
        m_current.payload.insert(m_current.payload.end(), data, data + take);
        m_payloadFill += take;
        data += take;
        size -= take;
        if (m_payloadFill == m_current.header.payloadLength)
        {
            m_complete.push_back(std::move(m_current));
            m_current = Message();
            m_haveHeader = false;
            m_headerFill = 0;
            m_payloadFill = 0;
        }
    }
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
