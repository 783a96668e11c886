// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the flow-level network model against the packet level (ns-3's TCP over the same
 * links): the same learning, and round times within the tolerances the doc gives for each kind
 * of traffic.
 */
#include "run-command.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

/// Round -> the time its last node ended it, from a rounds.csv.
std::map<int, double>
RoundEnds(const std::string& roundsCsv)
{
    std::map<int, double> ends;
    std::istringstream lines(ReadWholeFile(roundsCsv));
    std::string line;
    std::getline(lines, line); // header
    while (std::getline(lines, line))
    {
        std::istringstream fields(line);
        std::string node, round, time;
        std::getline(fields, node, ',');
        std::getline(fields, round, ',');
        std::getline(fields, time, ',');
        double& end = ends[std::stoi(round)];
        end = std::max(end, std::stod(time));
    }
    return ends;
}

/// The same scenario over packets and over flows: their run folders.
std::pair<std::string, std::string>
RunBoth(const std::string& name, const std::string& scenario)
{
    const std::string out = FreshTempFolder("flow-" + name);
    for (const char* model : {"packet", "flow"})
    {
        std::string output;
        EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " " + scenario
                                 + " --no-plot --network.model=" + model + " --out=" + out + "/"
                                 + model,
                             output),
                  0)
            << output;
    }
    return {out + "/packet", out + "/flow"};
}

/// Each round's end over flows relative to over packets: the largest deviation, signed.
double
LargestDeviation(const std::string& packet, const std::string& flow, bool lastOnly = false)
{
    const auto p = RoundEnds(packet + "/rounds.csv");
    const auto f = RoundEnds(flow + "/rounds.csv");
    EXPECT_EQ(p.size(), f.size());
    double worst = 0.0;
    for (const auto& [round, time] : p)
    {
        if (lastOnly && round != p.rbegin()->first)
        {
            continue;
        }
        const double deviation = (f.at(round) - time) / time;
        if (std::abs(deviation) > std::abs(worst))
        {
            worst = deviation;
        }
    }
    return worst;
}

const std::string kData = "--dataset=synthetic --synthetic.train_samples=600 --model=mlp "
                          "--eval.every=2 --eval.test_samples=100";

/**
 * One message per link direction (a directed ring, full sharing): the flow model's rates,
 * headers, handshake and slow start against ns-3's TCP, round by round.
 */
TEST(FlowModel, OneWayTransfersMatchThePacketLevel)
{
    for (const char* latency : {"1ms", "10ms"})
    {
        const auto [packet, flow] = RunBoth(
            "one-way",
            kData
                + " --nodes=3 --topology=directed-ring --algorithm=sparse-push "
                  "--sparse-push.alpha=1 --rounds=4 --link.bandwidth=5Mbps --link.latency="
                + latency);
        EXPECT_LT(std::abs(LargestDeviation(packet, flow)), 0.02) << latency;
        fs::remove_all(fs::path(packet).parent_path());
    }
}

/**
 * A rate trace steps every link between 1, 3 and 8 Mbit/s while messages flow (every 0.3 s,
 * shorter than a message): the flows take each new rate as the packet level's devices do, and
 * the rounds end within 2% of the packet level's (measured: within 0.04%). With the steps not
 * followed (FlowNetwork not told), the flows keep the 1 Mbit/s of the trace's first step and the
 * rounds end up to 4.7 times as late: this test fails.
 */
TEST(FlowModel, RateTracesStepTheFlowsAsTheyStepThePacketLevel)
{
    const std::string out = FreshTempFolder("flow-trace-file");
    std::ofstream(out + "/steps.csv") << "time_s,rate\n0,1Mbps\n0.3,8Mbps\n0.6,3Mbps\n0.9,8Mbps\n";
    const auto [packet, flow] = RunBoth(
        "trace",
        kData
            + " --nodes=3 --topology=directed-ring --algorithm=sparse-push "
              "--sparse-push.alpha=1 --rounds=4 --link.bandwidth=5Mbps --link.latency=10ms "
              "--trace.links=all --trace.file="
            + out + "/steps.csv");
    EXPECT_LT(std::abs(LargestDeviation(packet, flow)), 0.02);
    fs::remove_all(fs::path(packet).parent_path());
    fs::remove_all(out);
}

/**
 * UDP cross traffic on the WAN links (3 regions, 10 Mbit/s between them, one message per link
 * direction): over flows it takes its rate off the links before the learners' flows share them.
 * The load is felt (the rounds end at least 20% later than without it, over flows; measured
 * 53%), and the rounds end from 5% earlier to 20% later than the packet level's (measured: cbr
 * at 5 Mbit/s 9.6-13.8% later; onoff at 8 Mbit/s, 0.3 s on and off, from 1.1% earlier to 16.1%
 * later).
 * Over packets the queue drops UDP datagrams as well as TCP segments, so the learners get a
 * little more than what the load leaves.
 */
