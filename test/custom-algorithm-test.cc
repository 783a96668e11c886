// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an algorithm defined and registered in this file only, with no other edit to dlsim,
 * runs in the in-memory network and in a whole simulation selected by `algorithm = <name>`.
 * doc/dlsim.rst ("Adding an algorithm") walks through this file.
 */
#include "algorithm-registry.h"
#include "in-memory-network.h"
#include "run-command.h"
#include "scenario-runner.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/**
 * Gossip with a fixed mixing weight: every round a node sends its whole model and moves towards
 * each neighbour's by the same weight w, x_i <- x_i + w * sum_j (x_j - x_i). On an undirected
 * graph the mixing matrix is symmetric, so the average is kept; w below 1 / (largest degree + 1)
 * makes it converge.
 */
class FixedWeightGossip : public SharingAlgorithm
{
  public:
    explicit FixedWeightGossip(double weight) : m_weight(weight) {}

    void Initialize(const std::vector<float>& initialModel, const SharingContext&) override
    {
        m_length = initialModel.size();
    }

    EncodedPayload Encode(const RoundInfo&, const std::vector<float>& trainedModel) override
    {
        // The payload codec does the bytes, so the byte counts are the simulator's.
        Payload payload;
        payload.form = PayloadForm::Full;
        payload.length = static_cast<uint32_t>(m_length);
        payload.values = trainedModel;
        return EncodePayload(payload);
    }

    std::vector<float> Aggregate(const RoundInfo&,
                                 const std::vector<float>& trainedModel,
                                 const std::vector<ReceivedPayload>& received) override
    {
        std::vector<double> next(trainedModel.begin(), trainedModel.end());
        for (const auto& message : received)
        {
            // Decodes, checks form and length, and names the sender in any error.
            const Payload payload = DecodeReceived(message,
                                                   {"fixed-weight gossip",
                                                    {PayloadForm::Full},
                                                    static_cast<uint32_t>(m_length),
                                                    0})
                                        .payload;
            for (size_t k = 0; k < m_length; ++k)
            {
                next[k] += m_weight * (payload.values[k] - trainedModel[k]);
            }
        }
        return std::vector<float>(next.begin(), next.end());
    }

    bool ForDirectedGraphs() const override
    {
        return false;
    }

  private:
    double m_weight;
    size_t m_length = 0;
};

AlgorithmRegistration
FixedWeightGossipRegistration()
{
    AlgorithmRegistration r;
    r.name = "fixed-weight-gossip";
    r.keys = {AlgorithmKey::Number("fixed-weight-gossip.weight",
                                   "0.2",
                                   0.0,
                                   1.0,
                                   "fixed-weight gossip: weight of every neighbour's model")};
    r.forDirectedGraphs = false;
    r.label = [](const std::map<std::string, std::string>& config)
    {
        return "fixed-weight gossip (w " + config.at("fixed-weight-gossip.weight") + ")";
    };
    r.create = [](const AlgorithmParameters& p)
    {
        return std::make_unique<FixedWeightGossip>(p.GetDouble("fixed-weight-gossip.weight"));
    };
    return r;
}

DLSIM_REGISTER_ALGORITHM(FixedWeightGossipRegistration);

TEST(CustomAlgorithm, IsKnownToTheRunnerThroughItsRegistration)
{
    std::vector<std::string> names = KnownAlgorithms();
    EXPECT_NE(std::find(names.begin(), names.end(), "fixed-weight-gossip"), names.end());
    bool listed = false;
    for (const auto& key : ScenarioKeys())
    {
        listed = listed || key.name == "fixed-weight-gossip.weight";
    }
    EXPECT_TRUE(listed) << "the key is in the scenario key table (and so in --help)";
    ScenarioConfig c = ScenarioConfig::Load(
        "", {"--algorithm=fixed-weight-gossip", "--fixed-weight-gossip.weight=0.25"});
    EXPECT_EQ(c.GetString("fixed-weight-gossip.weight"), "0.25");
    EXPECT_EQ(AlgorithmFigureLabel(
                  {{"algorithm", "fixed-weight-gossip"}, {"fixed-weight-gossip.weight", "0.25"}}),
              "fixed-weight gossip (w 0.25)");
    // A bad value is refused before anything runs, naming the key and the value.
    ScenarioConfig bad = ScenarioConfig::Load(
        "", {"--algorithm=fixed-weight-gossip", "--fixed-weight-gossip.weight=2"});
    try
    {
        CheckScenario(bad);
        ADD_FAILURE() << "weight 2 accepted";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("fixed-weight-gossip.weight"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("'2'"), std::string::npos) << e.what();
    }
}

