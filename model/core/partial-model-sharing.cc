// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "partial-model-sharing.h"

#include "algorithm-registry.h"
#include "mixing-weights.h"
#include "round-schedule.h"
#include "sparse-selection.h"
#include "value-text.h"
#include "wavelet-transform.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace dlsim
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
    m_nodeSeed = DeriveSeed(context.seed, context.self, SeedUse::RandomSelection);
    m_alphaRng.seed(m_nodeSeed ^ 0x5DEECE66Dull);
    m_roundStart = initialModel;
    m_accumulator.assign(m_length, 0.0f);
}

namespace
{

/**
 * The calling thread's buffers for a sharing step. Encode and Aggregate run the transform four
 * times per learner and round over L values; vectors made fresh for each (and zero-filled, and
 * given back to the allocator) cost about as much as the transforms' arithmetic. Kept per
 * thread rather than per learner, so that a thousand learners do not each hold them.
 */
struct StepScratch
{
    std::vector<float> change;       //!< the model's change, then T of it
    std::vector<float> score;        //!< T(change), then the ranking scores
    std::vector<double> mixed;       //!< Y, the mixed coefficients, in double
    std::vector<float> coefficients; //!< Y in float, as inverted
};

StepScratch&
ThreadStepScratch()
{
    thread_local StepScratch scratch;
    return scratch;
}

} // namespace

