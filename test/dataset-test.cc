// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of the learning core's data side: IDX reading, synthetic data, partitioners,
 * and the learner's flat parameter view.
 */
#include "dataset.h"
#include "idx-reader.h"
#include "learner.h"
#include "partitioner.h"
#include "synthetic-dataset.h"
#include "test-data.h"

#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <numeric>
#include <set>
#include <zlib.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

std::string
TempPath(const std::string& name)
{
    return (std::filesystem::temp_directory_path()
            / ("dlsim-test-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

void
WriteFile(const std::string& path, const std::vector<uint8_t>& bytes, bool gzip)
{
    if (gzip)
    {
        gzFile f = gzopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
        gzclose(f);
    }
    else
    {
        FILE* f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    }
}

TEST(IdxReader, ReadsPlainAndGzippedFiles)
{
    std::vector<uint8_t> pixels(2 * 3 * 4);
    std::iota(pixels.begin(), pixels.end(), 0);
    for (bool gzip : {false, true})
    {
        std::string path = TempPath(gzip ? "good.gz" : "good");
        WriteFile(path, MakeIdx({2, 3, 4}, pixels), gzip);
        IdxArray a = ReadIdxFile(path);
        EXPECT_EQ(a.dims, (std::vector<uint32_t>{2, 3, 4}));
        EXPECT_EQ(a.data, pixels);
        std::filesystem::remove(path);
    }
}

TEST(IdxReader, TruncatedFileIsAClearError)
{
    std::vector<uint8_t> bytes = MakeIdx({10, 28, 28}, std::vector<uint8_t>(10 * 28 * 28, 7));
    bytes.resize(bytes.size() - 100);
    std::string path = TempPath("truncated.gz");
    WriteFile(path, bytes, true);
    try
    {
        ReadIdxFile(path);
        FAIL() << "a truncated file was accepted";
    }
    catch (const DatasetError& e)
    {
        std::string message = e.what();
        EXPECT_NE(message.find("truncated"), std::string::npos) << message;
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find("dataset-fashion-mnist"), std::string::npos) << message;
    }
    std::filesystem::remove(path);
}

TEST(IdxReader, MissingFileOrBadMagicIsAClearError)
{
    EXPECT_THROW(ReadIdxFile(TempPath("does-not-exist")), DatasetError);
    std::string path = TempPath("notidx");
    WriteFile(path, {1, 2, 3, 4, 5, 6, 7, 8}, false);
    EXPECT_THROW(ReadIdxFile(path), DatasetError);
    std::filesystem::remove(path);
    try
    {
        LoadFashionMnist(TempPath("no-such-dir"));
        FAIL() << "a missing dataset directory was accepted";
    }
    catch (const DatasetError& e)
    {
        EXPECT_NE(std::string(e.what()).find("apt-get install dataset-fashion-mnist"),
                  std::string::npos)
            << e.what();
    }
}

TEST(IdxReader, LoadsAFashionMnistDirectory)
{
    std::string dir = TempPath("fmnist");
    std::filesystem::create_directories(dir);
    std::vector<uint8_t> images(5 * 28 * 28, 255);
    std::vector<uint8_t> labels = {0, 1, 2, 9, 3};
    for (std::string prefix : {"train", "t10k"})
    {
        WriteFile(dir + "/" + prefix + "-images-idx3-ubyte.gz", MakeIdx({5, 28, 28}, images), true);
        WriteFile(dir + "/" + prefix + "-labels-idx1-ubyte", MakeIdx({5}, labels), false);
    }
    DatasetSplit split = LoadFashionMnist(dir);
    ASSERT_EQ(split.train->Size(), 5u);
    EXPECT_EQ(split.train->labels[3], 9);
    EXPECT_EQ(split.test->height, 28u);
    // 255 scaled to 1, then normalised with Fashion-MNIST's mean and standard deviation.
    EXPECT_NEAR(split.train->images[0], (1.0 - 0.2860) / 0.3530, 1e-5);
    std::filesystem::remove_all(dir);
}

TEST(IdxReader, ALabelsOnlyLoadHasTheLabelsShapesAndNormalisationButNoImages)
{
    std::string dir = TempPath("fmnist-labels");
    std::filesystem::create_directories(dir);
    const std::vector<uint8_t> labels = {4, 1, 7};
    for (std::string prefix : {"train", "t10k"})
    {
        WriteFile(dir + "/" + prefix + "-images-idx3-ubyte.gz",
                  MakeIdx({3, 12, 10}, std::vector<uint8_t>(3 * 12 * 10, 9)),
                  true);
        WriteFile(dir + "/" + prefix + "-labels-idx1-ubyte", MakeIdx({3}, labels), false);
    }
    const DatasetSplit full = LoadFashionMnist(dir, Normalization());
    const DatasetSplit bare = LoadFashionMnistLabels(dir, Normalization());
    for (const auto& [a, b] : {std::pair{full.train, bare.train}, std::pair{full.test, bare.test}})
    {
        EXPECT_EQ(b->labels, a->labels);
        EXPECT_EQ(b->Size(), 3u);
        EXPECT_EQ(std::vector<uint32_t>({b->channels, b->height, b->width}),
                  std::vector<uint32_t>({1, 12, 10}));
        EXPECT_EQ(b->numClasses, a->numClasses);
        EXPECT_EQ(b->inputMean, a->inputMean);
        EXPECT_EQ(b->inputStd, a->inputStd);
        EXPECT_TRUE(b->images.empty());
        EXPECT_EQ(a->images.size(), 3u * 12 * 10);
    }
    // A held-out validation set of labels only stays one.
    const DatasetSplit held = HoldOutValidation(bare, 1.0 / 3.0, 5);
    EXPECT_EQ(held.train->Size() + held.test->Size(), 3u);
    EXPECT_TRUE(held.train->images.empty());
    // Only the header is read: a file truncated after it still gives its dimensions.
    std::vector<uint8_t> cut = MakeIdx({3, 12, 10}, std::vector<uint8_t>(3 * 12 * 10, 9));
    cut.resize(16 + 5);
    const std::string path = dir + "/cut";
    WriteFile(path, cut, false);
    EXPECT_EQ(ReadIdxHeader(path).dims, (std::vector<uint32_t>{3, 12, 10}));
    EXPECT_TRUE(ReadIdxHeader(path).data.empty());
    EXPECT_THROW(ReadIdxFile(path), DatasetError);
    std::filesystem::remove_all(dir);
}

/// A dataset whose labels are known exactly: `perClass` samples of each of 10 classes.
Dataset
LabelledData(uint32_t perClass)
{
    Dataset d;
    d.name = "labels";
    d.numClasses = 10;
    for (uint32_t i = 0; i < perClass * 10; ++i)
    {
        d.labels.push_back(i % 10);
        d.images.push_back(0.0f);
    }
    return d;
}

void
ExpectExactCover(const Partition& p, size_t n)
{
    std::vector<int> seen(n, 0);
    for (const auto& part : p)
    {
        for (uint32_t i : part)
        {
            ASSERT_LT(i, n);
            seen[i]++;
        }
    }
    for (size_t i = 0; i < n; ++i)
    {
        ASSERT_EQ(seen[i], 1) << "sample " << i;
    }
}

TEST(Partitioner, IidDealsEverySampleOnceInEqualParts)
{
    Dataset d = LabelledData(101);
    Partition p = PartitionIid(d, 8, 7);
    ExpectExactCover(p, d.Size());
    for (const auto& part : p)
    {
        EXPECT_TRUE(part.size() == 126 || part.size() == 127) << part.size();
    }
    EXPECT_EQ(p, PartitionIid(d, 8, 7));
    EXPECT_NE(p, PartitionIid(d, 8, 8));
}

TEST(Partitioner, ShardsGiveEachNodeTwoClasses)
{
    Dataset d = LabelledData(200);
    Partition p = PartitionShards(d, 10, 2, 3);
    ExpectExactCover(p, d.Size());
    for (const auto& part : p)
    {
        EXPECT_EQ(part.size(), 200u);
        std::vector<uint32_t> h = ClassHistogram(d, part);
        int classes = 0;
        for (uint32_t c : h)
        {
            // Shards of 100 samples never straddle a class boundary here.
            EXPECT_TRUE(c == 0 || c == 100 || c == 200) << c;
            classes += c > 0;
        }
        EXPECT_LE(classes, 2);
        EXPECT_GE(classes, 1);
    }
    EXPECT_EQ(p, PartitionShards(d, 10, 2, 3));
    EXPECT_NE(p, PartitionShards(d, 10, 2, 4));
    EXPECT_THROW(PartitionShards(d, 10, 0, 3), DatasetError);
}

TEST(Partitioner, DirichletSkewFollowsAlpha)
{
    Dataset d = LabelledData(500);
    auto maxClassShare = [&d](const Partition& p)
    {
        double total = 0;
        for (const auto& part : p)
        {
            std::vector<uint32_t> h = ClassHistogram(d, part);
            total += double(*std::max_element(h.begin(), h.end())) / part.size();
        }
        return total / p.size();
    };
    Partition skewed = PartitionDirichlet(d, 8, 0.1, 5);
    Partition even = PartitionDirichlet(d, 8, 1000.0, 5);
    ExpectExactCover(skewed, d.Size());
    ExpectExactCover(even, d.Size());
    EXPECT_GT(maxClassShare(skewed), 0.5);
    EXPECT_LT(maxClassShare(even), 0.2);
    EXPECT_EQ(skewed, PartitionDirichlet(d, 8, 0.1, 5));
    EXPECT_THROW(PartitionDirichlet(d, 8, 0.0, 5), DatasetError);
}

TEST(Partitioner, RejectsMoreNodesThanSamples)
{
    Dataset d = LabelledData(1);
    EXPECT_THROW(PartitionIid(d, 11, 1), DatasetError);
}

TEST(SyntheticDataset, IsDeterministicAndBalanced)
{
    SyntheticSpec spec;
    spec.trainSamples = 300;
    spec.testSamples = 50;
    DatasetSplit a = MakeSyntheticDataset(spec);
    DatasetSplit b = MakeSyntheticDataset(spec);
    EXPECT_EQ(a.train->images, b.train->images);
    for (uint32_t c : ClassHistogram(*a.train, AllSamples(300)))
    {
        EXPECT_EQ(c, 30u);
    }
    spec.seed = 2;
    EXPECT_NE(MakeSyntheticDataset(spec).train->images, a.train->images);
}

TEST(Learner, FlattensParametersInRegistrationOrder)
{
    DatasetSplit data = SyntheticData(40, 10);
    const std::vector<uint32_t> part = AllSamples(40);
    TrainingConfig config;
    config.model = "gn-lenet";
    Learner a(config, data.train, part, 1, 1);
    // conv 1->32, GN, conv 32->32, GN, conv 32->64, GN, linear 576->10 (see nn-models.h)
    EXPECT_EQ(a.NumParameters(), 832u + 64 + 25632 + 64 + 51264 + 128 + 5770);
    Learner b(config, data.train, part, 1, 2);
    EXPECT_EQ(a.GetParameters(), b.GetParameters()) << "same init seed, same model";
    Learner c(config, data.train, part, 2, 1);
    EXPECT_NE(a.GetParameters(), c.GetParameters());

    std::vector<float> flat(a.NumParameters());
    for (size_t i = 0; i < flat.size(); ++i)
    {
        flat[i] = static_cast<float>(i) * 1e-6f;
    }
    a.SetParameters(flat);
    EXPECT_EQ(a.GetParameters(), flat);
    // The first conv's 32x1x5x5 weights come first, then its 32 biases.
    EXPECT_FLOAT_EQ(a.GetParameters()[800], 800e-6f);
    EXPECT_THROW(a.SetParameters(std::vector<float>(3)), std::invalid_argument);
    EXPECT_GT(a.TrainFlopsPerSample(), 3 * 2 * 8.0e6); // 3 x forward, ~8.1M multiply-adds
}

TEST(Learner, TrainingLowersTheLoss)
{
    DatasetSplit data = SyntheticData(500, 200);
    TrainingConfig config;
    config.model = "mlp";
    config.lr = 0.05;
    config.batchSize = 16;
    config.localSteps = 10;
    Learner learner(config, data.train, AllSamples(500), 1, 1);
    EvalResult before = learner.Evaluate(*data.test, 0);
    for (int i = 0; i < 10; ++i)
    {
        learner.Train();
    }
    EvalResult after = learner.Evaluate(*data.test, 0);
    EXPECT_EQ(after.samples, 200u);
    EXPECT_LT(after.loss, before.loss);
    EXPECT_GT(after.accuracy, 0.9);
    EXPECT_EQ(learner.Evaluate(*data.test, 50).samples, 50u);
}

TEST(Learner, ASnapshotEvaluatesTheModelAsItWasWhenTaken)
{
    DatasetSplit data = SyntheticData(300, 200);
    TrainingConfig config;
    config.model = "gn-lenet";
    config.lr = 0.05;
    Learner learner(config, data.train, AllSamples(300), 1, 1);
    learner.Train();
    const EvalResult now = learner.Evaluate(*data.test, 0);
    const std::vector<float> model = learner.GetParameters();
    auto snapshot = learner.Snapshot();
    ASSERT_NE(snapshot, nullptr);
    for (int i = 0; i < 5; ++i)
    {
        learner.Train(); // the learner moves on; the copy does not
    }
    const EvalResult later = learner.Evaluate(*data.test, 0);
    ASSERT_NE(later.loss, now.loss);
    // Bit for bit what the learner gave when the copy was taken (same modules, same kernels).
    EXPECT_EQ(snapshot->Evaluate(*data.test, 0).loss, now.loss);
    EXPECT_EQ(snapshot->Evaluate(*data.test, 0).accuracy, now.accuracy);
    EXPECT_EQ(snapshot->Evaluate(*data.test, 50).samples, 50u);
    // With parameters given: the model of those parameters.
    auto old = learner.Snapshot(&model);
    ASSERT_NE(old, nullptr);
    EXPECT_EQ(old->Evaluate(*data.test, 0).loss, now.loss);
    EXPECT_EQ(learner.Evaluate(*data.test, 0).loss, later.loss) << "the learner is untouched";
    const std::vector<float> wrong(3);
    EXPECT_THROW(learner.Snapshot(&wrong), std::invalid_argument);
}

TEST(Learner, UnknownModelIsRejected)
{
    SyntheticSpec spec;
    DatasetSplit data = MakeSyntheticDataset(spec);
    TrainingConfig config;
    config.model = "resnet";
    EXPECT_THROW(Learner(config, data.train, {0, 1}, 1, 1), std::invalid_argument);
}

} // namespace
} // namespace ns3

