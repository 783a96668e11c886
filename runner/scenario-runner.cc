// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "scenario-runner.h"

#include "algorithm-registry.h"
#include "capture-config.h"
#include "choco-tuning.h"
#include "compute-time-model.h"
#include "csv-rows.h"
#include "dataset-catalog.h"
#include "fault-helper.h"
#include "learner-helper.h"
#include "learner.h"
#include "learning-recorder.h"
#include "learning-replay.h"
#include "link-model.h"
#include "network-model.h"
#include "ns3-attribute-defaults.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-helper.h"
#include "overlay-topologies.h"
#include "partitioner.h"
#include "provenance.h"
#include "random-variable-spec.h"
#include "result-files.h"
#include "round-policy.h"
#include "round-schedule.h"
#include "run-folder-writer.h"
#include "run-folder.h"
#include "torch-version.h"
#include "underlay-config.h"
#include "user-file.h"
#include "wire-byte-counter.h"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/**
 * The registration the key `kind` names ("dataset", "partition", "model", "algorithm"), with
 * its keys' values from the scenario. The keys of every registration of that kind are checked
 * against their declarations, so that a typo is found whichever one runs.
 */
template<typename Registration>
RegisteredParameters
ReadRegistered(const ScenarioConfig& c, const std::string& kind)
{
    const std::string& name = c.GetChoice(kind, Registry<Registration>::Names());
    try
    {
        for (const auto& key : Registry<Registration>::Keys())
        {
            key.Check(c.GetString(key.name));
        }
        std::map<std::string, std::string> values;
        for (const auto& key : Registry<Registration>::Get(name).keys)
        {
            values[key.name] = c.GetString(key.name);
        }
        return Registry<Registration>::Parameters(name, values);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(e.what());
    }
}

/// The normalisation the dataset's keys describe (checked whichever mode runs).
Normalization
ReadNormalization(const RegisteredParameters& dataset)
{
    try
    {
        return NormalizationOf(dataset, DatasetRegistry::Get(dataset.GetName()).channels);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(e.what());
    }
}

DatasetSplit
LoadData(const RegisteredParameters& dataset, uint64_t seed, bool labelsOnly)
{
    const DatasetRegistration& registration = DatasetRegistry::Get(dataset.GetName());
    if (labelsOnly && registration.labelsOnly)
    {
        return registration.labelsOnly(dataset, ReadNormalization(dataset), seed);
    }
    return registration.create(dataset, ReadNormalization(dataset), seed);
}

Partition
MakePartition(const RegisteredParameters& scheme,
              const Dataset& train,
              uint32_t nodes,
              uint64_t seed)
{
    return PartitionRegistry::Get(scheme.GetName()).create(scheme, train, nodes, seed);
}

void
WritePartitionCsv(const std::string& path, const Dataset& train, const Partition& partition)
{
    std::ostringstream out;
    out << "node,samples";
    for (uint32_t k = 0; k < train.numClasses; ++k)
    {
        out << ",class_" << k;
    }
    out << "\n";
    for (size_t node = 0; node < partition.size(); ++node)
    {
        out << node << "," << partition[node].size();
        for (uint32_t count : ClassHistogram(train, partition[node]))
        {
            out << "," << count;
        }
        out << "\n";
    }
    WriteFileAtomically(path, out.str());
}

/// One line on the data: its shape and the normalisation the loader applied.
void
LogDataset(const Dataset& train, const Dataset& test, std::ostream& log)
{
    const bool validation
        = test.name.size() >= 10 && test.name.compare(test.name.size() - 10, 10, "validation") == 0;
    log << "dataset: " << train.name << ", " << train.Size() << " training and " << test.Size()
        << (validation ? " validation (held out of training)" : " test") << " samples of "
        << train.channels << "x" << train.height << "x" << train.width;
    if (train.inputMean.empty())
    {
        log << ", not normalised" << std::endl;
        return;
    }
    auto show = [](const std::vector<float>& values)
    {
        std::ostringstream text;
        text << "[";
        for (size_t i = 0; i < values.size(); ++i)
        {
            text << (i ? ", " : "") << values[i];
        }
        return text.str() + "]";
    };
    log << ", normalised with mean " << show(train.inputMean) << " and std " << show(train.inputStd)
        << std::endl;
}

/**
 * The algorithm and its keys. Every algorithm's keys are checked against their registrations,
 * so that a typo is found whichever algorithm runs.
 */
SharingConfig
ReadSharing(const ScenarioConfig& c, uint32_t rounds)
{
    const RegisteredParameters algorithm = ReadRegistered<AlgorithmRegistration>(c, "algorithm");
    SharingConfig s;
    s.algorithm = algorithm.GetName();
    s.trainingRounds = rounds;
    s.parameters = algorithm.GetValues();
    return s;
}

/// The overlay the scenario describes (read and checked; not yet drawn).
TopologySpec
ReadTopology(const ScenarioConfig& c, uint32_t nodes)
{
    TopologySpec spec;
    spec.nodes = nodes;
    const RegisteredParameters topology = ReadRegistered<TopologyRegistration>(c, "topology");
    spec.name = topology.GetName();
    spec.values = topology.GetValues();
    return spec;
}

