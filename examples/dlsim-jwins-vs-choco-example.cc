// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * JWINS against CHOCO-SGD on the same network, written as an ns-3 program.
 *
 * Learners sit on a random 4-regular overlay whose links are not all alike: the first
 * --slowLearners learners are behind slow access links, so every overlay link that touches one
 * of them is slow (--slowRate, --slowDelay) and the others are fast (--fastRate, --fastDelay).
 * The program writes this layout as a link file (u,v,bandwidth,latency) and builds the links
 * from it with a LinkModel, or uses a link file of your own (--linkFile).
 *
 * The two algorithms then run one after the other on identical data, partition, seeds and links:
 * the nodes are built anew for each run and Simulator::Destroy ends each one. CHOCO-SGD's
 * consensus step size gamma is tuned on the overlay first (TuneChocoGamma). At the end a table
 * compares the final mean test accuracy, the simulated time and the bytes each node sent,
 * split into model values and metadata (headers, indices, ...).
 *
 *   build/dlsim-jwins-vs-choco-example
 *   build/dlsim-jwins-vs-choco-example --learners=16 --rounds=40 --slowLearners=4
 *   build/dlsim-jwins-vs-choco-example --dataset=fashion-mnist --model=gn-lenet \
 *       --learners=16 --rounds=200 --evalSamples=2000 --lr=0.05
 *
 * It exits non-zero when a learner did not finish its rounds, or when a final mean accuracy is
 * below --minAccuracy (default 0: no accuracy check).
 */
#include "choco-tuning.h"
#include "direct-underlay-helper.h"
#include "example-setup.h"
#include "learner-application.h"
#include "learner-helper.h"
#include "link-model.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "overlay-graph.h"
#include "partitioner.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <vector>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DlsimJwinsVsChocoExample");

namespace
{

/// Everything both runs share: the same for JWINS and CHOCO-SGD.
struct Scenario
{
    uint32_t learners = 0;
    uint32_t rounds = 0;
    uint32_t seed = 1;
    uint32_t evalEvery = 1;
    uint32_t evalSamples = 0;
    DatasetSplit data;
    Partition partition;
    OverlayGraph graph{0, false};
    std::string linkFile;
    TrainingConfig training;
};

/// What one run ends with, collected from the learners' trace sources.
struct RunResult
{
    std::string algorithm;
    uint32_t finished = 0;          ///< learners that completed all their rounds
    double finalAccuracy = 0.0;     ///< mean over the learners of the last evaluation
    uint32_t finalEvaluations = 0;  ///< learners that reported a last evaluation
    double simulatedSeconds = 0.0;  ///< when the last learner completed its last round
    double valueBytesPerNode = 0.0; ///< model values sent, mean over the learners
    double metadataBytesPerNode = 0.0;
};

/// Collects one run's round and evaluation reports.
class RunRecorder
{
  public:
    RunRecorder(uint32_t learners, uint32_t rounds)
        : m_rounds(rounds), m_valueBytes(learners, 0), m_metadataBytes(learners, 0)
    {}

    void RoundCompleted(const RoundReport& report)
    {
        // The reports carry cumulative byte counts, so the last one of each learner is its total.
        m_valueBytes[report.learner] = report.totalValueBytes;
        m_metadataBytes[report.learner] = report.totalMetadataBytes;
        m_lastRoundTime = std::max(m_lastRoundTime, report.time);
    }

    void Evaluated(const EvalReport& report)
    {
        if (report.round == m_rounds)
        {
            m_finalAccuracy.push_back(report.accuracy);
        }
        m_accuracy[report.round].push_back(report.accuracy);
    }

    void Fill(RunResult& result) const
    {
        const double n = static_cast<double>(m_valueBytes.size());
        for (size_t i = 0; i < m_valueBytes.size(); ++i)
        {
            result.valueBytesPerNode += m_valueBytes[i] / n;
            result.metadataBytesPerNode += m_metadataBytes[i] / n;
        }
        for (double a : m_finalAccuracy)
        {
            result.finalAccuracy += a / m_finalAccuracy.size();
        }
        result.finalEvaluations = static_cast<uint32_t>(m_finalAccuracy.size());
        result.simulatedSeconds = m_lastRoundTime.GetSeconds();
    }