TEST(CustomAlgorithm, ReachesTheAverageInMemory)
{
    const uint32_t n = 6;
    Adjacency ring(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        ring[i] = {(i + n - 1) % n, (i + 1) % n};
    }
    std::mt19937 rng(3);
    std::normal_distribution<float> normal;
    std::vector<std::vector<float>> models(n, std::vector<float>(10));
    for (auto& m : models)
    {
        for (float& x : m)
        {
            x = normal(rng);
        }
    }
    SharingConfig config;
    config.algorithm = "fixed-weight-gossip";
    config.parameters = {{"fixed-weight-gossip.weight", "0.3"}};
    InMemoryNetwork network(config, ring, models);
    const std::vector<double> average = network.GetAverage();
    network.Run(100);
    for (const auto& m : network.GetModels())
    {
        for (size_t k = 0; k < m.size(); ++k)
        {
            EXPECT_NEAR(m[k], average[k], 1e-5);
        }
    }
    for (const auto& message : network.GetMessages())
    {
        EXPECT_EQ(message.payload.size(), 5u + 4 * 10); // form, length, 10 float32 values
    }
    EXPECT_EQ(network.GetMessages().size(), 100u * n * 2);
}

TEST(CustomAlgorithm, RunsAWholeSimulation)
{
    const std::string out = (std::filesystem::temp_directory_path()
                             / ("dlsim-custom-algorithm-" + std::to_string(::getpid())))
                                .string();
    std::filesystem::remove_all(out);
    const uint32_t nodes = 4;
    const uint32_t rounds = 3;
    const uint32_t degree = 2;
    ScenarioConfig c = ScenarioConfig::Load("",
                                            {"--algorithm=fixed-weight-gossip",
                                             "--fixed-weight-gossip.weight=0.25",
                                             "--nodes=" + std::to_string(nodes),
                                             "--degree=" + std::to_string(degree),
                                             "--rounds=" + std::to_string(rounds),
                                             "--dataset=synthetic",
                                             "--synthetic.train_samples=200",
                                             "--synthetic.test_samples=20",
                                             "--model=logistic",
                                             "--eval.every=3",
                                             "--out=" + out});
    std::ostringstream log;
    RunSummary summary = RunScenario(c, log);
    EXPECT_EQ(summary.finalRound, rounds) << log.str();
    // Every node sends its whole model to each neighbour every round: the values are
    // rounds * degree * 4 bytes per parameter, the metadata the payload's 5 bytes and the
    // message header per message.
    const double messages = rounds * degree;
    const double parameters = summary.valueBytesPerNode / (4.0 * messages);
    EXPECT_EQ(parameters, std::floor(parameters)) << summary.valueBytesPerNode;
    EXPECT_GT(parameters, 0.0);
    EXPECT_EQ(summary.metadataBytesPerNode, messages * (5 + 28));
    const std::string ini = ReadWholeFile(out + "/config.ini");
    EXPECT_NE(ini.find("[fixed-weight-gossip]\nweight = 0.25\n"), std::string::npos) << ini;
    std::filesystem::remove_all(out);
}

// doc/dlsim.rst ("Adding an algorithm") shows this file's algorithm: the same code, indented
// as a literal block, so that the documented algorithm is the tested one.
TEST(CustomAlgorithm, IsTheOneTheDocumentationShows)
{
    const std::string source
        = ReadWholeFile(std::string(DLSIM_SOURCE_DIR) + "/test/custom-algorithm-test.cc");
    const std::string first = "class FixedWeightGossip : public SharingAlgorithm";
    const std::string last = "DLSIM_REGISTER_ALGORITHM(FixedWeightGossipRegistration);";
    const size_t begin = source.find(first);
    const size_t end = source.find(last);
    ASSERT_NE(begin, std::string::npos);
    ASSERT_NE(end, std::string::npos);
    std::string block;
    std::istringstream lines(source.substr(begin, end + last.size() - begin));
    for (std::string line; std::getline(lines, line);)
    {
        block += (line.empty() ? "" : "   " + line) + "\n";
    }
    EXPECT_NE(ReadWholeFile(std::string(DLSIM_SOURCE_DIR) + "/doc/dlsim.rst").find(block),
              std::string::npos)
        << "doc/dlsim.rst no longer shows this file's algorithm";
}

} // namespace
} // namespace ns3
