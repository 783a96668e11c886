// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "scenario-config.h"

#include "algorithm-registry.h"
#include "dataset-catalog.h"
#include "learner.h"
#include "network-model.h"
#include "overlay-topologies.h"
#include "partitioner.h"
#include "round-policy.h"
#include "underlay-registry.h"
#include "user-file.h"
#include "value-text.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace po = boost::program_options;

namespace ns3
{

std::vector<std::string>
SplitGridValues(const std::string& value)
{
    std::vector<std::string> parts;
    std::string current;
    int depth = 0;
    auto flush = [&parts, &current]()
    {
        size_t b = current.find_first_not_of(" \t");
        size_t e = current.find_last_not_of(" \t");
        parts.push_back(b == std::string::npos ? "" : current.substr(b, e - b + 1));
        current.clear();
    };
    for (char ch : value)
    {
        depth += ch == '[' ? 1 : ch == ']' ? -1 : 0;
        if (ch == ',' && depth == 0)
        {
            flush();
        }
        else
        {
            current += ch;
        }
    }
    flush();
    return parts;
}

ScenarioKey
PathKey(const std::string& name, const std::string& defaultValue, const std::string& help)
{
    ScenarioKey key{name, defaultValue, help};
    key.path = true;
    return key;
}

ScenarioKey
BookkeepingKey(ScenarioKey key)
{
    key.changesResults = false;
    return key;
}

namespace
{

/// The keys before the round modes' keys.
const std::vector<ScenarioKey>&
RunKeys()
{
    static const std::vector<ScenarioKey> keys = {
        {"nodes",
         "16",
         "number of learners (simulated hosts)",
         {"ns3::LearnerApplication::LearnerId"}},
        {"rounds",
         "100",
         "communication rounds (per learner; at most, with rounds.duration)",
         {"ns3::LearnerApplication::Rounds"}},
    };
    return keys;
}

/// The keys after the round modes' keys and before `algorithm` and its keys.
const std::vector<ScenarioKey>&
SeedKeys()
{
    static const std::vector<ScenarioKey> keys = {
        {"rounds.duration",
         "none",
         "the simulated-time budget of every run, e.g. 1500s: no round starts after it "
         "(learners in synchronous rounds evaluated by rounds agree on a last round, the first "
         "evaluated one at or after the highest running when the budget passes; other round "
         "modes need eval.interval); a target first reached after it is not reached; grid "
         "points still replay (a point whose network runs further than its recording trains); "
         "rounds caps the rounds",
         {"ns3::LearnerApplication::Duration"}},
        {"rounds.until_target",
         "none",
         "end a run once its mean accuracy has been at or above target_accuracy at this many "
         "evaluations in a row, e.g. 3 (learners agree on a last round as under rounds.duration, "
         "and need eval.interval where it does); none: run on to rounds or rounds.duration; grid "
         "points still replay"},
        {"seed",
         "1",
         "seeds everything drawn at random: data split, topology, links, models",
         {"ns3::LearnerApplication::Seed"}},
        BookkeepingKey(
            {"repeat",
             "1",
             "runs of every grid point with seeds seed, seed+1, ..., seed+N-1 (1 to 100; with a "
             "list of seeds, N from each listed one): each seed's run in its own folder, as a seed "
             "axis makes them; points.csv, the grid table and the figures give the mean and 95% "
             "confidence interval over a point's seeds"}),
    };
    return keys;
}

/// The keys after the dataset's, the partition's and the model's keys.
const std::vector<ScenarioKey>&
SetupKeys()
{
    static const std::vector<ScenarioKey> keys = {
        {"model.same_init", "true", "all learners start from the same initial model"},
        PathKey("model.init_file",
                "",
                "initial parameters of every learner: float32 little-endian in registration order "
                "(overrides model.same_init)"),
        {"lr", "0.01", "SGD learning rate"},
        {"momentum", "0", "SGD momentum"},
        {"weight_decay", "0", "SGD weight decay"},
        {"batch_size", "8", "mini-batch size"},
        {"local_steps", "3", "SGD steps per round"},
    };
    return keys;
}

/// The network's own keys after the underlays': the links', the cross traffic's, the rate
/// traces', the captures' and TCP's (ScenarioKey::network, as the underlays' and the network
/// model's are).
const std::vector<ScenarioKey>&
NetworkKeys()
{
    static const std::vector<ScenarioKey> keys = {
        {"link.mtu", "1500", "link MTU in bytes", {"ns3::PointToPointNetDevice::Mtu"}},
        {"link.queue",
         "auto",
         "queue per link direction: auto (bandwidth-delay product of a 100 ms round trip, at "
         "least 8 packets), packets (100p) or bytes (150000B)",
         {"ns3::DropTailQueue<Packet>::MaxSize"}},
        {"link.queue_disc",
         "none",
         "queue discipline in front of every device: none (drop-tail device queue), fq-codel, "
         "codel, pie or fifo"},
        {"link.loss", "0", "probability that a packet is lost, on every link and direction"},
        {"cross.traffic",
         "none",
         "other users' traffic between routers: none, cbr (UDP at cross.rate), onoff or bulk "
         "(TCP)",
         {"ns3::BulkSendApplication::MaxBytes"}},
        {"cross.rate",
         "10Mbps",
         "rate of each cross-traffic flow (while on)",
         {"ns3::OnOffApplication::DataRate"}},
        {"cross.links",
         "[wan, core, router]",
         "link roles that carry one cross flow per direction"},
        {"cross.on",
         "1s",
         "onoff cross traffic: mean on period (exponential), at least 1ms",
         {"ns3::OnOffApplication::OnTime"}},
        {"cross.off",
         "1s",
         "onoff cross traffic: mean off period (exponential), at least 1ms",
         {"ns3::OnOffApplication::OffTime"}},
        PathKey("trace.file",
                "",
                "rate trace for the links of trace.links: CSV 'time_s,rate' (rows at least 1 ms "
                "apart) or Mahimahi (looping)"),
        {"trace.format", "auto", "auto (.csv: CSV, else Mahimahi), csv or mahimahi"},
        {"trace.window", "100ms", "Mahimahi traces: window over which opportunities become a rate"},
        {"trace.links",
         "up",
         "links that follow trace.file: list of link roles (all, up, down, access, core, wan, "
         "router, direct) and link directions FROM:TO named as in links.csv (e.g. 3:core)"},
        BookkeepingKey(
            {"capture.pcap",
             "[]",
             "pcap captures (for Wireshark or tshark) of these link directions, chosen as "
             "trace.links chooses (e.g. [up, wan] or [3:core]): one file capture/FROM_TO.pcap per "
             "direction with the PPP frames the device at FROM sends and receives, as tcpdump on "
             "that interface would; results do not depend on it"}),
        BookkeepingKey(
            {"capture.ascii",
             "[]",
             "ns-3 ASCII traces of these link directions (chosen as capture.pcap): one file "
             "capture/FROM_TO.tr per direction, a line per packet the device at FROM enqueues (+), "
             "sends (-), drops (d) or receives (r), with its headers"}),
        BookkeepingKey(
            {"capture.snaplen",
             "0",
             "bytes of each packet kept in capture.pcap files, at most 262144; 0: whole packets "
             "(the model payloads too: a capture is as large as the traffic; 96 keeps the PPP, IP "
             "and TCP headers)"}),
        BookkeepingKey(
            {"capture.flowmon",
             "false",
             "install ns-3's FlowMonitor on every node and write flowmon.xml (its statistics, "
             "histograms and probes) and flows.csv (per flow: ends, packets, bytes, throughput, "
             "mean delay and jitter, lost packets) when the run finishes"}),
        {"tcp.segment_size",
         "0",
         "TCP MSS in bytes; 0: MTU - 52 (IP, TCP and timestamp headers)",
         {"ns3::TcpSocket::SegmentSize", "ns3::LearnerApplication::TcpSegmentSize"}},
        {"tcp.buffer",
         "4194304",
         "TCP send and receive buffer in bytes",
         {"ns3::TcpSocket::SndBufSize",
          "ns3::TcpSocket::RcvBufSize",
          "ns3::LearnerApplication::TcpBufferSize"}},
        {"tcp.initial_cwnd",
         "10",
         "TCP initial congestion window in segments",
         {"ns3::TcpSocket::InitialCwnd", "ns3::LearnerApplication::TcpInitialCwnd"}},
        {"tcp.profile",
         "linux",
         "TCP: linux (Linux's loss recovery: RACK-TLP, PRR, Linux's RTO formula, quick ACKs, "
         "CUBIC and slow start after idle; within 10% of the Linux kernel, see Timing fidelity "
         "in the doc) or ns3 (ns-3 3.37's own TCP as it is, the default before)",
         {"ns3::LearnerApplication::TcpProfile"}},
        {"tcp.min_rto",
         "auto",
         "TCP minimum retransmission timeout; auto: the profile's (ns3: 1 s, RFC 6298's; linux: "
         "200 ms, added to the smoothed RTT as Linux does)",
         {"ns3::TcpSocketBase::MinRto", "ns3::LearnerApplication::TcpMinRto"}},
        {"tcp.delayed_ack",
         "auto",
         "longest TCP ACK delay; auto: the profile's (ns3: 200 ms; linux: 40 ms); must stay "
         "below tcp.min_rto",
         {"ns3::TcpSocket::DelAckTimeout", "ns3::LearnerApplication::TcpDelAckTimeout"}},
    };
    return keys;
}

/// The keys after the network's: compute times, faults, evaluations, the target, tuning and
/// how a run is carried out. They change what is learned, or when, or nothing (BookkeepingKey).
const std::vector<ScenarioKey>&
StudyKeys()
{
    static const std::vector<ScenarioKey> keys = {
        {"compute.model",
         "flops",
         "flops, fixed or measured (measured is not reproducible)",
         {"ns3::LearnerApplication::ComputeTime"}},
        {"compute.device_gflops",
         "10",
         "device speed in GFLOP/s, or an ns-3 random variable; 1e-9 to 1e15 (as drawn)"},
        PathKey("compute.file",
                "",
                "CSV 'node,gflops' giving every learner's device speed (overrides "
                "compute.device_gflops)"),
        {"compute.step_seconds",
         "0.05",
         "simulated seconds per SGD step for compute.model = fixed"},
        {"compute.measured_scale",
         "1.0",
         "factor on measured CPU time for compute.model = measured",
         {"ns3::LearnerApplication::MeasuredComputeScale"}},
        {"faults.crash",
         "[]",
         "hosts that crash: NODE@DOWN (for good) or NODE@DOWN-UP, e.g. [3@60s, 5@100s-150s]"},
        PathKey("faults.file", "", "CSV 'node,down_s,up_s' of host outages (up_s empty: for good)"),
        PathKey("faults.availability",
                "",
                "trace CSV 'node,online_s,offline_s': the intervals each listed host is on (off "
                "before, between and after them; offline_s empty: on to the end; hosts not listed: "
                "always on)"),
        {"faults.mean_up",
         "none",
         "churn: every host alternates up and down times drawn from exponential "
         "distributions (seeded), starting up; this is the mean up time, e.g. 600s"},
        {"faults.mean_down", "60s", "churn: the mean down time (with faults.mean_up)"},
        {"faults.links",
         "[]",
         "links that fail: A:B@DOWN-UP with the ends named as in links.csv, e.g. [0:1@30s-90s]"},
        {"eval.every",
         "10",
         "evaluate every this many rounds",
         {"ns3::LearnerApplication::EvalEvery"}},
        {"eval.interval",
         "none",
         "evaluate every learner on one clock, every this much simulated time, e.g. 10s, "
         "instead of by rounds (needed by rounds.mode = async); at least 1ms",
         {"ns3::LearnerApplication::EvalInterval"}},
        {"eval.test_samples",
         "0",
         "test samples to evaluate on (the first ones); 0: all",
         {"ns3::LearnerApplication::EvalSamples"}},
        {"eval.on",
         "test",
         "test (the dataset's test set) or validation (eval.validation of the training samples, "
         "drawn with the seed and held out of training: what ./dlsim tune chooses settings on)"},
        {"eval.validation",
         "0.1",
         "eval.on = validation: the fraction of the training samples held out, above 0 and at "
         "most 0.5"},
        {"eval.nodes",
         "0",
         "learners that evaluate, drawn at random; 0: all",
         {"ns3::LearnerApplication::Evaluate"}},
        {"target_accuracy", "0.7", "mean test accuracy whose time and bytes to reach are reported"},
        BookkeepingKey(
            {"tune.lr",
             "[0.01, 0.03, 0.05]",
             "./dlsim tune: learning rates tried for every algorithm (as ALGORITHM.lr)"}),
        BookkeepingKey(
            {"tune.alpha",
             "[]",
             "./dlsim tune: sharing fractions tried for every algorithm that has ALGORITHM.alpha "
             "([]: not tuned)"}),
        BookkeepingKey({"tune.gamma",
                        "[0.1, 0.25, 0.5]",
                        "./dlsim tune: consensus step sizes tried for every algorithm that has "
                        "ALGORITHM.gamma "
                        "(CHOCO-SGD)"}),
        BookkeepingKey({"tune.rounds",
                        "0",
                        "./dlsim tune: rounds of each tuning run (0: the scenario's rounds)"}),
        BookkeepingKey(
            {"run.stall_timeout",
             "auto",
             "stop with an error when no learner completes a round or receives a payload byte for "
             "this long (simulated time; not while a learner trains or a fault holds a host or "
             "link down); auto: 10 times the run's longest round so far, at least 120s"}),
        BookkeepingKey(
            {"run.replay",
             "true",
             "a grid trains once for points that differ only in network keys and replays that "
             "learning over the other points' networks (see the doc's Train once, replay the "
             "network); false: every point trains (the same results, for timing comparisons)"}),
        BookkeepingKey(
            {"run.threads",
             "auto",
             "worker threads that train and evaluate the learners while the simulator runs the "
             "network (auto: every core, divided among the runs a grid runs at once with -j, "
             "counting those that can start; 1: train in the simulator's thread); results do not "
             "depend on it"}),
        BookkeepingKey({"run.time_limit",
                        "none",
                        "stop with an error when the simulated time reaches this before every "
                        "learner finished"}),
        BookkeepingKey({"out", "", "run directory; default results/<scenario name>"}),
    };
    return keys;
}

/// "a, b or c"
std::string
OrList(const std::vector<std::string>& items)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
    {
        out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
    }
    return out;
}

/**
 * The key choosing one of the registrations of a kind (its help lists them, with their help
 * lines), then every registration's keys.
 */
template<typename Registration>
void
AddRegistered(std::vector<ScenarioKey>& keys,
              const std::string& name,
              const std::string& value,
              const std::vector<std::string>& attributes = {})
{
    std::vector<std::string> choices;
    for (const auto& choice : Registry<Registration>::Names())
    {
        const std::string& help = Registry<Registration>::Get(choice).help;
        choices.push_back(help.empty() ? choice : choice + " (" + help + ")");
    }
    keys.push_back({name, value, OrList(choices), attributes});
    for (const auto& key : Registry<Registration>::Keys())
    {
        const bool path = key.type == KeyType::Path;
        keys.push_back({key.name,
                        key.defaultValue,
                        key.help,
                        key.attributes,
                        false,
                        path,
                        path ? key.choices : std::vector<std::string>{}});
    }
}

} // namespace