TEST(FlowModel, UdpCrossTrafficTakesItsRateOffTheLinks)
{
    const std::string regions
        = kData
          + " --nodes=3 --topology=directed-ring --algorithm=sparse-push --sparse-push.alpha=1 "
            "--rounds=4 --network=regions --regions.bandwidth=10Mbps --access.up=100Mbps "
            "--access.down=100Mbps --access.latency=1ms";
    const auto [quietPacket, quietFlow] = RunBoth("quiet", regions);
    const double quiet = RoundEnds(quietFlow + "/rounds.csv").rbegin()->second;
    for (const char* cross : {"--cross.traffic=cbr --cross.rate=5Mbps",
                              "--cross.traffic=onoff --cross.rate=8Mbps --cross.on=0.3s "
                              "--cross.off=0.3s"})
    {
        const auto [packet, flow] = RunBoth("cross", regions + " " + cross);
        EXPECT_GE(RoundEnds(flow + "/rounds.csv").rbegin()->second, 1.2 * quiet) << cross;
        const double deviation = LargestDeviation(packet, flow);
        EXPECT_GE(deviation, -0.05) << cross;
        EXPECT_LE(deviation, 0.20) << cross;
        fs::remove_all(fs::path(packet).parent_path());
    }
    fs::remove_all(fs::path(quietPacket).parent_path());
}

/**
 * Four messages sharing each host's 2 Mbit/s uplink: the packet level leaves about a fifth of
 * the uplink idle (losses where slow start overshoots the small queue, recovery, the windows of
 * four flows), which the flow model, keeping the link full, does not: its last round ends
 * earlier, as the doc's table says, by less than 25%. And the learning is the same.
 */
TEST(FlowModel, SharedUplinksEndEarlierThanOverPacketsAndLearnTheSame)
{
    const auto [packet, flow]
        = RunBoth("access",
                  kData
                      + " --nodes=8 --degree=4 --rounds=6 --network=access --access.up=2Mbps "
                        "--access.down=20Mbps --access.latency=10ms");
    const double deviation = LargestDeviation(packet, flow, true);
    EXPECT_LE(deviation, 0.01);
    EXPECT_GE(deviation, -0.25);
    // Learning does not depend on the network model: the same accuracies.
    auto accuracies = [](const std::string& run)
    {
        // eval.csv: round,time_s,node,accuracy,loss: all but the time.
        std::istringstream lines(ReadWholeFile(run + "/eval.csv"));
        std::vector<std::string> all;
        for (std::string line; std::getline(lines, line);)
        {
            const size_t first = line.find(',');
            const size_t second = line.find(',', first + 1);
            all.push_back(line.substr(0, first) + line.substr(second));
        }
        // Evaluations come in the order of their times, which the models give differently.
        std::sort(all.begin(), all.end());
        return all;
    };
    EXPECT_EQ(accuracies(packet), accuracies(flow));
    fs::remove_all(fs::path(packet).parent_path());
}

/**
 * The deviation the doc states: where both directions of a link carry messages at once, the
 * packet level's ACKs queue behind the other direction's data and its rounds take longer; the
 * flow model does not model that queueing, so its rounds end earlier, by at most 15%.
 */
TEST(FlowModel, BothDirectionsOfALinkEndEarlierThanOverPacketsByAtMostFifteenPercent)
{
    const auto [packet, flow]
        = RunBoth("both-ways",
                  kData
                      + " --nodes=2 --degree=1 --rounds=4 --link.bandwidth=5Mbps "
                        "--link.latency=10ms");
    const double deviation = LargestDeviation(packet, flow, true);
    EXPECT_LE(deviation, 0.01);
    EXPECT_GE(deviation, -0.15);
    fs::remove_all(fs::path(packet).parent_path());
}

/**
 * Random loss (1% per link direction, one message per link direction, 20 rounds): over flows a
 * loss event comes every 100 segments and cuts the window as CUBIC does. The loss is felt (on
 * 10 ms links the rounds end at least 30% later than without loss, over flows; measured 52%),
 * and the rounds end from 25% earlier to 5% later than the packet level's, as the doc's loss
 * table says (measured: 0.5% earlier on 1 ms links, 15.7% earlier on 10 ms links: the flow
 * model does not spend the time a recovery takes). Without the loss model the flows would end
 * with the lossless ones, 45% earlier on 10 ms links: this test fails.
 */
TEST(FlowModel, RandomLossSlowsTheFlowsAsItSlowsThePacketLevel)
{
    const std::string ring = kData
                             + " --nodes=3 --topology=directed-ring --algorithm=sparse-push "
                               "--sparse-push.alpha=1 --rounds=20 --link.bandwidth=10Mbps";
    for (const char* latency : {"1ms", "10ms"})
    {
        const std::string links = ring + " --link.latency=" + latency;
        const auto [packet, flow] = RunBoth("loss", links + " --link.loss=0.01");
        const double deviation = LargestDeviation(packet, flow, true);
        EXPECT_GE(deviation, -0.25) << latency;
        EXPECT_LE(deviation, 0.05) << latency;
        if (std::string(latency) == "10ms")
        {
            const auto [quietPacket, quietFlow] = RunBoth("quiet", links);
            EXPECT_GE(RoundEnds(flow + "/rounds.csv").rbegin()->second,
                      1.3 * RoundEnds(quietFlow + "/rounds.csv").rbegin()->second);
            fs::remove_all(fs::path(quietPacket).parent_path());
        }
        fs::remove_all(fs::path(packet).parent_path());
    }
}

} // namespace
} // namespace ns3
