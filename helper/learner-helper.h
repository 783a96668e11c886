// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Installs a LearnerApplication, with its learner and sharing algorithm, on every node.
 */
#ifndef DLSIM_LEARNER_HELPER_H
#define DLSIM_LEARNER_HELPER_H

#include "compute-time-model.h"
#include "dataset.h"
#include "evaluation-clock.h"
#include "learner-addresses.h"
#include "learner.h"
#include "learning-record.h"
#include "network-model.h"
#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/random-variable-stream.h"
#include "overlay-graph.h"
#include "partitioner.h"
#include "sharing-algorithm.h"
#include "worker-pool.h"

#include <map>
#include <memory>
#include <optional>

namespace ns3
{

/**
 * Installs learners on any ns-3 nodes with IPv4 reachability: the overlay says who sends to
 * whom, the addresses say where each learner is reached. Usage:
 * \code
 *   LearnerHelper learners;
 *   learners.SetData(data, PartitionShards(*data.train, n, 2, seed));
 *   learners.SetTraining(training);              // model, lr, batch size, local steps
 *   learners.SetSharing(sharing);                // which algorithm
 *   learners.SetOverlay(graph);                  // e.g. MakeRandomRegularGraph(n, 4, rng)
 *   learners.SetAttribute("Rounds", UintegerValue(100));
 *   ApplicationContainer apps = learners.Install(nodes, LearnerAddresses(interfaces));
 * \endcode
 * nodes.Get(i) runs learner i, reached at the address the LearnerAddresses give (for a network
 * built by hand: the interfaces Ipv4AddressHelper::Assign returned; for an underlay helper:
 * Underlay::addresses). All learners start from the same model (seeded by SetSeed) unless
 * SetSameInitialModel(false).
 */
class LearnerHelper
{
  public:
    /// A helper with the defaults below and LearnerApplication's attribute defaults.
    LearnerHelper();

    /**
     * \brief Set an attribute of every LearnerApplication created (see
     * LearnerApplication::GetTypeId for the attributes and their help strings).
     * \param name the attribute's name, e.g. "Rounds"
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param data the training and test sets (shared by all learners)
     * \param partition learner i trains on the samples partition[i] of data.train
     */
    void SetData(dlsim::DatasetSplit data, dlsim::Partition partition);
    /// \param training model, optimiser, batch size and local steps of every learner
    void SetTraining(const dlsim::TrainingConfig& training);
    /// \param sharing the algorithm every learner runs, with its parameters
    void SetSharing(const dlsim::SharingConfig& sharing);
    /// \param graph a static overlay: the same neighbours every round
    void SetOverlay(const OverlayGraph& graph);
    /// \param schedule a time-varying overlay: which edges each round uses (replaces SetOverlay)
    void SetSchedule(const OverlaySchedule& schedule);
    /// \param seed seeds model initialisation and mini-batch sampling (default 1)
    void SetSeed(uint64_t seed);
    /// \param same all learners start from the same model (true, the default) or each from its
    /// own draw
    void SetSameInitialModel(bool same);
    /**
     * \param model how local training is charged in simulated time. Default: "flops" mode with
     * identical 10 GFLOP/s devices.
     */
    void SetComputeTimeModel(const ComputeTimeModel& model);
    /// \param count evaluate only this many learners, drawn at random (0, the default: all)
    void SetEvaluatedLearners(uint32_t count);
    /**
     * Train and evaluate on this many worker threads while the simulator goes on (0 or 1, the
     * default: in the simulator's thread). Results do not depend on it; evaluations are then
     * reported later, in order (LearnerApplication::DeliverEvaluations).
     * \param threads the number of worker threads
     */
    void SetWorkerThreads(uint32_t threads);
    /**
     * \brief Stop the simulation once nothing more will come from the learners Install made:
     * every one finished its last round or crashed for good (with timed evaluations: after the
     * clock's tick that follows), or one failed. On by default, so that Simulator::Run returns
     * although other models keep making events (FlowMonitor's checks, Wi-Fi beacons).
     * \param stop whether to
     */
    void SetStopWhenDone(bool stop);
    /**
     * \brief Replay a recorded run's learning instead of training: every learner trains
     * nothing, waits the recorded compute time, sends payloads of the recorded sizes and reports
     * the recorded losses and accuracies (dlsim::ReplayedLearner, dlsim::ReplayedSharing), so that
     * only the network is simulated again. The rest of the configuration (overlay, rounds,
     * evaluations, attributes) must be the recorded run's; Install checks the node and round
     * counts. SetTraining and SetSharing still name the model and the algorithm.
     * \param record the recording (LearningRecorder), or null: train for real (the default)
     */
    void SetReplay(std::shared_ptr<const dlsim::LearningRecord> record);

    /**
     * \brief The simulation's network model, shared by every learner Install makes (and by the
     * simulation's cross traffic and rate traces, which must reach the same model). Unset:
     * Install makes one from the NetworkModel attribute's registration for its learners.
     * \param model made by a NetworkModelRegistration for the NetworkModel attribute's name
     */
    void SetNetworkModel(Ptr<NetworkModel> model);

    /**
     * One LearnerApplication on each node; throws std::invalid_argument when the overlay, the
     * partition, the nodes or the addresses do not fit together.
     * \param nodes learner i runs on nodes.Get(i)
     * \param addresses where each learner is reached
     * \return the applications, learner i at index i
     */
    ApplicationContainer Install(NodeContainer nodes, const LearnerAddresses& addresses);

    /**
     * \brief The clock of the learners' timed evaluations, started by Install when their
     * EvalInterval is positive: its Tick trace source fires when a tick's reports are out.
     * \return the clock, or null when the learners evaluate by rounds
     */
    Ptr<EvaluationClock> GetEvaluationClock() const;

    /**
     * \brief What the sharing algorithm's `auto` values resolved to when Install tuned them on
     * the overlay (e.g. CHOCO-SGD's step size, left `auto` when SharingConfig::chocoGamma is
     * unset, as in a scenario), for the program's records; empty when none was `auto`.
     * \return key -> value as a run folder's provenance shows it
     */
    const std::map<std::string, std::string>& GetResolved() const;

    /**
     * \brief Fix the ns-3 random streams used (device speeds, evaluated learners).
     * \param stream the first stream
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    ObjectFactory m_factory;
    dlsim::DatasetSplit m_data;
    dlsim::Partition m_partition;
    dlsim::TrainingConfig m_training;
    dlsim::SharingConfig m_sharing;
    std::map<std::string, std::string> m_resolved; ///< Install's resolution of `auto` values
    std::optional<OverlaySchedule> m_schedule;
    uint64_t m_seed = 1;
    bool m_sameInitialModel = true;
    ComputeTimeModel m_computeTime;
    uint32_t m_evaluatedLearners = 0;
    Ptr<UniformRandomVariable> m_evalChoice;
    std::shared_ptr<dlsim::WorkerPool> m_pool;
    std::shared_ptr<dlsim::InOrderDelivery> m_evaluations;
    Ptr<EvaluationClock> m_clock;
    bool m_stopWhenDone = true;
    std::shared_ptr<const dlsim::LearningRecord> m_replay; ///< SetReplay's recording
    Ptr<NetworkModel> m_network; ///< SetNetworkModel's, else one per Install
};

} // namespace ns3

#endif // DLSIM_LEARNER_HELPER_H
