// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of the inputs that make runs comparable with other frameworks: partitions given
 * per sample, input normalisation, initial parameters from a file, CIFAR-10's binary files and
 * GN-LeNet's size for them. Learning core only.
 */
#include "dataset-catalog.h"
#include "dataset.h"
#include "idx-reader.h"
#include "learner.h"
#include "partitioner.h"
#include "run-command.h"
#include "synthetic-dataset.h"
#include "test-data.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

std::string
TempDir(const std::string& name)
{
    return FreshTempFolder("inputs-" + name);
}

void
WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

/// The message of the DatasetError `f` throws ("" and a test failure when it throws none).
template<typename F>
std::string
DatasetErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const DatasetError& e)
    {
        return e.what();
    }
    ADD_FAILURE() << "no DatasetError";
    return "";
}

void
ExpectWords(const std::string& message, const std::vector<std::string>& words)
{
    for (const auto& word : words)
    {
        EXPECT_NE(message.find(word), std::string::npos) << "no '" << word << "' in: " << message;
    }
}

// ---------------------------------------------------------------------------------------------
// Partition files

PartitionEntry
Entry(uint64_t node, uint64_t sample, int line)
{
    return PartitionEntry{node, sample, "partition.file parts.csv:" + std::to_string(line)};
}

TEST(PartitionFile, EveryNodeGetsItsSamplesInFileOrderAndMayShareThem)
{
    // Node 1's samples out of order, sample 4 given to nodes 0 and 2, samples 6..9 to nobody.
    std::vector<PartitionEntry> entries = {Entry(0, 3, 2),
                                           Entry(1, 5, 3),
                                           Entry(0, 4, 4),
                                           Entry(2, 4, 5),
                                           Entry(1, 1, 6),
                                           Entry(2, 0, 7),
                                           Entry(1, 2, 8)};
    Partition p = PartitionFromEntries(entries, 3, 10, "partition.file parts.csv");
    ASSERT_EQ(p.size(), 3u);
    EXPECT_EQ(p[0], (std::vector<uint32_t>{3, 4}));
    EXPECT_EQ(p[1], (std::vector<uint32_t>{5, 1, 2}));
    EXPECT_EQ(p[2], (std::vector<uint32_t>{4, 0}));
    PartitionCoverage coverage = CoverageOf(p, 10);
    EXPECT_EQ(coverage.entries, 7u);
    EXPECT_EQ(coverage.shared, 1u); // sample 4
    EXPECT_EQ(coverage.unused, 4u); // samples 6 to 9
}

TEST(PartitionFile, EveryErrorNamesTheFileAndTheLine)
{
    const std::string source = "partition.file parts.csv";
    // A node beyond `nodes`.
    ExpectWords(DatasetErrorOf(
                    [&]() {
                        PartitionFromEntries({Entry(0, 1, 2), Entry(3, 1, 3)}, 3, 10, source);
                    }),
                {"parts.csv:3", "node 3", "0 to 2"});
    // A sample beyond the training set.
    ExpectWords(DatasetErrorOf(
                    [&]() {
                        PartitionFromEntries({Entry(0, 9, 2), Entry(1, 10, 3)}, 2, 10, source);
                    }),
                {"parts.csv:3", "sample 10", "0 to 9"});
    // The same node and sample twice: the second line is named, and the first.
    ExpectWords(DatasetErrorOf(
                    [&]()
                    {
                        PartitionFromEntries(
                            {Entry(0, 1, 2), Entry(1, 7, 3), Entry(1, 2, 4), Entry(1, 7, 5)},
                            2,
                            10,
                            source);
                    }),
                {"parts.csv:5", "node 1", "sample 7", "second time", "parts.csv:3"});
    // A node without samples.
    ExpectWords(DatasetErrorOf(
                    [&]() {
                        PartitionFromEntries({Entry(0, 1, 2), Entry(2, 2, 3)}, 3, 10, source);
                    }),
                {"partition.file parts.csv", "node 1 has no samples"});
    EXPECT_THROW(PartitionFromEntries({}, 0, 10, source), DatasetError);
}