const ScenarioKey*
FindScenarioKey(const std::string& name)
{
    const auto& keys = ScenarioKeys();
    const auto it = std::find_if(
        keys.begin(), keys.end(), [&name](const ScenarioKey& k) { return k.name == name; });
    return it == keys.end() ? nullptr : &*it;
}

std::vector<std::string>
AlgorithmsOfKey(const std::string& key)
{
    std::vector<std::string> owners;
    for (const auto& name : AlgorithmRegistry::Names())
    {
        const auto& declared = AlgorithmRegistry::Get(name).keys;
        if (key == AlgorithmLearningRateKey(name)
            || std::any_of(declared.begin(),
                           declared.end(),
                           [&key](const AlgorithmKey& k) { return k.name == key; }))
        {
            owners.push_back(name);
        }
    }
    return owners;
}

bool
ChangesResults(const std::string& key)
{
    // As declared with the key (BookkeepingKey); a key this version does not know (a
    // config.ini of another) is taken to change results, so that it is never ignored.
    const auto& keys = ScenarioKeys();
    const auto it = std::find_if(
        keys.begin(), keys.end(), [&key](const ScenarioKey& k) { return k.name == key; });
    return it == keys.end() || it->changesResults;
}

const std::vector<ScenarioKey>&
ScenarioKeys()
{
    // The algorithms', datasets', partitions' and models' keys come from their registrations; a
    // program may register one more after the table was first built, which then rebuilds it.
    static std::vector<ScenarioKey> keys;
    static uint64_t generation = 0;
    if (generation != RegistryGeneration() || keys.empty())
    {
        keys = RunKeys();
        AddRegistered<RoundModeRegistration>(
            keys, "rounds.mode", "sync", {"ns3::LearnerApplication::RoundMode"});
        keys.insert(keys.end(), SeedKeys().begin(), SeedKeys().end());
        AddRegistered<TopologyRegistration>(keys, "topology", "random-regular");
        AddRegistered<AlgorithmRegistration>(keys, "algorithm", "dpsgd");
        for (const auto& name : AlgorithmRegistry::Names())
        {
            // Each algorithm's own learning rate, so that a comparison can give each its best.
            keys.push_back({AlgorithmLearningRateKey(name),
                            "",
                            "learning rate of " + name
                                + "'s runs (empty: lr); a grid axis "
                                  "of it runs only "
                                + name + "'s points"});
        }
        AddRegistered<DatasetRegistration>(keys, "dataset", "fashion-mnist");
        AddRegistered<PartitionRegistration>(keys, "partition", "shards");
        AddRegistered<ModelRegistration>(keys, "model", "gn-lenet");
        keys.insert(keys.end(), SetupKeys().begin(), SetupKeys().end());
        const size_t underlayKeys = keys.size();
        AddRegistered<UnderlayRegistration>(keys, "network", "direct");
        AddRegistered<NetworkModelRegistration>(
            keys, "network.model", "packet", {"ns3::LearnerApplication::NetworkModel"});
        // Not a model but a choice between the two, per run (RunScenario).
        for (auto& key : keys)
        {
            if (key.name == "network.model")
            {
                key.help += "; or auto (flows first, then the same learning replayed over "
                            "packets where the flows were approximate: a queue overflowed or a "
                            "link lost packets; summary.json's resolved network.model says "
                            "which)";
            }
        }
        keys.insert(keys.end(), NetworkKeys().begin(), NetworkKeys().end());
        // The network's keys are the ones its groups declare: the underlays' (their
        // registrations'), the network model's and NetworkKeys().
        for (size_t i = 0; i < keys.size(); ++i)
        {
            keys[i].network = i >= underlayKeys;
        }
        keys.insert(keys.end(), StudyKeys().begin(), StudyKeys().end());
        generation = RegistryGeneration();
        for (size_t i = 0; i < keys.size(); ++i)
        {
            for (size_t j = 0; j < i; ++j)
            {
                if (keys[i].name == keys[j].name)
                {
                    throw ScenarioError("scenario key '" + keys[i].name
                                        + "' is declared twice (by a registration?)");
                }
            }
        }
    }
    return keys;
}

