// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Listens to the learners' trace sources and writes a run directory.
 */
#ifndef DLSIM_RESULTS_WRITER_H
#define DLSIM_RESULTS_WRITER_H

#include "evaluation-clock.h"
#include "learner-application.h"
#include "ns3/application-container.h"
#include "ns3/nstime.h"
#include "result-files.h"
#include "time-to-target.h"

#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/// The figures of a finished run, as written to summary.json.
struct RunSummary
{
    uint32_t nodes = 0;
    uint32_t rounds = 0;
    uint64_t seed = 0;
    double targetAccuracy = 0.0;
    /// The last evaluation: its round and accuracies over the learners; none when the run
    /// evaluated nothing (e.g. LearnerApplication::Evaluate=false), never a made-up 0. The
    /// round is the rounds completed: with timed evaluations (EvalInterval), the mean over the
    /// learners evaluated of the rounds each had completed, so it may be fractional.
    std::optional<double> finalRound;
    std::optional<double> finalAccuracyMean;
    std::optional<double> finalAccuracyMin;
    std::optional<double> finalAccuracyMax;
    std::optional<double> timeToTarget; ///< simulated seconds
    std::optional<double> bytesPerNodeToTarget;
    /// Interpolated like the time and bytes (see time-to-target.h), so it may be fractional.
    std::optional<double> roundToTarget;
    /// When the mean accuracy crosses the target for the last time (FindLastCrossing): it stays
    /// at or above the target from then on; none when the run ends below it.
    std::optional<double> timeStaysAboveTarget;
    double simulatedSeconds = 0.0;
    double wallSeconds = 0.0;
    /// CPU seconds of all local training on the host (RoundReport::trainingCpuSeconds summed):
    /// with run.threads = 1 the wall time less this is what simulating the rest cost.
    double trainingCpuSeconds = 0.0;
    /// CPU seconds of the simulator's thread in the algorithms' encoding, decoding and
    /// aggregation (RoundReport::sharingCpuSeconds summed): learning work, not the network's.
    double sharingCpuSeconds = 0.0;
    double valueBytesPerNode = 0.0; ///< mean over nodes, cumulative
    double metadataBytesPerNode = 0.0;
    /// IP bytes (TCP/IP headers, ACKs and retransmissions included) sent per node, measured by
    /// FlowMonitor; 0 when not measured.
    double wireBytesPerNode = 0.0;
    /// Provenance: versions, the command line, and what each `auto` key resolved to.
    std::string dlsimVersion;
    std::string ns3Version;
    std::string torchVersion;
    std::string commandLine;
    std::map<std::string, std::string> resolved;
    /// Rounds and messages, over all learners: what rounds that do not wait did.
    std::string roundMode = "sync";
    uint32_t minRoundsPerNode = 0;
    uint32_t maxRoundsPerNode = 0;
    uint64_t messagesFresh = 0;
    uint64_t messagesStale = 0;
    uint64_t messagesReused = 0; ///< of the stale ones, cached models used again
    uint64_t messagesDropped = 0;
    uint64_t sendsSuperseded = 0;
    uint64_t sendsLost = 0; ///< own messages lost with a failed connection
    /// Faults: host crashes and recoveries, link outages, and learners that never came back.
    uint32_t crashes = 0;
    uint32_t recoveries = 0;
    uint32_t linkOutages = 0;
    std::vector<uint32_t> lostLearners;
    /// The network's queues (links.csv): packets dropped by full queues and lost on links over
    /// packets; with a network model that moves no packets (flows), none of those, but how many
    /// times the flows' windows came to exceed a queue.
    std::optional<uint64_t> droppedPackets;
    std::optional<uint64_t> lostPackets;
    std::optional<uint64_t> flowOverflows;
    /**
     * Where the network model's times are only approximate (summary.json's network_fidelity,
     * and from it the grid table, index.csv, points.csv and the legends): "" where the model is
     * its own reference (packets) or nothing it approximates happened; else what did, e.g.
     * "queues overflowed on 16 link directions" over flows.
     */
    std::string networkFidelity;
    /**
     * Training that diverged (summary.json's training_diverged): "" when every trained round's
     * loss was finite; else which learners' was not and from when, e.g. "3 of 16 learners,
     * learner 5 first, at round 12". Such a run still finishes (a sweep over learning rates needs
     * its diverged points as results), but its accuracies are those of a broken model.
     */
    std::string trainingDiverged;
};

