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
#include <vector>

namespace ns3
{

/// k = round(alpha * length), clamped to [0, length].
uint32_t SelectionSize(double alpha, size_t length);

/**
 * The k indices with the largest scores, returned in ascending order (the order the payload
 * codec wants). Equal scores are ordered by a hash of (index, tieSeed): a fixed order (say,
 * lowest index first) would make every node pick the same entries whenever scores tie, e.g.
 * all zero without training, and starve the others forever. Give each node and round its own
 * tieSeed.
 */
std::vector<uint32_t> TopKIndices(const std::vector<float>& scores, uint32_t k, uint64_t tieSeed);

/// k distinct indices of [0, length) drawn uniformly, ascending.
std::vector<uint32_t> RandomKIndices(std::mt19937_64& rng, uint32_t k, size_t length);

/**
 * The positions a Bernoulli(alpha) mask keeps, drawn from a generator seeded with `seed`.
 * Sender and receiver call this with the seed carried in the message and get the same mask.
 */
std::vector<uint32_t> RandomMaskIndices(uint64_t seed, double alpha, size_t length);

} // namespace ns3

#endif // DLSIM_SPARSE_SELECTION_H
