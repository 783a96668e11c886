// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Seeded ways of dealing a training set out to the nodes, and the registry of partition
 * schemes the `partition` key names.
 */
#ifndef DLSIM_PARTITIONER_H
#define DLSIM_PARTITIONER_H

#include "dataset.h"
#include "registry.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dlsim
{

/// Sample indices held by each node: result[node] lists indices into the training set.
using Partition = std::vector<std::vector<uint32_t>>;

/**
 * \brief Shuffle, then deal equal parts (sizes differ by at most one; every sample is used).
 * \param data the training set
 * \param nodes the number of nodes
 * \param seed seeds the shuffle
 * \return each node's sample indices
 */
Partition PartitionIid(const Dataset& data, uint32_t nodes, uint64_t seed);

/**
 * Label-sorted shards (McMahan et al.): sort samples by label, cut them into nodes * k
 * contiguous shards of equal size (+-1), shuffle the shards and give each node k of them.
 * With k = 2 most nodes see two classes.
 * \param data the training set
 * \param nodes the number of nodes
 * \param shardsPerNode k
 * \param seed seeds the shuffle
 * \return each node's sample indices
 */
Partition PartitionShards(const Dataset& data,
                          uint32_t nodes,
                          uint32_t shardsPerNode,
                          uint64_t seed);

/**
 * Dirichlet label skew (Hsu et al. 2019): for each class draw proportions over the nodes from
 * Dir(alpha) and split that class's shuffled samples accordingly. Small alpha: strong skew.
 * \param data the training set
 * \param nodes the number of nodes
 * \param alpha the Dirichlet concentration
 * \param seed seeds the draws
 * \return each node's sample indices
 */
Partition PartitionDirichlet(const Dataset& data, uint32_t nodes, double alpha, uint64_t seed);

/**
 * Data skew of the Sparse-Push paper (Aketi et al. 2021): a fraction `skew` of the samples,
 * chosen at random, is sorted by label and dealt out in contiguous blocks, one per node; the
 * rest is dealt IID. skew = 0 is IID, skew = 1 is fully label-sorted.
 * \param data the training set
 * \param nodes the number of nodes
 * \param skew the fraction sorted by label, in [0, 1]
 * \param seed seeds the draws
 * \return each node's sample indices
 */
Partition PartitionSkew(const Dataset& data, uint32_t nodes, double skew, uint64_t seed);

/// One line of a partition file: node `node` trains on training sample `sample`.
struct PartitionEntry
{
    uint64_t node = 0;   ///< 0-based learner index
    uint64_t sample = 0; ///< 0-based, in the order of the dataset's files
    std::string where;   ///< the file and line, for messages ("partition.file parts.csv:7")
};

/**
 * The partition a list of (node, sample) entries gives, each node's samples in the order of the
 * list. Every sample must be below `samples` (the training set's size; SIZE_MAX checks everything
 * else before the data is loaded), every node below `nodes`, and every node 0..nodes-1 needs at
 * least one sample; a node listing the same sample twice is an error. A sample may belong to
 * several nodes (each trains on it, as separate subsets of one dataset would) or to none. Throws
 * DatasetError naming the entry's `where` (the first offending line), or `source` for a node
 * without samples.
 * \param entries the (node, sample) entries
 * \param nodes the number of nodes
 * \param samples the training set's size (SIZE_MAX: not known yet)
 * \param source names the list in messages
 * \return each node's sample indices
 */
Partition PartitionFromEntries(const std::vector<PartitionEntry>& entries,
                               uint32_t nodes,
                               size_t samples,
                               const std::string& source);

/// How a partition covers a training set of `samples` samples: for the log of partition files.
struct PartitionCoverage
{
    size_t entries = 0; ///< (node, sample) pairs
    size_t shared = 0;  ///< samples held by more than one node
    size_t unused = 0;  ///< samples held by no node
};

/**
 * \param partition each node's sample indices
 * \param samples the training set's size
 * \return how it covers the training set
 */
PartitionCoverage CoverageOf(const Partition& partition, size_t samples);

/**
 * Everything dlsim knows about one partition scheme: the value of the `partition` key, its keys
 * (in the order scenarios and `--help` list them), a line of help, and its factory. A scheme
 * registered by a program (DLSIM_REGISTER_PARTITION) is selectable by name like dlsim's own.
 */
struct PartitionRegistration
{
    static constexpr const char* kKind = "partition"; ///< the registry's kind, for messages
    /// \return dlsim's own schemes: iid, shards, dirichlet, skew, file (see Registry)
    static std::vector<PartitionRegistration> Builtins();

    std::string name;               ///< the value of the `partition` key
    std::vector<AlgorithmKey> keys; ///< its keys, in the order scenarios and `--help` list them
    /// What it does, for `--help` and the `partition` key's help.
    std::string help;
    /// Deal `train` out to `nodes` nodes; every node needs at least one sample.
    std::function<Partition(const RegisteredParameters& parameters,
                            const Dataset& train,
                            uint32_t nodes,
                            uint64_t seed)>
        create;
    /// Optional: check the scheme's own input (a file) before any data is loaded, so that a
    /// run fails before it writes anything.
    std::function<void(const RegisteredParameters& parameters, uint32_t nodes)> check;
    /// Optional: a line for the run's log about the partition made (where it came from).
    std::function<std::string(
        const RegisteredParameters& parameters, const Partition& partition, size_t samples)>
        describe;
};

/// Every known scheme: dlsim's own, then any a program registers (DLSIM_REGISTER_PARTITION).
using PartitionRegistry = Registry<PartitionRegistration>;

/**
 * The rows 'node,sample' of the CSV file `path` (named by scenario key `key`) as a partition of
 * `samples` training samples over `nodes` nodes (see PartitionFromEntries). Throws
 * ConfigValueError or DatasetError naming the key, the file and the line.
 * \param key the scenario key that names the file, for messages
 * \param path the file
 * \param nodes the number of nodes
 * \param samples the training set's size (SIZE_MAX: not known yet)
 * \return each node's sample indices
 */
Partition ReadPartitionFile(const std::string& key,
                            const std::string& path,
                            uint32_t nodes,
                            size_t samples);

} // namespace dlsim

/// Register the partition scheme `function()` describes (see DLSIM_REGISTER in registry.h).
#define DLSIM_REGISTER_PARTITION(function) DLSIM_REGISTER(dlsim::PartitionRegistration, function)

#endif // DLSIM_PARTITIONER_H
