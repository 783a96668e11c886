// SPDX-License-Identifier: GPL-2.0-only
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

namespace
{

/// SplitMix64's finaliser: a cheap, well-mixed hash.
uint64_t
Mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

} // namespace

std::vector<uint32_t>
TopKIndices(const std::vector<float>& scores, uint32_t k, uint64_t tieSeed)
{
    std::vector<uint32_t> order(scores.size());
    std::iota(order.begin(), order.end(), 0u);
    k = std::min<uint32_t>(k, static_cast<uint32_t>(scores.size()));
    const uint64_t salt = Mix(tieSeed);
    auto better = [&scores, salt](uint32_t a, uint32_t b)
    {
        if (scores[a] != scores[b])
        {
            return scores[a] > scores[b];
        }
        uint64_t ha = Mix(a ^ salt);
        uint64_t hb = Mix(b ^ salt);
        return ha < hb || (ha == hb && a < b);
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