/// Everything a scenario says, read and checked, before anything expensive happens.
struct ScenarioPlan
{
    uint32_t nodes = 0;
    uint32_t rounds = 0;
    uint64_t seed = 0;
    TopologySpec topology;
    TrainingConfig training;
    SharingConfig sharing;
    uint32_t segmentSize = 0;
    /// The dataset's and the partition's registrations with their keys' values.
    std::optional<RegisteredParameters> dataset;
    std::optional<RegisteredParameters> partition;
    std::string initFile;     ///< model.init_file ("" none)
    uint32_t tcpBuffer = 0;   ///< tcp.buffer
    uint32_t initialCwnd = 0; ///< tcp.initial_cwnd
    std::unique_ptr<UnderlayConfig> underlay;
    /// Declared before RunScenario's SimulatorCleanup, so that it outlives the devices.
    std::unique_ptr<CaptureConfig> capture;
    std::unique_ptr<ComputeTimeModel> compute;
    std::string roundMode;
    std::string networkModel; ///< network.model
    Time roundTimeout;        ///< Time::Max: none (as the RoundTimeout attribute)
    std::string lateMessages;
    std::string missingModels;
    Time duration;
    uint32_t untilTarget = 0; ///< rounds.until_target: evaluations in a row at the target; 0: none
    Time evalInterval;
    FaultPlan faults;
    uint32_t evalEvery = 0;
    uint32_t evalSamples = 0;
    double validation = 0.0; ///< fraction of the training samples evaluated on; 0: the test set
    uint32_t evalNodes = 0;
    double target = 0.0;
    bool sameInit = true;
    Time stallTimeout;
    Time timeLimit;
    std::string tcpProfile;
    Time minRto;
    Time delayedAck;
    uint32_t threads = 1;
    std::string out;
};

/// A positive simulated time, or `none` (the key's "none"); a period that makes events has a floor.
Time
ReadOptionalTime(const ScenarioConfig& c, const std::string& key, Time none, bool isPeriod = false)
{
    const std::string& text = c.GetString(key);
    if (text == "none")
    {
        return none;
    }
    const double seconds = isPeriod ? ParsePeriodSeconds(key, text) : ParseSeconds(key, text);
    if (!(seconds > 0.0))
    {
        throw ScenarioError(key + ": a positive time such as 500ms, or none; got '"
                            + ShownText(text) + "'");
    }
    return Seconds(seconds);
}

/**
 * network.model. What the chosen model cannot carry it refuses by key (its registration's
 * check), rather than leave it out in silence.
 */
void
ReadNetworkModel(const ScenarioConfig& c, ScenarioPlan& plan)
{
    plan.networkModel = c.GetChoice("network.model", NetworkModelRegistry::Names());
    const NetworkModelRegistration& model = NetworkModelRegistry::Get(plan.networkModel);
    if (!model.check)
    {
        return;
    }
    NetworkModelScenario scenario;
    scenario.value = [&c](const std::string& key)
    {
        return c.GetString(key);
    };
    scenario.changed = [&c](const std::string& prefix)
    {
        std::vector<std::string> changed;
        for (const ScenarioKey& key : ScenarioKeys())
        {
            if (key.name.rfind(prefix, 0) == 0 && c.GetString(key.name) != key.defaultValue)
            {
                changed.push_back(key.name);
            }
        }
        return changed;
    };
    try
    {
        model.check(scenario);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(e.what());
    }
}

void
ReadRoundMode(const ScenarioConfig& c, ScenarioPlan& plan)
{
    plan.roundMode = c.GetChoice("rounds.mode", RoundModeRegistry::Names());
    plan.lateMessages = c.GetChoice("rounds.late", {"drop", "stale"});
    plan.missingModels = c.GetChoice("rounds.missing", {"cache", "self"});
    // "none" is what the attribute each key sets takes for none: waiting for ever, no time
    // budget, evaluations by rounds.
    plan.roundTimeout = ReadOptionalTime(c, "rounds.timeout", Time::Max());
    plan.duration = ReadOptionalTime(c, "rounds.duration", Time(0));
    plan.untilTarget = c.GetString("rounds.until_target") == "none"
                           ? 0
                           : static_cast<uint32_t>(c.GetUint("rounds.until_target", 1, 1000000));
    plan.evalInterval = ReadOptionalTime(c, "eval.interval", Time(0), true);
    plan.faults = ReadFaultPlan(c.GetList("faults.crash"),
                                c.GetString("faults.file"),
                                c.GetString("faults.availability"),
                                c.GetList("faults.links"),
                                plan.nodes);
    // Churn by rates: events drawn as the run goes (exponential up and down times).
    const Time meanUp = ReadOptionalTime(c, "faults.mean_up", Time(0), true);
    if (!meanUp.IsZero())
    {
        if (!plan.faults.hosts.empty())
        {
            throw ScenarioError("faults.mean_up: churn by rates decides when every host is off; "
                                "it cannot be combined with faults.crash, faults.file or "
                                "faults.availability");
        }
        plan.faults.meanUp = meanUp.GetSeconds();
        plan.faults.meanDown = ReadOptionalTime(c, "faults.mean_down", Time(0), true).GetSeconds();
        if (plan.faults.meanDown <= 0.0)
        {
            throw ScenarioError("faults.mean_down: churn (faults.mean_up) needs a mean down time");
        }
    }
    if (!plan.faults.Empty() && plan.evalInterval.IsZero())
    {
        throw ScenarioError("faults need eval.interval (e.g. eval.interval = 10s): a crashed "
                            "learner stops evaluating, so learners are evaluated on a clock");
    }
    // Learners then stop at different rounds: only a common clock compares their models. Under
    // a budget (rounds.duration), learners that wait for every in-neighbour agree on a last
    // round (LearnerApplication::SetRoundBudget) and are evaluated by rounds as well.
    const bool outOfStep = RoundModeRegistry::Get(plan.roundMode).outOfStep;
    if (plan.evalInterval.IsZero() && outOfStep)
    {
        throw ScenarioError("rounds.mode = " + plan.roundMode
                            + " needs eval.interval (e.g. eval.interval = 10s): learners do "
                              "different numbers of rounds, so they are evaluated on a clock");
    }
    // Both end a run early at a round the learners agree on: one that not every learner
    // reaches together needs the evaluations on a clock.
    const std::string earlyEnd = !plan.duration.IsZero() ? "rounds.duration"
                                 : plan.untilTarget > 0  ? "rounds.until_target"
                                                         : "";
    if (plan.evalInterval.IsZero() && !earlyEnd.empty())
    {
        RoundPolicySettings settings;
        settings.timeout = plan.roundTimeout;
        const std::string& algorithm = c.GetString("algorithm");
        const AlgorithmRegistration* registration = AlgorithmRegistry::Find(algorithm);
        std::string why;
        if (!RoundModeRegistry::Get(plan.roundMode).create(settings)->WaitsForEveryMessage())
        {
            why = "rounds.timeout: learners that do not wait for every in-neighbour";
        }
        else if (registration && registration->answersMessages)
        {
            why = "algorithm = " + algorithm + ": learners that exchange pairwise";
        }
        if (!why.empty())
        {
            throw ScenarioError(earlyEnd
                                + " needs eval.interval (e.g. eval.interval = 10s) "
                                  "with "
                                + why
                                + ": they stop at different rounds, so they are evaluated on a "
                                  "clock");
        }
    }
}