/**
 * Writes rounds.csv, receipt.csv (per learner and round: messages aggregated, stale, dropped),
 * eval.csv and curve.csv (one line per evaluation round: time, bytes per node, mean/min/max
 * accuracy) as the simulation runs, reports progress to `log` and computes
 * the summary. On a terminal, progress is a status line updated every round (round, simulated
 * time, latest mean accuracy, bytes, estimated wall time left); elsewhere one line per
 * evaluation. It stops the simulation only on a failure or a stall (SetWatchdog): the end of a
 * run, when every learner has completed its last round, is LearnerHelper's (SetStopWhenDone).
 *
 * When the learners' EvalInterval is set, they are evaluated on one clock instead
 * (EvaluationClock); a curve line is then one tick, and the run ends at the first tick after
 * every learner finished. A round is still a round then: eval.csv gives each learner's
 * completed rounds, curve.csv their mean over the learners evaluated (the tick is its time).
 */
class ResultsWriter
{
  public:
    ResultsWriter(const std::string& directory,
                  uint32_t nodes,
                  double targetAccuracy,
                  std::ostream& log);

    /**
     * Connect to the trace sources of every LearnerApplication in `apps` (and learn their
     * rounds), and to the Tick of their EvaluationClock when they evaluate on a clock.
     */
    void Attach(ApplicationContainer apps, Ptr<EvaluationClock> clock = nullptr);
    /// Report the evaluations still running on worker threads (after the simulation).
    void DeliverEvaluations();
    /**
     * The run's simulated-time budget (rounds.duration): a target first reached after it is
     * not reached (FindTargetCrossing), though rounds that began before it end after it.
     * \param seconds the budget; kNoBudget (the default) for none
     */
    void SetBudget(double seconds);

    /**
     * \brief End the run (LearnerApplication::EndSoon) once the mean accuracy has been at or
     * above the target at `evaluations` evaluations in a row (rounds.until_target). With it,
     * evaluations are delivered as every learner completes a round, so that the decision comes
     * at the same simulated time whatever the worker threads.
     * \param evaluations in a row; 0 (the default): never
     */
    void EndOnceTargetHeld(uint32_t evaluations);

    /**
     * Stop the run with an error when it makes no progress (no learner completes a round and
     * no learner receives a payload byte, while no learner trains and no host or link is down
     * by a fault) for
     * `stall` of simulated time, or when the simulated time reaches `limit` (zero: no such
     * limit). A zero `stall` is relative to the run's own rounds and network: kStallRounds times
     * its longest round so far, at least kStallFloor, and at least kStallFrames times
     * `slowestFrame`, the time a full frame takes on the network's slowest link direction (on a
     * link of a few bit/s, one frame outlasts any fixed floor: slow, not stalled). Bytes the
     * learners' hosts send (`hostBytesSent`, when given) are progress too: on a slow link TCP
     * may retransmit for minutes before a new payload byte arrives, and what it cannot
     * deliver it gives up on itself, with its own error.
     */
    void SetWatchdog(Time stall,
                     Time limit,
                     Time slowestFrame = Time(0),
                     std::function<uint64_t()> hostBytesSent = {});
    /// A stalled run is one idle for this many of its longest rounds (automatic stall timeout).
    static constexpr double kStallRounds = 10.0;
    /// The automatic stall timeout's least value: ns-3's TCP waits up to 60 s (MaxRto) before
    /// a retransmission, and one such wait must not end a run.
    static constexpr double kStallFloorSeconds = 120.0;
    /// A stalled run is one idle for this many full frames on its slowest link (automatic).
    static constexpr double kStallFrames = 10.0;

    /// Note a fault in faults.csv at the current simulated time (e.g. "link-down", "3:core").
    void RecordFault(const std::string& event, const std::string& subject);

    /// Why the run stopped early ("" when it did not): a learner failed, or the watchdog fired.
    const std::string& GetFailure() const;

    /// Whether every learner completed its last round.
    bool AllFinished() const;

    /**
     * \brief Why the run is not complete, as one sentence for the user (when it stopped, why,
     * and that what it computed is in the folder's partial CSV files), or "" when every learner
     * finished and nothing failed. Call after the simulation (and
     * DeliverEvaluations), before Finish.
     * \return the report, or "" for a complete run
     */
    std::string StopReport() const;

    /// Learners that did not finish, with the round each completed, e.g. "3 (round 12), 5 (...)".
    std::string DescribeUnfinished() const;

