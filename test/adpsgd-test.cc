// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: AD-PSGD's pairwise averaging without a network: the sum of the models is kept
 * however exchanges overlap, and the nodes reach the initial average.
 */
#include "adpsgd-sharing.h"
#include "algorithm-registry.h"
#include "in-memory-network.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

using Models = std::vector<std::vector<float>>;

/// 8 nodes, each linked to i - 1, i + 1 and i + 4: undirected, 3-regular, connected.
Adjacency
Circulant()
{
    Adjacency graph(8);
    for (uint32_t i = 0; i < 8; ++i)
    {
        graph[i] = {(i + 7) % 8, (i + 1) % 8, (i + 4) % 8};
    }
    return graph;
}

Models
RandomModels(uint32_t nodes, size_t length, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    Models models(nodes, std::vector<float>(length));
    for (auto& model : models)
    {
        for (float& v : model)
        {
            v = value(rng);
        }
    }
    return models;
}

/// The coordinate-wise sum of the models, in double.
template<typename Model>
std::vector<double>
SumOf(const std::vector<Model>& models)
{
    std::vector<double> sum(models.at(0).size(), 0.0);
    for (const auto& model : models)
    {
        for (size_t k = 0; k < sum.size(); ++k)
        {
            sum[k] += model[k];
        }
    }
    return sum;
}

/**
 * Wait-free AD-PSGD on a clock of whole ticks, as LearnerApplication runs it in async rounds:
 * node i ends a round every periods[i] ticks (lr 0: its trained model is what its last
 * aggregation returned), sends its request to the neighbour the algorithm chooses and
 * aggregates. A request is answered, and an answer taken, in the tick it arrives, whatever the
 * receiver is doing. Every message takes 1 to 4 ticks, drawn at
 * random, so exchanges overlap: a node answers others while its own request is on its way,
 * and two nodes may ask each other at once.
 */
class WaitFreeExchanges
{
  public:
    WaitFreeExchanges(Adjacency graph, std::vector<uint32_t> periods, const Models& initial)
        : m_graph(std::move(graph)), m_periods(std::move(periods)), m_models(initial),
          m_rounds(m_graph.size(), 0), m_rng(7)
    {
        for (uint32_t i = 0; i < m_graph.size(); ++i)
        {
            m_algorithms.push_back(CreateSharingAlgorithm(SharingConfig{"adpsgd"}));
            m_algorithms.back()->Initialize(m_models[i], SharingContext{i, 3});
        }
    }

    /// Run `ticks` ticks; with `quiet`, nodes stop starting rounds and only deliver.
    void RunTicks(uint32_t ticks, bool quiet = false)
    {
        std::uniform_int_distribution<uint32_t> delay(1, 4);
        for (uint32_t t = 0; t < ticks; ++t, ++m_tick)
        {
            std::vector<InFlight> arriving;
            std::vector<InFlight> later;
            for (InFlight& m : m_inFlight)
            {
                (m.at <= m_tick ? arriving : later).push_back(std::move(m));
            }
            m_inFlight = std::move(later);
            for (InFlight& m : arriving)
            {
                if (!m.answer)
                {
                    if (m_pending[m.to] > 0)
                    {
                        ++m_answeredWhileAsking;
                    }
                    ReceivedPayload request{m.message.sender,
                                            m.message.senderDegree,
                                            m.message.payload.data(),
                                            m.message.payload.size(),
                                            m.message.round};
                    InboxMessage answer{
                        m.to, m.message.round, 0, m_algorithms[m.to]->Answer(request).bytes};
                    m_inFlight.push_back(
                        {m_tick + delay(m_rng), m.message.sender, true, std::move(answer)});
                    continue;
                }
                --m_pending[m.to];
                ReceivedPayload answer{m.message.sender,
                                       m.message.senderDegree,
                                       m.message.payload.data(),
                                       m.message.payload.size(),
                                       m.message.round};
                EXPECT_TRUE(m_algorithms[m.to]->TakeAnswer(answer));
            }
            for (uint32_t i = 0; !quiet && i < m_graph.size(); ++i)
            {
                if (m_tick % m_periods[i] == 0)
                {
                    Round(i, delay);
                }
            }
            if (quiet)
            {
                for (uint32_t i = 0; i < m_graph.size(); ++i)
                {
                    Aggregate(i, RoundInfo{m_rounds[i], 3, 3});
                }
            }
        }
    }

    /// \return what each node's learner holds (float32)
    const Models& LearnerModels() const
    {
        return m_models;
    }

    /// \return what each node's algorithm holds (double), answers included
    std::vector<std::vector<double>> HeldModels() const
    {
        std::vector<std::vector<double>> held;
        for (const auto& algorithm : m_algorithms)
        {
            held.push_back(dynamic_cast<const AdpsgdSharing&>(*algorithm).GetHeldModel());
        }
        return held;
    }

