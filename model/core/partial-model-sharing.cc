// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "partial-model-sharing.h"

#include "mixing-weights.h"
#include "sparse-selection.h"

#include <cmath>
#include <numeric>

namespace ns3
{

PartialModelSharing::PartialModelSharing(const PartialModelOptions& options) : m_options(options)
{
    if (m_options.alphas.empty())
    {
        throw std::invalid_argument("partial-model sharing needs at least one sharing fraction");
    }
    for (double a : m_options.alphas)
    {
        if (!(a > 0.0 && a <= 1.0))
        {
            throw std::invalid_argument("sharing fractions must lie in (0, 1], got "
                                        + std::to_string(a));
        }
    }
}

void
PartialModelSharing::Initialize(const std::vector<float>& initialModel,
                                const SharingContext& context)
{
    m_modelLength = initialModel.size();
    m_transform = MakeModelTransform(m_options.wavelet, m_options.levels, m_modelLength);
    m_length = m_transform->OutputLength();
    // Distinct per node and per run; the mask seed adds the round (spec: "sender's seed + round").
    m_nodeSeed = context.seed * 1000003ull + context.self * 7919ull + 1;
    m_alphaRng.seed(m_nodeSeed ^ 0x5DEECE66Dull);
    m_roundStart = initialModel;
    m_accumulator.assign(m_length, 0.0f);
}

EncodedPayload
PartialModelSharing::Encode(const RoundInfo& round, const std::vector<float>& trainedModel)
{
    m_ownCoefficients = m_transform->Forward(trainedModel);
    const auto& alphas = m_options.alphas;
    const double alpha = alphas.size() == 1 ? alphas[0] : alphas[m_alphaRng() % alphas.size()];

    Payload payload;
    payload.length = static_cast<uint32_t>(m_length);
    if (m_options.selector == PartialModelOptions::Selector::Random)
    {
        payload.form = PayloadForm::RandomMask;
        payload.seed = m_nodeSeed + round.round;
        payload.alpha = static_cast<float>(alpha);
        for (uint32_t k : RandomMaskIndices(payload.seed, payload.alpha, m_length))
        {
            payload.values.push_back(m_ownCoefficients[k]);
        }
        return EncodePayload(payload);
    }
    if (alpha >= m_options.metadataCap)
    {
        payload.form = PayloadForm::Full;
        payload.values = m_ownCoefficients;
        // Everything is shared: every coefficient's "last shared" model is now x̄.
        std::fill(m_accumulator.begin(), m_accumulator.end(), 0.0f);
        return EncodePayload(payload);
    }
    std::vector<float> change(trainedModel.size());
    for (size_t i = 0; i < change.size(); ++i)
    {
        change[i] = trainedModel[i] - m_roundStart[i];
    }
    std::vector<float> score = m_transform->Forward(change);
    for (size_t k = 0; k < m_length; ++k)
    {
        score[k] = std::fabs(m_options.accumulation ? score[k] + m_accumulator[k] : score[k]);
    }
    payload.form = PayloadForm::Sparse;
    payload.indices = TopKIndices(score, SelectionSize(alpha, m_length), m_nodeSeed + round.round);
    payload.values.reserve(payload.indices.size());
    for (uint32_t k : payload.indices)
    {
        payload.values.push_back(m_ownCoefficients[k]);
        m_accumulator[k] = 0.0f;
    }
    return EncodePayload(payload);
}

std::vector<uint32_t>
PartialModelSharing::ReceivedIndices(const Payload& payload, uint32_t sender) const
{
    if (payload.length != m_length)
    {
        throw PayloadError("payload from node " + std::to_string(sender) + " refers to "
                           + std::to_string(payload.length) + " coefficients, expected "
                           + std::to_string(m_length));
    }
    switch (payload.form)
    {
        case PayloadForm::Full:
        {
            std::vector<uint32_t> all(m_length);
            std::iota(all.begin(), all.end(), 0u);
            return all;
        }
        case PayloadForm::Sparse:
            return payload.indices;
        case PayloadForm::RandomMask:
        {
            std::vector<uint32_t> mask = RandomMaskIndices(payload.seed, payload.alpha, m_length);
            if (mask.size() != payload.values.size())
            {
                throw PayloadError("random-mask payload from node " + std::to_string(sender)
                                   + " has " + std::to_string(payload.values.size())
                                   + " values but its mask keeps " + std::to_string(mask.size()));
            }
            return mask;
        }
    }
    throw PayloadError("unknown payload form");
}

std::vector<float>
PartialModelSharing::Aggregate(const RoundInfo& round,
                               const std::vector<float>& /* trainedModel */,
                               const std::vector<ReceivedPayload>& received)
{
    // Y = w_ii c + sum_j w_ij v_j with v_j = c overwritten by j's values, i.e.
    // Y = c + sum_j w_ij (v_j - c): only the received positions change.
    const std::vector<float>& own = m_ownCoefficients;
    std::vector<double> y(own.begin(), own.end());
    for (const auto& message : received)
    {
        Payload payload = DecodePayload(message.data, message.size);
        std::vector<uint32_t> indices = ReceivedIndices(payload, message.sender);
        double w = MetropolisHastingsWeight(round.inDegree, message.senderDegree);
        for (size_t n = 0; n < indices.size(); ++n)
        {
            uint32_t k = indices[n];
            y[k] += w * (static_cast<double>(payload.values[n]) - own[k]);
        }
    }
    std::vector<float> coefficients(y.begin(), y.end());
    std::vector<float> next = m_transform->Inverse(coefficients);
    if (m_options.accumulation)
    {
        std::vector<float> step(next.size());
        for (size_t i = 0; i < step.size(); ++i)
        {
            step[i] = next[i] - m_roundStart[i];
        }
        std::vector<float> t = m_transform->Forward(step);
        for (size_t k = 0; k < m_length; ++k)
        {
            m_accumulator[k] += t[k];
        }
    }
    m_roundStart = next;
    return next;
}

bool
PartialModelSharing::ForDirectedGraphs() const
{
    return false;
}

} // namespace ns3
