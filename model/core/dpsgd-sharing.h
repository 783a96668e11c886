// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Full sharing (D-PSGD, Lian et al. 2017).
 */
#ifndef DLSIM_DPSGD_SHARING_H
#define DLSIM_DPSGD_SHARING_H

#include "sharing-algorithm.h"

namespace dlsim
{

struct AlgorithmRegistration;

/**
 * Every round a node sends all N parameters and averages with Metropolis-Hastings weights:
 * x = w_ii x + sum_j w_ij x_j.
 */
class DpsgdSharing : public SharingAlgorithm
{
  public:
    void Initialize(const std::vector<float>& initialModel, const SharingContext& context) override;
    EncodedPayload Encode(const RoundInfo& round, const std::vector<float>& trainedModel) override;
    std::vector<float> Aggregate(const RoundInfo& round,
                                 const std::vector<float>& trainedModel,
                                 const std::vector<ReceivedPayload>& received) override;
    bool ForDirectedGraphs() const override;

  private:
    size_t m_length = 0;
};

/// \return the registration of D-PSGD (algorithm-registry.h)
AlgorithmRegistration DpsgdRegistration();

} // namespace dlsim

#endif // DLSIM_DPSGD_SHARING_H
