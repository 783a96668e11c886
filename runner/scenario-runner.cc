/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "scenario-runner.h"

#include "choco-tuning.h"
#include "compute-time-model.h"
#include "dataset-catalog.h"
#include "learner-helper.h"
#include "learner.h"
#include "link-model.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/point-to-point-helper.h"
#include "overlay-graph.h"
#include "partitioner.h"
#include "underlay-config.h"
#include "wavelet-transform.h"

#include <cmath>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <unistd.h>

namespace ns3
{

namespace
{

DatasetSplit
LoadData(const ScenarioConfig& c, uint64_t seed)
{
    DatasetChoice choice;
    choice.name = c.GetChoice("dataset", KnownDatasets());
    choice.path = c.GetString("dataset.path");
    if (choice.name == "synthetic")
    {
        SyntheticSpec& spec = choice.synthetic;
        spec.trainSamples
            = static_cast<uint32_t>(c.GetUint("synthetic.train_samples", 1, 10000000));
        spec.testSamples = static_cast<uint32_t>(c.GetUint("synthetic.test_samples", 1, 10000000));
        spec.numClasses = static_cast<uint32_t>(c.GetUint("synthetic.classes", 2, 1000));
        spec.noise = static_cast<float>(c.GetDouble("synthetic.noise", 0.0, 1e6));
        spec.seed = seed;
    }
    return LoadDataset(choice);
}

Partition
MakePartition(const ScenarioConfig& c, const Dataset& train, uint32_t nodes, uint64_t seed)
{
    const std::string& kind = c.GetChoice("partition", {"iid", "shards", "dirichlet", "skew"});
    if (kind == "skew")
    {
        return PartitionSkew(train, nodes, c.GetDouble("partition.skew", 0.0, 1.0), seed);
    }
    if (kind == "iid")
    {
        return PartitionIid(train, nodes, seed);
    }
    if (kind == "shards")
    {
        return PartitionShards(
            train, nodes, static_cast<uint32_t>(c.GetUint("partition.shards", 1, 1000000)), seed);
    }
    return PartitionDirichlet(train, nodes, c.GetDouble("partition.alpha", 1e-9, 1e9), seed);
}

void
WritePartitionCsv(const std::string& path, const Dataset& train, const Partition& partition)
{
    std::ofstream out(path);
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
    if (!out)
    {
        throw std::runtime_error("cannot write " + path);
    }
}

/**
 * Keeps two runs out of one run folder: holds `.lock` (with the owner's pid) while it lives.
 * A lock left by a process that no longer exists is taken over.
 */
class RunFolderLock
{
  public:
    explicit RunFolderLock(const std::string& folder) : m_path(folder + "/.lock")
    {
        for (int attempt = 0; attempt < 2; ++attempt)
        {
            int fd = ::open(m_path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
            if (fd >= 0)
            {
                std::string pid = std::to_string(::getpid()) + "\n";
                ssize_t written = ::write(fd, pid.data(), pid.size());
                ::close(fd);
                if (written == static_cast<ssize_t>(pid.size()))
                {
                    return;
                }
                throw std::runtime_error("cannot write " + m_path);
            }
            std::ifstream in(m_path);
            long owner = 0;
            in >> owner;
            if (owner > 0 && ::kill(static_cast<pid_t>(owner), 0) == 0)
            {
                throw ScenarioError("run folder " + folder + " is being written by process "
                                    + std::to_string(owner) + "; choose another `out`");
            }
            std::filesystem::remove(m_path); // stale: its process is gone
        }
        throw ScenarioError("cannot lock run folder " + folder);
    }

    ~RunFolderLock()
    {
        std::error_code ignored;
        std::filesystem::remove(m_path, ignored);
    }

    RunFolderLock(const RunFolderLock&) = delete;
    RunFolderLock& operator=(const RunFolderLock&) = delete;

  private:
    std::string m_path;
};

/// The averaging rate the Sparse-Push paper pairs with a top-k fraction (nearest on a log scale).
double
PaperEta(double alpha)
{
    const std::vector<std::pair<double, double>> pairs
        = {{1.0, 1.0}, {0.5, 0.08}, {0.1, 0.01}, {0.01, 0.005}, {0.001, 0.001}};
    auto best = pairs.front();
    for (const auto& p : pairs)
    {
        if (std::fabs(std::log(alpha / p.first)) < std::fabs(std::log(alpha / best.first)))
        {
            best = p;
        }
    }
    return best.second;
}

/// Sharing parameters of every algorithm, read from their own keys.
SharingConfig
ReadSharing(const ScenarioConfig& c, uint32_t rounds)
{
    SharingConfig s;
    s.algorithm = c.GetChoice("algorithm", KnownAlgorithms());
    s.trainingRounds = rounds;
    if (s.algorithm == "random-sampling")
    {
        s.alpha = c.GetDouble("random-sampling.alpha", 1e-9, 1.0);
    }
    else if (s.algorithm == "topk")
    {
        s.alpha = c.GetDouble("topk.alpha", 1e-9, 1.0);
        s.accumulation = c.GetBool("topk.accumulation");
    }
    else if (s.algorithm == "choco")
    {
        s.alpha = c.GetDouble("choco.alpha", 1e-9, 1.0);
        s.chocoCompression = c.GetChoice("choco.compression", {"topk", "randomk"});
        if (c.GetString("choco.gamma") != "auto")
        {
            s.chocoGamma = c.GetDouble("choco.gamma", 1e-9, 1.0);
        }
    }
    else if (s.algorithm == "sparse-push" || s.algorithm == "scsp")
    {
        s.alpha = c.GetDouble("sparse-push.alpha", 1e-9, 1.0);
        s.pushEta = c.GetString("sparse-push.eta") == "auto"
                        ? PaperEta(s.alpha)
                        : c.GetDouble("sparse-push.eta", 1e-9, 1.0);
        s.scspGossipRounds = static_cast<uint32_t>(c.GetUint("scsp.gossip_rounds", 0, 100000000));
        s.scspGossipEta = c.GetDouble("scsp.gossip_eta", 1e-9, 1.0);
    }
    // JWINS keys are always checked, so a typo there is found whichever algorithm runs.
    s.jwinsAlphas = c.GetDoubleList("jwins.alphas", 1e-9, 1.0);
    s.jwinsMetadataCap = c.GetDouble("jwins.metadata_cap", 0.0, 1e9);
    s.jwinsWavelet = c.GetString("jwins.wavelet");
    if (s.jwinsWavelet != "none")
    {
        std::vector<std::string> wavelets = WaveletTransform::KnownWavelets();
        wavelets.push_back("none");
        c.GetChoice("jwins.wavelet", wavelets);
    }
    s.jwinsLevels = static_cast<uint32_t>(c.GetUint("jwins.levels", 1, 64));
    s.jwinsAccumulation = c.GetBool("jwins.accumulation");
    s.jwinsRandomCutoff = c.GetBool("jwins.random_cutoff");
    return s;
}

/// The overlay the scenario describes (read and checked; not yet drawn).
TopologySpec
ReadTopology(const ScenarioConfig& c, uint32_t nodes)
{
    TopologySpec spec;
    spec.name = c.GetChoice("topology", KnownTopologies());
    spec.nodes = nodes;
    spec.degree = static_cast<uint32_t>(c.GetUint("degree", 1, 100000));
    spec.directed = c.GetBool("topology.directed");
    spec.period = static_cast<uint32_t>(c.GetUint("topology.period", 1, UINT32_MAX));
    if (spec.name == "file" && !c.GetString("topology.file").empty())
    {
        spec.files = {c.GetString("topology.file")};
    }
    if (spec.name == "schedule" && c.GetString("topology.schedule") != "[]")
    {
        spec.files = c.GetList("topology.schedule");
    }
    return spec;
}

/// CHOCO-SGD's step-size tuning problem on this overlay with this compression.
ChocoTuningSpec
ChocoSpecFor(const OverlayGraph& graph, const SharingConfig& sharing, uint64_t seed)
{
    ChocoTuningSpec spec;
    for (uint32_t i = 0; i < graph.GetNNodes(); ++i)
    {
        spec.neighbours.push_back(graph.GetOutNeighbours(i));
    }
    spec.compression = sharing.chocoCompression;
    spec.alpha = sharing.alpha;
    spec.seed = seed;
    return spec;
}

/// CHOCO-SGD's consensus step size for this overlay, tuned by compressed gossip.
double
TuneChocoForOverlay(const OverlayGraph& graph,
                    const SharingConfig& sharing,
                    uint64_t seed,
                    std::ostream& log)
{
    ChocoTuningSpec spec = ChocoSpecFor(graph, sharing, seed);
    ChocoTuningResult result = TuneChocoGamma(spec);
    log << "choco: consensus step size tuned by " << spec.iterations
        << " rounds of compressed gossip on random vectors: gamma = " << result.bestGamma
        << std::endl;
    return result.bestGamma;
}

} // namespace

RunSummary
RunScenario(const ScenarioConfig& c, std::ostream& log)
{
    // Read and check every key before anything expensive happens.
    const uint32_t nodes = static_cast<uint32_t>(c.GetUint("nodes", 2, 100000));
    const uint32_t rounds = static_cast<uint32_t>(c.GetUint("rounds", 1, 100000000));
    const uint64_t seed = c.GetUint("seed", 1, UINT32_MAX);
    const TopologySpec topologySpec = ReadTopology(c, nodes);
    TrainingConfig training;
    training.model = c.GetChoice("model", KnownModels());
    training.lr = c.GetDouble("lr", 0.0, 1e6);
    training.momentum = c.GetDouble("momentum", 0.0, 1.0);
    training.weightDecay = c.GetDouble("weight_decay", 0.0, 1e6);
    training.batchSize = static_cast<uint32_t>(c.GetUint("batch_size", 1, 1000000));
    training.localSteps = static_cast<uint32_t>(c.GetUint("local_steps", 1, 1000000));
    SharingConfig sharing = ReadSharing(c, rounds);
    const uint32_t mtu = static_cast<uint32_t>(c.GetUint("link.mtu", 576, 65535));
    uint32_t segmentSize = static_cast<uint32_t>(c.GetUint("tcp.segment_size", 0, 65535));
    if (segmentSize == 0)
    {
        segmentSize = mtu - 52; // IPv4 20 + TCP 20 + timestamp option 12
    }
    else if (segmentSize > mtu - 52)
    {
        throw ScenarioError("tcp.segment_size " + std::to_string(segmentSize)
                            + " does not fit link.mtu " + std::to_string(mtu)
                            + " with 52 bytes of IP and TCP headers");
    }
    UnderlayConfig underlayConfig(c, nodes, mtu);
    ComputeTimeModel computeModel(c.GetString("compute.model"),
                                  c.GetString("compute.device_gflops"),
                                  c.GetDouble("compute.step_seconds", 0.0, 1e9),
                                  c.GetDouble("compute.measured_scale", 1e-12, 1e12));
    const uint32_t evalEvery = static_cast<uint32_t>(c.GetUint("eval.every", 1, UINT32_MAX));
    const uint32_t evalSamples
        = static_cast<uint32_t>(c.GetUint("eval.test_samples", 0, UINT32_MAX));
    const uint32_t evalNodes = static_cast<uint32_t>(c.GetUint("eval.nodes", 0, nodes));
    const double target = c.GetDouble("target_accuracy", 0.0, 1.0);
    const bool sameInit = c.GetBool("model.same_init");
    const std::string out = c.GetString("out");

    std::filesystem::create_directories(out);
    RunFolderLock lock(out);
    {
        std::ofstream ini(out + "/config.ini");
        c.WriteIni(ini);
        if (!ini)
        {
            throw std::runtime_error("cannot write " + out + "/config.ini");
        }
    }

    UseSingleThreadedTorch();
    RngSeedManager::SetSeed(static_cast<uint32_t>(seed));
    RngSeedManager::SetRun(1);

    // The overlay first: its errors show before the dataset is loaded.
    Ptr<UniformRandomVariable> topologyRng = CreateObject<UniformRandomVariable>();
    topologyRng->SetStream(0);
    OverlaySchedule schedule = MakeTopology(topologySpec, topologyRng);
    OverlayGraph graph = schedule.Union();
    if (CreateSharingAlgorithm(sharing)->ForDirectedGraphs() != schedule.IsDirected())
    {
        throw ScenarioError("algorithm " + sharing.algorithm + " needs "
                            + (schedule.IsDirected() ? "an undirected" : "a directed")
                            + " topology, but topology " + topologySpec.name + " is "
                            + (schedule.IsDirected() ? "directed" : "undirected"));
    }
    if (sharing.algorithm == "choco" && c.GetString("choco.gamma") == "auto")
    {
        sharing.chocoGamma = TuneChocoForOverlay(graph, sharing, seed, log);
    }

    DatasetSplit data = LoadData(c, seed);
    Partition partition = MakePartition(c, *data.train, nodes, seed);
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
    }

