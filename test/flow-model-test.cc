// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the flow-level network model against the packet level (ns-3's TCP over the same
 * links): the same learning, and round times within the tolerances the doc gives for each kind
 * of traffic.
 */
#include "indexed-min-heap.h"
#include "run-command.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <random>
#include <set>
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

/// summary.json's wire_bytes_per_node of a run folder (-1 when it has none).
double
WireBytesPerNode(const std::string& folder)
{
    const std::string json = ReadWholeFile(folder + "/summary.json");
    const std::string key = "\"wire_bytes_per_node\": ";
    const size_t at = json.find(key);
    return at == std::string::npos ? -1.0 : std::stod(json.substr(at + key.size()));
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
        // The bytes the hosts send: the packets' IP bytes, the flows' data with their segments'
        // headers and their ACKs (no handshake, 2 bytes of PPP header more a segment; measured
        // 1.2% fewer on a 4-learner logistic run). Not 0 because no IP packet crossed.
        const double packetWire = WireBytesPerNode(packet);
        EXPECT_GT(packetWire, 0.0);
        EXPECT_NEAR(WireBytesPerNode(flow) / packetWire, 1.0, 0.03) << latency;
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
 * at dc16fb4 39% with cbr, 40% with onoff), and the rounds end from 5% earlier to 20% later
 * than the packet level's (measured: cbr at 5 Mbit/s 8.4-12.6% later; onoff at 8 Mbit/s,
 * 0.3 s on and off, 3.2-13.8% later).
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
 * Four messages sharing each host's 2 Mbit/s uplink: over packets their first windows, sent at
 * once, overflow its small queue or wait behind each other longer than TCP's retransmission
 * timeout allows, and those connections resend after the timeout from a one-segment window (the
 * packet level has no F-RTO to undo a spurious one). The flow model gives such a first window
 * that timeout (FlowNetwork::FirstWindowTimesOut), and every round ends within 10% of the packet
 * level's (measured at its commit: +7.1% in round 1, +1.3% in the last). Without it the flows
 * kept the link full and ended every round 12-19% early: this test fails. And the learning is the
 * same.
 */
TEST(FlowModel, SharedUplinksTimeOutFirstWindowsAsOverPacketsAndLearnTheSame)
{
    const auto [packet, flow]
        = RunBoth("access",
                  kData
                      + " --nodes=8 --degree=4 --rounds=6 --network=access --access.up=2Mbps "
                        "--access.down=20Mbps --access.latency=10ms");
    const double deviation = LargestDeviation(packet, flow);
    std::cout << "largest deviation " << deviation << "\n";
    EXPECT_LE(std::abs(deviation), 0.10);
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
 * CHOCO-SGD's small messages (a tenth of GN-LeNet's values) from 16 learners, each learner's four
 * sharing its 10 Mbit/s access uplink: a message fits its first window, the four windows overflow
 * the uplink's queue together, and a message whose end is dropped, with nothing behind it to
 * reveal the loss, waits for a tail-loss probe two round trips later and then resends its lost
 * segments one a round trip (805 packets dropped over 6 rounds). The flow model delays such a
 * message's arrival by that recovery (FlowNetwork::FirstWindowTimesOut, OnEvent), and every round
 * ends within 20% of the packet level's (measured at its commit: -16.1% in round 1, +13.0% in
 * round 2, -7.6% in the last). Without the recovery's delay the flows ended rounds 2 to 6 30-46%
 * early: this test fails.
 */
TEST(FlowModel, ADroppedMessageEndWaitsForItsRecoveryAsOverPackets)
{
    const auto [packet, flow]
        = RunBoth("tail-loss",
                  "--dataset=synthetic --synthetic.train_samples=600 --model=gn-lenet "
                  "--eval.every=6 --eval.test_samples=100 --nodes=16 --degree=4 --rounds=6 "
                  "--algorithm=choco --choco.alpha=0.1 --network=access --access.up=10Mbps "
                  "--access.down=10Mbps --access.latency=5ms");
    const double deviation = LargestDeviation(packet, flow);
    std::cout << "largest deviation " << deviation << "\n";
    EXPECT_LE(std::abs(deviation), 0.20);
    fs::remove_all(fs::path(packet).parent_path());
}

/**
 * Both directions of a link carrying messages at once: the packet level's ACKs queue behind the
 * other direction's data, the two connections send their windows in bursts in step (ACK
 * compression), HyStart leaves slow start early and the rounds take up to 12% longer than the
 * link's rate allows (quickstart's: 10.2% longer than the flows that ignored it). The flow
 * model's round trip with the other direction's burst in it, its HyStart and CUBIC's growth
 * without a W_max give every round within 5% of the packet level's (measured: 3.8% at 5 Mbit/s,
 * 2.1% at 10 Mbit/s).
 */
