// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A recorded node's learning played back: no training, the same losses, payload sizes and
 * accuracies, so that only the network's timing is simulated again.
 */
#ifndef DLSIM_REPLAYED_LEARNING_H
#define DLSIM_REPLAYED_LEARNING_H

#include "learning-record.h"
#include "sharing-algorithm.h"
#include "trainable-model.h"

#include <memory>

namespace dlsim
{

/**
 * The model side of a replayed node: Train returns the recorded round's loss without training,
 * Evaluate the recorded accuracy of the model after as many aggregations as SetParameters has
 * seen. It has no parameters (GetParameters is empty) and no snapshot. Throws
 * LearningRecordError when asked for a round or an evaluation the recording does not hold (a
 * replay that does not follow the recorded run).
 */
class ReplayedLearner : public TrainableModel
{
  public:
    /**
     * \param record the run's recording
     * \param node which of its nodes this is
     */
    ReplayedLearner(std::shared_ptr<const LearningRecord> record, uint32_t node);

    double Train() override;
    std::vector<float> GetParameters() const override;
    void SetParameters(const std::vector<float>& flat) override;
    EvalResult Evaluate(const Dataset& test, size_t maxSamples) const override;
    std::shared_ptr<const ModelSnapshot> Snapshot(const std::vector<float>* parameters
                                                  = nullptr) const override;

  private:
    std::shared_ptr<const LearningRecord> m_record;
    uint32_t m_node;
    uint32_t m_aggregations = 0; ///< SetParameters calls: rounds completed
};

/**
 * The algorithm side of a replayed node: Encode returns a payload of the recorded size (and of
 * the recorded number of value bytes) whose bytes are zeros, Aggregate reads nothing and keeps
 * the (empty) model; its rounds, receipt and graph kind are the recorded algorithm's.
 */
class ReplayedSharing : public SharingAlgorithm
{
  public:
    /**
     * \param record the run's recording
     * \param node which of its nodes this is
     */
    ReplayedSharing(std::shared_ptr<const LearningRecord> record, uint32_t node);

    void Initialize(const std::vector<float>& initialModel, const SharingContext& context) override;
    EncodedPayload Encode(const RoundInfo& round, const std::vector<float>& trainedModel) override;
    std::vector<float> Aggregate(const RoundInfo& round,
                                 const std::vector<float>& trainedModel,
                                 const std::vector<ReceivedPayload>& received) override;
    bool ForDirectedGraphs() const override;
    PartialReceipt GetPartialReceipt() const override;
    bool TrainsInRound(uint32_t round) const override;
    uint32_t ExtraRounds() const override;

  private:
    const RecordedNode& Node() const;

    std::shared_ptr<const LearningRecord> m_record;
    uint32_t m_node;
};

} // namespace dlsim

#endif // DLSIM_REPLAYED_LEARNING_H
