// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learning-recorder.h"

#include "message-framing.h"
#include "ns3/callback.h"
#include "ns3/uinteger.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

void
LearningRecorder::Attach(const ApplicationContainer& apps)
{
    m_nodes.assign(apps.GetN(), RecordedNode());
    m_sent.assign(apps.GetN(), Sent());
    m_timed.assign(apps.GetN(), false);
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<LearnerApplication> app = DynamicCast<LearnerApplication>(apps.Get(i));
        NS_ABORT_MSG_UNLESS(app && app->GetLearnerId() == i,
                            "LearningRecorder: application " << i << " is not learner " << i);
        const SharingAlgorithm& algorithm = app->GetSharingAlgorithm();
        RecordedNode& node = m_nodes[i];
        node.trainingRounds = app->GetTotalRounds() - algorithm.ExtraRounds();
        node.receipt = algorithm.GetPartialReceipt();
        node.directed = algorithm.ForDirectedGraphs();
        app->TraceConnectWithoutContext("RoundCompleted",
                                        MakeCallback(&LearningRecorder::RoundCompleted, this));
        app->TraceConnectWithoutContext("MessageSent",
                                        MakeCallback(&LearningRecorder::MessageSent, this));
        app->TraceConnectWithoutContext("Evaluated",
                                        MakeCallback(&LearningRecorder::Evaluated, this));
    }
}

void
LearningRecorder::Problem(const std::string& why)
{
    if (m_problem.empty())
    {
        m_problem = why;
    }
}

std::string
LearningRecorder::GetProblem() const
{
    return m_problem;
}

void
LearningRecorder::MessageSent(const MessageReport& report)
{
    Sent& sent = m_sent.at(report.sender);
    const uint64_t payload = report.totalBytes - MessageHeader::kSize;
    if (sent.round == report.round
        && (sent.payloadBytes != payload || sent.valueBytes != report.valueBytes))
    {
        Problem("learner " + std::to_string(report.sender)
                + " sent payloads of different sizes "
                  "in round "
                + std::to_string(report.round));
    }
    sent = {report.round, payload, report.valueBytes};
}

void
LearningRecorder::RoundCompleted(const RoundReport& report)
{
    RecordedNode& node = m_nodes.at(report.learner);
    if (report.round != node.rounds.size() + 1)
    {
        Problem("learner " + std::to_string(report.learner) + " completed round "
                + std::to_string(report.round) + " after round "
                + std::to_string(node.rounds.size()));
        return;
    }
    RecordedRound round;
    round.trains = report.trained;
    round.trainLoss = report.trainLoss;
    // A node with no out-neighbour in this round sent nothing: its payload went nowhere.
    const Sent& sent = m_sent[report.learner];
    if (sent.round == report.round)
    {
        round.payloadBytes = sent.payloadBytes;
        round.valueBytes = sent.valueBytes;
    }
    if (report.trained)
    {
        const int64_t ns = report.computeTime.GetNanoSeconds();
        if (!m_timed[report.learner])
        {
            node.computeTimeNs = ns;
            m_timed[report.learner] = true;
        }
        else if (node.computeTimeNs != ns)
        {
            Problem("learner " + std::to_string(report.learner)
                    + "'s compute time changes from round to round");
        }
    }
    node.rounds.push_back(round);
}

void
LearningRecorder::Evaluated(const EvalReport& report)
{
    RecordedEvaluation evaluation;
    evaluation.round = report.round;
    evaluation.accuracy = report.accuracy;
    evaluation.loss = report.loss;
    m_nodes.at(report.learner).evaluations.push_back(evaluation);
}

LearningRecord
LearningRecorder::GetRecord(const std::string& learning,
                            const std::map<std::string, std::string>& resolved) const
{
    LearningRecord record;
    record.learning = learning;
    record.resolved = resolved;
    record.nodes = m_nodes;
    return record;
}

} // namespace ns3