TEST(FlowModel, BothDirectionsOfALinkMatchThePacketLevelThroughAckCompression)
{
    for (const char* bandwidth : {"5Mbps", "10Mbps"})
    {
        const auto [packet, flow]
            = RunBoth("both-ways",
                      kData
                          + " --nodes=2 --degree=1 --rounds=4 --link.latency=10ms "
                            "--link.bandwidth="
                          + bandwidth);
        const double deviation = LargestDeviation(packet, flow);
        std::cout << bandwidth << ": largest deviation " << deviation << "\n";
        EXPECT_LE(std::abs(deviation), 0.05) << bandwidth;
        fs::remove_all(fs::path(packet).parent_path());
    }
}

/**
 * A learner's four messages start together on long paths (geo-distributed's regions: 100 Mbit/s
 * access links, WAN round trips of 76 to 220 ms, GN-LeNet's 335 KB messages, which packets carry
 * without a drop). Over packets the four first windows enter the uplink's queue at once, one
 * behind the other, and HyStart leaves slow start for the connections whose first window waited
 * behind the others' (their round's RTT tens of ms over the minimum); the flow model gives a
 * message's first round trip that wait (FlowNetwork::Activate) and every round ends within 8% of
 * the packet level's (measured at its commit: 6.2%). Without the wait the flows stay in slow
 * start and end round 6 18.1% early: this test fails.
 */
TEST(FlowModel, MessagesStartedTogetherQueueTheirFirstWindowsAsOverPackets)
{
    const auto [packet, flow]
        = RunBoth("start-together",
                  "--dataset=synthetic --synthetic.train_samples=600 --model=gn-lenet "
                  "--eval.every=2 --eval.test_samples=100 --nodes=16 --degree=4 --rounds=6 "
                  "--network=regions --regions.bandwidth=1Gbps --access.up=100Mbps "
                  "--access.down=100Mbps --access.latency=1ms");
    // The comparison is of lossless runs: the packets' queues dropped nothing.
    EXPECT_NE(ReadWholeFile(packet + "/summary.json").find("\"dropped_packets\": 0,"),
              std::string::npos);
    const double deviation = LargestDeviation(packet, flow);
    std::cout << "largest deviation " << deviation << "\n";
    EXPECT_LE(std::abs(deviation), 0.08);
    fs::remove_all(fs::path(packet).parent_path());
}

/**
 * Random loss (1% per link direction, one message per link direction, 20 rounds): over flows a
 * loss event comes every 100 segments and cuts the window as CUBIC does. The loss is felt (on
 * 10 ms links the rounds end at least 30% later than without loss, over flows; measured 52%),
 * and the rounds end from 25% earlier to 5% later than the packet level's, as the doc's loss
 * table says (measured: 0.5% earlier on 1 ms links, 15.1% earlier on 10 ms links at 98552e1: the
 * flow model does not spend the time a recovery takes). Without the loss model the flows would end
 * with the lossless ones, 45% earlier on 10 ms links: this test fails.
 */
/**
 * Every queue discipline runs over flows (FQ-CoDel's Target is a string attribute, CoDel's a
 * time: the flow model reads each through its own checker) and learns what packets learn, its
 * rounds within 15% of theirs (measured: 0.6% to 7.5% on these small messages at 5 Mbit/s).
 */
TEST(FlowModel, EveryQueueDisciplineRunsOverFlowsAsOverPackets)
{
    for (const char* disc : {"fq-codel", "codel", "pie", "fifo"})
    {
        const auto [packet, flow] = RunBoth(std::string("disc-") + disc,
                                            kData
                                                + " --nodes=4 --degree=2 --rounds=4 "
                                                  "--link.bandwidth=5Mbps --link.queue_disc="
                                                + disc);
        // The same learning: eval.csv without its time column, its rows in order (learners
        // that finish a round at the same time are evaluated in either order).
        auto learned = [](const std::string& folder)
        {
            std::istringstream lines(ReadWholeFile(folder + "/eval.csv"));
            std::vector<std::string> kept;
            for (std::string line; std::getline(lines, line);)
            {
                const size_t first = line.find(',');
                const size_t second = line.find(',', first + 1);
                kept.push_back(line.substr(0, first) + line.substr(second));
            }
            std::sort(kept.begin(), kept.end());
            return kept;
        };
        EXPECT_EQ(learned(flow), learned(packet)) << disc;
        EXPECT_LT(std::abs(LargestDeviation(packet, flow)), 0.15) << disc;
        fs::remove_all(fs::path(packet).parent_path());
    }
}

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