ScenarioPlan
ReadPlan(const ScenarioConfig& c)
{
    ScenarioPlan plan;
    plan.nodes = static_cast<uint32_t>(c.GetUint("nodes", 2, 100000));
    plan.rounds = static_cast<uint32_t>(c.GetUint("rounds", 1, 100000000));
    plan.seed = c.GetUint("seed", 1, UINT32_MAX);
    plan.topology = ReadTopology(c, plan.nodes);
    TrainingConfig& training = plan.training;
    const RegisteredParameters model = ReadRegistered<ModelRegistration>(c, "model");
    training.model = model.GetName();
    training.modelParameters = model.GetValues();
    // The algorithm's own learning rate when it has one, else the shared one.
    const std::string ownLr
        = AlgorithmLearningRateKey(c.GetChoice("algorithm", AlgorithmRegistry::Names()));
    training.lr = c.GetDouble(c.GetString(ownLr).empty() ? "lr" : ownLr, 0.0, 1e6);
    training.momentum = c.GetDouble("momentum", 0.0, 1.0);
    training.weightDecay = c.GetDouble("weight_decay", 0.0, 1e6);
    training.batchSize = static_cast<uint32_t>(c.GetUint("batch_size", 1, 1000000));
    training.localSteps = static_cast<uint32_t>(c.GetUint("local_steps", 1, 1000000));
    plan.sharing = ReadSharing(c, plan.rounds);
    const uint32_t mtu = static_cast<uint32_t>(c.GetUint("link.mtu", 576, 65535));
    plan.segmentSize = static_cast<uint32_t>(c.GetUint("tcp.segment_size", 0, 65535));
    if (plan.segmentSize == 0)
    {
        plan.segmentSize = mtu - 52; // IPv4 20 + TCP 20 + timestamp option 12
    }
    else if (plan.segmentSize < 64)
    {
        throw ScenarioError("tcp.segment_size: at least 64 bytes (or 0: from link.mtu), got "
                            + std::to_string(plan.segmentSize));
    }
    else if (plan.segmentSize > mtu - 52)
    {
        throw ScenarioError("tcp.segment_size " + std::to_string(plan.segmentSize)
                            + " does not fit link.mtu " + std::to_string(mtu)
                            + " with 52 bytes of IP and TCP headers");
    }
    plan.underlay = std::make_unique<UnderlayConfig>(c, plan.nodes, mtu);
    plan.capture = std::make_unique<CaptureConfig>(c, *plan.underlay);
    plan.compute
        = std::make_unique<ComputeTimeModel>(c.GetString("compute.model"),
                                             c.GetString("compute.device_gflops"),
                                             c.GetDouble("compute.step_seconds", 0.0, 1e9),
                                             c.GetDouble("compute.measured_scale", 1e-12, 1e12));
    if (const std::string& speeds = c.GetString("compute.file"); !speeds.empty())
    {
        std::vector<double> gflops(plan.nodes, 0.0);
        ForEachLearnerRow("compute.file",
                          speeds,
                          "node",
                          2,
                          plan.nodes,
                          [&gflops](uint32_t node, const CsvRow& row)
                          {
                              gflops[node] = ParseNumber(row.where,
                                                         row.fields[1],
                                                         ComputeTimeModel::kMinGflops,
                                                         ComputeTimeModel::kMaxGflops);
                          });
        plan.compute->SetDeviceSpeeds(std::move(gflops));
    }
    plan.evalEvery = static_cast<uint32_t>(c.GetUint("eval.every", 1, UINT32_MAX));
    ReadRoundMode(c, plan);
    ReadNetworkModel(c, plan);
    plan.evalSamples = static_cast<uint32_t>(c.GetUint("eval.test_samples", 0, UINT32_MAX));
    if (c.GetChoice("eval.on", {"test", "validation"}) == "validation")
    {
        plan.validation = c.GetDouble("eval.validation", 1e-6, 0.5);
    }
    plan.evalNodes = static_cast<uint32_t>(c.GetUint("eval.nodes", 0, plan.nodes));
    plan.target = c.GetDouble("target_accuracy", 0.0, 1.0);
    plan.sameInit = c.GetBool("model.same_init");
    const std::string& stall = c.GetString("run.stall_timeout");
    if (stall != "auto")
    {
        plan.stallTimeout = Seconds(ParseSeconds("run.stall_timeout", stall));
        if (!plan.stallTimeout.IsStrictlyPositive())
        {
            throw ScenarioError("run.stall_timeout: a positive time such as 600s, or auto; got '"
                                + stall + "'");
        }
    }
    const std::string& threads = c.GetString("run.threads");
    plan.threads = threads == "auto" ? WorkerPool::DefaultThreads()
                                     : static_cast<uint32_t>(c.GetUint("run.threads", 1, 1024));
    // 0s would read as no limit: a limit is positive, or none.
    plan.timeLimit = ReadOptionalTime(c, "run.time_limit", Time(0));
    // TCP's buffers: ns-3 keeps a socket's window in 32 bits and scales it by at most 2^14.
    plan.initFile = c.GetString("model.init_file");
    plan.dataset = ReadRegistered<DatasetRegistration>(c, "dataset");
    plan.partition = ReadRegistered<PartitionRegistration>(c, "partition");
    plan.tcpBuffer = static_cast<uint32_t>(c.GetUint("tcp.buffer", 1024, 1u << 30));
    plan.initialCwnd = static_cast<uint32_t>(c.GetUint("tcp.initial_cwnd", 1, 65535));
    // The profile chooses the socket and the timers' defaults (auto); explicit timers win.
    plan.tcpProfile = c.GetChoice("tcp.profile", {"ns3", "linux"});
    const bool linuxTcp = plan.tcpProfile == "linux";
    const auto timer = [&c](const std::string& key, const std::string& profileDefault)
    {
        const std::string& text = c.GetString(key);
        return text == "auto" ? std::make_pair(ParseSeconds(key, profileDefault),
                                               "auto (" + profileDefault + ")")
                              : std::make_pair(ParseSeconds(key, text), text);
    };
    const auto [minRto, minRtoText] = timer("tcp.min_rto", linuxTcp ? "200ms" : "1s");
    if (minRto < 1e-3 || minRto > 60)
    {
        throw ScenarioError("tcp.min_rto: must be between 1ms and 60s, got '" + minRtoText + "'");
    }
    plan.minRto = Seconds(minRto);
    const auto [delayedAck, delayedAckText] = timer("tcp.delayed_ack", linuxTcp ? "40ms" : "200ms");
    if (delayedAck >= minRto)
    {
        // The sender would time out on every message whose last ACK the receiver holds back.
        throw ScenarioError("tcp.delayed_ack (" + delayedAckText + ") must be shorter than "
                            + "tcp.min_rto (" + minRtoText + ")");
    }
    plan.delayedAck = Seconds(delayedAck);
    plan.out = c.GetString("out");
    // ns-3 attribute defaults: checked now, applied before anything is built.
    SetNs3AttributeDefaults(c.GetNs3Attributes(), AttributesSetByKeys());
    return plan;
}

