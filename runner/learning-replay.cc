// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learning-replay.h"

#include "algorithm-registry.h"
#include "round-policy.h"

#include <filesystem>
#include <map>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

const char* const kLearningRecordFile = "learning.rec";

std::string
LearningKeys(const ScenarioConfig& config)
{
    std::ostringstream text;
    for (const ScenarioKey& key : ScenarioKeys())
    {
        // The budget decides how many rounds of the learning run, as the network does; the
        // rounds themselves do not depend on it (a replay checks that it holds enough of them).
        if (ChangesResults(key.name) && !key.network && key.name != "rounds.duration")
        {
            text << key.name << " = " << config.GetString(key.name) << "\n";
        }
    }
    // Attribute defaults reach any model, the learners' included: they count as learning keys.
    for (const auto& [name, value] : config.GetNs3Attributes())
    {
        text << "ns3." << name << " = " << value << "\n";
    }
    return text.str();
}

std::string
ReplayObstacle(const ScenarioConfig& config)
{
    auto isDefault = [&config](const std::string& key)
    {
        return config.GetString(key) == FindScenarioKey(key)->defaultValue;
    };
    const std::string& mode = config.GetString("rounds.mode");
    if (const RoundModeRegistration* registration = RoundModeRegistry::Find(mode))
    {
        // Only whether there is a timeout matters to the policy's answer, not its length.
        RoundPolicySettings settings;
        settings.timeout = isDefault("rounds.timeout") ? Time::Max() : Seconds(1);
        if (!registration->create(settings)->WaitsForEveryMessage())
        {
            return "rounds.mode = " + mode
                   + ": what a learner aggregates depends on when messages arrive";
        }
    }
    const std::string& algorithm = config.GetString("algorithm");
    if (const AlgorithmRegistration* registration = AlgorithmRegistry::Find(algorithm);
        registration && registration->answersMessages)
    {
        return "algorithm = " + algorithm
               + ": a node's model changes whenever a neighbour's exchange arrives";
    }
    if (!isDefault("eval.interval"))
    {
        return "eval.interval: evaluations at times see rounds the network paces";
    }
    if (config.GetString("compute.model") == "measured")
    {
        return "compute.model = measured: compute times are measured afresh";
    }
    for (const ScenarioKey& key : ScenarioKeys())
    {
        if (key.name.rfind("faults.", 0) == 0 && key.name != "faults.mean_down"
            && !isDefault(key.name))
        {
            return key.name + ": faults cut rounds short";
        }
    }
    return "";
}

std::vector<size_t>
ReplaySources(const std::vector<GridPoint>& points)
{
    std::vector<size_t> sources(points.size());
    std::map<std::string, size_t> trainer; // LearningKeys -> the point that trains
    for (size_t i = 0; i < points.size(); ++i)
    {
        sources[i] = i;
        if (!ReplayObstacle(points[i].config).empty())
        {
            continue;
        }
        const auto [it, first] = trainer.emplace(LearningKeys(points[i].config), i);
        sources[i] = it->second;
    }
    return sources;
}

namespace
{

/// The first key whose line differs between two LearningKeys texts, as "key (a here, b there)".
std::string
FirstDifference(const std::string& recorded, const std::string& asked)
{
    auto parse = [](const std::string& text)
    {
        std::map<std::string, std::string> values;
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
        {
            const size_t eq = line.find(" = ");
            if (eq != std::string::npos)
            {
                values[line.substr(0, eq)] = line.substr(eq + 3);
            }
        }
        return values;
    };
    const auto a = parse(recorded);
    const auto b = parse(asked);
    for (const auto& [key, value] : b)
    {
        const auto it = a.find(key);
        if (it == a.end() || it->second != value)
        {
            return key + " (recorded: " + (it == a.end() ? "not set" : "'" + it->second + "'")
                   + ", asked: '" + value + "')";
        }
    }
    for (const auto& [key, value] : a)
    {
        if (b.find(key) == b.end())
        {
            return key + " (recorded: '" + value + "', asked: not set)";
        }
    }
    return "";
}

} // namespace

std::shared_ptr<const LearningRecord>
LoadRecordFor(const std::string& folder, const ScenarioConfig& config)
{
    if (const std::string why = ReplayObstacle(config); !why.empty())
    {
        throw ScenarioError("cannot replay " + folder + ": " + why);
    }
    if (!std::filesystem::is_directory(folder))
    {
        throw ScenarioError("cannot replay " + folder + ": no such run folder");
    }
    const std::string path = folder + "/" + kLearningRecordFile;
    if (!std::filesystem::exists(path))
    {
        throw ScenarioError("cannot replay " + folder + ": it holds no " + kLearningRecordFile
                            + " (only a finished run in synchronous rounds, evaluated by rounds "
                              "and without faults, records its learning)");
    }
    auto record = std::make_shared<LearningRecord>(ReadLearningRecord(path));
    const std::string asked = LearningKeys(config);
    if (record->learning != asked)
    {
        const std::string key = FirstDifference(record->learning, asked);
        throw ScenarioError("cannot replay " + folder + ": "
                            + (key.empty() ? std::string("its learning keys differ")
                                           : key + " changes what is learned")
                            + "; a replay changes only network keys (the underlay's, link.*, "
                              "cross.*, trace.*, tcp.*, capture.*)");
    }
    // The resolved values come from the file and go into config.ini and summary.json: each must
    // be a key this scenario leaves to the overlay, with a value that key accepts.
    for (const auto& [key, value] : record->resolved)
    {
        if (!FindScenarioKey(key) || config.GetString(key) != "auto")
        {
            throw ScenarioError("cannot replay " + folder + ": its recording resolves " + key
                                + ", which this scenario does not leave to the overlay");
        }
        try
        {
            if (value == "auto")
            {
                throw std::invalid_argument("auto is what is resolved");
            }
            // The algorithm's own check of the key and the value.
            AlgorithmRegistry::Parameters(config.GetString("algorithm"), {{key, value}}, 1);
        }
        catch (const std::exception& e)
        {
            throw ScenarioError("cannot replay " + folder + ": its recording resolves " + key
                                + " to '" + value + "', not a value of that key (" + e.what()
                                + ")");
        }
    }
    return record;
}

void
CheckNotTheSource(const std::string& out, const std::string& source)
{
    std::error_code outError;
    std::error_code sourceError;
    const std::filesystem::path a = std::filesystem::weakly_canonical(out, outError);
    const std::filesystem::path b = std::filesystem::weakly_canonical(source, sourceError);
    if (!outError && !sourceError && a == b)
    {
        throw ScenarioError("out: " + out + " is the run folder whose recording is replayed ("
                            + source + "); give another");
    }
}

bool
CanReplay(const std::string& folder, const ScenarioConfig& config)
{
    try
    {
        LoadRecordFor(folder, config);
        return true;
    }
    catch (const std::exception&)
    {
        return false;
    }
}

} // namespace ns3