    /// Mean accuracy per evaluated round, for the progress lines.
    const std::map<uint32_t, std::vector<double>>& GetAccuracy() const
    {
        return m_accuracy;
    }

  private:
    uint32_t m_rounds;
    std::vector<uint64_t> m_valueBytes;
    std::vector<uint64_t> m_metadataBytes;
    std::vector<double> m_finalAccuracy;
    std::map<uint32_t, std::vector<double>> m_accuracy;
    Time m_lastRoundTime;
};

/// "learners 0-3", "learner 0" or "no learner".
std::string
DescribeSlowLearners(uint32_t slowLearners)
{
    if (slowLearners == 0)
    {
        return "no learner";
    }
    if (slowLearners == 1)
    {
        return "learner 0";
    }
    return "learners 0-" + std::to_string(slowLearners - 1);
}

/**
 * The link layout: learners 0..slowLearners-1 are behind slow access links, so a link is slow
 * when either end is one of them. Written as the CSV a LinkModel reads (the header must be the
 * first line).
 */
void
WriteLinkFile(const std::string& path,
              const OverlayGraph& graph,
              uint32_t slowLearners,
              const std::string& slowRate,
              const std::string& slowDelay,
              const std::string& fastRate,
              const std::string& fastDelay)
{
    std::ofstream out(path);
    out << "u,v,bandwidth,latency\n";
    out << "# links of " << DescribeSlowLearners(slowLearners) << " are slow\n";
    for (auto [u, v] : graph.GetLinks())
    {
        bool slow = u < slowLearners || v < slowLearners;
        out << u << "," << v << "," << (slow ? slowRate : fastRate) << ","
            << (slow ? slowDelay : fastDelay) << "\n";
    }
    NS_ABORT_MSG_UNLESS(out, "cannot write the link file " << path);
}

/// One complete simulation of one algorithm; leaves ns-3 clean for the next run.
RunResult
RunAlgorithm(const Scenario& s, const SharingConfig& sharing)
{
    // Same seed and run number for every algorithm, so the runs differ only in the algorithm.
    RngSeedManager::SetSeed(s.seed);
    RngSeedManager::SetRun(1);

    // Fresh nodes for every run: Simulator::Destroy at the end of the previous run disposed of
    // the old ones (and emptied the NodeList).
    NodeContainer nodes;
    nodes.Create(s.learners);

    // The LinkModel's own bandwidth and latency are not used once a file is set.
    LinkModel links("10Mbps", "10ms");
    links.SetFile(s.linkFile);
    DirectUnderlayHelper direct(s.graph);
    direct.SetLinkModel(links);
    Underlay underlay = direct.Install(nodes);

    LearnerHelper learners;
    learners.SetData(s.data, s.partition);
    learners.SetTraining(s.training);
    learners.SetSharing(sharing);
    learners.SetOverlay(s.graph);
    learners.SetSeed(s.seed);
    learners.AssignStreams(10);
    learners.SetAttribute("Rounds", UintegerValue(s.rounds));
    learners.SetAttribute("EvalEvery", UintegerValue(s.evalEvery));
    learners.SetAttribute("EvalSamples", UintegerValue(s.evalSamples));
    ApplicationContainer apps = learners.Install(nodes, underlay.addresses);
    apps.Start(Seconds(0));

    RunRecorder recorder(s.learners, s.rounds);
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext(
            "RoundCompleted", MakeCallback(&RunRecorder::RoundCompleted, &recorder));
        apps.Get(i)->TraceConnectWithoutContext("Evaluated",
                                                MakeCallback(&RunRecorder::Evaluated, &recorder));
    }

    std::cout << "\n"
              << sharing.algorithm << ": " << s.learners << " learners, " << s.rounds << " rounds"
              << std::endl;
    // The learners stop sending after their last round, so the simulation ends by itself.
    Simulator::Run();

