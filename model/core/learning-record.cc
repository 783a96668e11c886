// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learning-record.h"

#include "user-file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <zlib.h>

namespace dlsim
{

namespace
{

/// The file starts with these 8 bytes, then the version.
constexpr char kMagic[8] = {'D', 'L', 'S', 'I', 'M', 'R', 'E', 'C'};
/// Raised whenever the content's layout changes: a newer file is refused by name.
constexpr uint32_t kVersion = 2;
/// The oldest layout still read: version 1 has no resolved values (a replay resolves them).
constexpr uint32_t kOldestVersion = 1;
/// zlib's deflate shrinks data by at most about 1032 to 1: a larger claimed ratio is damage.
constexpr uint64_t kMaxInflation = 1032;
/// magic, version, content length, CRC-32, compressed length.
constexpr size_t kHeaderBytes = 8 + 4 + 8 + 4 + 8;
/// No recording of a run dlsim can hold in memory comes near this; a larger length is damage.
constexpr uint64_t kMaxContentBytes = uint64_t{1} << 32;

/// Little-endian, whatever the host: a recording moves between machines.
class Writer
{
  public:
    /// An unsigned number of sizeof(T) bytes, least significant first.
    template<typename T>
    void Put(T v)
    {
        for (size_t i = 0; i < sizeof(T); ++i)
        {
            m_bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
        }
    }

    void U8(uint8_t v)
    {
        Put(v);
    }

    void U32(uint32_t v)
    {
        Put(v);
    }

    void U64(uint64_t v)
    {
        Put(v);
    }

    void F64(double v)
    {
        uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits); // the exact bits: a replay prints the same digits
        U64(bits);
    }

    void Text(const std::string& s)
    {
        U64(s.size());
        m_bytes.insert(m_bytes.end(), s.begin(), s.end());
    }

    std::vector<uint8_t>& Bytes()
    {
        return m_bytes;
    }

  private:
    std::vector<uint8_t> m_bytes;
};

/// Reads what Writer wrote; every count is checked against the bytes left before it is used.
class Reader
{
  public:
    Reader(const uint8_t* data, size_t size, std::string path)
        : m_data(data), m_size(size), m_path(std::move(path))
    {}

    /// An unsigned number of sizeof(T) bytes, least significant first.
    template<typename T>
    T Get(const char* what)
    {
        Need(sizeof(T), what);
        T v = 0;
        for (size_t i = 0; i < sizeof(T); ++i)
        {
            v |= static_cast<T>(static_cast<T>(m_data[m_at++]) << (8 * i));
        }
        return v;
    }

    uint8_t U8()
    {
        return Get<uint8_t>("a byte");
    }

    uint32_t U32()
    {
        return Get<uint32_t>("a 32-bit number");
    }

    uint64_t U64()
    {
        return Get<uint64_t>("a 64-bit number");
    }

    double F64()
    {
        const uint64_t bits = U64();
        double v = 0.0;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }

    std::string Text()
    {
        const uint64_t n = U64();
        Need(n, "a text");
        std::string s(reinterpret_cast<const char*>(m_data + m_at), n);
        m_at += n;
        return s;
    }

    /// A count of items of at least `itemBytes` each: never more than the bytes left hold.
    uint64_t Count(size_t itemBytes, const char* what)
    {
        const uint64_t n = U64();
        if (n > (m_size - m_at) / itemBytes)
        {
            Fail(std::string("it claims ") + std::to_string(n) + " " + what
                 + ", more than the file holds");
        }
        return n;
    }

    bool AtEnd() const
    {
        return m_at == m_size;
    }

    [[noreturn]] void Fail(const std::string& why) const
    {
        throw LearningRecordError("learning recording " + m_path + " is damaged: " + why);
    }

  private:
    void Need(uint64_t n, const char* what) const
    {
        if (n > m_size - m_at)
        {
            Fail(std::string("it ends in the middle of ") + what);
        }
    }

    const uint8_t* m_data;
    size_t m_size;
    size_t m_at = 0;
    std::string m_path;
};

/// Bytes per recorded round and evaluation: what Count checks against.
constexpr size_t kRoundBytes = 1 + 8 + 8 + 8;
constexpr size_t kEvaluationBytes = 4 + 8 + 8;
constexpr size_t kNodeBytes = 8 + 4 + 1 + 1 + 8 + 8;

std::vector<uint8_t>
Encode(const LearningRecord& record)
{
    Writer w;
    w.Text(record.learning);
    w.U64(record.resolved.size());
    for (const auto& [key, value] : record.resolved)
    {
        w.Text(key);
        w.Text(value);
    }
    w.U64(record.nodes.size());
    for (const RecordedNode& node : record.nodes)
    {
        w.U64(static_cast<uint64_t>(node.computeTimeNs));
        w.U32(node.trainingRounds);
        w.U8(node.receipt == PartialReceipt::EveryMessage ? 1 : 0);
        w.U8(node.directed ? 1 : 0);
        w.U64(node.rounds.size());
        for (const RecordedRound& round : node.rounds)
        {
            w.U8(round.trains ? 1 : 0);
            w.F64(round.trainLoss);
            w.U64(round.payloadBytes);
            w.U64(round.valueBytes);
        }
        w.U64(node.evaluations.size());
        for (const RecordedEvaluation& evaluation : node.evaluations)
        {
            w.U32(evaluation.round);
            w.F64(evaluation.accuracy);
            w.F64(evaluation.loss);
        }
    }
    return std::move(w.Bytes());
}

LearningRecord
Decode(Reader& r, uint32_t version)
{
    LearningRecord record;
    record.learning = r.Text();
    // Each entry is two texts of at least their 8-byte lengths.
    for (uint64_t n = version >= 2 ? r.Count(16, "resolved values") : 0; n > 0; --n)
    {
        std::string key = r.Text();
        record.resolved[key] = r.Text();
    }
    const uint64_t nodes = r.Count(kNodeBytes, "nodes");
    record.nodes.resize(nodes);
    for (RecordedNode& node : record.nodes)
    {
        node.computeTimeNs = static_cast<int64_t>(r.U64());
        node.trainingRounds = r.U32();
        const uint8_t receipt = r.U8();
        const uint8_t directed = r.U8();
        if (receipt > 1 || directed > 1 || node.computeTimeNs < 0)
        {
            r.Fail("a node's header holds values no recording has");
        }
        node.receipt = receipt == 1 ? PartialReceipt::EveryMessage : PartialReceipt::LatestModel;
        node.directed = directed == 1;
        node.rounds.resize(r.Count(kRoundBytes, "rounds"));
        for (RecordedRound& round : node.rounds)
        {
            const uint8_t trains = r.U8();
            if (trains > 1)
            {
                r.Fail("a round's flag is neither 0 nor 1");
            }
            round.trains = trains == 1;
            round.trainLoss = r.F64();
            round.payloadBytes = r.U64();
            round.valueBytes = r.U64();
            if (round.valueBytes > round.payloadBytes)
            {
                r.Fail("a round has more value bytes than payload bytes");
            }
        }
        node.evaluations.resize(r.Count(kEvaluationBytes, "evaluations"));
        for (RecordedEvaluation& evaluation : node.evaluations)
        {
            evaluation.round = r.U32();
            evaluation.accuracy = r.F64();
            evaluation.loss = r.F64();
        }
    }
    if (!r.AtEnd())
    {
        r.Fail("bytes follow its last node");
    }
    return record;
}

} // namespace

