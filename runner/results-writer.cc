/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "results-writer.h"

#include "ns3/boolean.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

std::ofstream
OpenCsv(const std::string& path, const std::string& header)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("cannot write " + path);
    }
    out << header << "\n";
    out << std::setprecision(9);
    return out;
}

double
Mean(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

} // namespace

ResultsWriter::ResultsWriter(const std::string& directory,
                             uint32_t nodes,
                             double targetAccuracy,
                             std::ostream& log)
    : m_directory(directory), m_nodes(nodes), m_rounds(0), m_targetAccuracy(targetAccuracy),
      m_log(log), m_valueBytes(nodes, 0), m_metadataBytes(nodes, 0)
{
    m_roundsCsv = OpenCsv(directory + "/rounds.csv",
                          "node,round,time_s,compute_s,train_loss,value_bytes,metadata_bytes,"
                          "cum_value_bytes,cum_metadata_bytes");
    m_evalCsv = OpenCsv(directory + "/eval.csv", "round,time_s,node,accuracy,loss");
    m_curveCsv = OpenCsv(directory + "/curve.csv",
                         "round,time_s,bytes_per_node,accuracy_mean,accuracy_min,accuracy_max");
    m_interactive = ::isatty(STDOUT_FILENO) != 0;
    m_wallStart = std::chrono::steady_clock::now();
    m_bytesAfterRound[0] = std::vector<uint64_t>(nodes, 0);
}

void
ResultsWriter::Attach(ApplicationContainer apps)
{
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<Application> app = apps.Get(i);
        app->TraceConnectWithoutContext("RoundCompleted",
                                        MakeCallback(&ResultsWriter::OnRound, this));
        app->TraceConnectWithoutContext("Evaluated",
                                        MakeCallback(&ResultsWriter::OnEvaluated, this));
        BooleanValue evaluates;
        app->GetAttribute("Evaluate", evaluates);
        UintegerValue rounds;
        app->GetAttribute("Rounds", rounds);
        m_rounds = std::max(m_rounds, static_cast<uint32_t>(rounds.Get()));
        m_evaluatingNodes += evaluates.Get() ? 1 : 0;
    }
}

void
ResultsWriter::OnRound(const RoundReport& r)
{
    m_roundsCsv << r.learner << "," << r.round << "," << r.time.GetSeconds() << ","
                << r.computeTime.GetSeconds() << "," << r.trainLoss << "," << r.valueBytes << ","
                << r.metadataBytes << "," << r.totalValueBytes << "," << r.totalMetadataBytes
                << "\n";
    auto& bytes = m_bytesAfterRound[r.round];
    bytes.resize(m_nodes, 0);
    bytes[r.learner] = r.totalValueBytes + r.totalMetadataBytes;
    m_valueBytes[r.learner] = r.totalValueBytes;
    m_metadataBytes[r.learner] = r.totalMetadataBytes;
    m_lastRoundTime = std::max(m_lastRoundTime, r.time.GetSeconds());
    if (m_interactive && ++m_nodesDoneWithRound[r.round] == m_nodes)
    {
        m_nodesDoneWithRound.erase(r.round);
        DrawStatus(r.round,
                   r.time.GetSeconds(),
                   std::accumulate(bytes.begin(), bytes.end(), 0.0) / m_nodes);
    }
    if (r.round == m_rounds && ++m_finishedNodes == m_nodes)
    {
        Simulator::Stop();
    }
}

void
ResultsWriter::OnEvaluated(const EvalReport& r)
{
    m_evalCsv << r.round << "," << r.time.GetSeconds() << "," << r.learner << "," << r.accuracy
              << "," << r.loss << "\n";
    EvalRound& round = m_evals[r.round];
    round.accuracies.push_back(r.accuracy);
    round.time = std::max(round.time, r.time.GetSeconds());
    if (round.accuracies.size() == m_evaluatingNodes)
    {
        ReportEvalRound(r.round);
    }
}

