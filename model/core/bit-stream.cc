// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Bit-level writer and reader used by the payload codec (see bit-stream.h).
 */

#include "bit-stream.h"

#include <array>
#include <cassert>

namespace dlsim
{

namespace
{

/// Number of leading zero bits of a non-zero 64-bit word.
inline unsigned
CountLeadingZeros64(uint64_t word)
{
    assert(word != 0);
#if defined(__GNUC__) || defined(__clang__)
    return static_cast<unsigned>(__builtin_clzll(word));
#else
    unsigned n = 0;
    while ((word & (uint64_t{1} << 63)) == 0)
    {
        word <<= 1;
        ++n;
    }
    return n;
#endif
}

/// floor(log2(value)) for value >= 1.
inline unsigned
FloorLog2(uint32_t value)
{
    return 63 - CountLeadingZeros64(value);
}

} // namespace

unsigned
EliasGammaBits(uint32_t value)
{
    assert(value >= 1);
    return 2 * FloorLog2(value) + 1;
}

// ---------------------------------------------------------------------------------------------
// BitWriter

BitWriter::BitWriter(std::vector<uint8_t>& out) : m_out(&out), m_acc(0), m_accBits(0), m_bitCount(0)
{}

void
BitWriter::Drain()
{
    // Emit 32 bits at a time: a quarter of the per-byte work, which dominates when most codes
    // are a few bits long.
    if (m_accBits >= 32)
    {
        m_accBits -= 32;
        const auto word = static_cast<uint32_t>(m_acc >> m_accBits);
        m_out->push_back(static_cast<uint8_t>(word >> 24));
        m_out->push_back(static_cast<uint8_t>(word >> 16));
        m_out->push_back(static_cast<uint8_t>(word >> 8));
        m_out->push_back(static_cast<uint8_t>(word));
        // Keep only the pending bits so the next shift cannot overflow the accumulator.
        m_acc &= (uint64_t{1} << m_accBits) - 1;
    }
}

void
BitWriter::WriteBits(uint32_t value, unsigned count)
{
    assert(count <= 32);
    if (count == 0)
    {
        return;
    }
    const uint64_t masked = value & ((uint64_t{1} << count) - 1);
    // Fewer than 32 bits are pending between calls, so at most 63 are pending after the shift.
    m_acc = (m_acc << count) | masked;
    m_accBits += count;
    m_bitCount += count;
    Drain();
}

void
BitWriter::WriteEliasGamma(uint32_t value)
{
    assert(value >= 1);
    const unsigned n = FloorLog2(value);
    // The code is n zeros followed by the n + 1 significant bits of value (whose top bit is the
    // terminating one), i.e. value written in 2n + 1 bits. That fits one write up to n = 15;
    // longer codes (up to 63 bits) take two.
    if (n <= 15)
    {
        WriteBits(value, 2 * n + 1);
    }
    else
    {
        WriteBits(0, n);
        WriteBits(value, n + 1);
    }
}

void
BitWriter::Flush()
{
    // Emit the remaining whole bytes, then the last partial byte padded with zero bits.
    while (m_accBits >= 8)
    {
        m_accBits -= 8;
        m_out->push_back(static_cast<uint8_t>(m_acc >> m_accBits));
    }
    if (m_accBits > 0)
    {
        m_out->push_back(static_cast<uint8_t>(m_acc << (8 - m_accBits)));
        m_bitCount += 8 - m_accBits;
    }
    m_acc = 0;
    m_accBits = 0;
}

uint64_t
BitWriter::BitCount() const
{
    return m_bitCount;
}

// ---------------------------------------------------------------------------------------------
// BitReader

BitReader::BitReader(const uint8_t* data, size_t size)
    : m_data(data), m_size(size), m_nextByte(0), m_buf(0), m_bufBits(0), m_consumed(0)
{}

void
BitReader::RefillByBytes()
{
    // Stop at 57+ bits: one more byte might not fit. A 32-bit read therefore never needs a second
    // refill, and m_nextByte < m_size guards every load.
    while (m_bufBits <= 56 && m_nextByte < m_size)
    {
        m_buf |= uint64_t{m_data[m_nextByte]} << (56 - m_bufBits);
        ++m_nextByte;
        m_bufBits += 8;
    }
}

bool
BitReader::ReadBits(unsigned count, uint32_t& value)
{
    assert(count <= 32);
    if (count == 0)
    {
        value = 0;
        return true;
    }
    Refill();
    if (m_bufBits < count)
    {
        return false;
    }
    value = static_cast<uint32_t>(m_buf >> (64 - count));
    Consume(count);
    return true;
}

BitReader::GammaStatus
BitReader::ReadEliasGammaCarefully(uint32_t& value)
{
    // Count the leading zeros a buffer at a time, bailing out as soon as there are too many, so a
    // long run of zero bytes costs one check per 8 bytes and cannot overflow the counter.
    unsigned zeros = 0;
    for (;;)
    {
        Refill();
        if (m_bufBits == 0)
        {
            return GammaStatus::Exhausted;
        }
        if (m_buf == 0)
        {
            // Every buffered bit is zero (bits past m_bufBits are zero by construction).
            zeros += m_bufBits;
            Consume(m_bufBits);
            if (zeros > kMaxGammaZeros)
            {
                return GammaStatus::TooManyZeros;
            }
            continue;
        }
        // m_buf != 0 and bits past m_bufBits are zero, so the first one bit is a valid bit.
        const unsigned lz = CountLeadingZeros64(m_buf);
        zeros += lz;
        if (zeros > kMaxGammaZeros)
        {
            return GammaStatus::TooManyZeros;
        }
        Consume(lz);
        break;
    }
    // The terminating one bit is the top bit of the value, followed by `zeros` more bits.
    uint32_t bits = 0;
    if (!ReadBits(zeros + 1, bits))
    {
        return GammaStatus::Exhausted;
    }
    value = bits;
    return GammaStatus::Ok;
}

namespace
{

/// Bits of the window the table decodes at once.
constexpr unsigned kWindowBits = 12;

/**
 * For every 12-bit window (most significant bit first), the whole Elias-gamma codes at its
 * start, up to three: bits 0-1 how many, bits 2-5 the bits they take, then 6 bits per value
 * (a code of at most 12 bits has at most 5 leading zeros, so a value below 64).
 */
const std::array<uint32_t, 1u << kWindowBits>&
GammaWindowTable()
{
    static const std::array<uint32_t, 1u << kWindowBits> table = []()
    {
        std::array<uint32_t, 1u << kWindowBits> t{};
        for (uint32_t w = 0; w < t.size(); ++w)
        {
            unsigned pos = 0;
            uint32_t entry = 0;
            unsigned codes = 0;
            while (codes < 3)
            {
                unsigned zeros = 0;
                while (pos + zeros < kWindowBits
                       && ((w >> (kWindowBits - 1 - pos - zeros)) & 1u) == 0)
                {
                    ++zeros;
                }
                const unsigned length = 2 * zeros + 1;
                if (pos + length > kWindowBits)
                {
                    break;
                }
                const uint32_t value
                    = (w >> (kWindowBits - pos - length)) & ((1u << (zeros + 1)) - 1);
                entry |= value << (6 + 6 * codes);
                pos += length;
                ++codes;
            }
            t[w] = entry | (pos << 2) | codes;
        }
        return t;
    }();
    return table;
}

} // namespace

uint32_t
BitReader::ReadEliasGammaRun(uint32_t* values, uint32_t count)
{
    const std::array<uint32_t, 1u << kWindowBits>& table = GammaWindowTable();
    uint64_t buf = m_buf;
    unsigned bufBits = m_bufBits;
    size_t nextByte = m_nextByte;
    uint32_t n = 0;
    while (n < count)
    {
        // Topped up to 57 bits or more once it falls under 32 (not before every code). A code
        // longer than the bits buffered ends the run; the careful read that follows refills.
        if (bufBits < 32)
        {
            if (m_size - nextByte < 8)
            {
                break;
            }
            const unsigned take = (64 - bufBits) / 8;
            buf |= (LoadBigEndian64(m_data + nextByte) >> bufBits)
                   & (~uint64_t{0} << (64 - bufBits - 8 * take)); // bits past stay zero
            nextByte += take;
            bufBits += 8 * take;
        }
        // At least 32 bits are buffered here, so a window's codes are all buffered bits. All
        // three values are stored, so only where three places are left.
        const uint32_t entry = table[buf >> (64 - kWindowBits)];
        if ((entry & 3u) != 0 && count - n >= 3)
        {
            values[n] = (entry >> 6) & 63u;
            values[n + 1] = (entry >> 12) & 63u;
            values[n + 2] = (entry >> 18) & 63u;
            n += entry & 3u;
            const unsigned used = (entry >> 2) & 15u;
            buf <<= used;
            bufBits -= used;
            continue;
        }
        // A code longer than the window (or too near the end of `values`): one at a time.
        if (buf == 0)
        {
            break;
        }
        const unsigned zeros = CountLeadingZeros64(buf);
        const unsigned length = 2 * zeros + 1; // <= 63 when zeros <= kMaxGammaZeros
        if (zeros > kMaxGammaZeros || length > bufBits)
        {
            break;
        }
        values[n++] = static_cast<uint32_t>(buf >> (64 - length));
        buf <<= length;
        bufBits -= length;
    }
    m_consumed += 8 * (nextByte - m_nextByte) + m_bufBits - bufBits;
    m_buf = buf;
    m_bufBits = bufBits;
    m_nextByte = nextByte;
    return n;
}

uint64_t
BitReader::BitsConsumed() const
{
    return m_consumed;
}

uint64_t
BitReader::BitsRemaining() const
{
    return static_cast<uint64_t>(m_size) * 8 - m_consumed;
}

} // namespace dlsim
