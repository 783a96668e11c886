// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "replayed-learning.h"

#include "learner.h"

#include <algorithm>

namespace dlsim
{

namespace
{

/// Node `node` of `record`, or an error naming what the replay asked for.
const RecordedNode&
NodeOf(const LearningRecord& record, uint32_t node)
{
    if (node >= record.nodes.size())
    {
        throw LearningRecordError("the recording holds " + std::to_string(record.nodes.size())
                                  + " nodes; the replay asks for node " + std::to_string(node));
    }
    return record.nodes[node];
}

/// Round `round` (from 1) of a recorded node, or an error naming it.
const RecordedRound&
RoundOf(const RecordedNode& node, uint32_t index, uint32_t round)
{
    if (round == 0 || round > node.rounds.size())
    {
        throw LearningRecordError("the recording holds " + std::to_string(node.rounds.size())
                                  + " rounds of node " + std::to_string(index)
                                  + "; the replay asks for round " + std::to_string(round));
    }
    return node.rounds[round - 1];
}

} // namespace

ReplayedLearner::ReplayedLearner(std::shared_ptr<const LearningRecord> record, uint32_t node)
    : m_record(std::move(record)), m_node(node)
{
    NodeOf(*m_record, m_node);
}

double
ReplayedLearner::Train()
{
    return RoundOf(NodeOf(*m_record, m_node), m_node, m_aggregations + 1).trainLoss;
}

std::vector<float>
ReplayedLearner::GetParameters() const
{
    return {};
}

void
ReplayedLearner::SetParameters(const std::vector<float>& /* flat */)
{
    // Every SetParameters of the application is an aggregation's model: the next round begins.
    ++m_aggregations;
}

EvalResult
ReplayedLearner::Evaluate(const Dataset& /* test */, size_t /* maxSamples */) const
{
    const auto& evaluations = NodeOf(*m_record, m_node).evaluations;
    const auto it
        = std::find_if(evaluations.begin(),
                       evaluations.end(),
                       [this](const RecordedEvaluation& e) { return e.round == m_aggregations; });
    if (it == evaluations.end())
    {
        throw LearningRecordError("the recording holds no evaluation of node "
                                  + std::to_string(m_node) + " after round "
                                  + std::to_string(m_aggregations));
    }
    EvalResult result;
    result.accuracy = it->accuracy;
    result.loss = it->loss;
    return result;
}

std::shared_ptr<const ModelSnapshot>
ReplayedLearner::Snapshot(const std::vector<float>* /* parameters */) const
{
    return nullptr; // nothing to evaluate elsewhere: Evaluate looks the result up
}

ReplayedSharing::ReplayedSharing(std::shared_ptr<const LearningRecord> record, uint32_t node)
    : m_record(std::move(record)), m_node(node)
{
    NodeOf(*m_record, m_node);
}

const RecordedNode&
ReplayedSharing::Node() const
{
    return NodeOf(*m_record, m_node);
}

void
ReplayedSharing::Initialize(const std::vector<float>& /* initialModel */,
                            const SharingContext& /* context */)
{}

EncodedPayload
ReplayedSharing::Encode(const RoundInfo& round, const std::vector<float>& /* trainedModel */)
{
    const RecordedRound& recorded = RoundOf(Node(), m_node, round.round);
    EncodedPayload payload;
    // Only the sizes reach the network's timing; no receiver decodes these bytes.
    payload.bytes.assign(recorded.payloadBytes, 0);
    payload.valueBytes = recorded.valueBytes;
    return payload;
}

std::vector<float>
ReplayedSharing::Aggregate(const RoundInfo& /* round */,
                           const std::vector<float>& trainedModel,
                           const std::vector<ReceivedPayload>& /* received */)
{
    return trainedModel;
}

bool
ReplayedSharing::ForDirectedGraphs() const
{
    return Node().directed;
}

PartialReceipt
ReplayedSharing::GetPartialReceipt() const
{
    return Node().receipt;
}

bool
ReplayedSharing::TrainsInRound(uint32_t round) const
{
    return RoundOf(Node(), m_node, round).trains;
}

uint32_t
ReplayedSharing::ExtraRounds() const
{
    const RecordedNode& node = Node();
    return node.rounds.size() > node.trainingRounds
               ? static_cast<uint32_t>(node.rounds.size() - node.trainingRounds)
               : 0;
}

} // namespace dlsim