/// The overlay the plan describes, drawn with the run's seed; throws when the algorithm does
/// not run on it.
OverlaySchedule
DrawOverlay(const ScenarioPlan& plan)
{
    RngSeedManager::SetSeed(static_cast<uint32_t>(plan.seed));
    RngSeedManager::SetRun(1);
    Ptr<UniformRandomVariable> topologyRng = CreateObject<UniformRandomVariable>();
    topologyRng->SetStream(0);
    OverlaySchedule schedule = MakeTopology(plan.topology, topologyRng);
    if (AlgorithmRegistry::Get(plan.sharing.algorithm).forDirectedGraphs != schedule.IsDirected())
    {
        throw ScenarioError("algorithm " + plan.sharing.algorithm + " needs "
                            + (schedule.IsDirected() ? "an undirected" : "a directed")
                            + " topology, but topology " + plan.topology.name + " is "
                            + (schedule.IsDirected() ? "directed" : "undirected"));
    }
    return schedule;
}

/// model.init_file read and checked as a file (its size against the model needs the data).
std::shared_ptr<const std::vector<float>>
ReadInitFile(const std::string& path)
{
    try
    {
        return std::make_shared<const std::vector<float>>(ReadParameterFile(path));
    }
    catch (const DatasetError& e)
    {
        throw ScenarioError(std::string("model.init_file: ") + e.what());
    }
}

/**
 * The scenario's inputs, checked before anything is written or loaded: the dataset's and the
 * partition's keys, the normalisation, the dataset's files, the partition's own input (a
 * partition file, all but the sample range) and the initial parameters' file.
 */
void
CheckInputs(const ScenarioPlan& plan)
{
    const RegisteredParameters& dataset = *plan.dataset;
    ReadNormalization(dataset);
    if (const auto& check = DatasetRegistry::Get(dataset.GetName()).check)
    {
        check(dataset);
    }
    const RegisteredParameters& scheme = *plan.partition;
    if (const auto& check = PartitionRegistry::Get(scheme.GetName()).check)
    {
        check(scheme, plan.nodes);
    }
    if (!plan.initFile.empty())
    {
        ReadInitFile(plan.initFile);
    }
}

/// The standard error the run had before RedirectOutputTo (-1: never redirected).
int g_stderrBeforeLogFile = -1;

