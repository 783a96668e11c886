// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "figure-labels.h"

#include "algorithm-registry.h"
#include "random-variable-spec.h"
#include "scenario-config.h"
#include "swept-values.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// Whether `key` belongs to another algorithm than the run's (from the registrations).
bool
IsOtherAlgorithmsKey(const RunRecord& run, const std::string& key)
{
    const std::vector<std::string> owners = AlgorithmsOfKey(key);
    return !owners.empty()
           && std::find(owners.begin(), owners.end(), run.config.at("algorithm")) == owners.end();
}

/// `text` as a number when all of it is one.
std::optional<double>
WholeNumber(const std::string& text)
{
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
    {
        return std::nullopt;
    }
    return value;
}

/// A number in 3 significant digits; anything else (a range PointLabel made) as it is.
std::string
ThreeDigits(const std::string& text)
{
    const auto value = WholeNumber(text);
    if (!value)
    {
        return text;
    }
    std::ostringstream o;
    o << std::setprecision(3) << *value;
    return o.str();
}

/// A key's value for a legend: what `auto` resolved to in the run, in 3 significant digits.
std::string
Shown(const RunRecord& run, const std::string& key)
{
    const std::string& value = run.config.at(key);
    auto it = run.resolved.find(key);
    if (value != "auto" || it == run.resolved.end())
    {
        return value;
    }
    return ThreeDigits(it->second);
}

/**
 * An algorithm's short name with the parameters that matter for it, for legends; `used`
 * receives the keys shown, so that an axis among them is not repeated. `compact`: for the
 * paper style.
 */
std::string
AlgorithmLabel(const RunRecord& run, std::set<std::string>& used, bool compact)
{
    const std::string& a = run.config.at("algorithm");
    // The registration's legend, from the values the run used (a tuned gamma, not "auto").
    std::map<std::string, std::string> config = run.config;
    const AlgorithmRegistration* registration = AlgorithmRegistry::Find(a);
    if (registration)
    {
        for (const AlgorithmKey& key : registration->keys)
        {
            if (config.count(key.name))
            {
                config[key.name] = Shown(run, key.name);
            }
        }
    }
    std::string label = AlgorithmFigureLabel(config);
    // Keys the legend shows are not repeated as axes; others of the algorithm's keys are.
    if (registration)
    {
        for (const AlgorithmKey& key : registration->keys)
        {
            if (config.count(key.name) && label.find(config.at(key.name)) != std::string::npos)
            {
                used.insert(key.name);
            }
        }
    }
    if (compact)
    {
        // A one-column figure's legend has room for about 40 characters.
        for (const auto& [full, shorter] :
             {std::pair<std::string, std::string>{"CHOCO-SGD", "CHOCO"},
              {"random sampling", "rand. sampling"}})
        {
            if (label.rfind(full, 0) == 0)
            {
                label = shorter + label.substr(full.size());
            }
        }
    }
    return label;
}

} // namespace

std::string
RunLabel(const RunRecord& run,
         const std::vector<std::string>& axes,
         const std::set<std::string>& skip,
         bool compact)
{
    std::set<std::string> used;
    std::string label = AlgorithmLabel(run, used, compact);
    for (const auto& axis : axes)
    {
        if (axis == "algorithm" || skip.count(axis) || used.count(axis)
            || IsOtherAlgorithmsKey(run, axis))
        {
            continue;
        }
        const std::string value = Shown(run, axis);
        if (!NumericColumnSuffix(axis).empty() && !IsRandomVariableSpec(value))
        {
            label += ", " + value;
            continue;
        }
        auto lastPart = [](const std::string& key)
        {
            return key.substr(key.rfind('.') + 1);
        };
        const bool shared = std::count_if(axes.begin(),
                                          axes.end(),
                                          [&](const std::string& other)
                                          { return lastPart(other) == lastPart(axis); })
                            > 1;
        label += ", " + (shared ? axis : lastPart(axis)) + " " + value;
    }
    return label;
}

std::string
PointLabel(const std::vector<RunRecord>& runs,
           const std::vector<std::string>& axes,
           const std::set<std::string>& skip,
           bool compact)
{
    RunRecord merged = runs.at(0);
    for (auto& [key, value] : merged.resolved)
    {
        // By value, not by text: 0.25 and 0.250 are one value.
        std::map<double, std::string> shown;
        for (const auto& run : runs)
        {
            const auto it = run.resolved.find(key);
            const std::string text = it == run.resolved.end() ? "" : ThreeDigits(it->second);
            const auto number = WholeNumber(text);
            if (!number)
            {
                shown.clear(); // not a number in every run: the first run's, as RunLabel shows
                break;
            }
            shown.emplace(*number, text);
        }
        if (shown.size() > 1)
        {
            value = shown.begin()->second + "-" + shown.rbegin()->second;
        }
    }
    return RunLabel(merged, axes, skip, compact);
}

std::string
SeedCountText(size_t fewest, size_t most)
{
    return (fewest == most ? std::to_string(most)
                           : std::to_string(fewest) + " to " + std::to_string(most))
           + " seeds";
}

} // namespace ns3
