// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * CHOCO-SGD (Koloskova, Stich, Jaggi, ICML 2019): gossip of compressed model differences.
 */
#ifndef DLSIM_CHOCO_SHARING_H
#define DLSIM_CHOCO_SHARING_H

#include "sharing-algorithm.h"

#include <map>
#include <random>

namespace dlsim
{

struct AlgorithmRegistration;

/**
 * State per node: the model x, its public copy x̂ (zeros at start) and
 * s = sum_{j in N(i) ∪ {i}} w_ij x̂_j (zeros at start). Per round: q = C(x½ - x̂) (top-k or
 * random-k of a fraction alpha, sent as indices and values); x̂ += q; s += w_ii q + sum_j w_ij q_j;
 * x = x½ + gamma (s - x̂). With no compression and gamma = 1 this is D-PSGD.
 *
 * s must stay the weighted sum of the public copies, so every q_j is applied exactly once and in
 * order (GetPartialReceipt: EveryMessage); a late q_j is applied in a later round, and until then
 * the node mixes with the copy of x̂_j it has. A neighbour's weight w_ij is fixed when its first
 * message arrives, and w_ii = 1 - (the weights of the neighbours heard so far).
 */
class ChocoSharing : public SharingAlgorithm
{
  public:
    /**
     * \param compression "topk" or "randomk"
     * \param alpha the fraction kept
     * \param gamma the consensus step size
     */
    ChocoSharing(const std::string& compression, double alpha, double gamma);

    void Initialize(const std::vector<float>& initialModel, const SharingContext& context) override;
    EncodedPayload Encode(const RoundInfo& round, const std::vector<float>& trainedModel) override;
    std::vector<float> Aggregate(const RoundInfo& round,
                                 const std::vector<float>& trainedModel,
                                 const std::vector<ReceivedPayload>& received) override;
    bool ForDirectedGraphs() const override;
    PartialReceipt GetPartialReceipt() const override;

  private:
    bool m_randomK;
    double m_alpha;
    double m_gamma;
    std::mt19937_64 m_rng;
    uint64_t m_tieSeed = 0;
    std::vector<float> m_public; ///< x̂
    std::vector<double> m_s;     ///< s, kept in double: it accumulates every round's updates
    Payload m_sent;              ///< this round's q, sparse
    double m_selfWeight = 1.0;   ///< w_ii
    std::map<uint32_t, double> m_weights; ///< w_ij of every neighbour heard from
};

/// \return the registration of CHOCO-SGD (algorithm-registry.h)
AlgorithmRegistration ChocoRegistration();

} // namespace dlsim

#endif // DLSIM_CHOCO_SHARING_H
