// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learner-helper.h"

#include "algorithm-registry.h"
#include "learner-application.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "replayed-learning.h"
#include "round-schedule.h"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <stdexcept>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimLearnerHelper");

LearnerHelper::LearnerHelper() : m_computeTime("flops", "10", 0.0, 1.0)
{
    m_factory.SetTypeId(LearnerApplication::GetTypeId());
    m_evalChoice = CreateObject<UniformRandomVariable>();
}

void
LearnerHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
LearnerHelper::SetData(DatasetSplit data, Partition partition)
{
    m_data = std::move(data);
    m_partition = std::move(partition);
}

void
LearnerHelper::SetTraining(const TrainingConfig& training)
{
    m_training = training;
}

void
LearnerHelper::SetSharing(const SharingConfig& sharing)
{
    m_sharing = sharing;
}

void
LearnerHelper::SetOverlay(const OverlayGraph& graph)
{
    m_schedule = OverlaySchedule(graph);
}

void
LearnerHelper::SetSchedule(const OverlaySchedule& schedule)
{
    m_schedule = schedule;
}

void
LearnerHelper::SetSeed(uint64_t seed)
{
    m_seed = seed;
}

void
LearnerHelper::SetSameInitialModel(bool same)
{
    m_sameInitialModel = same;
}

void
LearnerHelper::SetComputeTimeModel(const ComputeTimeModel& model)
{
    m_computeTime = model;
}

void
LearnerHelper::SetEvaluatedLearners(uint32_t count)
{
    m_evaluatedLearners = count;
}

int64_t
LearnerHelper::AssignStreams(int64_t stream)
{
    int64_t used = m_computeTime.AssignStreams(stream);
    m_evalChoice->SetStream(stream + used);
    return used + 1;
}

void
LearnerHelper::SetWorkerThreads(uint32_t threads)
{
    m_pool = threads > 1 ? std::make_shared<WorkerPool>(threads) : nullptr;
    m_evaluations = m_pool ? std::make_shared<InOrderDelivery>() : nullptr;
}

void
LearnerHelper::SetStopWhenDone(bool stop)
{
    m_stopWhenDone = stop;
}

namespace
{

/// Stops the simulation when the last of the learners installed together is done.
struct CompletionWatch : public SimpleRefCount<CompletionWatch>
{
    std::vector<bool> done; ///< per learner id
    uint32_t doneCount = 0; ///< of them done

    /// Learner `learner` is done (once or more).
    void Done(uint32_t learner)
    {
        if (learner < done.size() && !done[learner])
        {
            done[learner] = true;
            if (++doneCount == done.size())
            {
                Simulator::Stop();
            }
        }
    }
};

void
RoundCompletedForWatch(Ptr<CompletionWatch> watch, const RoundReport& report)
{
    if (report.finished)
    {
        watch->Done(report.learner);
    }
}

void
AvailabilityForWatch(Ptr<CompletionWatch> watch, const AvailabilityReport& report)
{
    if (!report.up && report.forGood)
    {
        watch->Done(report.learner);
    }
}

void
FailedForWatch(const std::string& /* message */)
{
    Simulator::Stop(); // the learners that wait for the failed one would wait for ever
}

} // namespace

void
LearnerHelper::SetReplay(std::shared_ptr<const LearningRecord> record)
{
    m_replay = std::move(record);
}

void
LearnerHelper::SetNetworkModel(Ptr<NetworkModel> model)
{
    m_network = model;
}