    RunResult result;
    result.algorithm = sharing.algorithm;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        if (DynamicCast<LearnerApplication>(apps.Get(i))->IsFinished())
        {
            ++result.finished;
        }
    }
    recorder.Fill(result);
    for (const auto& [round, accuracies] : recorder.GetAccuracy())
    {
        double mean = 0.0;
        for (double a : accuracies)
        {
            mean += a / accuracies.size();
        }
        std::cout << "  round " << std::setw(4) << round << ": mean test accuracy " << std::fixed
                  << std::setprecision(4) << mean << std::endl;
    }
    // The recorder is a local: everything that may call it goes away here.
    Simulator::Destroy();
    return result;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t learnerCount = 8;
    uint32_t degree = 4;
    uint32_t rounds = 20;
    uint32_t seed = 1;
    uint32_t slowLearners = 2;
    std::string slowRate = "2Mbps";
    std::string slowDelay = "25ms";
    std::string fastRate = "20Mbps";
    std::string fastDelay = "5ms";
    std::string linkFile;
    std::string linkFileOut = "dlsim-jwins-vs-choco-links.csv";
    std::string dataset = "synthetic";
    std::string dataPath = kDefaultFashionMnistDir;
    double noise = 3.0;
    std::string model = "logistic";
    double lr = 0.05;
    uint32_t batchSize = 8;
    uint32_t localSteps = 3;
    uint32_t evalEvery = 5;
    uint32_t evalSamples = 0;
    double chocoAlpha = 0.1;
    double minAccuracy = 0.0;

    CommandLine cmd(__FILE__);
    cmd.AddValue("learners", "Number of learners (hosts)", learnerCount);
    cmd.AddValue("degree", "Degree of the random regular overlay", degree);
    cmd.AddValue("rounds", "Synchronous rounds of each run", rounds);
    cmd.AddValue("seed", "Seed of everything random (the same for both runs)", seed);
    cmd.AddValue("slowLearners", "Learners 0..N-1 are behind slow links", slowLearners);
    cmd.AddValue("slowRate", "Bandwidth of links touching a slow learner", slowRate);
    cmd.AddValue("slowDelay", "One-way latency of links touching a slow learner", slowDelay);
    cmd.AddValue("fastRate", "Bandwidth of the other links", fastRate);
    cmd.AddValue("fastDelay", "One-way latency of the other links", fastDelay);
    cmd.AddValue("linkFile",
                 "Use this CSV u,v,bandwidth,latency for the links instead of the slow/fast layout",
                 linkFile);
    cmd.AddValue("linkFileOut", "Where to write the generated slow/fast layout", linkFileOut);
    cmd.AddValue("dataset", "synthetic or fashion-mnist", dataset);
    cmd.AddValue("dataPath", "Directory of the Fashion-MNIST IDX files", dataPath);
    cmd.AddValue("noise", "Synthetic data: pixel noise around the class prototypes", noise);
    cmd.AddValue("model", "logistic, mlp or gn-lenet", model);
    cmd.AddValue("lr", "SGD learning rate", lr);
    cmd.AddValue("batchSize", "SGD mini-batch size", batchSize);
    cmd.AddValue("localSteps", "SGD steps per round", localSteps);
    cmd.AddValue("evalEvery", "Evaluate every this many rounds (and after the last)", evalEvery);
    cmd.AddValue("evalSamples", "Test samples to evaluate on (0: all)", evalSamples);
    cmd.AddValue("chocoAlpha", "CHOCO-SGD: fraction of the model sent (top-k)", chocoAlpha);
    cmd.AddValue("minAccuracy",
                 "Exit non-zero if an algorithm's final mean accuracy is below this",
                 minAccuracy);
    cmd.Parse(argc, argv);

    UseSingleThreadedTorch();

    Scenario s;
    s.learners = learnerCount;
    s.rounds = rounds;
    s.seed = seed;
    s.evalEvery = evalEvery;
    s.evalSamples = evalSamples;
    s.training.model = model;
    s.training.lr = lr;
    s.training.batchSize = batchSize;
    s.training.localSteps = localSteps;

    // The data and its partition are made once and handed to both runs (read-only).
    std::optional<DatasetSplit> loaded = LoadExampleData(dataset, seed, dataPath, noise);
    if (!loaded)
    {
        return 2;
    }
    s.data = *loaded;
    // Two label-sorted shards per learner: the non-IID case where sparse sharing struggles.
    s.partition = PartitionShards(*s.data.train, learnerCount, 2, seed);

    // The overlay is drawn once, so both algorithms see the same graph.
    RngSeedManager::SetSeed(seed);
    Ptr<UniformRandomVariable> topologyRng = CreateObject<UniformRandomVariable>();
    topologyRng->SetStream(0);
    s.graph = MakeRandomRegularGraph(learnerCount, degree, topologyRng);

    s.linkFile = linkFile;
    if (s.linkFile.empty())
    {
        WriteLinkFile(linkFileOut, s.graph, slowLearners, slowRate, slowDelay, fastRate, fastDelay);
        s.linkFile = linkFileOut;
        std::cout << "link layout written to " << linkFileOut << ": links of "
                  << DescribeSlowLearners(slowLearners) << " are slow" << std::endl;
    }
    // Read the file once up front: a missing or incomplete file is reported before any training,
    // and the summary shows what both runs will get.
    LinkModel linkModel("10Mbps", "10ms");
    linkModel.SetFile(s.linkFile);
    std::map<std::pair<double, double>, uint32_t> linkKinds; // (bit/s, s) -> links
    for (const LinkParameters& link : linkModel.Draw(s.graph.GetLinks()))
    {
        ++linkKinds[{link.bandwidthBps, link.latencySeconds}];
    }
    for (const auto& [kind, count] : linkKinds)
    {
        std::cout << "  " << count << " links of " << kind.first / 1e6 << " Mbit/s, "
                  << kind.second * 1e3 << " ms" << std::endl;
    }

    // JWINS: wavelet-domain top-k with accumulation and a random fraction per round, from the
    // SharingConfig defaults (fractions 0.1 ... 1.0, sym2, 4 levels).
    SharingConfig jwins;
    jwins.algorithm = "jwins";

    // CHOCO-SGD: top-k compression of the model difference. Its consensus step size depends on
    // the graph and the compression, so tune it on this overlay by compressed gossip on random
    // vectors (the way the CHOCO-SGD authors do).
    SharingConfig choco;
    choco.algorithm = "choco";
    choco.alpha = chocoAlpha;
    choco.chocoCompression = "topk";
    ChocoTuningSpec tuning;
    for (uint32_t i = 0; i < s.graph.GetNNodes(); ++i)
    {
        tuning.neighbours.push_back(s.graph.GetOutNeighbours(i));
    }
    tuning.compression = choco.chocoCompression;
    tuning.alpha = choco.alpha;
    tuning.seed = seed;
    ChocoTuningResult tuned = TuneChocoGamma(tuning);
    choco.chocoGamma = tuned.bestGamma;
    std::cout << "CHOCO-SGD gamma tuned on the overlay: " << tuned.bestGamma << " (of "
              << tuned.points.size() << " candidates, " << tuning.iterations
              << " gossip iterations each)" << std::endl;

    std::vector<RunResult> results;
    results.push_back(RunAlgorithm(s, jwins));
    results.push_back(RunAlgorithm(s, choco));

    std::cout << "\nalgorithm  final acc  sim time (s)  value B/node  metadata B/node  total B/node"
              << std::endl;
    bool ok = true;
    for (const RunResult& r : results)
    {
        std::cout << std::left << std::setw(9) << r.algorithm << std::right << std::fixed
                  << std::setw(11) << std::setprecision(4) << r.finalAccuracy << std::setw(14)
                  << std::setprecision(3) << r.simulatedSeconds << std::setw(14)
                  << std::setprecision(0) << r.valueBytesPerNode << std::setw(17)
                  << r.metadataBytesPerNode << std::setw(14)
                  << r.valueBytesPerNode + r.metadataBytesPerNode << std::endl;
        if (r.finished != learnerCount)
        {
            std::cerr << r.algorithm << ": only " << r.finished << " of " << learnerCount
                      << " learners finished their rounds" << std::endl;
            ok = false;
        }
        if (r.finalEvaluations != learnerCount)
        {
            std::cerr << r.algorithm << ": " << r.finalEvaluations << " of " << learnerCount
                      << " learners reported a final evaluation" << std::endl;
            ok = false;
        }
        // Both algorithms send model values every round, which takes simulated time.
        if (!(r.valueBytesPerNode > 0.0) || !(r.simulatedSeconds > 0.0))
        {
            std::cerr << r.algorithm << ": no bytes sent or no simulated time passed" << std::endl;
            ok = false;
        }
        if (r.finalAccuracy < minAccuracy)
        {
            std::cerr << r.algorithm << ": final mean accuracy " << r.finalAccuracy
                      << " is below --minAccuracy=" << minAccuracy << std::endl;
            ok = false;
        }
    }
    return ok ? 0 : 1;
}
