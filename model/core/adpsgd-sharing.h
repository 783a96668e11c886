// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Asynchronous decentralized parallel SGD (AD-PSGD, Lian et al., ICML 2018).
 */
#ifndef DLSIM_ADPSGD_SHARING_H
#define DLSIM_ADPSGD_SHARING_H

#include "sharing-algorithm.h"

#include <map>

namespace dlsim
{

struct AlgorithmRegistration;

/**
 * Pairwise averaging with one neighbour at a time. Every round a node applies its local update
 * to its model, sends the model to one neighbour drawn at random (its request) and adds half
 * the difference between the neighbour's answer and what it sent. The neighbour answers on
 * arrival, whatever it is doing: it sends its own model back and adds half the difference the
 * other way. Both changes are computed from the two payloads as sent, so that they cancel
 * exactly and the sum of the models is kept (to double precision: the model is held in double,
 * the wire carries float32) however exchanges overlap. A node's local update is computed on the
 * model it started the round from and applied to the model it holds when it ends (answers may
 * have changed it meanwhile): AD-PSGD's stale read. An answer is applied once, on arrival,
 * also after the node's last round. A node has one exchange of its own in flight at most: a
 * round whose earlier request is unanswered asks nobody, for kPatience rounds at most.
 */
class AdpsgdSharing : public SharingAlgorithm
{
  public:
    /// Rounds after which an unanswered request (lost with a crash or a failed link) no longer
    /// keeps the node from asking again.
    static constexpr uint32_t kPatience = 10;

    void Initialize(const std::vector<float>& initialModel, const SharingContext& context) override;
    EncodedPayload Encode(const RoundInfo& round, const std::vector<float>& trainedModel) override;
    std::vector<float> Aggregate(const RoundInfo& round,
                                 const std::vector<float>& trainedModel,
                                 const std::vector<ReceivedPayload>& received) override;
    bool ForDirectedGraphs() const override;
    PartialReceipt GetPartialReceipt() const override;
    std::vector<uint32_t> Receivers(const RoundInfo& round,
                                    const std::vector<uint32_t>& outNeighbours) override;
    bool AnswersMessages() const override;
    EncodedPayload Answer(const ReceivedPayload& request) override;
    bool TakeAnswer(const ReceivedPayload& answer) override;

    /// \return the model the node holds now, answers included (what the sum is kept of)
    const std::vector<double>& GetHeldModel() const;

  private:
    /// \return the held model as float32, as it goes on the wire
    std::vector<float> WireModel() const;
    /// \return the held model as the Full payload a request or an answer carries
    Payload WirePayload() const;
    /// \return the values of a payload of the whole model, read in place from its bytes
    PayloadValues ValuesOf(const ReceivedPayload& message) const;

    /// A request awaiting its answer.
    struct Pending
    {
        uint32_t partner = 0;      ///< whom it went to
        std::vector<float> values; ///< what it carried
    };

    std::vector<double> m_model;          ///< the held model, in double
    std::vector<float> m_start;           ///< what the learner's update is counted from
    std::map<uint32_t, Pending> m_sent;   ///< requests awaiting an answer, by round
    std::map<uint32_t, Pending> m_drafts; ///< this round's request, until Receivers sends it
    uint64_t m_partnerSeed = 0;           ///< the seed of the partner draws
};

/// \return the registration of AD-PSGD (algorithm-registry.h)
AlgorithmRegistration AdpsgdRegistration();

} // namespace dlsim

#endif // DLSIM_ADPSGD_SHARING_H