    /// \return requests answered by a node whose own request was still unanswered
    uint32_t AnsweredWhileAsking() const
    {
        return m_answeredWhileAsking;
    }

    /// \return messages on their way
    size_t InFlightCount() const
    {
        return m_inFlight.size();
    }

  private:
    struct InFlight
    {
        uint64_t at = 0;      ///< the tick it arrives
        uint32_t to = 0;      ///< its receiver
        bool answer = false;  ///< an answer (else a request)
        InboxMessage message; ///< sender, round, payload
    };

    void Round(uint32_t i, std::uniform_int_distribution<uint32_t>& delay)
    {
        RoundInfo info{++m_rounds[i],
                       static_cast<uint32_t>(m_graph[i].size()),
                       static_cast<uint32_t>(m_graph[i].size())};
        const auto bytes = m_algorithms[i]->Encode(info, m_models[i]).bytes;
        for (uint32_t j : m_algorithms[i]->Receivers(info, m_graph[i]))
        {
            m_inFlight.push_back(
                {m_tick + delay(m_rng), j, false, InboxMessage{i, info.round, 3, bytes}});
            ++m_pending[i];
        }
        Aggregate(i, info);
    }

    void Aggregate(uint32_t i, const RoundInfo& info)
    {
        m_models[i] = m_algorithms[i]->Aggregate(info, m_models[i], {});
    }

    Adjacency m_graph;
    std::vector<uint32_t> m_periods;
    Models m_models;
    std::vector<uint32_t> m_rounds;
    std::mt19937 m_rng;
    std::vector<std::unique_ptr<SharingAlgorithm>> m_algorithms;
    std::vector<InFlight> m_inFlight;
    std::map<uint32_t, uint32_t> m_pending; ///< unanswered requests per node
    uint64_t m_tick = 0;
    uint32_t m_answeredWhileAsking = 0;
};

/**
 * lr 0, 8 nodes ending rounds every 1 to 5 ticks, messages taking 1 to 4 ticks: exchanges
 * overlap thousands of times. While an answer is on its way its receiver has not yet added its
 * half, so the sum is checked whenever nothing is in flight (every 100 ticks the nodes pause
 * until all has arrived): it stays the initial sum to 1e-9, since the two halves of an
 * exchange are computed from the same two float32 payloads and cancel, leaving only double
 * rounding. The nodes reach the initial average to float32 precision (1e-6 here): payloads
 * carry float32, so averaging stops contracting at float32 resolution.
 */
TEST(Adpsgd, KeepsTheSumThroughOverlappingExchangesAndReachesTheAverage)
{
    const Models initial = RandomModels(8, 16, 5);
    const std::vector<double> sum = SumOf(initial);
    WaitFreeExchanges run(Circulant(), {1, 2, 3, 5, 1, 4, 2, 1}, initial);
    double worst = 0.0;
    for (int block = 0; block < 30; ++block)
    {
        run.RunTicks(100);
        run.RunTicks(10, true);
        ASSERT_EQ(run.InFlightCount(), 0u);
        const std::vector<double> now = SumOf(run.HeldModels());
        for (size_t k = 0; k < sum.size(); ++k)
        {
            worst = std::max(worst, std::fabs(now[k] - sum[k]));
        }
    }
    EXPECT_LT(worst, 1e-9) << "the sum is kept";
    EXPECT_GT(run.AnsweredWhileAsking(), 1000u) << "the exchanges overlapped";
    const auto held = run.HeldModels();
    for (uint32_t i = 0; i < held.size(); ++i)
    {
        for (size_t k = 0; k < sum.size(); ++k)
        {
            EXPECT_NEAR(held[i][k], sum[k] / 8, 1e-6) << "node " << i << ", coordinate " << k;
            EXPECT_NEAR(run.LearnerModels()[i][k], sum[k] / 8, 1e-6) << "node " << i;
        }
    }
}

/// Node 0 holding four 1s and node 1 four 3s, so that an exchange leaves both at 2.
/// \return node 0's model
std::vector<float>
TwoNodes(AdpsgdSharing& a, AdpsgdSharing& b)
{
    const std::vector<float> model(4, 1.0f);
    a.Initialize(model, SharingContext{0, 1});
    b.Initialize(std::vector<float>(4, 3.0f), SharingContext{1, 1});
    return model;
}

