// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: the capture keys (pcap, ASCII traces, FlowMonitor) watch a run without changing it:
 * the same scenario writes the same results with and without them, on one thread or several,
 * alone or in a grid; the files they write can be read (pcap records parsed here, since tshark
 * and tcpdump need not be installed); a run that stops early keeps them under ".partial"
 * names, and a grid reruns a point whose captures are missing.
 */
#include "run-command.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

/// Four learners behind access links (roles up and down, a router named core), three rounds.
const std::string kScenario = " --dataset=synthetic --synthetic.train_samples=200 --model=logistic"
                              " --nodes=4 --degree=2 --rounds=3 --eval.every=1 --network=access"
                              " --no-plot";

/// What a pcap file holds, read record by record as libpcap reads it.
struct PcapFile
{
    std::string problem; ///< why it is not a readable pcap file ("" when it is)
    uint32_t linkType = 0;
    uint32_t snapLength = 0;
    uint32_t packets = 0;
    uint32_t truncated = 0;   ///< records shorter than their packet (snapshot length)
    uint32_t ipv4Packets = 0; ///< PPP frames holding IPv4 (protocol 0x0021, version 4)
};

uint32_t
LittleEndian32(const std::string& bytes, size_t at)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
    {
        v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    }
    return v;
}

PcapFile
ReadPcap(const std::string& path)
{
    PcapFile file;
    const std::string bytes = ReadWholeFile(path);
    // The global header: magic, version 2.4, time zone, accuracy, snapshot length, link type.
    if (bytes.size() < 24 || LittleEndian32(bytes, 0) != 0xa1b2c3d4u)
    {
        file.problem = "no little-endian pcap magic number (microsecond timestamps)";
        return file;
    }
    if (static_cast<unsigned char>(bytes[4]) != 2 || static_cast<unsigned char>(bytes[6]) != 4)
    {
        file.problem = "not pcap version 2.4";
        return file;
    }
    file.snapLength = LittleEndian32(bytes, 16);
    file.linkType = LittleEndian32(bytes, 20);
    size_t at = 24;
    uint32_t lastSeconds = 0;
    uint32_t lastMicroseconds = 0;
    while (at < bytes.size())
    {
        if (bytes.size() - at < 16)
        {
            file.problem = "a record header cut short at byte " + std::to_string(at);
            return file;
        }
        const uint32_t seconds = LittleEndian32(bytes, at);
        const uint32_t microseconds = LittleEndian32(bytes, at + 4);
        const uint32_t included = LittleEndian32(bytes, at + 8);
        const uint32_t original = LittleEndian32(bytes, at + 12);
        if (microseconds >= 1000000 || included > original || included > file.snapLength
            || bytes.size() - at - 16 < included || seconds < lastSeconds
            || (seconds == lastSeconds && microseconds < lastMicroseconds))
        {
            file.problem = "a bad record at byte " + std::to_string(at);
            return file;
        }
        lastSeconds = seconds;
        lastMicroseconds = microseconds;
        const size_t frame = at + 16;
        if (included >= 3 && static_cast<unsigned char>(bytes[frame]) == 0x00
            && static_cast<unsigned char>(bytes[frame + 1]) == 0x21
            && (static_cast<unsigned char>(bytes[frame + 2]) >> 4) == 4)
        {
            ++file.ipv4Packets;
        }
        file.truncated += included < original ? 1 : 0;
        ++file.packets;
        at = frame + included;
    }
    return file;
}

/// The names of the files in `dir` (none when it does not exist), sorted.
std::vector<std::string>
FilesIn(const std::string& dir)
{
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(dir, error))
    {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

/// The CSV without its last column (a run's wall time).
std::string
WithoutLastColumn(const std::string& csv)
{
    std::string out;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
    {
        out += line.substr(0, line.rfind(',')) + "\n";
    }
    return out;
}

/// How many times `what` occurs in `text`.
size_t
Count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    {
        ++n;
    }
    return n;
}

int
RunDlsim(const std::string& args, std::string& output)
{
    return RunCommand("timeout 60 " + std::string(DLSIM_RUN_BINARY) + kScenario + args, output);
}

