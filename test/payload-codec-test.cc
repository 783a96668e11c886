// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * GoogleTest suite for the bit stream and the payload codec: round trips over seeded random
 * index sets and float bit patterns, hand-computed sizes, and rejection of every kind of
 * malformed input (including every truncation prefix and random corruption). Meant to be run
 * under AddressSanitizer too: decoding always reads from an exactly sized heap copy, so any read
 * past the end is reported.
 */

#include "bit-stream.h"
#include "payload-codec.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

constexpr uint32_t kMaxU32 = std::numeric_limits<uint32_t>::max();

// ---------------------------------------------------------------------------------------------
// Helpers

uint32_t
Bits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, sizeof(b));
    return b;
}

float
FromBits(uint32_t b)
{
    float f;
    std::memcpy(&f, &b, sizeof(f));
    return f;
}

/// Random float32 bit patterns: uniform bits (so NaNs, infinities, denormals all occur) mixed
/// with a few special patterns that must survive bit for bit.
std::vector<float>
RandomFloats(std::mt19937& rng, size_t n)
{
    static const uint32_t kSpecial[] = {
        0x7FC00000u, // quiet NaN
        0x7F800001u, // signalling NaN
        0xFFFFFFFFu, // negative NaN with full payload
        0x80000000u, // -0
        0x00000001u, // smallest denormal
        0x7F800000u, // +inf
    };
    std::vector<float> values(n);
    for (size_t i = 0; i < n; ++i)
    {
        const uint32_t r = static_cast<uint32_t>(rng());
        values[i] = FromBits((r % 16 == 0) ? kSpecial[(r >> 4) % 6] : static_cast<uint32_t>(rng()));
    }
    return values;
}

/// Compare float vectors bit for bit (NaN != NaN numerically, but the codec must keep the bits).
::testing::AssertionResult
SameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size())
    {
        return ::testing::AssertionFailure() << "sizes differ: " << a.size() << " vs " << b.size();
    }
    for (size_t i = 0; i < a.size(); ++i)
    {
        if (Bits(a[i]) != Bits(b[i]))
        {
            return ::testing::AssertionFailure() << "value " << i << " differs: 0x" << std::hex
                                                 << Bits(a[i]) << " vs 0x" << Bits(b[i]);
        }
    }
    return ::testing::AssertionSuccess();
}

/// Decode from an exactly sized heap copy so that AddressSanitizer flags any over-read (a
/// std::vector may have spare capacity that hides one).
Payload
DecodeExact(const std::vector<uint8_t>& bytes, size_t size)
{
    std::unique_ptr<uint8_t[]> copy(new uint8_t[size == 0 ? 1 : size]);
    if (size > 0)
    {
        std::memcpy(copy.get(), bytes.data(), size);
    }
    // An empty input is passed as a null pointer to check that case too.
    return DecodePayload(size == 0 ? nullptr : copy.get(), size);
}

Payload
DecodeExact(const std::vector<uint8_t>& bytes)
{
    return DecodeExact(bytes, bytes.size());
}

/// Expect decoding to throw a PayloadError whose message contains @p what.
void
ExpectDecodeError(const std::vector<uint8_t>& bytes, const std::string& what)
{
    try
    {
        DecodeExact(bytes);
        ADD_FAILURE() << "decoding did not throw; expected an error containing '" << what << "'";
    }
    catch (const PayloadError& e)
    {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos)
            << "message '" << e.what() << "' does not contain '" << what << "'";
    }
}

/// Expect encoding to throw a PayloadError whose message contains @p what.
void
ExpectEncodeError(const Payload& payload, const std::string& what)
{
    try
    {
        EncodePayload(payload);
        ADD_FAILURE() << "encoding did not throw; expected an error containing '" << what << "'";
    }
    catch (const PayloadError& e)
    {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos)
            << "message '" << e.what() << "' does not contain '" << what << "'";
    }
}

/// Encode, decode, and check every field, the byte accounting and that encoding is canonical.
EncodedPayload
CheckRoundTrip(const Payload& p)
{
    const EncodedPayload enc = EncodePayload(p);
    EXPECT_EQ(enc.valueBytes, 4 * p.values.size());
    EXPECT_EQ(enc.MetadataBytes(), enc.bytes.size() - enc.valueBytes);
    const Payload dec = DecodeExact(enc.bytes);
    EXPECT_EQ(dec.form, p.form);
    EXPECT_EQ(dec.length, p.length);
    EXPECT_EQ(dec.indices, p.indices);
    EXPECT_TRUE(SameBits(dec.values, p.values));
    if (p.form == PayloadForm::RandomMask)
    {
        EXPECT_EQ(dec.seed, p.seed);
        EXPECT_EQ(Bits(dec.alpha), Bits(p.alpha));
    }
    EXPECT_EQ(EncodePayload(dec).bytes, enc.bytes);
    return enc;
}

Payload
MakeSparse(uint32_t length, std::vector<uint32_t> indices, std::mt19937& rng)
{
    Payload p;
    p.form = PayloadForm::Sparse;
    p.length = length;
    p.values = RandomFloats(rng, indices.size());
    p.indices = std::move(indices);
    return p;
}

Payload
MakeFull(uint32_t length, std::mt19937& rng)
{
    Payload p;
    p.form = PayloadForm::Full;
    p.length = length;
    p.values = RandomFloats(rng, length);
    return p;
}

Payload
MakeMask(uint32_t length, uint32_t count, uint64_t seed, float alpha, std::mt19937& rng)
{
    Payload p;
    p.form = PayloadForm::RandomMask;
    p.length = length;
    p.seed = seed;
    p.alpha = alpha;
    p.values = RandomFloats(rng, count);
    return p;
}

/// Each position of [0, length) independently with probability @p density, sorted.
std::vector<uint32_t>
BernoulliIndices(std::mt19937& rng, uint32_t length, double density)
{
    std::vector<uint32_t> out;
    std::bernoulli_distribution keep(density);
    for (uint32_t i = 0; i < length; ++i)
    {
        if (keep(rng))
        {
            out.push_back(i);
        }
    }
    return out;
}