std::map<std::string, std::string>
AttributesSetByKeys()
{
    std::map<std::string, std::string> keysOf;
    for (const auto& key : ScenarioKeys())
    {
        for (const auto& attribute : key.attributes)
        {
            std::string& keys = keysOf[attribute];
            keys += (keys.empty() ? "" : " or ") + key.name;
        }
    }
    return keysOf;
}

void
WriteKeyTableRst(std::ostream& out)
{
    out << ".. list-table:: Scenario keys\n"
           "   :header-rows: 1\n"
           "   :widths: 26 22 52\n\n"
           "   * - Key\n"
           "     - Default\n"
           "     - Meaning\n";
    for (const auto& key : ScenarioKeys())
    {
        out << "   * - ``" << key.name << "``\n"
            << "     - " << (key.defaultValue.empty() ? "" : "``" + key.defaultValue + "``") << "\n"
            << "     - " << key.help;
        if (!key.attributes.empty())
        {
            out << " (sets";
            for (size_t i = 0; i < key.attributes.size(); ++i)
            {
                out << (i == 0 ? " " : ", ") << "``" << key.attributes[i] << "``";
            }
            out << ")";
        }
        out << "\n";
    }
}

namespace
{

/// Keys of ns-3 attributes: "ns3." and the attribute's full name.
const std::string kNs3Prefix = "ns3.";

std::string
StripDashes(const std::string& s)
{
    size_t i = 0;
    while (i < s.size() && i < 2 && s[i] == '-')
    {
        ++i;
    }
    return s.substr(i);
}

po::options_description
Describe()
{
    po::options_description desc("scenario keys");
    for (const auto& key : ScenarioKeys())
    {
        desc.add_options()(key.name.c_str(), po::value<std::string>(), key.help.c_str());
    }
    return desc;
}

/// The first comment line of every configuration WriteIni writes.
const char* const kRecordedHeader
    = "# dlsim resolved configuration: every key with the value this run used";

/// Whether `text` is a configuration WriteIni wrote: its header among the leading comments.
bool
WrittenByDlsim(const std::string& text)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
    {
        if (line == kRecordedHeader)
        {
            return true;
        }
        if (!line.empty() && line[0] != '#')
        {
            return false;
        }
    }
    return false;
}

