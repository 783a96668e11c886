// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sharing-algorithm.h"

#include "algorithm-registry.h"

namespace ns3
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

} // namespace ns3
