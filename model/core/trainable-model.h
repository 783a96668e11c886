// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What a learner application trains, shares and evaluates, whether it really trains or replays.
 */
#ifndef DLSIM_TRAINABLE_MODEL_H
#define DLSIM_TRAINABLE_MODEL_H

#include <cstddef>
#include <memory>
#include <vector>

namespace dlsim
{

class Dataset;
class ModelSnapshot;
struct EvalResult;

/**
 * The one seam between a learner application and what it trains: a Learner (a LibTorch model
 * trained for real) or a ReplayedLearner (the losses and accuracies a Learner had in a recorded
 * run, for replaying the same learning over another network). The application calls these in
 * the order of its rounds: Train, then GetParameters for the algorithm, then SetParameters with
 * the aggregated model; Evaluate between rounds.
 */
class TrainableModel
{
  public:
    virtual ~TrainableModel() = default;

    /**
     * \brief One round's local training.
     * \return the mean training loss over its steps
     */
    virtual double Train() = 0;
    /// \return the parameters, flat, in registration order
    virtual std::vector<float> GetParameters() const = 0;
    /**
     * \brief GetParameters into a vector the caller keeps: twice per learner and round in the
     * simulator's thread, a fresh vector (zero-filled, then given back) costs as much as the copy.
     * \param[out] flat resized to the parameter count and overwritten
     */
    virtual void GetParametersInto(std::vector<float>& flat) const
    {
        flat = GetParameters();
    }
    /**
     * \brief Overwrite the parameters (the model of an aggregation).
     * \param flat the parameters, as GetParameters gives them
     */
    virtual void SetParameters(const std::vector<float>& flat) = 0;
    /**
     * \param test the test set
     * \param maxSamples evaluate its first `maxSamples` samples (0: all of them)
     * \return accuracy and loss of the model as it is now
     */
    virtual EvalResult Evaluate(const Dataset& test, size_t maxSamples) const = 0;
    /**
     * \param parameters the copy's parameters, or null: the model's own
     * \return a copy to evaluate on another thread, or null when there is none (then only
     * Evaluate can evaluate the model)
     */
    virtual std::shared_ptr<const ModelSnapshot> Snapshot(const std::vector<float>* parameters
                                                          = nullptr) const = 0;
};

} // namespace dlsim

#endif // DLSIM_TRAINABLE_MODEL_H