/// The time a run that failed stopped at ("run stopped at T s of simulated time"), or -1.
double
StoppedAt(const std::string& output)
{
    const std::string mark = "run stopped at ";
    const size_t at = output.find(mark);
    return at == std::string::npos ? -1.0 : std::stod(output.substr(at + mark.size()));
}

/**
 * A link out of service while a message crosses it (3 learners on a directed ring, 5 Mbit/s,
 * 10 ms; link 0:1 out from 0.5 s): the flow stalls, TCP tries again after its timeout (with
 * the queue the flow kept, doubling every time) and the message goes on once a try gets
 * through. Round 1 ends within 10% of the packet level's (measured: link back at 2.5 s, 3.05 s
 * against 3.16 s; at 6 s, 10.81 s against 10.49 s); without the stall it would end at 0.88 s.
 * Out for 60 s, TCP gives up over both and the synchronous run fails naming the connection,
 * within 10% of the same time (measured 41.6 s against 39.6 s).
 */
TEST(FlowModel, LinkOutagesStallTheFlowsUntilTcpTriesAgainOrGivesUp)
{
    const std::string ring = kData
                             + " --eval.interval=10s --nodes=3 --topology=directed-ring "
                               "--algorithm=sparse-push --sparse-push.alpha=1 --rounds=2 "
                               "--link.bandwidth=5Mbps --link.latency=10ms";
    for (const char* back : {"2.5s", "6s"})
    {
        const auto [packet, flow]
            = RunBoth("outage", ring + " --faults.links=[0:1@0.5s-" + back + "]");
        const double p = RoundEnds(packet + "/rounds.csv").at(1);
        const double f = RoundEnds(flow + "/rounds.csv").at(1);
        EXPECT_NEAR(f / p, 1.0, 0.10) << back << ": " << f << " s against " << p << " s";
        fs::remove_all(fs::path(packet).parent_path());
    }
    const std::string out = FreshTempFolder("flow-gives-up");
    std::map<std::string, double> stopped;
    for (const char* model : {"packet", "flow"})
    {
        std::string output;
        EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " " + ring
                                 + " --faults.links=[0:1@0.5s-60s] --no-plot --network.model="
                                 + model + " --out=" + out + "/" + model,
                             output),
                  1)
            << output;
        EXPECT_NE(output.find("learner 0 lost its connection to learner 1"), std::string::npos)
            << output;
        stopped[model] = StoppedAt(output);
    }
    EXPECT_NEAR(stopped["flow"] / stopped["packet"], 1.0, 0.10)
        << stopped["flow"] << " s against " << stopped["packet"] << " s";
    fs::remove_all(out);
}

/**
 * Crashes and an outage in rounds with a deadline (6 learners of degree 2, learner 1 down from
 * 1 s to 4 s, learner 3 from 2 s for good, link 0:2 out from 3 s to 9 s): over flows as over
 * packets the run goes on, the connections to the crashed learners fail and what they held is
 * lost, and the recovered learner gets its neighbours' messages again (their connections reset
 * and set up anew): at least 70% as many after 5 s as over packets (measured 36 against 36).
 */
TEST(FlowModel, CrashesLoseTheirConnectionsAndARecoveredLearnerHearsAgain)
{
    const auto [packet, flow] = RunBoth(
        "crash",
        kData
            + " --eval.interval=2s --nodes=6 --degree=2 --algorithm=dpsgd --rounds=40 "
              "--compute.model=fixed --compute.step_seconds=0.05 --local_steps=3 "
              "--link.bandwidth=5Mbps --link.latency=10ms --rounds.mode=deadline "
              "--rounds.timeout=1s --faults.crash=[1@1s-4s,3@2s] --faults.links=[0:2@3s-9s]");
    // receipt.csv: node,round,time_s,fresh,stale,dropped,...,lost_sends,reused
    auto tally = [](const std::string& run)
    {
        std::istringstream lines(ReadWholeFile(run + "/receipt.csv"));
        std::string line;
        std::getline(lines, line);
        double heard = 0.0;
        double lost = 0.0;
        while (std::getline(lines, line))
        {
            std::vector<std::string> f;
            std::istringstream fields(line);
            for (std::string x; std::getline(fields, x, ',');)
            {
                f.push_back(x);
            }
            if (f[0] == "1" && std::stod(f[2]) > 5.0)
            {
                heard += std::stod(f[3]) + std::stod(f[4]);
            }
            lost += std::stod(f[9]);
        }
        return std::make_pair(heard, lost);
    };
    const auto [packetHeard, packetLost] = tally(packet);
    const auto [flowHeard, flowLost] = tally(flow);
    EXPECT_GT(packetHeard, 0.0);
    EXPECT_GE(flowHeard, 0.7 * packetHeard);
    EXPECT_GE(flowLost, 1.0);
    fs::remove_all(fs::path(packet).parent_path());
}

