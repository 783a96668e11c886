// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "choco-sharing.h"
#include "round-schedule.h"

#include "algorithm-registry.h"
#include "choco-tuning.h"
#include "mixing-weights.h"
#include "sparse-selection.h"
#include "value-text.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace dlsim
{

ChocoSharing::ChocoSharing(const std::string& compression, double alpha, double gamma)
    : m_randomK(compression == "randomk"), m_alpha(alpha), m_gamma(gamma)
{
    if (compression != "topk" && compression != "randomk")
    {
        throw std::invalid_argument("choco.compression must be topk or randomk, got '" + compression
                                    + "'");
    }
    if (!(alpha > 0.0 && alpha <= 1.0) || !(gamma > 0.0 && gamma <= 1.0))
    {
        throw std::invalid_argument("CHOCO-SGD needs alpha and gamma in (0, 1]");
    }
}

void
ChocoSharing::Initialize(const std::vector<float>& initialModel, const SharingContext& context)
{
    m_public.assign(initialModel.size(), 0.0f);
    m_s.assign(initialModel.size(), 0.0);
    m_selfWeight = 1.0;
    m_weights.clear();
    m_tieSeed = DeriveSeed(context.seed, context.self, SeedUse::ChocoSelection);
    m_rng.seed(m_tieSeed);
}

EncodedPayload
ChocoSharing::Encode(const RoundInfo& round, const std::vector<float>& trainedModel)
{
    const size_t n = trainedModel.size();
    std::vector<float> difference(n);
    for (size_t i = 0; i < n; ++i)
    {
        difference[i] = trainedModel[i] - m_public[i];
    }
    const uint32_t k = SelectionSize(m_alpha, n);
    m_sent = Payload();
    m_sent.form = PayloadForm::Sparse;
    m_sent.length = static_cast<uint32_t>(n);
    if (m_randomK)
    {
        m_sent.indices = RandomKIndices(m_rng, k, n);
    }
    else
    {
        std::vector<float> magnitude(n);
        for (size_t i = 0; i < n; ++i)
        {
            magnitude[i] = std::fabs(difference[i]);
        }
        m_sent.indices = TopKIndices(magnitude, k, m_tieSeed + round.round);
    }
    for (uint32_t i : m_sent.indices)
    {
        m_sent.values.push_back(difference[i]);
    }
    return EncodePayload(m_sent);
}

std::vector<float>
ChocoSharing::Aggregate(const RoundInfo& round,
                        const std::vector<float>& trainedModel,
                        const std::vector<ReceivedPayload>& received)
{
    for (const auto& message : received)
    {
        const ReceivedValues q = ReadReceived(
            message,
            {"CHOCO-SGD", {PayloadForm::Sparse}, static_cast<uint32_t>(m_public.size()), 0});
        auto [known, first] = m_weights.emplace(
            message.sender,
            MetropolisHastingsWeight(round.inDegree, message.senderDegree));
        const double w = known->second;
        if (first)
        {
            // w_ij of x̂_i's share in s moves to the new neighbour's copy (x̂_i is zero until the
            // first round ends, so in synchronous rounds this changes nothing).
            m_selfWeight -= w;
            for (size_t i = 0; i < m_public.size(); ++i)
            {
                m_s[i] -= w * m_public[i];
            }
        }
        for (size_t n = 0; n < q.values.size(); ++n)
        {
            m_s[q.payload.indices[n]] += w * q.values[n];
        }
    }
    for (size_t n = 0; n < m_sent.indices.size(); ++n)
    {
        uint32_t i = m_sent.indices[n];
        m_public[i] += m_sent.values[n];
        m_s[i] += m_selfWeight * m_sent.values[n];
    }
    std::vector<float> next(trainedModel.size());
    for (size_t i = 0; i < next.size(); ++i)
    {
        next[i] = static_cast<float>(trainedModel[i] + m_gamma * (m_s[i] - m_public[i]));
    }
    return next;
}

bool
ChocoSharing::ForDirectedGraphs() const
{
    return false;
}

PartialReceipt
ChocoSharing::GetPartialReceipt() const
{
    return PartialReceipt::EveryMessage;
}

AlgorithmRegistration
ChocoRegistration()
{
    AlgorithmRegistration r;
    r.name = "choco";
    r.keys = {
        AlgorithmKey::Number(
            "choco.alpha", "0.1", 1e-9, 1.0, "CHOCO-SGD: fraction kept by the compression"),
        AlgorithmKey::Choice(
            "choco.compression", "topk", {"topk", "randomk"}, "CHOCO-SGD: topk or randomk"),
        AlgorithmKey::NumberOrAuto("choco.gamma",
                                   "auto",
                                   1e-9,
                                   1.0,
                                   "CHOCO-SGD: consensus step size, or auto (tuned by gossip)"),
    };
    r.label = [](const std::map<std::string, std::string>& c)
    {
        return "CHOCO-SGD (" + c.at("choco.compression") + " " + c.at("choco.alpha") + ", gamma "
               + c.at("choco.gamma") + ")";
    };
    r.create = [](const AlgorithmParameters& p) -> std::unique_ptr<SharingAlgorithm>
    {
        if (p.IsAuto("choco.gamma"))
        {
            // The step size depends on the overlay, which a single instance does not see.
            throw std::invalid_argument("choco.gamma: auto is tuned on the overlay before the run "
                                        "(ResolveOnOverlay); give a number to create CHOCO-SGD "
                                        "without one");
        }
        return std::make_unique<ChocoSharing>(p.GetString("choco.compression"),
                                              p.GetDouble("choco.alpha"),
                                              p.GetDouble("choco.gamma"));
    };
    r.resolve
        = [](AlgorithmParameters& p, const Adjacency& overlay, uint64_t seed, std::ostream& log)
    {
        std::map<std::string, std::string> shown;
        if (!p.IsAuto("choco.gamma"))
        {
            return shown;
        }
        ChocoTuningSpec spec;
        spec.neighbours = overlay;
        spec.compression = p.GetString("choco.compression");
        spec.alpha = p.GetDouble("choco.alpha");
        spec.seed = seed;
        ChocoTuningResult result = TuneChocoGamma(spec);
        log << "choco: consensus step size tuned by " << spec.iterations
            << " rounds of compressed gossip on random vectors: gamma = " << result.bestGamma
            << std::endl;
        p.Set("choco.gamma", ExactText(result.bestGamma));
        std::ostringstream value;
        value << std::setprecision(12) << result.bestGamma;
        shown["choco.gamma"] = value.str();
        return shown;
    };
    r.fromSharingConfig = [](const SharingConfig& c, std::map<std::string, std::string>& values)
    {
        values["choco.alpha"] = ExactText(c.alpha);
        values["choco.compression"] = c.chocoCompression;
        values["choco.gamma"] = c.chocoGamma ? ExactText(*c.chocoGamma) : "auto";
    };
    return r;
}

} // namespace dlsim