/// Send what the run prints to `path` from now on (a grid point's log, opened once its folder
/// is locked so that no other run's log is truncated).
void
RedirectOutputTo(const std::string& path)
{
    // A FIFO would block the open until a reader came, a device such as /dev/full would take
    // every line and keep none: the log is a regular file, as every file a user names.
    if (const std::string why = dlsim::UnreadableFileReason(path); !why.empty())
    {
        throw ScenarioError("--log-file " + path + ": " + why);
    }
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
    {
        throw ResultFileError("cannot write " + path + ": " + std::strerror(errno));
    }
    std::cout.flush();
    std::cerr.flush();
    if (g_stderrBeforeLogFile < 0)
    {
        g_stderrBeforeLogFile = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
    }
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
}

/// From this many overlay edges on, a run says that it is building the network.
constexpr size_t kLargeOverlayEdges = 20000;

/// What the network model refuses of the links as built (NetworkModel::CheckLinks): bad input.
void
CheckLinksFor(const NetworkModel& network, const Underlay& underlay)
{
    try
    {
        network.CheckLinks(underlay.links);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(e.what());
    }
}

/// Ends what ns-3 built when it goes out of scope, however a function ends (an error leaves no
/// nodes or events to a caller that goes on). Simulator::Destroy may be called again.
struct SimulatorCleanup
{
    ~SimulatorCleanup()
    {
        Simulator::Destroy();
    }
};

/**
 * What network.model = auto (kAutoNetworkModel) checks of `c`: packets must take it; flows may
 * refuse it (then it runs over packets alone), but where they take it their learning must be
 * one a replay can play over packets.
 * \return why flows refuse it, "" when they take it
 */
std::string
CheckAuto(const ScenarioConfig& c)
{
    ScenarioConfig packets = c;
    packets.Set("network.model", "packet");
    CheckScenario(packets);
    ScenarioConfig flows = c;
    flows.Set("network.model", "flow");
    try
    {
        CheckScenario(flows);
    }
    catch (const std::exception& e) // what packets take (checked first) but flows refuse
    {
        return e.what();
    }
    if (const std::string why = ReplayObstacle(c); !why.empty())
    {
        throw ScenarioError("network.model = auto replays the flows' learning over packets, "
                            "which this scenario's learning cannot be: "
                            + why);
    }
    return "";
}

/// network.model = auto (kAutoNetworkModel): the flows-first run, then the run that counts.
RunSummary
RunFlowsFirst(const ScenarioConfig& c, std::ostream& log, const RunOptions& options)
{
    if (const std::string why = CheckAuto(c); !why.empty())
    {
        log << "dlsim: network.model = auto: over packets alone, as flows cannot carry this "
               "scenario ("
            << why << ")" << std::endl;
        RunOptions packets = options;
        packets.networkModel = "packet";
        return RunScenario(c, log, packets);
    }
    ScenarioConfig flows = c;
    flows.Set("network.model", "flow");
    const std::string out = ReadPlan(flows).out;
    const std::string estimate = out + "/.flows"; // hidden: no run a collect finds
    flows.Set("out", estimate);
    log << "dlsim: network.model = auto: over flows first, in " << estimate << std::endl;
    RunOptions first = options;
    first.overwrite = true; // the folder is this run's own
    const RunSummary approximate = RunScenario(flows, log, first);
    RunOptions then = options;
    then.logFile.clear(); // already taken by the first run
    then.networkModel = approximate.networkFidelity.empty() ? "flow" : "packet";
    then.replayFrom = estimate;
    log << "dlsim: network.model = auto: "
        << (approximate.networkFidelity.empty()
                ? "no queue overflowed and no link lost packets over flows: the same learning "
                  "replayed over flows"
                : "the flows were approximate (" + approximate.networkFidelity
                      + "): the same learning replayed over packets")
        << ", into " << out << std::endl;
    RunSummary summary;
    try
    {
        summary = RunScenario(c, log, then);
    }
    catch (const RecordingTooShortError&)
    {
        // Packets ran further within the budget than the flows did: this run trains.
        log << "dlsim: network.model = auto: packets run past the flows' recording within the "
               "budget: the run over packets trains"
            << std::endl;
        then.replayFrom = options.replayFrom;
        summary = RunScenario(c, log, then);
    }
    // The run's wall time is both runs'.
    summary.wallSeconds += approximate.wallSeconds;
    WriteRunSummary(summary, out);
    std::error_code ignored;
    std::filesystem::remove_all(estimate, ignored);
    return summary;
}

} // namespace

void
CheckScenario(const ScenarioConfig& c)
{
    if (c.GetString("network.model") == kAutoNetworkModel)
    {
        CheckAuto(c);
        return;
    }
    ScenarioPlan plan = ReadPlan(c);
    OverlayGraph graph = DrawOverlay(plan).Union();
    CheckInputs(plan);
    // What only a built network can tell (files of routers, drawn rates and latencies, routes
    // longer than the TTL, cross traffic against its links, the links faults name): build it,
    // check, and throw it away.
    SimulatorCleanup cleanup;
    NodeContainer hosts;
    hosts.Create(plan.nodes);
    Ptr<NetworkModel> network = NetworkModelRegistry::Get(plan.networkModel).create();
    Underlay underlay = plan.underlay->Install(hosts, graph, 1, network);
    CheckLinksFor(*network, underlay);
    FaultHelper(plan.faults).Check(underlay);
    plan.capture->Check(underlay);
}

