// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Any sharing algorithm on a small graph, in memory, in milliseconds: for unit tests and for
 * trying an algorithm before simulating a network.
 */
#ifndef DLSIM_IN_MEMORY_NETWORK_H
#define DLSIM_IN_MEMORY_NETWORK_H

#include "algorithm-registry.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dlsim
{

/// One message the in-memory network delivered.
struct InMemoryMessage
{
    uint32_t round = 0;           ///< the round it was sent in
    uint32_t sender = 0;          ///< the sending node
    uint32_t receiver = 0;        ///< the receiving node
    std::vector<uint8_t> payload; ///< the encoded payload, as Encode produced it
    size_t valueBytes = 0;        ///< how many of its bytes are float32 values
    size_t messageBytes = 0;      ///< with the message header, as the learners send it over TCP
    bool answer = false;          ///< an answer to the receiver's payload of that round
};

/**
 * n instances of one algorithm, one per node, run round by round as the learner application
 * runs them, without ns-3: per round every node (optionally) trains, encodes once, its framed
 * bytes go to each out-neighbour, and every node aggregates its in-neighbours' payloads, sorted
 * by sender. Only bytes pass between the instances, so what works here works on a network.
 *
 * Without a training step the models only mix: consensus. Rounds the algorithm does not train
 * in (TrainsInRound) skip the training step, as in a simulation.
 */
class InMemoryNetwork
{
  public:
    /// Local training of `node` in `round`: change `model` in place (e.g. a gradient step on a
    /// known function).
    using TrainingStep
        = std::function<void(uint32_t node, uint32_t round, std::vector<float>& model)>;

    /**
     * `graph` lists every node's out-neighbours (an undirected graph lists each edge both ways);
     * `initialModels` holds one model per node. Before the first round, the algorithm's "auto"
     * values are resolved on the graph, as a run resolves them on its overlay, and every node's
     * instance is created. Throws std::invalid_argument for a graph that does not fit the models
     * or the algorithm (an undirected algorithm needs every edge listed both ways).
     * \param sharing the algorithm and its parameters
     * \param graph every node's out-neighbours
     * \param initialModels one model per node
     * \param seed the run's seed (SharingContext::seed, tuning)
     */
    InMemoryNetwork(const SharingConfig& sharing,
                    const Adjacency& graph,
                    const std::vector<std::vector<float>>& initialModels,
                    uint64_t seed = 1);

    /**
     * A time-varying overlay instead of one graph: the phases in turn, `period` rounds each
     * (round r uses phase ((r - 1) / period) mod phases, as in a simulation). Call it before the
     * first round: "auto" values are resolved on the union of the phases.
     * \param phases every phase's out-neighbours
     * \param period rounds per phase
     */
    void SetSchedule(const std::vector<Adjacency>& phases, uint32_t period);

    /// \param step local training, run before every round the algorithm trains in (default:
    /// none, so the models only mix)
    void SetTrainingStep(TrainingStep step);

    /**
     * \brief Run more rounds.
     * \param rounds how many
     * \throws what the algorithm throws (e.g. PayloadError)
     */
    void Run(uint32_t rounds);

    /// \return rounds run so far
    uint32_t GetRound() const;
    /// \return every node's current model: after a round, what its Aggregate returned
    const std::vector<std::vector<float>>& GetModels() const;
    /// \return the mean of the current models
    std::vector<double> GetAverage() const;
    /// \return every message so far, in the order sent
    const std::vector<InMemoryMessage>& GetMessages() const;
    /**
     * \param round a round (from 1)
     * \return the messages of that round
     */
    std::vector<InMemoryMessage> GetMessages(uint32_t round) const;
    /// \return the values resolved on the graph (e.g. choco.gamma = auto), as a run's
    /// provenance shows them
    const std::map<std::string, std::string>& GetResolved() const;
    /// \return what resolving the "auto" values printed
    const std::string& GetLog() const;
    /**
     * \param node a node's index
     * \return its algorithm instance (the instances are created on first use)
     */
    SharingAlgorithm& GetAlgorithm(uint32_t node);

  private:
    void CheckGraph(const Adjacency& graph) const;
    /// Resolve the "auto" values and create the instances, once.
    void Start();

    SharingConfig m_sharing;
    bool m_directed;
    std::vector<Adjacency> m_phases;
    uint32_t m_period = 1;
    uint64_t m_seed;
    TrainingStep m_training;
    std::vector<std::unique_ptr<SharingAlgorithm>> m_algorithms;
    std::vector<std::vector<float>> m_models;
    std::vector<InMemoryMessage> m_messages;
    std::map<std::string, std::string> m_resolved;
    std::string m_log;
    uint32_t m_round = 0;
};

} // namespace dlsim

#endif // DLSIM_IN_MEMORY_NETWORK_H
