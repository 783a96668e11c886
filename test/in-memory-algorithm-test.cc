// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: every sharing algorithm on the in-memory network (no ns-3): consensus, exact bytes per
 * message, equivalences between algorithms, and the registry's checks.
 */
#include "algorithm-registry.h"
#include "consensus-measures.h"
#include "in-memory-network.h"
#include "message-framing.h"
#include "model-transform.h"
#include "payload-codec.h"
#include "sparse-selection.h"

#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <random>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

using Models = std::vector<std::vector<float>>;

constexpr uint32_t kNodes = 8;
constexpr uint32_t kLength = 40;

/// 8 nodes, each linked to i - 1, i + 1 and i + 4: undirected, 3-regular, connected.
Adjacency
Circulant()
{
    Adjacency graph(kNodes);
    for (uint32_t i = 0; i < kNodes; ++i)
    {
        graph[i] = {(i + kNodes - 1) % kNodes, (i + 1) % kNodes, (i + 4) % kNodes};
    }
    return graph;
}

/// 8 nodes, i sending to i + 1, i + 2 and i + 4: directed (exponential graph).
Adjacency
DirectedExponential()
{
    Adjacency graph(kNodes);
    for (uint32_t i = 0; i < kNodes; ++i)
    {
        graph[i] = {(i + 1) % kNodes, (i + 2) % kNodes, (i + 4) % kNodes};
    }
    return graph;
}

Models
RandomModels(uint32_t seed = 7)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Models models(kNodes, std::vector<float>(kLength));
    for (auto& model : models)
    {
        for (float& x : model)
        {
            x = normal(rng);
        }
    }
    return models;
}

SharingConfig
Config(const std::string& algorithm, const std::map<std::string, std::string>& parameters = {})
{
    SharingConfig config;
    config.algorithm = algorithm;
    config.parameters = parameters;
    return config;
}

/**
 * Run `rounds` rounds without training; the models agree (largest distance from their mean,
 * relative to the initial spread, below `spreadTolerance`) on a point near the initial average
 * (relative distance below `driftTolerance`).
 */
void
ExpectConsensus(const SharingConfig& config,
                const Adjacency& graph,
                uint32_t rounds,
                double spreadTolerance,
                double driftTolerance)
{
    const Models initial = RandomModels();
    InMemoryNetwork network(config, graph, initial);
    network.Run(rounds);
    const Consensus c = MeasureConsensus(initial, network.GetModels());
    std::cout << config.algorithm << ": final spread " << c.spread << ", drift " << c.drift
              << " (relative to the initial spread)" << std::endl;
    EXPECT_LT(c.spread, spreadTolerance) << config.algorithm;
    EXPECT_LT(c.drift, driftTolerance) << config.algorithm;
}

// D-PSGD's Metropolis-Hastings weights are doubly stochastic on an undirected graph: the
// average is kept exactly (up to float rounding) and every model converges to it.
TEST(InMemoryConsensus, DpsgdReachesTheAverage)
{
    ExpectConsensus(Config("dpsgd"), Circulant(), 60, 1e-5, 1e-6);
}

// The partial-model family fills what a neighbour did not send with the receiver's own values,
// which is not mass-preserving: consensus near, not on, the average.
TEST(InMemoryConsensus, PartialModelFamilyAgreesNearTheAverage)
{
    ExpectConsensus(
        Config("random-sampling", {{"random-sampling.alpha", "0.3"}}), Circulant(), 300, 1e-3, 0.3);
    ExpectConsensus(Config("topk", {{"topk.alpha", "0.3"}}), Circulant(), 300, 1e-2, 0.3);
    ExpectConsensus(Config("jwins", {{"jwins.wavelet", "haar"}}), Circulant(), 200, 1e-2, 0.3);
}

// CHOCO-SGD keeps the average of the models exactly; its step size is tuned on the graph as a
// run tunes it on the overlay (choco.gamma = auto).
TEST(InMemoryConsensus, ChocoReachesTheAverageWithATunedStepSize)
{
    SharingConfig choco = Config("choco", {{"choco.alpha", "0.3"}, {"choco.gamma", "auto"}});
    ExpectConsensus(choco, Circulant(), 300, 1e-3, 1e-4);
    InMemoryNetwork network(choco, Circulant(), RandomModels());
    network.Run(1);
    ASSERT_EQ(network.GetResolved().count("choco.gamma"), 1u);
    EXPECT_NE(network.GetLog().find("gamma ="), std::string::npos) << network.GetLog();
}

