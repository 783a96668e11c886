// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of time-varying link rates: reading CSV and Mahimahi traces, and a trace driving a
 * point-to-point link, checked against arithmetic.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/simple-net-device.h"
#include "ns3/traffic-control-module.h"
#include "random-variable-spec.h"
#include "rate-trace-helper.h"
#include "rate-trace.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <sstream>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/// The error message `f` throws, or "" when it does not throw ConfigValueError.
template<typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const ConfigValueError& e)
    {
        return e.what();
    }
    return "";
}

/// A file under the temporary directory with the given text, removed at the end of the scope.
class TempFile
{
  public:
    TempFile(const std::string& name, const std::string& text)
    {
        static int count = 0;
        m_path = (std::filesystem::temp_directory_path()
                  / ("dlsim-rate-trace-" + std::to_string(getpid()) + "-" + std::to_string(count++)
                     + "-" + name))
                     .string();
        std::ofstream out(m_path, std::ios::binary);
        out << text;
    }

    ~TempFile()
    {
        std::error_code ec;
        std::filesystem::remove(m_path, ec);
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

TEST(RateTrace, CsvReadsUnitsHeaderAndComments)
{
    TempFile file("units.csv",
                  "# a generated trace\n"
                  "time_s,rate\n"
                  "\n"
                  "0,10Mbps\n"
                  "1.5, 800kbps   # a comment after a row\r\n"
                  "  # an indented comment\n"
                  "2,2000000\n"
                  "3,1e6\n");
    RateTrace trace = RateTrace::ReadCsv(file.Path());
    const auto& steps = trace.GetSteps();
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_DOUBLE_EQ(steps[0].startSeconds, 0);
    EXPECT_DOUBLE_EQ(steps[0].rateBps, 1e7);
    EXPECT_DOUBLE_EQ(steps[1].startSeconds, 1.5);
    EXPECT_DOUBLE_EQ(steps[1].rateBps, 8e5);
    EXPECT_DOUBLE_EQ(steps[2].startSeconds, 2);
    EXPECT_DOUBLE_EQ(steps[2].rateBps, 2e6);
    EXPECT_DOUBLE_EQ(steps[3].startSeconds, 3);
    EXPECT_DOUBLE_EQ(steps[3].rateBps, 1e6);
    // The last row holds for the last gap (1 s): the period is 3 + 1.
    EXPECT_DOUBLE_EQ(trace.GetPeriodSeconds(), 4);
    EXPECT_EQ(trace.GetFlooredWindows(), 0u);

    // Without a header, other units, and a byte order mark.
    TempFile bare("bare.csv",
                  "\xEF\xBB\xBF"
                  "0,1.5Gbps\n0.25,100Mb/s\n0.5,1MBps\n");
    RateTrace other = RateTrace::ReadCsv(bare.Path());
    ASSERT_EQ(other.GetSteps().size(), 3u);
    EXPECT_DOUBLE_EQ(other.GetSteps()[0].rateBps, 1.5e9);
    EXPECT_DOUBLE_EQ(other.GetSteps()[1].rateBps, 1e8);
    EXPECT_DOUBLE_EQ(other.GetSteps()[2].rateBps, 8e6);
    EXPECT_DOUBLE_EQ(other.GetPeriodSeconds(), 0.75);
}

TEST(RateTrace, CsvSingleRowIsConstant)
{
    TempFile file("constant.csv", "time_s,rate\n0,5Mbps\n");
    RateTrace trace = RateTrace::ReadCsv(file.Path());
    ASSERT_EQ(trace.GetSteps().size(), 1u);
    EXPECT_TRUE(std::isinf(trace.GetPeriodSeconds()));
    for (double t : {0.0, 1.0, 1e6, -3.0})
    {
        EXPECT_DOUBLE_EQ(trace.GetRateAt(t), 5e6) << t;
    }
    EXPECT_DOUBLE_EQ(trace.GetMeanRateBps(), 5e6);
}

// Rows exactly 1 ms apart are allowed, although 1.001 - 1.0 is just under 1e-3 in binary.
TEST(RateTrace, CsvRowsOneMillisecondApartAreAllowed)
{
    TempFile file("one-ms.csv", "time_s,rate\n0,3Mbps\n1.000,10Mbps\n1.001,2Mbps\n1.002,10Mbps\n");
    EXPECT_EQ(RateTrace::ReadCsv(file.Path()).GetSteps().size(), 4u);
}

TEST(RateTrace, RateAtLoopsWithThePeriod)
{
    TempFile file("loop.csv", "0,10Mbps\n5,2Mbps\n");
    RateTrace trace = RateTrace::ReadCsv(file.Path());
    EXPECT_DOUBLE_EQ(trace.GetPeriodSeconds(), 10);
    struct Case
    {
        double t;
        double bps;
    };

    for (auto c : std::vector<Case>{{0, 1e7},
                                    {4.999, 1e7},
                                    {5, 2e6},
                                    {9.999, 2e6},
                                    {10, 1e7},
                                    {15, 2e6},
                                    {1234.5, 1e7},
                                    {1e6 + 7, 2e6},
                                    {-1, 2e6},
                                    {-6, 1e7}})
    {
        EXPECT_DOUBLE_EQ(trace.GetRateAt(c.t), c.bps) << "t = " << c.t;
    }
    EXPECT_DOUBLE_EQ(trace.GetRateAt(std::numeric_limits<double>::quiet_NaN()), 1e7);
}

TEST(RateTrace, MeanRateIsTimeWeighted)
{
    TempFile even("even.csv", "0,10Mbps\n5,2Mbps\n");
    EXPECT_DOUBLE_EQ(RateTrace::ReadCsv(even.Path()).GetMeanRateBps(), 6e6);
    // Gaps 1 s, 3 s, then the last gap again (3 s): period 7 s.
    TempFile uneven("uneven.csv", "0,8\n1,2\n4,4\n");
    RateTrace trace = RateTrace::ReadCsv(uneven.Path());
    EXPECT_DOUBLE_EQ(trace.GetPeriodSeconds(), 7);
    EXPECT_DOUBLE_EQ(trace.GetMeanRateBps(), (8 * 1 + 2 * 3 + 4 * 3) / 7.0);
    // Built from steps.
    RateTrace built({{0, 1e6}, {2, 3e6}}, 3);
    EXPECT_DOUBLE_EQ(built.GetMeanRateBps(), (1e6 * 2 + 3e6 * 1) / 3);
}

/// Mahimahi text: `count` lines of each timestamp in `times`.
std::string
Opportunities(const std::vector<uint64_t>& times, int count = 1)
{
    std::string text;
    for (uint64_t t : times)
    {
        for (int i = 0; i < count; ++i)
        {
            text += std::to_string(t) + "\n";
        }
    }
    return text;
}

std::vector<uint64_t>
Range(uint64_t first, uint64_t last)
{
    std::vector<uint64_t> times;
    for (uint64_t t = first; t <= last; ++t)
    {
        times.push_back(t);
    }
    return times;
}

TEST(RateTrace, MahimahiCountsOpportunitiesPerWindow)
{
    // 12 opportunities in each of ms 1..10: 12 * 1500 * 8 bits per ms = 144 Mbit/s. The period
    // is 10 ms; the opportunities at 10 ms are those at 0 ms of the next period.
    TempFile file("144mbps", Opportunities(Range(1, 10), 12));
    for (double window : {0.001, 0.002, 0.005, 0.010, 0.1})
    {
        RateTrace trace = RateTrace::ReadMahimahi(file.Path(), window);
        EXPECT_DOUBLE_EQ(trace.GetPeriodSeconds(), 0.010) << window;
        ASSERT_EQ(trace.GetSteps().size(), 1u) << window; // equal windows are merged
        EXPECT_DOUBLE_EQ(trace.GetSteps()[0].rateBps, 144e6) << window;
        EXPECT_DOUBLE_EQ(trace.GetMeanRateBps(), 144e6) << window;
        EXPECT_EQ(trace.GetFlooredWindows(), 0u) << window;
    }
    // Mahimahi's constant 12 Mbit/s trace is the single line "1"; other packet sizes scale.
    TempFile one("12mbps", "1\n");
    EXPECT_DOUBLE_EQ(RateTrace::ReadMahimahi(one.Path(), 0.001).GetMeanRateBps(), 12e6);
    EXPECT_DOUBLE_EQ(RateTrace::ReadMahimahi(one.Path(), 0.001, 100).GetMeanRateBps(), 8e5);
    // A window longer than the period is cut to the period.
    EXPECT_DOUBLE_EQ(RateTrace::ReadMahimahi(one.Path(), 0.05).GetMeanRateBps(), 12e6);
}

TEST(RateTrace, MahimahiEmptyWindowsAreFloored)
{
    // One opportunity per ms in 1..19, two at 20 ms, nothing until the last one at 100 ms, which
    // wraps to time 0. Windows of 10 ms: 10, 10, 2, then 7 empty windows.
    std::vector<uint64_t> times = Range(1, 20);
    times.push_back(20);
    times.push_back(100);
    TempFile file("gap", Opportunities(times));
    RateTrace trace = RateTrace::ReadMahimahi(file.Path(), 0.010);
    EXPECT_DOUBLE_EQ(trace.GetPeriodSeconds(), 0.1);
    const auto& steps = trace.GetSteps();
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_DOUBLE_EQ(steps[0].startSeconds, 0);
    EXPECT_DOUBLE_EQ(steps[0].rateBps, 12e6);
    EXPECT_DOUBLE_EQ(steps[1].startSeconds, 0.02);
    EXPECT_DOUBLE_EQ(steps[1].rateBps, 2.4e6);
    EXPECT_DOUBLE_EQ(steps[2].startSeconds, 0.03);
    EXPECT_DOUBLE_EQ(steps[2].rateBps, 1.2e6); // one packet per window, not 0
    EXPECT_EQ(trace.GetFlooredWindows(), 7u);
    EXPECT_NEAR(trace.GetMeanRateBps(), (12e6 * 0.02 + 2.4e6 * 0.01 + 1.2e6 * 0.07) / 0.1, 1e-3);
    EXPECT_DOUBLE_EQ(trace.GetRateAt(0.05), 1.2e6);
    EXPECT_DOUBLE_EQ(trace.GetRateAt(0.105), 12e6);

    // A period of 25 ms in windows of 10 ms: the last, empty, window is 5 ms long, and one
    // packet in 5 ms is twice the floored rate of a full window.
    TempFile shortLast("short-last", "5\n25\n");
    RateTrace cut = RateTrace::ReadMahimahi(shortLast.Path(), 0.010);
    ASSERT_EQ(cut.GetSteps().size(), 3u);
    EXPECT_DOUBLE_EQ(cut.GetSteps()[0].rateBps, 2.4e6); // 5 ms and the wrapped 25 ms
    EXPECT_DOUBLE_EQ(cut.GetSteps()[1].rateBps, 1.2e6);
    EXPECT_DOUBLE_EQ(cut.GetSteps()[2].startSeconds, 0.02);
    EXPECT_DOUBLE_EQ(cut.GetSteps()[2].rateBps, 2.4e6);
    EXPECT_EQ(cut.GetFlooredWindows(), 2u);
    EXPECT_DOUBLE_EQ(cut.GetPeriodSeconds(), 0.025);
}

TEST(RateTrace, ReadChoosesTheFormat)
{
    TempFile csv("trace.CSV", "0,3Mbps\n");
    TempFile mahimahi("trace.up", "1\n");
    EXPECT_DOUBLE_EQ(RateTrace::Read(csv.Path(), "auto", 0.1).GetMeanRateBps(), 3e6);
    EXPECT_DOUBLE_EQ(RateTrace::Read(csv.Path(), "csv", 0.1).GetMeanRateBps(), 3e6);
    EXPECT_DOUBLE_EQ(RateTrace::Read(mahimahi.Path(), "auto", 0.001).GetMeanRateBps(), 12e6);
    EXPECT_DOUBLE_EQ(RateTrace::Read(mahimahi.Path(), "mahimahi", 0.001).GetMeanRateBps(), 12e6);
    // A CSV file read as Mahimahi fails on its first line.
    EXPECT_NE(ErrorOf([&] { RateTrace::Read(csv.Path(), "mahimahi", 0.1); }).find(":1: bad"),
              std::string::npos);
    std::string error = ErrorOf([&] { RateTrace::Read(csv.Path(), "pcap", 0.1); });
    EXPECT_NE(error.find("unknown format 'pcap'"), std::string::npos) << error;
    EXPECT_NE(error.find(csv.Path()), std::string::npos) << error;
}

/// A file with the given text whose reading must fail with a message containing the file's path
/// followed by `where` (":<line>" or "") and then every one of `words`.
struct BadFile
{
    std::string text;
    std::string where;
    std::vector<std::string> words;
};

void
ExpectErrors(const std::string& format, double window, const std::vector<BadFile>& cases)
{
    for (const auto& c : cases)
    {
        TempFile file(format == "csv" ? "bad.csv" : "bad.mahimahi", c.text);
        std::string error = ErrorOf([&] { RateTrace::Read(file.Path(), format, window); });
        SCOPED_TRACE(format + " file '" + c.text.substr(0, 60) + "': " + error);
        ASSERT_FALSE(error.empty());
        EXPECT_NE(error.find(file.Path() + c.where + ":"), std::string::npos);
        for (const auto& word : c.words)
        {
            EXPECT_NE(error.find(word), std::string::npos) << word;
        }
    }
}

TEST(RateTrace, CsvErrorsNameFileAndLine)
{
    ExpectErrors(
        "csv",
        0,
        {
            {"", "", {"empty trace"}},
            {"# only a comment\ntime_s,rate\n\n", "", {"empty trace"}},
            {"time_s,rate\nabc,10Mbps\n", ":2", {"bad time 'abc'"}},
            {"0,fast\n", ":1", {"cannot read 'fast'"}},
            {"0,10Mbps,1\n", ":1", {"expected two fields"}},
            {"0\n", ":1", {"expected two fields"}},
            {"0,1Mbps\n1,1Mbps\n1,2Mbps\n", ":3", {"strictly increase"}},
            {"0,1Mbps\n2,1Mbps\n\n1,2Mbps\n", ":4", {"strictly increase"}},
            {"-1,1Mbps\n", ":1", {"negative time"}},
            {"1,1Mbps\n", ":1", {"first row must be at time 0"}},
            {"0,-5\n", ":1", {"negative rate"}},
            {"0,1Mbps\n1,-5Mbps\n", ":2", {"cannot read '-5Mbps'"}},
            {"0,0\n", ":1", {"rate 0", "must be positive"}},
            {"0,0Mbps\n", ":1", {"must be positive"}},
            {"0,0.5\n", ":1", {"below 1 bit/s"}},
            {"0,1e20\n", ":1", {"above 1 Tbit/s"}},
            {"0,1e400\n", ":1", {"cannot read '1e400'"}},
            {"0,nan\n", ":1", {"cannot read 'nan'"}},
            {"0,1Mbps\ninf,1Mbps\n", ":2", {"bad time 'inf'"}},
            {"0,1Mbps\n2e9,1Mbps\n", ":2", {"beyond 1e9 s"}},
            {"0,1Mbps\n" + std::string(5000, '1') + ",1Mbps\n", ":2", {"longer than 4096"}},
        });
}

TEST(RateTrace, MahimahiErrorsNameFileAndLine)
{
    ExpectErrors("mahimahi",
                 0.01,
                 {
                     {"", "", {"empty trace"}},
                     {"\n\n", "", {"empty trace"}},
                     {"1\n12a\n", ":2", {"bad timestamp '12a'"}},
                     {"1.5\n", ":1", {"bad timestamp '1.5'"}},
                     {"1\n-3\n", ":2", {"negative timestamp"}},
                     {"5\n3\n", ":2", {"must not decrease"}},
                     {"0\n0\n", ":2", {"last timestamp is 0"}},
                     {"99999999999999999999\n", ":1", {"beyond 1e9 s"}},
                     {"1000000000001\n", ":1", {"beyond 1e9 s"}},
                 });
    // A period of 1e9 s in windows of 1 ms would be 1e12 windows: refused before any is made.
    ExpectErrors("mahimahi", 0.001, {{"1000000000000\n", ":1", {"too many windows"}}});
    // One packet of 1 byte in 100 s is below 1 bit/s.
    TempFile slow("slow", "200000\n");
    std::string error = ErrorOf([&] { RateTrace::ReadMahimahi(slow.Path(), 100, 1); });
    EXPECT_NE(error.find(slow.Path() + ": window 0"), std::string::npos) << error;
    EXPECT_NE(error.find("below 1 bit/s"), std::string::npos) << error;

    TempFile good("good", "1\n");
    for (double window : {0.0, -1.0, 0.0005, 0.0015, std::nan(""), 1e300})
    {
        error = ErrorOf([&] { RateTrace::ReadMahimahi(good.Path(), window); });
        EXPECT_NE(error.find("whole number of milliseconds"), std::string::npos) << window;
        EXPECT_NE(error.find(good.Path()), std::string::npos) << window;
    }
    error = ErrorOf([&] { RateTrace::ReadMahimahi(good.Path(), 0.001, 0); });
    EXPECT_NE(error.find("packet size"), std::string::npos) << error;
}

TEST(RateTrace, FileErrors)
{
    std::string missing
        = (std::filesystem::temp_directory_path() / "dlsim-rate-trace-no-such-file.csv").string();
    std::string error = ErrorOf([&] { RateTrace::ReadCsv(missing); });
    EXPECT_NE(error.find(missing + ": cannot open"), std::string::npos) << error;
    EXPECT_NE(error.find("no such file"), std::string::npos) << error;
    std::string directory = std::filesystem::temp_directory_path().string();
    error = ErrorOf([&] { RateTrace::ReadMahimahi(directory, 0.1); });
    EXPECT_NE(error.find(directory), std::string::npos) << error;
    EXPECT_NE(error.find("directory"), std::string::npos) << error;

    // More than 10 million lines, even blank ones, are refused at the first line too many.
    TempFile huge("huge.csv", std::string(10000001, '\n'));
    error = ErrorOf([&] { RateTrace::ReadCsv(huge.Path()); });
    EXPECT_NE(error.find(huge.Path() + ":10000001: more than 10000000 lines"), std::string::npos)
        << error;
}

TEST(RateTrace, StepsAreValidated)
{
    double inf = std::numeric_limits<double>::infinity();
    EXPECT_NE(ErrorOf([] { RateTrace({}, 1); }).find("no steps"), std::string::npos);
    EXPECT_NE(ErrorOf([] { RateTrace({{1, 1e6}}, 2); }).find("start at 0"), std::string::npos);
    EXPECT_NE(ErrorOf(
                  [] {
                      RateTrace({{0, 1e6}, {2, 1e6}}, 2);
                  })
                  .find("end of the period"),
              std::string::npos);
    EXPECT_NE(ErrorOf(
                  [] {
                      RateTrace({{0, 1e6}, {1, 1e6}, {1, 2e6}}, 3);
                  })
                  .find("increase"),
              std::string::npos);
    EXPECT_NE(ErrorOf(
                  [&] {
                      RateTrace({{0, 1e6}, {1, 1e6}}, inf);
                  })
                  .find("infinite"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] { RateTrace({{0, 0}}, 1); }).find("rate 0"), std::string::npos);
    EXPECT_NE(ErrorOf([] { RateTrace({{0, 1e6}}, 0); }).find("period"), std::string::npos);
    EXPECT_EQ(ErrorOf([&] { RateTrace({{0, 1e6}}, inf); }), "");
}

#ifdef DLSIM_SOURCE_DIR
TEST(RateTrace, SampleTracesAreValid)
{
    std::string dir = std::string(DLSIM_SOURCE_DIR) + "/scenarios/traces/";
    RateTrace uplink = RateTrace::Read(dir + "uplink-steps.csv", "auto", 0.1);
    EXPECT_DOUBLE_EQ(uplink.GetPeriodSeconds(), 60);
    ASSERT_EQ(uplink.GetSteps().size(), 12u);
    for (size_t i = 0; i < uplink.GetSteps().size(); ++i)
    {
        EXPECT_DOUBLE_EQ(uplink.GetSteps()[i].startSeconds, 5.0 * i);
        EXPECT_DOUBLE_EQ(uplink.GetSteps()[i].rateBps, i % 2 == 0 ? 2e6 : 8e6);
    }
    EXPECT_DOUBLE_EQ(uplink.GetMeanRateBps(), 5e6);

    RateTrace cellular = RateTrace::Read(dir + "cellular-like.mahimahi", "auto", 0.1);
    EXPECT_EQ(cellular.GetFlooredWindows(), 0u);
    double low = 1e300;
    double high = 0;
    for (const auto& step : cellular.GetSteps())
    {
        low = std::min(low, step.rateBps);
        high = std::max(high, step.rateBps);
    }
    EXPECT_GE(low, 0.5e6);
    EXPECT_LE(low, 2e6);
    EXPECT_GE(high, 15e6);
    EXPECT_LE(high, 25e6);
}
#endif

/// Received all bytes at this simulated time (seconds), or -1.
struct Transfer
{
    double doneSeconds = -1;
    uint64_t received = 0;
};

/**
 * Send `bytes` over TCP from node 0 to node 1 of a 10 Mbit/s, 5 ms point-to-point link with a
 * large drop-tail queue and no queue discipline; `configure` may install rate traces on the
 * devices. The simulation stops at `stopSeconds` at the latest (the traces loop forever).
 */
Transfer
RunTransfer(uint64_t bytes, const std::function<void(NetDeviceContainer&)>& configure)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("5ms"));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("10000p"));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper internet;
    internet.SetIpv6StackInstall(false);
    internet.Install(nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
    // No FqCoDel: the device queue alone, so that nothing but the link rate shapes the transfer.
    TrafficControlHelper().Uninstall(devices);
    configure(devices);

    const uint16_t port = 9;
    BulkSendHelper source("ns3::TcpSocketFactory",
                          InetSocketAddress(interfaces.GetAddress(1), port));
    source.SetAttribute("MaxBytes", UintegerValue(bytes));
    source.Install(nodes.Get(0)).Start(Seconds(0));
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sink.Install(nodes.Get(1));
    sinkApp.Start(Seconds(0));

    Transfer transfer;
    sinkApp.Get(0)->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const Address&>(
            [&transfer, bytes](Ptr<const Packet> packet, const Address&)
            {
                transfer.received += packet->GetSize();
                if (transfer.received >= bytes && transfer.doneSeconds < 0)
                {
                    transfer.doneSeconds = Simulator::Now().GetSeconds();
                }
            }));
    Simulator::Stop(Seconds(60));
    Simulator::Run();
    Simulator::Destroy();
    return transfer;
}

