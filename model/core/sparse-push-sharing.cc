// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sparse-push-sharing.h"
#include "round-schedule.h"

#include "algorithm-registry.h"
#include "mixing-weights.h"
#include "sparse-selection.h"
#include "value-text.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace dlsim
{

SparsePushSharing::SparsePushSharing(
    double alpha, double eta, uint32_t trainingRounds, uint32_t gossipRounds, double gossipEta)
    : m_alpha(alpha), m_eta(eta), m_trainingRounds(trainingRounds), m_gossipRounds(gossipRounds),
      m_gossipEta(gossipEta)
{
    if (!(alpha > 0.0 && alpha <= 1.0) || !(eta > 0.0 && eta <= 1.0)
        || !(gossipEta > 0.0 && gossipEta <= 1.0))
    {
        throw std::invalid_argument("Sparse-Push needs alpha, eta and the gossip eta in (0, 1]");
    }
}

void
SparsePushSharing::Initialize(const std::vector<float>& initialModel, const SharingContext& context)
{
    m_tieSeed = DeriveSeed(context.seed, context.self, SeedUse::PushSelection);
    m_x.assign(initialModel.begin(), initialModel.end());
    m_error.assign(initialModel.size(), 0.0);
    m_weight = 1.0;
    m_z = initialModel;
}

bool
SparsePushSharing::IsGossipRound(uint32_t round) const
{
    return m_trainingRounds > 0 && round > m_trainingRounds;
}

EncodedPayload
SparsePushSharing::Encode(const RoundInfo& round, const std::vector<float>& trainedModel)
{
    const size_t n = m_x.size();
    m_sent = Payload();
    m_sent.length = static_cast<uint32_t>(n);
    m_sent.scalars = {m_weight};
    if (IsGossipRound(round.round))
    {
        // Uncompressed push-sum: share x itself; no training happened, so x̂ = x.
        m_sent.form = PayloadForm::Full;
        m_sent.values.assign(m_x.begin(), m_x.end());
        return EncodePayload(m_sent);
    }
    // x̂ = x + (z' - z): the local steps taken at z, applied to x.
    std::vector<double> v(n);
    std::vector<float> magnitude(n);
    for (size_t i = 0; i < n; ++i)
    {
        m_x[i] += static_cast<double>(trainedModel[i]) - m_z[i];
        v[i] = m_x[i] + m_error[i];
        magnitude[i] = static_cast<float>(std::fabs(v[i]));
    }
    m_sent.form = PayloadForm::Sparse;
    m_sent.indices = TopKIndices(magnitude, SelectionSize(m_alpha, n), m_tieSeed + round.round);
    m_error = v;
    for (uint32_t i : m_sent.indices)
    {
        m_sent.values.push_back(static_cast<float>(v[i]));
        // δ = v - C[v], with C[v] as it travels (float32), so nothing is lost to rounding.
        m_error[i] = v[i] - static_cast<double>(m_sent.values.back());
    }
    return EncodePayload(m_sent);
}

std::vector<float>
SparsePushSharing::Aggregate(const RoundInfo& round,
                             const std::vector<float>& /* trainedModel */,
                             const std::vector<ReceivedPayload>& received)
{
    const double eta = IsGossipRound(round.round) ? m_gossipEta : m_eta;
    const size_t n = m_x.size();
    // Own term: (W_ii - 1) C[v_i], with W_ii = 1 / (own out-degree + 1).
    const double selfCoefficient = eta * (PushSumWeight(round.outDegree) - 1.0);
    std::vector<double> delta(n, 0.0);
    // The own payload holds its values, a received one reads them in place.
    auto add = [&delta, n](const Payload& p, const auto& values, double coefficient)
    {
        if (p.form == PayloadForm::Full)
        {
            for (size_t i = 0; i < n; ++i)
            {
                delta[i] += coefficient * values[i];
            }
        }
        else
        {
            for (size_t k = 0; k < p.indices.size(); ++k)
            {
                delta[p.indices[k]] += coefficient * values[k];
            }
        }
    };
    add(m_sent, m_sent.values, selfCoefficient);
    double weightDelta = selfCoefficient * m_weight;
    for (const auto& message : received)
    {
        const ReceivedValues r = ReadReceived(
            message,
            {"Sparse-Push", {PayloadForm::Sparse, PayloadForm::Full}, static_cast<uint32_t>(n), 1});
        const double coefficient = eta * PushSumWeight(message.senderDegree);
        add(r.payload, r.values, coefficient);
        weightDelta += coefficient * r.payload.scalars[0];
    }
    m_weight += weightDelta;
    for (size_t i = 0; i < n; ++i)
    {
        m_x[i] += delta[i];
        m_z[i] = static_cast<float>(m_x[i] / m_weight);
    }
    return m_z;
}

bool
SparsePushSharing::ForDirectedGraphs() const
{
    return true;
}

PartialReceipt
SparsePushSharing::GetPartialReceipt() const
{
    // A message carries push-sum mass: losing one would break the sum of weights.
    return PartialReceipt::EveryMessage;
}

bool
SparsePushSharing::TrainsInRound(uint32_t round) const
{
    return !IsGossipRound(round);
}

uint32_t
SparsePushSharing::ExtraRounds() const
{
    return m_trainingRounds > 0 ? m_gossipRounds : 0;
}

namespace
{

/// The averaging rate the Sparse-Push paper pairs with a top-k fraction (nearest on a log scale).
double
PaperEta(double alpha)
{
    const std::vector<std::pair<double, double>> pairs
        = {{1.0, 1.0}, {0.5, 0.08}, {0.1, 0.01}, {0.01, 0.005}, {0.001, 0.001}};
    auto best = pairs.front();
    for (const auto& p : pairs)
    {
        if (std::fabs(std::log(alpha / p.first)) < std::fabs(std::log(alpha / best.first)))
        {
            best = p;
        }
    }
    return best.second;
}

double
EtaOf(const AlgorithmParameters& p)
{
    return p.IsAuto("sparse-push.eta") ? PaperEta(p.GetDouble("sparse-push.alpha"))
                                       : p.GetDouble("sparse-push.eta");
}

/// Sparse-Push's registration; SCSP adds its gossip rounds to it.
AlgorithmRegistration
PushRegistration(const std::string& name)
{
    AlgorithmRegistration r;
    r.name = name;
    r.forDirectedGraphs = true;
    r.keys = {
        AlgorithmKey::Number(
            "sparse-push.alpha", "0.01", 1e-9, 1.0, "Sparse-Push / SCSP: top-k fraction"),
        AlgorithmKey::NumberOrAuto("sparse-push.eta",
                                   "auto",
                                   1e-9,
                                   1.0,
                                   "Sparse-Push / SCSP: averaging rate, auto: the paper's pairing"),
    };
    const std::string shown = name == "scsp" ? "SCSP" : "Sparse-Push";
    r.label = [shown](const std::map<std::string, std::string>& c)
    {
        return shown + " (top " + c.at("sparse-push.alpha") + ", eta " + c.at("sparse-push.eta")
               + ")";
    };
    // "auto" needs no overlay, but is resolved here so that the run's provenance shows it.
    r.resolve = [](AlgorithmParameters& p, const Adjacency&, uint64_t, std::ostream&)
    {
        std::map<std::string, std::string> shown;
        if (p.IsAuto("sparse-push.eta"))
        {
            const double eta = EtaOf(p);
            p.Set("sparse-push.eta", ExactText(eta));
            std::ostringstream value;
            value << std::setprecision(12) << eta;
            shown["sparse-push.eta"] = value.str();
        }
        return shown;
    };
    r.fromSharingConfig = [](const SharingConfig& c, std::map<std::string, std::string>& values)
    {
        values["sparse-push.alpha"] = ExactText(c.alpha);
        values["sparse-push.eta"] = ExactText(c.pushEta);
    };
    return r;
}

} // namespace

AlgorithmRegistration
SparsePushRegistration()
{
    AlgorithmRegistration r = PushRegistration("sparse-push");
    r.create = [](const AlgorithmParameters& p)
    {
        return std::make_unique<SparsePushSharing>(
            p.GetDouble("sparse-push.alpha"), EtaOf(p), 0, 0, 1.0);
    };
    return r;
}

AlgorithmRegistration
ScspRegistration()
{
    AlgorithmRegistration r = PushRegistration("scsp");
    r.keys.push_back(
        AlgorithmKey::WholeNumber("scsp.gossip_rounds",
                                  "10",
                                  0,
                                  100000000,
                                  "SCSP: uncompressed push-sum rounds after training"));
    r.keys.push_back(AlgorithmKey::Number(
        "scsp.gossip_eta", "1", 1e-9, 1.0, "SCSP: averaging rate of the gossip rounds"));
    r.create = [](const AlgorithmParameters& p)
    {
        return std::make_unique<SparsePushSharing>(
            p.GetDouble("sparse-push.alpha"),
            EtaOf(p),
            p.GetTrainingRounds(),
            static_cast<uint32_t>(p.GetUint("scsp.gossip_rounds")),
            p.GetDouble("scsp.gossip_eta"));
    };
    auto pushFields = r.fromSharingConfig;
    r.fromSharingConfig
        = [pushFields](const SharingConfig& c, std::map<std::string, std::string>& values)
    {
        pushFields(c, values);
        values["scsp.gossip_rounds"] = std::to_string(c.scspGossipRounds);
        values["scsp.gossip_eta"] = ExactText(c.scspGossipEta);
    };
    return r;
}

} // namespace dlsim
