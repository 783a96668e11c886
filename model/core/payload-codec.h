// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Payload codec: turns what a model-sharing algorithm shares (a full vector, a sparse set of
 * indexed values, or the values kept by a seeded random mask) into the bytes that go on the wire,
 * and back. Every sharing algorithm uses it, so the byte counts it produces are the bytes the
 * simulator reports, split into values and metadata.
 *
 * Wire format (all integers little-endian; values are float32 little-endian, copied bit for bit,
 * so the codec is lossless for every bit pattern including NaNs):
 *
 *   offset  size  field
 *   0       1     form: 1 = Full, 2 = Sparse, 3 = RandomMask
 *   1       4     u32 length L of the full vector the payload refers to
 *
 *   Full:        L x float32 values                        total 5 + 4L bytes
 *
 *   Sparse:      u32 count k (k <= L)
 *                if k > 0:
 *                  u32 first index i_0 (< L)
 *                  u32 G = byte length of the gap section
 *                  G bytes: the k-1 gaps i_j - i_(j-1) (each >= 1), Elias-gamma coded,
 *                           bit-packed MSB-first, zero-padded to a whole byte
 *                  k x float32 values, value j belongs to index i_j
 *                                                          total 9 (k = 0) or 17 + G + 4k bytes
 *
 *   RandomMask:  u64 seed, float32 alpha (in [0, 1]), u32 count c (c <= L), c x float32 values
 *                                                          total 21 + 4c bytes
 *
 * Elias-gamma code of a gap g >= 1: floor(log2 g) zero bits, then g in binary starting with its
 * leading one. Gap 1 -> "1" (1 bit), 2..3 -> 3 bits, 4..7 -> 5 bits, ..., up to 63 bits.
 * The gap section is exactly ceil(total code bits / 8) bytes long and its padding bits are zero,
 * so every payload has exactly one valid encoding.
 *
 * Byte accounting: valueBytes counts the float32 values (4 per value); everything else (form,
 * length, counts, first index, gap section, seed, alpha) is metadata.
 *
 * For RandomMask the codec does not regenerate the mask: the receiver does, from seed and alpha,
 * and must check that the mask keeps exactly `count` positions.
 * Scalars (any form, optional): when the form byte has bit 0x80 set, a u8 count (1..255) and
 * that many float64 numbers follow the length field, before the form's own fields. They carry
 * per-message numbers such as a push-sum weight and count as metadata.
 */

#ifndef DLSIM_PAYLOAD_CODEC_H
#define DLSIM_PAYLOAD_CODEC_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace dlsim
{

/// How a payload describes the shared part of a vector; the value is the on-wire form byte.
enum class PayloadForm : uint8_t
{
    Full = 1,      //!< all values, no indices
    Sparse = 2,    //!< explicit sorted indices plus one value per index
    RandomMask = 3 //!< values at the positions of a Bernoulli mask regenerated from (seed, alpha)
};

/// What a sharing algorithm shares, before encoding / after decoding.
struct Payload
{
    PayloadForm form = PayloadForm::Full; //!< which parts are sent
    uint32_t length = 0;                  //!< length L of the full vector the payload refers to
    std::vector<uint32_t> indices;        //!< Sparse only: strictly increasing, each < length
    std::vector<float> values;            //!< Full: exactly `length` values; Sparse: one per index;
                                          //!< RandomMask: one per kept position
    uint64_t seed = 0;                    //!< RandomMask only: the mask generator's seed
    float alpha = 0.0f;                   //!< RandomMask only: keep probability in [0, 1]
    std::vector<double> scalars; //!< any form: up to 255 extra numbers (e.g. a push-sum weight)
};

/**
 * The float32 values of an encoded payload, read in place from its bytes (4 bytes each,
 * little-endian): a receiver that sums whole models reads each value once, without first
 * copying every message into a vector of its own. Valid as long as the bytes it views.
 */
class PayloadValues
{
  public:
    PayloadValues() = default;

    /**
     * @param bytes the first value's first byte
     * @param count the number of values
     */
    PayloadValues(const uint8_t* bytes, size_t count) : m_bytes(bytes), m_count(count) {}

    /// @return the number of values
    size_t size() const
    {
        return m_count;
    }

    /**
     * @param n a value's place, below size()
     * @return the value, every bit as sent (NaN payloads included)
     */
    float operator[](size_t n) const
    {
        const uint8_t* p = m_bytes + n * 4;
        float value;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        // The wire's byte order is the host's: one unaligned load, which a sum over the values
        // can vectorize (four byte loads and shifts it cannot).
        std::memcpy(&value, p, sizeof value);
#else
        const uint32_t bits = uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16)
                              | (uint32_t{p[3]} << 24);
        std::memcpy(&value, &bits, sizeof value);
#endif
        return value;
    }

    /// @return a copy of the values
    std::vector<float> ToVector() const;

  private:
    const uint8_t* m_bytes = nullptr; //!< the first value's first byte
    size_t m_count = 0;               //!< the number of values
};

