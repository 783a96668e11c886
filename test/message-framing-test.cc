// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of message framing and reassembly over a byte stream.
 */
#include "message-framing.h"

#include <gtest/gtest.h>
#include <memory>
#include <random>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

std::vector<uint8_t>
RandomBytes(size_t n, std::mt19937& rng)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v)
    {
        b = static_cast<uint8_t>(rng());
    }
    return v;
}

MessageHeader
Header(uint32_t sender, uint32_t round)
{
    MessageHeader h;
    h.sender = sender;
    h.round = round;
    h.senderDegree = 4;
    return h;
}

TEST(MessageFraming, HeaderIsTwentyEightBytesLittleEndian)
{
    std::vector<uint8_t> framed = FrameMessage(Header(0x01020304, 7), {9, 9, 9});
    ASSERT_EQ(framed.size(), 28u + 3);
    EXPECT_EQ(framed[0], 'D');
    EXPECT_EQ(framed[3], 'M');
    EXPECT_EQ(framed[4], MessageHeader::kVersion);
    EXPECT_EQ(framed[8], 0x04); // sender, little-endian
    EXPECT_EQ(framed[11], 0x01);
    EXPECT_EQ(framed[12], 7); // round
    EXPECT_EQ(framed[16], 4); // degree
    EXPECT_EQ(framed[20], 3); // payload length
}

TEST(MessageFraming, ReassemblesMessagesSplitIntoRandomFragments)
{
    std::mt19937 rng(42);
    std::vector<std::vector<uint8_t>> payloads;
    std::vector<uint8_t> stream;
    for (uint32_t m = 0; m < 20; ++m)
    {
        payloads.push_back(RandomBytes(rng() % 5000, rng)); // includes empty payloads sometimes
        if (m == 3)
        {
            payloads.back().clear();
        }
        auto framed = FrameMessage(Header(m, m + 1), payloads.back());
        stream.insert(stream.end(), framed.begin(), framed.end());
    }
    for (int trial = 0; trial < 20; ++trial)
    {
        MessageReassembler reassembler(1 << 20);
        std::vector<Message> got;
        size_t pos = 0;
        while (pos < stream.size())
        {
            // Fragments from 1 byte (splitting headers) to a few messages at once.
            size_t n = std::min(stream.size() - pos, size_t(1 + rng() % (trial % 2 ? 20 : 12000)));
            reassembler.Feed(stream.data() + pos, n);
            pos += n;
            while (reassembler.HasMessage())
            {
                got.push_back(reassembler.Pop());
            }
        }
        ASSERT_EQ(got.size(), payloads.size());
        for (uint32_t m = 0; m < got.size(); ++m)
        {
            EXPECT_EQ(got[m].header.sender, m);
            EXPECT_EQ(got[m].header.round, m + 1);
            EXPECT_EQ(got[m].header.senderDegree, 4u);
            EXPECT_EQ(got[m].payload, payloads[m]);
        }
        EXPECT_EQ(reassembler.Pending(), 0u);
    }
}

TEST(MessageFraming, WholeMessagesInASharedBufferAreViewsOfIt)
{
    // Two whole messages, then the first 30 bytes of a third (its header and 2 payload bytes).
    std::vector<uint8_t> stream;
    std::vector<std::vector<uint8_t>> payloads = {{1, 2, 3}, {}, {7, 8, 9, 10}};
    for (uint32_t m = 0; m < 3; ++m)
    {
        auto framed = FrameMessage(Header(m, 1), payloads[m]);
        stream.insert(stream.end(), framed.begin(), framed.end());
    }
    const size_t cut = 2 * MessageHeader::kSize + 3 + MessageHeader::kSize + 2;
    auto first = std::make_shared<const std::vector<uint8_t>>(stream.begin(), stream.begin() + cut);
    auto rest = std::make_shared<const std::vector<uint8_t>>(stream.begin() + cut, stream.end());
    MessageReassembler reassembler(100);
    reassembler.Feed(first);
    std::vector<Message> got;
    while (reassembler.HasMessage())
    {
        got.push_back(reassembler.Pop());
    }
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(reassembler.Pending(), MessageHeader::kSize + 2);
    // The first payload lies in the buffer itself, right after its header: no copy was made.
    EXPECT_EQ(got[0].payload.data(), first->data() + MessageHeader::kSize);
    reassembler.Feed(rest);
    ASSERT_TRUE(reassembler.HasMessage());
    got.push_back(reassembler.Pop());
    for (uint32_t m = 0; m < 3; ++m)
    {
        EXPECT_EQ(got[m].header.sender, m);
        EXPECT_EQ(got[m].payload.ToVector(), payloads[m]);
    }
    // A view outlives the buffer's other owners.
    first.reset();
    EXPECT_EQ(got[0].payload.ToVector(), payloads[0]);
    // A foreign stream is refused on the view path too.
    auto foreign = std::make_shared<const std::vector<uint8_t>>(MessageHeader::kSize + 4, 0xAB);
    MessageReassembler other(100);
    EXPECT_THROW(other.Feed(foreign), FramingError);
}

TEST(MessageFraming, SeveralMessagesInOneFragment)
{
    std::vector<uint8_t> stream;
    for (uint32_t m = 0; m < 3; ++m)
    {
        auto framed = FrameMessage(Header(m, 1), {uint8_t(m), uint8_t(m)});
        stream.insert(stream.end(), framed.begin(), framed.end());
    }
    MessageReassembler reassembler(100);
    reassembler.Feed(stream.data(), stream.size());
    for (uint32_t m = 0; m < 3; ++m)
    {
        ASSERT_TRUE(reassembler.HasMessage());
        Message msg = reassembler.Pop();
        EXPECT_EQ(msg.header.sender, m);
        EXPECT_EQ(msg.payload, (std::vector<uint8_t>{uint8_t(m), uint8_t(m)}));
    }
    EXPECT_FALSE(reassembler.HasMessage());
    EXPECT_THROW(reassembler.Pop(), FramingError);
}

TEST(MessageFraming, RejectsForeignOrOversizedStreams)
{
    std::vector<uint8_t> framed = FrameMessage(Header(1, 1), std::vector<uint8_t>(50));
    {
        auto bad = framed;
        bad[0] ^= 0xFF;
        MessageReassembler r(100);
        EXPECT_THROW(r.Feed(bad.data(), bad.size()), FramingError);
    }
    {
        auto bad = framed;
        bad[4] = 99; // version
        MessageReassembler r(100);
        EXPECT_THROW(r.Feed(bad.data(), bad.size()), FramingError);
    }
    {
        auto bad = framed;
        bad[5] = 77; // type
        MessageReassembler r(100);
        EXPECT_THROW(r.Feed(bad.data(), bad.size()), FramingError);
    }
    MessageReassembler small(49);
    EXPECT_THROW(small.Feed(framed.data(), framed.size()), FramingError);
}

} // namespace
} // namespace ns3