/**
 * `value` of a path key with `map` applied to every path in it: the value may be a grid's values
 * (SplitGridValues), each one path or a bracketed list of paths (SplitList), as in "a.csv,
 * [b.csv, c.csv]". Empty items, the key's words and a list its reader will refuse stay as they
 * are; a value with no path changed is returned as written.
 */
std::string
MapPaths(const std::string& value,
         const ScenarioKey& key,
         const std::function<std::string(const std::string&)>& map)
{
    bool changed = false;
    auto one = [&](const std::string& item)
    {
        if (item.empty() || std::find(key.words.begin(), key.words.end(), item) != key.words.end())
        {
            return item;
        }
        std::string mapped = map(item);
        changed = changed || mapped != item;
        return mapped;
    };
    std::string out;
    for (const std::string& part : SplitGridValues(value))
    {
        out += out.empty() ? "" : ", ";
        std::vector<std::string> items;
        if (part.empty() || part.front() != '[' || !SplitList(part, items).empty())
        {
            out += part.empty() || part.front() != '[' ? one(part) : part;
            continue;
        }
        std::string list;
        for (const std::string& item : items)
        {
            list += (list.empty() ? "" : ", ") + one(item);
        }
        out += "[" + list + "]";
    }
    return changed ? out : value;
}

/**
 * A relative path `written` in scenario `file` (for `key`), read from the file's `folder`. Where
 * that names nothing but `written` names a file from the working directory (as scenarios of
 * earlier versions meant), the error says so: reading it would take another file than the one
 * the scenario's folder has.
 */