void
ResultsWriter::ReportEvalRound(uint32_t round)
{
    const EvalRound& e = m_evals[round];
    double mean = Mean(e.accuracies);
    auto [minIt, maxIt] = std::minmax_element(e.accuracies.begin(), e.accuracies.end());
    const auto& bytes = m_bytesAfterRound[round];
    double bytesPerNode
        = std::accumulate(bytes.begin(), bytes.end(), 0.0) / std::max<size_t>(1, bytes.size());
    double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
    m_curveCsv << round << "," << e.time << "," << bytesPerNode << "," << mean << "," << *minIt
               << "," << *maxIt << "\n";
    m_latestAccuracy = mean;
    if (m_interactive)
    {
        m_log << "\r\033[K"; // the evaluation line replaces the status line
    }
    m_log << std::fixed << std::setprecision(3) << "round " << round << "/" << m_rounds << "  sim "
          << e.time << " s  accuracy mean " << mean << " (min " << *minIt << ", max " << *maxIt
          << ")  sent " << std::setprecision(2) << bytesPerNode / 1e6 << " MB/node  wall "
          << std::setprecision(1) << wall << " s" << std::endl;
    m_log.unsetf(std::ios::floatfield);
    m_summary.finalRound = round;
    m_summary.finalAccuracyMean = mean;
    m_summary.finalAccuracyMin = *minIt;
    m_summary.finalAccuracyMax = *maxIt;
    if (!m_summary.timeToTarget && mean >= m_targetAccuracy)
    {
        m_summary.timeToTarget = e.time;
        m_summary.bytesPerNodeToTarget = bytesPerNode;
        m_summary.roundToTarget = round;
    }
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
    m_log << "\r\033[K" << std::fixed << std::setprecision(2) << "round " << round << "/"
          << m_rounds << "  sim " << simSeconds << " s  accuracy "
          << (m_latestAccuracy < 0 ? std::string("-")
                                   : std::to_string(m_latestAccuracy).substr(0, 5))
          << "  sent " << bytesPerNode / 1e6 << " MB/node  wall " << std::setprecision(0) << wall
          << " s, about " << left << " s left" << std::flush;
    m_log.unsetf(std::ios::floatfield);
}

RunSummary
ResultsWriter::Finish(uint64_t seed)
{
    if (m_interactive)
    {
        m_log << "\r\033[K" << std::flush;
    }
    m_curveCsv.close();
    m_roundsCsv.close();
    m_evalCsv.close();
    if (!m_roundsCsv || !m_evalCsv || !m_curveCsv)
    {
        throw std::runtime_error("writing results to " + m_directory + " failed");
    }
    m_summary.nodes = m_nodes;
    m_summary.rounds = m_rounds;
    m_summary.seed = seed;
    m_summary.targetAccuracy = m_targetAccuracy;
    m_summary.simulatedSeconds = m_lastRoundTime;
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
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("cannot write " + path);
    }
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
        << "  \"nodes\": " << s.nodes << ",\n"
        << "  \"rounds\": " << s.rounds << ",\n"
        << "  \"seed\": " << s.seed << ",\n"
        << "  \"final_round\": " << s.finalRound << ",\n"
        << "  \"final_accuracy\": {\"mean\": " << s.finalAccuracyMean
        << ", \"min\": " << s.finalAccuracyMin << ", \"max\": " << s.finalAccuracyMax << "},\n"
        << "  \"target_accuracy\": " << s.targetAccuracy << ",\n"
        << "  \"time_to_target_s\": " << opt(s.timeToTarget) << ",\n"
        << "  \"bytes_per_node_to_target\": " << opt(s.bytesPerNodeToTarget) << ",\n"
        << "  \"round_to_target\": " << opt(s.roundToTarget) << ",\n"
        << "  \"simulated_time_s\": " << s.simulatedSeconds << ",\n"
        << "  \"bytes_per_node\": {\"values\": " << s.valueBytesPerNode
        << ", \"metadata\": " << s.metadataBytesPerNode
        << ", \"total\": " << s.valueBytesPerNode + s.metadataBytesPerNode << "},\n"
        << "  \"wire_bytes_per_node\": " << s.wireBytesPerNode << ",\n"
        << "  \"wall_time_s\": " << s.wallSeconds << "\n"
        << "}\n";
    if (!out)
    {
        throw std::runtime_error("writing " + path + " failed");
    }
}

} // namespace ns3

namespace ns3
{

std::string
SummaryCsvHeader()
{
    return "final_accuracy_mean,final_accuracy_min,final_accuracy_max,time_to_target_s,"
           "bytes_per_node_to_target,round_to_target,simulated_time_s,value_bytes_per_node,"
           "metadata_bytes_per_node,wire_bytes_per_node,wall_time_s";
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
    o << s.finalAccuracyMean << "," << s.finalAccuracyMin << "," << s.finalAccuracyMax << ",";
    opt(s.timeToTarget);
    opt(s.bytesPerNodeToTarget);
    opt(s.roundToTarget);
    o << s.simulatedSeconds << "," << s.valueBytesPerNode << "," << s.metadataBytesPerNode << ","
      << s.wireBytesPerNode << "," << s.wallSeconds;
    return o.str();
}

} // namespace ns3