ApplicationContainer
LearnerHelper::Install(NodeContainer nodes, const LearnerAddresses& addresses)
{
    if (!m_schedule)
    {
        throw std::invalid_argument("LearnerHelper::Install needs SetOverlay or SetSchedule first");
    }
    if (!m_data.train || !m_data.test)
    {
        throw std::invalid_argument("LearnerHelper::Install needs SetData first");
    }
    const OverlaySchedule& schedule = *m_schedule;
    const uint32_t n = nodes.GetN();
    if (n != schedule.GetNNodes() || m_partition.size() != n)
    {
        throw std::invalid_argument(
            "LearnerHelper: " + std::to_string(n) + " nodes, "
            + std::to_string(schedule.GetNNodes()) + " learners in the overlay and "
            + std::to_string(m_partition.size()) + " partitions must agree");
    }

    // Values left to the overlay (CHOCO-SGD's step size by default), resolved as the runner
    // resolves them, so that a program and a scenario get the same defaults.
    SharingConfig resolvedSharing = m_sharing;
    m_resolved
        = ResolveOnOverlay(resolvedSharing, schedule.Union().GetAdjacency(), m_seed, std::clog);

    // Which learners evaluate: all, or a random sample of the requested size.
    std::vector<bool> evaluates(n, true);
    if (m_evaluatedLearners > 0 && m_evaluatedLearners < n)
    {
        std::vector<uint32_t> ids(n);
        std::iota(ids.begin(), ids.end(), 0u);
        for (uint32_t i = 0; i < m_evaluatedLearners; ++i)
        {
            uint32_t j = m_evalChoice->GetInteger(i, n - 1);
            std::swap(ids[i], ids[j]);
        }
        std::fill(evaluates.begin(), evaluates.end(), false);
        for (uint32_t i = 0; i < m_evaluatedLearners; ++i)
        {
            evaluates[ids[i]] = true;
        }
    }

    if (m_replay && m_replay->nodes.size() != n)
    {
        throw std::invalid_argument("LearnerHelper: the recording to replay holds "
                                    + std::to_string(m_replay->nodes.size()) + " learners, not "
                                    + std::to_string(n));
    }
    ApplicationContainer apps;
    auto budget = std::make_shared<RoundBudget>(); // one per run: its learners wait for each other
    // One network model for the learners of this Install: flows of one learner share the links
    // with the others' only within one model.
    Ptr<NetworkModel> network = m_network;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<LearnerApplication> app = m_factory.Create<LearnerApplication>();
        if (!network)
        {
            StringValue name;
            app->GetAttribute("NetworkModel", name);
            const NetworkModelRegistration* model = NetworkModelRegistry::Find(name.Get());
            if (!model)
            {
                throw std::invalid_argument("LearnerHelper: unknown NetworkModel '" + name.Get()
                                            + "'");
            }
            network = model->create();
        }
        app->SetNetworkModel(network);
        UintegerValue rounds;
        app->GetAttribute("Rounds", rounds);
        std::unique_ptr<TrainableModel> learner;
        std::unique_ptr<SharingAlgorithm> algorithm;
        Time computeTime;
        if (m_replay)
        {
            const RecordedNode& recorded = m_replay->nodes[i];
            if (recorded.trainingRounds != rounds.Get())
            {
                throw std::invalid_argument("LearnerHelper: the recording to replay has "
                                            + std::to_string(recorded.trainingRounds)
                                            + " rounds, not " + std::to_string(rounds.Get()));
            }
            // A recording that its run's budget (Duration) cut short holds fewer rounds than
            // configured: a replay that would go past them fails rather than make them up.
            if (recorded.rounds.size() < recorded.trainingRounds
                && (budget->available == 0 || recorded.rounds.size() < budget->available))
            {
                budget->available = static_cast<uint32_t>(recorded.rounds.size());
            }
            learner = std::make_unique<ReplayedLearner>(m_replay, i);
            algorithm = std::make_unique<ReplayedSharing>(m_replay, i);
            computeTime = NanoSeconds(recorded.computeTimeNs);
        }
        else
        {
            uint64_t initSeed
                = m_sameInitialModel ? m_seed : DeriveSeed(m_seed, i, SeedUse::InitialModel);
            uint64_t sampleSeed = DeriveSeed(m_seed, i, SeedUse::Sampling);
            auto trained = std::make_unique<Learner>(
                m_training, m_data.train, m_partition[i], initSeed, sampleSeed);
            SharingConfig sharing = resolvedSharing;
            if (sharing.trainingRounds == 0)
            {
                sharing.trainingRounds = static_cast<uint32_t>(rounds.Get());
            }
            algorithm = CreateSharingAlgorithm(sharing);
            // A partition smaller than the batch gives smaller batches (all of its samples):
            // charge what is really computed.
            const auto batch = static_cast<uint32_t>(
                std::min<size_t>(m_training.batchSize, m_partition[i].size()));
            computeTime = m_computeTime.NextNodeRoundTime(
                trained->TrainFlopsPerSample(), batch, m_training.localSteps);
            learner = std::move(trained);
        }
        if (algorithm->ForDirectedGraphs() != schedule.IsDirected())
        {
            throw std::invalid_argument(
                "algorithm " + m_sharing.algorithm + " runs on "
                + (algorithm->ForDirectedGraphs() ? "directed" : "undirected")
                + " topologies, but the topology is "
                + (schedule.IsDirected() ? "directed" : "undirected"));
        }
        app->SetAttribute("LearnerId", UintegerValue(i));
        app->SetAttribute("Seed", UintegerValue(m_seed));
        app->SetAttribute("ComputeTime", TimeValue(computeTime));
        if (m_computeTime.GetMode() == ComputeTimeModel::Mode::Measured && !m_replay)
        {
            app->SetAttribute("MeasuredComputeScale",
                              DoubleValue(m_computeTime.GetMeasuredScale()));
        }
        if (!evaluates[i])
        {
            app->SetAttribute("Evaluate", BooleanValue(false));
        }
        std::vector<LearnerApplication::PeerSet> phases;
        for (const OverlayGraph& phase : schedule.GetPhases())
        {
            LearnerApplication::PeerSet peers;
            for (uint32_t j : phase.GetOutNeighbours(i))
            {
                // Where i reaches j (with direct links: j's address on the i-j link).
                peers.out.push_back({j, addresses.Get(j, i)});
            }
            peers.in = phase.GetInNeighbours(i);
            phases.push_back(peers);
        }
        app->SetPeerSchedule(phases, schedule.GetPeriod());
        app->Setup(std::move(learner), std::move(algorithm), m_data.test);
        app->SetWorkerPool(m_pool);
        app->SetEvaluationDelivery(m_evaluations);
        app->SetRoundBudget(budget);
        nodes.Get(i)->AddApplication(app);
        apps.Add(app);
        NS_LOG_INFO("learner " << i << ": " << m_partition[i].size() << " samples, compute "
                               << computeTime.GetSeconds() << " s per round");
    }
    // The learners share one EvalInterval (the factory's): one clock evaluates them all.
    TimeValue interval;
    if (apps.GetN() > 0)
    {
        apps.Get(0)->GetAttribute("EvalInterval", interval);
    }
    if (interval.Get().IsStrictlyPositive())
    {
        m_clock = CreateObject<EvaluationClock>();
        m_clock->SetStopSimulation(m_stopWhenDone);
        m_clock->Start(apps, interval.Get());
    }
    if (m_stopWhenDone)
    {
        auto watch = Create<CompletionWatch>();
        watch->done.assign(n, false); // learner ids are 0..n-1
        for (uint32_t i = 0; i < apps.GetN(); ++i)
        {
            apps.Get(i)->TraceConnectWithoutContext("Failed", MakeCallback(&FailedForWatch));
            if (!m_clock)
            {
                apps.Get(i)->TraceConnectWithoutContext(
                    "RoundCompleted", MakeBoundCallback(&RoundCompletedForWatch, watch));
                apps.Get(i)->TraceConnectWithoutContext(
                    "Availability", MakeBoundCallback(&AvailabilityForWatch, watch));
            }
        }
    }
    return apps;
}

const std::map<std::string, std::string>&
LearnerHelper::GetResolved() const
{
    return m_resolved;
}

Ptr<EvaluationClock>
LearnerHelper::GetEvaluationClock() const
{
    return m_clock;
}

} // namespace ns3