TEST(Capture, CapturesChangeNoResultAndCanBeRead)
{
    const std::string dir = FreshTempFolder("capture");
    std::string output;
    ASSERT_EQ(RunDlsim(" --run.threads=1 --out=" + dir + "/plain", output), 0) << output;
    // Every capture at once, on other threads than the plain run.
    ASSERT_EQ(RunDlsim(" --run.threads=2 --capture.pcap=[up,core:2] --capture.ascii=[down]"
                       " --capture.flowmon=true --out="
                           + dir + "/captured",
                       output),
              0)
        << output;
    const std::string plain = dir + "/plain/";
    const std::string captured = dir + "/captured/";
    for (const char* file :
         {"rounds.csv", "eval.csv", "curve.csv", "receipt.csv", "links.csv", "faults.csv"})
    {
        const std::string expected = ReadWholeFile(plain + file);
        EXPECT_FALSE(expected.empty()) << file;
        EXPECT_EQ(ReadWholeFile(captured + file), expected) << file;
    }
    // The summary's figures too (the wire bytes included), all but the wall time.
    EXPECT_EQ(WithoutLastColumn(ReadWholeFile(captured + "summary.csv")),
              WithoutLastColumn(ReadWholeFile(plain + "summary.csv")));

    // One pcap file per chosen direction (every uplink, and the downlink to learner 2), one
    // ASCII trace per downlink; nothing left under a ".partial" name.
    EXPECT_EQ(FilesIn(captured + "capture"),
              (std::vector<std::string>{"0_core.pcap",
                                        "1_core.pcap",
                                        "2_core.pcap",
                                        "3_core.pcap",
                                        "core_0.tr",
                                        "core_1.tr",
                                        "core_2.pcap",
                                        "core_2.tr",
                                        "core_3.tr"}));
    for (const auto& name : FilesIn(captured + "capture"))
    {
        const std::string path = captured + "capture/" + name;
        if (name.size() > 5 && name.substr(name.size() - 5) == ".pcap")
        {
            const PcapFile pcap = ReadPcap(path);
            EXPECT_EQ(pcap.problem, "") << name;
            EXPECT_EQ(pcap.linkType, 9u) << name << ": PPP";
            EXPECT_EQ(pcap.snapLength, 262144u) << name;
            // Three rounds of 31 kB models each way, in segments of at most 1448 bytes.
            EXPECT_GT(pcap.packets, 100u) << name;
            EXPECT_EQ(pcap.ipv4Packets, pcap.packets) << name;
            EXPECT_EQ(pcap.truncated, 0u) << name << ": whole packets";
            continue;
        }
        const std::string trace = ReadWholeFile(path);
        EXPECT_GT(Count(trace, "\n"), 100u) << name;
        std::istringstream lines(trace);
        for (std::string line; std::getline(lines, line);)
        {
            ASSERT_TRUE(line.size() > 2 && std::strchr("+-rd", line[0]) && line[1] == ' ')
                << name << ": " << line;
        }
        EXPECT_NE(trace.find("ns3::TcpHeader"), std::string::npos) << name << ": headers";
    }

    // FlowMonitor: its XML (root element, one FlowStats entry per flow) and one CSV row per
    // flow, named by the learners it joins: 4 learners of degree 2, a TCP connection per
    // overlay edge and direction, a flow per connection and direction.
    const std::string xml = ReadWholeFile(captured + "flowmon.xml");
    ASSERT_EQ(xml.rfind("<?xml version=\"1.0\" ?>\n<FlowMonitor>\n", 0), 0u) << xml.substr(0, 200);
    EXPECT_EQ(xml.substr(xml.size() - std::strlen("</FlowMonitor>\n")), "</FlowMonitor>\n");
    const size_t statsBegin = xml.find("<FlowStats>");
    const size_t statsEnd = xml.find("</FlowStats>");
    ASSERT_TRUE(statsBegin != std::string::npos && statsEnd != std::string::npos);
    const size_t flows = Count(xml.substr(statsBegin, statsEnd - statsBegin), "<Flow flowId=");
    EXPECT_EQ(flows, 16u);
    const std::string csv = ReadWholeFile(captured + "flows.csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "flow,protocol,from,from_address,from_port,to,to_address,to_port,tx_packets,"
              "tx_bytes,rx_packets,rx_bytes,lost_packets,first_tx_s,last_rx_s,throughput_bps,"
              "delay_mean_s,jitter_mean_s");
    const auto rows = ReadCsv(captured + "flows.csv");
    ASSERT_EQ(rows.size(), flows);
    std::set<std::string> learners = {"0", "1", "2", "3"};
    uint32_t modelFlows = 0;
    for (const auto& row : rows)
    {
        ASSERT_EQ(row.size(), 18u) << csv;
        EXPECT_EQ(row[1], "tcp");
        EXPECT_TRUE(learners.count(row[2]) && learners.count(row[5])) << row[2] << " " << row[5];
        const double sent = std::stod(row[9]);
        const double received = std::stod(row[11]);
        EXPECT_GT(sent, 0.0);
        EXPECT_LE(received, sent);
        if (sent > 3 * 31433)
        {
            // A flow that carried three models got all of it; the last ACKs of a flow of
            // ACKs may still be on their way when the run ends.
            EXPECT_EQ(received, sent);
            ++modelFlows;
        }
        EXPECT_EQ(row[12], "0");                    // lost_packets
        EXPECT_GT(std::stod(row[15]), 0.0);         // throughput
        EXPECT_LT(std::stod(row[15]), 10e6 * 1.01); // at most the 10 Mbit/s uplink
        EXPECT_GT(std::stod(row[16]), 0.0);         // delay
    }
    EXPECT_EQ(modelFlows, 8u);
    fs::remove_all(dir);
}

