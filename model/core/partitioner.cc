// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "partitioner.h"

#include "csv-rows.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <tuple>

namespace dlsim
{

namespace
{

void
CheckNodes(const Dataset& data, uint32_t nodes)
{
    if (nodes == 0)
    {
        throw DatasetError("cannot partition a dataset over 0 nodes");
    }
    if (data.Size() < nodes)
    {
        throw DatasetError("dataset " + data.name + " has " + std::to_string(data.Size())
                           + " samples, fewer than the " + std::to_string(nodes) + " nodes");
    }
}

std::vector<uint32_t>
AllIndices(const Dataset& data)
{
    std::vector<uint32_t> all(data.Size());
    std::iota(all.begin(), all.end(), 0u);
    return all;
}

/// Fisher-Yates with our own draws: std::shuffle's use of the engine is implementation-defined.
void
Shuffle(std::vector<uint32_t>& v, std::mt19937_64& rng)
{
    for (size_t i = v.size(); i > 1; --i)
    {
        size_t j = rng() % i;
        std::swap(v[i - 1], v[j]);
    }
}

/// Deal `items` into `parts` contiguous runs whose sizes differ by at most one.
Partition
DealContiguous(const std::vector<uint32_t>& items, uint32_t parts)
{
    Partition result(parts);
    size_t n = items.size();
    for (uint32_t p = 0; p < parts; ++p)
    {
        size_t begin = n * p / parts;
        size_t end = n * (p + 1) / parts;
        result[p].assign(items.begin() + begin, items.begin() + end);
    }
    return result;
}

} // namespace

Partition
PartitionIid(const Dataset& data, uint32_t nodes, uint64_t seed)
{
    CheckNodes(data, nodes);
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> all = AllIndices(data);
    Shuffle(all, rng);
    return DealContiguous(all, nodes);
}

Partition
PartitionShards(const Dataset& data, uint32_t nodes, uint32_t shardsPerNode, uint64_t seed)
{
    CheckNodes(data, nodes);
    if (shardsPerNode == 0 || data.Size() < static_cast<size_t>(nodes) * shardsPerNode)
    {
        throw DatasetError("partition.shards must be at least 1 and nodes * shards at most the "
                           + std::to_string(data.Size()) + " training samples");
    }
    std::vector<uint32_t> sorted = AllIndices(data);
    std::stable_sort(sorted.begin(),
                     sorted.end(),
                     [&data](uint32_t a, uint32_t b) { return data.labels[a] < data.labels[b]; });
    Partition shards = DealContiguous(sorted, nodes * shardsPerNode);
    std::vector<uint32_t> order(shards.size());
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937_64 rng(seed);
    Shuffle(order, rng);
    Partition result(nodes);
    for (uint32_t node = 0; node < nodes; ++node)
    {
        for (uint32_t s = 0; s < shardsPerNode; ++s)
        {
            const auto& shard = shards[order[node * shardsPerNode + s]];
            result[node].insert(result[node].end(), shard.begin(), shard.end());
        }
    }
    return result;
}

Partition
PartitionSkew(const Dataset& data, uint32_t nodes, double skew, uint64_t seed)
{
    CheckNodes(data, nodes);
    if (!(skew >= 0.0 && skew <= 1.0))
    {
        throw DatasetError("partition.skew must lie in [0, 1], got " + std::to_string(skew));
    }
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> all = AllIndices(data);
    Shuffle(all, rng);
    const size_t skewed = static_cast<size_t>(std::llround(skew * all.size()));
    std::vector<uint32_t> sorted(all.begin(), all.begin() + skewed);
    std::vector<uint32_t> rest(all.begin() + skewed, all.end());
    std::stable_sort(sorted.begin(),
                     sorted.end(),
                     [&data](uint32_t a, uint32_t b) { return data.labels[a] < data.labels[b]; });
    Partition blocks = DealContiguous(sorted, nodes);
    Partition iid = DealContiguous(rest, nodes);
    for (uint32_t node = 0; node < nodes; ++node)
    {
        blocks[node].insert(blocks[node].end(), iid[node].begin(), iid[node].end());
        std::sort(blocks[node].begin(), blocks[node].end());
    }
    return blocks;
}

Partition
PartitionDirichlet(const Dataset& data, uint32_t nodes, double alpha, uint64_t seed)
{
    CheckNodes(data, nodes);
    if (!(alpha > 0.0))
    {
        throw DatasetError("partition.alpha must be positive, got " + std::to_string(alpha));
    }
    std::mt19937_64 rng(seed);
    std::vector<std::vector<uint32_t>> byClass(data.numClasses);
    for (uint32_t i = 0; i < data.Size(); ++i)
    {
        byClass[data.labels[i]].push_back(i);
    }
    Partition result(nodes);
    std::gamma_distribution<double> gamma(alpha, 1.0);
    for (auto& members : byClass)
    {
        Shuffle(members, rng);
        std::vector<double> share(nodes);
        double total = 0.0;
        for (double& s : share)
        {
            s = gamma(rng);
            total += s;
        }
        // Cumulative cut points; the last node takes the rounding remainder.
        double cumulative = 0.0;
        size_t begin = 0;
        for (uint32_t node = 0; node < nodes; ++node)
        {
            cumulative += share[node];
            size_t end = node + 1 == nodes
                             ? members.size()
                             : static_cast<size_t>(members.size()
                                                   * (total > 0 ? cumulative / total : 0.0));
            end = std::max(begin, std::min(end, members.size()));
            result[node].insert(result[node].end(), members.begin() + begin, members.begin() + end);
            begin = end;
        }
    }
    for (uint32_t node = 0; node < nodes; ++node)
    {
        if (result[node].empty())
        {
            throw DatasetError("Dirichlet partition with partition.alpha = " + std::to_string(alpha)
                               + " left node " + std::to_string(node)
                               + " without samples; use a larger alpha or fewer nodes");
        }
        std::sort(result[node].begin(), result[node].end());
    }
    return result;
}

Partition
PartitionFromEntries(const std::vector<PartitionEntry>& entries,
                     uint32_t nodes,
                     size_t samples,
                     const std::string& source)
{
    if (nodes == 0)
    {
        throw DatasetError("cannot partition a dataset over 0 nodes");
    }
    Partition result(nodes);
    for (const PartitionEntry& e : entries)
    {
        if (e.node >= nodes)
        {
            throw DatasetError(e.where + ": node " + std::to_string(e.node)
                               + " does not exist: the nodes are 0 to " + std::to_string(nodes - 1)
                               + " (nodes = " + std::to_string(nodes) + ")");
        }
        if (e.sample >= samples || e.sample > UINT32_MAX)
        {
            throw DatasetError(e.where + ": sample " + std::to_string(e.sample)
                               + " is outside the training set, whose samples are 0 to "
                               + std::to_string(samples - 1));
        }
        result[e.node].push_back(static_cast<uint32_t>(e.sample));
    }
    // Duplicates: sort (node, sample, line) and compare neighbours; report the one that comes
    // first in the file.
    std::vector<size_t> order(entries.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(),
              order.end(),
              [&entries](size_t a, size_t b)
              {
                  return std::tie(entries[a].node, entries[a].sample, a)
                         < std::tie(entries[b].node, entries[b].sample, b);
              });
    size_t firstRepeat = entries.size();
    size_t firstOriginal = 0;
    for (size_t k = 1; k < order.size(); ++k)
    {
        const PartitionEntry& a = entries[order[k - 1]];
        const PartitionEntry& b = entries[order[k]];
        if (a.node == b.node && a.sample == b.sample && order[k] < firstRepeat)
        {
            firstRepeat = order[k];
            // The group's first line: walk back over the equal entries before it.
            size_t j = k - 1;
            while (j > 0 && entries[order[j - 1]].node == b.node
                   && entries[order[j - 1]].sample == b.sample)
            {
                --j;
            }
            firstOriginal = order[j];
        }
    }
    if (firstRepeat < entries.size())
    {
        const PartitionEntry& e = entries[firstRepeat];
        throw DatasetError(e.where + ": node " + std::to_string(e.node) + " lists sample "
                           + std::to_string(e.sample) + " a second time (first at "
                           + entries[firstOriginal].where + ")");
    }
    for (uint32_t node = 0; node < nodes; ++node)
    {
        if (result[node].empty())
        {
            throw DatasetError(source + ": node " + std::to_string(node)
                               + " has no samples; every node from 0 to "
                               + std::to_string(nodes - 1) + " needs at least one");
        }
    }
    return result;
}

PartitionCoverage
CoverageOf(const Partition& partition, size_t samples)
{
    PartitionCoverage coverage;
    std::vector<uint32_t> holders(samples, 0);
    for (const auto& part : partition)
    {
        coverage.entries += part.size();
        for (uint32_t i : part)
        {
            if (i < samples)
            {
                holders[i]++;
            }
        }
    }
    for (uint32_t h : holders)
    {
        coverage.shared += h > 1 ? 1 : 0;
        coverage.unused += h == 0 ? 1 : 0;
    }
    return coverage;
}

Partition
ReadPartitionFile(const std::string& key, const std::string& path, uint32_t nodes, size_t samples)
{
    if (path.empty())
    {
        throw ConfigValueError(key
                               + ": partition = file needs a CSV file with lines 'node,sample'");
    }
    std::vector<PartitionEntry> entries;
    for (const CsvRow& row : ReadCsvRows(key, path, "node", 2))
    {
        PartitionEntry entry;
        entry.node = ParseIndex(row.where, row.fields[0], UINT32_MAX);
        entry.sample = ParseIndex(row.where, row.fields[1], UINT32_MAX);
        entry.where = row.where;
        entries.push_back(std::move(entry));
    }
    return PartitionFromEntries(entries, nodes, samples, key + " " + path);
}

std::vector<PartitionRegistration>
PartitionRegistration::Builtins()
{
    PartitionRegistration iid;
    iid.name = "iid";
    iid.help = "shuffled, then dealt in equal parts";
    iid.create
        = [](const RegisteredParameters&, const Dataset& train, uint32_t nodes, uint64_t seed)
    {
        return PartitionIid(train, nodes, seed);
    };

    PartitionRegistration shards;
    shards.name = "shards";
    shards.keys = {AlgorithmKey::WholeNumber(
        "partition.shards", "2", 1, 1000000, "shards per node for partition = shards")};
    shards.help = "label-sorted shards, partition.shards per node";
    shards.create
        = [](const RegisteredParameters& p, const Dataset& train, uint32_t nodes, uint64_t seed)
    {
        return PartitionShards(
            train, nodes, static_cast<uint32_t>(p.GetUint("partition.shards")), seed);
    };

    PartitionRegistration dirichlet;
    dirichlet.name = "dirichlet";
    dirichlet.keys = {AlgorithmKey::Number(
        "partition.alpha", "1.0", 1e-9, 1e9, "concentration for partition = dirichlet")};
    dirichlet.help = "per-class label skew drawn from Dirichlet with partition.alpha";
    dirichlet.create
        = [](const RegisteredParameters& p, const Dataset& train, uint32_t nodes, uint64_t seed)
    {
        return PartitionDirichlet(train, nodes, p.GetDouble("partition.alpha"), seed);
    };

    PartitionRegistration skew;
    skew.name = "skew";
    skew.keys = {AlgorithmKey::Number(
        "partition.skew", "0.8", 0.0, 1.0, "fraction label-sorted for partition = skew")};
    skew.help = "a fraction partition.skew label-sorted, the rest IID";
    skew.create
        = [](const RegisteredParameters& p, const Dataset& train, uint32_t nodes, uint64_t seed)
    {
        return PartitionSkew(train, nodes, p.GetDouble("partition.skew"), seed);
    };

    PartitionRegistration file;
    file.name = "file";
    file.keys = {AlgorithmKey::Path("partition.file",
                                    "",
                                    "CSV 'node,sample' for partition = file: each node's training "
                                    "samples (0-based, in the dataset's file order)")};
    file.help = "each node's samples from the CSV partition.file";
    file.create = [](const RegisteredParameters& p, const Dataset& train, uint32_t nodes, uint64_t)
    {
        return ReadPartitionFile(
            "partition.file", p.GetString("partition.file"), nodes, train.Size());
    };
    // SIZE_MAX: everything but the sample range, which needs the data.
    file.check = [](const RegisteredParameters& p, uint32_t nodes)
    {
        ReadPartitionFile("partition.file", p.GetString("partition.file"), nodes, SIZE_MAX);
    };
    file.describe = [](const RegisteredParameters& p, const Partition& partition, size_t samples)
    {
        PartitionCoverage coverage = CoverageOf(partition, samples);
        return std::to_string(coverage.entries) + " (node, sample) pairs from "
               + p.GetString("partition.file") + "; " + std::to_string(coverage.shared)
               + " training samples held by more than one node, " + std::to_string(coverage.unused)
               + " by none";
    };
    return {iid, shards, dirichlet, skew, file};
}

} // namespace dlsim