namespace ns3
{
namespace
{

TEST(Partitioner, SkewSortsAFractionAndDealsTheRestIid)
{
    Dataset d = LabelledData(400); // 4000 samples, 10 classes
    Partition iid = PartitionSkew(d, 4, 0.0, 1);
    Partition sorted = PartitionSkew(d, 4, 1.0, 1);
    Partition mixed = PartitionSkew(d, 4, 0.8, 1);
    for (const Partition* p : {&iid, &sorted, &mixed})
    {
        ExpectExactCover(*p, d.Size());
    }
    auto classesOf = [&d](const std::vector<uint32_t>& part)
    {
        int n = 0;
        for (uint32_t c : ClassHistogram(d, part))
        {
            n += c > 0;
        }
        return n;
    };
    // Fully sorted: node 0 holds classes 0-2 (1000 of 4000 samples), none of the others.
    EXPECT_LE(classesOf(sorted[0]), 3);
    EXPECT_EQ(classesOf(iid[0]), 10);
    // 80% skew: node 0 has about 0.8 * 1000 samples of its sorted block's first classes.
    std::vector<uint32_t> h = ClassHistogram(d, mixed[0]);
    EXPECT_GT(h[0] + h[1] + h[2], 700u);
    EXPECT_EQ(classesOf(mixed[0]), 10);
    EXPECT_THROW(PartitionSkew(d, 4, 1.5, 1), DatasetError);
}

} // namespace
} // namespace ns3

