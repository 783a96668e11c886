/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sharing-algorithm.h"

#include "dpsgd-sharing.h"

#include <stdexcept>

namespace ns3
{

std::vector<std::string>
KnownAlgorithms()
{
    return {"dpsgd"};
}

std::unique_ptr<SharingAlgorithm>
CreateSharingAlgorithm(const SharingConfig& config)
{
    if (config.algorithm == "dpsgd")
    {
        return std::make_unique<DpsgdSharing>();
    }
    std::string known;
    for (const auto& name : KnownAlgorithms())
    {
        known += (known.empty() ? "" : ", ") + name;
    }
    throw std::invalid_argument("unknown algorithm '" + config.algorithm + "' (known: " + known
                                + ")");
}

} // namespace ns3
