// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: a partition scheme defined and registered in this file only, with no other edit to
 * dlsim, is selectable by `partition = <name>`, its key is a scenario key, and bad values of
 * registered keys (its own, a dataset's, a model's) are refused naming the key.
 */
#include "partitioner.h"
#include "run-command.h"
#include "scenario-config.h"
#include "scenario-runner.h"
#include "synthetic-dataset.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/// Sample i goes to node (i + offset) mod nodes: every node gets every nodes-th sample.
PartitionRegistration
RoundRobinRegistration()
{
    PartitionRegistration r;
    r.name = "round-robin";
    r.keys = {AlgorithmKey::WholeNumber(
        "round-robin.offset", "0", 0, 1000, "partition = round-robin: node of sample 0")};
    r.help = "sample i to node (i + round-robin.offset) mod nodes";
    r.create = [](const RegisteredParameters& p, const Dataset& train, uint32_t nodes, uint64_t)
    {
        Partition partition(nodes);
        const uint64_t offset = p.GetUint("round-robin.offset");
        for (uint32_t i = 0; i < train.Size(); ++i)
        {
            partition[(i + offset) % nodes].push_back(i);
        }
        return partition;
    };
    return r;
}

DLSIM_REGISTER_PARTITION(RoundRobinRegistration);

/// The message CheckScenario refuses the overrides with ("" when it accepts them).
std::string
Refusal(const std::vector<std::string>& overrides)
{
    try
    {
        CheckScenario(ScenarioConfig::Load("", overrides));
    }
    catch (const std::exception& e)
    {
        return e.what();
    }
    return "";
}

TEST(CustomPartition, IsRegisteredWithItsKey)
{
    SyntheticSpec spec;
    spec.trainSamples = 10;
    spec.testSamples = 2;
    const DatasetSplit data = MakeSyntheticDataset(spec);
    const PartitionRegistration& scheme = PartitionRegistry::Get("round-robin");
    const Partition p
        = scheme.create(PartitionRegistry::Parameters("round-robin", {{"round-robin.offset", "1"}}),
                        *data.train,
                        3,
                        1);
    EXPECT_EQ(p, (Partition{{2, 5, 8}, {0, 3, 6, 9}, {1, 4, 7}}));

    bool listed = false;
    bool keyed = false;
    for (const auto& key : ScenarioKeys())
    {
        listed = listed
                 || (key.name == "partition" && key.help.find("round-robin") != std::string::npos);
        keyed = keyed || (key.name == "round-robin.offset" && key.defaultValue == "0");
    }
    EXPECT_TRUE(listed);
    EXPECT_TRUE(keyed);
}

TEST(CustomPartition, RunsAWholeSimulation)
{
    const std::string out = (std::filesystem::temp_directory_path()
                             / ("dlsim-custom-partition-" + std::to_string(::getpid())))
                                .string();
    std::filesystem::remove_all(out);
    ScenarioConfig c = ScenarioConfig::Load("",
                                            {"--partition=round-robin",
                                             "--round-robin.offset=2",
                                             "--nodes=4",
                                             "--degree=2",
                                             "--rounds=2",
                                             "--dataset=synthetic",
                                             "--synthetic.train_samples=202",
                                             "--synthetic.test_samples=20",
                                             "--model=logistic",
                                             "--eval.every=2",
                                             "--out=" + out});
    std::ostringstream log;
    RunSummary summary = RunScenario(c, log);
    EXPECT_EQ(summary.finalRound, 2u) << log.str();
    // 202 samples from node 2 on: nodes 2 and 3 get 51, nodes 0 and 1 get 50.
    const std::string csv = ReadWholeFile(out + "/partition.csv");
    for (const std::string row : {"\n0,50,", "\n1,50,", "\n2,51,", "\n3,51,"})
    {
        EXPECT_NE(csv.find(row), std::string::npos) << csv;
    }
    const std::string ini = ReadWholeFile(out + "/config.ini");
    EXPECT_NE(ini.find("[round-robin]\noffset = 2\n"), std::string::npos) << ini;
    std::filesystem::remove_all(out);
}

TEST(CustomPartition, BadValuesOfRegisteredKeysAreRefusedNamingTheKey)
{
    const std::vector<std::string> small = {"--dataset=synthetic", "--model=logistic"};
    auto with = [&small](const std::string& arg)
    {
        std::vector<std::string> args = small;
        args.push_back(arg);
        return args;
    };
    EXPECT_EQ(Refusal(small), "");
    EXPECT_EQ(Refusal(with("--partition=round-robin")), "");
    for (const auto& [arg, key] : std::vector<std::pair<std::string, std::string>>{
             {"--round-robin.offset=x", "round-robin.offset"},
             {"--round-robin.offset=1001", "round-robin.offset"},
             {"--partition.shards=0", "partition.shards"},
             {"--partition.alpha=-1", "partition.alpha"},
             {"--partition.skew=2", "partition.skew"},
             {"--synthetic.classes=1", "synthetic.classes"},
             {"--dataset.normalize=mean", "dataset.normalize"},
             {"--partition=roundrobin", "partition"},
             {"--model=lenet", "model"},
             {"--dataset=mnist", "dataset"}})
    {
        const std::string message = Refusal(with(arg));
        EXPECT_NE(message.find(key), std::string::npos) << arg << ": " << message;
    }
    // An unknown name's message lists the registered ones, the test's own included.
    EXPECT_NE(Refusal(with("--partition=roundrobin")).find("round-robin"), std::string::npos);
    try
    {
        PartitionRegistry::Parameters("round-robin", {{"round-robin.ofset", "1"}});
        ADD_FAILURE() << "a key the scheme does not have was accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("round-robin.ofset"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace ns3
