// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The LearnerApplication's trace sources, written as an ns-3 program that produces its own
 * output instead of the runner's result files.
 *
 * Four trace sources are attached, in the two ways ns-3 offers:
 *  - MessageSent through the configuration namespace, for every learner at once, with
 *    Config::ConnectWithoutContext and a path that matches every LearnerApplication of every
 *    node ("/NodeList/[*]/ApplicationList/[*]/$ns3::LearnerApplication/MessageSent", without
 *    the brackets; see main);
 *  - MessageReceived, RoundCompleted and Evaluated on each application object with
 *    TraceConnectWithoutContext.
 *
 * Every received message becomes one line of a CSV file (--output, default
 * dlsim-trace-example.csv):
 *   received_s,sender,receiver,round,bytes,value_bytes,sent_s
 * (bytes = header + payload, value_bytes = the model values in it, times in simulated seconds),
 * and a per-round summary is printed at the end. The program checks that every message sent
 * was received exactly once, with the bytes it was sent with, and that every learner finished;
 * otherwise it exits non-zero.
 *
 *   build/dlsim-trace-example
 *   build/dlsim-trace-example --learners=8 --degree=4 --rounds=10 --algorithm=jwins \
 *       --output=/tmp/messages.csv
 *   build/dlsim-trace-example --dataset=fashion-mnist --model=gn-lenet --dataRate=1Mbps
 */
#include "direct-underlay-helper.h"
#include "example-setup.h"
#include "learner-application.h"
#include "learner-helper.h"
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
#include <tuple>
#include <vector>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DlsimTraceExample");