void
WriteLearningRecord(const std::string& path, const LearningRecord& record)
{
    const std::vector<uint8_t> content = Encode(record);
    uLongf packedSize = compressBound(content.size());
    std::vector<uint8_t> packed(packedSize);
    if (compress2(packed.data(), &packedSize, content.data(), content.size(), Z_BEST_SPEED) != Z_OK)
    {
        throw LearningRecordWriteError("cannot compress the learning recording " + path);
    }
    packed.resize(packedSize);
    Writer header;
    for (char c : kMagic)
    {
        header.U8(static_cast<uint8_t>(c));
    }
    header.U32(kVersion);
    header.U64(content.size());
    header.U32(static_cast<uint32_t>(crc32(0L, content.data(), content.size())));
    header.U64(packed.size());
    const std::string partial = path + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(header.Bytes().data()),
                  static_cast<std::streamsize>(header.Bytes().size()));
        out.write(reinterpret_cast<const char*>(packed.data()),
                  static_cast<std::streamsize>(packed.size()));
        out.close();
        if (!out)
        {
            const std::string why = std::strerror(errno);
            std::remove(partial.c_str());
            throw LearningRecordWriteError("cannot write the learning recording " + path + ": "
                                           + why);
        }
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0)
    {
        const std::string why = std::strerror(errno);
        std::remove(partial.c_str());
        throw LearningRecordWriteError("cannot write the learning recording " + path + ": " + why);
    }
}

LearningRecord
ReadLearningRecord(const std::string& path)
{
    if (const std::string why = UnreadableFileReason(path); !why.empty())
    {
        throw LearningRecordError("cannot read the learning recording " + path + ": " + why);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw LearningRecordError("cannot read the learning recording " + path + ": "
                                  + std::strerror(errno));
    }
    std::vector<uint8_t> header(kHeaderBytes);
    in.read(reinterpret_cast<char*>(header.data()), static_cast<std::streamsize>(kHeaderBytes));
    if (static_cast<size_t>(in.gcount()) < kHeaderBytes
        || std::memcmp(header.data(), kMagic, sizeof kMagic) != 0)
    {
        throw LearningRecordError(path + " is not a dlsim learning recording");
    }
    Reader h(header.data() + sizeof kMagic, kHeaderBytes - sizeof kMagic, path);
    const uint32_t version = h.U32();
    if (version < kOldestVersion || version > kVersion)
    {
        throw LearningRecordError("learning recording " + path + " has format version "
                                  + std::to_string(version) + "; this dlsim reads versions "
                                  + std::to_string(kOldestVersion) + " to "
                                  + std::to_string(kVersion) + " (record the run again)");
    }
    const uint64_t contentSize = h.U64();
    const uint32_t crc = h.U32();
    const uint64_t packedSize = h.U64();
    // Checked against the file before anything is allocated: a damaged header must not ask
    // for gigabytes.
    in.seekg(0, std::ios::end);
    const auto fileSize = static_cast<uint64_t>(in.tellg());
    in.seekg(static_cast<std::streamoff>(kHeaderBytes));
    if (contentSize > kMaxContentBytes || packedSize != fileSize - kHeaderBytes
        || contentSize > packedSize * kMaxInflation)
    {
        h.Fail("its sizes are not those of its file");
    }
    std::vector<uint8_t> packed(packedSize);
    in.read(reinterpret_cast<char*>(packed.data()), static_cast<std::streamsize>(packedSize));
    if (static_cast<uint64_t>(in.gcount()) != packedSize || in.peek() != EOF)
    {
        h.Fail("its length is not the one its header gives");
    }
    std::vector<uint8_t> content(contentSize);
    uLongf unpacked = contentSize;
    if (uncompress(content.data(), &unpacked, packed.data(), packed.size()) != Z_OK
        || unpacked != contentSize
        || static_cast<uint32_t>(crc32(0L, content.data(), content.size())) != crc)
    {
        h.Fail("its content does not match its checksum");
    }
    Reader r(content.data(), content.size(), path);
    return Decode(r, version);
}

} // namespace dlsim
