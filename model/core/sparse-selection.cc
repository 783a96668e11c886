/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sparse-selection.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

uint32_t
SelectionSize(double alpha, size_t length)
{
    double k = std::round(alpha * static_cast<double>(length));
    return static_cast<uint32_t>(std::clamp(k, 0.0, static_cast<double>(length)));
}

std::vector<uint32_t>
TopKIndices(const std::vector<float>& scores, uint32_t k)
{
    std::vector<uint32_t> order(scores.size());
    std::iota(order.begin(), order.end(), 0u);
    k = std::min<uint32_t>(k, static_cast<uint32_t>(scores.size()));
    auto better = [&scores](uint32_t a, uint32_t b) {
        return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
    };
    std::nth_element(order.begin(), order.begin() + k, order.end(), better);
    order.resize(k);
    std::sort(order.begin(), order.end());
    return order;
}

std::vector<uint32_t>
RandomKIndices(std::mt19937_64& rng, uint32_t k, size_t length)
{
    k = std::min<uint32_t>(k, static_cast<uint32_t>(length));
    // Partial Fisher-Yates with our own draws (std::shuffle's are implementation-defined).
    std::vector<uint32_t> all(length);
    std::iota(all.begin(), all.end(), 0u);
    for (uint32_t i = 0; i < k; ++i)
    {
        uint64_t j = i + rng() % (length - i);
        std::swap(all[i], all[j]);
    }
    all.resize(k);
    std::sort(all.begin(), all.end());
    return all;
}

std::vector<uint32_t>
RandomMaskIndices(uint64_t seed, double alpha, size_t length)
{
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> kept;
    kept.reserve(static_cast<size_t>(alpha * length * 1.1) + 16);
    for (size_t i = 0; i < length; ++i)
    {
        // 53 random bits as a double in [0, 1): the same on every platform.
        double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
        if (u < alpha)
        {
            kept.push_back(static_cast<uint32_t>(i));
        }
    }
    return kept;
}

} // namespace ns3
