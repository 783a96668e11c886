// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "results-writer.h"

#include "ns3/boolean.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "result-files.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace ns3
{

namespace
{

/// How often the watchdog looks for progress (simulated time): a few events per run.
Time
CheckPeriod()
{
    return Seconds(5);
}

/// A JSON string literal.
std::string
JsonString(const std::string& text)
{
    std::string out = "\"";
    for (unsigned char c : text)
    {
        if (c == '"' || c == '\\')
        {
            out += '\\';
            out += static_cast<char>(c);
        }
        else if (c < 0x20)
        {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        }
        else
        {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

double
Mean(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

/// Restores a stream's format (flags, precision, fill) on leaving a scope: the writer reports to
/// the program's own stream and must leave its formatting as it found it.
class StreamFormatGuard
{
  public:
    explicit StreamFormatGuard(std::ostream& stream)
        : m_stream(stream), m_flags(stream.flags()), m_precision(stream.precision()),
          m_fill(stream.fill())
    {}

    ~StreamFormatGuard()
    {
        m_stream.flags(m_flags);
        m_stream.precision(m_precision);
        m_stream.fill(m_fill);
    }

    StreamFormatGuard(const StreamFormatGuard&) = delete;
    StreamFormatGuard& operator=(const StreamFormatGuard&) = delete;

  private:
    std::ostream& m_stream;
    std::ios::fmtflags m_flags;
    std::streamsize m_precision;
    char m_fill;
};

} // namespace

ResultsWriter::ResultsWriter(const std::string& directory,
                             uint32_t nodes,
                             double targetAccuracy,
                             std::ostream& log)
    : m_directory(directory), m_nodes(nodes), m_rounds(0), m_targetAccuracy(targetAccuracy),
      m_log(log), m_valueBytes(nodes, 0), m_metadataBytes(nodes, 0)
{
    m_roundsCsv = std::make_unique<StreamedFile>(
        directory + "/rounds.csv",
        "node,round,time_s,compute_s,train_loss,value_bytes,metadata_bytes,"
        "cum_value_bytes,cum_metadata_bytes");
    m_receiptCsv = std::make_unique<StreamedFile>(
        directory + "/receipt.csv",
        "node,round,time_s,fresh,stale,dropped,staleness_mean,staleness_max,superseded_sends,"
        "lost_sends,reused");
    m_faultsCsv = std::make_unique<StreamedFile>(directory + "/faults.csv", "time_s,event,subject");
    m_evalCsv = std::make_unique<StreamedFile>(directory + "/eval.csv",
                                               "round,time_s,node,accuracy,loss");
    m_curveCsv = std::make_unique<StreamedFile>(
        directory + "/curve.csv",
        "round,time_s,bytes_per_node,accuracy_mean,accuracy_min,accuracy_max");
    m_interactive = ::isatty(STDOUT_FILENO) != 0;
    m_wallStart = std::chrono::steady_clock::now();
    m_bytesAfterRound[0] = std::vector<uint64_t>(nodes, 0);
    m_roundOf.assign(nodes, 0);
    m_diverged.assign(nodes, false);
    m_roundEnd.assign(nodes, Time(0));
    m_finished.assign(nodes, false);
}

void
ResultsWriter::EndOnceTargetHeld(uint32_t evaluations)
{
    m_holdEvaluations = evaluations;
}

void
ResultsWriter::ScheduleEndIfTargetHeld()
{
    if (m_holdEvaluations > 0 && !m_endRequested)
    {
        // Whether the target has held is decided in an event of its own, after this one, with
        // the evaluations made so far: at the same point of the simulation whether a worker
        // thread or this one evaluated them, and whether they were reported already or not.
        Simulator::ScheduleNow(&ResultsWriter::EndIfTargetHeld, this);
    }
}

void
ResultsWriter::EndIfTargetHeld()
{
    DeliverEvaluations();
    if (!m_targetHeld || m_endRequested)
    {
        return;
    }
    m_endRequested = true;
    if (m_interactive)
    {
        m_log << "\r\033[K";
    }
    m_log << "dlsim: the mean accuracy has been at or above the target " << m_targetAccuracy
          << " at " << m_holdEvaluations
          << " evaluations in a row (rounds.until_target): the learners end at a round they "
             "agree on"
          << std::endl;
    for (uint32_t i = 0; i < m_apps.GetN(); ++i)
    {
        DynamicCast<LearnerApplication>(m_apps.Get(i))->EndSoon();
    }
}

void
ResultsWriter::SetWatchdog(Time stall,
                           Time limit,
                           Time slowestFrame,
                           std::function<uint64_t()> hostBytesSent)
{
    m_stallTimeout = stall;
    m_slowestFrame = slowestFrame;
    m_hostBytesSent = std::move(hostBytesSent);
    Simulator::Schedule(std::min(StallLimit(), CheckPeriod()), &ResultsWriter::CheckProgress, this);
    if (limit.IsStrictlyPositive())
    {
        Simulator::Schedule(
            limit,
            [this, limit]()
            {
                std::ostringstream text;
                text << "the simulated time limit of " << limit.GetSeconds()
                     << " s was reached before every learner finished (run.time_limit); "
                     << "unfinished learners: " << DescribeUnfinished();
                StopWith(text.str());
            });
    }
}

Time
ResultsWriter::StallLimit() const
{
    if (m_stallTimeout.IsStrictlyPositive())
    {
        return m_stallTimeout;
    }
    return std::max({Seconds(kStallFloorSeconds),
                     m_longestRound * kStallRounds,
                     m_slowestFrame * kStallFrames});
}

void
ResultsWriter::CheckProgress()
{
    if (AllFinished() || !m_failure.empty())
    {
        return;
    }
    uint64_t received = 0;
    bool computing = false;
    for (uint32_t i = 0; i < m_apps.GetN(); ++i)
    {
        Ptr<LearnerApplication> app = DynamicCast<LearnerApplication>(m_apps.Get(i));
        received += app->GetReceivedBytes();
        computing = computing || app->IsComputing();
    }
    const uint64_t sent = m_hostBytesSent ? m_hostBytesSent() : 0;
    // Bytes still arriving or leaving the learners' hosts, a learner still training, or a fault
    // that holds hosts or links down are no stall: a round can take long on a slow link or a
    // slow device, and rounds may wait for a host to come back.
    if (received != m_receivedBytes || sent != m_sentBytes || computing || m_outages > 0)
    {
        m_receivedBytes = received;
        m_sentBytes = sent;
        m_lastProgress = Simulator::Now();
    }
    const Time idle = Simulator::Now() - m_lastProgress;
    const Time limit = StallLimit();
    if (idle >= limit)
    {
        std::ostringstream text;
        text << "no learner completed a round, received a payload byte or sent a byte for "
             << idle.GetSeconds() << " s of simulated time (run.stall_timeout = ";
        if (m_stallTimeout.IsStrictlyPositive())
        {
            text << limit.GetSeconds() << " s";
        }
        else
        {
            text << "auto: " << kStallRounds << " times the longest round so far ("
                 << m_longestRound.GetSeconds() << " s), at least " << kStallFloorSeconds
                 << " s and " << kStallFrames << " full frames on the slowest link ("
                 << m_slowestFrame.GetSeconds() << " s each)";
        }
        text << "; last progress seen at " << m_lastProgress.GetSeconds()
             << " s): the network is stalled; unfinished learners: " << DescribeUnfinished();
        StopWith(text.str());
        return;
    }
    Simulator::Schedule(std::min(limit - idle, CheckPeriod()), &ResultsWriter::CheckProgress, this);
}

void
ResultsWriter::OnAvailability(const AvailabilityReport& r)
{
    RecordFault(r.up ? "recover" : (r.forGood ? "crash-for-good" : "crash"),
                std::to_string(r.learner));
    if (r.up)
    {
        --m_outages;
        ++m_summary.recoveries;
        return;
    }
    m_outages += r.forGood ? 0 : 1;
    ++m_summary.crashes;
    if (r.forGood && !m_finished[r.learner])
    {
        // Nothing more will come from it: the run ends when the others are done.
        m_finished[r.learner] = true;
        m_summary.lostLearners.push_back(r.learner);
        ++m_finishedNodes;
    }
}

void
ResultsWriter::RecordFault(const std::string& event, const std::string& subject)
{
    m_summary.linkOutages += event == "link-down" ? 1 : 0;
    m_outages += event == "link-down" ? 1 : (event == "link-up" ? -1 : 0);
    std::ostringstream line;
    line << std::setprecision(9) << Simulator::Now().GetSeconds() << "," << event << "," << subject
         << "\n";
    m_faultsCsv->Append(line.str());
}

void
ResultsWriter::OnFailed(const std::string& message)
{
    StopWith(message);
}

void
ResultsWriter::StopWith(const std::string& failure)
{
    if (m_failure.empty())
    {
        m_failure = failure;
    }
    Simulator::Stop();
}

const std::string&
ResultsWriter::GetFailure() const
{
    return m_failure;
}

bool
ResultsWriter::AllFinished() const
{
    return m_finishedNodes == m_nodes;
}

std::string
ResultsWriter::StopReport() const
{
    if (m_failure.empty() && AllFinished())
    {
        return "";
    }
    std::string why = m_failure;
    if (why.empty())
    {
        why = "the simulation ran out of events before every learner finished (a stalled "
              "network); unfinished learners: "
              + DescribeUnfinished();
    }
    std::ostringstream report;
    report << "run stopped at " << Simulator::Now().GetSeconds() << " s of simulated time: " << why
           << "; what it computed until then is in " << m_directory << "/*.csv.partial";
    return report.str();
}

std::string
ResultsWriter::DescribeUnfinished() const
{
    std::ostringstream text;
    uint32_t listed = 0;
    uint32_t unfinished = 0;
    for (uint32_t i = 0; i < m_nodes; ++i)
    {
        if (m_finished[i])
        {
            continue;
        }
        ++unfinished;
        if (listed < 8)
        {
            text << (listed ? ", " : "") << i << " (after round " << m_roundOf[i] << ")";
            ++listed;
        }
    }
    if (unfinished > listed)
    {
        text << " and " << unfinished - listed << " more";
    }
    return text.str();
}

void
ResultsWriter::Attach(ApplicationContainer apps, Ptr<EvaluationClock> clock)
{
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<Application> app = apps.Get(i);
        app->TraceConnectWithoutContext("RoundCompleted",
                                        MakeCallback(&ResultsWriter::OnRound, this));
        app->TraceConnectWithoutContext("Evaluated",
                                        MakeCallback(&ResultsWriter::OnEvaluated, this));
        app->TraceConnectWithoutContext("Failed", MakeCallback(&ResultsWriter::OnFailed, this));
        app->TraceConnectWithoutContext("Availability",
                                        MakeCallback(&ResultsWriter::OnAvailability, this));
        BooleanValue evaluates;
        app->GetAttribute("Evaluate", evaluates);
        m_rounds = std::max(m_rounds, DynamicCast<LearnerApplication>(app)->GetTotalRounds());
        m_evaluatingNodes += evaluates.Get() ? 1 : 0;
        TimeValue interval;
        app->GetAttribute("EvalInterval", interval);
        if (i == 0)
        {
            m_evalInterval = interval.Get();
        }
        else if (interval.Get() != m_evalInterval)
        {
            NS_FATAL_ERROR("ResultsWriter: learners must share one EvalInterval");
        }
    }
    m_apps.Add(apps);
    if (m_evalInterval.IsStrictlyPositive())
    {
        NS_ABORT_MSG_UNLESS(clock && clock->GetInterval() == m_evalInterval,
                            "ResultsWriter: timed evaluations need the learners' EvaluationClock "
                            "(LearnerHelper::GetEvaluationClock)");
        clock->TraceConnectWithoutContext("Tick", MakeCallback(&ResultsWriter::OnTick, this));
    }
}

void
ResultsWriter::OnTick(uint32_t index)
{
    // A tick's line holds the learners that were up: a crashed host evaluates nothing.
    if (m_evals.count(index) != 0)
    {
        ReportEvalRound(index);
        m_evals.erase(index);
    }
    ScheduleEndIfTargetHeld(); // timed evaluations: after each tick's line
}

void
ResultsWriter::DeliverEvaluations()
{
    for (uint32_t i = 0; i < m_apps.GetN(); ++i)
    {
        DynamicCast<LearnerApplication>(m_apps.Get(i))->DeliverEvaluations();
    }
}

void
ResultsWriter::OnRound(const RoundReport& r)
{
    std::ostringstream line;
    line << std::setprecision(9) << r.learner << "," << r.round << "," << r.time.GetSeconds() << ","
         << r.computeTime.GetSeconds() << "," << r.trainLoss << "," << r.valueBytes << ","
         << r.metadataBytes << "," << r.totalValueBytes << "," << r.totalMetadataBytes << "\n";
    m_roundsCsv->Append(line.str());
    std::ostringstream receipt;
    receipt << std::setprecision(9) << r.learner << "," << r.round << "," << r.time.GetSeconds()
            << "," << r.fresh << "," << r.stale << "," << r.dropped << "," << r.meanStaleness << ","
            << r.maxStaleness << "," << r.supersededSends << "," << r.lostSends << "," << r.reused
            << "\n";
    m_receiptCsv->Append(receipt.str());
    if (r.trained && !std::isfinite(r.trainLoss) && !m_diverged[r.learner])
    {
        // Said once, when it starts: every later round of that learner is lost too.
        if (std::none_of(m_diverged.begin(), m_diverged.end(), [](bool d) { return d; }))
        {
            m_firstDiverged = r.learner;
            m_firstDivergedRound = r.round;
            if (m_interactive)
            {
                m_log << "\r\033[K";
            }
            m_log << "dlsim: warning: learner " << r.learner << "'s training loss is not finite ("
                  << r.trainLoss << ")"
                  << " at round " << r.round
                  << ": the training diverged (a smaller learning rate?); the run goes on and "
                     "summary.json says so (training_diverged)"
                  << std::endl;
        }
        m_diverged[r.learner] = true;
    }
    m_summary.trainingCpuSeconds += r.trainingCpuSeconds;
    m_summary.sharingCpuSeconds += r.sharingCpuSeconds;
    m_summary.messagesFresh += r.fresh;
    m_summary.messagesStale += r.stale;
    m_summary.messagesReused += r.reused;
    m_summary.messagesDropped += r.dropped;
    m_summary.sendsSuperseded += r.supersededSends;
    m_summary.sendsLost += r.lostSends;
    m_valueBytes[r.learner] = r.totalValueBytes;
    m_metadataBytes[r.learner] = r.totalMetadataBytes;
    m_lastRoundTime = std::max(m_lastRoundTime, r.time.GetSeconds());
    m_lastProgress = r.time;
    m_longestRound = std::max(m_longestRound, r.time - m_roundEnd[r.learner]);
    m_roundEnd[r.learner] = r.time;
    m_roundOf[r.learner] = r.round;
    // Curve lines by rounds report every node's bytes after the round and wait for the round
    // to be complete; timed lines carry their own bytes, so none of this is kept for them.
    if (m_evalInterval.IsZero())
    {
        auto& bytes = m_bytesAfterRound[r.round];
        bytes.resize(m_nodes, 0);
        bytes[r.learner] = r.totalValueBytes + r.totalMetadataBytes;
        if (++m_nodesDoneWithRound[r.round] == m_nodes)
        {
            m_nodesDoneWithRound.erase(r.round);
            m_completeRounds.insert(r.round);
            if (m_interactive)
            {
                DrawStatus(r.round,
                           r.time.GetSeconds(),
                           std::accumulate(bytes.begin(), bytes.end(), 0.0) / m_nodes);
            }
            ReportReadyRounds();
            ScheduleEndIfTargetHeld(); // evaluations by rounds: as every learner ends one
        }
    }
    if (r.finished && !m_finished[r.learner])
    {
        m_finished[r.learner] = true;
        ++m_finishedNodes;
    }
}

void
ResultsWriter::OnEvaluated(const EvalReport& r)
{
    // A timed evaluation's `round` is its tick: eval.csv gives the rounds the learner had
    // completed instead (the tick is the time), so that a round is a round in every run.
    const bool timed = m_evalInterval.IsStrictlyPositive();
    std::ostringstream line;
    line << std::setprecision(9) << (timed ? r.completedRounds : r.round) << ","
         << r.time.GetSeconds() << "," << r.learner << "," << r.accuracy << "," << r.loss << "\n";
    m_evalCsv->Append(line.str());
    EvalRound& round = m_evals[r.round];
    round.accuracies.push_back(r.accuracy);
    round.bytes.push_back(r.totalBytes);
    round.completedRounds.push_back(r.completedRounds);
    round.time = std::max(round.time, r.time.GetSeconds());
    m_lastEvalTime = std::max(m_lastEvalTime, r.time.GetSeconds());
    if (m_evalInterval.IsZero())
    {
        ReportReadyRounds(); // timed evaluations are reported by Tick
    }
}

void
ResultsWriter::ReportReadyRounds()
{
    // An evaluation round is reported once every evaluating learner has evaluated it and every
    // learner (evaluating or not) has completed it, so that its bytes are those of all nodes.
    // Rounds complete in order, so reports come in order too.
    while (!m_evals.empty())
    {
        auto next = m_evals.begin();
        const uint32_t round = next->first;
        const bool timed = m_evalInterval.IsStrictlyPositive();
        if (next->second.accuracies.size() < m_evaluatingNodes
            || (!timed && round > 0 && m_completeRounds.count(round) == 0))
        {
            return;
        }
        ReportEvalRound(round);
        m_evals.erase(next);
        m_bytesAfterRound.erase(m_bytesAfterRound.begin(), m_bytesAfterRound.find(round));
        m_completeRounds.erase(m_completeRounds.begin(), m_completeRounds.upper_bound(round));
    }
}

void
ResultsWriter::ReportEvalRound(uint32_t round)
{
    const EvalRound& e = m_evals[round];
    double mean = Mean(e.accuracies);
    auto [minIt, maxIt] = std::minmax_element(e.accuracies.begin(), e.accuracies.end());
    // Timed evaluations carry each learner's bytes; by rounds, every node's bytes after the round.
    const auto& bytes = m_evalInterval.IsStrictlyPositive() ? e.bytes : m_bytesAfterRound[round];
    double bytesPerNode
        = std::accumulate(bytes.begin(), bytes.end(), 0.0) / std::max<size_t>(1, bytes.size());
    double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
    // By rounds, the round every node completed; on a clock, the rounds the learners evaluated
    // had completed, on average (a tick's index is no round: its time says which tick it was).
    const double rounds = m_evalInterval.IsStrictlyPositive() ? Mean(e.completedRounds) : round;
    std::ostringstream line;
    line << std::setprecision(9) << rounds << "," << e.time << "," << bytesPerNode << "," << mean
         << "," << *minIt << "," << *maxIt << "\n";
    m_curveCsv->Append(line.str());
    // What was computed up to this evaluation is on disk even if the run is stopped later.
    m_roundsCsv->Flush();
    m_receiptCsv->Flush();
    m_faultsCsv->Flush();
    m_evalCsv->Flush();
    m_curveCsv->Flush();
    m_latestAccuracy = mean;
    if (m_interactive)
    {
        m_log << "\r\033[K"; // the evaluation line replaces the status line
    }
    const StreamFormatGuard keep(m_log);
    if (m_evalInterval.IsStrictlyPositive())
    {
        m_log << "evaluation " << round;
    }
    else
    {
        m_log << "round " << round << "/" << m_rounds;
    }
    m_log << std::fixed << std::setprecision(3) << "  sim " << e.time << " s  accuracy mean "
          << mean << " (min " << *minIt << ", max " << *maxIt << ")  sent " << std::setprecision(2)
          << bytesPerNode / 1e6 << " MB/node  wall " << std::setprecision(1) << wall << " s"
          << std::endl;
    // From the line as written, as the crossing below is.
    m_curve.push_back(ParseCurveLine(line.str()));
    m_targetHeld = m_targetHeld
                   || (m_holdEvaluations > 0 && m_curve.size() >= m_holdEvaluations
                       && std::all_of(m_curve.end() - m_holdEvaluations,
                                      m_curve.end(),
                                      [this](const CurvePoint& p)
                                      { return p.accuracyMean >= m_targetAccuracy; }));
    m_summary.finalRound = m_curve.back().round;
    m_summary.finalAccuracyMean = mean;
    m_summary.finalAccuracyMin = *minIt;
    m_summary.finalAccuracyMax = *maxIt;
    // From the numbers as curve.csv holds them (m_curve), so that collect and plot, which
    // recompute from curve.csv, arrive at the same values.
    if (auto crossing = FindTargetCrossing(m_curve, m_targetAccuracy, m_budget);
        crossing && !m_summary.timeToTarget)
    {
        m_summary.timeToTarget = crossing->time;
        m_summary.bytesPerNodeToTarget = crossing->bytesPerNode;
        m_summary.roundToTarget = crossing->round;
    }
}

void
ResultsWriter::SetBudget(double seconds)
{
    m_budget = seconds;
}

double
ResultsWriter::WallSeconds() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
}

void
ResultsWriter::DrawStatus(uint32_t round, double simSeconds, double bytesPerNode)
{
    double wall = WallSeconds();
    double left = round > 0 ? wall / round * (m_rounds - round) : 0.0;
    const StreamFormatGuard keep(m_log);
    m_log << "\r\033[K" << std::fixed << std::setprecision(2) << "round " << round << "/"
          << m_rounds << "  sim " << simSeconds << " s  accuracy "
          << (m_latestAccuracy < 0 ? std::string("-")
                                   : std::to_string(m_latestAccuracy).substr(0, 5))
          << "  sent " << bytesPerNode / 1e6 << " MB/node  wall " << std::setprecision(0) << wall
          << " s, about " << left << " s left" << std::flush;
}

RunSummary
ResultsWriter::Finish(uint64_t seed)
{
    if (m_interactive)
    {
        m_log << "\r\033[K" << std::flush;
    }
    m_curveCsv->Commit();
    m_roundsCsv->Commit();
    m_receiptCsv->Commit();
    m_faultsCsv->Commit();
    m_evalCsv->Commit();
    m_summary.nodes = m_nodes;
    m_summary.rounds = m_rounds;
    m_summary.seed = seed;
    auto [fewest, most] = std::minmax_element(m_roundOf.begin(), m_roundOf.end());
    m_summary.minRoundsPerNode = *fewest;
    m_summary.maxRoundsPerNode = *most;
    m_summary.targetAccuracy = m_targetAccuracy;
    const auto diverged = std::count(m_diverged.begin(), m_diverged.end(), true);
    if (diverged > 0)
    {
        m_summary.trainingDiverged = std::to_string(diverged) + " of " + std::to_string(m_nodes)
                                     + " learners, learner " + std::to_string(m_firstDiverged)
                                     + " first, at round " + std::to_string(m_firstDivergedRound);
    }
    if (auto last = FindLastCrossing(m_curve, m_targetAccuracy))
    {
        m_summary.timeStaysAboveTarget = last->time;
    }
    // Timed evaluations go on until the tick after the last round.
    m_summary.simulatedSeconds = std::max(m_lastRoundTime, m_lastEvalTime);
    m_summary.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
    m_summary.valueBytesPerNode
        = std::accumulate(m_valueBytes.begin(), m_valueBytes.end(), 0.0) / m_nodes;
    m_summary.metadataBytesPerNode
        = std::accumulate(m_metadataBytes.begin(), m_metadataBytes.end(), 0.0) / m_nodes;
    return m_summary;
}

void
WriteSummaryJson(const RunSummary& s, const std::string& path)
{
    std::ostringstream out;
    auto opt = [](const auto& v)
    {
        std::ostringstream o;
        o << std::setprecision(12);
        if (v)
        {
            o << *v;
        }
        else
        {
            o << "null";
        }
        return o.str();
    };
    out << std::setprecision(12);
    out << "{\n"
        << "  \"status\": \"finished\",\n"
        << "  \"nodes\": " << s.nodes << ",\n"
        << "  \"rounds\": " << s.rounds << ",\n"
        << "  \"seed\": " << s.seed << ",\n"
        << "  \"final_round\": " << opt(s.finalRound) << ",\n"
        << "  \"final_accuracy\": {\"mean\": " << opt(s.finalAccuracyMean)
        << ", \"min\": " << opt(s.finalAccuracyMin) << ", \"max\": " << opt(s.finalAccuracyMax)
        << "},\n"
        << "  \"target_accuracy\": " << s.targetAccuracy << ",\n"
        << "  \"time_to_target_s\": " << opt(s.timeToTarget) << ",\n"
        << "  \"bytes_per_node_to_target\": " << opt(s.bytesPerNodeToTarget) << ",\n"
        << "  \"round_to_target\": " << opt(s.roundToTarget) << ",\n"
        << "  \"time_stays_above_target_s\": " << opt(s.timeStaysAboveTarget) << ",\n"
        << "  \"simulated_time_s\": " << s.simulatedSeconds << ",\n"
        << "  \"bytes_per_node\": {\"values\": " << s.valueBytesPerNode
        << ", \"metadata\": " << s.metadataBytesPerNode
        << ", \"total\": " << s.valueBytesPerNode + s.metadataBytesPerNode << "},\n"
        << "  \"wire_bytes_per_node\": " << s.wireBytesPerNode << ",\n"
        << "  \"queues\": {\"dropped_packets\": " << opt(s.droppedPackets)
        << ", \"lost_packets\": " << opt(s.lostPackets)
        << ", \"flow_overflows\": " << opt(s.flowOverflows) << "},\n"
        << "  \"network_fidelity\": " << JsonString(s.networkFidelity) << ",\n"
        << "  \"training_diverged\": " << JsonString(s.trainingDiverged) << ",\n"
        << "  \"wall_time_s\": " << s.wallSeconds << ",\n"
        << "  \"training_cpu_s\": " << s.trainingCpuSeconds << ",\n"
        << "  \"sharing_cpu_s\": " << s.sharingCpuSeconds << ",\n"
        << "  \"rounds_run\": {\"mode\": " << JsonString(s.roundMode)
        << ", \"min_per_node\": " << s.minRoundsPerNode
        << ", \"max_per_node\": " << s.maxRoundsPerNode << "},\n"
        << "  \"messages\": {\"fresh\": " << s.messagesFresh << ", \"stale\": " << s.messagesStale
        << ", \"reused\": " << s.messagesReused << ", \"dropped\": " << s.messagesDropped
        << ", \"superseded_sends\": " << s.sendsSuperseded << ", \"lost_sends\": " << s.sendsLost
        << "},\n"
        << "  \"faults\": {\"crashes\": " << s.crashes << ", \"recoveries\": " << s.recoveries
        << ", \"link_outages\": " << s.linkOutages << ", \"learners_lost\": [";
    for (size_t i = 0; i < s.lostLearners.size(); ++i)
    {
        out << (i ? ", " : "") << s.lostLearners[i];
    }
    out << "]},\n"
        << "  \"resolved\": {";
    bool first = true;
    for (const auto& [key, value] : s.resolved)
    {
        // A number as a number, anything else (an algorithm's own `auto` key) as a string, so
        // that the file stays JSON.
        const bool number = nlohmann::json::parse(value, nullptr, false).is_number();
        out << (first ? "" : ", ") << JsonString(key) << ": "
            << (number ? value : JsonString(value));
        first = false;
    }
    out << "},\n"
        << "  \"dlsim_version\": " << JsonString(s.dlsimVersion) << ",\n"
        << "  \"ns3_version\": " << JsonString(s.ns3Version) << ",\n"
        << "  \"torch_version\": " << JsonString(s.torchVersion) << ",\n"
        << "  \"command_line\": " << JsonString(s.commandLine) << "\n"
        << "}\n";
    WriteFileAtomically(path, out.str());
}

std::string
SummaryCsvHeader()
{
    return "final_accuracy_mean,final_accuracy_min,final_accuracy_max,time_to_target_s,"
           "bytes_per_node_to_target,round_to_target,simulated_time_s,value_bytes_per_node,"
           "metadata_bytes_per_node,wire_bytes_per_node,time_stays_above_target_s,wall_time_s";
}

std::string
SummaryCsvRow(const RunSummary& s)
{
    std::ostringstream o;
    o << std::setprecision(10);
    auto opt = [&o](const auto& v)
    {
        if (v)
        {
            o << *v;
        }
        o << ",";
    };
    opt(s.finalAccuracyMean);
    opt(s.finalAccuracyMin);
    opt(s.finalAccuracyMax);
    opt(s.timeToTarget);
    opt(s.bytesPerNodeToTarget);
    opt(s.roundToTarget);
    o << s.simulatedSeconds << "," << s.valueBytesPerNode << "," << s.metadataBytesPerNode << ","
      << s.wireBytesPerNode << ",";
    // Added after the others, so that they keep their places of earlier versions; the wall time,
    // which alone differs between two runs of one configuration, stays last.
    opt(s.timeStaysAboveTarget);
    o << s.wallSeconds;
    return o.str();
}

} // namespace ns3