/// Every node's push-sum weight in a round, read from the scalar its payload carries.
std::vector<double>
PushSumWeights(const InMemoryNetwork& network, uint32_t round)
{
    std::vector<double> weights(kNodes, -1.0);
    for (const auto& m : network.GetMessages(round))
    {
        Payload p = DecodePayload(m.payload.data(), m.payload.size());
        EXPECT_EQ(p.scalars.size(), 1u);
        weights[m.sender] = p.scalars.at(0);
    }
    return weights;
}

// Push-sum on a directed graph: the weights always sum to n (mass is conserved), and the
// de-biased models gather around the average, exactly on it on average; the compression's error
// memory leaves them a small spread (about 1% here) that more rounds do not remove.
TEST(InMemoryConsensus, SparsePushConservesMassAndReachesTheAverage)
{
    ExpectConsensus(
        Config("sparse-push", {{"sparse-push.alpha", "0.5"}, {"sparse-push.eta", "auto"}}),
        DirectedExponential(),
        300,
        3e-2,
        1e-6);
    InMemoryNetwork network(
        Config("sparse-push", {{"sparse-push.alpha", "0.1"}, {"sparse-push.eta", "auto"}}),
        DirectedExponential(),
        RandomModels());
    network.Run(30);
    for (uint32_t round : {1u, 10u, 30u})
    {
        double sum = 0.0;
        for (double w : PushSumWeights(network, round))
        {
            EXPECT_GT(w, 0.0);
            sum += w;
        }
        EXPECT_NEAR(sum, kNodes, 1e-9) << "round " << round;
    }
    EXPECT_EQ(network.GetResolved().at("sparse-push.eta"), "0.01"); // the paper's pairing
}

// SCSP's gossip rounds share x itself (Full payloads): the sum of the biased models is still
// the sum of the initial models, and the gossip brings the nodes onto the average.
TEST(InMemoryConsensus, ScspGossipRoundsConserveMassAndEndOnTheAverage)
{
    SharingConfig scsp = Config(
        "scsp",
        {{"sparse-push.alpha", "0.1"}, {"scsp.gossip_rounds", "40"}, {"scsp.gossip_eta", "1"}});
    scsp.trainingRounds = 10;
    const Models initial = RandomModels();
    InMemoryNetwork network(scsp, DirectedExponential(), initial);
    bool trained = false;
    network.SetTrainingStep([&trained](uint32_t, uint32_t, std::vector<float>&)
                            { trained = true; });
    EXPECT_EQ(network.GetAlgorithm(0).ExtraRounds(), 40u);
    network.Run(10);
    EXPECT_TRUE(trained);
    trained = false;
    network.Run(40);
    EXPECT_FALSE(trained) << "SCSP's gossip rounds do not train";
    std::vector<double> mass(kLength, 0.0);
    for (const auto& m : network.GetMessages(11))
    {
        if (m.receiver != DirectedExponential()[m.sender][0])
        {
            continue; // one message per sender
        }
        Payload p = DecodePayload(m.payload.data(), m.payload.size());
        ASSERT_EQ(p.form, PayloadForm::Full);
        for (size_t k = 0; k < kLength; ++k)
        {
            mass[k] += p.values[k];
        }
    }
    const std::vector<double> average = Mean(initial);
    for (size_t k = 0; k < kLength; ++k)
    {
        EXPECT_NEAR(mass[k], kNodes * average[k], 1e-4) << k;
    }
    EXPECT_LT(MaxDistance(network.GetModels(), average) / MaxDistance(initial, average), 1e-4);
}

/// Bits of the Elias-gamma code of a gap: floor(log2 g) zeros, then g in binary.
size_t
GammaBits(uint32_t gap)
{
    size_t bits = 1;
    while (gap >>= 1)
    {
        bits += 2;
    }
    return bits;
}