namespace
{

/// A message is identified by who sent it to whom in which round (one per triple).
using MessageKey = std::tuple<uint32_t, uint32_t, uint32_t>; // sender, receiver, round

struct SentMessage
{
    Time time;
    uint64_t totalBytes = 0;
    uint64_t valueBytes = 0;
    bool received = false;
};

/// What the trace sinks saw of one round, over all learners.
struct RoundSummary
{
    uint32_t learnersDone = 0;
    Time lastEnd;
    uint32_t messagesSent = 0;
    uint32_t messagesReceived = 0;
    uint64_t bytesSent = 0;
    uint64_t valueBytesSent = 0;
    Time longestTransfer; ///< from MessageSent to MessageReceived, over the round's messages
    double lossSum = 0.0;
    std::vector<double> accuracies;
};

std::ofstream g_csv;
std::map<MessageKey, SentMessage> g_sent;
std::map<uint32_t, RoundSummary> g_rounds;
uint64_t g_sentCount = 0;
uint64_t g_receivedCount = 0;
uint64_t g_problems = 0; ///< duplicates, receipts without a send, byte mismatches

void
MessageSent(const MessageReport& report)
{
    ++g_sentCount;
    RoundSummary& round = g_rounds[report.round];
    ++round.messagesSent;
    round.bytesSent += report.totalBytes;
    round.valueBytesSent += report.valueBytes;
    SentMessage sent;
    sent.time = report.time;
    sent.totalBytes = report.totalBytes;
    sent.valueBytes = report.valueBytes;
    if (!g_sent.emplace(MessageKey{report.sender, report.receiver, report.round}, sent).second)
    {
        std::cerr << "learner " << report.sender << " sent round " << report.round << " to "
                  << report.receiver << " twice" << std::endl;
        ++g_problems;
    }
}

void
MessageReceived(const MessageReport& report)
{
    ++g_receivedCount;
    RoundSummary& round = g_rounds[report.round];
    ++round.messagesReceived;
    // The receiver does not know how many of the bytes were model values: take that, and the
    // send time, from the matching MessageSent report.
    auto it = g_sent.find(MessageKey{report.sender, report.receiver, report.round});
    if (it == g_sent.end() || it->second.received)
    {
        std::cerr << "learner " << report.receiver << " received round " << report.round << " from "
                  << report.sender << (it == g_sent.end() ? ", which was never sent" : " twice")
                  << std::endl;
        ++g_problems;
        return;
    }
    SentMessage& sent = it->second;
    sent.received = true;
    round.longestTransfer = std::max(round.longestTransfer, report.time - sent.time);
    if (sent.totalBytes != report.totalBytes)
    {
        std::cerr << "message " << report.sender << "->" << report.receiver << " of round "
                  << report.round << ": sent " << sent.totalBytes << " bytes, received "
                  << report.totalBytes << std::endl;
        ++g_problems;
    }
    g_csv << std::fixed << std::setprecision(6) << report.time.GetSeconds() << "," << report.sender
          << "," << report.receiver << "," << report.round << "," << report.totalBytes << ","
          << sent.valueBytes << "," << sent.time.GetSeconds() << "\n";
}

void
RoundCompleted(const RoundReport& report)
{
    RoundSummary& round = g_rounds[report.round];
    ++round.learnersDone;
    round.lastEnd = std::max(round.lastEnd, report.time);
    round.lossSum += report.trainLoss;
}

void
Evaluated(const EvalReport& report)
{
    g_rounds[report.round].accuracies.push_back(report.accuracy);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t learnerCount = 6;
    uint32_t degree = 2;
    uint32_t rounds = 10;
    uint32_t seed = 1;
    std::string algorithm = "dpsgd";
    std::string dataRate = "10Mbps";
    std::string delay = "5ms";
    std::string dataset = "synthetic";
    std::string dataPath = kDefaultFashionMnistDir;
    std::string model = "logistic";
    double lr = 0.05;
    uint32_t evalEvery = 5;
    uint32_t evalSamples = 0;
    std::string output = "dlsim-trace-example.csv";

    CommandLine cmd(__FILE__);
    cmd.AddValue("learners", "Number of learners (hosts)", learnerCount);
    cmd.AddValue("degree", "Degree of the random regular overlay", degree);
    cmd.AddValue("rounds", "Synchronous rounds", rounds);
    cmd.AddValue("seed", "Seed of everything random", seed);
    cmd.AddValue("algorithm",
                 "Sharing algorithm for an undirected overlay: dpsgd, random-sampling, topk, "
                 "jwins or choco",
                 algorithm);
    cmd.AddValue("dataRate", "Bandwidth of every link", dataRate);
    cmd.AddValue("delay", "One-way latency of every link", delay);
    cmd.AddValue("dataset", "synthetic or fashion-mnist", dataset);
    cmd.AddValue("dataPath", "Directory of the Fashion-MNIST IDX files", dataPath);
    cmd.AddValue("model", "logistic, mlp or gn-lenet", model);
    cmd.AddValue("lr", "SGD learning rate", lr);
    cmd.AddValue("evalEvery", "Evaluate every this many rounds (and after the last)", evalEvery);
    cmd.AddValue("evalSamples", "Test samples to evaluate on (0: all)", evalSamples);
    cmd.AddValue("output", "CSV file with one line per message", output);
    cmd.Parse(argc, argv);

    RngSeedManager::SetSeed(seed);
    UseSingleThreadedTorch();

    std::optional<DatasetSplit> loaded = LoadExampleData(dataset, seed, dataPath);
    if (!loaded)
    {
        return 2;
    }
    DatasetSplit data = *loaded;
    Partition partition = PartitionShards(*data.train, learnerCount, 2, seed);

    // As dlsim-dpsgd-example.cc builds it: dedicated links under a random regular overlay.
    ExampleNetwork network = MakeExampleNetwork(learnerCount, degree, dataRate, delay);

    TrainingConfig training;
    training.model = model;
    training.lr = lr;
    SharingConfig sharing;
    sharing.algorithm = algorithm;

    LearnerHelper learners;
    learners.SetData(data, partition);
    learners.SetTraining(training);
    learners.SetSharing(sharing);
    learners.SetOverlay(network.overlay);
    learners.SetSeed(seed);
    learners.AssignStreams(10);
    learners.SetAttribute("Rounds", UintegerValue(rounds));
    learners.SetAttribute("EvalEvery", UintegerValue(evalEvery));
    learners.SetAttribute("EvalSamples", UintegerValue(evalSamples));
    ApplicationContainer apps = learners.Install(network.nodes, network.underlay.addresses);
    apps.Start(Seconds(0));

    g_csv.open(output);
    if (!g_csv)
    {
        std::cerr << "cannot write " << output << std::endl;
        return 2;
    }
    g_csv << "received_s,sender,receiver,round,bytes,value_bytes,sent_s\n";

    // Through the configuration namespace: one call reaches the MessageSent source of every
    // LearnerApplication on every node. The path is matched now, so the applications must be
    // installed first; it is a fatal error if nothing matches.
    Config::ConnectWithoutContext(
        "/NodeList/*/ApplicationList/*/$ns3::LearnerApplication/MessageSent",
        MakeCallback(&MessageSent));
    // On the objects themselves: the same effect, for the applications in hand.
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<Application> app = apps.Get(i);
        app->TraceConnectWithoutContext("MessageReceived", MakeCallback(&MessageReceived));
        app->TraceConnectWithoutContext("RoundCompleted", MakeCallback(&RoundCompleted));
        app->TraceConnectWithoutContext("Evaluated", MakeCallback(&Evaluated));
    }