RunSummary
RunScenario(const ScenarioConfig& given, std::ostream& log, const RunOptions& options)
{
    const bool automatic = given.GetString("network.model") == kAutoNetworkModel;
    if (automatic && options.networkModel.empty())
    {
        return RunFlowsFirst(given, log, options);
    }
    // The model that runs; config.ini keeps what was given (auto), and the resolved values
    // which model it was.
    ScenarioConfig c = given;
    if (automatic)
    {
        c.Set("network.model", options.networkModel);
    }
    SetRunStep("reading the scenario");
    ScenarioPlan plan = ReadPlan(c);
    // Missing or broken input files are refused before the run folder is touched.
    SetRunStep("checking the input files");
    CheckInputs(plan);
    // A replay's recording is checked before the run folder is touched.
    std::shared_ptr<const LearningRecord> replay;
    if (!options.replayFrom.empty())
    {
        replay = LoadRecordFor(options.replayFrom, c);
    }
    std::ostringstream ini;
    given.WriteIni(ini);
    // Whether the folder may be written is known before anything is made in it.
    CheckOutputFolder(
        plan.out, ini.str(), options.overwrite, FolderWriter::Run, options.replayFrom);
    SimulatorCleanup cleanup;
    SetRunStep("preparing the run folder");
    const std::string& out = plan.out;
    MadeRunFolder made(out, "run folder "); // before the lock: taken back after it
    RunFolderLock lock(out);
    if (!options.logFile.empty())
    {
        RedirectOutputTo(options.logFile);
    }
    // A network that cannot be built, or a fault on a link it does not have, is refused before
    // anything is written into the folder (a grid point's log has it).
    SetRunStep("building the network (underlay, links, routes, cross traffic)");
    OverlaySchedule schedule = DrawOverlay(plan);
    OverlayGraph graph = schedule.Union();
    // A large overlay takes a while to build (1,000 learners, complete: 499,500 edges, minutes
    // of routes over direct links): said before, so that a silent terminal is not taken for a
    // hang.
    if (graph.GetEdges().size() >= kLargeOverlayEdges)
    {
        log << "dlsim: building the network for " << graph.GetEdges().size()
            << " overlay edges; this can take minutes" << std::endl;
    }
    NodeContainer hosts;
    hosts.Create(plan.nodes);
    // The simulation's network model: the learners, the cross traffic and the rate traces
    // reach it, and it says what the links carried.
    Ptr<NetworkModel> network = NetworkModelRegistry::Get(plan.networkModel).create();
    Underlay underlay = plan.underlay->Install(hosts, graph, 1, network, &log);
    CheckLinksFor(*network, underlay);
    FaultHelper faults(plan.faults);
    faults.Check(underlay);
    plan.capture->Check(underlay);
    const std::string notRecorded = ReplayObstacle(c);
    SetRunStep("preparing the run folder");
    PrepareRunFolder(out, ini.str(), options.overwrite);
    std::map<std::string, std::string> resolved;
    // Provenance as comments: config.ini still runs again as it is, `auto` included.
    auto writeConfig = [&]()
    {
        std::ostringstream text;
        text << "# " << VersionLine() << "\n";
        // A quoted argument or a folder's name may hold a newline: its continuation stays a
        // comment, never a key of this file.
        auto comment = [](std::string line)
        {
            for (size_t at = line.find('\n'); at != std::string::npos; at = line.find('\n', at + 3))
            {
                line.insert(at + 1, "# ");
            }
            return line;
        };
        if (!options.commandLine.empty())
        {
            text << "# command: " << comment(options.commandLine) << "\n";
        }
        for (const auto& [key, value] : resolved)
        {
            text << "# resolved: " << key << " = " << value << "\n";
        }
        if (automatic)
        {
            text << "# resolved: network.model = " << options.networkModel << "\n";
        }
        if (replay)
        {
            text << "# replayed: the learning recorded in " << comment(options.replayFrom) << "\n";
        }
        // Not among the run's resolved values: results do not depend on it.
        text << "# threads: " << plan.threads << "\n";
        WriteFileAtomically(out + "/config.ini", text.str() + ini.str());
    };
    writeConfig();

    UseSingleThreadedTorch();
    SharingConfig sharing = plan.sharing;
    // Values left to the overlay ("auto", e.g. CHOCO-SGD's step size), as its registration says.
    // A replay has its recorded run's overlay and seed: it takes that run's values rather than
    // tuning again (a quarter of a short CHOCO-SGD replay's time).
    if (replay)
    {
        for (const auto& [key, value] : replay->resolved)
        {
            sharing.parameters[key] = value;
            resolved[key] = value;
            log << "resolved: " << key << " = " << value << ", as the recorded run resolved it"
                << std::endl;
        }
    }
    // What is still `auto` (all of it in a full run; in a replay of a recording of format
    // version 1, which holds no resolved values) is resolved here.
    for (const auto& [key, value] : ResolveOnOverlay(sharing, graph.GetAdjacency(), plan.seed, log))
    {
        resolved[key] = value;
    }
    if (!resolved.empty())
    {
        writeConfig();
    }

    SetRunStep("loading and partitioning the data");
    // A replay trains nothing: the labels partition the data, the images are not needed.
    DatasetSplit data = LoadData(*plan.dataset, plan.seed, replay != nullptr);
    if (plan.validation > 0.0)
    {
        data = HoldOutValidation(
            data, plan.validation, DeriveSeed(plan.seed, 0, SeedUse::Validation));
    }
    LogDataset(*data.train, *data.test, log);
    if (data.train->images.empty())
    {
        log << "dataset: labels only, for the partition (a replay trains nothing)" << std::endl;
    }
    if (!plan.initFile.empty())
    {
        // Every learner starts from the file's parameters, whatever model.same_init says.
        const Dataset& train = *data.train;
        const size_t expected = CountModelParameters(
            plan.training.model, train.channels, train.height, train.width, train.numClasses);
        std::shared_ptr<const std::vector<float>> initial = ReadInitFile(plan.initFile);
        if (initial->size() != expected)
        {
            throw ScenarioError(
                "model.init_file: " + plan.initFile + " holds " + std::to_string(initial->size())
                + " parameters, but model " + plan.training.model + " for "
                + std::to_string(train.channels) + "x" + std::to_string(train.height) + "x"
                + std::to_string(train.width) + " inputs and " + std::to_string(train.numClasses)
                + " classes has " + std::to_string(expected));
        }
        plan.training.initialParameters = initial;
        plan.training.initialParametersSource = "model.init_file " + plan.initFile;
        log << "model: every learner starts from the " << expected << " parameters in "
            << plan.initFile << " (model.same_init does not apply)" << std::endl;
    }
    const RegisteredParameters& scheme = *plan.partition;
    Partition partition = MakePartition(scheme, *data.train, plan.nodes, plan.seed);
    if (const auto& describe = PartitionRegistry::Get(scheme.GetName()).describe)
    {
        log << "partition: " << describe(scheme, partition, data.train->Size()) << std::endl;
    }
    WritePartitionCsv(out + "/partition.csv", *data.train, partition);
    for (size_t node = 0; node < partition.size(); ++node)
    {
        log << "partition: node " << node << ": " << partition[node].size()
            << " samples, per class";
        for (uint32_t count : ClassHistogram(*data.train, partition[node]))
        {
            log << " " << count;
        }
        log << "\n";
        if (partition[node].size() < plan.training.batchSize)
        {
            log << "note: node " << node << " has " << partition[node].size()
                << " samples, fewer than batch_size " << plan.training.batchSize
                << ": its mini-batches hold all of them, and its compute time is charged for "
                << partition[node].size() << " samples per step" << std::endl;
        }
    }

    LinkUsage linkUsage(underlay, network);
    log << plan.underlay->Describe(underlay) << std::endl;

    SetRunStep("installing the learners (models, compute times, TCP)");
    LearnerHelper learners;
    learners.SetData(data, partition);
    learners.SetTraining(plan.training);
    learners.SetSharing(sharing);
    learners.SetSchedule(schedule);
    learners.SetSeed(plan.seed);
    learners.SetSameInitialModel(plan.sameInit);
    learners.SetComputeTimeModel(*plan.compute);
    learners.SetEvaluatedLearners(plan.evalNodes);
    learners.AssignStreams(3);
    learners.SetAttribute("Rounds", UintegerValue(plan.rounds));
    learners.SetAttribute("EvalEvery", UintegerValue(plan.evalEvery));
    learners.SetAttribute("RoundMode", StringValue(plan.roundMode));
    learners.SetAttribute("NetworkModel", StringValue(plan.networkModel));
    learners.SetAttribute("LateMessages", StringValue(plan.lateMessages));
    learners.SetAttribute("MissingModels", StringValue(plan.missingModels));
    learners.SetAttribute("RoundTimeout", TimeValue(plan.roundTimeout));
    learners.SetAttribute("Duration", TimeValue(plan.duration));
    learners.SetAttribute("EvalInterval", TimeValue(plan.evalInterval));
    learners.SetAttribute("EvalSamples", UintegerValue(plan.evalSamples));
    learners.SetAttribute("TcpSegmentSize", UintegerValue(plan.segmentSize));
    learners.SetAttribute("TcpBufferSize", UintegerValue(plan.tcpBuffer));
    learners.SetAttribute("TcpInitialCwnd", UintegerValue(plan.initialCwnd));
    learners.SetAttribute("TcpProfile", StringValue(plan.tcpProfile));
    learners.SetAttribute("TcpMinRto", TimeValue(plan.minRto));
    learners.SetAttribute("TcpDelAckTimeout", TimeValue(plan.delayedAck));
    learners.SetWorkerThreads(plan.threads);
    learners.SetReplay(replay);
    learners.SetNetworkModel(network);
    // A network that needs time to come up (Wi-Fi association) does so before the learners
    // start: installed later, they start when installed.
    plan.underlay->BringUp(underlay, log);
    ApplicationContainer apps = learners.Install(hosts, underlay.addresses);
    apps.Start(Seconds(0));

    ResultsWriter writer(out, plan.nodes, plan.target, log);
    writer.Attach(apps, learners.GetEvaluationClock());
    // A full frame (1,500 bytes) on the slowest link direction: what the automatic watchdog
    // waits several of before it calls a network stalled.
    double slowestBps = 0.0;
    for (const auto& link : underlay.links)
    {
        if (link.bandwidthBps > 0.0 && (slowestBps == 0.0 || link.bandwidthBps < slowestBps))
        {
            slowestBps = link.bandwidthBps;
        }
    }
    writer.SetWatchdog(plan.stallTimeout,
                       plan.timeLimit,
                       slowestBps > 0.0 ? Seconds(1500.0 * 8.0 / slowestBps) : Time(0),
                       [&linkUsage]() { return linkUsage.HostBytesSent(); });
    writer.SetBudget(plan.duration.IsZero() ? kNoBudget : plan.duration.GetSeconds());
    writer.EndOnceTargetHeld(plan.untilTarget);
    faults.SetLinkEventCallback([&writer](const std::string& event, const std::string& subject)
                                { writer.RecordFault(event, subject); });
    // Churn draws from its own streams, after every stream the underlay and learners use.
    faults.AssignStreams(1000000);
    faults.Install(underlay, apps);
    log << "dlsim: " << plan.nodes << " learners, " << graph.GetEdges().size() << " overlay edges, "
        << plan.rounds << " rounds of " << sharing.algorithm << " on " << data.train->name
        << " with " << plan.training.model << "; results in " << out << std::endl;
    LearningRecorder recorder;
    if (notRecorded.empty())
    {
        recorder.Attach(apps);
    }
    if (replay)
    {
        log << "dlsim: replaying the learning recorded in " << options.replayFrom
            << ": nothing is trained, only the network is simulated" << std::endl;
    }
    WireByteCounter wire;
    wire.Install(hosts, network);
    plan.capture->Install(underlay, out, log);
    SetRunStep("running the simulation");
    Simulator::Run();
    SetRunStep("writing the results");
    if (replay && apps.GetN() > 0
        && DynamicCast<LearnerApplication>(apps.Get(0))->RanOutOfLearning())
    {
        Simulator::Destroy();
        throw RecordingTooShortError(
            "cannot replay " + options.replayFrom + " here: its recording ends at round "
            + std::to_string(replay->nodes.front().rounds.size())
            + ", where its own run's budget (rounds.duration) stopped it, but this network "
              "runs further within the budget; this run must train (a grid does so)");
    }
    writer.DeliverEvaluations();
    if (const std::string stopped = writer.StopReport(); !stopped.empty())
    {
        try
        {
            plan.capture->KeepPartial();
        }
        catch (const ResultFileError& e)
        {
            log << "note: the captures of the stopped run are incomplete: " << e.what()
                << std::endl;
        }
        Simulator::Destroy();
        throw std::runtime_error(stopped);
    }
    for (const std::string& line : faults.DescribeUnreached(Simulator::Now()))
    {
        log << "note: " << line << std::endl;
    }
    RunSummary summary = writer.Finish(plan.seed);
    summary.wireBytesPerNode = wire.GetBytes() / plan.nodes;
    summary.dlsimVersion = DlsimVersion();
    summary.ns3Version = Ns3Version();
    summary.torchVersion = TorchVersion();
    summary.commandLine = options.commandLine;
    summary.resolved = resolved;
    if (automatic)
    {
        // Not in the learning's recording: which model ran is no part of what was learned.
        summary.resolved["network.model"] = options.networkModel;
    }
    summary.roundMode = plan.roundMode;
    linkUsage.Report(out + "/links.csv", summary.simulatedSeconds, log, summary);
    // The learning, for replays over other networks (learning-replay.h); a replay records it
    // again, from what it played back, so that it can be replayed in turn.
    const std::string recordProblem = notRecorded.empty() ? recorder.GetProblem() : notRecorded;
    if (recordProblem.empty())
    {
        WriteLearningRecord(out + "/" + kLearningRecordFile,
                            recorder.GetRecord(LearningKeys(c), resolved));
    }
    else
    {
        std::filesystem::remove(out + "/" + kLearningRecordFile);
        log << "note: no learning recording (" << kLearningRecordFile
            << "), this run cannot be replayed over another network: " << recordProblem
            << std::endl;
    }
    plan.capture->Commit();
    Simulator::Destroy();
    WriteRunSummary(summary, out);
    return summary;
}

} // namespace ns3

