// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: hostile input for every file parser. Each parser is fed a valid file cut at every
 * length, thousands of deterministic random corruptions of it, and hand-picked extreme values
 * (huge counts, negative numbers, 2^32 + 1, 1e308, NaN, empty files, binary garbage, very long
 * lines). Every call must either succeed with a sane result or throw the parser's own error type:
 * never crash, abort, read out of bounds (the ASan build checks that) or allocate what a file
 * header merely claims.
 */
#include "csv-rows.h"
#include "dataset.h"
#include "idx-reader.h"
#include "link-model.h"
#include "overlay-graph.h"
#include "random-variable-spec.h"
#include "rate-trace.h"
#include "region-model.h"
#include "scenario-config.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iostream>
#include <random>
#include <string>
#include <sys/resource.h>
#include <typeinfo>
#include <unistd.h>
#include <vector>
#include <zlib.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/// Random corruptions per parser (and per file format); the seeds are fixed, so every run feeds
/// the same inputs.
constexpr int kCorruptions = 1500;

/// A directory of its own for this process's files, removed when the test ends.
class ScratchDir
{
  public:
    explicit ScratchDir(const std::string& name)
    {
        m_path = (std::filesystem::temp_directory_path()
                  / ("dlsim-parser-fuzz-" + std::to_string(getpid()) + "-" + name))
                     .string();
        std::filesystem::create_directories(m_path);
    }

    ~ScratchDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }

    std::string File(const std::string& name) const
    {
        return m_path + "/" + name;
    }

  private:
    std::string m_path;
};

void
WriteBytes(const std::string& path, const std::string& bytes, bool gzip = false)
{
    // Removed first rather than truncated: some file systems (ext4) write a file that was
    // truncated and rewritten to disk on close, and thousands of rewrites would wait for it.
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (gzip)
    {
        gzFile f = gzopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr) << path;
        if (!bytes.empty())
        {
            ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())),
                      static_cast<int>(bytes.size()));
        }
        gzclose(f);
        return;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good()) << path;
}

