// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "adpsgd-sharing.h"

#include "algorithm-registry.h"
#include "round-schedule.h"

#include <algorithm>

namespace dlsim
{

void
AdpsgdSharing::Initialize(const std::vector<float>& initialModel, const SharingContext& context)
{
    m_model.assign(initialModel.begin(), initialModel.end());
    m_start = initialModel;
    m_sent.clear();
    m_drafts.clear();
    m_partnerSeed = DeriveSeed(context.seed, context.self, SeedUse::PartnerChoice);
}

std::vector<float>
AdpsgdSharing::WireModel() const
{
    return std::vector<float>(m_model.begin(), m_model.end());
}

Payload
AdpsgdSharing::WirePayload() const
{
    Payload payload;
    payload.form = PayloadForm::Full;
    payload.length = static_cast<uint32_t>(m_model.size());
    payload.values = WireModel();
    return payload;
}

PayloadValues
AdpsgdSharing::ValuesOf(const ReceivedPayload& message) const
{
    return ReadReceived(message,
                        {"AD-PSGD", {PayloadForm::Full}, static_cast<uint32_t>(m_model.size()), 0})
        .values;
}

EncodedPayload
AdpsgdSharing::Encode(const RoundInfo& round, const std::vector<float>& trainedModel)
{
    // The update was computed from m_start; answers taken meanwhile changed the held model.
    for (size_t k = 0; k < m_model.size(); ++k)
    {
        m_model[k] += static_cast<double>(trainedModel[k]) - m_start[k];
    }
    // A round run again after a crash counts its update from what the learner then holds.
    m_start = trainedModel;
    const Payload payload = WirePayload();
    m_drafts[round.round].values = payload.values;
    return EncodePayload(payload);
}

std::vector<uint32_t>
AdpsgdSharing::Receivers(const RoundInfo& round, const std::vector<uint32_t>& outNeighbours)
{
    auto draft = m_drafts.find(round.round);
    if (draft == m_drafts.end())
    {
        throw PayloadError("AD-PSGD: round " + std::to_string(round.round)
                           + " chose receivers before encoding its payload");
    }
    Pending request = std::move(draft->second);
    m_drafts.erase(draft);
    // One exchange of its own at a time, as AD-PSGD's communication thread averages once at
    // a time while the computation goes on: a round whose earlier request is still unanswered
    // (rounds that do not wait) asks nobody; its local update is applied all the same. A
    // request lost with a crash or a failed link is never answered: after kPatience rounds it
    // no longer holds the node back (its answer is still applied if it comes).
    const bool waiting
        = std::any_of(m_sent.begin(),
                      m_sent.end(),
                      [&round](const auto& sent)
                      { return sent.first < round.round && round.round - sent.first < kPatience; });
    if (outNeighbours.empty() || waiting)
    {
        return {};
    }
    // A draw per round from the node's own stream: the same partners whatever the timing.
    const uint64_t draw = MixBits(m_partnerSeed ^ MixBits(round.round));
    request.partner = outNeighbours[draw % outNeighbours.size()];
    const uint32_t partner = request.partner;
    m_sent[round.round] = std::move(request); // a round run again after a crash asks again
    return {partner};
}

EncodedPayload
AdpsgdSharing::Answer(const ReceivedPayload& request)
{
    const PayloadValues theirs = ValuesOf(request);
    const Payload payload = WirePayload();
    // Half the difference of the two payloads as sent: the requester adds its negative.
    for (size_t k = 0; k < m_model.size(); ++k)
    {
        m_model[k] += 0.5 * (static_cast<double>(theirs[k]) - payload.values[k]);
    }
    return EncodePayload(payload);
}

bool
AdpsgdSharing::TakeAnswer(const ReceivedPayload& answer)
{
    const PayloadValues theirs = ValuesOf(answer);
    const auto sent = m_sent.find(answer.round);
    if (sent == m_sent.end() || sent->second.partner != answer.sender)
    {
        return false;
    }
    for (size_t k = 0; k < m_model.size(); ++k)
    {
        m_model[k] += 0.5 * (static_cast<double>(theirs[k]) - sent->second.values[k]);
    }
    m_sent.erase(sent);
    return true;
}

std::vector<float>
AdpsgdSharing::Aggregate(const RoundInfo& round,
                         const std::vector<float>& /* trainedModel: applied by Encode */,
                         const std::vector<ReceivedPayload>& received)
{
    if (!received.empty())
    {
        throw PayloadError("AD-PSGD: round " + std::to_string(round.round)
                           + " got payloads to aggregate; answers are taken on arrival");
    }
    m_start = WireModel();
    return m_start;
}

bool
AdpsgdSharing::ForDirectedGraphs() const
{
    return false;
}

PartialReceipt
AdpsgdSharing::GetPartialReceipt() const
{
    return PartialReceipt::EveryMessage;
}

bool
AdpsgdSharing::AnswersMessages() const
{
    return true;
}

const std::vector<double>&
AdpsgdSharing::GetHeldModel() const
{
    return m_model;
}

AlgorithmRegistration
AdpsgdRegistration()
{
    AlgorithmRegistration r;
    r.name = "adpsgd";
    r.help = "AD-PSGD, Lian et al. 2018: pairwise averaging with one random neighbour at a time";
    r.answersMessages = true;
    r.label = [](const std::map<std::string, std::string>&)
    {
        return std::string("AD-PSGD");
    };
    r.create = [](const AlgorithmParameters&)
    {
        return std::make_unique<AdpsgdSharing>();
    };
    return r;
}

} // namespace dlsim
