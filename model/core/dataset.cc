/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "dataset.h"

namespace ns3
{

std::vector<uint32_t>
ClassHistogram(const Dataset& data, const std::vector<uint32_t>& indices)
{
    std::vector<uint32_t> histogram(data.numClasses, 0);
    for (uint32_t i : indices)
    {
        histogram.at(static_cast<size_t>(data.labels.at(i)))++;
    }
    return histogram;
}

} // namespace ns3