// A validation set held out of the training data: the requested share, disjoint from what is
// left to train on, every sample in exactly one of the two, the same draw for the same seed and
// another for another seed; the test set is not used.
TEST(Dataset, AValidationSetIsHeldOutOfTheTrainingData)
{
    SyntheticSpec spec;
    spec.trainSamples = 1000;
    spec.testSamples = 50;
    DatasetSplit data = MakeSyntheticDataset(spec);
    DatasetSplit held = HoldOutValidation(data, 0.1, 42);
    ASSERT_EQ(held.test->Size(), 100u);
    ASSERT_EQ(held.train->Size(), 900u);
    EXPECT_NE(held.test->name.find("validation"), std::string::npos);
    // Every training sample lands in exactly one part: match samples by their pixels.
    const size_t d = data.train->SampleSize();
    std::multiset<std::vector<float>> original;
    std::multiset<std::vector<float>> parts;
    auto sample = [d](const Dataset& set, size_t i)
    {
        return std::vector<float>(set.images.begin() + static_cast<std::ptrdiff_t>(i * d),
                                  set.images.begin() + static_cast<std::ptrdiff_t>((i + 1) * d));
    };
    for (size_t i = 0; i < data.train->Size(); ++i)
    {
        original.insert(sample(*data.train, i));
    }
    for (const auto* part : {held.train.get(), held.test.get()})
    {
        for (size_t i = 0; i < part->Size(); ++i)
        {
            parts.insert(sample(*part, i));
        }
    }
    EXPECT_EQ(original, parts);
    EXPECT_EQ(HoldOutValidation(data, 0.1, 42).test->labels, held.test->labels);
    EXPECT_EQ(HoldOutValidation(data, 0.1, 42).test->images, held.test->images);
    EXPECT_NE(HoldOutValidation(data, 0.1, 43).test->images, held.test->images);
    EXPECT_THROW(HoldOutValidation(data, 0.0001, 1), DatasetError); // rounds to no sample
    EXPECT_THROW(HoldOutValidation(data, 1.0, 1), DatasetError);
}