    RunSummary Finish(uint64_t seed);

  private:
    void OnRound(const RoundReport& report);
    void OnEvaluated(const EvalReport& report);
    void OnFailed(const std::string& message);
    void OnAvailability(const AvailabilityReport& report);
    void OnTick(uint32_t index);
    void CheckProgress();
    void StopWith(const std::string& failure);
    void ReportReadyRounds();
    void ReportEvalRound(uint32_t round);
    void DrawStatus(uint32_t round, double simSeconds, double bytesPerNode);
    double WallSeconds() const;

    std::string m_directory;
    uint32_t m_nodes;
    uint32_t m_rounds;
    double m_targetAccuracy;
    double m_budget = kNoBudget;
    std::ostream& m_log;
    std::unique_ptr<StreamedFile> m_roundsCsv;
    std::unique_ptr<StreamedFile> m_receiptCsv;
    std::unique_ptr<StreamedFile> m_faultsCsv;
    ApplicationContainer m_apps;
    Time m_evalInterval; ///< zero: evaluations by rounds
    std::vector<bool> m_finished;
    std::unique_ptr<StreamedFile> m_evalCsv;
    std::unique_ptr<StreamedFile> m_curveCsv;
    bool m_interactive = false;
    std::map<uint32_t, uint32_t> m_nodesDoneWithRound;
    std::set<uint32_t> m_completeRounds; ///< rounds every node has completed, not yet reported
    Time m_lastProgress;
    Time m_stallTimeout; ///< zero: automatic (StallLimit)
    Time m_slowestFrame; ///< a full frame on the slowest link direction (StallLimit)
    std::function<uint64_t()> m_hostBytesSent; ///< see SetWatchdog
    uint64_t m_sentBytes = 0;                  ///< what it returned at the last check
    Time m_longestRound;
    std::vector<Time> m_roundEnd; ///< when each learner's latest round ended
    uint64_t m_receivedBytes = 0; ///< payload bytes all learners had received at the last check
    int m_outages = 0;            ///< hosts and links down by a fault now
    /// How long the run may go without progress now.
    Time StallLimit() const;
    std::string m_failure;
    std::vector<uint32_t> m_roundOf; ///< rounds completed by each learner
    uint32_t m_holdEvaluations = 0;  ///< EndOnceTargetHeld; 0: never
    bool m_targetHeld = false;       ///< the curve has held the target that long
    bool m_endRequested = false;     ///< EndIfTargetHeld has ended the run
    /// With EndOnceTargetHeld: EndIfTargetHeld as an event after this one.
    void ScheduleEndIfTargetHeld();
    /// Deliver the evaluations made so far; end the run if the target has held (an event).
    void EndIfTargetHeld();
    std::vector<bool> m_diverged; ///< learners whose training loss was not finite
    uint32_t m_firstDiverged = 0; ///< the first of them, and its round
    uint32_t m_firstDivergedRound = 0;
    double m_latestAccuracy = -1.0;
    uint32_t m_finishedNodes = 0;
    uint32_t m_evaluatingNodes = 0;
    std::chrono::steady_clock::time_point m_wallStart;
    double m_lastRoundTime = 0.0;
    double m_lastEvalTime = 0.0;
    /// Cumulative bytes (values + metadata) of every node after each round; [round][node].
    std::map<uint32_t, std::vector<uint64_t>> m_bytesAfterRound;
    std::vector<uint64_t> m_valueBytes;
    std::vector<uint64_t> m_metadataBytes;
    /// Evaluations by round: accuracies and the latest time any node evaluated.
    struct EvalRound
    {
        std::vector<double> accuracies;
        double time = 0.0;
        std::vector<uint64_t> bytes; ///< timed evaluations: each learner's bytes sent so far
        std::vector<double> completedRounds; ///< timed evaluations: each learner's rounds
    };
    std::map<uint32_t, EvalRound> m_evals;
    std::vector<CurvePoint> m_curve; ///< curve.csv so far, for the time to target
    RunSummary m_summary;
};

/// Write a summary as JSON, with "status": "finished" (what IncompleteRunReason looks for).
void WriteSummaryJson(const RunSummary& summary, const std::string& path);

/// The summary's figures as CSV columns: header and one row (what grid indexes are built from).
std::string SummaryCsvHeader();
std::string SummaryCsvRow(const RunSummary& summary);

} // namespace ns3

#endif // DLSIM_RESULTS_WRITER_H