/// @p k distinct positions of [0, length), sorted.
std::vector<uint32_t>
SampleIndices(std::mt19937& rng, uint32_t length, size_t k)
{
    std::vector<uint32_t> out;
    out.reserve(k);
    if (uint64_t{k} * 4 >= length)
    {
        // Dense: selection sampling (Knuth's algorithm S) keeps position i with probability
        // (still needed) / (still available), giving exactly k sorted positions in one pass.
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (uint32_t i = 0; i < length && out.size() < k; ++i)
        {
            if (u(rng) * (length - i) < static_cast<double>(k - out.size()))
            {
                out.push_back(i);
            }
        }
        return out;
    }
    // Sparse: draw, sort, deduplicate, top up; few rounds since collisions are rare.
    std::uniform_int_distribution<uint32_t> pick(0, length - 1);
    while (out.size() < k)
    {
        for (size_t i = out.size(); i < k; ++i)
        {
            out.push_back(pick(rng));
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }
    return out;
}

/// Sum of the Elias-gamma code lengths of the gaps, rounded up to bytes.
size_t
GapSectionBytes(const std::vector<uint32_t>& indices)
{
    uint64_t bits = 0;
    for (size_t j = 1; j < indices.size(); ++j)
    {
        bits += EliasGammaBits(indices[j] - indices[j - 1]);
    }
    return static_cast<size_t>((bits + 7) / 8);
}

/// Builds raw wire bytes for hand-made (possibly malformed) inputs.
struct Bytes
{
    std::vector<uint8_t> v;

    Bytes& U8(uint8_t x)
    {
        v.push_back(x);
        return *this;
    }

    Bytes& U32(uint32_t x)
    {
        for (int s = 0; s < 32; s += 8)
        {
            v.push_back(static_cast<uint8_t>(x >> s));
        }
        return *this;
    }

    Bytes& U64(uint64_t x)
    {
        for (int s = 0; s < 64; s += 8)
        {
            v.push_back(static_cast<uint8_t>(x >> s));
        }
        return *this;
    }

    Bytes& F32(float f)
    {
        return U32(Bits(f));
    }

    Bytes& Raw(std::initializer_list<uint8_t> bytes)
    {
        v.insert(v.end(), bytes);
        return *this;
    }

    Bytes& Zeros(size_t n)
    {
        v.insert(v.end(), n, 0);
        return *this;
    }
};

/// Header of a Sparse payload with k > 0.
Bytes
SparseHeader(uint32_t length, uint32_t k, uint32_t first, uint32_t gapBytes)
{
    Bytes b;
    b.U8(2).U32(length).U32(k).U32(first).U32(gapBytes);
    return b;
}

/// A collection of valid payloads of every form, used by the truncation and corruption tests.
std::vector<Payload>
SampleValidPayloads(std::mt19937& rng)
{
    std::vector<Payload> out;
    out.push_back(MakeFull(0, rng));
    out.push_back(MakeFull(1, rng));
    out.push_back(MakeFull(7, rng));
    out.push_back(MakeSparse(10, {}, rng));
    out.push_back(MakeSparse(10, {9}, rng));
    out.push_back(MakeSparse(10, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, rng));
    out.push_back(MakeSparse(1000, {3, 5, 9, 17, 100, 511, 999}, rng));
    out.push_back(MakeSparse(kMaxU32, {0, 1u << 31, kMaxU32 - 1}, rng));
    out.push_back(MakeSparse(300, BernoulliIndices(rng, 300, 0.3), rng));
    out.push_back(MakeMask(0, 0, 0, 0.0f, rng));
    out.push_back(MakeMask(50, 12, 0x0123456789ABCDEFull, 0.25f, rng));
    out.push_back(MakeMask(50, 50, ~0ull, 1.0f, rng));
    return out;
}

// ---------------------------------------------------------------------------------------------
// BitStream

TEST(BitStream, EliasGammaCodeLengths)
{
    EXPECT_EQ(EliasGammaBits(1), 1u);
    EXPECT_EQ(EliasGammaBits(2), 3u);
    EXPECT_EQ(EliasGammaBits(3), 3u);
    for (uint32_t g = 4; g <= 7; ++g)
    {
        EXPECT_EQ(EliasGammaBits(g), 5u) << g;
    }
    EXPECT_EQ(EliasGammaBits(8), 7u);
    EXPECT_EQ(EliasGammaBits(1u << 31), 63u);
    EXPECT_EQ(EliasGammaBits(kMaxU32), 63u);
}

TEST(BitStream, KnownCodesAreMsbFirstAndZeroPadded)
{
    std::vector<uint8_t> out;
    BitWriter w(out);
    // 1 -> "1", 2 -> "010", 3 -> "011", 4 -> "00100": 1010 0110 0100 (12 bits) + 4 padding zeros.
    w.WriteEliasGamma(1);
    w.WriteEliasGamma(2);
    w.WriteEliasGamma(3);
    w.WriteEliasGamma(4);
    EXPECT_EQ(w.BitCount(), 12u);
    w.Flush();
    EXPECT_EQ(w.BitCount(), 16u);
    EXPECT_EQ(out, (std::vector<uint8_t>{0xA6, 0x40}));

    BitReader r(out.data(), out.size());
    uint32_t v = 0;
    for (uint32_t expected = 1; expected <= 4; ++expected)
    {
        ASSERT_EQ(r.ReadEliasGamma(v), BitReader::GammaStatus::Ok);
        EXPECT_EQ(v, expected);
    }
    EXPECT_EQ(r.BitsConsumed(), 12u);
    EXPECT_EQ(r.BitsRemaining(), 4u);
}

TEST(BitStream, WriterAppendsToExistingBytes)
{
    std::vector<uint8_t> out{0x11, 0x22};
    BitWriter w(out);
    w.WriteBits(0xABC, 12);
    w.Flush();
    EXPECT_EQ(out, (std::vector<uint8_t>{0x11, 0x22, 0xAB, 0xC0}));
}

TEST(BitStream, RandomRoundTrip)
{
    std::mt19937 rng(12345);
    struct Item
    {
        bool gamma;
        uint32_t value;
        unsigned bits;
    };
    std::vector<Item> items;
    for (int i = 0; i < 20000; ++i)
    {
        const unsigned width = rng() % 33; // 0..32 significant bits
        uint32_t value = width == 0 ? 0 : static_cast<uint32_t>(rng()) >> (32 - width);
        if (rng() % 2 == 0)
        {
            items.push_back({true, value == 0 ? 1 : value, 0});
        }
        else
        {
            items.push_back({false, value, width});
        }
    }
    std::vector<uint8_t> out;
    BitWriter w(out);
    uint64_t expectedBits = 0;
    for (const Item& it : items)
    {
        if (it.gamma)
        {
            w.WriteEliasGamma(it.value);
            expectedBits += EliasGammaBits(it.value);
        }
        else
        {
            w.WriteBits(it.value, it.bits);
            expectedBits += it.bits;
        }
    }
    ASSERT_EQ(w.BitCount(), expectedBits);
    w.Flush();
    ASSERT_EQ(out.size(), (expectedBits + 7) / 8);

    std::unique_ptr<uint8_t[]> exact(new uint8_t[out.size()]);
    std::memcpy(exact.get(), out.data(), out.size());
    BitReader r(exact.get(), out.size());
    for (const Item& it : items)
    {
        uint32_t v = 0;
        if (it.gamma)
        {
            ASSERT_EQ(r.ReadEliasGamma(v), BitReader::GammaStatus::Ok);
        }
        else
        {
            ASSERT_TRUE(r.ReadBits(it.bits, v));
        }
        ASSERT_EQ(v, it.value);
    }
    EXPECT_EQ(r.BitsConsumed(), expectedBits);
    EXPECT_LT(r.BitsRemaining(), 8u);
}

TEST(BitStream, RunsOfCodesReadAsOneAtATime)
{
    // ReadEliasGammaRun reads short codes three at a time from a table and longer ones singly,
    // and stops near the end of the range: gaps from 1 to 2^32 - 1 (most small, as a sparse
    // payload's), read in runs of every length, must come back as one at a time, with the
    // bits consumed the same after each run.
    std::mt19937 rng(777);
    std::vector<uint32_t> values;
    for (int i = 0; i < 30000; ++i)
    {
        const unsigned width = rng() % 4 == 0 ? 1 + rng() % 32 : 1 + rng() % 4;
        const uint32_t v = static_cast<uint32_t>(rng()) >> (32 - width);
        values.push_back(v == 0 ? 1 : v);
    }
    std::vector<uint8_t> out;
    BitWriter w(out);
    for (uint32_t v : values)
    {
        w.WriteEliasGamma(v);
    }
    w.Flush();
    std::unique_ptr<uint8_t[]> exact(new uint8_t[out.size()]);
    std::memcpy(exact.get(), out.data(), out.size());

    BitReader one(exact.get(), out.size());
    BitReader runs(exact.get(), out.size());
    std::vector<uint32_t> read(values.size());
    size_t n = 0;
    while (n < values.size())
    {
        const auto want
            = static_cast<uint32_t>(std::min<size_t>(1 + rng() % 40, values.size() - n));
        uint32_t got = runs.ReadEliasGammaRun(read.data() + n, want);
        ASSERT_LE(got, want);
        if (got == 0)
        {
            ASSERT_EQ(runs.ReadEliasGamma(read[n]), BitReader::GammaStatus::Ok) << n;
            got = 1;
        }
        for (uint32_t i = 0; i < got; ++i, ++n)
        {
            uint32_t v = 0;
            ASSERT_EQ(one.ReadEliasGamma(v), BitReader::GammaStatus::Ok);
            ASSERT_EQ(v, values[n]) << n;
            ASSERT_EQ(read[n], values[n]) << n;
        }
        ASSERT_EQ(runs.BitsConsumed(), one.BitsConsumed()) << n;
    }
    EXPECT_LT(runs.BitsRemaining(), 8u);
    // Nothing left: a run reads no code, and the careful read says why.
    uint32_t v = 0;
    EXPECT_EQ(runs.ReadEliasGammaRun(&v, 1), 0u);
    EXPECT_EQ(runs.ReadEliasGamma(v), BitReader::GammaStatus::Exhausted);
}

TEST(BitStream, ReaderStopsAtEndOfRange)
{
    const uint8_t data[2] = {0xFF, 0x00};
    // Only the first byte is in range; the second must never be looked at.
    BitReader r(data, 1);
    uint32_t v = 0;
    EXPECT_FALSE(r.ReadBits(9, v));
    EXPECT_EQ(r.BitsConsumed(), 0u); // a failed read consumes nothing
    EXPECT_TRUE(r.ReadBits(8, v));
    EXPECT_EQ(v, 0xFFu);
    EXPECT_TRUE(r.ReadBits(0, v));
    EXPECT_EQ(v, 0u);
    EXPECT_FALSE(r.ReadBits(1, v));
    EXPECT_EQ(r.ReadEliasGamma(v), BitReader::GammaStatus::Exhausted);

    BitReader empty(nullptr, 0);
    EXPECT_EQ(empty.ReadEliasGamma(v), BitReader::GammaStatus::Exhausted);
    EXPECT_EQ(empty.BitsRemaining(), 0u);
}

TEST(BitStream, GammaCodeCutShort)
{
    // 0001 1010: three zeros, then the four bits "1101" = 13; one bit left over.
    const uint8_t data[1] = {0x1A};
    BitReader ok(data, 1);
    uint32_t v = 0;
    ASSERT_EQ(ok.ReadEliasGamma(v), BitReader::GammaStatus::Ok);
    EXPECT_EQ(v, 0xDu); // 1101
    // 0000 0001: 7 zeros, then the one; the 7 value bits are missing.
    const uint8_t cut[1] = {0x01};
    BitReader r(cut, 1);
    EXPECT_EQ(r.ReadEliasGamma(v), BitReader::GammaStatus::Exhausted);
    // All zero bits: the terminating one never comes.
    const uint8_t zeros[3] = {0, 0, 0};
    BitReader z(zeros, 3);
    EXPECT_EQ(z.ReadEliasGamma(v), BitReader::GammaStatus::Exhausted);
}

TEST(BitStream, GammaLeadingZeroLimit)
{
    uint32_t v = 0;
    // 31 zeros, then 1 and 31 ones: the largest 32-bit value, 63 bits in all.
    {
        std::vector<uint8_t> out;
        BitWriter w(out);
        w.WriteEliasGamma(kMaxU32);
        w.Flush();
        ASSERT_EQ(out.size(), 8u);
        BitReader r(out.data(), out.size());
        ASSERT_EQ(r.ReadEliasGamma(v), BitReader::GammaStatus::Ok);
        EXPECT_EQ(v, kMaxU32);
        EXPECT_EQ(r.BitsConsumed(), 63u);
    }
    // 32 zeros then a one: would code a 33-bit value.
    {
        const uint8_t data[9] = {0, 0, 0, 0, 0x80, 0, 0, 0, 0};
        BitReader r(data, sizeof(data));
        EXPECT_EQ(r.ReadEliasGamma(v), BitReader::GammaStatus::TooManyZeros);
    }
    // A long run of zeros is rejected as soon as the limit is passed, not at the end of the range.
    {
        std::vector<uint8_t> data(1 << 16, 0);
        BitReader r(data.data(), data.size());
        EXPECT_EQ(r.ReadEliasGamma(v), BitReader::GammaStatus::TooManyZeros);
        EXPECT_LT(r.BitsConsumed(), 128u);
    }
}

// ---------------------------------------------------------------------------------------------
// PayloadCodec: round trips

TEST(PayloadCodecRoundTrip, FullPayloads)
{
    std::mt19937 rng(1);
    for (uint32_t length : {0u, 1u, 2u, 3u, 100u, 4096u, 100001u})
    {
        const EncodedPayload enc = CheckRoundTrip(MakeFull(length, rng));
        EXPECT_EQ(enc.bytes.size(), 5u + 4u * length);
        EXPECT_EQ(enc.MetadataBytes(), 5u);
    }
}

TEST(PayloadCodecRoundTrip, SparseEdgeCases)
{
    std::mt19937 rng(2);
    const uint32_t L = 1000;
    std::vector<uint32_t> all(L);
    for (uint32_t i = 0; i < L; ++i)
    {
        all[i] = i;
    }
    const std::vector<std::vector<uint32_t>> sets = {
        {},         // empty
        {0},        // index 0 only
        {L - 1},    // last index only
        {0, L - 1}, // both ends
        {417},      // one index
        all,        // every index (all gaps 1)
        {1, 2, 4, 8, 16, 32, 64, 128, 256, 512},
    };
    for (const auto& s : sets)
    {
        CheckRoundTrip(MakeSparse(L, s, rng));
    }
    // Length 1: the only possible indices.
    CheckRoundTrip(MakeSparse(1, {}, rng));
    CheckRoundTrip(MakeSparse(1, {0}, rng));
    // Length 0 can only carry an empty set.
    CheckRoundTrip(MakeSparse(0, {}, rng));
}

TEST(PayloadCodecRoundTrip, SparseHugeGaps)
{
    std::mt19937 rng(3);
    const uint32_t L = kMaxU32;
    const std::vector<std::vector<uint32_t>> sets = {
        {L - 1},
        {0, L - 1},                 // gap 2^32 - 2: a 63-bit code
        {0, 1, L - 2, L - 1},       // tiny, huge, tiny
        {0, 1u << 31, L - 1},       // gaps 2^31 and 2^31 - 2
        {(1u << 31) - 1, 1u << 31}, // gap 1 high up
        {5, (1u << 31) + 4, L - 1}, // gap 2^31 - 1 (61 bits) then a 61-bit gap
    };
    for (const auto& s : sets)
    {
        CheckRoundTrip(MakeSparse(L, s, rng));
    }
    // Random sets spread over the whole 32-bit range.
    for (int trial = 0; trial < 50; ++trial)
    {
        CheckRoundTrip(MakeSparse(L, SampleIndices(rng, L, 1 + rng() % 200), rng));
    }
}

TEST(PayloadCodecRoundTrip, SparseRandomProperty)
{
    std::mt19937 rng(20240611);
    const double densities[] = {0.0, 0.0005, 0.01, 0.1, 0.5, 0.9, 0.999, 1.0};
    for (int trial = 0; trial < 400; ++trial)
    {
        SCOPED_TRACE(trial);
        const uint32_t length = 1 + rng() % ((trial % 4 == 0) ? 100000 : 3000);
        const double density = densities[rng() % (sizeof(densities) / sizeof(densities[0]))];
        const Payload p = MakeSparse(length, BernoulliIndices(rng, length, density), rng);
        const EncodedPayload enc = CheckRoundTrip(p);
        const size_t k = p.indices.size();
        const size_t expected = k == 0 ? 9 : 17 + GapSectionBytes(p.indices) + 4 * k;
        ASSERT_EQ(enc.bytes.size(), expected);
        ASSERT_EQ(enc.valueBytes, 4 * k);
        if (HasFailure())
        {
            return;
        }
    }
}

TEST(PayloadCodecRoundTrip, RandomMaskPayloads)
{
    std::mt19937 rng(4);
    const float alphas[] = {0.0f, -0.0f, 1e-30f, 0.1f, 0.5f, 0.999f, 1.0f};
    for (int trial = 0; trial < 100; ++trial)
    {
        const uint32_t length = rng() % 5000;
        const uint32_t count = length == 0 ? 0 : rng() % (length + 1);
        const uint64_t seed = (uint64_t{rng()} << 32) | rng();
        const float alpha = alphas[rng() % 7];
        const EncodedPayload enc = CheckRoundTrip(MakeMask(length, count, seed, alpha, rng));
        ASSERT_EQ(enc.bytes.size(), 21u + 4u * count);
        ASSERT_EQ(enc.MetadataBytes(), 21u);
    }
    CheckRoundTrip(MakeMask(kMaxU32, 3, ~0ull, 1.0f, rng));
}

// ---------------------------------------------------------------------------------------------
// PayloadCodec: exact sizes and bytes

TEST(PayloadCodecRoundTrip, ValuesReadInPlaceAreTheSentBitsWhereTheyLie)
{
    // DecodePayloadInPlace reads the values where the bytes hold them (the weighted sums read
    // every received model so): the same bits as the copy, NaN payloads and -0 included, from
    // the input itself, and the rest of the payload as DecodePayload gives it.
    std::mt19937 rng(11);
    std::vector<Payload> payloads = SampleValidPayloads(rng);
    payloads.push_back(MakeFull(4096, rng));
    size_t checked = 0;
    for (const Payload& p : payloads)
    {
        const std::vector<uint8_t> bytes = EncodePayload(p).bytes;
        const PayloadInPlace in = DecodePayloadInPlace(bytes.data(), bytes.size());
        EXPECT_TRUE(in.payload.values.empty());
        EXPECT_TRUE(SameBits(in.values.ToVector(), p.values));
        ASSERT_EQ(in.values.size(), p.values.size());
        for (size_t n = 0; n < p.values.size(); ++n)
        {
            ASSERT_EQ(Bits(in.values[n]), Bits(p.values[n])) << "value " << n;
        }
        if (!p.values.empty())
        {
            // Every form ends with its values: the last one is the input's last four bytes.
            const uint8_t* b = bytes.data() + bytes.size() - 4;
            const uint32_t wire = uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16)
                                  | (uint32_t{b[3]} << 24);
            EXPECT_EQ(Bits(in.values[p.values.size() - 1]), wire);
        }
        const Payload copied = DecodePayload(bytes.data(), bytes.size());
        EXPECT_EQ(in.payload.form, copied.form);
        EXPECT_EQ(in.payload.length, copied.length);
        EXPECT_EQ(in.payload.indices, copied.indices);
        EXPECT_EQ(in.payload.seed, copied.seed);
        EXPECT_EQ(in.payload.scalars, copied.scalars);
        checked += p.values.size();
    }
    EXPECT_GT(checked, 4096u);
}

