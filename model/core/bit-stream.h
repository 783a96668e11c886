// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Bit-level writer and reader used by the payload codec to pack Elias-gamma coded index gaps.
 *
 * Bits are packed MSB-first: the first bit written is the most significant bit of the first
 * byte. Both classes work on whole 64-bit words internally so that coding a million gaps costs
 * a few milliseconds; there are no virtual calls and no per-bit function calls on the hot path.
 */

#ifndef DLSIM_BIT_STREAM_H
#define DLSIM_BIT_STREAM_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace dlsim
{

/**
 * Number of bits of the Elias-gamma code of @p value: 2 * floor(log2(value)) + 1.
 * Gap 1 -> 1 bit, 2..3 -> 3 bits, 4..7 -> 5 bits, ..., 2^31..2^32-1 -> 63 bits.
 *
 * @param value the value to code; must be >= 1 (Elias-gamma cannot represent 0)
 * @return the code length in bits
 */
unsigned EliasGammaBits(uint32_t value);

/**
 * Appends bits MSB-first to a caller-owned byte vector.
 *
 * The writer appends to an existing vector (rather than owning one) so that the codec can write
 * the gap section directly behind the payload header, without an intermediate copy.
 * Bits are buffered in a 64-bit accumulator and emitted 32 at a time; Flush() must be called
 * once at the end to emit what is left, the last partial byte padded with zero bits.
 */
class BitWriter
{
  public:
    /**
     * @param out the vector the packed bytes are appended to; must outlive the writer
     */
    explicit BitWriter(std::vector<uint8_t>& out);

    /**
     * Append the low @p count bits of @p value, most significant first.
     *
     * @param value the bits to append; bits above @p count are ignored
     * @param count number of bits, 0..32
     */
    void WriteBits(uint32_t value, unsigned count);

    /**
     * Append the Elias-gamma code of @p value: floor(log2(value)) zero bits, then @p value in
     * binary starting with its leading one bit.
     *
     * @param value the value to code; must be >= 1
     */
    void WriteEliasGamma(uint32_t value);

    /**
     * Emit all pending bits, the last partial byte padded with zero bits. Further writes start a
     * new byte.
     */
    void Flush();

    /**
     * @return number of bits written so far (including bits not yet flushed)
     */
    uint64_t BitCount() const;

  private:
    /// Move a full 32-bit word, if there is one, from the accumulator to the output.
    void Drain();

    std::vector<uint8_t>* m_out; //!< destination of the packed bytes
    uint64_t m_acc;              //!< pending bits, right-aligned (the oldest is the highest)
    unsigned m_accBits;          //!< number of pending bits in m_acc (< 32 between calls)
    uint64_t m_bitCount;         //!< total bits written
};

/**
 * Reads bits MSB-first from a bounded byte range; never reads outside [data, data + size).
 *
 * Reads report failure through their return value instead of throwing, so that the caller (the
 * payload codec) can turn each failure into an error message that names the malformed field.
 * A failed read consumes nothing.
 */
class BitReader
{
  public:
    /// Outcome of reading one Elias-gamma code.
    enum class GammaStatus
    {
        Ok,          //!< a code was read
        Exhausted,   //!< the range ended inside the code
        TooManyZeros //!< more than kMaxGammaZeros leading zeros: the value would not fit 32 bits
    };

    /**
     * Largest number of leading zeros of a valid code. 31 zeros code values in [2^31, 2^32);
     * 32 or more would code a value >= 2^32, which cannot be a 32-bit index gap.
     */
    static constexpr unsigned kMaxGammaZeros = 31;

    /**
     * @param data first byte of the range (may be null only if @p size is 0)
     * @param size number of bytes in the range
     */
    BitReader(const uint8_t* data, size_t size);

    /**
     * Read @p count bits as an unsigned number, most significant first.
     *
     * @param count number of bits, 0..32
     * @param value receives the bits on success
     * @return false, consuming nothing, if fewer than @p count bits remain
     */
    bool ReadBits(unsigned count, uint32_t& value);

    /**
     * Read one Elias-gamma code.
     *
     * @param value receives the decoded value (always >= 1) on success
     * @return the outcome; on failure the position is unspecified and the reader should be
     *         abandoned
     */
    GammaStatus ReadEliasGamma(uint32_t& value)
    {
        // A sparse payload's every index is a code, a few bits each: decoding them is most of
        // reading one. The common case, the whole code already buffered, is inline; the rest
        // (codes across the buffer's end, too many zeros, the range's end) takes the careful
        // path, from the same position, so both give the same outcome.
#if defined(__GNUC__) || defined(__clang__)
        Refill();
        if (m_buf != 0)
        {
            const unsigned zeros = static_cast<unsigned>(__builtin_clzll(m_buf));
            const unsigned length = 2 * zeros + 1;
            if (zeros <= kMaxGammaZeros && length <= m_bufBits)
            {
                value = static_cast<uint32_t>(m_buf >> (64 - length));
                Consume(length);
                return GammaStatus::Ok;
            }
        }
#endif
        return ReadEliasGammaCarefully(value);
    }

    /**
     * Read up to @p count Elias-gamma codes in a row, as many ReadEliasGamma() calls would, while
     * each code is valid and whole in the buffer and at least 8 bytes remain to refill from.
     * The reader's state stays in registers for the whole run, and the short codes of a sparse
     * payload's small gaps are read up to three at a time from a table: this is what makes its
     * thousands of codes cheap to decode. The caller reads the code a run stops at with
     * ReadEliasGamma(), which reports why it is not a valid code, if it is not.
     *
     * @param values receives the decoded values (each >= 1)
     * @param count the most codes to read
     * @return how many codes were read (0 to @p count)
     */
    uint32_t ReadEliasGammaRun(uint32_t* values, uint32_t count);

    /// @return number of bits consumed so far
    uint64_t BitsConsumed() const;

    /// @return number of bits not consumed yet
    uint64_t BitsRemaining() const;

  private:
    /// @return the 8 bytes at @p p as one number, the first byte most significant
    static uint64_t LoadBigEndian64(const uint8_t* p)
    {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t word;
        std::memcpy(&word, p, sizeof(word)); // one load and a byte swap
        return __builtin_bswap64(word);
#else
        uint64_t word = 0;
        for (unsigned i = 0; i < 8; ++i)
        {
            word = (word << 8) | p[i];
        }
        return word;
#endif
    }

    /// Top up m_buf from the byte range so that it holds at least 57 bits when available.
    void Refill()
    {
        if (m_bufBits > 56)
        {
            return;
        }
        if (m_size - m_nextByte >= 8)
        {
            // Eight bytes at once, most significant first, of which the whole bytes that fit.
            uint64_t word = LoadBigEndian64(m_data + m_nextByte);
            const unsigned take = (64 - m_bufBits) / 8;
            const unsigned kept = m_bufBits + 8 * take;
            word >>= m_bufBits;
            if (kept < 64)
            {
                word &= ~uint64_t{0} << (64 - kept); // bits past m_bufBits stay zero
            }
            m_buf |= word;
            m_nextByte += take;
            m_bufBits = kept;
            return;
        }
        RefillByBytes();
    }

    /// Refill() near the range's end, a byte at a time.
    void RefillByBytes();

    /// ReadEliasGamma() where the code is not whole in the buffer, or is invalid.
    GammaStatus ReadEliasGammaCarefully(uint32_t& value);

    /// Drop the @p count most significant buffered bits (count <= m_bufBits).
    void Consume(unsigned count)
    {
        assert(count <= m_bufBits);
        // Shifting a 64-bit word by 64 is undefined, hence the special case.
        m_buf = (count >= 64) ? 0 : (m_buf << count);
        m_bufBits -= count;
        m_consumed += count;
    }

    const uint8_t* m_data; //!< start of the range
    size_t m_size;         //!< size of the range in bytes
    size_t m_nextByte;     //!< index of the next byte to load into m_buf
    uint64_t m_buf;        //!< buffered bits, left-aligned; bits past m_bufBits are zero
    unsigned m_bufBits;    //!< number of valid bits in m_buf (0..64)
    uint64_t m_consumed;   //!< bits consumed so far
};

} // namespace dlsim

#endif /* DLSIM_BIT_STREAM_H */