    Simulator::Run();

    uint32_t finished = 0;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        finished += DynamicCast<LearnerApplication>(apps.Get(i))->IsFinished() ? 1 : 0;
    }
    Simulator::Destroy();
    g_csv.close();

    // Round 0 only holds the evaluation of the initial model.
    std::cout << "round  done   end (s)  msgs sent  msgs recv   bytes sent  value %"
                 "  max transfer (ms)  mean loss  mean acc"
              << std::endl;
    for (const auto& [round, s] : g_rounds)
    {
        std::cout << std::setw(5) << round << std::setw(6) << s.learnersDone << std::fixed
                  << std::setw(10) << std::setprecision(3) << s.lastEnd.GetSeconds()
                  << std::setw(11) << s.messagesSent << std::setw(11) << s.messagesReceived
                  << std::setw(13) << s.bytesSent << std::setw(9) << std::setprecision(1)
                  << (s.bytesSent ? 100.0 * s.valueBytesSent / s.bytesSent : 0.0) << std::setw(19)
                  << std::setprecision(1) << s.longestTransfer.GetSeconds() * 1e3;
        if (s.learnersDone > 0)
        {
            std::cout << std::setw(11) << std::setprecision(4) << s.lossSum / s.learnersDone;
        }
        else
        {
            std::cout << std::setw(11) << "-";
        }
        if (!s.accuracies.empty())
        {
            double mean = 0.0;
            for (double a : s.accuracies)
            {
                mean += a / s.accuracies.size();
            }
            std::cout << std::setw(10) << std::setprecision(4) << mean;
        }
        std::cout << std::endl;
    }

    uint64_t unreceived = 0;
    for (const auto& [key, sent] : g_sent)
    {
        if (!sent.received)
        {
            auto [sender, receiver, round] = key;
            std::cerr << "message " << sender << "->" << receiver << " of round " << round
                      << " was sent but never received" << std::endl;
            ++unreceived;
        }
    }
    bool ok = true;
    if (g_sentCount == 0 || g_sentCount != g_receivedCount || unreceived > 0 || g_problems > 0)
    {
        std::cerr << "FAILED: " << g_sentCount << " messages sent, " << g_receivedCount
                  << " received, " << unreceived << " never received, " << g_problems
                  << " other problems" << std::endl;
        ok = false;
    }
    if (finished != learnerCount)
    {
        std::cerr << "FAILED: only " << finished << " of " << learnerCount
                  << " learners finished their rounds" << std::endl;
        ok = false;
    }
    if (!g_csv)
    {
        std::cerr << "FAILED: error writing " << output << std::endl;
        ok = false;
    }
    // Printed only when every check passed, so a test may look for this line alone.
    if (ok)
    {
        std::cout << "all " << g_sentCount << " messages sent were received; one line each in "
                  << output << std::endl;
    }
    return ok ? 0 : 1;
}