TEST(PayloadCodecSize, FullIsFivePlusFourL)
{
    Payload p;
    p.form = PayloadForm::Full;
    p.length = 2;
    p.values = {1.0f, -2.0f};
    const EncodedPayload enc = EncodePayload(p);
    // form, length 2, 1.0f = 0x3F800000, -2.0f = 0xC0000000, all little-endian.
    const std::vector<uint8_t> expected
        = {0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0};
    EXPECT_EQ(enc.bytes, expected);
    EXPECT_EQ(enc.valueBytes, 8u);
    EXPECT_EQ(enc.MetadataBytes(), 5u);
}

TEST(PayloadCodecSize, SparseExactBytes)
{
    Payload p;
    p.form = PayloadForm::Sparse;
    p.length = 100;
    p.indices = {5, 6, 8, 12}; // gaps 1, 2, 4 -> "1" "010" "00100" = 9 bits -> 2 bytes
    p.values = {1.0f, 1.0f, 1.0f, 1.0f};
    const EncodedPayload enc = EncodePayload(p);
    Bytes b;
    b.U8(2).U32(100).U32(4).U32(5).U32(2).Raw({0xA2, 0x00});
    for (int i = 0; i < 4; ++i)
    {
        b.F32(1.0f);
    }
    EXPECT_EQ(enc.bytes, b.v);
    EXPECT_EQ(enc.bytes.size(), 17u + 2u + 16u);
    EXPECT_EQ(enc.valueBytes, 16u);
    EXPECT_EQ(enc.MetadataBytes(), 19u);
}