TEST(PartitionFile, WithoutTheDataOnlyTheSampleRangeIsLeftUnchecked)
{
    Partition p = PartitionFromEntries(
        {Entry(0, 4000000000, 2), Entry(1, 0, 3)}, 2, SIZE_MAX, "partition.file parts.csv");
    EXPECT_EQ(p[0].front(), 4000000000u);
    EXPECT_THROW(PartitionFromEntries({Entry(0, 1, 2), Entry(0, 1, 3), Entry(1, 0, 4)},
                                      2,
                                      SIZE_MAX,
                                      "partition.file parts.csv"),
                 DatasetError);
}

// ---------------------------------------------------------------------------------------------
// Normalisation

/// A Fashion-MNIST folder whose pixels run through every byte value.
std::string
WriteIdxFolder(const std::string& name, std::vector<uint8_t>& pixels)
{
    const std::string dir = TempDir(name);
    pixels.resize(4 * 28 * 28);
    for (size_t i = 0; i < pixels.size(); ++i)
    {
        pixels[i] = static_cast<uint8_t>(i * 7 % 256);
    }
    for (std::string prefix : {"train", "t10k"})
    {
        WriteBytes(dir + "/" + prefix + "-images-idx3-ubyte", MakeIdx({4, 28, 28}, pixels));
        WriteBytes(dir + "/" + prefix + "-labels-idx1-ubyte", MakeIdx({4}, {0, 1, 2, 3}));
    }
    return dir;
}

