// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sparse-selection.h"

#include "round-schedule.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace dlsim
{

uint32_t
SelectionSize(double alpha, size_t length)
{
    double k = std::round(alpha * static_cast<double>(length));
    return static_cast<uint32_t>(std::clamp(k, 0.0, static_cast<double>(length)));
}

namespace
{

/**
 * An unsigned integer that orders like x: positive numbers order like their bit patterns, and
 * setting the sign bit puts them above the negative ones, whose patterns order backwards and
 * are therefore inverted. Equal scores give equal keys: -0 becomes +0, and NaN, which has no
 * place in the order, ranks with +inf.
 */
template<typename T, typename Key>
Key
OrderedKey(T x)
{
    if (std::isnan(x))
    {
        x = std::numeric_limits<T>::infinity();
    }
    if (x == 0)
    {
        x = 0;
    }
    Key bits;
    std::memcpy(&bits, &x, sizeof(x));
    constexpr Key sign = Key(1) << (sizeof(Key) * 8 - 1);
    return (bits & sign) ? ~bits : (bits | sign);
}

} // namespace

template<typename T>
void
TopKSelector<T>::Select(const T* scores, uint32_t n, uint32_t k, uint64_t tieSeed, uint32_t* out)
{
    m_key.resize(n);
    for (uint32_t e = 0; e < n; ++e)
    {
        m_key[e] = OrderedKey<T, Key>(scores[e]);
    }
    SelectOnKeys(n, k, tieSeed, out);
}

template<typename T>
void
TopKSelector<T>::SelectLargestMagnitudes(
    const T* values, uint32_t n, uint32_t k, uint64_t tieSeed, uint32_t* out)
{
    m_key.resize(n);
    for (uint32_t e = 0; e < n; ++e)
    {
        m_key[e] = OrderedKey<T, Key>(std::fabs(values[e]));
    }
    SelectOnKeys(n, k, tieSeed, out);
}

template<typename T>
void
TopKSelector<T>::SelectOnKeys(uint32_t n, uint32_t k, uint64_t tieSeed, uint32_t* out)
{
    if (k >= n)
    {
        std::iota(out, out + n, 0u);
        return;
    }
    if (k == 0)
    {
        return;
    }
    // Radix select: each pass keeps only the bucket (of the next digit down) that holds the
    // k-th largest key. Digits of 11 bits: the first is the sign, the exponent and two bits of
    // the mantissa, so scores of every magnitude split at once (with bytes, the scores of a
    // model, a few exponents apart, all fell in one top bucket and the first pass was wasted).
    // The first pass reads the keys where they are and keeps its bucket in m_work; the later
    // ones compact m_work in place.
    constexpr int kDigitBits = 11;
    m_work.resize(n);
    const Key* source = m_key.data();
    Key* buf = m_work.data();
    uint32_t size = n;
    uint32_t rank = k; // wanted: the rank-th largest key left in source
    for (int high = static_cast<int>(sizeof(Key)) * 8; high > 0 && size > 1;)
    {
        const int width = std::min(kDigitBits, high);
        const int shift = high - width;
        high = shift;
        const Key mask = (Key(1) << width) - 1;
        uint32_t hist[1 << kDigitBits] = {};
        for (uint32_t e = 0; e < size; ++e)
        {
            ++hist[(source[e] >> shift) & mask];
        }
        uint32_t bin = static_cast<uint32_t>(mask);
        while (hist[bin] < rank)
        {
            rank -= hist[bin]; // these keys are all larger than the wanted one
            --bin;
        }
        if (hist[bin] == size)
        {
            continue; // every key shares the bucket: nothing to drop
        }
        // Branch-free compaction: the test is a coin flip for the branch predictor. Writes stay
        // at or behind the reads, so compacting m_work in place is safe.
        uint32_t kept = 0;
        for (uint32_t e = 0; e < size; ++e)
        {
            const Key b = source[e];
            buf[kept] = b;
            kept += ((b >> shift) & mask) == bin;
        }
        size = kept;
        source = buf;
    }
    // The `size` keys left are all the keys equal to the threshold; k - rank keys are larger,
    // and `rank` of the ties are taken.
    const Key threshold = source[0];
    const Key* key = m_key.data();
    uint32_t m = 0;
    if (rank == size)
    {
        // Every tie is taken, so their order does not matter (the usual case: one tie).
        for (uint32_t e = 0; e < n && m < k; ++e)
        {
            out[m] = e;
            m += key[e] >= threshold;
        }
        return;
    }
    const uint64_t salt = MixBits(tieSeed);
    m_ties.clear();
    for (uint32_t e = 0; e < n; ++e)
    {
        if (key[e] == threshold)
        {
            m_ties.emplace_back(MixBits(e ^ salt), e);
        }
    }
    std::nth_element(m_ties.begin(), m_ties.begin() + rank, m_ties.end());
    m_ties.resize(rank);
    std::sort(m_ties.begin(),
              m_ties.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    uint32_t t = 0;
    for (uint32_t e = 0; e < n && m < k; ++e)
    {
        if (key[e] > threshold)
        {
            out[m++] = e;
        }
        else if (t < rank && m_ties[t].second == e)
        {
            out[m++] = e;
            ++t;
        }
    }
}

template class TopKSelector<float>;
template class TopKSelector<double>;

std::vector<uint32_t>
TopKIndices(const std::vector<float>& scores, uint32_t k, uint64_t tieSeed)
{
    const auto n = static_cast<uint32_t>(scores.size());
    std::vector<uint32_t> out(std::min(k, n));
    // Its buffers hold two values per score: kept per thread, not made and freed for every
    // selection of every learner and round.
    thread_local TopKSelector<float> selector;
    selector.Select(scores.data(), n, static_cast<uint32_t>(out.size()), tieSeed, out.data());
    return out;
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

} // namespace dlsim