/// A sparse payload's size from the codec's arithmetic: 17 + G + 4k (9 when empty), plus the
/// scalars section (1 + 8 per scalar).
size_t
SparseBytes(const Payload& p)
{
    const size_t scalars = p.scalars.empty() ? 0 : 1 + 8 * p.scalars.size();
    if (p.indices.empty())
    {
        return 9 + scalars;
    }
    size_t bits = 0;
    for (size_t j = 1; j < p.indices.size(); ++j)
    {
        bits += GammaBits(p.indices[j] - p.indices[j - 1]);
    }
    return 17 + (bits + 7) / 8 + 4 * p.indices.size() + scalars;
}

/// One round of `config` on the circulant graph (or `graph`); its messages.
std::vector<InMemoryMessage>
OneRound(const SharingConfig& config, const Adjacency& graph = Circulant())
{
    InMemoryNetwork network(config, graph, RandomModels());
    network.Run(1);
    EXPECT_EQ(network.GetMessages().size(), kNodes * 3u); // every node has out-degree 3
    return network.GetMessages();
}

TEST(InMemoryBytes, DpsgdSendsTheWholeModel)
{
    for (const auto& m : OneRound(Config("dpsgd")))
    {
        EXPECT_EQ(m.payload.size(), 5 + 4 * kLength);
        EXPECT_EQ(m.valueBytes, 4 * kLength);
        EXPECT_EQ(m.messageBytes, MessageHeader::kSize + 5 + 4 * kLength);
    }
}

TEST(InMemoryBytes, TopkSendsKValuesAndTheirIndices)
{
    for (const char* alpha : {"0.1", "0.25", "0.5"})
    {
        const uint32_t k = static_cast<uint32_t>(std::round(std::stod(alpha) * kLength));
        for (const auto& m : OneRound(Config("topk", {{"topk.alpha", alpha}})))
        {
            Payload p = DecodePayload(m.payload.data(), m.payload.size());
            ASSERT_EQ(p.form, PayloadForm::Sparse);
            EXPECT_EQ(p.indices.size(), k) << alpha;
            EXPECT_EQ(m.valueBytes, 4u * k);
            EXPECT_EQ(m.payload.size(), SparseBytes(p)) << alpha;
            EXPECT_EQ(m.messageBytes, MessageHeader::kSize + m.payload.size());
        }
    }
}

TEST(InMemoryBytes, RandomSamplingSendsTheMaskedValuesAndItsSeed)
{
    for (const auto& m : OneRound(Config("random-sampling", {{"random-sampling.alpha", "0.3"}})))
    {
        Payload p = DecodePayload(m.payload.data(), m.payload.size());
        ASSERT_EQ(p.form, PayloadForm::RandomMask);
        const size_t kept = RandomMaskIndices(p.seed, p.alpha, kLength).size();
        EXPECT_EQ(p.values.size(), kept);
        EXPECT_EQ(m.payload.size(), 21 + 4 * kept);
        EXPECT_EQ(m.valueBytes, 4 * kept);
    }
}

TEST(InMemoryBytes, JwinsAtFractionOneSendsEveryCoefficientWithoutIndices)
{
    const size_t coefficients = MakeModelTransform("sym2", 4, kLength)->OutputLength();
    for (const auto& m : OneRound(Config("jwins", {{"jwins.alphas", "[1.0]"}})))
    {
        EXPECT_EQ(m.payload.size(), 5 + 4 * coefficients);
        EXPECT_EQ(m.valueBytes, 4 * coefficients);
    }
    // Below the metadata cap, a fraction of the coefficients with their indices.
    const uint32_t k = static_cast<uint32_t>(std::round(0.2 * coefficients));
    for (const auto& m : OneRound(Config("jwins", {{"jwins.alphas", "[0.2]"}})))
    {
        Payload p = DecodePayload(m.payload.data(), m.payload.size());
        EXPECT_EQ(p.indices.size(), k);
        EXPECT_EQ(m.payload.size(), SparseBytes(p));
    }
}