/// The sum of a CSV column over its rows, and whether every row has a number there.
double
ColumnSum(const std::string& path, const std::string& column, bool* allNumbers = nullptr)
{
    const auto rows = ReadCsvByColumn(path);
    EXPECT_FALSE(rows.empty()) << path;
    EXPECT_TRUE(!rows.empty() && rows[0].count(column)) << path << " has no column " << column;
    double sum = 0.0;
    bool numbers = true;
    for (const auto& row : rows)
    {
        const auto it = row.find(column);
        if (it == row.end() || it->second.empty())
        {
            numbers = false;
            continue;
        }
        sum += std::stod(it->second);
    }
    if (allNumbers)
    {
        *allNumbers = numbers;
    }
    return sum;
}

TEST(Capture, QueueDropsAndLossesAreCountedWhereNs3sOwnTracesSeeThem)
{
    // Two-packet queues and 2% loss: links.csv's counts against the drops ns-3's own ASCII
    // traces print ("d": the device queue's drops and the receiver's error-model drops), and
    // against FlowMonitor, which sees the queue drops too (no queue disc: the device queue
    // drops, not ns-3's traffic-control layer behind every trace's back).
    const std::string dir = FreshTempFolder("capture-drops");
    std::string output;
    ASSERT_EQ(RunDlsim(" --link.queue=2p --link.loss=0.02 --capture.ascii=all"
                       " --capture.flowmon=true --out="
                           + dir + "/lossy",
                       output),
              0)
        << output;
    bool counted = false;
    const double dropped = ColumnSum(dir + "/lossy/links.csv", "dropped_packets", &counted);
    EXPECT_TRUE(counted) << "every point-to-point direction has a count";
    const double lost = ColumnSum(dir + "/lossy/links.csv", "lost_packets");
    EXPECT_GT(dropped, 0.0);
    EXPECT_GT(lost, 0.0);
    EXPECT_NE(output.find("links: " + std::to_string(static_cast<uint64_t>(dropped))
                          + " packets dropped by full queues"),
              std::string::npos)
        << output;
    EXPECT_NE(ReadWholeFile(dir + "/lossy/summary.json")
                  .find("\"queues\": {\"dropped_packets\": "
                        + std::to_string(static_cast<uint64_t>(dropped))
                        + ", \"lost_packets\": " + std::to_string(static_cast<uint64_t>(lost))
                        + ", \"flow_overflows\": null}"),
              std::string::npos);
    size_t traced = 0;
    for (const auto& name : FilesIn(dir + "/lossy/capture"))
    {
        traced += Count("\n" + ReadWholeFile(dir + "/lossy/capture/" + name), "\nd ");
    }
    EXPECT_EQ(static_cast<double>(traced), dropped + lost);
    // FlowMonitor counts every queue drop as a lost packet of its flow, and the losses on the
    // wire once their flows end (its own timeout): at least the drops.
    EXPECT_GE(ColumnSum(dir + "/lossy/flows.csv", "lost_packets"), dropped);

    // Queues that hold everything and no loss: nothing dropped, nothing lost.
    ASSERT_EQ(RunDlsim(" --link.queue=100000p --out=" + dir + "/lossless", output), 0) << output;
    EXPECT_EQ(ColumnSum(dir + "/lossless/links.csv", "dropped_packets", &counted), 0.0);
    EXPECT_TRUE(counted);
    EXPECT_EQ(ColumnSum(dir + "/lossless/links.csv", "lost_packets"), 0.0);

    // The flow model moves no packet through the devices: it says what it put on each
    // direction, within 2% of what the packets of the same lossless run put there (its
    // handshakes and timestamps-sized ACK estimate aside), and leaves the counts empty. It
    // notes where its windows would overflow a queue, as over the two-packet queues above, and
    // only there.
    ASSERT_EQ(RunDlsim(" --link.queue=100000p --network.model=flow --out=" + dir + "/flow", output),
              0)
        << output;
    const std::string overflowNote = "note: the flows' windows came to exceed the queues of";
    EXPECT_EQ(output.find(overflowNote), std::string::npos) << output;
    std::string lossyFlows;
    ASSERT_EQ(
        RunDlsim(" --link.queue=2p --network.model=flow --out=" + dir + "/flow-lossy", lossyFlows),
        0)
        << lossyFlows;
    EXPECT_NE(lossyFlows.find(overflowNote), std::string::npos) << lossyFlows;
    const std::string flowSummary = ReadWholeFile(dir + "/flow-lossy/summary.json");
    EXPECT_NE(flowSummary.find("\"queues\": {\"dropped_packets\": null, \"lost_packets\": null, "
                               "\"flow_overflows\": "),
              std::string::npos)
        << flowSummary;
    EXPECT_EQ(flowSummary.find("\"flow_overflows\": 0}"), std::string::npos) << flowSummary;
    // Where flows only approximate packets, the run says so; where they do not, it does not.
    EXPECT_NE(flowSummary.find("\"network_fidelity\": \"queues overflowed on "), std::string::npos)
        << flowSummary;
    EXPECT_NE(ReadWholeFile(dir + "/flow/summary.json").find("\"network_fidelity\": \"\""),
              std::string::npos);
    EXPECT_NE(ReadWholeFile(dir + "/lossless/summary.json").find("\"network_fidelity\": \"\""),
              std::string::npos);
    const double packetBytes = ColumnSum(dir + "/lossless/links.csv", "tx_bytes");
    const double flowBytes = ColumnSum(dir + "/flow/links.csv", "tx_bytes");
    EXPECT_NEAR(flowBytes / packetBytes, 1.0, 0.02) << flowBytes << " against " << packetBytes;
    ColumnSum(dir + "/flow/links.csv", "dropped_packets", &counted);
    EXPECT_FALSE(counted);
    fs::remove_all(dir);
}

