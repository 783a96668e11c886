// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What simulating the network costs next to the training it carries. For each learner count
 * and underlay, in one process and one after the other:
 *  1. bare training: the same learners (same model, data, batch and local steps) each call
 *     Learner::Train once per round, with no network and no simulator;
 *  2. the whole simulation of the same rounds (D-PSGD, full sharing, evaluation reduced to one
 *     test sample), timed from the start of the simulation to its end.
 * The difference, less the CPU time the simulation spent in the algorithm's encoding, decoding
 * and aggregation (the summary's sharing CPU seconds: learning work a deployment does too, which
 * any network model carries), is what the network (sockets, TCP, links, routers or flows) and
 * the application cost; it is printed per simulated round and as a fraction of the training
 * time, with the simulated payload megabytes per wall second of it, and the sharing's own
 * fraction of the training time beside it (the two add up to all that is not training). With
 * --repeat=N the two alternate N times and the medians are printed (training time, simulation time,
 * and the difference of each simulation and the training timed just before it): where the network
 * costs a few percent of the training, as with flows, the training's own run-to-run spread on a
 * busy machine (5-10%) is larger than the difference, and one pair says little. With --in-run there
 * is no separate training: each simulation measures its own (the summary's training CPU
 * seconds, the simulator thread's CPU time in every Train call) and the rest of its wall time
 * is the network's, so the split comes from one run; the simulation itself is the same.
 *
 * Usage: network-cost-benchmark [--learners=16,96] [--rounds=4] [--model=gn-lenet]
 *                               [--networks=direct,access] [--mtu=1500] [--tcp.profile=ns3]
 *                               [--repeat=1] [--in-run] [--KEY=VALUE ...]
 * Any other --KEY=VALUE is a scenario key for every run (e.g. --tcp.delayed_ack=200ms, to see
 * what one TCP setting costs). * --mtu sets link.mtu (the TCP segment follows it): fewer, larger
 * packets cost less to simulate and model a different network (jumbo frames), so it is a trade-off,
 * not a speed-up. Generated 1x28x28 data, so nothing needs Fashion-MNIST; 4-regular overlay, batch
 * 8, 3 local steps. Run it on an otherwise idle machine: it uses one core.
 */
#include "learner.h"
#include "partitioner.h"
#include "scenario-config.h"
#include "scenario-runner.h"
#include "synthetic-dataset.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace dlsim; // the learning core (model/core)

using namespace ns3;

namespace
{

std::vector<std::string>
Split(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');)
    {
        items.push_back(item);
    }
    return items;
}

double
Seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

/// Wall seconds of `rounds` rounds of local training for `n` learners, as the simulation does.
double
BareTraining(uint32_t n, uint32_t rounds, const std::string& model)
{
    SyntheticSpec spec;
    spec.trainSamples = 4000;
    spec.testSamples = 1000;
    spec.seed = 1;
    DatasetSplit data = MakeSyntheticDataset(spec);
    Partition partition = PartitionIid(*data.train, n, 1);
    TrainingConfig training;
    training.model = model;
    training.lr = 0.05;
    std::vector<std::unique_ptr<Learner>> learners;
    for (uint32_t i = 0; i < n; ++i)
    {
        learners.push_back(
            std::make_unique<Learner>(training, data.train, partition[i], 1, 1000 + i));
    }
    auto start = std::chrono::steady_clock::now();
    for (uint32_t r = 0; r < rounds; ++r)
    {
        for (auto& learner : learners)
        {
            learner->Train();
        }
    }
    return Seconds(start);
}

double
Median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string learnerCounts = "16,96";
    uint32_t rounds = 4;
    std::string model = "gn-lenet";
    std::string networks = "direct,access";
    std::string mtu = "1500";
    std::string tcpProfile = "ns3";
    uint32_t repeat = 1;
    bool inRun = false;
    std::vector<std::string> extraKeys;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        auto value = arg.substr(arg.find('=') + 1);
        if (arg.rfind("--learners=", 0) == 0)
        {
            learnerCounts = value;
        }
        else if (arg.rfind("--rounds=", 0) == 0)
        {
            rounds = static_cast<uint32_t>(std::stoul(value));
        }
        else if (arg.rfind("--model=", 0) == 0)
        {
            model = value;
        }
        else if (arg.rfind("--networks=", 0) == 0)
        {
            networks = value;
        }
        else if (arg.rfind("--mtu=", 0) == 0)
        {
            mtu = value;
        }
        else if (arg.rfind("--repeat=", 0) == 0)
        {
            repeat = static_cast<uint32_t>(std::stoul(value));
            if (repeat == 0)
            {
                std::cerr << "--repeat must be at least 1" << std::endl;
                return 2;
            }
        }
        else if (arg == "--in-run")
        {
            inRun = true;
        }
        else if (arg.rfind("--tcp.profile=", 0) == 0)
        {
            tcpProfile = value;
        }
        else if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos)
        {
            // Any other scenario key (e.g. --tcp.delayed_ack=200ms), checked by the scenario.
            extraKeys.push_back(arg);
        }
        else
        {
            std::cerr << "unknown argument " << arg << std::endl;
            return 2;
        }
    }
    UseSingleThreadedTorch();
    std::printf("%-8s %-8s %8s %10s %10s %10s %12s %10s %11s %12s\n",
                "learners",
                "network",
                "rounds",
                "train_s",
                "share_s",
                "sim_s",
                "net_s/round",
                "net/train",
                "share/train",
                "payload_MB/s");
    for (const auto& count : Split(learnerCounts))
    {
        const auto n = static_cast<uint32_t>(std::stoul(count));
        const std::vector<std::string> underlays = Split(networks);
        std::vector<std::vector<double>> trains(underlays.size());
        std::vector<std::vector<double>> sims(underlays.size());
        std::vector<std::vector<double>> differences(underlays.size());
        std::vector<std::vector<double>> shares(underlays.size());
        std::vector<double> payloadMb(underlays.size(), 0.0);
        for (uint32_t r = 0; r < repeat; ++r)
        {
            const double bare = inRun ? 0.0 : BareTraining(n, rounds, model);
            for (size_t u = 0; u < underlays.size(); ++u)
            {
                const std::string& network = underlays[u];
                std::string out = (std::filesystem::temp_directory_path()
                                   / ("dlsim-netcost-" + count + "-" + network))
                                      .string();
                std::filesystem::remove_all(out);
                std::vector<std::string> keys = {"--nodes=" + count,
                                                 "--rounds=" + std::to_string(rounds),
                                                 "--dataset=synthetic",
                                                 "--synthetic.train_samples=4000",
                                                 "--model=" + model,
                                                 "--partition=iid",
                                                 "--lr=0.05",
                                                 "--eval.every=100000",
                                                 "--eval.test_samples=1",
                                                 "--eval.nodes=1",
                                                 "--network=" + network,
                                                 // Training in the simulator's thread, as timed
                                                 // by BareTraining: the rest is the network.
                                                 "--run.threads=1",
                                                 "--link.bandwidth=100Mbps",
                                                 "--access.up=100Mbps",
                                                 "--access.down=100Mbps",
                                                 "--link.mtu=" + mtu,
                                                 "--tcp.profile=" + tcpProfile,
                                                 "--out=" + out};
                keys.insert(keys.end(), extraKeys.begin(), extraKeys.end());
                std::ostringstream log;
                RunSummary summary = RunScenario(ScenarioConfig::Load("", keys), log);
                const double train = inRun ? summary.trainingCpuSeconds : bare;
                trains[u].push_back(train);
                sims[u].push_back(summary.wallSeconds);
                shares[u].push_back(summary.sharingCpuSeconds);
                differences[u].push_back(summary.wallSeconds - train - summary.sharingCpuSeconds);
                payloadMb[u] = (summary.valueBytesPerNode + summary.metadataBytesPerNode) * n / 1e6;
                std::filesystem::remove_all(out);
            }
        }
        for (size_t u = 0; u < underlays.size(); ++u)
        {
            const double train = Median(trains[u]);
            const double network_s = Median(differences[u]);
            const double share = Median(shares[u]);
            std::printf("%-8u %-8s %8u %10.2f %10.2f %10.2f %12.3f %10.3f %11.3f %12.1f\n",
                        n,
                        underlays[u].c_str(),
                        rounds,
                        train,
                        share,
                        Median(sims[u]),
                        network_s / rounds,
                        network_s / train,
                        share / train,
                        network_s > 0 ? payloadMb[u] / network_s : 0.0);
            std::fflush(stdout);
        }
    }
    return 0;
}