TEST(InMemoryBytes, ChocoSendsItsCompressedUpdate)
{
    const uint32_t k = static_cast<uint32_t>(std::round(0.25 * kLength));
    for (const char* compression : {"topk", "randomk"})
    {
        for (const auto& m : OneRound(Config("choco",
                                             {{"choco.alpha", "0.25"},
                                              {"choco.gamma", "0.5"},
                                              {"choco.compression", compression}})))
        {
            Payload p = DecodePayload(m.payload.data(), m.payload.size());
            EXPECT_EQ(p.indices.size(), k) << compression;
            EXPECT_EQ(m.payload.size(), SparseBytes(p)) << compression;
        }
    }
}

TEST(InMemoryBytes, SparsePushSendsTopKValuesAndItsWeight)
{
    const uint32_t k = static_cast<uint32_t>(std::round(0.1 * kLength));
    for (const auto& m :
         OneRound(Config("sparse-push", {{"sparse-push.alpha", "0.1"}}), DirectedExponential()))
    {
        Payload p = DecodePayload(m.payload.data(), m.payload.size());
        EXPECT_EQ(p.indices.size(), k);
        EXPECT_EQ(p.scalars.size(), 1u);
        EXPECT_EQ(m.payload.size(), SparseBytes(p));
        EXPECT_EQ(m.valueBytes, 4u * k);
    }
}

/// Models after `rounds` rounds of `config` with a fake training step: every node takes a
/// gradient step towards its own target (the gradient of a quadratic).
Models
Trained(const SharingConfig& config, uint32_t rounds)
{
    const Models targets = RandomModels(11);
    InMemoryNetwork network(config, Circulant(), RandomModels());
    network.SetTrainingStep(
        [&targets](uint32_t node, uint32_t, std::vector<float>& model)
        {
            for (size_t k = 0; k < model.size(); ++k)
            {
                model[k] -= 0.1f * (model[k] - targets[node][k]);
            }
        });
    network.Run(rounds);
    return network.GetModels();
}

void
ExpectSameModels(const Models& a, const Models& b, const std::string& what)
{
    ASSERT_EQ(a.size(), b.size());
    double worst = 0.0;
    for (size_t i = 0; i < a.size(); ++i)
    {
        for (size_t k = 0; k < a[i].size(); ++k)
        {
            worst = std::max(worst, std::fabs(static_cast<double>(a[i][k]) - b[i][k]));
        }
    }
    EXPECT_LT(worst, 1e-5) << what;
}

// Sharing everything, each member of the family is D-PSGD (up to float rounding: the sums run
// in another order, and JWINS goes through the wavelet and back).
TEST(InMemoryEquivalence, FullSharingEqualsDpsgd)
{
    const Models dpsgd = Trained(Config("dpsgd"), 10);
    ExpectSameModels(Trained(Config("topk", {{"topk.alpha", "1"}}), 10), dpsgd, "topk 1");
    ExpectSameModels(Trained(Config("random-sampling", {{"random-sampling.alpha", "1"}}), 10),
                     dpsgd,
                     "random-sampling 1");
    ExpectSameModels(Trained(Config("jwins", {{"jwins.alphas", "[1]"}}), 10), dpsgd, "jwins 1");
    ExpectSameModels(
        Trained(Config("jwins", {{"jwins.alphas", "[1]"}, {"jwins.wavelet", "none"}}), 10),
        dpsgd,
        "jwins 1 without wavelet");
    ExpectSameModels(Trained(Config("choco", {{"choco.alpha", "1"}, {"choco.gamma", "1"}}), 10),
                     dpsgd,
                     "choco 1, gamma 1");
}

// The typed fields of SharingConfig (the C++ API before the registry) and the keys give the
// same algorithm, byte for byte.
TEST(InMemoryEquivalence, TypedFieldsAndKeysAgree)
{
    SharingConfig typed;
    typed.algorithm = "topk";
    typed.alpha = 0.3;
    typed.accumulation = true;
    const auto byKeys
        = OneRound(Config("topk", {{"topk.alpha", "0.3"}, {"topk.accumulation", "1"}}));
    const auto byFields = OneRound(typed);
    ASSERT_EQ(byKeys.size(), byFields.size());
    for (size_t i = 0; i < byKeys.size(); ++i)
    {
        EXPECT_EQ(byKeys[i].payload, byFields[i].payload);
    }
    ExpectSameModels(
        Trained(typed, 5),
        Trained(Config("topk", {{"topk.alpha", "0.3"}, {"topk.accumulation", "true"}}), 5),
        "topk typed vs keys");
}

