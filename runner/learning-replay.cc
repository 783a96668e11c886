// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learning-replay.h"

#include "algorithm-registry.h"
#include "round-policy.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
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
        // The two keys that end a run early decide how long it learns, not what: a replay
        // plays a prefix of a longer recording (or, where it needs more, the point trains).
        if (ChangesResults(key.name) && !key.network && key.name != "rounds.duration"
            && key.name != "rounds.until_target")
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

/// The longest compute time a recording may give a training round, and its run's rounds in
/// all: simulated time is a signed 64-bit count of nanoseconds (292 years), which a sum of
/// rounds must never overflow.
constexpr int64_t kMaxRecordedComputeNs = 1000000LL * 1000000000LL; // 10^6 s
constexpr double kMaxRecordedComputeTotalNs = 1e8 * 1e9;            // 10^8 s, about 3 years

/// The largest payload a recording may give a round (a replay sends that many bytes).
constexpr uint64_t kMaxRecordedPayloadBytes = uint64_t{1} << 32; // 4 GiB

/// A recorded number as a message shows it.
std::string
Number(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

/**
 * Every value of a recording whose checksum holds is still checked, before anything is
 * written: a replay presents them as its results (accuracies, losses) or waits for them
 * (compute times), and its counts must be the ones its configuration makes.
 */
void
CheckRecordedValues(const LearningRecord& record,
                    const ScenarioConfig& config,
                    const std::string& path)
{
    auto refuse = [&path](const std::string& place, const std::string& what)
    {
        throw ScenarioError("cannot replay " + path + ": " + place + ": " + what);
    };
    const uint64_t nodes = config.GetUint("nodes", 2, 100000);
    if (record.nodes.size() != nodes)
    {
        refuse("learner count",
               "the recording holds " + std::to_string(record.nodes.size())
                   + " learners; the scenario has nodes = " + std::to_string(nodes));
    }
    const uint64_t rounds = config.GetUint("rounds", 1, 100000000);
    const uint64_t every = config.GetUint("eval.every", 1, UINT32_MAX);
    const uint64_t evalNodes = config.GetUint("eval.nodes", 0, nodes);
    // A budget (rounds.duration) may have ended the recorded run before `rounds`: the recording
    // holds the rounds it ran, and a replay that needs more stops (RecordingTooShortError).
    const bool budgeted = config.GetString("rounds.duration") != "none"
                          || config.GetString("rounds.until_target") != "none";
    const AlgorithmRegistration* algorithm = AlgorithmRegistry::Find(config.GetString("algorithm"));
    size_t evaluating = 0;
    for (size_t n = 0; n < record.nodes.size(); ++n)
    {
        const RecordedNode& node = record.nodes[n];
        const std::string where = "node " + std::to_string(n);
        if (algorithm && node.directed != algorithm->forDirectedGraphs)
        {
            refuse(where,
                   std::string("the recording marks the algorithm as made for ")
                       + (node.directed ? "directed" : "undirected") + " graphs, but "
                       + algorithm->name + " is made for "
                       + (algorithm->forDirectedGraphs ? "directed" : "undirected")
                       + " ones (a recording of another algorithm, or altered)");
        }
        if (node.trainingRounds != rounds)
        {
            refuse(where,
                   "the recording's training rounds are " + std::to_string(node.trainingRounds)
                       + "; the scenario has rounds = " + std::to_string(rounds));
        }
        if (node.rounds.size() < rounds && !budgeted)
        {
            refuse(where,
                   "the recording holds " + std::to_string(node.rounds.size())
                       + " rounds; the scenario has rounds = " + std::to_string(rounds));
        }
        if (node.computeTimeNs < 0 || node.computeTimeNs > kMaxRecordedComputeNs
            || static_cast<double>(node.computeTimeNs) * static_cast<double>(node.rounds.size())
                   > kMaxRecordedComputeTotalNs)
        {
            refuse(where,
                   "compute time " + std::to_string(node.computeTimeNs)
                       + " ns per round is out of range (0 to 10^6 s a round, 10^8 s over its "
                       + std::to_string(node.rounds.size()) + " rounds)");
        }
        // A NaN or infinite training loss is what diverged training reports; an evaluation
        // after it may report the same, never before.
        std::optional<size_t> diverged;
        for (size_t r = 0; r < node.rounds.size(); ++r)
        {
            const RecordedRound& round = node.rounds[r];
            const std::string at = where + ", round " + std::to_string(r + 1);
            if (round.trains && !std::isnan(round.trainLoss) && round.trainLoss < 0.0)
            {
                refuse(at, "training loss " + Number(round.trainLoss) + " is below 0");
            }
            if (round.trains && !std::isfinite(round.trainLoss) && !diverged)
            {
                diverged = r + 1;
            }
            // (More value bytes than payload bytes the reader refuses as damage.)
            if (round.payloadBytes > kMaxRecordedPayloadBytes)
            {
                refuse(at,
                       "payload of " + std::to_string(round.payloadBytes)
                           + " bytes is out of range (at most 4 GiB)");
            }
        }
        std::set<uint32_t> evaluated;
        for (size_t e = 0; e < node.evaluations.size(); ++e)
        {
            const RecordedEvaluation& evaluation = node.evaluations[e];
            const std::string at = where + ", evaluation " + std::to_string(e + 1)
                                   + " (after round " + std::to_string(evaluation.round) + ")";
            if (evaluation.round > node.rounds.size())
            {
                refuse(at,
                       "the round is beyond the recording's " + std::to_string(node.rounds.size())
                           + " rounds");
            }
            if (!std::isfinite(evaluation.accuracy) || evaluation.accuracy < 0.0
                || evaluation.accuracy > 1.0)
            {
                refuse(at, "accuracy " + Number(evaluation.accuracy) + " is not in [0, 1]");
            }
            const bool afterDivergence = diverged && evaluation.round >= *diverged;
            if ((!std::isfinite(evaluation.loss) && !afterDivergence) || evaluation.loss < 0.0)
            {
                refuse(at,
                       "loss " + Number(evaluation.loss)
                           + " is not a finite number of at least 0 (NaN or infinite only "
                             "after training diverged)");
            }
            evaluated.insert(evaluation.round);
        }
        if (node.evaluations.empty())
        {
            continue;
        }
        ++evaluating;
        // Every eval.every rounds and after the last, as the run evaluates; under a budget the
        // recorded run's last round is the last it evaluated.
        const uint64_t last = budgeted ? *evaluated.rbegin() : rounds;
        for (uint64_t r = every; r <= last + every - 1; r += every)
        {
            const uint64_t round = std::min(r, last);
            if (!evaluated.count(static_cast<uint32_t>(round)))
            {
                refuse(where,
                       "the recording holds no evaluation after round " + std::to_string(round)
                           + ", which the scenario evaluates (eval.every = " + std::to_string(every)
                           + ", rounds = " + std::to_string(rounds) + ")");
            }
        }
    }
    const uint64_t expected = evalNodes == 0 ? nodes : evalNodes;
    if (evaluating != expected)
    {
        refuse("evaluations",
               std::to_string(evaluating)
                   + " learners have evaluations in the recording; the "
                     "scenario evaluates "
                   + std::to_string(expected)
                   + (evalNodes == 0 ? " (every learner)" : " (eval.nodes)"));
    }
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
    CheckRecordedValues(*record, config, path);
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
    // Without a trailing separator, whose empty last element would end neither path early.
    auto folder = [](const std::string& path, std::error_code& error)
    {
        std::filesystem::path p = std::filesystem::weakly_canonical(path, error);
        return p.filename().empty() ? p.parent_path() : p;
    };
    const std::filesystem::path a = folder(out, outError);
    const std::filesystem::path b = folder(source, sourceError);
    if (outError || sourceError)
    {
        return;
    }
    if (a == b)
    {
        throw ScenarioError("out: " + out + " is the run folder whose recording is replayed ("
                            + source + "); give another");
    }
    // A folder inside the recorded run would become part of it (its collect, its copies).
    if (std::mismatch(b.begin(), b.end(), a.begin(), a.end()).first == b.end())
    {
        throw ScenarioError("out: " + out
                            + " is inside the run folder whose recording is replayed (" + source
                            + "); give a folder outside it");
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