constexpr uint64_t kBytes = 2500000; // 20 Mbit of payload: 2 s at 10 Mbit/s

TEST(RateTraceHelper, HalvingTheRateMatchesArithmetic)
{
    Transfer constant = RunTransfer(kBytes, [](NetDeviceContainer&) {});
    ASSERT_GT(constant.doneSeconds, 0);
    EXPECT_EQ(constant.received, kBytes);
    const double t0 = constant.doneSeconds;
    // Payload alone at 10 Mbit/s takes 2 s; headers add about 8% (576-byte segments).
    EXPECT_GT(t0, 2.0);
    EXPECT_LT(t0, 2.4);

    // 10 Mbit/s until s = T0/2, then 5 Mbit/s (rows every s so that the trace is uniformly
    // sampled; its period, 5 s, is past the end of the transfer).
    const double s = t0 / 2;
    std::ostringstream csv;
    csv.precision(17);
    csv << "time_s,rate\n0,10Mbps\n";
    for (int i = 1; i <= 4; ++i)
    {
        csv << i * s << ",5Mbps\n";
    }
    TempFile file("halving.csv", csv.str());
    RateTrace trace = RateTrace::ReadCsv(file.Path());
    ASSERT_DOUBLE_EQ(trace.GetPeriodSeconds(), 5 * s);
    Transfer halved = RunTransfer(
        kBytes, [&trace](NetDeviceContainer& d) { RateTraceHelper().Install(d, trace); });
    ASSERT_GT(halved.doneSeconds, 0);
    EXPECT_EQ(halved.received, kBytes);

    // Both runs are the same until s. After s the link is busy until the last packet has been
    // sent (the window is far above the bandwidth-delay product and nothing is lost), and the
    // last packet then arrives one latency d later. With constant rate R, the bits left at s take
    // (T0 - s - d) to send; at R/2 they take twice that, so T = s + 2 (T0 - s - d) + d
    // = 2 T0 - s - d = 1.5 T0 - d. The naive 1.5 T0 forgets that the latency is not slowed down.
    // The error left is the packet on the wire at s, which keeps the old rate: below 1 ms.
    const double d = 0.005;
    const double predicted = 2 * t0 - s - d;
    std::printf("[          ] constant: T0 = %.6f s; halved at T0/2: measured %.6f s, predicted "
                "2 T0 - T0/2 - d = %.6f s (error %.4f%%), naive 1.5 T0 = %.6f s\n",
                t0,
                halved.doneSeconds,
                predicted,
                100 * (halved.doneSeconds - predicted) / predicted,
                1.5 * t0);
    // Within 0.1% (about 3 ms, a few packets' transmission times), much tighter than the 2% a
    // model ignoring packets and latency would need.
    EXPECT_NEAR(halved.doneSeconds, predicted, 0.001 * predicted);
}

