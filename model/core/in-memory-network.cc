// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "in-memory-network.h"
#include "round-schedule.h"

#include "message-framing.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

namespace dlsim
{

InMemoryNetwork::InMemoryNetwork(const SharingConfig& sharing,
                                 const Adjacency& graph,
                                 const std::vector<std::vector<float>>& initialModels,
                                 uint64_t seed)
    : m_sharing(sharing),
      m_directed(AlgorithmRegistry::Get(sharing.algorithm).forDirectedGraphs), m_phases{graph},
      m_seed(seed), m_models(initialModels)
{
    if (m_models.size() < 2)
    {
        throw std::invalid_argument("an in-memory network needs at least 2 nodes");
    }
    for (const auto& model : m_models)
    {
        if (model.size() != m_models[0].size())
        {
            throw std::invalid_argument("the initial models differ in length");
        }
    }
    CheckGraph(graph);
}

void
InMemoryNetwork::CheckGraph(const Adjacency& graph) const
{
    const size_t n = m_models.size();
    if (graph.size() != n)
    {
        throw std::invalid_argument("the graph has " + std::to_string(graph.size())
                                    + " nodes, but there are " + std::to_string(n) + " models");
    }
    std::set<std::pair<uint32_t, uint32_t>> edges;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j : graph[i])
        {
            if (j >= n || j == i || !edges.emplace(i, j).second)
            {
                throw std::invalid_argument("node " + std::to_string(i) + ": bad out-neighbour "
                                            + std::to_string(j)
                                            + " (out of range, itself or repeated)");
            }
        }
    }
    // The undirected algorithms' mixing weights assume that i hears j whenever j hears i.
    for (const auto& [i, j] : edges)
    {
        if (!m_directed && !edges.count({j, i}))
        {
            throw std::invalid_argument(
                "algorithm " + m_sharing.algorithm + " runs on undirected graphs, but edge "
                + std::to_string(i) + " -> " + std::to_string(j) + " has no way back");
        }
    }
}

void
InMemoryNetwork::SetSchedule(const std::vector<Adjacency>& phases, uint32_t period)
{
    if (!m_algorithms.empty())
    {
        throw std::logic_error("InMemoryNetwork::SetSchedule: call it before the first round");
    }
    if (phases.empty() || period == 0)
    {
        throw std::invalid_argument("a schedule needs at least one phase and a period >= 1");
    }
    for (const auto& phase : phases)
    {
        CheckGraph(phase);
    }
    m_phases = phases;
    m_period = period;
}

void
InMemoryNetwork::SetTrainingStep(TrainingStep step)
{
    m_training = std::move(step);
}

void
InMemoryNetwork::Start()
{
    if (!m_algorithms.empty())
    {
        return;
    }
    const size_t n = m_models.size();
    Adjacency overlay(n);
    for (const auto& phase : m_phases)
    {
        for (size_t i = 0; i < n; ++i)
        {
            overlay[i].insert(overlay[i].end(), phase[i].begin(), phase[i].end());
        }
    }
    for (auto& neighbours : overlay)
    {
        std::sort(neighbours.begin(), neighbours.end());
        neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
    }
    std::ostringstream log;
    m_resolved = ResolveOnOverlay(m_sharing, overlay, m_seed, log);
    m_log = log.str();
    for (uint32_t i = 0; i < n; ++i)
    {
        m_algorithms.push_back(CreateSharingAlgorithm(m_sharing));
        SharingContext context;
        context.self = i;
        context.seed = m_seed;
        m_algorithms.back()->Initialize(m_models[i], context);
    }
}

