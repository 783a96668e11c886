// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Payload codec (see payload-codec.h for the wire format).
 */

#include "payload-codec.h"

#include "bit-stream.h"

#include <cstring>
#include <limits>
#include <sstream>
#include <string>

namespace dlsim
{

namespace
{

// Sizes of the fixed parts of the wire format, in bytes.
constexpr size_t kHeaderBytes = 1 + 4; // form, length
constexpr uint8_t kScalarsFlag = 0x80; // form-byte bit: scalars follow the length
constexpr size_t kMaxScalars = 255;
constexpr size_t kSparseFixedBytes = 4 + 4;      // first index, gap section size
constexpr size_t kMaskFixedBytes = 8 + 4 + 4;    // seed, alpha, count
constexpr size_t kValueBytes = sizeof(uint32_t); // one float32 value
static_assert(sizeof(float) == 4, "the wire format stores IEEE-754 binary32 values");
static_assert(std::numeric_limits<float>::is_iec559, "the wire format stores IEEE-754 values");

/// Build an error message from stream-insertable parts.
template<typename... Parts>
std::string
Message(const char* prefix, const Parts&... parts)
{
    std::ostringstream oss;
    oss << prefix;
    (oss << ... << parts);
    return oss.str();
}

template<typename... Parts>
[[noreturn]] void
EncodeFail(const Parts&... parts)
{
    throw PayloadError(Message("EncodePayload: ", parts...));
}

template<typename... Parts>
[[noreturn]] void
DecodeFail(const Parts&... parts)
{
    throw PayloadError(Message("DecodePayload: ", parts...));
}

// ---------------------------------------------------------------------------------------------
// Writing. Integers are written byte by byte with shifts so the format is little-endian whatever
// the host's byte order; compilers turn these into plain stores.

void
PutU8(std::vector<uint8_t>& out, uint8_t v)
{
    out.push_back(v);
}

void
PutU32(std::vector<uint8_t>& out, uint32_t v)
{
    for (int shift = 0; shift < 32; shift += 8)
    {
        out.push_back(static_cast<uint8_t>(v >> shift));
    }
}

void
PutU64(std::vector<uint8_t>& out, uint64_t v)
{
    for (int shift = 0; shift < 64; shift += 8)
    {
        out.push_back(static_cast<uint8_t>(v >> shift));
    }
}

uint32_t
FloatBits(float f)
{
    // memcpy, not a value conversion: it keeps every bit, including NaN payloads.
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
}

float
BitsToFloat(uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

/// Append all values; resizes once and writes in place, which matters for million-value payloads.
void
PutValues(std::vector<uint8_t>& out, const std::vector<float>& values)
{
    const size_t start = out.size();
    out.resize(start + values.size() * kValueBytes);
    uint8_t* p = out.data() + start;
    for (float f : values)
    {
        const uint32_t bits = FloatBits(f);
        p[0] = static_cast<uint8_t>(bits);
        p[1] = static_cast<uint8_t>(bits >> 8);
        p[2] = static_cast<uint8_t>(bits >> 16);
        p[3] = static_cast<uint8_t>(bits >> 24);
        p += kValueBytes;
    }
}

bool
AlphaValid(float alpha)
{
    // Written so that NaN, for which every comparison is false, is rejected.
    return alpha >= 0.0f && alpha <= 1.0f;
}

// ---------------------------------------------------------------------------------------------
// Reading. A cursor over [data, data + size) whose every read is bounds-checked first.

class Cursor
{
  public:
    Cursor(const uint8_t* data, size_t size) : m_data(data), m_size(size), m_pos(0) {}

    size_t Remaining() const
    {
        return m_size - m_pos;
    }

    size_t Position() const
    {
        return m_pos;
    }

    /// Throw a "truncated" error naming @p field unless @p count more bytes are available.
    void Need(size_t count, const char* field) const
    {
        if (Remaining() < count)
        {
            DecodeFail("truncated input: ",
                       field,
                       " needs ",
                       count,
                       " bytes at offset ",
                       m_pos,
                       " but only ",
                       Remaining(),
                       " remain");
        }
    }

    uint8_t U8(const char* field)
    {
        Need(1, field);
        return m_data[m_pos++];
    }

    uint32_t U32(const char* field)
    {
        Need(4, field);
        const uint8_t* p = m_data + m_pos;
        m_pos += 4;
        return LoadU32(p);
    }

    uint64_t U64(const char* field)
    {
        Need(8, field);
        const uint8_t* p = m_data + m_pos;
        m_pos += 8;
        return uint64_t{LoadU32(p)} | (uint64_t{LoadU32(p + 4)} << 32);
    }

    /// Skip @p count bytes (already checked by the caller) and return where they start.
    const uint8_t* Skip(size_t count)
    {
        const uint8_t* p = m_data + m_pos;
        m_pos += count;
        return p;
    }

    /**
     * Check that exactly @p count float32 values remain (nothing missing, nothing trailing) and
     * point @p values at them.
     */
    void Values(uint64_t count, PayloadValues& values, const char* form)
    {
        // count <= 2^32 - 1, so 4 * count cannot overflow 64 bits.
        const uint64_t needed = count * kValueBytes;
        if (Remaining() < needed)
        {
            DecodeFail("truncated input: ",
                       form,
                       " payload needs ",
                       needed,
                       " value bytes for ",
                       count,
                       " values at offset ",
                       m_pos,
                       " but only ",
                       Remaining(),
                       " remain");
        }
        if (Remaining() > needed)
        {
            DecodeFail("trailing bytes: ",
                       form,
                       " payload ends after ",
                       needed,
                       " value bytes at offset ",
                       m_pos + needed,
                       " but the input has ",
                       Remaining() - needed,
                       " more bytes");
        }
        values = PayloadValues(Skip(static_cast<size_t>(needed)), static_cast<size_t>(count));
    }

    /// Throw unless the whole input has been consumed.
    void ExpectEnd(const char* after) const
    {
        if (Remaining() != 0)
        {
            DecodeFail(
                "trailing bytes: ", Remaining(), " bytes after ", after, " at offset ", m_pos);
        }
    }

  private:
    static uint32_t LoadU32(const uint8_t* p)
    {
        return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16)
               | (uint32_t{p[3]} << 24);
    }

    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos;
};

// ---------------------------------------------------------------------------------------------
// Per-form encoders and decoders.

void
EncodeFull(const Payload& payload, EncodedPayload& out)
{
    if (payload.values.size() != payload.length)
    {
        EncodeFail("wrong value count: Full payload of length ",
                   payload.length,
                   " needs exactly ",
                   payload.length,
                   " values, got ",
                   payload.values.size());
    }
    out.bytes.reserve(kHeaderBytes + payload.values.size() * kValueBytes);
    PutU8(out.bytes, static_cast<uint8_t>(PayloadForm::Full));
    PutU32(out.bytes, payload.length);
    PutValues(out.bytes, payload.values);
    out.valueBytes = payload.values.size() * kValueBytes;
}

void
EncodeSparse(const Payload& payload, EncodedPayload& out)
{
    const std::vector<uint32_t>& indices = payload.indices;
    const size_t k = indices.size();
    if (payload.values.size() != k)
    {
        EncodeFail("wrong value count: Sparse payload has ",
                   k,
                   " indices but ",
                   payload.values.size(),
                   " values");
    }
    if (k > payload.length)
    {
        EncodeFail("count exceeds length: ", k, " indices for length ", payload.length);
    }

    // Validate and size the gap section in one pass, so the output is allocated exactly once.
    uint64_t gapBits = 0;
    for (size_t j = 0; j < k; ++j)
    {
        if (indices[j] >= payload.length)
        {
            EncodeFail("index out of range: indices[",
                       j,
                       "] = ",
                       indices[j],
                       " >= length ",
                       payload.length);
        }
        if (j > 0)
        {
            if (indices[j] <= indices[j - 1])
            {
                EncodeFail("indices not strictly increasing: indices[",
                           j - 1,
                           "] = ",
                           indices[j - 1],
                           ", indices[",
                           j,
                           "] = ",
                           indices[j]);
            }
            gapBits += EliasGammaBits(indices[j] - indices[j - 1]);
        }
    }
    // Gaps sum to less than 2^32, which bounds the section well below 2^32 bytes; checked anyway
    // because the size field is 32 bits.
    const uint64_t gapBytes = (gapBits + 7) / 8;
    if (gapBytes > std::numeric_limits<uint32_t>::max())
    {
        EncodeFail("gap section of ", gapBytes, " bytes does not fit its 32-bit size field");
    }

    const size_t valueBytes = k * kValueBytes;
    size_t total = kHeaderBytes + 4;
    if (k > 0)
    {
        total += kSparseFixedBytes + static_cast<size_t>(gapBytes) + valueBytes;
    }
    out.bytes.reserve(total);
    PutU8(out.bytes, static_cast<uint8_t>(PayloadForm::Sparse));
    PutU32(out.bytes, payload.length);
    PutU32(out.bytes, static_cast<uint32_t>(k));
    if (k > 0)
    {
        PutU32(out.bytes, indices[0]);
        PutU32(out.bytes, static_cast<uint32_t>(gapBytes));
        BitWriter writer(out.bytes);
        for (size_t j = 1; j < k; ++j)
        {
            writer.WriteEliasGamma(indices[j] - indices[j - 1]);
        }
        writer.Flush();
        PutValues(out.bytes, payload.values);
    }
    out.valueBytes = valueBytes;
}

void
EncodeRandomMask(const Payload& payload, EncodedPayload& out)
{
    if (payload.values.size() > payload.length)
    {
        EncodeFail("count exceeds length: RandomMask payload has ",
                   payload.values.size(),
                   " values for length ",
                   payload.length);
    }
    if (!AlphaValid(payload.alpha))
    {
        EncodeFail("alpha ", payload.alpha, " is not in [0, 1]");
    }
    out.bytes.reserve(kHeaderBytes + kMaskFixedBytes + payload.values.size() * kValueBytes);
    PutU8(out.bytes, static_cast<uint8_t>(PayloadForm::RandomMask));
    PutU32(out.bytes, payload.length);
    PutU64(out.bytes, payload.seed);
    PutU32(out.bytes, FloatBits(payload.alpha));
    PutU32(out.bytes, static_cast<uint32_t>(payload.values.size()));
    PutValues(out.bytes, payload.values);
    out.valueBytes = payload.values.size() * kValueBytes;
}

void
DecodeSparse(Cursor& in, PayloadInPlace& decoded)
{
    Payload& payload = decoded.payload;
    const uint32_t k = in.U32("Sparse count");
    if (k > payload.length)
    {
        DecodeFail("count exceeds length: Sparse count ", k, " > length ", payload.length);
    }
    if (k == 0)
    {
        in.ExpectEnd("an empty Sparse payload");
        return;
    }
    const uint32_t first = in.U32("Sparse first index");
    if (first >= payload.length)
    {
        DecodeFail("index out of range: first index ", first, " >= length ", payload.length);
    }
    const uint32_t gapBytes = in.U32("Sparse gap section size");
    in.Need(gapBytes, "Sparse gap section");
    const size_t gapOffset = in.Position();
    const uint8_t* gapData = in.Skip(gapBytes);

    // Every code is at least one bit: reject an impossible count before doing any work.
    const uint64_t gaps = uint64_t{k} - 1;
    if (gaps > uint64_t{gapBytes} * 8)
    {
        DecodeFail("Elias-gamma codes run past the gap section: ",
                   gaps,
                   " gaps cannot fit in ",
                   gapBytes,
                   " bytes");
    }

    // Checks the value section (and thereby bounds k by the input size) before allocating indices.
    in.Values(k, decoded.values, "Sparse");

    payload.indices.resize(k);
    payload.indices[0] = first;
    BitReader reader(gapData, gapBytes);
    // 64-bit running index: a gap that would wrap a 32-bit index is caught as out of range
    // instead of silently producing a smaller (non-increasing) index.
    uint64_t index = first;
    uint32_t* out = payload.indices.data();
    for (uint32_t j = 1; j < k;)
    {
        // Runs of codes decode in registers, into the places their indices go; a run stops at a
        // code near the section's end or one that is not valid, which the careful read takes.
        uint32_t got = reader.ReadEliasGammaRun(out + j, k - j);
        if (got == 0)
        {
            switch (reader.ReadEliasGamma(out[j]))
            {
                case BitReader::GammaStatus::Ok:
                    break;
                case BitReader::GammaStatus::Exhausted:
                    DecodeFail("Elias-gamma code of gap ",
                               j,
                               " runs past the gap section (",
                               gapBytes,
                               " bytes at offset ",
                               gapOffset,
                               ")");
                case BitReader::GammaStatus::TooManyZeros:
                    DecodeFail("Elias-gamma code of gap ",
                               j,
                               " has too many leading zeros (more than ",
                               BitReader::kMaxGammaZeros,
                               "): a gap must fit in 32 bits");
            }
            got = 1;
        }
        for (const uint32_t end = j + got; j < end; ++j)
        {
            const uint32_t gap = out[j];
            // Elias-gamma cannot code 0, so this is a guard against future format changes.
            if (gap == 0)
            {
                DecodeFail("non-increasing indices: gap ", j, " is 0");
            }
            index += gap;
            if (index >= payload.length)
            {
                DecodeFail(
                    "index out of range: index ", j, " = ", index, " >= length ", payload.length);
            }
            out[j] = static_cast<uint32_t>(index);
        }
    }

    // The section must be exactly the codes plus zero padding, so each payload has one encoding.
    const uint64_t usedBytes = (reader.BitsConsumed() + 7) / 8;
    if (usedBytes != gapBytes)
    {
        DecodeFail("gap section size mismatch: declared ",
                   gapBytes,
                   " bytes but the ",
                   gaps,
                   " Elias-gamma codes use ",
                   usedBytes,
                   " bytes");
    }
    uint32_t padding = 0;
    const auto paddingBits = static_cast<unsigned>(reader.BitsRemaining()); // < 8 here
    if (!reader.ReadBits(paddingBits, padding) || padding != 0)
    {
        DecodeFail("non-zero padding bits at the end of the gap section");
    }
}

void
DecodeRandomMask(Cursor& in, PayloadInPlace& decoded)
{
    Payload& payload = decoded.payload;
    payload.seed = in.U64("RandomMask seed");
    payload.alpha = BitsToFloat(in.U32("RandomMask alpha"));
    if (!AlphaValid(payload.alpha))
    {
        DecodeFail("alpha ", payload.alpha, " is not in [0, 1]");
    }
    const uint32_t count = in.U32("RandomMask count");
    if (count > payload.length)
    {
        DecodeFail("count exceeds length: RandomMask count ", count, " > length ", payload.length);
    }
    in.Values(count, decoded.values, "RandomMask");
}

} // namespace

EncodedPayload
EncodePayload(const Payload& payload)
{
    if (payload.form != PayloadForm::Sparse && !payload.indices.empty())
    {
        EncodeFail("indices given for a payload form that has none (form ",
                   static_cast<unsigned>(payload.form),
                   ")");
    }
    if (payload.scalars.size() > kMaxScalars)
    {
        EncodeFail("too many scalars: ", payload.scalars.size(), " (at most ", kMaxScalars, ")");
    }
    EncodedPayload out;
    switch (payload.form)
    {
        case PayloadForm::Full:
            EncodeFull(payload, out);
            break;
        case PayloadForm::Sparse:
            EncodeSparse(payload, out);
            break;
        case PayloadForm::RandomMask:
            EncodeRandomMask(payload, out);
            break;
        default:
            EncodeFail("unknown payload form ", static_cast<unsigned>(payload.form));
    }
    if (!payload.scalars.empty())
    {
        // Flag them in the form byte and put them right after the length, so that every form
        // still ends with its values.
        std::vector<uint8_t> extra;
        PutU8(extra, static_cast<uint8_t>(payload.scalars.size()));
        for (double v : payload.scalars)
        {
            uint64_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            PutU64(extra, bits);
        }
        out.bytes[0] |= kScalarsFlag;
        out.bytes.insert(out.bytes.begin() + kHeaderBytes, extra.begin(), extra.end());
    }
    return out;
}

std::vector<float>
PayloadValues::ToVector() const
{
    std::vector<float> values(m_count);
    for (size_t n = 0; n < m_count; ++n)
    {
        values[n] = (*this)[n];
    }
    return values;
}

Payload
DecodePayload(const uint8_t* data, size_t size)
{
    PayloadInPlace decoded = DecodePayloadInPlace(data, size);
    decoded.payload.values = decoded.values.ToVector();
    return std::move(decoded.payload);
}

PayloadInPlace
DecodePayloadInPlace(const uint8_t* data, size_t size)
{
    if (data == nullptr && size != 0)
    {
        DecodeFail("null data with non-zero size ", size);
    }
    Cursor in(data, size);
    PayloadInPlace decoded;
    Payload& payload = decoded.payload;
    uint8_t form = in.U8("form");
    const bool hasScalars = (form & kScalarsFlag) != 0;
    form &= static_cast<uint8_t>(~kScalarsFlag);
    if (form != static_cast<uint8_t>(PayloadForm::Full)
        && form != static_cast<uint8_t>(PayloadForm::Sparse)
        && form != static_cast<uint8_t>(PayloadForm::RandomMask))
    {
        DecodeFail("unknown payload form ", static_cast<unsigned>(form));
    }
    payload.form = static_cast<PayloadForm>(form);
    payload.length = in.U32("length");
    if (hasScalars)
    {
        const uint8_t count = in.U8("scalar count");
        if (count == 0)
        {
            DecodeFail("scalar flag set but no scalars follow");
        }
        payload.scalars.resize(count);
        for (double& v : payload.scalars)
        {
            uint64_t bits = in.U64("scalar");
            std::memcpy(&v, &bits, sizeof v);
        }
    }

    switch (payload.form)
    {
        case PayloadForm::Full:
            in.Values(payload.length, decoded.values, "Full");
            break;
        case PayloadForm::Sparse:
            DecodeSparse(in, decoded);
            break;
        case PayloadForm::RandomMask:
            DecodeRandomMask(in, decoded);
            break;
    }
    return decoded;
}

} // namespace dlsim
