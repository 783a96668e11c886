// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the learning recording a replay reads: it comes back exactly as written, and a
 * damaged, truncated or foreign file is refused by name, never trusted.
 */
#include "learning-record.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <limits>
#include <unistd.h>
#include <zlib.h>

namespace dlsim
{
namespace
{

namespace fs = std::filesystem;

LearningRecord
SomeRecord()
{
    LearningRecord record;
    record.learning = "algorithm = scsp\nlr = 0.01\n";
    record.resolved = {{"choco.gamma", "0.0123456789012"}, {"sparse-push.eta", "1"}};
    for (uint32_t i = 0; i < 3; ++i)
    {
        RecordedNode node;
        node.computeTimeNs = 1234567 + i;
        node.trainingRounds = 2;
        node.receipt = i == 1 ? PartialReceipt::EveryMessage : PartialReceipt::LatestModel;
        node.directed = i == 2;
        for (uint32_t r = 0; r < 3; ++r)
        {
            RecordedRound round;
            round.trains = r < 2;
            // Losses that print differently at the last digit, and a NaN: bits, not text.
            round.trainLoss
                = r < 2 ? 0.1 + 1e-17 * r + i : std::numeric_limits<double>::quiet_NaN();
            round.payloadBytes = 1000 + r;
            round.valueBytes = 800 + r;
            node.rounds.push_back(round);
        }
        node.evaluations = {{0, 0.1, 2.3}, {2, 1.0 / 3.0, 1.5 + i}};
        record.nodes.push_back(node);
    }
    return record;
}

std::string
TempFile(const std::string& name)
{
    return (fs::temp_directory_path() / ("dlsim-" + name + "-" + std::to_string(getpid())))
        .string();
}

std::vector<char>
Bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void
Write(const std::string& path, const std::vector<char>& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(LearningRecord, ComesBackBitForBit)
{
    const std::string path = TempFile("record");
    const LearningRecord written = SomeRecord();
    WriteLearningRecord(path, written);
    EXPECT_FALSE(fs::exists(path + ".partial"));
    const LearningRecord read = ReadLearningRecord(path);
    EXPECT_EQ(read.learning, written.learning);
    EXPECT_EQ(read.resolved, written.resolved);
    ASSERT_EQ(read.nodes.size(), written.nodes.size());
    for (size_t i = 0; i < read.nodes.size(); ++i)
    {
        const RecordedNode& a = read.nodes[i];
        const RecordedNode& b = written.nodes[i];
        EXPECT_EQ(a.computeTimeNs, b.computeTimeNs);
        EXPECT_EQ(a.trainingRounds, b.trainingRounds);
        EXPECT_EQ(a.receipt, b.receipt);
        EXPECT_EQ(a.directed, b.directed);
        ASSERT_EQ(a.rounds.size(), b.rounds.size());
        for (size_t r = 0; r < a.rounds.size(); ++r)
        {
            EXPECT_EQ(a.rounds[r].trains, b.rounds[r].trains);
            EXPECT_EQ(std::memcmp(&a.rounds[r].trainLoss, &b.rounds[r].trainLoss, sizeof(double)),
                      0);
            EXPECT_EQ(a.rounds[r].payloadBytes, b.rounds[r].payloadBytes);
            EXPECT_EQ(a.rounds[r].valueBytes, b.rounds[r].valueBytes);
        }
        ASSERT_EQ(a.evaluations.size(), b.evaluations.size());
        for (size_t e = 0; e < a.evaluations.size(); ++e)
        {
            EXPECT_EQ(a.evaluations[e].round, b.evaluations[e].round);
            EXPECT_EQ(a.evaluations[e].accuracy, b.evaluations[e].accuracy);
            EXPECT_EQ(a.evaluations[e].loss, b.evaluations[e].loss);
        }
    }
    std::remove(path.c_str());
}

/**
 * Every truncation and every flipped byte of a recording is refused with the file's name, or,
 * where the flip only touched the unused bits that pad the compressed stream's last byte, reads
 * back exactly what was written (written again, it gives the original file).
 */
TEST(LearningRecord, RefusesEveryTruncationAndFlippedByte)
{
    const std::string good = TempFile("record-good");
    const std::string bad = TempFile("record-bad");
    const std::string again = TempFile("record-again");
    WriteLearningRecord(good, SomeRecord());
    const std::vector<char> bytes = Bytes(good);
    ASSERT_GT(bytes.size(), 40u);
    size_t readBack = 0;
    auto refused = [&](const std::vector<char>& content, const std::string& what)
    {
        Write(bad, content);
        try
        {
            WriteLearningRecord(again, ReadLearningRecord(bad));
            EXPECT_EQ(Bytes(again), bytes) << what << " was read as something else";
            ++readBack;
        }
        catch (const LearningRecordError& e)
        {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    };
    for (size_t n = 0; n < bytes.size(); ++n)
    {
        refused(std::vector<char>(bytes.begin(), bytes.begin() + n), "a truncation");
    }
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        std::vector<char> flipped = bytes;
        flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
        refused(flipped, "byte " + std::to_string(i) + " flipped");
    }
    std::vector<char> longer = bytes;
    longer.push_back('x');
    refused(longer, "a trailing byte");
    EXPECT_LE(readBack, 1u) << "only the padding of the compressed stream's last byte is free";
    std::remove(good.c_str());
    std::remove(bad.c_str());
    std::remove(again.c_str());
}

TEST(LearningRecord, NamesAnotherVersionAndAMissingFile)
{
    const std::string path = TempFile("record-version");
    WriteLearningRecord(path, SomeRecord());
    std::vector<char> bytes = Bytes(path);
    bytes[8] = 7; // the version, little-endian, after the 8-byte magic
    Write(path, bytes);
    try
    {
        ReadLearningRecord(path);
        ADD_FAILURE() << "another version was read";
    }
    catch (const LearningRecordError& e)
    {
        EXPECT_NE(std::string(e.what()).find("format version 7"), std::string::npos) << e.what();
    }
    std::remove(path.c_str());
    EXPECT_THROW(ReadLearningRecord(path), LearningRecordError);
}

/// A recording that cannot be written is the run's failure (dlsim-run exits 1), not bad input
/// (a LearningRecordError, exit 2): its error is another type, and names the file and why.
TEST(LearningRecord, AWriteThatFailsIsNoInputError)
{
    const std::string path = TempFile("record-write") + "-missing/learning.rec";
    try
    {
        WriteLearningRecord(path, SomeRecord());
        ADD_FAILURE() << "a recording was written into a folder that does not exist";
    }
    catch (const LearningRecordError& e)
    {
        ADD_FAILURE() << "a failed write reads as bad input: " << e.what();
    }
    catch (const LearningRecordWriteError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "cannot write the learning recording " + path + ": No such file or directory");
    }
    EXPECT_FALSE(fs::exists(path + ".partial"));
}

/// Little-endian fields of the file's header (after the 8-byte magic), as the format gives them.
template<typename T>
void
PutField(std::vector<char>& bytes, size_t at, T value)
{
    for (size_t i = 0; i < sizeof(T); ++i)
    {
        bytes[at + i] = static_cast<char>(static_cast<uint64_t>(value) >> (8 * i));
    }
}

/// A recording of format version 1 (no resolved values) is still read; a replay resolves them.
TEST(LearningRecord, ReadsTheFirstFormatWithoutResolvedValues)
{
    const std::string path = TempFile("record-v1");
    LearningRecord written = SomeRecord();
    written.resolved.clear();
    WriteLearningRecord(path, written);
    // Version 2's content with no resolved values is version 1's with an 8-byte count of zero
    // after the learning text: take it out, compress again, and write version 1's header.
    const std::vector<char> file = Bytes(path);
    const size_t header = 8 + 4 + 8 + 4 + 8;
    uLongf contentSize = 1 << 20;
    std::vector<Bytef> content(contentSize);
    ASSERT_EQ(uncompress(content.data(),
                         &contentSize,
                         reinterpret_cast<const Bytef*>(file.data() + header),
                         file.size() - header),
              Z_OK);
    content.resize(contentSize);
    const size_t count = 8 + written.learning.size();
    ASSERT_EQ(std::vector<Bytef>(content.begin() + count, content.begin() + count + 8),
              std::vector<Bytef>(8, 0));
    content.erase(content.begin() + count, content.begin() + count + 8);
    uLongf packedSize = compressBound(content.size());
    std::vector<Bytef> packed(packedSize);
    ASSERT_EQ(compress(packed.data(), &packedSize, content.data(), content.size()), Z_OK);
    std::vector<char> v1(file.begin(), file.begin() + header);
    PutField<uint32_t>(v1, 8, 1);
    PutField<uint64_t>(v1, 12, content.size());
    PutField<uint32_t>(v1, 20, crc32(0L, content.data(), content.size()));
    PutField<uint64_t>(v1, 24, packedSize);
    v1.insert(v1.end(), packed.begin(), packed.begin() + packedSize);
    Write(path, v1);
    const LearningRecord read = ReadLearningRecord(path);
    EXPECT_EQ(read.learning, written.learning);
    EXPECT_TRUE(read.resolved.empty());
    ASSERT_EQ(read.nodes.size(), written.nodes.size());
    EXPECT_EQ(read.nodes[2].rounds[1].payloadBytes, written.nodes[2].rounds[1].payloadBytes);
    std::remove(path.c_str());
}

/// A header that claims more than its file holds is refused before anything that size is made.
TEST(LearningRecord, RefusesSizesItsFileDoesNotHave)
{
    const std::string path = TempFile("record-sizes");
    WriteLearningRecord(path, SomeRecord());
    const std::vector<char> good = Bytes(path);
    for (const auto& [at, value] : {std::pair<size_t, uint64_t>{12, uint64_t{1} << 40},
                                    std::pair<size_t, uint64_t>{12, uint64_t{3} << 30},
                                    std::pair<size_t, uint64_t>{24, uint64_t{3} << 30}})
    {
        std::vector<char> bytes = good;
        PutField<uint64_t>(bytes, at, value);
        Write(path, bytes);
        try
        {
            ReadLearningRecord(path);
            ADD_FAILURE() << "a size of " << value << " at byte " << at << " was read";
        }
        catch (const LearningRecordError& e)
        {
            EXPECT_NE(std::string(e.what()).find("sizes are not those of its file"),
                      std::string::npos)
                << e.what();
        }
    }
    std::remove(path.c_str());
}

} // namespace
} // namespace dlsim