EncodedPayload
PartialModelSharing::Encode(const RoundInfo& round, const std::vector<float>& trainedModel)
{
    if (trainedModel.size() != m_modelLength)
    {
        throw std::invalid_argument("partial-model sharing: expected a model of "
                                    + std::to_string(m_modelLength) + " values, got "
                                    + std::to_string(trainedModel.size()));
    }
    StepScratch& scratch = ThreadStepScratch();
    m_ownCoefficients.resize(m_length);
    m_transform->Forward(trainedModel.data(), m_ownCoefficients.data());
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
    std::vector<float>& change = scratch.change;
    change.resize(trainedModel.size());
    for (size_t i = 0; i < change.size(); ++i)
    {
        change[i] = trainedModel[i] - m_roundStart[i];
    }
    std::vector<float>& score = scratch.score;
    score.resize(m_length);
    m_transform->Forward(change.data(), score.data());
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

std::vector<float>
PartialModelSharing::Aggregate(const RoundInfo& round,
                               const std::vector<float>& /* trainedModel */,
                               const std::vector<ReceivedPayload>& received)
{
    // Y = w_ii c + sum_j w_ij v_j with v_j = c overwritten by j's values, i.e.
    // Y = c + sum_j w_ij (v_j - c): only the received positions change.
    StepScratch& scratch = ThreadStepScratch();
    const std::vector<float>& own = m_ownCoefficients;
    std::vector<double>& y = scratch.mixed;
    y.assign(own.begin(), own.end());
    for (const auto& message : received)
    {
        ReceivedValues r
            = ReadReceived(message,
                           {"a partial-model algorithm",
                            {PayloadForm::Full, PayloadForm::Sparse, PayloadForm::RandomMask},
                            static_cast<uint32_t>(m_length),
                            0});
        const double w = MetropolisHastingsWeight(round.inDegree, message.senderDegree);
        double* mixed = y.data();
        const float* ownValues = own.data();
        r.ForEachValue([mixed, ownValues, w](size_t k, float value)
                       { mixed[k] += w * (static_cast<double>(value) - ownValues[k]); });
    }
    std::vector<float>& coefficients = scratch.coefficients;
    coefficients.assign(y.begin(), y.end());
    std::vector<float> next(m_modelLength);
    m_transform->Inverse(coefficients.data(), next.data());
    if (m_options.accumulation)
    {
        // The change since the round began, and the round's new start, in one pass.
        std::vector<float>& step = scratch.change;
        step.resize(next.size());
        float* start = m_roundStart.data();
        for (size_t i = 0; i < step.size(); ++i)
        {
            step[i] = next[i] - start[i];
            start[i] = next[i];
        }
        std::vector<float>& t = scratch.score;
        t.resize(m_length);
        m_transform->Forward(step.data(), t.data());
        for (size_t k = 0; k < m_length; ++k)
        {
            m_accumulator[k] += t[k];
        }
    }
    else
    {
        m_roundStart = next;
    }
    return next;
}

bool
PartialModelSharing::ForDirectedGraphs() const
{
    return false;
}

namespace
{

/// The key of a fixed sharing fraction (random sampling, top-k).
AlgorithmKey
AlphaKey(const std::string& name, const std::string& help)
{
    return AlgorithmKey::Number(name + ".alpha", "0.1", 1e-9, 1.0, help);
}

std::string
BoolText(bool value)
{
    return value ? "true" : "false";
}

} // namespace

AlgorithmRegistration
RandomSamplingRegistration()
{
    AlgorithmRegistration r;
    r.name = "random-sampling";
    r.keys = {AlphaKey(r.name, "random sampling: probability of sharing each parameter")};
    r.label = [](const std::map<std::string, std::string>& c)
    {
        return "random sampling (alpha " + c.at("random-sampling.alpha") + ")";
    };
    r.create = [](const AlgorithmParameters& p)
    {
        PartialModelOptions options;
        options.selector = PartialModelOptions::Selector::Random;
        options.alphas = {p.GetDouble("random-sampling.alpha")};
        return std::make_unique<PartialModelSharing>(options);
    };
    r.fromSharingConfig = [](const SharingConfig& c, std::map<std::string, std::string>& values)
    {
        values["random-sampling.alpha"] = ExactText(c.alpha);
    };
    return r;
}

AlgorithmRegistration
TopkRegistration()
{
    AlgorithmRegistration r;
    r.name = "topk";
    r.keys = {AlphaKey(r.name, "top-k: fraction of parameters shared"),
              AlgorithmKey::Bool("topk.accumulation",
                                 "false",
                                 "top-k: rank by change since last shared (JWINS's rule)")};
    r.label = [](const std::map<std::string, std::string>& c)
    {
        return "top-k (alpha " + c.at("topk.alpha")
               + (c.at("topk.accumulation") == "true" ? ", accumulated)" : ")");
    };
    r.create = [](const AlgorithmParameters& p)
    {
        PartialModelOptions options;
        options.selector = PartialModelOptions::Selector::TopK;
        options.accumulation = p.GetBool("topk.accumulation");
        options.alphas = {p.GetDouble("topk.alpha")};
        return std::make_unique<PartialModelSharing>(options);
    };
    r.fromSharingConfig = [](const SharingConfig& c, std::map<std::string, std::string>& values)
    {
        values["topk.alpha"] = ExactText(c.alpha);
        values["topk.accumulation"] = BoolText(c.accumulation);
    };
    return r;
}

AlgorithmRegistration
JwinsRegistration()
{
    AlgorithmRegistration r;
    r.name = "jwins";
    std::vector<std::string> wavelets = WaveletTransform::KnownWavelets();
    wavelets.push_back("none");
    r.keys = {
        AlgorithmKey::NumberList("jwins.alphas",
                                 "[0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 1.0]",
                                 1e-9,
                                 1.0,
                                 "JWINS: fractions drawn per round"),
        AlgorithmKey::Number("jwins.metadata_cap",
                             "0.5",
                             0.0,
                             1e9,
                             "JWINS: fractions from this one on share everything"),
        AlgorithmKey::Choice("jwins.wavelet",
                             "sym2",
                             wavelets,
                             "JWINS: haar, db2, db4, sym2, sym4, or none (ablation)"),
        AlgorithmKey::WholeNumber(
            "jwins.levels", "4", 1, 64, "JWINS: wavelet decomposition levels"),
        AlgorithmKey::Bool("jwins.accumulation",
                           "true",
                           "JWINS: rank by change since last shared (false: ablation)"),
        AlgorithmKey::Bool(
            "jwins.random_cutoff", "true", "JWINS: draw the fraction per round (false: list mean)"),
    };
    r.label = [](const std::map<std::string, std::string>& c)
    {
        return "JWINS (" + c.at("jwins.wavelet") + ")";
    };
    r.create = [](const AlgorithmParameters& p)
    {
        PartialModelOptions options;
        options.wavelet = p.GetString("jwins.wavelet");
        options.levels = static_cast<uint32_t>(p.GetUint("jwins.levels"));
        options.selector = PartialModelOptions::Selector::TopK;
        options.accumulation = p.GetBool("jwins.accumulation");
        options.metadataCap = p.GetDouble("jwins.metadata_cap");
        options.alphas = p.GetDoubleList("jwins.alphas");
        if (!p.GetBool("jwins.random_cutoff"))
        {
            double mean = std::accumulate(options.alphas.begin(), options.alphas.end(), 0.0)
                          / options.alphas.size();
            options.alphas = {mean};
        }
        return std::make_unique<PartialModelSharing>(options);
    };
    r.fromSharingConfig = [](const SharingConfig& c, std::map<std::string, std::string>& values)
    {
        std::string alphas;
        for (double a : c.jwinsAlphas)
        {
            alphas += (alphas.empty() ? "[" : ", ") + ExactText(a);
        }
        values["jwins.alphas"] = alphas.empty() ? "[]" : alphas + "]";
        values["jwins.metadata_cap"] = ExactText(c.jwinsMetadataCap);
        values["jwins.wavelet"] = c.jwinsWavelet;
        values["jwins.levels"] = std::to_string(c.jwinsLevels);
        values["jwins.accumulation"] = BoolText(c.jwinsAccumulation);
        values["jwins.random_cutoff"] = BoolText(c.jwinsRandomCutoff);
    };
    return r;
}

} // namespace dlsim