TEST(PayloadCodecSize, SparseGapCodeLengths)
{
    std::mt19937 rng(5);
    // Empty: form, length, count.
    EXPECT_EQ(EncodePayload(MakeSparse(10, {}, rng)).bytes.size(), 9u);
    // One index: no gaps, an empty (0-byte) gap section.
    EXPECT_EQ(EncodePayload(MakeSparse(10, {3}, rng)).bytes.size(), 17u + 0u + 4u);
    // 8 gaps of 1 bit each: exactly one byte.
    EXPECT_EQ(EncodePayload(MakeSparse(10, {0, 1, 2, 3, 4, 5, 6, 7, 8}, rng)).bytes.size(),
              17u + 1u + 36u);
    // 9 gaps of 1 bit: 9 bits -> 2 bytes.
    EXPECT_EQ(EncodePayload(MakeSparse(10, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, rng)).bytes.size(),
              17u + 2u + 40u);
    // Gaps 2 and 3: 3 bits each -> 6 bits -> 1 byte.
    EXPECT_EQ(EncodePayload(MakeSparse(10, {0, 2, 5}, rng)).bytes.size(), 17u + 1u + 12u);
    // Gaps 4..7, one of each: 4 x 5 = 20 bits -> 3 bytes.
    EXPECT_EQ(EncodePayload(MakeSparse(100, {0, 4, 9, 15, 22}, rng)).bytes.size(), 17u + 3u + 20u);
    // Eight gaps of 7: 40 bits -> 5 bytes.
    std::vector<uint32_t> sevens;
    for (uint32_t i = 0; i <= 8; ++i)
    {
        sevens.push_back(7 * i);
    }
    EXPECT_EQ(EncodePayload(MakeSparse(100, sevens, rng)).bytes.size(), 17u + 5u + 36u);
    // Gap 2^32 - 2: a 63-bit code -> 8 bytes.
    const EncodedPayload huge = EncodePayload(MakeSparse(kMaxU32, {0, kMaxU32 - 1}, rng));
    EXPECT_EQ(huge.bytes.size(), 17u + 8u + 8u);
    EXPECT_EQ(huge.MetadataBytes(), 25u);
}