/// The bytes of one encoded payload and how many of them are values.
struct EncodedPayload
{
    std::vector<uint8_t> bytes; //!< everything that goes on the wire for this payload
    size_t valueBytes = 0;      //!< how many of `bytes` are float32 values (4 per value)

    /// @return the number of bytes that are not values (headers, indices, seed, alpha)
    size_t MetadataBytes() const
    {
        return bytes.size() - valueBytes;
    }
};

/// Raised on an invalid payload (encoding) or malformed bytes (decoding); what() says why.
class PayloadError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * Encode a payload into its wire format.
 *
 * Fields that the payload's form does not use (seed and alpha outside RandomMask) are ignored;
 * indices outside Sparse are rejected, because silently dropping them would lose information.
 *
 * @param payload the payload to encode
 * @return the encoded bytes and the number of value bytes among them
 * @throws PayloadError if the payload is invalid: unknown form; Full with values.size() != length;
 *         Sparse with indices not strictly increasing, an index >= length, or
 *         values.size() != indices.size(); RandomMask with more values than length or alpha not
 *         in [0, 1] (or NaN); indices given for a form other than Sparse
 */
EncodedPayload EncodePayload(const Payload& payload);

/**
 * Decode a payload from its wire format. Never reads outside [data, data + size), and checks
 * every declared size against the input before allocating, so hostile input cannot cause large
 * allocations.
 *
 * Decoding succeeds only on the exact encoding of a valid payload: re-encoding the result yields
 * the same bytes.
 *
 * @param data first byte of the encoded payload (may be null only if @p size is 0)
 * @param size number of bytes
 * @return the decoded payload (unused fields keep their defaults)
 * @throws PayloadError naming the problem: unknown form, truncated input, trailing bytes,
 *         count > length, index out of range, non-increasing indices, Elias-gamma code running
 *         past the gap section or with too many leading zeros, gap section size that disagrees
 *         with the codes, non-zero padding bits, Full size that does not match L, alpha not in
 *         [0, 1] or NaN
 */
Payload DecodePayload(const uint8_t* data, size_t size);

/// A payload decoded and checked as DecodePayload does, its values left in the bytes.
struct PayloadInPlace
{
    Payload payload;      //!< every field but the values (which stay empty)
    PayloadValues values; //!< the values, read in place from the decoded bytes
};

/**
 * Decode a payload as DecodePayload does (the same checks, the same errors) without copying its
 * values: they are read where they lie.
 *
 * @param data first byte of the encoded payload (may be null only if @p size is 0)
 * @param size number of bytes
 * @return the payload without its values, and a view of them valid as long as @p data is
 * @throws PayloadError as DecodePayload
 */
PayloadInPlace DecodePayloadInPlace(const uint8_t* data, size_t size);

} // namespace dlsim

#endif /* DLSIM_PAYLOAD_CODEC_H */
