// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Sparse-Push and Skew-Compensated Sparse-Push (Aketi, Singh, Rabaey 2021).
 */
#ifndef DLSIM_SPARSE_PUSH_SHARING_H
#define DLSIM_SPARSE_PUSH_SHARING_H

#include "sharing-algorithm.h"

namespace dlsim
{

struct AlgorithmRegistration;

/**
 * Push-sum with top-k compression and error feedback, for directed and time-varying graphs
 * with column-stochastic weights: the sender keeps 1/(d+1) and gives each of its d
 * out-neighbours 1/(d+1), and carries d in the message header.
 *
 * State: x, error δ (zeros), push-sum weight u (1), de-biased model z = x / u. The learner
 * trains from z; the gradient steps are applied to x (x̂ = x + (z' - z)). Per round:
 * v = x̂ + δ; send C[v] and u; δ = v - C[v];
 * x = x̂ + eta sum_{j in N_in ∪ {i}} (W_ij - I_ij) C[v_j], the same for u; z = x / u.
 *
 * SCSP adds `gossipRounds` rounds of uncompressed push-sum without training after the
 * `trainingRounds` training rounds, with averaging rate `gossipEta`.
 */
class SparsePushSharing : public SharingAlgorithm
{
  public:
    /**
     * \param alpha the fraction top-k keeps
     * \param eta the averaging rate of the compressed rounds
     * \param trainingRounds the run's training rounds
     * \param gossipRounds SCSP: uncompressed rounds after them (0: Sparse-Push)
     * \param gossipEta the averaging rate of those rounds
     */
    SparsePushSharing(
        double alpha, double eta, uint32_t trainingRounds, uint32_t gossipRounds, double gossipEta);

    void Initialize(const std::vector<float>& initialModel, const SharingContext& context) override;
    EncodedPayload Encode(const RoundInfo& round, const std::vector<float>& trainedModel) override;
    std::vector<float> Aggregate(const RoundInfo& round,
                                 const std::vector<float>& trainedModel,
                                 const std::vector<ReceivedPayload>& received) override;
    bool ForDirectedGraphs() const override;
    PartialReceipt GetPartialReceipt() const override;
    bool TrainsInRound(uint32_t round) const override;
    uint32_t ExtraRounds() const override;

  private:
    bool IsGossipRound(uint32_t round) const;

    double m_alpha;
    double m_eta;
    uint32_t m_trainingRounds;
    uint32_t m_gossipRounds;
    double m_gossipEta;
    std::vector<double> m_x;     ///< the biased model x (double: push-sum sums many small terms)
    std::vector<double> m_error; ///< δ
    double m_weight = 1.0;       ///< u
    uint64_t m_tieSeed = 0;
    std::vector<float> m_z; ///< the de-biased model the learner trained from
    Payload m_sent;         ///< this round's C[v] (or all of x in a gossip round)
};

/// \return the registration of Sparse-Push (algorithm-registry.h)
AlgorithmRegistration SparsePushRegistration();
/// \return the registration of SCSP (algorithm-registry.h)
AlgorithmRegistration ScspRegistration();

} // namespace dlsim

#endif // DLSIM_SPARSE_PUSH_SHARING_H