TEST(PayloadCodecSize, RandomMaskExactBytes)
{
    Payload p;
    p.form = PayloadForm::RandomMask;
    p.length = 10;
    p.seed = 0x0807060504030201ull;
    p.alpha = 0.5f; // 0x3F000000
    p.values = {1.0f};
    const EncodedPayload enc = EncodePayload(p);
    Bytes b;
    b.U8(3).U32(10).Raw({1, 2, 3, 4, 5, 6, 7, 8}).Raw({0, 0, 0, 0x3F}).U32(1).F32(1.0f);
    EXPECT_EQ(enc.bytes, b.v);
    EXPECT_EQ(enc.valueBytes, 4u);
    EXPECT_EQ(enc.MetadataBytes(), 21u);
}

// ---------------------------------------------------------------------------------------------
// PayloadCodec: decoder rejections

TEST(PayloadCodecDecodeReject, EmptyAndHeader)
{
    ExpectDecodeError({}, "truncated");
    ExpectDecodeError({0x01}, "truncated");
    ExpectDecodeError({0x02, 0x00, 0x00, 0x00}, "truncated");
}

TEST(PayloadCodecDecodeReject, UnknownForm)
{
    for (int form : {0, 4, 5, 0x7F, 0x80, 0xFF})
    {
        Bytes b;
        b.U8(static_cast<uint8_t>(form)).U32(0);
        ExpectDecodeError(b.v, "unknown payload form");
    }
    // Even a lone unknown form byte is reported as such, not as truncation.
    ExpectDecodeError({0x09}, "unknown payload form");
}

TEST(PayloadCodecDecodeReject, FullSizeMismatch)
{
    Bytes shortBy1;
    shortBy1.U8(1).U32(3).F32(1).F32(2).Raw({0, 0, 0});
    ExpectDecodeError(shortBy1.v, "truncated");
    Bytes missingAll;
    missingAll.U8(1).U32(3);
    ExpectDecodeError(missingAll.v, "truncated");
    Bytes longBy1;
    longBy1.U8(1).U32(1).F32(1).U8(0);
    ExpectDecodeError(longBy1.v, "trailing bytes");
    Bytes emptyWithValue;
    emptyWithValue.U8(1).U32(0).F32(1);
    ExpectDecodeError(emptyWithValue.v, "trailing bytes");
    // A huge declared length must be rejected without allocating it.
    Bytes huge;
    huge.U8(1).U32(kMaxU32).F32(1);
    ExpectDecodeError(huge.v, "truncated");
}

TEST(PayloadCodecDecodeReject, TrailingBytes)
{
    std::mt19937 rng(6);
    for (const Payload& p : SampleValidPayloads(rng))
    {
        std::vector<uint8_t> bytes = EncodePayload(p).bytes;
        bytes.push_back(0);
        ExpectDecodeError(bytes, "trailing bytes");
    }
}

TEST(PayloadCodecDecodeReject, CountExceedsLength)
{
    Bytes sparse;
    sparse.U8(2).U32(2).U32(3).U32(0).U32(1).Raw({0xC0}).F32(0).F32(0).F32(0);
    ExpectDecodeError(sparse.v, "count exceeds length");
    Bytes sparseEmptyLength;
    sparseEmptyLength.U8(2).U32(0).U32(1).U32(0).U32(0).F32(0);
    ExpectDecodeError(sparseEmptyLength.v, "count exceeds length");
    // A huge count must be rejected without allocating it.
    Bytes hugeCount;
    hugeCount.U8(2).U32(10).U32(kMaxU32);
    ExpectDecodeError(hugeCount.v, "count exceeds length");
    Bytes mask;
    mask.U8(3).U32(1).U64(7).F32(0.5f).U32(2).F32(0).F32(0);
    ExpectDecodeError(mask.v, "count exceeds length");
}

