// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learner-evaluator.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

LearnerEvaluator::LearnerEvaluator(std::shared_ptr<const Dataset> testSet,
                                   uint32_t samples,
                                   std::shared_ptr<WorkerPool> pool,
                                   std::shared_ptr<InOrderDelivery> delivery)
    : m_testSet(std::move(testSet)), m_samples(samples), m_pool(std::move(pool)),
      m_delivery(std::move(delivery))
{}

bool
LearnerEvaluator::InBackground() const
{
    return m_pool && m_delivery;
}

const Dataset&
LearnerEvaluator::GetTestSet() const
{
    return *m_testSet;
}

uint32_t
LearnerEvaluator::GetSamples() const
{
    return m_samples;
}

void
LearnerEvaluator::Submit(EvalReport report, std::shared_ptr<const ModelSnapshot> model, Sink sink)
{
    // Evaluations wait while training keeps every worker busy; a backlog of model copies must
    // not grow without bound (think of wait-free rounds), so the simulation waits for this
    // learner's oldest once it has a few outstanding.
    while (!m_pending.empty()
           && (m_pending.size() >= kMaxPending
               || m_pending.front().wait_for(std::chrono::seconds(0)) == std::future_status::ready))
    {
        m_pending.front().wait();
        m_pending.pop_front();
    }
    std::shared_ptr<const Dataset> test = m_testSet;
    const size_t samples = m_samples;
    // The copy leaves the learner free to train on.
    std::shared_future<EvalResult> result
        = m_pool
              ->SubmitBackground([model, test, samples]()
                                 { return model->Evaluate(*test, samples); })
              .share();
    m_pending.push_back(result);
    Deliver(report, result, std::move(sink));
}

void
LearnerEvaluator::Report(EvalReport report, const EvalResult& result, Sink sink)
{
    std::promise<EvalResult> ready;
    ready.set_value(result);
    Deliver(report, ready.get_future().share(), std::move(sink));
}

void
LearnerEvaluator::Deliver(EvalReport report, std::shared_future<EvalResult> result, Sink sink)
{
    if (!m_delivery)
    {
        const EvalResult& ready = result.get();
        report.accuracy = ready.accuracy;
        report.loss = ready.loss;
        sink(report);
        return;
    }
    // Behind the evaluations still on workers, whoever evaluated: the reports keep the order
    // the evaluations were made in, whatever the number of threads.
    m_delivery->Add<EvalResult>(result,
                                [sink, report](const EvalResult& result) mutable
                                {
                                    report.accuracy = result.accuracy;
                                    report.loss = result.loss;
                                    sink(report);
                                });
}

} // namespace ns3