std::string
FromFileFolder(const std::string& file,
               const std::filesystem::path& folder,
               const std::string& key,
               const std::string& written)
{
    namespace fs = std::filesystem;
    const fs::path path(written);
    if (path.is_absolute())
    {
        return written;
    }
    // Not normalised: where the folder is a symbolic link, "link/../x" is what the system
    // resolves from the link's target.
    const std::string read = (folder / path).string();
    std::error_code inFolder;
    std::error_code inWorkingDirectory;
    if (!fs::exists(read, inFolder) && fs::exists(path, inWorkingDirectory))
    {
        const fs::path relative = fs::absolute(path).lexically_normal().lexically_relative(
            fs::absolute(folder).lexically_normal());
        throw ScenarioError(
            "scenario file " + file + ": " + key + " = " + written
            + " is read from the scenario file's folder, as " + read
            + ", which does not exist; a relative path in a scenario file is taken from the "
              "file's folder, not from the working directory, where "
            + written + " exists: write " + (relative.empty() ? written : relative.string())
            + " or an absolute path");
    }
    return read;
}

} // namespace

ScenarioConfig
ScenarioConfig::Load(const std::string& file, const std::vector<std::string>& overrides)
{
    ScenarioConfig config;
    po::options_description desc = Describe();
    po::variables_map vm;
    // Command-line values are stored first: po::store keeps the first value it sees for a key.
    std::vector<std::string> args;
    std::map<std::string, std::string> ns3FromCommandLine;
    for (const auto& o : overrides)
    {
        std::string arg = StripDashes(o);
        // ns-3 attributes ("ns3.ns3::TcpSocketBase::MinRto=1s") are not dlsim keys: any
        // attribute of any ns-3 type may be named, so they are taken aside here.
        if (arg.rfind(kNs3Prefix, 0) == 0)
        {
            size_t eq = arg.find('=');
            if (eq == std::string::npos)
            {
                throw ScenarioError("command line: " + arg + " needs a value (--" + arg
                                    + "=VALUE)");
            }
            std::string name = arg.substr(kNs3Prefix.size(), eq - kNs3Prefix.size());
            if (!ns3FromCommandLine.emplace(name, arg.substr(eq + 1)).second)
            {
                throw ScenarioError("command line: ns-3 attribute " + name
                                    + " is given more than once");
            }
            continue;
        }
        args.push_back("--" + arg);
    }
    try
    {
        po::store(
            po::command_line_parser(args)
                .options(desc)
                .style(po::command_line_style::unix_style ^ po::command_line_style::allow_short)
                .run(),
            vm);
    }
    catch (const po::error& e)
    {
        throw ScenarioError(std::string("command line: ") + e.what());
    }
    std::set<std::string> fromCommandLine;
    bool recorded = false; // a configuration dlsim wrote: its paths are from the working directory
    for (const auto& [name, value] : vm)
    {
        fromCommandLine.insert(name);
    }
    if (!file.empty())
    {
        if (const std::string why = UnreadableFileReason(file); !why.empty())
        {
            throw ScenarioError("cannot read scenario file " + file + ": " + why);
        }
        std::ifstream stream(file);
        if (!stream)
        {
            throw ScenarioError("cannot open scenario file " + file);
        }
        std::stringstream in;
        in << stream.rdbuf();
        // A UTF-8 byte order mark, which some editors put first, is no part of the first key.
        if (in.str().rfind("\xEF\xBB\xBF", 0) == 0)
        {
            in.str(in.str().substr(3));
        }
        recorded = WrittenByDlsim(in.str());
        try
        {
            po::parsed_options parsed = po::parse_config_file(in, desc, true);
            std::map<std::string, int> seen;
            for (const auto& option : parsed.options)
            {
                if (++seen[option.string_key] == 2)
                {
                    throw ScenarioError("scenario file " + file + ": key '" + option.string_key
                                        + "' is given more than once");
                }
                if (!option.unregistered)
                {
                    continue;
                }
                if (option.string_key.rfind(kNs3Prefix, 0) != 0 || option.value.empty())
                {
                    throw ScenarioError("scenario file " + file + ": unrecognised option '"
                                        + option.string_key + "'");
                }
                config.m_ns3[option.string_key.substr(kNs3Prefix.size())] = option.value[0];
            }
            po::store(parsed, vm);
        }
        catch (const po::error& e)
        {
            throw ScenarioError("scenario file " + file + ": " + e.what());
        }
    }
    for (const auto& [name, value] : ns3FromCommandLine)
    {
        config.m_ns3[name] = value; // the command line wins over the file
    }
    for (const auto& key : ScenarioKeys())
    {
        config.m_values[key.name]
            = vm.count(key.name) ? vm[key.name].as<std::string>() : key.defaultValue;
    }
    const std::filesystem::path folder = std::filesystem::path(file).parent_path();
    if (!recorded && !folder.empty())
    {
        for (const auto& key : ScenarioKeys())
        {
            if (key.path && vm.count(key.name) && !fromCommandLine.count(key.name))
            {
                config.m_values[key.name]
                    = MapPaths(config.m_values[key.name],
                               key,
                               [&file, &folder, &key](const std::string& written)
                               { return FromFileFolder(file, folder, key.name, written); });
            }
        }
    }
    if (config.m_values["out"].empty())
    {
        std::string stem = file.empty() ? "default" : std::filesystem::path(file).stem().string();
        config.m_values["out"] = "results/" + stem;
    }
    return config;
}

