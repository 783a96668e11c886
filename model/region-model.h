// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Geo-distributed learners: regions, the one-way latencies between them, and who is where.
 */
#ifndef DLSIM_REGION_MODEL_H
#define DLSIM_REGION_MODEL_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// Regions and the one-way latency between each pair of them (symmetric, seconds).
struct LatencyMatrix
{
    std::vector<std::string> names;           ///< the regions
    std::vector<std::vector<double>> seconds; ///< seconds[a][b]: one way from a to b
};

/**
 * The built-in example: six cloud regions (US East, US West, Ireland, Singapore, Tokyo,
 * Sao Paulo) with one-way latencies of half the average round-trip times published for the
 * AWS regions of those places (see the module documentation, section Underlays, for the
 * source and how the table was reduced).
 * \return the matrix
 */
LatencyMatrix BuiltinRegionLatencies();

/**
 * A CSV matrix of one-way latencies in milliseconds: a header "region,NAME1,NAME2,...", then
 * one row per region in the same order, "NAMEk,v1,v2,...". It must be square and symmetric,
 * with distinct names and a zero diagonal; errors name the key (regions.latency), the file and the
 * line.
 * \param path the file
 * \return the matrix
 */
LatencyMatrix ReadLatencyMatrix(const std::string& path);

/**
 * \param matrix the regions
 * \param count how many to keep (0: all)
 * \return the first `count` regions of `matrix`
 * \throws ConfigValueError naming regions.count when there are fewer
 */
LatencyMatrix FirstRegions(const LatencyMatrix& matrix, uint32_t count);

/**
 * Which region each of `learners` learners is in: "round-robin" (learner i in region i mod R),
 * "random" (uniform, from `rng`) or "file" (CSV "node,region", region by name or index, every
 * learner once, read from `path`). A region without learners still forwards the traffic of
 * the others over its WAN links.
 * \param mode "round-robin", "random" or "file"
 * \param learners the number of learners
 * \param regions the regions
 * \param rng the stream of "random"
 * \param path the file of "file"
 * \return each learner's region
 */
std::vector<uint32_t> AssignRegions(const std::string& mode,
                                    uint32_t learners,
                                    const LatencyMatrix& regions,
                                    Ptr<UniformRandomVariable> rng,
                                    const std::string& path);

} // namespace ns3

#endif // DLSIM_REGION_MODEL_H