void
InMemoryNetwork::Run(uint32_t rounds)
{
    Start();
    const uint32_t n = static_cast<uint32_t>(m_models.size());
    for (uint32_t done = 0; done < rounds; ++done)
    {
        const uint32_t round = ++m_round;
        const Adjacency& phase = m_phases[PhaseOfRound(round, m_period, m_phases.size())];
        std::vector<RoundInfo> info(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            info[i].round = round;
            info[i].outDegree = static_cast<uint32_t>(phase[i].size());
            for (uint32_t j : phase[i])
            {
                ++info[j].inDegree;
            }
        }
        // Every node trains and sends before any aggregates: a synchronous round.
        std::vector<MessageReassembler> inboxes(n, MessageReassembler(UINT32_MAX));
        auto deliver = [&](MessageHeader header, const EncodedPayload& payload, uint32_t to)
        {
            const std::vector<uint8_t> framed = FrameMessage(header, payload.bytes);
            inboxes[to].Feed(framed.data(), framed.size());
            m_messages.push_back(InMemoryMessage{header.round,
                                                 header.sender,
                                                 to,
                                                 payload.bytes,
                                                 payload.valueBytes,
                                                 framed.size(),
                                                 header.type == MessageType::Answer});
        };
        for (uint32_t i = 0; i < n; ++i)
        {
            if (m_training && m_algorithms[i]->TrainsInRound(round))
            {
                m_training(i, round, m_models[i]);
            }
            EncodedPayload payload = m_algorithms[i]->Encode(info[i], m_models[i]);
            MessageHeader header;
            header.sender = i;
            header.round = round;
            header.senderDegree = info[i].outDegree;
            for (uint32_t j : m_algorithms[i]->Receivers(info[i], phase[i]))
            {
                deliver(header, payload, j);
            }
        }
        auto arrivedAt = [&inboxes](uint32_t j)
        {
            std::vector<Message> arrived;
            while (inboxes[j].HasMessage())
            {
                arrived.push_back(inboxes[j].Pop());
            }
            std::sort(arrived.begin(),
                      arrived.end(),
                      [](const Message& a, const Message& b)
                      { return a.header.sender < b.header.sender; });
            return arrived;
        };
        const bool exchanges = m_algorithms.front()->AnswersMessages();
        if (exchanges)
        {
            // Requests are answered in the order of their receivers, then of their senders; the
            // senders take the answers in their own order, before they aggregate.
            std::vector<std::vector<Message>> requests(n);
            for (uint32_t j = 0; j < n; ++j)
            {
                requests[j] = arrivedAt(j);
            }
            for (uint32_t j = 0; j < n; ++j)
            {
                for (const Message& request : requests[j])
                {
                    MessageHeader header;
                    header.type = MessageType::Answer;
                    header.sender = j;
                    header.round = request.header.round;
                    header.senderDegree = info[j].outDegree;
                    deliver(header,
                            m_algorithms[j]->Answer(ReceivedOf(request)),
                            request.header.sender);
                }
            }
        }
        std::vector<std::vector<float>> next(n);
        for (uint32_t j = 0; j < n; ++j)
        {
            const std::vector<Message> arrived = arrivedAt(j);
            std::vector<ReceivedPayload> received;
            for (const Message& message : arrived)
            {
                if (!exchanges)
                {
                    received.push_back(ReceivedOf(message));
                }
                else if (!m_algorithms[j]->TakeAnswer(ReceivedOf(message)))
                {
                    throw std::logic_error("an answer nothing awaited, in a round without loss");
                }
            }
            next[j] = m_algorithms[j]->Aggregate(info[j], m_models[j], received);
        }
        m_models = std::move(next);
    }
}

uint32_t
InMemoryNetwork::GetRound() const
{
    return m_round;
}

const std::vector<std::vector<float>>&
InMemoryNetwork::GetModels() const
{
    return m_models;
}

std::vector<double>
InMemoryNetwork::GetAverage() const
{
    std::vector<double> mean(m_models[0].size(), 0.0);
    for (const auto& model : m_models)
    {
        for (size_t k = 0; k < mean.size(); ++k)
        {
            mean[k] += model[k];
        }
    }
    for (double& m : mean)
    {
        m /= static_cast<double>(m_models.size());
    }
    return mean;
}

const std::vector<InMemoryMessage>&
InMemoryNetwork::GetMessages() const
{
    return m_messages;
}

std::vector<InMemoryMessage>
InMemoryNetwork::GetMessages(uint32_t round) const
{
    std::vector<InMemoryMessage> messages;
    for (const auto& m : m_messages)
    {
        if (m.round == round)
        {
            messages.push_back(m);
        }
    }
    return messages;
}

const std::map<std::string, std::string>&
InMemoryNetwork::GetResolved() const
{
    return m_resolved;
}

const std::string&
InMemoryNetwork::GetLog() const
{
    return m_log;
}

SharingAlgorithm&
InMemoryNetwork::GetAlgorithm(uint32_t node)
{
    Start();
    return *m_algorithms.at(node);
}

} // namespace dlsim