/// The bytes as gzip would store them, so that the compressed stream itself can be corrupted.
std::string
Gzipped(const std::string& bytes, const std::string& scratchPath)
{
    WriteBytes(scratchPath, bytes, true);
    std::ifstream in(scratchPath, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Bytes made printable for failure messages, and cut short.
std::string
Printable(const std::string& bytes)
{
    std::string out;
    for (unsigned char c : bytes.substr(0, 160))
    {
        if (c >= 0x20 && c < 0x7f && c != '\\')
        {
            out.push_back(static_cast<char>(c));
        }
        else
        {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        }
    }
    return out + (bytes.size() > 160 ? "..." : "");
}

/**
 * One parser: how to run it on a file, which error type it documents, and a check of what it
 * returns when it accepts the file.
 */
struct Parser
{
    std::string name;
    std::function<void(const std::string& path)> run; ///< throws or checks its own result
    std::function<bool(const std::exception&)> isOwnError;
};

template<typename Error>
std::function<bool(const std::exception&)>
ErrorType()
{
    return [](const std::exception& e)
    {
        return dynamic_cast<const Error*>(&e) != nullptr;
    };
}

/// Runs the parser once; records a failure unless it succeeds or throws its own error type.
/// Returns whether the parser accepted the file.
bool
ExpectCleanOutcome(const Parser& parser, const std::string& path, const std::string& input)
{
    try
    {
        parser.run(path);
        return true;
    }
    catch (const std::exception& e)
    {
        if (!parser.isOwnError(e))
        {
            ADD_FAILURE() << parser.name << ": threw " << typeid(e).name()
                          << " instead of its own error: " << e.what()
                          << "\n  input: " << Printable(input);
        }
    }
    catch (...)
    {
        ADD_FAILURE() << parser.name << ": threw something that is not a std::exception"
                      << "\n  input: " << Printable(input);
    }
    return false;
}

/// The valid file cut after every length from 0 to its size.
void
FeedTruncations(const Parser& parser, const std::string& path, const std::string& valid, bool gzip)
{
    for (size_t length = 0; length <= valid.size(); ++length)
    {
        std::string cut = valid.substr(0, length);
        WriteBytes(path, cut, gzip);
        ExpectCleanOutcome(parser, path, cut);
    }
}

/// Fragments that tend to reach the range checks rather than the syntax checks.
const std::vector<std::string>&
Tokens()
{
    static const std::vector<std::string> tokens = {
        "4294967297",
        "4294967296",
        "18446744073709551616",
        "99999999999999999999",
        "-1",
        "-0",
        "+5",
        "1e308",
        "1e309",
        "-1e308",
        "1e-400",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "0x10",
        "\n",
        ",",
        " ",
        "#",
        "[",
        "]",
        "=",
        "\r\n",
        std::string("\0", 1),
        "\xff\xff\xff\xff",
        std::string("\0\0\x08\x03", 4),
        "Gbps",
        "ms",
        "\xEF\xBB\xBF",
    };
    return tokens;
}

/// One to four random edits: a flipped bit, an overwritten, inserted or deleted byte or run,
/// or an inserted token.
std::string
Corrupt(const std::string& valid, std::mt19937& rng)
{
    std::string s = valid;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < edits; ++i)
    {
        size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
        switch (rng() % 6)
        {
            case 0:
                if (!s.empty())
                {
                    s[rng() % s.size()] ^= static_cast<char>(1u << (rng() % 8));
                }
                break;
            case 1:
                if (!s.empty())
                {
                    s[rng() % s.size()] = static_cast<char>(rng() % 256);
                }
                break;
            case 2:
                s.insert(at, 1, static_cast<char>(rng() % 256));
                break;
            case 3:
                if (!s.empty() && at < s.size())
                {
                    s.erase(at, 1 + rng() % std::min<size_t>(8, s.size() - at));
                }
                break;
            case 4:
                s.insert(at, Tokens()[rng() % Tokens().size()]);
                break;
            default:
                // Repeat a piece: long numbers, long lines, many lines.
                if (!s.empty() && at < s.size())
                {
                    std::string piece = s.substr(at, 1 + rng() % 16);
                    for (int r = static_cast<int>(rng() % 64); r >= 0; --r)
                    {
                        s.insert(at, piece);
                    }
                }
                break;
        }
    }
    return s;
}

/**
 * kCorruptions random corruptions of the valid file. For gzip, half corrupt the content (then
 * compressed) and half the compressed stream itself. Some corruptions are harmless (a changed
 * digit, a comment), so unless expectAccepted is false some must be accepted: otherwise the
 * corpus would only ever test the first syntax check.
 */
void
FeedCorruptions(const Parser& parser,
                const std::string& path,
                const std::string& valid,
                bool gzip,
                uint32_t seed,
                bool expectAccepted = true)
{
    std::mt19937 rng(seed);
    std::string compressed = gzip ? Gzipped(valid, path) : "";
    int accepted = 0;
    for (int i = 0; i < kCorruptions; ++i)
    {
        if (gzip && i % 2 == 1)
        {
            std::string bad = Corrupt(compressed, rng);
            WriteBytes(path, bad, false);
            accepted += ExpectCleanOutcome(parser, path, "(gzip stream) " + bad);
        }
        else
        {
            std::string bad = Corrupt(valid, rng);
            WriteBytes(path, bad, gzip);
            accepted += ExpectCleanOutcome(parser, path, bad);
        }
        if (::testing::Test::HasFailure() && i > 0 && i % 100 == 0)
        {
            return; // the failures so far tell the story; do not bury them
        }
    }
    std::cout << "[          ] " << parser.name << (gzip ? " (gzip)" : "") << ": accepted "
              << accepted << " of " << kCorruptions << " corruptions, rejected the rest\n";
    if (expectAccepted)
    {
        EXPECT_GT(accepted, 0) << parser.name << ": the corruptions never reach the success path";
    }
    EXPECT_LT(accepted, kCorruptions) << parser.name << ": accepted every corruption";
}

/// The message of the error `f` throws, which must be of type Error; "" (and a failure) if not.
template<typename Error>
std::string
ErrorOf(const std::function<void()>& f, const std::string& input)
{
    try
    {
        f();
    }
    catch (const Error& e)
    {
        return e.what();
    }
    catch (const std::exception& e)
    {
        ADD_FAILURE() << "threw " << typeid(e).name() << " (" << e.what()
                      << "), not the parser's own error\n  input: " << Printable(input);
        return "";
    }
    ADD_FAILURE() << "accepted a hostile input: " << Printable(input);
    return "";
}

/// The parser must reject `input` with a message containing every one of `expected`.
template<typename Error>
void
ExpectRejected(const std::function<void()>& f,
               const std::string& input,
               const std::vector<std::string>& expected)
{
    std::string message = ErrorOf<Error>(f, input);
    for (const auto& part : expected)
    {
        EXPECT_NE(message.find(part), std::string::npos)
            << "the message should name '" << part << "': " << message
            << "\n  input: " << Printable(input);
    }
}

/// Peak resident memory of this process so far, in MiB.
long
PeakMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

// ---------------------------------------------------------------------------------------------
// IDX files (images and labels, plain and gzipped)

std::string
Idx(const std::vector<uint32_t>& dims, const std::string& data)
{
    std::string bytes = {0, 0, 0x08, static_cast<char>(dims.size())};
    for (uint32_t d : dims)
    {
        for (int shift = 24; shift >= 0; shift -= 8)
        {
            bytes.push_back(static_cast<char>((d >> shift) & 0xff));
        }
    }
    return bytes + data;
}

std::string
ValidImages()
{
    std::string pixels;
    for (int i = 0; i < 3 * 4 * 5; ++i)
    {
        pixels.push_back(static_cast<char>(i * 4));
    }
    return Idx({3, 4, 5}, pixels);
}

std::string
ValidLabels()
{
    return Idx({3}, std::string("\x01\x09\x00", 3));
}

Parser
IdxParser()
{
    return {"ReadIdxFile",
            [](const std::string& path)
            {
                IdxArray a = ReadIdxFile(path);
                uint64_t count = 1;
                for (uint32_t d : a.dims)
                {
                    count *= d;
                }
                ASSERT_FALSE(a.dims.empty());
                ASSERT_EQ(a.data.size(), count) << "the data must match the dimensions";
            },
            ErrorType<DatasetError>()};
}

/// LoadFashionMnist on a directory whose train images are the file under test.
Parser
FashionMnistParser(const ScratchDir& dir)
{
    std::string directory = dir.File("fmnist");
    std::filesystem::create_directories(directory);
    WriteBytes(directory + "/train-labels-idx1-ubyte", ValidLabels());
    WriteBytes(directory + "/t10k-images-idx3-ubyte", ValidImages());
    WriteBytes(directory + "/t10k-labels-idx1-ubyte", ValidLabels());
    return {"LoadFashionMnist",
            [directory](const std::string&)
            {
                DatasetSplit split = LoadFashionMnist(directory);
                const Dataset& train = *split.train;
                ASSERT_EQ(train.images.size(), train.Size() * train.SampleSize());
                for (int64_t label : train.labels)
                {
                    ASSERT_LT(static_cast<uint64_t>(label), train.numClasses);
                }
            },
            ErrorType<DatasetError>()};
}

TEST(ParserFuzz, IdxTruncations)
{
    ScratchDir dir("idx-truncations");
    for (bool gzip : {false, true})
    {
        FeedTruncations(IdxParser(), dir.File("images"), ValidImages(), gzip);
        FeedTruncations(IdxParser(), dir.File("labels"), ValidLabels(), gzip);
    }
    Parser load = FashionMnistParser(dir);
    FeedTruncations(load, dir.File("fmnist/train-images-idx3-ubyte"), ValidImages(), false);
}

TEST(ParserFuzz, IdxCorruptions)
{
    ScratchDir dir("idx-corruptions");
    FeedCorruptions(IdxParser(), dir.File("images"), ValidImages(), false, 101);
    FeedCorruptions(IdxParser(), dir.File("images.gz"), ValidImages(), true, 102);
    FeedCorruptions(IdxParser(), dir.File("labels"), ValidLabels(), false, 103);
    FeedCorruptions(IdxParser(), dir.File("labels.gz"), ValidLabels(), true, 104);
    Parser load = FashionMnistParser(dir);
    FeedCorruptions(load, dir.File("fmnist/train-images-idx3-ubyte"), ValidImages(), false, 105);
}

TEST(ParserFuzz, IdxHeaderClaimsAreCheckedBeforeAllocating)
{
    ScratchDir dir("idx-extremes");
    // 16 bytes of header announcing four million 28 x 28 images, then 41 bytes: 57 in all.
    std::string liar = Idx({4000000, 28, 28}, std::string(41, '\x07'));
    ASSERT_EQ(liar.size(), 57u);
    for (bool gzip : {false, true})
    {
        std::string path = dir.File(gzip ? "liar.gz" : "liar");
        WriteBytes(path, liar, gzip);
        long before = PeakMiB();
        ExpectRejected<DatasetError>([&] { ReadIdxFile(path); },
                                     liar,
                                     {path, "truncated", "4000000 x 28 x 28", "3136000000", "41"});
        EXPECT_LT(PeakMiB() - before, 256)
            << "reading a 57-byte file must not allocate what its header claims (3 GB)";
    }
    // Dimensions whose product overflows 64 bits (2^21 * 2^21 * 2^22 = 2^64 wraps to 0), or is
    // merely huge.
    for (const auto& dims : std::vector<std::vector<uint32_t>>{{2097152, 2097152, 4194304},
                                                               {65536, 65536, 65536, 65536},
                                                               {0xffffffff, 0xffffffff},
                                                               {0xffffffff, 0xffffffff, 2, 2}})
    {
        std::string bytes = Idx(dims, "");
        std::string path = dir.File("huge");
        WriteBytes(path, bytes);
        ExpectRejected<DatasetError>(
            [&] { ReadIdxFile(path); }, bytes, {path, "impossible header", "4294967296"});
    }
    // A dimension of 0 makes an empty array, whatever the others say.
    {
        std::string path = dir.File("empty-array");
        WriteBytes(path, Idx({0xffffffff, 0}, ""));
        IdxArray a = ReadIdxFile(path);
        EXPECT_EQ(a.data.size(), 0u);
    }
    std::string path = dir.File("bad");
    auto expect = [&](const std::string& bytes, bool gzip, const std::vector<std::string>& parts)
    {
        WriteBytes(path, bytes, gzip);
        std::vector<std::string> all = parts;
        all.push_back(path);
        ExpectRejected<DatasetError>([&] { ReadIdxFile(path); }, bytes, all);
    };
    expect("", false, {"no header"});
    expect("", true, {"no header"});
    expect(std::string("\0\0\x08", 3), false, {"no header"});
    expect(std::string("\0\0\x08\x03\0\0", 6), false, {"inside its header"});
    expect(std::string("\0\0\x0d\x01\0\0\0\x01", 8), false, {"bad magic number"});
    expect(std::string("\0\0\x08\x05", 4), false, {"bad magic number"});
    expect("\x89PNG\r\n\x1a\n garbage \xff\xfe", false, {"bad magic number"});
    expect(Idx({2, 2}, "abcd") + "trailing", false, {"longer than its header says"});
    expect(Idx({2, 2}, "abcd") + "trailing", true, {"longer than its header says"});
    expect(Idx({2, 2}, "ab"), true, {"truncated", "decompressed it holds 2"});
    // A gzip stream whose CRC does not match its data.
    std::string stream = Gzipped(Idx({2, 2}, "abcd"), path);
    stream[stream.size() - 8] ^= 0x55;
    expect(stream, false, {"corrupt"});
    // A directory is not a file.
    ExpectRejected<DatasetError>([&] { ReadIdxFile(dir.File("")); }, "(a directory)", {"IDX"});
}

TEST(ParserFuzz, FashionMnistRejectsImpossibleShapes)
{
    ScratchDir dir("fmnist-shapes");
    Parser load = FashionMnistParser(dir);
    std::string images = dir.File("fmnist/train-images-idx3-ubyte");
    WriteBytes(images, Idx({3, 0, 5}, ""));
    ExpectRejected<DatasetError>([&] { load.run(images); }, "3 x 0 x 5 images", {images, "0 x 5"});
    WriteBytes(images, Idx({4, 2, 2}, std::string(16, 'x')));
    ExpectRejected<DatasetError>(
        [&] { load.run(images); }, "4 images, 3 labels", {"one label per image"});
    WriteBytes(images, Idx({3, 2, 2}, std::string(12, 'x')));
    WriteBytes(dir.File("fmnist/train-labels-idx1-ubyte"), Idx({3}, "\x01\x02\x0a"));
    ExpectRejected<DatasetError>([&] { load.run(images); }, "label 10", {"label 10"});
}

// ---------------------------------------------------------------------------------------------
// Edge lists

const std::string kValidEdges = "# a ring of four\n0 1\n1,2\n2 3  # comment\n\n3\t0\r\n";

Parser
EdgeListParser(uint32_t nodes)
{
    return {"ReadEdgeListGraph",
            [nodes](const std::string& path)
            {
                OverlayGraph g = ReadEdgeListGraph(path, nodes, false, false);
                for (auto [u, v] : g.GetEdges())
                {
                    ASSERT_LT(u, nodes);
                    ASSERT_LT(v, nodes);
                }
                ReadEdgeListGraph(path, nodes, true, true);
            },
            ErrorType<TopologyError>()};
}

TEST(ParserFuzz, EdgeListTruncationsAndCorruptions)
{
    ScratchDir dir("edges");
    WriteBytes(dir.File("valid"), kValidEdges);
    ASSERT_EQ(ReadEdgeListGraph(dir.File("valid"), 4, false).GetEdges().size(), 4u);
    FeedTruncations(EdgeListParser(4), dir.File("edges"), kValidEdges, false);
    FeedCorruptions(EdgeListParser(4), dir.File("edges"), kValidEdges, false, 201);
    FeedCorruptions(EdgeListParser(0), dir.File("edges"), kValidEdges, false, 202, false);
}

TEST(ParserFuzz, EdgeListExtremeValues)
{
    ScratchDir dir("edges-extremes");
    std::string path = dir.File("edges");
    auto expect
        = [&](const std::string& text, uint32_t nodes, const std::vector<std::string>& parts)
    {
        WriteBytes(path, text);
        std::vector<std::string> all = parts;
        all.push_back(path);
        ExpectRejected<TopologyError>(
            [&] { ReadEdgeListGraph(path, nodes, false, false); }, text, all);
    };
    // 2^32 + 1 and 2^32 + 2 must not wrap to nodes 1 and 2.
    expect("0 1\n4294967297 2\n", 3, {":2", "4294967297", "outside 0..2"});
    expect("4294967298 1\n", 3, {":1", "outside"});
    expect("99999999999999999999 1\n", 3, {":1", "outside"});
    expect("0 000000000000000000000000000000000000003\n", 3, {":1", "outside 0..2"});
    expect("-1 2\n", 3, {":1", "cannot be negative"});
    expect("0 -0\n", 3, {":1", "cannot be negative"});
    expect("+1 2\n", 3, {":1", "expected two node numbers"});
    expect("1e308 1\n", 3, {":1", "expected two node numbers"});
    expect("nan 1\n", 3, {":1", "expected two node numbers"});
    expect("0x1 2\n", 3, {":1", "expected two node numbers"});
    expect("0 1 2\n", 3, {":1", "expected two node numbers"});
    expect("1\n", 3, {":1", "expected two node numbers"});
    expect(std::string("0 1\0", 4) + "\n", 3, {":1", "expected two node numbers"});
    expect("0 1\n" + std::string(100000, '7') + " 1\n", 3, {":2", "line longer than 4096"});
    expect(std::string(10 << 20, ' '), 3, {":1", "line longer than 4096"});
    expect("0 1\n", 0, {":1", "outside the empty topology"});
    expect("\x7f"
           "ELF\x02\x01\x01\0\0\0",
           3,
           {":1", "expected two node numbers"});
    expect("1 1\n", 3, {":1", "self-loop"});
    expect("0 1\n1 0\n", 3, {":2", "duplicate"});
    // An empty file is an empty graph, which is not connected.
    WriteBytes(path, "");
    ExpectRejected<TopologyError>(
        [&] { ReadEdgeListGraph(path, 3, false); }, "", {path, "connected"});
    ExpectRejected<TopologyError>(
        [&] { ReadEdgeListGraph(dir.File(""), 3, false); }, "(a directory)", {"directory"});
}

// ---------------------------------------------------------------------------------------------
// Link files

const std::string kValidLinks = "u,v,bandwidth,latency\n0,1,10Mbps,5ms\n2, 1, 1Gbps, 1us # "
                                "reversed\n\n# c\n2,3,1.5e3kbps,0s\r\n";

Parser
LinkFileParser()
{
    return {"LinkModel::Draw (link.file)",
            [](const std::string& path)
            {
                LinkModel model("1Mbps", "1ms");
                model.SetFile(path);
                for (const LinkParameters& p : model.Draw({{0, 1}, {1, 2}, {2, 3}}))
                {
                    ASSERT_LT(p.u, p.v);
                    ASSERT_GE(p.bandwidthBps, 1.0);
                    ASSERT_LE(p.bandwidthBps, 1e12);
                    ASSERT_GE(p.latencySeconds, 0.0);
                    ASSERT_LE(p.latencySeconds, 1e6);
                }
            },
            ErrorType<ConfigValueError>()};
}

TEST(ParserFuzz, LinkFileTruncationsAndCorruptions)
{
    ScratchDir dir("links");
    std::string path = dir.File("links.csv");
    WriteBytes(path, kValidLinks);
    LinkModel model("1Mbps", "1ms");
    model.SetFile(path);
    ASSERT_EQ(model.Draw({{0, 1}, {1, 2}, {2, 3}}).size(), 3u);
    FeedTruncations(LinkFileParser(), path, kValidLinks, false);
    FeedCorruptions(LinkFileParser(), path, kValidLinks, false, 301);
}

TEST(ParserFuzz, LinkFileExtremeValues)
{
    ScratchDir dir("links-extremes");
    std::string path = dir.File("links.csv");
    auto expect = [&](const std::string& text, const std::vector<std::string>& parts)
    {
        WriteBytes(path, text);
        std::vector<std::string> all = parts;
        all.push_back("link.file " + path);
        LinkModel model("1Mbps", "1ms");
        model.SetFile(path);
        ExpectRejected<ConfigValueError>([&] { model.Draw({{0, 1}}); }, text, all);
    };
    // 2^32 must not wrap to node 0 and so pass for link 0-1.
    expect("4294967296,1,10Mbps,5ms\n", {":1", "node numbers", "4294967296"});
    expect("4294967297,1,10Mbps,5ms\n", {":1", "node numbers"});
    expect("18446744073709551617,1,10Mbps,5ms\n", {":1", "node numbers"});
    expect("-1,0,10Mbps,5ms\n", {":1", "node numbers"});
    expect("0abc,1,10Mbps,5ms\n", {":1", "node numbers", "0abc"});
    expect("+0,1,10Mbps,5ms\n", {":1", "node numbers"});
    expect("1e308,1,10Mbps,5ms\n", {":1", "node numbers"});
    expect("0,1,1e308Gbps,5ms\n", {":1"});
    expect("0,1,1e20bps,5ms\n", {":1", "rate 1e+20 bit/s is above 1 Tbit/s"});
    expect("0,1,0.1bps,5ms\n", {":1", "rate 0.1 bit/s is below 1 bit/s"});
    expect("0,1,0bps,5ms\n", {":1", "positive"});
    expect("0,1,-5Mbps,5ms\n", {":1", "10Mbps"});
    expect("0,1,nanMbps,5ms\n", {":1"});
    expect("0,1,infMbps,5ms\n", {":1"});
    expect("0,1,10Mbps,1e308s\n", {":1", "'1e308s' is beyond 1e+09 s"});
    expect("0,1,10Mbps,2e6s\n", {":1", "latency 2e+06 s is outside 0 s to 10 s"});
    expect("0,1,10Mbps,-5ms\n", {":1", "10ms"});
    expect("0,1,10Mbps,nan\n", {":1"});
    expect("0,1,10Mbps\n", {":1", "expected u,v,bandwidth,latency"});
    expect("0,1,10Mbps,5ms,extra\n", {":1", "expected u,v,bandwidth,latency"});
    expect("0,1,10Mbps,5ms\n" + std::string(1 << 20, ','), {":2", "line longer than 4096"});
    expect("", {"no line for link 0-1"});
    expect(std::string("\0\x01\x02\xff\xfe,\n\x80", 8), {":1"});
    expect("0,1,10Mbps,5ms\n1,0,10Mbps,5ms\n", {":2", "twice"});
}

// ---------------------------------------------------------------------------------------------
// CSV rows (access, region and attachment files) and the numbers read from them

const std::string kValidRows = "node,region,weight\n0,1,0.5\n 1 , 0 , 1e3 # c\n\n2,2,-0\r\n";

Parser
CsvRowsParser()
{
    return {"ReadCsvRows",
            [](const std::string& path)
            {
                for (const CsvRow& row : ReadCsvRows("regions.file", path, "node", 3))
                {
                    ASSERT_EQ(row.fields.size(), 3u);
                    ParseIndex(row.where, row.fields[0], 100000);
                    ParseIndex(row.where, row.fields[1], UINT32_MAX);
                    ParseNumber(row.where, row.fields[2], -1e6, 1e6);
                }
            },
            ErrorType<ConfigValueError>()};
}

TEST(ParserFuzz, CsvRowsTruncationsAndCorruptions)
{
    ScratchDir dir("csv");
    std::string path = dir.File("rows.csv");
    WriteBytes(path, kValidRows);
    ASSERT_EQ(ReadCsvRows("regions.file", path, "node", 3).size(), 3u);
    CsvRowsParser().run(path);
    FeedTruncations(CsvRowsParser(), path, kValidRows, false);
    FeedCorruptions(CsvRowsParser(), path, kValidRows, false, 401);
}

TEST(ParserFuzz, CsvRowsExtremeValues)
{
    ScratchDir dir("csv-extremes");
    std::string path = dir.File("rows.csv");
    auto expect = [&](const std::string& text, const std::vector<std::string>& parts)
    {
        WriteBytes(path, text);
        std::vector<std::string> all = parts;
        all.push_back("regions.file " + path);
        ExpectRejected<ConfigValueError>([&] { CsvRowsParser().run(path); }, text, all);
    };
    expect("4294967297,0,1\n", {":1", "4294967297 is out of range (at most 100000)"});
    expect("0,4294967296,1\n", {":1", "4294967296 is out of range (at most 4294967295)"});
    expect("0,18446744073709551616,1\n", {":1", "out of range"});
    expect("0,99999999999999999999999999999,1\n", {":1", "out of range"});
    expect("-1,0,1\n", {":1", "expected a whole number, got '-1'"});
    expect("+1,0,1\n", {":1", "expected a whole number"});
    expect("1e3,0,1\n", {":1", "expected a whole number"});
    expect("0,0,1e308\n", {":1", "1e308 is outside"});
    expect("0,0,1e309\n", {":1", "1e309 is too large"});
    expect("0,0,-1e400\n", {":1", "too large"});
    expect("0,0,nan\n", {":1", "expected a number, got 'nan'"});
    expect("0,0,inf\n", {":1", "expected a number, got 'inf'"});
    expect("0,0,0x10\n", {":1", "expected a number, got '0x10'"});
    expect("0,0,1..2\n", {":1", "expected a number"});
    // A trailing comma is an empty last field (faults.file's "for good" row relies on it).
    expect("0,0,\n", {":1", "expected a number, got ''"});
    expect("0,0,1,\n", {":1", "expected 3 comma-separated fields, got 4"});
    expect("0,0\n", {":1", "expected 3 comma-separated fields, got 2"});
    expect("0,0,1\n" + std::string((1 << 20) + 10, '5'), {":2", "line longer than 1048576"});
    expect(std::string("\0\xff\xfe\x01,\x02,\x03", 8), {":1"});
    // Leading zeros do not make a number large, and a tiny number is 0.
    EXPECT_EQ(ParseIndex("f:1", "000000000000000000000000000042", 100), 42u);
    EXPECT_EQ(ParseNumber("f:1", "1e-400", 0.0, 1.0), 0.0);
    WriteBytes(path, "");
    EXPECT_TRUE(ReadCsvRows("regions.file", path, "node", 3).empty());
    ExpectRejected<ConfigValueError>([&] { ReadCsvRows("regions.file", dir.File(""), "", 0); },
                                     "(a directory)",
                                     {"regions.file", "directory"});
}

// ---------------------------------------------------------------------------------------------
// Region latency matrices (regions.latency)

const std::string kValidMatrix = "region,a,b,c\na,0,10,20\n# c\nb,10,0,5.5\nc,20,5.5,0\r\n";

Parser
LatencyMatrixParser()
{
    return {"ReadLatencyMatrix",
            [](const std::string& path)
            {
                LatencyMatrix m = ReadLatencyMatrix(path);
                ASSERT_EQ(m.seconds.size(), m.names.size());
                for (size_t i = 0; i < m.names.size(); ++i)
                {
                    ASSERT_EQ(m.seconds[i].size(), m.names.size());
                    ASSERT_EQ(m.seconds[i][i], 0.0);
                    for (size_t j = 0; j < i; ++j)
                    {
                        ASSERT_NE(m.names[i], m.names[j]);
                        ASSERT_EQ(m.seconds[i][j], m.seconds[j][i]);
                    }
                }
            },
            ErrorType<ConfigValueError>()};
}

TEST(ParserFuzz, LatencyMatrixTruncationsAndCorruptions)
{
    ScratchDir dir("matrix");
    std::string path = dir.File("matrix.csv");
    WriteBytes(path, kValidMatrix);
    ASSERT_EQ(ReadLatencyMatrix(path).names.size(), 3u);
    LatencyMatrixParser().run(path);
    FeedTruncations(LatencyMatrixParser(), path, kValidMatrix, false);
    FeedCorruptions(LatencyMatrixParser(), path, kValidMatrix, false, 409);
}

// A matrix means one thing: no region twice, no latency from a region to itself.
TEST(ParserFuzz, LatencyMatrixMeansWhatItSays)
{
    ScratchDir dir("matrix-meaning");
    std::string path = dir.File("matrix.csv");
    auto expect = [&](const std::string& text, const std::vector<std::string>& parts)
    {
        WriteBytes(path, text);
        std::vector<std::string> all = parts;
        all.push_back("regions.latency " + path);
        ExpectRejected<ConfigValueError>([&] { LatencyMatrixParser().run(path); }, text, all);
    };
    expect("region,a,a\na,0,1\na,1,0\n", {":1", "'a' is named twice (columns 2 and 3)"});
    expect("region,a,b\na,0,1\nb,1,2\n", {":3", "from b to itself is 2 ms", "diagonal"});
    expect("region,a,b\na,0,1\nb,2,0\n", {":3", "not symmetric"});
    expect("region,a,b\na,0,1\n", {"the header names 2 regions but there are 1 rows"});
    expect("region,a,b\nb,0,1\na,1,0\n", {":2", "row 1 is 'b'"});
}

// ---------------------------------------------------------------------------------------------
// Rate traces: CSV and Mahimahi

const std::string kValidRateCsv
    = "# a trace\ntime_s,rate\n0,10Mbps\n5,2000000 # bit/s\n\n10, 800kbps\r\n15,1.5e6\n";
const std::string kValidMahimahi = "# comment\n1\n1\n5\n12\n\n12\n30\r\n";

Parser
RateCsvParser()
{
    return {"RateTrace::ReadCsv",
            [](const std::string& path)
            {
                RateTrace trace = RateTrace::ReadCsv(path);
                ASSERT_FALSE(trace.GetSteps().empty());
                for (const auto& step : trace.GetSteps())
                {
                    ASSERT_GE(step.rateBps, 1.0);
                    ASSERT_LE(step.rateBps, 1e12);
                }
                ASSERT_TRUE(std::isfinite(trace.GetRateAt(123.456)));
            },
            ErrorType<ConfigValueError>()};
}

Parser
MahimahiParser(double windowSeconds)
{
    return {"RateTrace::ReadMahimahi",
            [windowSeconds](const std::string& path)
            {
                RateTrace trace = RateTrace::ReadMahimahi(path, windowSeconds);
                ASSERT_FALSE(trace.GetSteps().empty());
                ASSERT_GT(trace.GetPeriodSeconds(), 0.0);
                ASSERT_TRUE(std::isfinite(trace.GetMeanRateBps()));
            },
            ErrorType<ConfigValueError>()};
}

TEST(ParserFuzz, RateTraceTruncationsAndCorruptions)
{
    ScratchDir dir("rates");
    std::string csv = dir.File("trace.csv");
    std::string mahimahi = dir.File("trace");
    WriteBytes(csv, kValidRateCsv);
    WriteBytes(mahimahi, kValidMahimahi);
    ASSERT_EQ(RateTrace::ReadCsv(csv).GetSteps().size(), 4u);
    ASSERT_FALSE(RateTrace::ReadMahimahi(mahimahi, 0.005).GetSteps().empty());
    FeedTruncations(RateCsvParser(), csv, kValidRateCsv, false);
    FeedTruncations(MahimahiParser(0.005), mahimahi, kValidMahimahi, false);
    FeedCorruptions(RateCsvParser(), csv, kValidRateCsv, false, 501);
    FeedCorruptions(MahimahiParser(0.005), mahimahi, kValidMahimahi, false, 502);
    FeedCorruptions(MahimahiParser(1.0), mahimahi, kValidMahimahi, false, 503);
}

TEST(ParserFuzz, RateTraceExtremeValues)
{
    ScratchDir dir("rates-extremes");
    std::string csv = dir.File("trace.csv");
    auto expectCsv = [&](const std::string& text, const std::vector<std::string>& parts)
    {
        WriteBytes(csv, text);
        std::vector<std::string> all = parts;
        all.push_back("rate trace " + csv);
        ExpectRejected<ConfigValueError>([&] { RateTrace::ReadCsv(csv); }, text, all);
    };
    expectCsv("0,1e308bps\n", {":1", "above 1 Tbit/s"});
    expectCsv("0,1e308\n", {":1", "above 1 Tbit/s"});
    expectCsv("0,1e309\n", {":1"});
    expectCsv("0,nan\n", {":1"});
    expectCsv("0,-10Mbps\n", {":1"});
    expectCsv("0,0\n", {":1", "rate 0"});
    expectCsv("-1,10Mbps\n", {":1", "negative time"});
    expectCsv("nan,10Mbps\n", {":1", "bad time 'nan'"});
    expectCsv("0,10Mbps\n4294967297,1Mbps\n", {":2", "beyond 1e9 s"});
    expectCsv("0,10Mbps\n1e308,1Mbps\n", {":2", "beyond 1e9 s"});
    expectCsv("5,10Mbps\n", {":1", "must be at time 0"});
    expectCsv("0,10Mbps\n0,1Mbps\n", {":2", "strictly increase"});
    expectCsv("0,10Mbps,3\n", {":1", "two fields"});
    expectCsv("", {"empty trace"});
    expectCsv(std::string(5000, '0'), {":1", "line longer than 4096"});
    expectCsv(std::string("\0\x01\xff,\xfe", 5), {":1"});
    // A NUL byte must not end a number early: "\0junk" is not time 0, "5\0" is not 5.
    expectCsv(std::string("\0junk,10Mbps\n", 13), {":1", "bad time"});
    expectCsv(std::string("0,10Mbps\n5\0,1Mbps\n", 19), {":2", "bad time"});

    std::string mm = dir.File("trace");
    auto expectMahimahi = [&](const std::string& text, const std::vector<std::string>& parts)
    {
        WriteBytes(mm, text);
        std::vector<std::string> all = parts;
        all.push_back("rate trace " + mm);
        ExpectRejected<ConfigValueError>([&] { RateTrace::ReadMahimahi(mm, 0.001); }, text, all);
    };
    expectMahimahi("-5\n", {":1", "negative timestamp"});
    expectMahimahi("1\n99999999999999999999\n", {":2", "beyond 1e9 s"});
    expectMahimahi("1\n18446744073709551617\n", {":2", "beyond 1e9 s"});
    expectMahimahi("1\n1e308\n", {":2", "bad timestamp"});
    expectMahimahi("nan\n", {":1", "bad timestamp"});
    expectMahimahi("5\n4\n", {":2", "must not decrease"});
    expectMahimahi("0\n", {":1", "at least 1 ms"});
    expectMahimahi("1000000000000\n", {":1", "too many windows"});
    expectMahimahi("", {"empty trace"});
    expectMahimahi(std::string(5000, '1'), {":1", "line longer than 4096"});
    expectMahimahi(std::string("\x7f"
                               "ELF\x02\x01",
                               6),
                   {":1", "bad timestamp"});
    // 4294967297 ms is a valid, if long, period: 2^32 + 1 ms is not cut to 1 ms.
    WriteBytes(mm, "1\n4294967297\n");
    EXPECT_DOUBLE_EQ(RateTrace::ReadMahimahi(mm, 1000).GetPeriodSeconds(), 4294967.297);
}

// ---------------------------------------------------------------------------------------------
// Scenario files

const std::string kValidScenario = "# a scenario\nnodes = 8\nrounds = 5\nseed = 7\nlr = 0.05\n"
                                   "[link]\nbandwidth = 1Gbps\nlatency = 2ms\n"
                                   "[jwins]\nalphas = [0.1, 0.2, 1e-1]\n";

/// Load, then every typed accessor the runner uses on the keys above.
void
UseScenario(const std::string& path)
{
    ScenarioConfig c = ScenarioConfig::Load(path, {});
    uint64_t nodes = c.GetUint("nodes", 2, 100000);
    EXPECT_GE(nodes, 2u);
    EXPECT_LE(nodes, 100000u);
    c.GetUint("rounds", 1, 100000000);
    c.GetUint("seed", 1, UINT32_MAX);
    double lr = c.GetDouble("lr", 0.0, 1e6);
    EXPECT_TRUE(std::isfinite(lr));
    for (double a : c.GetDoubleList("jwins.alphas", 1e-9, 1.0))
    {
        EXPECT_TRUE(a >= 1e-9 && a <= 1.0);
    }
    c.GetList("topology.schedule");
    c.GetBool("model.same_init");
}

TEST(ParserFuzz, ScenarioTruncationsAndCorruptions)
{
    ScratchDir dir("scenario");
    std::string path = dir.File("scenario.ini");
    WriteBytes(path, kValidScenario);
    ScenarioConfig c = ScenarioConfig::Load(path, {});
    ASSERT_EQ(c.GetUint("nodes", 2, 100000), 8u);
    ASSERT_EQ(c.GetDoubleList("jwins.alphas", 1e-9, 1.0).size(), 3u);
    Parser parser{"ScenarioConfig::Load", UseScenario, ErrorType<ScenarioError>()};
    FeedTruncations(parser, path, kValidScenario, false);
    FeedCorruptions(parser, path, kValidScenario, false, 601);
}

TEST(ParserFuzz, ScenarioExtremeValues)
{
    ScratchDir dir("scenario-extremes");
    std::string path = dir.File("scenario.ini");
    auto load = [&](const std::string& text)
    {
        WriteBytes(path, text);
        return ScenarioConfig::Load(path, {});
    };
    struct Case
    {
        std::string line;
        std::function<void(const ScenarioConfig&)> get;
        std::string key;
        std::string problem = "expected";
    };
    auto nodes = [](const ScenarioConfig& c)
    {
        c.GetUint("nodes", 2, 100000);
    };
    auto seed = [](const ScenarioConfig& c)
    {
        c.GetUint("seed", 1, UINT32_MAX);
    };
    auto anyUint = [](const ScenarioConfig& c)
    {
        c.GetUint("rounds");
    };
    auto lr = [](const ScenarioConfig& c)
    {
        c.GetDouble("lr", 0.0, 1e6);
    };
    auto alphas = [](const ScenarioConfig& c)
    {
        c.GetDoubleList("jwins.alphas", 1e-9, 1.0);
    };
    const std::vector<Case> cases = {
        {"nodes = 99999999999999999999", nodes, "nodes"},
        {"nodes = 18446744073709551616", nodes, "nodes"},
        {"nodes = 4294967297", nodes, "nodes"},
        {"seed = 4294967297", seed, "seed"},
        {"nodes = -5", nodes, "nodes"},
        {"nodes = +5", nodes, "nodes"},
        {"nodes = 5x", nodes, "nodes"},
        {"nodes = 5.0", nodes, "nodes"},
        {"nodes = 1e3", nodes, "nodes"},
        {"nodes = 0x10", nodes, "nodes"},
        {"nodes = nan", nodes, "nodes"},
        {"nodes =", nodes, "nodes"},
        {std::string("nodes = 5\0junk", 14), nodes, "nodes"},
        {"rounds = 99999999999999999999", anyUint, "rounds"},
        {"rounds = -1", anyUint, "rounds"},
        {"lr = nan", lr, "lr"},
        {"lr = inf", lr, "lr"},
        {"lr = -inf", lr, "lr"},
        {"lr = 1e308", lr, "lr"},
        {"lr = 1e309", lr, "lr"},
        {"lr = -1", lr, "lr"},
        {"lr = 0x10", lr, "lr"},
        {"lr = 0.5junk", lr, "lr"},
        {std::string("lr = 0.5\0junk", 13), lr, "lr"},
        {"[jwins]\nalphas = [0.1, nan]", alphas, "jwins.alphas"},
        {"[jwins]\nalphas = [0.1, 1e309]", alphas, "jwins.alphas"},
        {"[jwins]\nalphas = [0.1, ]", alphas, "jwins.alphas", "empty item"},
        {"[jwins]\nalphas = [0.1, 0.2", alphas, "jwins.alphas", "must end with ']'"},
        {"[jwins]\nalphas = []", alphas, "jwins.alphas", "the list is empty"},
    };
    for (const auto& c : cases)
    {
        ScenarioConfig config = load(c.line + "\n");
        ExpectRejected<ScenarioError>([&] { c.get(config); }, c.line, {c.key, c.problem});
    }
    // A NUL byte is shown, not left to end the message early.
    ExpectRejected<ScenarioError>(
        [&] { load(std::string("nodes = 5\0junk\n", 15)).GetUint("nodes", 2, 100000); },
        "nodes = 5\\0junk",
        {"nodes", "got '5\\x00junk'"});
    // The lower bound is printed as it is, not as std::to_string's "0.000000".
    ExpectRejected<ScenarioError>(
        [&] { load("[partition]\nalpha = 1e-12\n").GetDouble("partition.alpha", 1e-9, 1e9); },
        "partition.alpha = 1e-12",
        {"partition.alpha", "from 1e-09 to 1e+09"});
    // The same values from the command line, where nothing trims them.
    for (std::string bad : {" -5", "-5", " 5", "5 ", "99999999999999999999"})
    {
        ScenarioConfig config = ScenarioConfig::Load("", {"--nodes=" + bad});
        ExpectRejected<ScenarioError>([&] { config.GetUint("nodes"); }, bad, {"nodes", bad});
    }
    // Files that are not scenarios at all.
    auto expectLoad = [&](const std::string& text, const std::vector<std::string>& parts)
    {
        WriteBytes(path, text);
        std::vector<std::string> all = parts;
        all.push_back(path);
        ExpectRejected<ScenarioError>([&] { ScenarioConfig::Load(path, {}); }, text, all);
    };
    expectLoad("nodes = 8\nnodes = 9\n", {"nodes"});
    expectLoad("nodez = 8\n", {"nodez"});
    expectLoad(std::string("\x7f"
                           "ELF\x02\x01\x01\0\0\0\n\xff\xfe",
                           13),
               {"scenario file"});
    expectLoad("[" + std::string(100000, 'x') + "\n", {"scenario file"});
    expectLoad("nodes " + std::string(100000, '9') + "\n", {"scenario file"});
    ExpectRejected<ScenarioError>(
        [&] { ScenarioConfig::Load(dir.File(""), {}); }, "(a directory)", {"directory"});
    // An empty file gives the defaults, and a very long value is only text until it is used.
    ScenarioConfig defaults = load("");
    EXPECT_EQ(defaults.GetUint("nodes", 2, 100000), 16u);
    ScenarioConfig longValue = load("nodes = " + std::string(1 << 20, '1') + "\n");
    ExpectRejected<ScenarioError>([&] { longValue.GetUint("nodes", 2, 100000); },
                                  "nodes = 111...",
                                  {"nodes", "from 2 to 100000"});
}

} // namespace
} // namespace ns3