TEST(PayloadCodecDecodeReject, HugeCountWithinLengthIsBoundedByInput)
{
    // count <= length but far more than the input holds: truncation, not a giant allocation.
    Bytes sparse = SparseHeader(kMaxU32, kMaxU32 - 1, 0, 0);
    ExpectDecodeError(sparse.v, "run past the gap section");
    Bytes sparse2 = SparseHeader(kMaxU32, 9, 0, 2);
    sparse2.Raw({0xFF, 0x80});
    ExpectDecodeError(sparse2.v, "truncated");
    Bytes mask;
    mask.U8(3).U32(kMaxU32).U64(0).F32(0.5f).U32(kMaxU32 - 1).F32(0);
    ExpectDecodeError(mask.v, "truncated");
}

TEST(PayloadCodecDecodeReject, IndexOutOfRange)
{
    // First index == length.
    Bytes first = SparseHeader(10, 1, 10, 0);
    first.F32(0);
    ExpectDecodeError(first.v, "out of range");
    // First index way past length.
    Bytes firstFar = SparseHeader(10, 1, kMaxU32, 0);
    firstFar.F32(0);
    ExpectDecodeError(firstFar.v, "out of range");
    // 8 + gap 2 = 10 == length ("010" -> 0x40).
    Bytes later = SparseHeader(10, 2, 8, 1);
    later.Raw({0x40}).F32(0).F32(0);
    ExpectDecodeError(later.v, "out of range");
    // Same gap with length 11 is fine.
    Bytes fine = SparseHeader(11, 2, 8, 1);
    fine.Raw({0x40}).F32(0).F32(0);
    EXPECT_EQ(DecodeExact(fine.v).indices, (std::vector<uint32_t>{8, 10}));
}

TEST(PayloadCodecDecodeReject, NonIncreasingViaWraparound)
{
    // first = 10, gap = 2^32 - 6: in 32-bit arithmetic the second index would wrap to 4 (a
    // decreasing index); the decoder must see 2^32 + 4 and reject it.
    std::vector<uint8_t> section;
    BitWriter w(section);
    w.WriteEliasGamma(kMaxU32 - 5);
    w.Flush();
    Bytes b = SparseHeader(kMaxU32, 2, 10, static_cast<uint32_t>(section.size()));
    b.v.insert(b.v.end(), section.begin(), section.end());
    b.F32(0).F32(0);
    ExpectDecodeError(b.v, "out of range");
}

TEST(PayloadCodecDecodeReject, ZeroGapIsUnrepresentable)
{
    // Elias-gamma has no code for 0; whatever a broken encoder writes for it (no bits, or zero
    // bits) must be rejected rather than decoded as a repeated index.
    Bytes noBits = SparseHeader(10, 2, 3, 0);
    noBits.F32(0).F32(0);
    ExpectDecodeError(noBits.v, "run past the gap section");
    Bytes zeroByte = SparseHeader(10, 2, 3, 1);
    zeroByte.Raw({0x00}).F32(0).F32(0);
    ExpectDecodeError(zeroByte.v, "runs past the gap section");
}

TEST(PayloadCodecDecodeReject, GammaRunsPastSection)
{
    // 0x01 = 7 zeros and the one: 7 value bits are missing. The value bytes that follow the
    // section must not be borrowed.
    Bytes b = SparseHeader(1000, 2, 0, 1);
    b.Raw({0x01}).F32(FromBits(0xFFFFFFFFu)).F32(0);
    ExpectDecodeError(b.v, "runs past the gap section");
    // Second of three gaps runs out: 1000 0100 is "1", then four zeros, the one, and only 2 of
    // the 4 value bits.
    Bytes c = SparseHeader(1000, 3, 0, 1);
    c.Raw({0x84}).F32(0).F32(0).F32(0);
    ExpectDecodeError(c.v, "gap 2 runs past the gap section");
    // More gaps than bits in the section.
    Bytes d = SparseHeader(1000, 10, 0, 1);
    d.Raw({0xFF});
    for (int i = 0; i < 10; ++i)
    {
        d.F32(0);
    }
    ExpectDecodeError(d.v, "run past the gap section");
}

TEST(PayloadCodecDecodeReject, GammaTooManyLeadingZeros)
{
    // 32 zeros then a one (and enough bits for the 33-bit value that would follow).
    Bytes b = SparseHeader(kMaxU32, 2, 0, 9);
    b.Raw({0, 0, 0, 0, 0x80, 0, 0, 0, 0}).F32(0).F32(0);
    ExpectDecodeError(b.v, "too many leading zeros");
    // A long section of zeros.
    Bytes c = SparseHeader(kMaxU32, 2, 0, 64);
    c.Zeros(64).F32(0).F32(0);
    ExpectDecodeError(c.v, "too many leading zeros");
    // 31 zeros is still valid (gap 2^31 + 0).
    std::vector<uint8_t> section;
    BitWriter w(section);
    w.WriteEliasGamma(1u << 31);
    w.Flush();
    Bytes ok = SparseHeader(kMaxU32, 2, 0, static_cast<uint32_t>(section.size()));
    ok.v.insert(ok.v.end(), section.begin(), section.end());
    ok.F32(0).F32(0);
    EXPECT_EQ(DecodeExact(ok.v).indices, (std::vector<uint32_t>{0, 1u << 31}));
}

TEST(PayloadCodecDecodeReject, GapSectionSizeMismatch)
{
    // Gap 1 ("1") needs one byte; declaring two is wrong even if the extra byte is zero.
    Bytes tooBig = SparseHeader(10, 2, 0, 2);
    tooBig.Raw({0x80, 0x00}).F32(0).F32(0);
    ExpectDecodeError(tooBig.v, "gap section size mismatch");
    // One index has no gaps: any non-empty section is wrong.
    Bytes noGaps = SparseHeader(10, 1, 0, 1);
    noGaps.Raw({0x00}).F32(0);
    ExpectDecodeError(noGaps.v, "gap section size mismatch");
    // Declared size larger than the input.
    Bytes pastEnd = SparseHeader(10, 2, 0, 100);
    pastEnd.Raw({0x80}).F32(0).F32(0);
    ExpectDecodeError(pastEnd.v, "truncated");
    Bytes pastEndHuge = SparseHeader(10, 2, 0, kMaxU32);
    pastEndHuge.Raw({0x80}).F32(0).F32(0);
    ExpectDecodeError(pastEndHuge.v, "truncated");
}

