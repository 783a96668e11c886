// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "dpsgd-sharing.h"

#include "algorithm-registry.h"
#include "mixing-weights.h"

namespace dlsim
{

void
DpsgdSharing::Initialize(const std::vector<float>& initialModel,
                         const SharingContext& /* context */)
{
    m_length = initialModel.size();
}

EncodedPayload
DpsgdSharing::Encode(const RoundInfo& /* round */, const std::vector<float>& trainedModel)
{
    Payload payload;
    payload.form = PayloadForm::Full;
    payload.length = static_cast<uint32_t>(trainedModel.size());
    payload.values = trainedModel;
    return EncodePayload(payload);
}

std::vector<float>
DpsgdSharing::Aggregate(const RoundInfo& round,
                        const std::vector<float>& trainedModel,
                        const std::vector<ReceivedPayload>& received)
{
    std::vector<double> sum(trainedModel.size(), 0.0);
    double selfWeight = 1.0;
    for (const auto& message : received)
    {
        const PayloadValues values
            = ReadReceived(message,
                           {"D-PSGD", {PayloadForm::Full}, static_cast<uint32_t>(m_length), 0})
                  .values;
        double w = MetropolisHastingsWeight(round.inDegree, message.senderDegree);
        selfWeight -= w;
        for (size_t k = 0; k < m_length; ++k)
        {
            sum[k] += w * values[k];
        }
    }
    std::vector<float> result(m_length);
    for (size_t k = 0; k < m_length; ++k)
    {
        result[k] = static_cast<float>(sum[k] + selfWeight * trainedModel[k]);
    }
    return result;
}

bool
DpsgdSharing::ForDirectedGraphs() const
{
    return false;
}

AlgorithmRegistration
DpsgdRegistration()
{
    AlgorithmRegistration r;
    r.name = "dpsgd";
    r.label = [](const std::map<std::string, std::string>&)
    {
        return std::string("D-PSGD");
    };
    r.create = [](const AlgorithmParameters&)
    {
        return std::make_unique<DpsgdSharing>();
    };
    return r;
}

} // namespace dlsim