TEST(RateTraceHelper, MahimahiTraceOfTheSameRateMatchesTheConstantLink)
{
    const double t0 = RunTransfer(kBytes, [](NetDeviceContainer&) {}).doneSeconds;
    ASSERT_GT(t0, 0);

    // Exactly 10 Mbit/s: 25 packets of 1500 bytes in every 30 ms (25 * 12000 / 0.03 = 1e7).
    std::string text;
    for (uint64_t i = 1; i <= 25; ++i)
    {
        text += std::to_string(i * 30 / 25) + "\n";
    }
    TempFile exact("exact.mahimahi", text);
    RateTrace flat = RateTrace::ReadMahimahi(exact.Path(), 0.030);
    ASSERT_EQ(flat.GetSteps().size(), 1u);
    EXPECT_DOUBLE_EQ(flat.GetMeanRateBps(), 1e7);
    double flatDone
        = RunTransfer(kBytes,
                      [&flat](NetDeviceContainer& d) { RateTraceHelper().Install(d, flat); })
              .doneSeconds;
    EXPECT_DOUBLE_EQ(flatDone, t0);

    // 8 and 12 Mbit/s in alternate 30 ms windows (20 and 30 packets), a mean of 10 Mbit/s: the
    // transfer takes the constant link's time, up to two effects each worth at most the bits of
    // one half-period at 2 Mbit/s from the mean (60 kbit, 6 ms at 10 Mbit/s): the phase of the
    // trace when the transfer ends, and the link's idle moments of TCP's slow start (the first
    // ~30 ms), which waste capacity at 8 rather than 10 Mbit/s. Hence 12 ms.
    std::vector<uint64_t> times = Range(1, 19); // + the one at 60 ms, which wraps to 0
    for (uint64_t t = 30; t < 60; ++t)
    {
        times.push_back(t);
    }
    times.push_back(60);
    TempFile alternating("alternating.mahimahi", Opportunities(times));
    RateTrace varying = RateTrace::ReadMahimahi(alternating.Path(), 0.030);
    ASSERT_EQ(varying.GetSteps().size(), 2u);
    EXPECT_DOUBLE_EQ(varying.GetSteps()[0].rateBps, 8e6);
    EXPECT_DOUBLE_EQ(varying.GetSteps()[1].rateBps, 12e6);
    EXPECT_DOUBLE_EQ(varying.GetMeanRateBps(), 1e7);
    double varyingDone
        = RunTransfer(kBytes,
                      [&varying](NetDeviceContainer& d) { RateTraceHelper().Install(d, varying); })
              .doneSeconds;
    std::printf("[          ] constant 10 Mbit/s: %.6f s; Mahimahi 10 Mbit/s: %.6f s; Mahimahi "
                "8/12 Mbit/s alternating: %.6f s\n",
                t0,
                flatDone,
                varyingDone);
    EXPECT_NEAR(varyingDone, t0, 0.012);
}

