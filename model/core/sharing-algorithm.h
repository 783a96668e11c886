/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The one interface behind which every model-sharing algorithm sits.
 */
#ifndef DLSIM_SHARING_ALGORITHM_H
#define DLSIM_SHARING_ALGORITHM_H

#include "payload-codec.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// What an algorithm knows about its node's place in the overlay.
struct SharingContext
{
    uint32_t self = 0;
    uint32_t outDegree = 0; ///< neighbours this node sends to
    uint32_t inDegree = 0;  ///< neighbours this node receives from
    uint64_t seed = 0;      ///< the run's seed, for algorithms that draw at random
};

/// A payload as it came off the network, still encoded.
struct ReceivedPayload
{
    uint32_t sender = 0;
    uint32_t senderDegree = 0; ///< the sender's out-degree, carried in the message header
    const uint8_t* data = nullptr;
    size_t size = 0;
};

/**
 * A sharing algorithm turns the trained model into the bytes a node sends, and the bytes it
 * receives into the model it trains from next. It never sees sockets or simulated time: the
 * learner application moves its bytes and does not know which algorithm runs.
 *
 * Per round t the application calls Encode once (the same payload goes to every out-neighbour),
 * then Aggregate once with the round-t payloads of all in-neighbours, sorted by sender.
 */
class SharingAlgorithm
{
  public:
    virtual ~SharingAlgorithm() = default;

    /// Called once, before round 0, with the node's initial model.
    virtual void Initialize(const std::vector<float>& initialModel, const SharingContext& context)
        = 0;

    /// Encode what this node shares in `round`, given its model after local training.
    virtual EncodedPayload Encode(uint32_t round, const std::vector<float>& trainedModel) = 0;

    /**
     * Decode the received payloads and combine them with the node's own trained model.
     * Returns the model the learner trains from in the next round.
     * Throws PayloadError when a payload is malformed or does not fit the model.
     */
    virtual std::vector<float> Aggregate(uint32_t round,
                                         const std::vector<float>& trainedModel,
                                         const std::vector<ReceivedPayload>& received)
        = 0;

    /// True for algorithms designed for directed (push) graphs, false for undirected ones.
    virtual bool ForDirectedGraphs() const = 0;
};

/// Parameters of the sharing algorithms, read from the scenario.
struct SharingConfig
{
    std::string algorithm = "dpsgd";
};

/// The names accepted by the `algorithm` key.
std::vector<std::string> KnownAlgorithms();

/// Create the algorithm a configuration names; throws std::invalid_argument for unknown names.
std::unique_ptr<SharingAlgorithm> CreateSharingAlgorithm(const SharingConfig& config);

} // namespace ns3

#endif // DLSIM_SHARING_ALGORITHM_H