TEST(AlgorithmRegistry, EveryRegistrationMatchesItsInstances)
{
    std::vector<std::string> names = AlgorithmRegistry::Names();
    for (const char* name :
         {"dpsgd", "random-sampling", "topk", "jwins", "choco", "sparse-push", "scsp"})
    {
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    }
    for (const auto& name : names)
    {
        const AlgorithmRegistration& r = AlgorithmRegistry::Get(name);
        std::map<std::string, std::string> values;
        for (const auto& key : r.keys)
        {
            if (key.allowsAuto)
            {
                values[key.name] = "0.5"; // "auto" needs an overlay
            }
        }
        auto algorithm = CreateSharingAlgorithm(AlgorithmRegistry::Parameters(name, values, 10));
        EXPECT_EQ(algorithm->ForDirectedGraphs(), r.forDirectedGraphs) << name;
        EXPECT_EQ(algorithm->AnswersMessages(), r.answersMessages) << name;
        std::map<std::string, std::string> config{{"algorithm", name}};
        for (const auto& key : AlgorithmRegistry::Keys())
        {
            config[key.name] = key.defaultValue;
        }
        for (const auto& [key, value] : values)
        {
            config[key] = value; // what "auto" resolved to, as the figures pass it
        }
        // A legend names the algorithm as papers do, with its main parameters' values.
        const std::string label = AlgorithmFigureLabel(config);
        EXPECT_FALSE(label.empty()) << name;
        EXPECT_EQ(label.find("auto"), std::string::npos) << name << ": " << label;
    }
}

TEST(AlgorithmRegistry, BadValuesNameTheKeyAndTheValue)
{
    auto message = [](const SharingConfig& config)
    {
        try
        {
            CreateSharingAlgorithm(config);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message(Config("topk", {{"topk.alpha", "2"}})),
              "topk.alpha: expected a number from 1e-09 to 1, got '2'");
    EXPECT_EQ(message(Config("jwins", {{"jwins.wavelet", "db99"}})).rfind("jwins.wavelet: ", 0),
              0u);
    EXPECT_NE(message(Config("jwins", {{"jwins.alphas", "[0.1, x]"}})).find("'[0.1, x]'"),
              std::string::npos);
    EXPECT_NE(message(Config("scsp", {{"scsp.gossip_rounds", "-1"}})).find("'-1'"),
              std::string::npos);
    EXPECT_NE(message(Config("topk", {{"topk.beta", "1"}})).find("has no key 'topk.beta'"),
              std::string::npos);
    EXPECT_NE(message(Config("gossip-magic")).find("unknown algorithm 'gossip-magic' (known: "),
              std::string::npos);
    EXPECT_NE(message(Config("choco", {{"choco.gamma", "auto"}})).find("choco.gamma: auto"),
              std::string::npos);
}

TEST(AlgorithmRegistry, RefusesConflictingRegistrations)
{
    AlgorithmRegistration twice = AlgorithmRegistry::Get("dpsgd");
    EXPECT_THROW(AlgorithmRegistry::Register(twice), std::invalid_argument);
    AlgorithmRegistration clash;
    clash.name = "clash";
    clash.create = AlgorithmRegistry::Get("dpsgd").create;
    clash.keys = {AlgorithmKey::Number("topk.alpha", "0.5", 0.0, 1.0, "another meaning")};
    EXPECT_THROW(AlgorithmRegistry::Register(clash), std::invalid_argument);
    EXPECT_EQ(AlgorithmRegistry::Find("clash"), nullptr);
}

TEST(InMemoryNetwork, RefusesAGraphThatDoesNotFit)
{
    EXPECT_THROW(InMemoryNetwork(Config("dpsgd"), DirectedExponential(), RandomModels()),
                 std::invalid_argument); // an undirected algorithm on a directed graph
    Adjacency loop = Circulant();
    loop[0].push_back(0);
    EXPECT_THROW(InMemoryNetwork(Config("dpsgd"), loop, RandomModels()), std::invalid_argument);
    EXPECT_THROW(InMemoryNetwork(Config("dpsgd"), Adjacency(3), RandomModels()),
                 std::invalid_argument);
}

} // namespace
} // namespace ns3