    NodeContainer hosts;
    hosts.Create(nodes);
    Underlay underlay = underlayConfig.Install(hosts, graph, 1);
    LinkUsage linkUsage(underlay);
    log << underlayConfig.Describe(underlay) << std::endl;

    LearnerHelper learners;
    learners.SetData(data, partition);
    learners.SetTraining(training);
    learners.SetSharing(sharing);
    learners.SetSchedule(schedule);
    learners.SetSeed(seed);
    learners.SetSameInitialModel(sameInit);
    learners.SetComputeTimeModel(computeModel);
    learners.SetEvaluatedLearners(evalNodes);
    learners.AssignStreams(3);
    learners.SetAttribute("Rounds", UintegerValue(rounds));
    learners.SetAttribute("EvalEvery", UintegerValue(evalEvery));
    learners.SetAttribute("EvalSamples", UintegerValue(evalSamples));
    learners.SetAttribute("TcpSegmentSize", UintegerValue(segmentSize));
    learners.SetAttribute("TcpBufferSize",
                          UintegerValue(c.GetUint("tcp.buffer", 1024, UINT32_MAX)));
    learners.SetAttribute("TcpInitialCwnd",
                          UintegerValue(c.GetUint("tcp.initial_cwnd", 1, 1000000)));
    ApplicationContainer apps = learners.Install(hosts, underlay.addresses);
    apps.Start(Seconds(0));

