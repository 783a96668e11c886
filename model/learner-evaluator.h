// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Where a learner's evaluations run, and the order their reports come out in.
 */
#ifndef DLSIM_LEARNER_EVALUATOR_H
#define DLSIM_LEARNER_EVALUATOR_H

#include "dataset.h"
#include "learner.h"
#include "ns3/nstime.h"
#include "worker-pool.h"

#include <deque>
#include <functional>
#include <future>
#include <memory>

namespace ns3
{

/// Reported after an evaluation (at round 0 for the initial model, then every EvalEvery rounds).
struct EvalReport
{
    uint32_t learner = 0;         ///< whose model
    uint32_t round = 0;           ///< the round evaluated after, or the index of a timed evaluation
    uint32_t completedRounds = 0; ///< rounds the learner had completed then
    uint64_t totalBytes = 0;      ///< bytes (values and metadata) this learner sent so far
    Time time;                    ///< simulated time of the evaluation
    double accuracy = 0.0;        ///< on the test samples
    double loss = 0.0;            ///< mean loss on them
};

/**
 * \brief Runs one learner's evaluations and hands their reports on in the order they were made.
 *
 * A copy of the model (dlsim::ModelSnapshot) is evaluated on a worker, in the background: the next
 * round's training is on the critical path, an accuracy only for the results. The reports of
 * every learner sharing one dlsim::InOrderDelivery come out in the order the evaluations were made,
 * whatever the number of threads, so results do not depend on it. Without workers, or for a
 * model that cannot be copied, the learner evaluates in the simulator's thread (Report).
 */
class LearnerEvaluator
{
  public:
    /// Where a finished report goes (the application's Evaluated trace source).
    using Sink = std::function<void(const EvalReport&)>;

    /**
     * \param testSet what to evaluate on
     * \param samples the first this many test samples (0: all)
     * \param pool workers for evaluations in the background (null: none)
     * \param delivery the run's order of reports (null: each report at once)
     */
    LearnerEvaluator(std::shared_ptr<const dlsim::Dataset> testSet,
                     uint32_t samples,
                     std::shared_ptr<dlsim::WorkerPool> pool,
                     std::shared_ptr<dlsim::InOrderDelivery> delivery);

    /// \return whether copies of the model are evaluated on workers (Submit)
    bool InBackground() const;
    /// \return the test set and the samples evaluated, for an evaluation in this thread
    const dlsim::Dataset& GetTestSet() const;
    /// \return the number of test samples evaluated (0: all)
    uint32_t GetSamples() const;

    /**
     * \brief Evaluate `model` on a worker; `report`, with the result filled in, goes to `sink`
     * when it is ready and every earlier report has gone.
     * \param report what the learner was at the evaluation
     * \param model the copy to evaluate
     * \param sink where the report goes
     */
    void Submit(EvalReport report, std::shared_ptr<const dlsim::ModelSnapshot> model, Sink sink);
    /**
     * \brief Hand on `report` with an evaluation made in this thread, behind the earlier ones.
     * \param report what the learner was at the evaluation
     * \param result the evaluation
     * \param sink where the report goes
     */
    void Report(EvalReport report, const dlsim::EvalResult& result, Sink sink);

  private:
    void Deliver(EvalReport report, std::shared_future<dlsim::EvalResult> result, Sink sink);

    std::shared_ptr<const dlsim::Dataset> m_testSet; //!< what to evaluate on
    uint32_t m_samples;                          //!< first test samples (0: all)
    std::shared_ptr<dlsim::WorkerPool> m_pool;   //!< workers, or null
    std::shared_ptr<dlsim::InOrderDelivery> m_delivery; //!< the run's report order, or null
    /// This learner's evaluations still on a worker (oldest first), at most kMaxPending: each
    /// holds a copy of the model.
    std::deque<std::shared_future<dlsim::EvalResult>> m_pending;
    static constexpr size_t kMaxPending = 2; //!< see m_pending
};

} // namespace ns3

#endif // DLSIM_LEARNER_EVALUATOR_H
