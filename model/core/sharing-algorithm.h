// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The one interface behind which every model-sharing algorithm sits.
 */
#ifndef DLSIM_SHARING_ALGORITHM_H
#define DLSIM_SHARING_ALGORITHM_H

#include "message-framing.h"
#include "message-inbox.h"
#include "payload-codec.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlsim
{

/// What an algorithm knows about its node, fixed for the whole run.
struct SharingContext
{
    uint32_t self = 0; ///< the node's index (learner i)
    uint64_t seed = 0; ///< the run's seed, for algorithms that draw at random
};

/// The node's place in the overlay in one round (time-varying graphs change it every period).
struct RoundInfo
{
    uint32_t round = 1;     ///< rounds are numbered from 1
    uint32_t outDegree = 0; ///< neighbours this node sends to in this round
    uint32_t inDegree = 0;  ///< neighbours this node receives from in this round
};

/// A payload as it came off the network, still encoded.
struct ReceivedPayload
{
    uint32_t sender = 0;       ///< the sending node's index
    uint32_t senderDegree = 0; ///< the sender's out-degree in its round, from the message header
    const uint8_t* data = nullptr; ///< the encoded payload (valid during Aggregate only)
    size_t size = 0;               ///< its length in bytes
    uint32_t round = 0; ///< the sender's round (earlier than the aggregated one if stale)
};

/**
 * \param message a whole message as received
 * \return its payload as an algorithm takes it (pointing into `message`, valid while it is)
 */
ReceivedPayload ReceivedOf(const Message& message);

/// What an algorithm accepts from a neighbour.
struct PayloadShape
{
    std::string algorithm;          ///< for error messages
    std::vector<PayloadForm> forms; ///< the forms it takes
    uint32_t length = 0;            ///< the length of the vector the payload must refer to
    size_t scalars = 0;             ///< extra numbers it must carry (a push-sum weight)
};

/// A received payload, checked, with the positions its values go to.
struct ReceivedValues
{
    /// The decoded payload; its values only from DecodeReceived (ReadReceived leaves them in the
    /// message's bytes).
    Payload payload;
    /// The values, read in place from the message's bytes (valid as long as the message is).
    PayloadValues values;
    /// A random mask's indices, regenerated from its seed; empty for the other forms, whose
    /// positions the payload says itself (Full: every index in order, not spelled out, which
    /// for a whole model on every message cost as much as decoding it; Sparse: its indices).
    std::vector<uint32_t> positions;

    /**
     * \param n a value's place in values
     * \return the index it goes to
     */
    uint32_t Position(size_t n) const
    {
        switch (payload.form)
        {
            case PayloadForm::Full:
                return static_cast<uint32_t>(n);
            case PayloadForm::Sparse:
                return payload.indices[n];
            default:
                return positions[n];
        }
    }

    /**
     * Calls f(position, value) for every value in order: Position and the values in one loop
     * per payload form, so that a full payload's loop has no branch and vectorizes.
     * \param f called with each value's index (a size_t) and the value
     */
    template<typename F>
    void ForEachValue(F&& f) const
    {
        const size_t count = values.size();
        switch (payload.form)
        {
            case PayloadForm::Full:
                for (size_t n = 0; n < count; ++n)
                {
                    f(n, values[n]);
                }
                return;
            case PayloadForm::Sparse:
                for (size_t n = 0; n < count; ++n)
                {
                    f(size_t{payload.indices[n]}, values[n]);
                }
                return;
            default:
                for (size_t n = 0; n < count; ++n)
                {
                    f(size_t{positions[n]}, values[n]);
                }
                return;
        }
    }
};

/**
 * The one place where received bytes become values: decodes the payload (PayloadError on bad
 * bytes), checks it against `shape` and expands its positions (a random mask is regenerated
 * from its seed and must keep as many positions as there are values). Errors name the
 * algorithm and the sender.
 * \param message the bytes as received
 * \param shape what the receiving algorithm accepts
 * \return the checked values and their positions
 * \throws PayloadError for bad bytes or a payload of another shape
 */
ReceivedValues DecodeReceived(const ReceivedPayload& message, const PayloadShape& shape);

/**
 * As DecodeReceived (the same checks, the same errors), but the values stay in the message's
 * bytes: read them through `values`, not `payload.values` (empty). For an algorithm that reads
 * each value once, as a weighted sum does, this saves copying every message first, which for
 * whole models costs about as much as the sum itself.
 * \param message the bytes as received, which must outlive the result
 * \param shape what the receiving algorithm accepts
 * \return the checked payload, its values in place, and their positions
 * \throws PayloadError for bad bytes or a payload of another shape
 */
ReceivedValues ReadReceived(const ReceivedPayload& message, const PayloadShape& shape);

/**
 * A sharing algorithm turns the trained model into the bytes a node sends, and the bytes it
 * receives into the model it trains from next. It never sees sockets or simulated time: the
 * learner application moves its bytes and does not know which algorithm runs.
 *
 * Per round the application calls Encode once (the same payload goes to every out-neighbour),
 * then Aggregate once with the payloads that round uses, sorted by sender and then by round.
 * In synchronous rounds that is one payload of every in-neighbour; when rounds do not wait
 * (deadline and wait-free rounds) some may be missing and some may be older, as
 * GetPartialReceipt says the algorithm can take.
 */
class SharingAlgorithm
{
  public:
    virtual ~SharingAlgorithm() = default;

    /**
     * \brief Called once, before round 1.
     * \param initialModel the node's initial model (flat parameters)
     * \param context the node's index and the run's seed
     */
    virtual void Initialize(const std::vector<float>& initialModel, const SharingContext& context)
        = 0;

    /**
     * \brief Encode what this node shares in a round.
     * \param round the round and the node's degrees in it
     * \param trainedModel the node's model after local training
     * \return the payload sent to every out-neighbour
     */
    virtual EncodedPayload Encode(const RoundInfo& round, const std::vector<float>& trainedModel)
        = 0;

    /**
     * \brief Decode the received payloads and combine them with the node's own trained model.
     * \param round the round and the node's degrees in it
     * \param trainedModel the node's model after local training
     * \param received the payloads this round uses, sorted by sender and then by round
     * \return the model the learner trains from in the next round
     * \throws PayloadError when a payload is malformed or does not fit the model
     */
    virtual std::vector<float> Aggregate(const RoundInfo& round,
                                         const std::vector<float>& trainedModel,
                                         const std::vector<ReceivedPayload>& received)
        = 0;

    /// \return true for algorithms designed for directed (push) graphs, false for undirected
    /// ones (the runner refuses an overlay of the other kind)
    virtual bool ForDirectedGraphs() const = 0;

    /// \return what a message is to this algorithm, and so what a late or missing one means
    /// (default: a model, of which only the newest counts)
    virtual PartialReceipt GetPartialReceipt() const;

    /**
     * \param round a round (from 1)
     * \return whether the node trains before sharing in it (SCSP's final gossip rounds do not)
     */
    virtual bool TrainsInRound(uint32_t round) const;

    /// \return rounds the algorithm runs after the configured training rounds (SCSP's gossip
    /// rounds; default 0)
    virtual uint32_t ExtraRounds() const;

    /**
     * \brief Which out-neighbours get this round's payload (called after Encode).
     * \param round the round and the node's degrees in it
     * \param outNeighbours the round's out-neighbours
     * \return the receivers, a subset of `outNeighbours` (default: all of them, in order)
     */
    virtual std::vector<uint32_t> Receivers(const RoundInfo& round,
                                            const std::vector<uint32_t>& outNeighbours);

    /**
     * \return whether every payload asks its receiver for an answer (pairwise exchanges, as
     * AD-PSGD's averaging): the receiver calls Answer as soon as the payload arrives, whatever
     * it is doing, and sends what it returns back to the sender alone; the sender calls
     * TakeAnswer as soon as the answer arrives. Its round waits for the answers to its own
     * payload, not for the neighbours' payloads, and its Aggregate gets no payloads. Such an
     * algorithm's learning depends on when messages arrive. Default: false.
     */
    virtual bool AnswersMessages() const;

    /**
     * \brief Answer a neighbour's payload on arrival (only if AnswersMessages()).
     * \param request the payload as received
     * \return the payload sent back to its sender
     * \throws PayloadError when the payload is malformed or does not fit the model
     */
    virtual EncodedPayload Answer(const ReceivedPayload& request);

    /**
     * \brief Apply an answer to this node's payload on arrival (only if AnswersMessages()).
     * \param answer the payload as received; its round is the round of the payload it answers
     * \return false if no payload of that round awaits an answer from that sender (a duplicate
     * after a crash): nothing was applied
     * \throws PayloadError when the payload is malformed or does not fit the model
     */
    virtual bool TakeAnswer(const ReceivedPayload& answer);
};

/**
 * Which algorithm runs, with its parameters (see doc/dlsim.rst). The typed fields serve the
 * algorithms dlsim ships; `parameters` sets any registered algorithm's keys by their scenario
 * names and wins over the typed fields.
 */
struct SharingConfig
{
    std::string algorithm = "dpsgd"; ///< one of KnownAlgorithms()
    /// Sharing fraction of random sampling, top-k, CHOCO-SGD's compression and Sparse-Push.
    double alpha = 0.1;
    /// Top-k: rank by change accumulated since a value was last shared (JWINS's rule).
    bool accumulation = false;
    /// JWINS: the list a node draws its fraction from every round.
    std::vector<double> jwinsAlphas = {0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 1.0};
    /// JWINS: fractions at or above this share everything, without indices.
    double jwinsMetadataCap = 0.5;
    /// JWINS: wavelet name, or "none" for the ablation without wavelet.
    std::string jwinsWavelet = "sym2";
    uint32_t jwinsLevels = 4;      ///< JWINS: wavelet decomposition levels
    bool jwinsAccumulation = true; ///< JWINS: rank by accumulated change (as `accumulation`)
    /// JWINS: false fixes the fraction to the list's mean (the ablation without random cut-off).
    bool jwinsRandomCutoff = true;
    /// CHOCO-SGD: "topk" or "randomk".
    std::string chocoCompression = "topk";
    /// CHOCO-SGD: the consensus step size; unset: `auto`, tuned on the overlay by
    /// ResolveOnOverlay (LearnerHelper::Install does it), the same default as the runner's.
    std::optional<double> chocoGamma;
    /// Sparse-Push / SCSP: averaging rate of the compressed rounds.
    double pushEta = 0.01;
    /// SCSP: uncompressed push-sum rounds after the training rounds.
    uint32_t scspGossipRounds = 10;
    double scspGossipEta = 1.0; ///< SCSP: the averaging rate of those rounds
    /// Training rounds of the run (SCSP gossips after them).
    uint32_t trainingRounds = 0;
    /// Keys of the algorithm by their scenario names ("topk.alpha" = "0.2"), checked against
    /// its registration (algorithm-registry.h). A key not given here takes the typed field's
    /// value for dlsim's own algorithms (so "sparse-push.eta" is pushEta, not "auto"), else the
    /// registration's default.
    std::map<std::string, std::string> parameters;
};

/// \return the names accepted by the `algorithm` key: every registered algorithm
std::vector<std::string> KnownAlgorithms();

/**
 * \param config an algorithm and its parameters
 * \return an instance of it (one per node)
 * \throws std::invalid_argument for unknown names and for parameters that do not fit (naming
 * the key and the value)
 */
std::unique_ptr<SharingAlgorithm> CreateSharingAlgorithm(const SharingConfig& config);

} // namespace dlsim

#endif // DLSIM_SHARING_ALGORITHM_H