const std::string&
ScenarioConfig::GetString(const std::string& key) const
{
    auto it = m_values.find(key);
    if (it == m_values.end())
    {
        throw ScenarioError("unknown scenario key '" + key + "'");
    }
    return it->second;
}

uint64_t
ScenarioConfig::GetUint(const std::string& key, uint64_t min, uint64_t max) const
{
    const std::string& text = GetString(key);
    uint64_t v = 0;
    if (!ParseWholeNumber(text, v) || v < min || v > max)
    {
        throw ScenarioError(key + ": expected a whole number from " + std::to_string(min)
                            + (max == UINT64_MAX ? " up" : " to " + std::to_string(max)) + ", got '"
                            + ShownText(text) + "'");
    }
    return v;
}

double
ScenarioConfig::GetDouble(const std::string& key, double min, double max) const
{
    const std::string& text = GetString(key);
    double v = 0;
    if (!ParseDecimal(text, v) || v < min || v > max)
    {
        throw ScenarioError(key + ": expected a number from " + FormatBound(min) + " to "
                            + FormatBound(max) + ", got '" + ShownText(text) + "'");
    }
    return v;
}

bool
ScenarioConfig::GetBool(const std::string& key) const
{
    const std::string& text = GetString(key);
    bool value = false;
    if (!ParseBool(text, value))
    {
        throw ScenarioError(key + ": expected true or false, got '" + ShownText(text) + "'");
    }
    return value;
}

