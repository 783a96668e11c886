/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Seeded ways of dealing a training set out to the nodes.
 */
#ifndef DLSIM_PARTITIONER_H
#define DLSIM_PARTITIONER_H

#include "dataset.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/// Sample indices held by each node: result[node] lists indices into the training set.
using Partition = std::vector<std::vector<uint32_t>>;

/// Shuffle, then deal equal parts (sizes differ by at most one; every sample is used).
Partition PartitionIid(const Dataset& data, uint32_t nodes, uint64_t seed);

/**
 * Label-sorted shards (McMahan et al.): sort samples by label, cut them into nodes * k
 * contiguous shards of equal size (+-1), shuffle the shards and give each node k of them.
 * With k = 2 most nodes see two classes.
 */
Partition PartitionShards(const Dataset& data,
                          uint32_t nodes,
                          uint32_t shardsPerNode,
                          uint64_t seed);

/**
 * Dirichlet label skew (Hsu et al. 2019): for each class draw proportions over the nodes from
 * Dir(alpha) and split that class's shuffled samples accordingly. Small alpha: strong skew.
 */
Partition PartitionDirichlet(const Dataset& data, uint32_t nodes, double alpha, uint64_t seed);

/**
 * Data skew of the Sparse-Push paper (Aketi et al. 2021): a fraction `skew` of the samples,
 * chosen at random, is sorted by label and dealt out in contiguous blocks, one per node; the
 * rest is dealt IID. skew = 0 is IID, skew = 1 is fully label-sorted.
 */
Partition PartitionSkew(const Dataset& data, uint32_t nodes, double skew, uint64_t seed);

} // namespace ns3

#endif // DLSIM_PARTITIONER_H