TEST(PayloadCodecDecodeReject, NonZeroPadding)
{
    // "1" + padding 0000001.
    Bytes b = SparseHeader(10, 2, 0, 1);
    b.Raw({0x81}).F32(0).F32(0);
    ExpectDecodeError(b.v, "padding");
    // Padding right after a multi-byte code: gap 256 is 17 bits ("0000 0000 1000 0000 0"), then
    // seven padding bits, the last one set.
    Bytes c = SparseHeader(1000, 2, 0, 3);
    c.Raw({0x00, 0x80, 0x01}).F32(0).F32(0);
    ExpectDecodeError(c.v, "padding");
    Bytes cValid = SparseHeader(1000, 2, 0, 3);
    cValid.Raw({0x00, 0x80, 0x00}).F32(0).F32(0);
    EXPECT_EQ(DecodeExact(cValid.v).indices, (std::vector<uint32_t>{0, 256}));
}

TEST(PayloadCodecDecodeReject, SparseValueCountMismatch)
{
    Bytes missing = SparseHeader(10, 2, 0, 1);
    missing.Raw({0x80}).F32(0);
    ExpectDecodeError(missing.v, "truncated");
    Bytes extra = SparseHeader(10, 2, 0, 1);
    extra.Raw({0x80}).F32(0).F32(0).F32(0);
    ExpectDecodeError(extra.v, "trailing bytes");
    Bytes emptyExtra;
    emptyExtra.U8(2).U32(10).U32(0).F32(0);
    ExpectDecodeError(emptyExtra.v, "trailing bytes");
}

TEST(PayloadCodecDecodeReject, RandomMaskAlpha)
{
    const float bad[] = {-0.5f,
                         1.5f,
                         -1e-30f,
                         std::nextafter(1.0f, 2.0f),
                         std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN(),
                         FromBits(0x7F800001u),
                         FromBits(0xFFFFFFFFu)};
    for (float alpha : bad)
    {
        Bytes b;
        b.U8(3).U32(10).U64(1).F32(alpha).U32(0);
        ExpectDecodeError(b.v, "alpha");
    }
    Bytes ok;
    ok.U8(3).U32(10).U64(1).F32(1.0f).U32(0);
    EXPECT_NO_THROW(DecodeExact(ok.v));
}

TEST(PayloadCodecDecodeReject, RandomMaskValueCountMismatch)
{
    Bytes missing;
    missing.U8(3).U32(10).U64(1).F32(0.5f).U32(2).F32(0);
    ExpectDecodeError(missing.v, "truncated");
    Bytes extra;
    extra.U8(3).U32(10).U64(1).F32(0.5f).U32(1).F32(0).F32(0);
    ExpectDecodeError(extra.v, "trailing bytes");
}

TEST(PayloadCodecDecodeReject, EveryTruncationPrefix)
{
    std::mt19937 rng(7);
    size_t prefixes = 0;
    for (const Payload& p : SampleValidPayloads(rng))
    {
        const std::vector<uint8_t> bytes = EncodePayload(p).bytes;
        for (size_t n = 0; n < bytes.size(); ++n)
        {
            ++prefixes;
            try
            {
                DecodeExact(bytes, n);
                ADD_FAILURE() << "prefix of " << n << " of " << bytes.size() << " bytes decoded";
            }
            catch (const PayloadError& e)
            {
                // Every declared size is checked against what is left before it is used, so a cut
                // anywhere (even inside the gap section) is reported as truncation.
                EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
            }
        }
        EXPECT_NO_THROW(DecodeExact(bytes));
    }
    EXPECT_GT(prefixes, 200u);
}

TEST(PayloadCodecDecodeReject, RandomCorruptionNeverCrashes)
{
    // Corrupt valid payloads (bit flips, byte overwrites, cuts, insertions) and decode. Each input
    // must either throw PayloadError or decode to a valid payload whose encoding is exactly the
    // input (the format is canonical), which also proves the decoded payload is valid.
    std::mt19937 rng(8);
    const std::vector<Payload> valid = SampleValidPayloads(rng);
    size_t accepted = 0;
    size_t rejected = 0;
    for (int trial = 0; trial < 20000; ++trial)
    {
        std::vector<uint8_t> bytes = EncodePayload(valid[rng() % valid.size()]).bytes;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits && !bytes.empty(); ++e)
        {
            const size_t at = rng() % bytes.size();
            switch (rng() % 5)
            {
                case 0:
                    bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
                    break;
                case 1:
                    bytes[at] = static_cast<uint8_t>(rng());
                    break;
                case 2:
                    bytes.resize(at);
                    break;
                case 3:
                    bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                                 static_cast<uint8_t>(rng()));
                    break;
                default:
                    // Small field values are the interesting ones: counts, lengths, sizes.
                    bytes[at] = static_cast<uint8_t>(rng() % 4);
                    break;
            }
        }
        try
        {
            const Payload p = DecodeExact(bytes);
            ++accepted;
            ASSERT_EQ(EncodePayload(p).bytes, bytes) << "trial " << trial;
        }
        catch (const PayloadError&)
        {
            ++rejected;
        }
    }
    EXPECT_GT(rejected, 0u);
    EXPECT_GT(accepted, 0u); // e.g. a flipped value bit is still a valid payload
}

TEST(PayloadCodecDecodeReject, RandomGarbageNeverCrashes)
{
    std::mt19937 rng(9);
    for (int trial = 0; trial < 20000; ++trial)
    {
        std::vector<uint8_t> bytes(rng() % 64);
        for (uint8_t& b : bytes)
        {
            b = static_cast<uint8_t>(rng());
        }
        // Plausible headers so that decoding gets past the first checks.
        if (bytes.size() >= 13)
        {
            bytes[0] = static_cast<uint8_t>(1 + rng() % 3);
            bytes[1] = static_cast<uint8_t>(rng() % 64);
            bytes[2] = bytes[3] = bytes[4] = 0;
            bytes[5] = static_cast<uint8_t>(rng() % 8);
            bytes[6] = bytes[7] = bytes[8] = 0;
        }
        if (bytes.size() >= 17 && bytes[0] == 2)
        {
            // Sparse: small first index and gap section size.
            bytes[9] = static_cast<uint8_t>(rng() % 64);
            bytes[10] = bytes[11] = bytes[12] = 0;
            bytes[13] = static_cast<uint8_t>(rng() % 4);
            bytes[14] = bytes[15] = bytes[16] = 0;
        }
        try
        {
            const Payload p = DecodeExact(bytes);
            ASSERT_EQ(EncodePayload(p).bytes, bytes);
        }
        catch (const PayloadError&)
        {}
    }
}

// ---------------------------------------------------------------------------------------------
// PayloadCodec: encoder rejections

TEST(PayloadCodecEncodeReject, FullWrongValueCount)
{
    Payload p;
    p.form = PayloadForm::Full;
    p.length = 3;
    p.values = {1, 2};
    ExpectEncodeError(p, "wrong value count");
    p.values = {1, 2, 3, 4};
    ExpectEncodeError(p, "wrong value count");
    p.length = 0;
    p.values = {1};
    ExpectEncodeError(p, "wrong value count");
}