TEST(RateTraceHelper, DeviceRateFollowsTheTraceAcrossPeriods)
{
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devices = PointToPointHelper().Install(nodes);
    RateTrace trace({{0, 3e6}, {0.1, 1e6}, {0.25, 2e6}}, 0.4);
    RateTraceHelper().Install(devices, trace);
    auto rateOf = [&devices](uint32_t i)
    {
        DataRateValue value;
        devices.Get(i)->GetAttribute("DataRate", value);
        return static_cast<double>(value.Get().GetBitRate());
    };
    // Checked inside each step (away from its boundaries) of 50 periods.
    int checks = 0;
    for (int period = 0; period < 50; ++period)
    {
        for (double offset : {0.05, 0.2, 0.3})
        {
            double t = period * 0.4 + offset;
            Simulator::Schedule(Seconds(t),
                                [&, t]
                                {
                                    ++checks;
                                    EXPECT_DOUBLE_EQ(rateOf(0), trace.GetRateAt(t)) << "t = " << t;
                                    EXPECT_DOUBLE_EQ(rateOf(1), trace.GetRateAt(t)) << "t = " << t;
                                });
        }
    }
    EXPECT_DOUBLE_EQ(rateOf(0), 3e6); // set at Install, before the simulation runs
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    EXPECT_EQ(checks, 150);
    // No event storm: per period and device, two rate changes and the start of the next period.
    EXPECT_LE(Simulator::GetEventCount(), 150u + 2 * 3 * 51 + 10);
    Simulator::Destroy();
}

TEST(RateTraceHelper, RefusesOtherDevices)
{
    RateTrace trace({{0, 1e6}}, 1);
    NetDeviceContainer devices(CreateObject<SimpleNetDevice>());
    std::string error = ErrorOf([&] { RateTraceHelper().Install(devices, trace); });
    EXPECT_NE(error.find("ns3::SimpleNetDevice"), std::string::npos) << error;
    EXPECT_NE(ErrorOf([&] { RateTraceHelper().Install(Ptr<PointToPointNetDevice>(), trace); })
                  .find("null"),
              std::string::npos);
}

} // namespace
} // namespace ns3