const std::string&
ScenarioConfig::GetChoice(const std::string& key, const std::vector<std::string>& allowed) const
{
    const std::string& text = GetString(key);
    for (const auto& a : allowed)
    {
        if (text == a)
        {
            return text;
        }
    }
    std::string list;
    for (const auto& a : allowed)
    {
        list += (list.empty() ? "" : ", ") + a;
    }
    throw ScenarioError(key + ": unknown value '" + ShownText(text) + "' (expected one of: " + list
                        + ")");
}

std::vector<std::string>
ScenarioConfig::GetList(const std::string& key) const
{
    std::vector<std::string> items;
    std::string problem = SplitList(GetString(key), items);
    if (!problem.empty())
    {
        throw ScenarioError(key + ": " + problem + ", got '" + ShownText(GetString(key)) + "'");
    }
    return items;
}

std::vector<double>
ScenarioConfig::GetDoubleList(const std::string& key, double min, double max) const
{
    std::vector<double> values;
    for (const auto& item : GetList(key))
    {
        double v = 0;
        if (!ParseDecimal(item, v) || v < min || v > max)
        {
            throw ScenarioError(key + ": expected numbers from " + FormatBound(min) + " to "
                                + FormatBound(max) + ", got '" + ShownText(item) + "'");
        }
        values.push_back(v);
    }
    if (values.empty())
    {
        throw ScenarioError(key + ": the list is empty");
    }
    return values;
}

