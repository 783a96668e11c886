// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The partial-model family: random sampling, top-k and JWINS (Dhasade et al. 2023) as one
 * mechanism with three parts: a transform, a selector and a sharing-fraction schedule.
 */
#ifndef DLSIM_PARTIAL_MODEL_SHARING_H
#define DLSIM_PARTIAL_MODEL_SHARING_H

#include "model-transform.h"
#include "sharing-algorithm.h"

#include <random>

namespace dlsim
{

struct AlgorithmRegistration;

/// How a member of the family is put together.
struct PartialModelOptions
{
    /// "none" (identity) or a wavelet name for the transform T.
    std::string wavelet = "none";
    uint32_t levels = 4; ///< the wavelet's decomposition levels
    /// How the shared coefficients are chosen.
    enum class Selector
    {
        Random,                  ///< a Bernoulli(alpha) mask, sent as seed and alpha
        TopK,                    ///< the k best-scored entries, sent with their indices
    } selector = Selector::TopK; ///< how the shared coefficients are chosen
    /// Score by the change since each coefficient was last shared, not since the round began.
    bool accumulation = false;
    /// Fractions drawn uniformly every round; one entry means a fixed fraction.
    std::vector<double> alphas = {0.1};
    /// Fractions at or above the cap share every coefficient with no indices (JWINS: 0.5).
    double metadataCap = 2.0;
};

/**
 * Per round (the module documentation, "Algorithms"): compute T(x̃) of the
 * trained model, choose the shared set, send the node's own coefficients there. A receiver
 * fills the coefficients a neighbour did not send with its own, averages with
 * Metropolis-Hastings weights in the transform domain and inverts T.
 */
class PartialModelSharing : public SharingAlgorithm
{
  public:
    /// \param options transform, selection and fractions (see the registrations)
    explicit PartialModelSharing(const PartialModelOptions& options);

    void Initialize(const std::vector<float>& initialModel, const SharingContext& context) override;
    EncodedPayload Encode(const RoundInfo& round, const std::vector<float>& trainedModel) override;
    std::vector<float> Aggregate(const RoundInfo& round,
                                 const std::vector<float>& trainedModel,
                                 const std::vector<ReceivedPayload>& received) override;
    bool ForDirectedGraphs() const override;

  private:
    PartialModelOptions m_options;
    std::unique_ptr<ModelTransform> m_transform;
    size_t m_modelLength = 0;
    size_t m_length = 0;     ///< L, the coefficient count
    uint64_t m_nodeSeed = 0; ///< seeds random masks (with the round) and alpha draws
    std::mt19937_64 m_alphaRng;
    std::vector<float> m_roundStart;      ///< x̄: the model at the start of the round
    std::vector<float> m_accumulator;     ///< A = T(x̄ - x̄_s) per coefficient
    std::vector<float> m_ownCoefficients; ///< T(x̃) of this round
};

/// \return the registration of random sampling (algorithm-registry.h)
AlgorithmRegistration RandomSamplingRegistration();
/// \return the registration of top-k sparsification (algorithm-registry.h)
AlgorithmRegistration TopkRegistration();
/// \return the registration of JWINS (algorithm-registry.h)
AlgorithmRegistration JwinsRegistration();

} // namespace dlsim

#endif // DLSIM_PARTIAL_MODEL_SHARING_H