bool
SameBits(float a, float b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(Normalization, DefaultIsTheFashionMnistStatisticsBitForBit)
{
    std::vector<uint8_t> pixels;
    const std::string dir = WriteIdxFolder("default", pixels);
    DatasetSplit plain = LoadFashionMnist(dir);
    DatasetSplit chosen = LoadFashionMnist(dir, Normalization());
    DatasetChoice choice;
    choice.path = dir;
    DatasetSplit catalog = LoadDataset(choice);
    ASSERT_EQ(plain.train->images.size(), pixels.size());
    for (size_t i = 0; i < pixels.size(); ++i)
    {
        // The expression the loader always evaluated, in float32.
        const float expected = (pixels[i] / 255.0f - 0.2860f) / 0.3530f;
        ASSERT_TRUE(SameBits(plain.train->images[i], expected)) << i;
        ASSERT_TRUE(SameBits(plain.test->images[i], expected)) << i;
    }
    EXPECT_EQ(chosen.train->images, plain.train->images);
    EXPECT_EQ(catalog.test->images, plain.test->images);
    EXPECT_EQ(plain.train->inputMean, std::vector<float>{0.2860f});
    EXPECT_EQ(plain.train->inputStd, std::vector<float>{0.3530f});
    fs::remove_all(dir);
}

TEST(Normalization, FixedAndNoneChangeTheInputsAsExpected)
{
    std::vector<uint8_t> pixels;
    const std::string dir = WriteIdxFolder("fixed", pixels);
    Normalization half;
    half.mode = Normalization::Mode::Fixed;
    half.mean = {0.5f};
    half.stddev = {0.5f};
    DatasetSplit fixed = LoadFashionMnist(dir, half);
    Normalization none;
    none.mode = Normalization::Mode::None;
    DatasetSplit raw = LoadFashionMnist(dir, none);
    for (size_t i = 0; i < pixels.size(); ++i)
    {
        // torchvision: ToTensor() (byte / 255 in float32), then Normalize((0.5,), (0.5,)).
        const float x = pixels[i] / 255.0f;
        ASSERT_TRUE(SameBits(fixed.train->images[i], (x - 0.5f) / 0.5f)) << i;
        ASSERT_TRUE(SameBits(fixed.test->images[i], (x - 0.5f) / 0.5f)) << i;
        ASSERT_TRUE(SameBits(raw.train->images[i], x)) << i;
    }
    // Byte 0 becomes -1, byte 255 becomes 1.
    EXPECT_EQ(fixed.train->images[0], -1.0f);
    EXPECT_TRUE(raw.train->inputMean.empty());
    EXPECT_EQ(fixed.train->inputStd, std::vector<float>{0.5f});

    // Lists that do not fit one channel, and a zero standard deviation.
    Normalization three = half;
    three.mean = {0.4914f, 0.4822f, 0.4465f};
    ExpectWords(DatasetErrorOf([&]() { LoadFashionMnist(dir, three); }),
                {"dataset.mean", "3 values", "1 channels"});
    Normalization zero = half;
    zero.stddev = {0.0f};
    ExpectWords(DatasetErrorOf([&]() { LoadFashionMnist(dir, zero); }), {"dataset.std"});
    fs::remove_all(dir);
}

TEST(Normalization, SyntheticDataIsLeftAloneUnlessFixed)
{
    DatasetChoice choice;
    choice.name = "synthetic";
    choice.synthetic.trainSamples = 30;
    choice.synthetic.testSamples = 10;
    DatasetSplit generated = LoadDataset(choice);
    choice.normalization.mode = Normalization::Mode::None;
    EXPECT_EQ(LoadDataset(choice).train->images, generated.train->images);
    choice.normalization.mode = Normalization::Mode::Fixed;
    choice.normalization.mean = {1.0f};
    choice.normalization.stddev = {2.0f};
    DatasetSplit shifted = LoadDataset(choice);
    for (size_t i = 0; i < generated.train->images.size(); i += 97)
    {
        EXPECT_TRUE(SameBits(shifted.train->images[i], (generated.train->images[i] - 1.0f) / 2.0f));
    }
}

// ---------------------------------------------------------------------------------------------
// Parameter files

TEST(ParameterFile, IsLittleEndianFloat32AndRoundTrips)
{
    const std::string dir = TempDir("params");
    WriteParameterFile(dir + "/two.bin", {1.0f, -2.5f});
    std::ifstream in(dir + "/two.bin", std::ios::binary);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    // 1.0f = 0x3F800000, -2.5f = 0xC0200000, least significant byte first.
    EXPECT_EQ(bytes, (std::vector<unsigned char>{0, 0, 0x80, 0x3F, 0, 0, 0x20, 0xC0}));

    // A learner's parameters, written and read back bit for bit.
    DatasetSplit data = TinySyntheticData();
    TrainingConfig config;
    config.model = "gn-lenet";
    Learner learner(config, data.train, {0, 1, 2}, 7, 1);
    WriteParameterFile(dir + "/model.bin", learner.GetParameters());
    EXPECT_EQ(fs::file_size(dir + "/model.bin"), 4 * 83754u);
    EXPECT_EQ(ReadParameterFile(dir + "/model.bin"), learner.GetParameters());
    fs::remove_all(dir);
}

TEST(ParameterFile, EveryLearnerStartsFromTheFileWhateverItsInitSeed)
{
    DatasetSplit data = TinySyntheticData();
    TrainingConfig config;
    config.model = "logistic";
    std::vector<float> values(7850);
    for (size_t i = 0; i < values.size(); ++i)
    {
        values[i] = std::sin(static_cast<float>(i)) * 0.01f;
    }
    const std::string dir = TempDir("init");
    WriteParameterFile(dir + "/init.bin", values);
    config.initialParameters
        = std::make_shared<const std::vector<float>>(ReadParameterFile(dir + "/init.bin"));
    config.initialParametersSource = "model.init_file " + dir + "/init.bin";
    Learner a(config, data.train, {0, 1}, 1, 1);
    Learner b(config, data.train, {2, 3}, 99, 2);
    EXPECT_EQ(a.GetParameters(), values);
    EXPECT_EQ(b.GetParameters(), values);
    // Training moves on from there as usual.
    a.Train();
    EXPECT_NE(a.GetParameters(), values);

    // One value short: the error names the file, the expected and the found count.
    config.initialParameters
        = std::make_shared<const std::vector<float>>(values.begin(), values.end() - 1);
    ExpectWords(DatasetErrorOf([&]() { Learner(config, data.train, {0}, 1, 1); }),
                {"init.bin", "7849", "7850"});
    fs::remove_all(dir);
}

TEST(ParameterFile, BrokenFilesAreRefusedByName)
{
    const std::string dir = TempDir("broken");
    ExpectWords(DatasetErrorOf([&]() { ReadParameterFile(dir + "/missing.bin"); }),
                {"missing.bin", "not found"});
    WriteBytes(dir + "/odd.bin", {1, 2, 3, 4, 5});
    ExpectWords(DatasetErrorOf([&]() { ReadParameterFile(dir + "/odd.bin"); }),
                {"odd.bin", "5 bytes"});
    WriteBytes(dir + "/empty.bin", {});
    ExpectWords(DatasetErrorOf([&]() { ReadParameterFile(dir + "/empty.bin"); }),
                {"empty.bin", "0 bytes"});
    WriteParameterFile(dir + "/nan.bin", {0.0f, std::nanf("")});
    ExpectWords(DatasetErrorOf([&]() { ReadParameterFile(dir + "/nan.bin"); }),
                {"nan.bin", "value 1", "not a finite number"});
    ExpectWords(DatasetErrorOf([&]() { ReadParameterFile(dir); }), {"not a regular file"});
    ExpectWords(DatasetErrorOf([&]() { WriteParameterFile(dir + "/no/such/folder.bin", {1.0f}); }),
                {"cannot write parameter file", "folder.bin"});
    fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// CIFAR-10

/// The pixel byte of record `r`, position `k` (0..3071) in batch file `file`.
uint8_t
PixelByte(int file, size_t r, size_t k)
{
    return static_cast<uint8_t>((file * 31 + r * 7 + k * 13 + k / 1024 * 5) % 256);
}

/// A batch file of CIFAR-10's binary version with `records` records, labels (file + r) mod 10.
std::vector<uint8_t>
CifarBatch(int file, size_t records)
{
    std::vector<uint8_t> bytes;
    for (size_t r = 0; r < records; ++r)
    {
        bytes.push_back(static_cast<uint8_t>((file + r) % 10));
        for (size_t k = 0; k < 3072; ++k)
        {
            bytes.push_back(PixelByte(file, r, k));
        }
    }
    return bytes;
}

/// Five training batches of `perBatch` records (files 1..5) and a test batch (file 6).
void
WriteCifarFolder(const std::string& dir, size_t perBatch, size_t test)
{
    fs::create_directories(dir);
    for (int b = 1; b <= 5; ++b)
    {
        WriteBytes(dir + "/data_batch_" + std::to_string(b) + ".bin", CifarBatch(b, perBatch));
    }
    WriteBytes(dir + "/test_batch.bin", CifarBatch(6, test));
}

TEST(Cifar10Reader, ReadsTheBatchesInOrderChannelMajor)
{
    const std::string dir = TempDir("cifar");
    WriteCifarFolder(dir, 3, 4);
    Normalization none;
    none.mode = Normalization::Mode::None;
    DatasetSplit data = LoadCifar10(dir, none);
    const Dataset& train = *data.train;
    ASSERT_EQ(train.Size(), 15u);
    ASSERT_EQ(data.test->Size(), 4u);
    EXPECT_EQ(train.channels, 3u);
    EXPECT_EQ(train.height, 32u);
    EXPECT_EQ(train.width, 32u);
    EXPECT_EQ(train.numClasses, 10u);
    EXPECT_EQ(train.SampleSize(), 3072u);
    for (size_t i = 0; i < train.Size(); ++i)
    {
        const int file = static_cast<int>(i / 3) + 1; // data_batch_1 first
        const size_t r = i % 3;
        EXPECT_EQ(train.labels[i], static_cast<int64_t>((file + r) % 10)) << i;
        for (size_t k : {size_t(0), size_t(31), size_t(1023), size_t(1024), size_t(2048 + 33)})
        {
            // Channel k / 1024 (red, green, blue), row (k % 1024) / 32, column k % 32.
            ASSERT_TRUE(SameBits(train.Sample(i)[k], PixelByte(file, r, k) / 255.0f)) << i;
        }
    }
    EXPECT_EQ(data.test->labels[1], 7);
    EXPECT_TRUE(SameBits(data.test->Sample(2)[3071], PixelByte(6, 2, 3071) / 255.0f));

    // The folder the archive unpacks to is found inside the one given.
    const std::string parent = TempDir("cifar-parent");
    WriteCifarFolder(parent + "/cifar-10-batches-bin", 1, 1);
    EXPECT_EQ(FindCifar10Directory(parent), parent + "/cifar-10-batches-bin");
    EXPECT_EQ(LoadCifar10(parent, none).train->Size(), 5u);
    fs::remove_all(dir);
    fs::remove_all(parent);
}

TEST(Cifar10Reader, NormalisesPerChannel)
{
    const std::string dir = TempDir("cifar-norm");
    WriteCifarFolder(dir, 4, 2);
    Normalization none;
    none.mode = Normalization::Mode::None;
    DatasetSplit raw = LoadCifar10(dir, none);

    // The default: the training set's own per-channel statistics, the same for the test set.
    DatasetSplit own = LoadCifar10(dir);
    std::vector<float> mean;
    std::vector<float> stddev;
    ChannelStatistics(*raw.train, mean, stddev);
    ASSERT_EQ(mean.size(), 3u);
    EXPECT_EQ(own.train->inputMean, mean);
    EXPECT_EQ(own.test->inputStd, stddev);
    std::vector<float> after;
    std::vector<float> afterStd;
    ChannelStatistics(*own.train, after, afterStd);
    for (int c = 0; c < 3; ++c)
    {
        EXPECT_NEAR(after[c], 0.0, 1e-5) << c;
        EXPECT_NEAR(afterStd[c], 1.0, 1e-5) << c;
    }
    EXPECT_TRUE(SameBits(own.test->images[5], (raw.test->images[5] - mean[0]) / stddev[0]));

    // Fixed values per channel, as a PyTorch pipeline's Normalize would apply them.
    Normalization fixed;
    fixed.mode = Normalization::Mode::Fixed;
    fixed.mean = {0.4914f, 0.4822f, 0.4465f};
    fixed.stddev = {0.2470f, 0.2435f, 0.2616f};
    DatasetSplit given = LoadCifar10(dir, fixed);
    for (size_t i = 0; i < raw.train->images.size(); i += 101)
    {
        const size_t c = i % 3072 / 1024;
        ASSERT_TRUE(SameBits(given.train->images[i],
                             (raw.train->images[i] - fixed.mean[c]) / fixed.stddev[c]))
            << i;
    }
    // One value for all three channels.
    fixed.mean = {0.5f};
    fixed.stddev = {0.5f};
    EXPECT_TRUE(SameBits(LoadCifar10(dir, fixed).train->images[2048],
                         (raw.train->images[2048] - 0.5f) / 0.5f));
    fixed.mean = {0.5f, 0.5f};
    ExpectWords(DatasetErrorOf([&]() { LoadCifar10(dir, fixed); }),
                {"dataset.mean", "2 values", "3 channels"});
    fs::remove_all(dir);
}

TEST(Cifar10Reader, BrokenOrMissingFilesAreNamed)
{
    const std::string dir = TempDir("cifar-bad");
    // Nothing there: the first missing file, and where to get the data.
    ExpectWords(DatasetErrorOf([&]() { LoadCifar10(dir); }),
                {dir + "/data_batch_1.bin", "not found", "CIFAR-10 binary version"});
    DatasetChoice choice;
    choice.name = "cifar10";
    choice.path = dir;
    ExpectWords(DatasetErrorOf([&]() { CheckDatasetFiles(choice); }), {"data_batch_1.bin"});
    WriteCifarFolder(dir, 2, 2);
    EXPECT_NO_THROW(CheckDatasetFiles(choice));
    fs::remove(dir + "/test_batch.bin");
    ExpectWords(DatasetErrorOf([&]() { CheckDatasetFiles(choice); }), {"test_batch.bin"});

    // A record cut short.
    std::vector<uint8_t> cut = CifarBatch(6, 2);
    cut.pop_back();
    WriteBytes(dir + "/test_batch.bin", cut);
    ExpectWords(DatasetErrorOf([&]() { LoadCifar10(dir); }),
                {"test_batch.bin", "6145 bytes", "3073-byte records"});
    WriteBytes(dir + "/test_batch.bin", {});
    ExpectWords(DatasetErrorOf([&]() { LoadCifar10(dir); }), {"test_batch.bin", "0 bytes"});

    // A label of 10 in the second record of batch 3.
    std::vector<uint8_t> labelled = CifarBatch(3, 2);
    labelled[3073] = 10;
    WriteBytes(dir + "/data_batch_3.bin", labelled);
    WriteBytes(dir + "/test_batch.bin", CifarBatch(6, 2));
    ExpectWords(DatasetErrorOf([&]() { LoadCifar10(dir); }),
                {"data_batch_3.bin", "record 1", "label 10", "0 to 9"});

    // A folder where a batch should be.
    fs::remove(dir + "/data_batch_3.bin");
    fs::create_directories(dir + "/data_batch_3.bin");
    ExpectWords(DatasetErrorOf([&]() { LoadCifar10(dir); }),
                {"data_batch_3.bin", "not a regular file"});
    fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// GN-LeNet's size follows the data

TEST(GnLenet, ParameterCountsFollowTheInputShape)
{
    UseSingleThreadedTorch();
    // conv 1->32 (832), GN (64), conv 32->32 (25,632), GN (64), conv 32->64 (51,264), GN (128),
    // then linear(576, 10) = 5,770 for 28x28 or linear(1024, 10) = 10,250 for 32x32 with 3
    // input channels (conv 3->32: 2,432).
    EXPECT_EQ(CountModelParameters("gn-lenet", 1, 28, 28, 10), 83754u);
    EXPECT_EQ(CountModelParameters("gn-lenet", 3, 32, 32, 10), 89834u);
    EXPECT_EQ(CountModelParameters("logistic", 3, 32, 32, 10), 30730u);

    // A learner on CIFAR-10-shaped data builds the 3x32x32 model by itself.
    const std::string dir = TempDir("cifar-lenet");
    WriteCifarFolder(dir, 2, 2);
    DatasetSplit data = LoadCifar10(dir);
    TrainingConfig config;
    config.model = "gn-lenet";
    Learner learner(config, data.train, {0, 1, 2, 3}, 1, 1);
    EXPECT_EQ(learner.NumParameters(), 89834u);
    // Training and evaluation run on 3x32x32 inputs.
    EXPECT_TRUE(std::isfinite(learner.Train()));
    EXPECT_EQ(learner.Evaluate(*data.test, 0).samples, 2u);
    std::cout << "GN-LeNet on 3x32x32: " << learner.NumParameters() << " parameters, "
              << learner.TrainFlopsPerSample() / 3 / 1e6 << " MFLOP forward per sample"
              << std::endl;
    fs::remove_all(dir);
}

} // namespace
} // namespace ns3