TEST(Capture, AStoppedRunKeepsItsCapturesUnderPartialNames)
{
    const std::string dir = FreshTempFolder("capture-stopped");
    std::string output;
    // Stopped after the first round by the simulated time limit.
    EXPECT_EQ(RunDlsim(" --run.time_limit=0.1s --capture.pcap=[up] --capture.ascii=[up]"
                       " --capture.flowmon=true --out="
                           + dir,
                       output),
              1)
        << output;
    EXPECT_NE(output.find("run.time_limit"), std::string::npos) << output;
    const std::vector<std::string> files = FilesIn(dir);
    for (const char* absent : {"summary.json", "flowmon.xml", "flows.csv"})
    {
        EXPECT_EQ(std::count(files.begin(), files.end(), absent), 0) << absent;
    }
    for (const char* partial : {"flowmon.xml.partial", "flows.csv.partial"})
    {
        EXPECT_EQ(std::count(files.begin(), files.end(), partial), 1) << partial;
    }
    const std::vector<std::string> captures = FilesIn(dir + "/capture");
    EXPECT_EQ(captures.size(), 8u);
    for (const auto& name : captures)
    {
        ASSERT_EQ(name.substr(name.size() - 8), ".partial") << name;
        if (name.find(".pcap") != std::string::npos)
        {
            // Closed properly: what was captured until the stop can be read.
            const PcapFile pcap = ReadPcap(dir + "/capture/" + name);
            EXPECT_EQ(pcap.problem, "") << name;
            EXPECT_GT(pcap.packets, 10u) << name;
        }
    }
    fs::remove_all(dir);
}

