// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * One clock for the timed evaluations of a run's learners.
 */
#ifndef DLSIM_EVALUATION_CLOCK_H
#define DLSIM_EVALUATION_CLOCK_H

#include "ns3/application-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \brief Evaluates every learner of a run at the same simulated instants (their EvalInterval).
 *
 * From time 0 and every interval after it, each LearnerApplication evaluates the model of its
 * last aggregation (LearnerApplication::EvaluateNow) and the reports still on worker threads are
 * handed on; then the Tick trace source fires, so that whoever collects the reports can close
 * the tick. A learner that is down evaluates nothing. The clock stops after the first tick at
 * which every learner has finished its last round or crashed for good, so that the final models
 * are evaluated. LearnerHelper::Install starts one when the learners' EvalInterval is positive.
 *
 * Trace sources:
 * - Tick (uint32_t index): the evaluations of tick `index` (from 0) were all reported.
 */
class EvaluationClock : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    /// Signature of the Tick trace source.
    typedef void (*TickCallback)(uint32_t index);

    /**
     * \brief Tick for `apps` every `interval`, the first tick now.
     * \param apps LearnerApplications
     * \param interval positive
     */
    void Start(ApplicationContainer apps, Time interval);
    /// \return the interval between ticks (zero before Start)
    Time GetInterval() const;
    /**
     * \brief Stop the simulation after the last tick (the first at which every learner is
     * done), so that an own program's Simulator::Run returns though other events would go on.
     * \param stop whether to (default: no)
     */
    void SetStopSimulation(bool stop);

  protected:
    /// Forget the learners.
    void DoDispose() override;

  private:
    void Tick(uint32_t index);

    ApplicationContainer m_apps;          //!< the learners evaluated
    Time m_interval;                      //!< between ticks
    bool m_stopSimulation = false;        //!< Simulator::Stop after the last tick
    TracedCallback<uint32_t> m_tickTrace; //!< Tick
};

} // namespace ns3

#endif // DLSIM_EVALUATION_CLOCK_H