TEST(PayloadCodecEncodeReject, SparseNonIncreasing)
{
    Payload p;
    p.form = PayloadForm::Sparse;
    p.length = 10;
    p.indices = {1, 3, 2};
    p.values = {0, 0, 0};
    ExpectEncodeError(p, "not strictly increasing");
    p.indices = {1, 3, 3};
    ExpectEncodeError(p, "not strictly increasing");
    p.indices = {9, 0, 1};
    ExpectEncodeError(p, "not strictly increasing");
}

TEST(PayloadCodecEncodeReject, SparseOutOfRange)
{
    Payload p;
    p.form = PayloadForm::Sparse;
    p.length = 10;
    p.indices = {10};
    p.values = {0};
    ExpectEncodeError(p, "out of range");
    p.indices = {2, 5, kMaxU32};
    p.values = {0, 0, 0};
    ExpectEncodeError(p, "out of range");
    // More indices than the length allows (necessarily repeated or out of range).
    p.length = 0;
    p.indices = {0};
    p.values = {0};
    ExpectEncodeError(p, "count exceeds length");
    p.length = 2;
    p.indices = {0, 1, 2};
    p.values = {0, 0, 0};
    ExpectEncodeError(p, "count exceeds length");
}

TEST(PayloadCodecEncodeReject, SparseValueCount)
{
    Payload p;
    p.form = PayloadForm::Sparse;
    p.length = 10;
    p.indices = {1, 2};
    p.values = {0};
    ExpectEncodeError(p, "wrong value count");
    p.values = {0, 0, 0};
    ExpectEncodeError(p, "wrong value count");
    p.indices = {};
    p.values = {0};
    ExpectEncodeError(p, "wrong value count");
}

TEST(PayloadCodecEncodeReject, RandomMaskInvalid)
{
    std::mt19937 rng(10);
    Payload p = MakeMask(10, 11, 1, 0.5f, rng);
    ExpectEncodeError(p, "count exceeds length");
    for (float alpha : {-0.1f,
                        1.01f,
                        std::numeric_limits<float>::quiet_NaN(),
                        std::numeric_limits<float>::infinity()})
    {
        Payload q = MakeMask(10, 2, 1, alpha, rng);
        ExpectEncodeError(q, "alpha");
    }
}

TEST(PayloadCodecEncodeReject, IndicesOnNonSparseForms)
{
    std::mt19937 rng(11);
    Payload full = MakeFull(3, rng);
    full.indices = {0};
    ExpectEncodeError(full, "indices given");
    Payload mask = MakeMask(10, 1, 1, 0.5f, rng);
    mask.indices = {0};
    ExpectEncodeError(mask, "indices given");
}

TEST(PayloadCodecEncodeReject, UnknownForm)
{
    Payload p;
    p.form = static_cast<PayloadForm>(9);
    ExpectEncodeError(p, "unknown payload form");
}

// ---------------------------------------------------------------------------------------------
// PayloadCodec: speed

/// Milliseconds taken by the fastest of @p reps runs of @p f (the machine may be busy).
template<typename F>
double
BestMs(int reps, F&& f)
{
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < reps; ++i)
    {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return best;
}

TEST(PayloadCodecPerf, MillionIndices)
{
    std::mt19937 rng(12);
    struct Case
    {
        const char* name;
        uint32_t length;
    };
    // Dense (all gaps 1), typical top-10% selection, and a sparse selection with long gaps.
    for (const Case& c : {Case{"all of 1e6", 1000000u},
                          Case{"1e6 of 1e7", 10000000u},
                          Case{"1e6 of 2^32-1", kMaxU32}})
    {
        const Payload p = MakeSparse(c.length, SampleIndices(rng, c.length, 1000000), rng);
        EncodedPayload enc;
        const double encMs = BestMs(3, [&] { enc = EncodePayload(p); });
        Payload dec;
        const double decMs
            = BestMs(3, [&] { dec = DecodePayload(enc.bytes.data(), enc.bytes.size()); });
        ASSERT_EQ(dec.indices, p.indices);
        ASSERT_TRUE(SameBits(dec.values, p.values));
        std::cout << "[ perf     ] " << c.name << ": " << enc.bytes.size() << " bytes ("
                  << enc.MetadataBytes() << " metadata), encode " << encMs << " ms, decode "
                  << decMs << " ms" << std::endl;
        // Generous bound (sanitizers, a busy machine): this guards against accidental per-bit or
        // quadratic work, which would take seconds.
        EXPECT_LT(encMs, 1000.0);
        EXPECT_LT(decMs, 1000.0);
    }
}

} // namespace
} // namespace ns3

namespace ns3
{
namespace
{

TEST(PayloadCodecScalars, RoundTripOnEveryFormAndCountAsMetadata)
{
    Payload full{PayloadForm::Full, 2, {}, {1.5f, -2.0f}};
    Payload sparse{PayloadForm::Sparse, 10, {2, 9}, {3.0f, 4.0f}};
    Payload mask{PayloadForm::RandomMask, 10, {}, {5.0f}, 77, 0.25f};
    for (Payload p : {full, sparse, mask})
    {
        EncodedPayload plain = EncodePayload(p);
        p.scalars = {0.125, -1e300};
        EncodedPayload withScalars = EncodePayload(p);
        EXPECT_EQ(withScalars.bytes.size(), plain.bytes.size() + 1 + 16);
        EXPECT_EQ(withScalars.valueBytes, plain.valueBytes);
        Payload back = DecodePayload(withScalars.bytes.data(), withScalars.bytes.size());
        EXPECT_EQ(back.scalars, p.scalars);
        EXPECT_EQ(back.values, p.values);
        EXPECT_EQ(back.indices, p.indices);
        EXPECT_EQ(back.length, p.length);
        // Every truncation is rejected.
        for (size_t n = 0; n < withScalars.bytes.size(); ++n)
        {
            std::vector<uint8_t> prefix(withScalars.bytes.begin(), withScalars.bytes.begin() + n);
            EXPECT_THROW(DecodePayload(prefix.data(), prefix.size()), PayloadError) << n;
        }
    }
}

TEST(PayloadCodecScalars, FlagWithoutScalarsIsRejected)
{
    EncodedPayload e = EncodePayload(Payload{PayloadForm::Full, 1, {}, {1.0f}});
    std::vector<uint8_t> bad = e.bytes;
    bad[0] |= 0x80;
    bad.insert(bad.begin() + 5, 0); // count 0
    EXPECT_THROW(DecodePayload(bad.data(), bad.size()), PayloadError);
    Payload tooMany{PayloadForm::Full, 1, {}, {1.0f}};
    tooMany.scalars.assign(256, 1.0);
    EXPECT_THROW(EncodePayload(tooMany), PayloadError);
}

} // namespace
} // namespace ns3
