// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the top-k operator (TopKIndices, TopKSelector) against a straightforward reference: sort
 * every index by score, ties by the hash of (index, tie seed), and take the first k.
 */
#include "round-schedule.h"
#include "sparse-selection.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>
#include <random>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/// The rule written out: larger score first, equal scores by hash, then index; ascending.
template<typename T>
std::vector<uint32_t>
Reference(const std::vector<T>& scores, uint32_t k, uint64_t tieSeed)
{
    std::vector<uint32_t> order(scores.size());
    std::iota(order.begin(), order.end(), 0u);
    const uint64_t salt = MixBits(tieSeed);
    std::sort(order.begin(),
              order.end(),
              [&](uint32_t a, uint32_t b)
              {
                  if (scores[a] != scores[b])
                  {
                      return scores[a] > scores[b];
                  }
                  const uint64_t ha = MixBits(a ^ salt);
                  const uint64_t hb = MixBits(b ^ salt);
                  return ha < hb || (ha == hb && a < b);
              });
    order.resize(std::min<size_t>(k, order.size()));
    std::sort(order.begin(), order.end());
    return order;
}

/// Scores full of ties and zeros of both signs (kind 0), spread over many exponents and signs
/// (kind 1), or all zero (kind 2).
template<typename T>
std::vector<T>
Scores(std::mt19937_64& rng, uint32_t n, int kind)
{
    std::vector<T> v(n);
    for (T& x : v)
    {
        if (kind == 0)
        {
            const int r = static_cast<int>(rng() % 9) - 4;
            x = r == 0 && rng() % 2 ? T(-0.0) : static_cast<T>(r);
        }
        else if (kind == 1)
        {
            x = static_cast<T>(std::ldexp((rng() % 2 ? 1.0 : -1.0) * (1 + rng() % 4),
                                          static_cast<int>(rng() % 100) - 50));
        }
        else
        {
            x = rng() % 2 ? T(0.0) : T(-0.0);
        }
    }
    return v;
}

template<typename T>
void
CompareWithReference()
{
    std::mt19937_64 rng(11);
    TopKSelector<T> selector; // reused across calls, as the tuner does
    for (uint32_t n : {1u, 2u, 7u, 64u, 300u, 1000u})
    {
        for (int kind = 0; kind < 3; ++kind)
        {
            const std::vector<T> v = Scores<T>(rng, n, kind);
            std::vector<T> magnitude(n);
            std::transform(v.begin(), v.end(), magnitude.begin(), [](T x) { return std::fabs(x); });
            for (uint64_t tieSeed : {0ull, 1ull, 12345ull})
            {
                for (uint32_t k = 0; k <= n; k += (n > 64 ? 37 : 1))
                {
                    const std::vector<uint32_t> expected = Reference(v, k, tieSeed);
                    std::vector<uint32_t> got(k);
                    selector.Select(v.data(), n, k, tieSeed, got.data());
                    ASSERT_EQ(got, expected) << "n " << n << " kind " << kind << " k " << k;
                    selector.SelectLargestMagnitudes(v.data(), n, k, tieSeed, got.data());
                    ASSERT_EQ(got, Reference(magnitude, k, tieSeed))
                        << "magnitudes: n " << n << " kind " << kind << " k " << k;
                }
            }
        }
    }
}

TEST(TopK, FloatMatchesTheReferenceWithTiesAndZeros)
{
    CompareWithReference<float>();
}

TEST(TopK, DoubleMatchesTheReferenceWithTiesAndZeros)
{
    CompareWithReference<double>();
}

TEST(TopK, TopKIndicesIsTheSelectorOnFloats)
{
    std::mt19937_64 rng(3);
    const std::vector<float> v = Scores<float>(rng, 500, 0);
    for (uint32_t k : {0u, 1u, 250u, 499u, 500u, 600u})
    {
        EXPECT_EQ(TopKIndices(v, k, 9), Reference(v, k, 9)) << "k " << k;
    }
}

TEST(TopK, TiesFollowTheSeedAndNanRanksWithInfinity)
{
    const std::vector<float> zeros(1000, 0.0f);
    EXPECT_NE(TopKIndices(zeros, 10, 1), TopKIndices(zeros, 10, 2));
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(TopKIndices({1.0f, nan, 2.0f}, 1, 0), (std::vector<uint32_t>{1}));
    EXPECT_EQ(TopKIndices({1.0f, nan, inf, 2.0f}, 2, 0), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(TopKIndices({-1.0f, -3.0f, -2.0f}, 2, 0), (std::vector<uint32_t>{0, 2}));
}

} // namespace
} // namespace ns3