namespace ns3
{

void
PrintChocoTuning(const ScenarioConfig& c, std::ostream& out)
{
    const uint32_t nodes = static_cast<uint32_t>(c.GetUint("nodes", 2, 100000));
    const uint64_t seed = c.GetUint("seed", 1, UINT32_MAX);
    const TopologySpec spec = ReadTopology(c, nodes);
    ChocoTuningSpec tuning;
    try
    {
        // The keys as a run of CHOCO-SGD reads them, checked by its registration.
        AlgorithmParameters choco = AlgorithmRegistry::Parameters(
            "choco",
            {{"choco.compression", c.GetString("choco.compression")},
             {"choco.alpha", c.GetString("choco.alpha")}},
            0);
        tuning.compression = choco.GetString("choco.compression");
        tuning.alpha = choco.GetDouble("choco.alpha");
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(e.what());
    }
    tuning.seed = seed;
    // The same overlay the run draws: same seed, same stream.
    RngSeedManager::SetSeed(static_cast<uint32_t>(seed));
    RngSeedManager::SetRun(1);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    OverlayGraph graph = MakeTopology(spec, rng).Union();
    if (graph.IsDirected())
    {
        throw ScenarioError("topology " + spec.name
                            + " is directed; CHOCO-SGD needs an undirected one");
    }
    tuning.neighbours = graph.GetAdjacency();
    ChocoTuningResult result = TuneChocoGamma(tuning);
    out << "CHOCO-SGD consensus step size for " << nodes << " nodes (" << spec.name << "), "
        << tuning.compression << " " << tuning.alpha << ": " << tuning.iterations
        << " rounds of compressed gossip on random vectors of " << tuning.dimension
        << " values, initial error " << result.initialError << "\n";
    out << "gamma,final_error,diverged\n";
    for (const auto& p : result.points)
    {
        out << p.gamma << "," << p.finalError << "," << (p.diverged ? "yes" : "no") << "\n";
    }
    out << "best gamma: " << result.bestGamma << std::endl;
}

int
StderrBeforeLogFile()
{
    return g_stderrBeforeLogFile;
}

} // namespace ns3