/// An answer to a round that asked nobody, from another sender, or a second answer to one, is
/// not applied; malformed bytes are refused (PayloadError).
TEST(Adpsgd, AnAnswerNobodyAwaitsIsNotApplied)
{
    AdpsgdSharing a;
    AdpsgdSharing b;
    const std::vector<float> model = TwoNodes(a, b);
    const RoundInfo info{1, 1, 1};
    const auto request = a.Encode(info, model).bytes;
    ASSERT_EQ(a.Receivers(info, {1}), std::vector<uint32_t>{1});
    const auto answer = b.Answer({0, 1, request.data(), request.size(), 1}).bytes;
    EXPECT_FALSE(a.TakeAnswer({2, 1, answer.data(), answer.size(), 1})) << "another sender";
    EXPECT_FALSE(a.TakeAnswer({1, 1, answer.data(), answer.size(), 2})) << "another round";
    EXPECT_TRUE(a.TakeAnswer({1, 1, answer.data(), answer.size(), 1}));
    EXPECT_FALSE(a.TakeAnswer({1, 1, answer.data(), answer.size(), 1})) << "taken already";
    EXPECT_EQ(a.GetHeldModel(), std::vector<double>(4, 2.0));
    const std::vector<uint8_t> cut(answer.begin(), answer.begin() + 7);
    try
    {
        a.TakeAnswer({1, 1, cut.data(), cut.size(), 1});
        ADD_FAILURE() << "a cut payload was taken";
    }
    catch (const PayloadError& e)
    {
        EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
}

/**
 * One exchange of its own at a time: while a request is unanswered the node asks nobody, for
 * AdpsgdSharing::kPatience rounds; a request that is never answered (lost with a crash) then no
 * longer holds it back, and its answer, should it come after all, is still applied.
 */
TEST(Adpsgd, AnUnansweredRequestHoldsTheNodeBackForALimitedNumberOfRounds)
{
    AdpsgdSharing a;
    AdpsgdSharing b;
    const std::vector<float> model = TwoNodes(a, b);
    const auto request = a.Encode(RoundInfo{1, 1, 1}, model).bytes;
    ASSERT_EQ(a.Receivers(RoundInfo{1, 1, 1}, {1}).size(), 1u);
    uint32_t round = 2;
    for (; round <= AdpsgdSharing::kPatience; ++round)
    {
        a.Encode(RoundInfo{round, 1, 1}, model);
        EXPECT_TRUE(a.Receivers(RoundInfo{round, 1, 1}, {1}).empty()) << round;
        a.Aggregate(RoundInfo{round, 1, 1}, model, {});
    }
    a.Encode(RoundInfo{round, 1, 1}, model);
    EXPECT_EQ(a.Receivers(RoundInfo{round, 1, 1}, {1}).size(), 1u) << "asks again";
    const auto answer = b.Answer({0, 1, request.data(), request.size(), 1}).bytes;
    EXPECT_TRUE(a.TakeAnswer({1, 1, answer.data(), answer.size(), 1}));
    const std::vector<float> next = a.Aggregate(RoundInfo{round, 1, 1}, model, {});
    EXPECT_EQ(next, std::vector<float>(4, 2.0f)) << "the late answer of round 1, applied";
    EXPECT_EQ(b.GetHeldModel(), std::vector<double>(4, 2.0));
}

/**
 * In synchronous in-memory rounds every node sends one request, to a neighbour drawn from its
 * own seeded stream, and gets one answer; lr 0 keeps the average (to float32 rounding of the
 * learners' copies) and the models reach it.
 */
TEST(Adpsgd, SynchronousRoundsExchangeOnceAndKeepTheAverage)
{
    const Models initial = RandomModels(8, 40, 9);
    InMemoryNetwork network(SharingConfig{"adpsgd"}, Circulant(), initial);
    const std::vector<double> average = network.GetAverage();
    network.Run(200);
    for (uint32_t round = 1; round <= 200; ++round)
    {
        const auto messages = network.GetMessages(round);
        size_t answers = 0;
        for (const auto& m : messages)
        {
            answers += m.answer ? 1 : 0;
            EXPECT_EQ(m.valueBytes, 40u * 4) << "whole models, float32";
        }
        ASSERT_EQ(messages.size(), 16u) << "one request and one answer per node, round " << round;
        EXPECT_EQ(answers, 8u);
    }
    std::set<uint32_t> partners;
    for (const auto& m : network.GetMessages())
    {
        if (m.sender == 0 && !m.answer)
        {
            partners.insert(m.receiver);
        }
    }
    EXPECT_EQ(partners, (std::set<uint32_t>{1, 4, 7})) << "node 0 averages with every neighbour";
    for (const auto& model : network.GetModels())
    {
        for (size_t k = 0; k < average.size(); ++k)
        {
            EXPECT_NEAR(model[k], average[k], 1e-5);
        }
    }
    EXPECT_TRUE(AlgorithmRegistry::Get("adpsgd").answersMessages);
    EXPECT_TRUE(CreateSharingAlgorithm(SharingConfig{"adpsgd"})->AnswersMessages());
}

} // namespace
} // namespace ns3
