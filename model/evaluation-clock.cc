// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "evaluation-clock.h"

#include "learner-application.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EvaluationClock);

TypeId
EvaluationClock::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EvaluationClock")
                            .SetParent<Object>()
                            .SetGroupName("Dlsim")
                            .AddConstructor<EvaluationClock>()
                            .AddTraceSource("Tick",
                                            "Every learner was evaluated and reported at a tick.",
                                            MakeTraceSourceAccessor(&EvaluationClock::m_tickTrace),
                                            "ns3::EvaluationClock::TickCallback");
    return tid;
}

void
EvaluationClock::Start(ApplicationContainer apps, Time interval)
{
    NS_ABORT_MSG_UNLESS(interval.IsStrictlyPositive(), "EvaluationClock needs a positive interval");
    m_apps = apps;
    m_interval = interval;
    Simulator::ScheduleNow(&EvaluationClock::Tick, this, 0);
}

Time
EvaluationClock::GetInterval() const
{
    return m_interval;
}

void
EvaluationClock::SetStopSimulation(bool stop)
{
    m_stopSimulation = stop;
}

void
EvaluationClock::DoDispose()
{
    m_apps = ApplicationContainer();
    Object::DoDispose();
}

void
EvaluationClock::Tick(uint32_t index)
{
    // Every learner is evaluated at the same simulated instant, on the model it holds then.
    for (uint32_t i = 0; i < m_apps.GetN(); ++i)
    {
        DynamicCast<LearnerApplication>(m_apps.Get(i))->EvaluateNow(index);
    }
    // Evaluations on worker threads run at once; the tick's reports need all of them.
    bool done = true;
    for (uint32_t i = 0; i < m_apps.GetN(); ++i)
    {
        Ptr<LearnerApplication> app = DynamicCast<LearnerApplication>(m_apps.Get(i));
        app->DeliverEvaluations();
        done = done && app->IsDone();
    }
    m_tickTrace(index);
    if (!done)
    {
        Simulator::Schedule(m_interval, &EvaluationClock::Tick, this, index + 1);
    }
    else if (m_stopSimulation)
    {
        Simulator::Stop();
    }
}

} // namespace ns3