// The heap the flow model keeps its links and its connections' next events in: ten thousand
// random pushes, key changes and erasures, its top after each against an ordered set's first.
/// network.model = auto: every point over flows first; the one whose links lose packets
/// (where flows are approximate) is replayed over packets and gives exactly what a run over
/// packets gives, the lossless one keeps the flows; the tables say which model made each.
TEST(FlowModel, AutoReplaysTheApproximatePointsOverPackets)
{
    const std::string out = FreshTempFolder("flow-auto");
    const std::string run = std::string(DLSIM_RUN_BINARY) + " " + kData
                            + " --nodes=4 --degree=2 --rounds=4 --no-plot";
    std::string output;
    ASSERT_EQ(RunCommand(run + " --network.model=auto --link.loss='0, 0.01' --out=" + out + "/grid",
                         output),
              0)
        << output;
    ASSERT_EQ(RunCommand(run + " --network.model=packet --link.loss=0.01 --out=" + out + "/packet",
                         output),
              0)
        << output;
    const std::string lossy = out + "/grid/link.loss=0.01";
    for (const char* file : {"rounds.csv", "eval.csv", "curve.csv", "receipt.csv"})
    {
        EXPECT_EQ(ReadWholeFile(lossy + "/" + file), ReadWholeFile(out + "/packet/" + file))
            << file;
    }
    EXPECT_NE(ReadWholeFile(lossy + "/summary.json").find("\"network.model\": \"packet\""),
              std::string::npos);
    EXPECT_NE(
        ReadWholeFile(out + "/grid/link.loss=0/summary.json").find("\"network.model\": \"flow\""),
        std::string::npos);
    EXPECT_FALSE(fs::exists(lossy + "/.flows")) << "the flows-first run is not left behind";
    const std::string index = ReadWholeFile(out + "/grid/index.csv");
    EXPECT_NE(index.find(",packet,,"), std::string::npos) << index;
    EXPECT_NE(index.find(",flow,,"), std::string::npos) << index;
    const std::string table = ReadWholeFile(out + "/grid/grid-summary.txt");
    EXPECT_NE(table.find("packet (auto)"), std::string::npos) << table;
    EXPECT_NE(table.find("flow (auto)"), std::string::npos) << table;
    // A loss flows do not model (above kMaxFlowLoss): over packets alone, saying why.
    ASSERT_EQ(
        RunCommand(run + " --network.model=auto --link.loss=0.2 --out=" + out + "/lossy", output),
        0)
        << output;
    EXPECT_NE(output.find("over packets alone, as flows cannot carry this scenario (link.loss"),
              std::string::npos)
        << output;
    EXPECT_NE(ReadWholeFile(out + "/lossy/summary.json").find("\"network.model\": \"packet\""),
              std::string::npos);
    fs::remove_all(out);
}

TEST(FlowModel, IndexedMinHeapKeepsTheSmallestKeyOnTopThroughChanges)
{
    constexpr uint32_t kIds = 200;
    std::vector<double> key(kIds, 0.0);
    auto before = [&](uint32_t a, uint32_t b)
    {
        return key[a] < key[b] || (key[a] == key[b] && a < b);
    };
    std::set<std::pair<double, uint32_t>> reference;
    IndexedMinHeap heap;
    heap.Reserve(kIds);
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint32_t> anyId(0, kIds - 1);
    std::uniform_int_distribution<int> anyKey(0, 50); // repeated keys: ties go by id
    for (int step = 0; step < 10000; ++step)
    {
        const uint32_t id = anyId(rng);
        if (heap.Contains(id))
        {
            reference.erase({key[id], id});
            if (rng() % 3 == 0)
            {
                heap.Erase(id, before);
            }
            else
            {
                key[id] = anyKey(rng);
                reference.insert({key[id], id});
                heap.Update(id, before);
            }
        }
        else
        {
            key[id] = anyKey(rng);
            reference.insert({key[id], id});
            heap.Push(id, before);
        }
        ASSERT_EQ(heap.Empty(), reference.empty());
        if (!reference.empty())
        {
            ASSERT_EQ(heap.Top(), reference.begin()->second) << "after step " << step;
        }
    }
    heap.Clear();
    EXPECT_TRUE(heap.Empty());
    for (uint32_t id = 0; id < kIds; ++id)
    {
        EXPECT_FALSE(heap.Contains(id));
    }
}

} // namespace
} // namespace ns3
