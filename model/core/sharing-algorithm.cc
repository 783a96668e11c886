// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sharing-algorithm.h"

#include "algorithm-registry.h"
#include "sparse-selection.h"

#include <algorithm>

namespace dlsim
{

bool
SharingAlgorithm::TrainsInRound(uint32_t /* round */) const
{
    return true;
}

uint32_t
SharingAlgorithm::ExtraRounds() const
{
    return 0;
}

std::vector<uint32_t>
SharingAlgorithm::Receivers(const RoundInfo& /* round */,
                            const std::vector<uint32_t>& outNeighbours)
{
    return outNeighbours;
}

bool
SharingAlgorithm::AnswersMessages() const
{
    return false;
}

EncodedPayload
SharingAlgorithm::Answer(const ReceivedPayload& request)
{
    throw PayloadError("learner " + std::to_string(request.sender)
                       + " asked for an answer, which this algorithm never gives");
}

bool
SharingAlgorithm::TakeAnswer(const ReceivedPayload& answer)
{
    throw PayloadError("learner " + std::to_string(answer.sender)
                       + " sent an answer, which this algorithm never asks for");
}

ReceivedPayload
ReceivedOf(const Message& message)
{
    ReceivedPayload r;
    r.sender = message.header.sender;
    r.senderDegree = message.header.senderDegree;
    r.data = message.payload.data();
    r.size = message.payload.size();
    r.round = message.header.round;
    return r;
}

ReceivedValues
DecodeReceived(const ReceivedPayload& message, const PayloadShape& shape)
{
    ReceivedValues r = ReadReceived(message, shape);
    r.payload.values = r.values.ToVector();
    return r;
}

ReceivedValues
ReadReceived(const ReceivedPayload& message, const PayloadShape& shape)
{
    ReceivedValues r;
    PayloadInPlace decoded = DecodePayloadInPlace(message.data, message.size);
    r.payload = std::move(decoded.payload);
    r.values = decoded.values;
    const Payload& p = r.payload;
    const std::string from = " from node " + std::to_string(message.sender);
    if (std::find(shape.forms.begin(), shape.forms.end(), p.form) == shape.forms.end())
    {
        throw PayloadError(shape.algorithm + " cannot use a payload of this form" + from);
    }
    if (p.length != shape.length)
    {
        throw PayloadError(shape.algorithm + " expects a payload over "
                           + std::to_string(shape.length) + " values, got one over "
                           + std::to_string(p.length) + from);
    }
    if (p.scalars.size() != shape.scalars)
    {
        throw PayloadError(shape.algorithm + " expects " + std::to_string(shape.scalars)
                           + " extra numbers (a push-sum weight), got "
                           + std::to_string(p.scalars.size()) + from);
    }
    switch (p.form)
    {
        case PayloadForm::Full:
        case PayloadForm::Sparse:
            break;
        case PayloadForm::RandomMask:
            r.positions = RandomMaskIndices(p.seed, p.alpha, shape.length);
            if (r.positions.size() != r.values.size())
            {
                throw PayloadError("random-mask payload" + from + " has "
                                   + std::to_string(r.values.size()) + " values but its mask keeps "
                                   + std::to_string(r.positions.size()));
            }
            break;
    }
    return r;
}

PartialReceipt
SharingAlgorithm::GetPartialReceipt() const
{
    return PartialReceipt::LatestModel;
}

std::vector<std::string>
KnownAlgorithms()
{
    return AlgorithmRegistry::Names();
}

std::unique_ptr<SharingAlgorithm>
CreateSharingAlgorithm(const SharingConfig& config)
{
    return CreateSharingAlgorithm(ParametersOf(config));
}

} // namespace dlsim
