// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "scenario-grid.h"

#include "result-files.h"
#include "swept-values.h"
#include "value-text.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// The seeds of a seed axis with `repeat` runs from each listed seed.
std::vector<std::string>
RepeatedSeeds(const ScenarioConfig& config, uint64_t repeat)
{
    // The largest seed a run takes (the runner's `seed` is a 32-bit ns-3 seed).
    const uint64_t largest = UINT32_MAX;
    std::vector<std::string> seeds;
    std::map<uint64_t, uint64_t> listedFor; // each seed run, and the listed seed it came from
    for (const auto& listed : SplitGridValues(config.GetString("seed")))
    {
        // Read as the run reads its seed, so that a bad one is named the same way.
        ScenarioConfig one = config;
        one.Set("seed", listed);
        const uint64_t first = one.GetUint("seed", 1, largest);
        if (first > largest - (repeat - 1))
        {
            throw ScenarioError("repeat: " + std::to_string(repeat) + " runs from seed "
                                + std::to_string(first) + " would go beyond the largest seed, "
                                + std::to_string(largest));
        }
        for (uint64_t s = first; s < first + repeat; ++s)
        {
            auto [at, added] = listedFor.emplace(s, first);
            if (!added)
            {
                throw ScenarioError("repeat: " + std::to_string(repeat) + " runs from seed "
                                    + std::to_string(at->second) + " and from seed "
                                    + std::to_string(first) + " would both run seed "
                                    + std::to_string(s) + "; list seeds at least "
                                    + std::to_string(repeat) + " apart");
            }
            seeds.push_back(std::to_string(s));
        }
    }
    return seeds;
}

} // namespace

std::vector<std::string>
AxisValues(const ScenarioConfig& config, const std::string& key)
{
    if (key == "seed")
    {
        const uint64_t repeat = config.GetUint("repeat", 1, kMaxRepeat);
        if (repeat > 1)
        {
            return RepeatedSeeds(config, repeat);
        }
    }
    return SplitGridValues(config.GetString(key));
}

std::vector<std::string>
GridAxes(const ScenarioConfig& config)
{
    std::vector<std::string> axes;
    for (const auto& key : ScenarioKeys())
    {
        if (AxisValues(config, key.name).size() > 1)
        {
            axes.push_back(key.name);
        }
    }
    return axes;
}

std::vector<GridPoint>
ExpandGrid(const ScenarioConfig& config)
{
    std::vector<std::string> axes = GridAxes(config);
    std::vector<std::vector<std::string>> values;
    for (const auto& axis : axes)
    {
        values.push_back(AxisValues(config, axis));
        for (const auto& v : values.back())
        {
            if (v.empty())
            {
                throw ScenarioError(axis + ": empty value in the list '"
                                    + ShownText(config.GetString(axis)) + "'");
            }
        }
        // Two values the key reads alike (0.01 and 0.010, 1Mbps and 1000kbps) would run one
        // point twice under two names.
        const std::vector<std::string>& list = values.back();
        for (size_t i = 0; i < list.size(); ++i)
        {
            for (size_t j = i + 1; j < list.size(); ++j)
            {
                if (SameSweptValue(axis, list[i], list[j]))
                {
                    throw ScenarioError(axis + ": the values '" + ShownText(list[i]) + "' and '"
                                        + ShownText(list[j])
                                        + "' are the same; a grid runs each value once");
                }
            }
        }
    }
    if (axes.empty())
    {
        return {GridPoint{{}, config, ""}};
    }
    std::vector<std::vector<std::string>> owners;
    for (const auto& axis : axes)
    {
        owners.push_back(AlgorithmsOfKey(axis));
    }
    std::vector<GridPoint> points;
    std::vector<size_t> index(axes.size(), 0);
    std::set<std::string> names;
    while (true)
    {
        GridPoint point{{}, config, ""};
        for (size_t a = 0; a < axes.size(); ++a)
        {
            point.config.Set(axes[a], values[a][index[a]]);
        }
        // An axis of one algorithm's key (choco.gamma, choco.lr) varies only that algorithm's
        // points: the others keep the key's default and are made once.
        bool repeated = false; // another algorithm's axis off its first value: a made point
        for (size_t a = 0; a < axes.size(); ++a)
        {
            if (!owners[a].empty()
                && std::find(
                       owners[a].begin(), owners[a].end(), point.config.GetString("algorithm"))
                       == owners[a].end())
            {
                repeated = repeated || index[a] != 0;
                point.config.Set(axes[a], FindScenarioKey(axes[a])->defaultValue);
                continue;
            }
            const std::string& v = values[a][index[a]];
            point.values.emplace_back(axes[a], v);
            point.name += (point.name.empty() ? "" : "_") + SafeFileName(axes[a] + "=" + v);
        }
        point.config.Set("repeat", "1");
        if (!repeated)
        {
            if (!names.insert(point.name).second)
            {
                throw ScenarioError("two grid points would share the run folder '" + point.name
                                    + "' (repeated values?)");
            }
            if (!point.name.empty()) // else every axis belongs to other algorithms: one run
            {
                point.config.Set("out", config.GetString("out") + "/" + point.name);
            }
            points.push_back(point);
        }
        // Odometer: the last axis turns fastest.
        size_t a = axes.size();
        while (a > 0 && ++index[a - 1] == values[a - 1].size())
        {
            index[--a] = 0;
        }
        if (a == 0)
        {
            break;
        }
    }
    return points;
}

} // namespace ns3