    ResultsWriter writer(out, nodes, target, log);
    writer.Attach(apps);
    log << "dlsim: " << nodes << " learners, " << graph.GetEdges().size() << " overlay edges, "
        << rounds << " rounds of " << sharing.algorithm << " on " << data.train->name << " with "
        << training.model << "; results in " << out << std::endl;
    // FlowMonitor counts every IP packet: payload plus TCP/IP headers, ACKs, retransmissions.
    FlowMonitorHelper flowHelper;
    Ptr<FlowMonitor> flows = flowHelper.Install(hosts);
    Simulator::Run();
    double wireBytes = 0.0;
    for (const auto& [id, stats] : flows->GetFlowStats())
    {
        wireBytes += static_cast<double>(stats.txBytes);
    }
    RunSummary summary = writer.Finish(seed);
    linkUsage.WriteCsv(out + "/links.csv", summary.simulatedSeconds);
    Simulator::Destroy();
    summary.wireBytesPerNode = wireBytes / nodes;
    {
        std::ofstream csv(out + "/summary.csv");
        csv << SummaryCsvHeader() << "\n" << SummaryCsvRow(summary) << "\n";
        if (!csv)
        {
            throw std::runtime_error("cannot write " + out + "/summary.csv");
        }
    }
    // Written last: its presence marks the run as complete.
    WriteSummaryJson(summary, out + "/summary.json");
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
    SharingConfig sharing;
    sharing.chocoCompression = c.GetChoice("choco.compression", {"topk", "randomk"});
    sharing.alpha = c.GetDouble("choco.alpha", 1e-9, 1.0);
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
    ChocoTuningSpec tuning = ChocoSpecFor(graph, sharing, seed);
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

} // namespace ns3
