// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "region-model.h"

#include "csv-rows.h"
#include "random-variable-spec.h"

#include <algorithm>
#include <cmath>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

LatencyMatrix
BuiltinRegionLatencies()
{
    // One-way milliseconds: half the average round trips between the AWS regions in N.
    // Virginia, N. California, Ireland, Singapore, Tokyo and Sao Paulo (module doc, Underlays).
    LatencyMatrix m;
    m.names = {"us-east", "us-west", "eu-west", "ap-singapore", "ap-tokyo", "sa-east"};
    const double ms[6][6] = {
        {0, 36.09, 40.27, 108.35, 72.65, 59.75},
        {36.09, 0, 76.60, 86.98, 51.25, 96.35},
        {40.27, 76.60, 0, 119.28, 106.20, 95.65},
        {108.35, 86.98, 119.28, 0, 36.90, 164.05},
        {72.65, 51.25, 106.20, 36.90, 0, 128.40},
        {59.75, 96.35, 95.65, 164.05, 128.40, 0},
    };
    m.seconds.assign(6, std::vector<double>(6, 0.0));
    for (int i = 0; i < 6; ++i)
    {
        for (int j = 0; j < 6; ++j)
        {
            m.seconds[i][j] = ms[i][j] * 1e-3;
        }
    }
    return m;
}

LatencyMatrix
ReadLatencyMatrix(const std::string& path)
{
    const std::string key = "regions.latency";
    std::vector<CsvRow> rows = ReadCsvRows(key, path, "", 0);
    if (rows.empty())
    {
        throw ConfigValueError(key + " " + path + ": no rows");
    }
    LatencyMatrix m;
    // The first row is the header: "region,NAME1,...".
    const CsvRow& header = rows.front();
    if (header.fields.size() < 2)
    {
        throw ConfigValueError(header.where + ": expected a header 'region,NAME1,NAME2,...'");
    }
    m.names.assign(header.fields.begin() + 1, header.fields.end());
    const size_t r = m.names.size();
    for (size_t i = 0; i < r; ++i)
    {
        // Regions are named in regions.file and links.csv: a name must say which one.
        auto first = std::find(m.names.begin(), m.names.end(), m.names[i]);
        if (first - m.names.begin() < static_cast<std::ptrdiff_t>(i))
        {
            throw ConfigValueError(header.where + ": region '" + m.names[i]
                                   + "' is named twice (columns "
                                   + std::to_string(first - m.names.begin() + 2) + " and "
                                   + std::to_string(i + 2) + ")");
        }
    }
    if (rows.size() != r + 1)
    {
        throw ConfigValueError(key + " " + path + ": the header names " + std::to_string(r)
                               + " regions but there are " + std::to_string(rows.size() - 1)
                               + " rows");
    }
    m.seconds.assign(r, std::vector<double>(r, 0.0));
    for (size_t i = 0; i < r; ++i)
    {
        const CsvRow& row = rows[i + 1];
        if (row.fields.size() != r + 1)
        {
            throw ConfigValueError(row.where + ": expected " + std::to_string(r + 1) + " fields");
        }
        if (row.fields[0] != m.names[i])
        {
            throw ConfigValueError(row.where + ": row " + std::to_string(i + 1) + " is '"
                                   + row.fields[0] + "' but the header's region "
                                   + std::to_string(i + 1) + " is '" + m.names[i] + "'");
        }
        for (size_t j = 0; j < r; ++j)
        {
            m.seconds[i][j]
                = ParseNumber(row.where, row.fields[j + 1], 0.0, kMaxLatencySeconds * 1e3) * 1e-3;
        }
        // Learners of one region meet at its router: the diagonal is no link, and a value
        // there would be silently ignored.
        if (m.seconds[i][i] != 0.0)
        {
            throw ConfigValueError(row.where + ": the latency from " + m.names[i] + " to itself is "
                                   + row.fields[i + 1]
                                   + " ms; the diagonal must be 0 (learners of one region meet "
                                     "at its router)");
        }
    }
    for (size_t i = 0; i < r; ++i)
    {
        for (size_t j = i + 1; j < r; ++j)
        {
            if (std::fabs(m.seconds[i][j] - m.seconds[j][i]) > 1e-9)
            {
                throw ConfigValueError(rows[j + 1].where + ": not symmetric: " + m.names[i] + " to "
                                       + m.names[j] + " differs from " + m.names[j] + " to "
                                       + m.names[i] + " (a point-to-point link has one delay)");
            }
        }
    }
    return m;
}

LatencyMatrix
FirstRegions(const LatencyMatrix& matrix, uint32_t count)
{
    if (count == 0)
    {
        return matrix;
    }
    if (count > matrix.names.size())
    {
        throw ConfigValueError("regions.count: " + std::to_string(count)
                               + " regions asked for, but the latency matrix has "
                               + std::to_string(matrix.names.size()));
    }
    LatencyMatrix m;
    m.names.assign(matrix.names.begin(), matrix.names.begin() + count);
    for (uint32_t i = 0; i < count; ++i)
    {
        m.seconds.emplace_back(matrix.seconds[i].begin(), matrix.seconds[i].begin() + count);
    }
    return m;
}

std::vector<uint32_t>
AssignRegions(const std::string& mode,
              uint32_t learners,
              const LatencyMatrix& regions,
              Ptr<UniformRandomVariable> rng,
              const std::string& path)
{
    const auto r = static_cast<uint32_t>(regions.names.size());
    std::vector<uint32_t> regionOf(learners, 0);
    if (mode == "round-robin")
    {
        for (uint32_t i = 0; i < learners; ++i)
        {
            regionOf[i] = i % r;
        }
        return regionOf;
    }
    if (mode == "random")
    {
        for (uint32_t i = 0; i < learners; ++i)
        {
            regionOf[i] = rng->GetInteger(0, r - 1);
        }
        return regionOf;
    }
    if (mode != "file")
    {
        throw ConfigValueError("regions.assign: '" + ShownText(mode)
                               + "' is not one of round-robin, random, file");
    }
    if (path.empty())
    {
        throw ConfigValueError("regions.assign = file needs regions.file");
    }
    return ReadNodeAssignment(
        "regions.file",
        path,
        learners,
        [&](const CsvRow& row)
        {
            auto named = std::find(regions.names.begin(), regions.names.end(), row.fields[1]);
            if (named != regions.names.end())
            {
                return static_cast<uint32_t>(named - regions.names.begin());
            }
            if (!row.fields[1].empty()
                && row.fields[1].find_first_not_of("0123456789") == std::string::npos)
            {
                return static_cast<uint32_t>(ParseIndex(row.where, row.fields[1], r - 1));
            }
            throw ConfigValueError(row.where + ": unknown region '" + row.fields[1] + "'");
        });
}

} // namespace ns3
