// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Choosing which entries of a vector to share: top-k by score, random-k, Bernoulli masks.
 */
#ifndef DLSIM_SPARSE_SELECTION_H
#define DLSIM_SPARSE_SELECTION_H

#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlsim
{

/**
 * \param alpha the fraction to select
 * \param length the number of entries
 * \return k = round(alpha * length), clamped to [0, length]
 */
uint32_t SelectionSize(double alpha, size_t length);

/**
 * The k indices with the largest scores, returned in ascending order (the order the payload
 * codec wants). Equal scores are ordered by a hash of (index, tieSeed): a fixed order (say,
 * lowest index first) would make every node pick the same entries whenever scores tie, e.g.
 * all zero without training, and starve the others forever. Give each node and round its own
 * tieSeed. -0 and +0 are equal scores; NaN ranks with +inf.
 * \param scores one per entry
 * \param k how many to select
 * \param tieSeed orders equal scores
 * \return the indices, ascending
 */
std::vector<uint32_t> TopKIndices(const std::vector<float>& scores, uint32_t k, uint64_t tieSeed);

/**
 * The top-k operator behind TopKIndices, with its scratch kept across calls for callers that
 * select many times (the CHOCO step-size tuner), for float or double scores. One operator, so
 * that the tuner tunes the selection a run makes. It finds the k-th largest score by a radix
 * select on order-preserving bit patterns of the scores, a byte at a time from the top (about
 * three times faster than std::nth_element on an index array), then orders only the entries
 * tied at that score by the hash of (index, tieSeed).
 */
template<typename T>
class TopKSelector
{
  public:
    /**
     * \brief Write the indices of the k largest of scores[0, n) to out[0, k), ascending.
     * \param scores n scores
     * \param n the number of scores
     * \param k how many to select (k <= n)
     * \param tieSeed orders equal scores
     * \param[out] out k indices
     */
    void Select(const T* scores, uint32_t n, uint32_t k, uint64_t tieSeed, uint32_t* out);
    /**
     * \brief The same on |values[i]|.
     * \param values n values
     * \param n the number of values
     * \param k how many to select (k <= n)
     * \param tieSeed orders equal magnitudes
     * \param[out] out k indices
     */
    void SelectLargestMagnitudes(
        const T* values, uint32_t n, uint32_t k, uint64_t tieSeed, uint32_t* out);

    /// Same-size unsigned integers that order like the scores.
    using Key = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

  private:
    void SelectOnKeys(uint32_t n, uint32_t k, uint64_t tieSeed, uint32_t* out);

    std::vector<Key> m_key;
    std::vector<Key> m_work;
    std::vector<std::pair<uint64_t, uint32_t>> m_ties; ///< (hash, index) of the tied entries
};

extern template class TopKSelector<float>;
extern template class TopKSelector<double>;

/**
 * \param rng the generator drawn from
 * \param k how many
 * \param length the number of entries
 * \return k distinct indices of [0, length) drawn uniformly, ascending
 */
std::vector<uint32_t> RandomKIndices(std::mt19937_64& rng, uint32_t k, size_t length);

/**
 * The positions a Bernoulli(alpha) mask keeps, drawn from a generator seeded with `seed`.
 * Sender and receiver call this with the seed carried in the message and get the same mask.
 * \param seed the mask's seed
 * \param alpha the probability of keeping a position
 * \param length the number of entries
 * \return the positions kept, ascending
 */
std::vector<uint32_t> RandomMaskIndices(uint64_t seed, double alpha, size_t length);

} // namespace dlsim

#endif // DLSIM_SPARSE_SELECTION_H