void
ScenarioConfig::Set(const std::string& key, const std::string& value)
{
    GetString(key);
    m_values[key] = value;
}

void
ScenarioConfig::WriteIni(std::ostream& out) const
{
    out << kRecordedHeader << "\n";
    // Keys without a section first: INI puts everything after a [section] header into it.
    for (const auto& key : ScenarioKeys())
    {
        if (key.name.find('.') == std::string::npos)
        {
            out << key.name << " = " << m_values.at(key.name) << "\n";
        }
    }
    std::string section;
    for (const auto& key : ScenarioKeys())
    {
        size_t dot = key.name.find('.');
        if (dot == std::string::npos)
        {
            continue;
        }
        std::string s = key.name.substr(0, dot);
        if (s != section)
        {
            out << "\n[" << s << "]\n";
            section = s;
        }
        out << key.name.substr(dot + 1) << " = " << m_values.at(key.name) << "\n";
    }
    if (!m_ns3.empty())
    {
        out << "\n[ns3]\n";
        for (const auto& [name, value] : m_ns3)
        {
            out << name << " = " << value << "\n";
        }
    }
}

} // namespace ns3

namespace ns3
{

const std::map<std::string, std::string>&
ScenarioConfig::GetNs3Attributes() const
{
    return m_ns3;
}

} // namespace ns3