TEST(Capture, GridPointsCaptureAndAreRunAgainWithoutTheirCaptures)
{
    const std::string dir = FreshTempFolder("capture-grid");
    std::string output;
    ASSERT_EQ(RunDlsim(" --run.threads=1 --out=" + dir + "/plain", output), 0) << output;
    // Two points at once in their own processes, with headers-only captures.
    const std::string grid = " --seed='1, 2' -j 2 --capture.pcap=[up] --capture.snaplen=96"
                             " --capture.flowmon=true --out="
                             + dir + "/grid";
    ASSERT_EQ(RunDlsim(grid, output), 0) << output;
    for (const char* file : {"rounds.csv", "eval.csv", "curve.csv", "links.csv"})
    {
        EXPECT_EQ(ReadWholeFile(dir + "/grid/seed=1/" + file),
                  ReadWholeFile(dir + "/plain/" + file))
            << file;
    }
    for (const char* point : {"seed=1", "seed=2"})
    {
        const std::string captures = dir + "/grid/" + point + "/capture/";
        ASSERT_EQ(FilesIn(captures).size(), 4u) << point;
        const PcapFile pcap = ReadPcap(captures + "0_core.pcap");
        EXPECT_EQ(pcap.problem, "") << point;
        EXPECT_EQ(pcap.snapLength, 96u) << point;
        // Every full-sized segment is cut to its headers.
        EXPECT_GT(pcap.truncated, 50u) << point;
        EXPECT_TRUE(fs::exists(dir + "/grid/" + point + "/flows.csv")) << point;
    }
    // Results do not depend on the capture keys, so a point is complete without its captures;
    // but one asked for them is run again rather than skipped.
    fs::remove(dir + "/grid/seed=2/flows.csv");
    ASSERT_EQ(RunDlsim(grid, output), 0) << output;
    EXPECT_NE(output.find("seed=1: already complete, skipped"), std::string::npos) << output;
    EXPECT_NE(output.find("seed=2 has no flows.csv (capture.flowmon); running it again"),
              std::string::npos)
        << output;
    EXPECT_TRUE(fs::exists(dir + "/grid/seed=2/flows.csv"));
    fs::remove_all(dir);
}

/**
 * Every number says which network model made it, and where flows only approximate packets
 * (queues that overflow, random loss): the grid table, its footnote, index.csv, points.csv.
 */
TEST(Capture, ApproximateFlowRunsAreFlaggedInEveryTable)
{
    const std::string dir = FreshTempFolder("fidelity");
    std::string output;
    ASSERT_EQ(RunDlsim(" --link.queue=2p --network.model='packet, flow' --out=" + dir, output), 0)
        << output;
    EXPECT_NE(output.find("network model"), std::string::npos) << output;
    EXPECT_NE(output.find("flow (approximate)"), std::string::npos) << output;
    EXPECT_NE(output.find("approximate: the flows' windows overflowed queues"), std::string::npos)
        << output;
    const std::string summary = ReadWholeFile(dir + "/grid-summary.txt");
    EXPECT_NE(summary.find("flow (approximate)"), std::string::npos) << summary;
    const std::string index = ReadWholeFile(dir + "/index.csv");
    EXPECT_NE(index.find(",network_model,network_fidelity,target_evaluated_below_s,"
                         "target_evaluated_above_s\n"),
              std::string::npos)
        << index;
    EXPECT_NE(index.find(",packet,,"), std::string::npos) << index;
    EXPECT_NE(index.find(",flow,queues overflowed on "), std::string::npos) << index;
    const std::string points = ReadWholeFile(dir + "/points.csv");
    EXPECT_NE(points.find(",network_model,approximate_runs\n"), std::string::npos) << points;
    EXPECT_NE(points.find(",flow,1\n"), std::string::npos) << points;
    EXPECT_NE(points.find(",packet,0\n"), std::string::npos) << points;
    // Random loss over flows is flagged too.
    ASSERT_EQ(RunDlsim(" --link.queue=100000p --link.loss=0.01 --network.model=flow --out=" + dir
                           + "/loss",
                       output),
              0)
        << output;
    EXPECT_NE(ReadWholeFile(dir + "/loss/summary.json").find("random loss on "), std::string::npos);
    fs::remove_all(dir);
}

} // namespace
} // namespace ns3
