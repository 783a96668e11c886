// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the reproducibility inputs through dlsim-run, as a user gives them: a run on CIFAR-10
 * files (generated here in the binary version's format), partition files, initial parameters
 * from a file and the normalisation keys, each with its errors.
 */
#include "learner.h"
#include "run-command.h"
#include "synthetic-dataset.h"
#include "test-data.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
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
    fs::path dir = fs::temp_directory_path()
                   / ("dlsim-inputs-run-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir.string();
}

void
WriteText(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

/// A batch of CIFAR-10's binary version: `records` records, label (seed + r) mod 10.
std::string
CifarBatch(int seed, size_t records)
{
    std::string bytes;
    for (size_t r = 0; r < records; ++r)
    {
        bytes.push_back(static_cast<char>((seed + r) % 10));
        for (size_t k = 0; k < 3072; ++k)
        {
            bytes.push_back(static_cast<char>((seed * 31 + r * 7 + k * 13) % 256));
        }
    }
    return bytes;
}

/// Lines of a CSV file, header included.
std::vector<std::string>
Lines(const std::string& path)
{
    std::vector<std::string> lines;
    std::istringstream in(ReadWholeFile(path));
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

std::string
Field(const std::string& line, size_t index)
{
    std::istringstream in(line);
    std::string field;
    for (size_t i = 0; i <= index; ++i)
    {
        std::getline(in, field, ',');
    }
    return field;
}

int
RunDlsim(const std::string& args, std::string& output)
{
    return RunCommand("timeout 300 " + std::string(DLSIM_RUN_BINARY) + " --no-plot " + args,
                      output);
}

TEST(Cifar10Run, GeneratedFilesRunEndToEndWithGnLenetOn3x32x32)
{
    const std::string dir = TempDir("cifar");
    fs::create_directories(dir + "/cifar-10-batches-bin");
    for (int b = 1; b <= 5; ++b)
    {
        WriteText(dir + "/cifar-10-batches-bin/data_batch_" + std::to_string(b) + ".bin",
                  CifarBatch(b, 16));
    }
    WriteText(dir + "/cifar-10-batches-bin/test_batch.bin", CifarBatch(6, 20));
    std::string output;
    // dataset.path names the folder above the unpacked one: it is found inside.
    const int status = RunDlsim("--dataset=cifar10 --dataset.path=" + dir
                                    + " --dataset.normalize=fixed"
                                      " --dataset.mean='[0.4914, 0.4822, 0.4465]'"
                                      " --dataset.std='[0.247, 0.243, 0.261]'"
                                      " --model=gn-lenet --nodes=4 --degree=2 --partition=shards"
                                      " --rounds=2 --eval.every=1 --out="
                                    + dir + "/run",
                                output);
    ASSERT_EQ(status, 0) << output;
    EXPECT_NE(output.find("cifar10-train, 80 training and 20 test samples of 3x32x32, normalised "
                          "with mean [0.4914, 0.4822, 0.4465]"),
              std::string::npos)
        << output;
    EXPECT_TRUE(fs::exists(dir + "/run/summary.json"));
    // Every message carries GN-LeNet's 89,834 float32 values: 2 neighbours, 2 rounds.
    std::vector<std::string> rounds = Lines(dir + "/run/rounds.csv");
    ASSERT_EQ(rounds.size(), 1u + 4 * 2) << ReadWholeFile(dir + "/run/rounds.csv");
    for (size_t i = 1; i < rounds.size(); ++i)
    {
        EXPECT_EQ(Field(rounds[i], 5), std::to_string(2 * 4 * 89834)) << rounds[i];
    }
    // Four nodes of 20 samples, 10 classes in the histogram.
    std::vector<std::string> partition = Lines(dir + "/run/partition.csv");
    ASSERT_EQ(partition.size(), 5u);
    EXPECT_EQ(Field(partition[1], 1), "20");
    EXPECT_NE(partition[0].find("class_9"), std::string::npos);
    fs::remove_all(dir);
}

TEST(Cifar10Run, MissingFilesAreRefusedBeforeAnythingIsWritten)
{
    const std::string dir = TempDir("cifar-missing");
    std::string output;
    EXPECT_EQ(
        RunDlsim("--dataset=cifar10 --dataset.path=" + dir + " --out=" + dir + "/run", output), 2)
        << output;
    for (const char* word : {"dataset.path", "data_batch_1.bin", "CIFAR-10 binary version"})
    {
        EXPECT_NE(output.find(word), std::string::npos) << word << " in: " << output;
    }
    EXPECT_FALSE(fs::exists(dir + "/run")) << "the run folder was created";
    // The shipped scenario refuses the same way.
    EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " " + DLSIM_SOURCE_DIR
                             + "/scenarios/jwins-paper-cifar10.ini --dataset.path=" + dir
                             + " --out=" + dir + "/paper",
                         output),
              2)
        << output;
    EXPECT_NE(output.find("data_batch_1.bin"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(dir + "/paper"));
    fs::remove_all(dir);
}

const std::string kSmall = " --dataset=synthetic --synthetic.train_samples=200 --model=logistic"
                           " --nodes=4 --degree=2 --rounds=2 --eval.every=1";

TEST(PartitionFileRun, NodesTrainOnTheSamplesTheFileGives)
{
    const std::string dir = TempDir("partition");
    // Node 0: samples 0..9; node 1: 10..39; node 2: 40..44 and 0 (shared with node 0);
    // node 3: sample 199 only. The rest is unused.
    std::ostringstream csv;
    csv << "node,sample\n";
    for (int s = 0; s < 10; ++s)
    {
        csv << "0," << s << "\n";
    }
    for (int s = 10; s < 40; ++s)
    {
        csv << "1," << s << "\n";
    }
    csv << "# a comment\n";
    for (int s = 40; s < 45; ++s)
    {
        csv << "2," << s << "\n";
    }
    csv << "2,0\n3,199\n";
    WriteText(dir + "/parts.csv", csv.str());
    std::string output;
    ASSERT_EQ(RunDlsim(kSmall + " --partition=file --partition.file=" + dir
                           + "/parts.csv --out=" + dir + "/run",
                       output),
              0)
        << output;
    std::vector<std::string> rows = Lines(dir + "/run/partition.csv");
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(Field(rows[1], 1), "10");
    EXPECT_EQ(Field(rows[2], 1), "30");
    EXPECT_EQ(Field(rows[3], 1), "6");
    EXPECT_EQ(Field(rows[4], 1), "1");
    // Synthetic labels are i mod 10: node 0 has one sample of each class, node 3 one of class 9.
    EXPECT_EQ(rows[1], "0,10,1,1,1,1,1,1,1,1,1,1");
    EXPECT_EQ(rows[4], "3,1,0,0,0,0,0,0,0,0,0,1");
    EXPECT_NE(output.find("47 (node, sample) pairs"), std::string::npos) << output;
    EXPECT_NE(output.find("1 training samples held by more than one node, 154 by none"),
              std::string::npos)
        << output;
    fs::remove_all(dir);
}

TEST(PartitionFileRun, EveryErrorNamesTheKeyTheFileAndTheLine)
{
    const std::string dir = TempDir("partition-bad");
    const std::string valid = "0,0\n1,1\n2,2\n3,3\n";
    struct Case
    {
        std::string name;
        std::string text;
        std::vector<std::string> words;
    };
    const std::vector<Case> cases = {
        {"node out of range", "node,sample\n" + valid + "4,5\n", {"parts.csv:6", "node 4"}},
        {"sample out of range", valid + "1,200\n", {"parts.csv:5", "sample 200", "0 to 199"}},
        {"same node and sample twice",
         "node,sample\n" + valid + "2,7\n2,7\n",
         {"parts.csv:7", "sample 7", "second time", "parts.csv:6"}},
        {"node without samples", "0,0\n1,1\n3,3\n", {"parts.csv", "node 2 has no samples"}},
        {"not a number", valid + "1,seven\n", {"parts.csv:5", "seven"}},
        {"negative index", valid + "-1,3\n", {"parts.csv:5", "-1"}},
        {"three columns", valid + "1,2,3\n", {"parts.csv:5", "expected 2"}},
    };
    for (const Case& c : cases)
    {
        WriteText(dir + "/parts.csv", c.text);
        std::string output;
        EXPECT_EQ(RunDlsim(kSmall + " --partition=file --partition.file=" + dir
                               + "/parts.csv --out=" + dir + "/run",
                           output),
                  2)
            << c.name << ": " << output;
        std::vector<std::string> words = c.words;
        words.push_back("partition.file");
        for (const auto& word : words)
        {
            EXPECT_NE(output.find(word), std::string::npos)
                << c.name << ": no '" << word << "' in: " << output;
        }
    }
    std::string output;
    EXPECT_EQ(RunDlsim(kSmall + " --partition=file --out=" + dir + "/run", output), 2) << output;
    EXPECT_NE(output.find("partition.file"), std::string::npos) << output;
    EXPECT_EQ(RunDlsim(kSmall + " --partition=file --partition.file=" + dir
                           + "/none.csv --out=" + dir + "/run",
                       output),
              2)
        << output;
    EXPECT_NE(output.find("none.csv"), std::string::npos) << output;
    fs::remove_all(dir);
}

TEST(InitFileRun, EveryLearnerStartsFromTheFile)
{
    const std::string dir = TempDir("init");
    // Parameters of a logistic model for 1x28x28 inputs, exported as a user would from PyTorch.
    DatasetSplit data = TinySyntheticData();
    TrainingConfig config;
    config.model = "logistic";
    Learner exported(config, data.train, {0, 1}, 12345, 1);
    WriteParameterFile(dir + "/init.bin", exported.GetParameters());

    // Different initial models per learner, but the file overrides them: at round 0 every
    // learner evaluates the same model.
    std::string output;
    ASSERT_EQ(RunDlsim(kSmall + " --model.same_init=false --model.init_file=" + dir
                           + "/init.bin --out=" + dir + "/run",
                       output),
              0)
        << output;
    EXPECT_NE(output.find("every learner starts from the 7850 parameters"), std::string::npos)
        << output;
    std::vector<std::string> eval = Lines(dir + "/run/eval.csv");
    std::set<std::string> initial;
    for (const auto& line : eval)
    {
        if (line.rfind("0,", 0) == 0)
        {
            initial.insert(Field(line, 3) + "," + Field(line, 4));
        }
    }
    EXPECT_EQ(initial.size(), 1u) << ReadWholeFile(dir + "/run/eval.csv");

    // Without the file the learners start apart.
    ASSERT_EQ(RunDlsim(kSmall + " --model.same_init=false --out=" + dir + "/apart", output), 0)
        << output;
    std::set<std::string> apart;
    for (const auto& line : Lines(dir + "/apart/eval.csv"))
    {
        if (line.rfind("0,", 0) == 0)
        {
            apart.insert(Field(line, 3) + "," + Field(line, 4));
        }
    }
    EXPECT_GT(apart.size(), 1u);

    // A file for another model: the file, the expected and the found count are named.
    std::vector<float> shorter = exported.GetParameters();
    shorter.pop_back();
    WriteParameterFile(dir + "/short.bin", shorter);
    EXPECT_EQ(RunDlsim(kSmall + " --model.init_file=" + dir + "/short.bin --out=" + dir + "/short",
                       output),
              2)
        << output;
    for (const char* word : {"model.init_file", "short.bin", "7849", "7850"})
    {
        EXPECT_NE(output.find(word), std::string::npos) << word << " in: " << output;
    }
    // A missing file is refused before the run folder is made.
    EXPECT_EQ(
        RunDlsim(kSmall + " --model.init_file=" + dir + "/none.bin --out=" + dir + "/none", output),
        2)
        << output;
    EXPECT_NE(output.find("none.bin"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(dir + "/none"));
    fs::remove_all(dir);
}

TEST(NormalizationRun, KeysAreCheckedAgainstTheDataset)
{
    const std::string dir = TempDir("normalize");
    std::string output;
    EXPECT_EQ(RunDlsim(kSmall + " --dataset.normalize=fixed --dataset.mean='[0.1, 0.2]' --out="
                           + dir + "/run",
                       output),
              2)
        << output;
    EXPECT_NE(output.find("dataset.mean"), std::string::npos) << output;
    EXPECT_EQ(RunDlsim(kSmall + " --dataset.normalize=fixed --dataset.std=0 --out=" + dir + "/run",
                       output),
              2)
        << output;
    EXPECT_NE(output.find("dataset.std"), std::string::npos) << output;
    EXPECT_EQ(RunDlsim(kSmall + " --dataset.normalize=mean --out=" + dir + "/run", output), 2)
        << output;
    EXPECT_NE(output.find("dataset.normalize"), std::string::npos) << output;
    // Synthetic data shifted by fixed values still runs; the log says what was applied.
    ASSERT_EQ(RunDlsim(kSmall + " --dataset.normalize=fixed --dataset.mean=1 --dataset.std=2 --out="
                           + dir + "/run",
                       output),
              0)
        << output;
    EXPECT_NE(output.find("normalised with mean [1] and std [2]"), std::string::npos) << output;
    fs::remove_all(dir);
}

} // namespace
} // namespace ns3
