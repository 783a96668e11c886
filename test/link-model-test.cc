// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of link-model parsing: data rates, latencies, random variables, CSV files.
 */
#include "link-model.h"
#include "random-variable-spec.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

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

TEST(LinkModel, ParsesRatesAndTimes)
{
    EXPECT_DOUBLE_EQ(ParseDataRateBps("k", "10Mbps"), 1e7);
    EXPECT_DOUBLE_EQ(ParseDataRateBps("k", "1.5Gbps"), 1.5e9);
    EXPECT_DOUBLE_EQ(ParseDataRateBps("k", "800kbps"), 8e5);
    EXPECT_DOUBLE_EQ(ParseDataRateBps("k", "100Mb/s"), 1e8);
    EXPECT_DOUBLE_EQ(ParseDataRateBps("k", "1MBps"), 8e6);
    EXPECT_DOUBLE_EQ(ParseSeconds("k", "10ms"), 0.01);
    EXPECT_DOUBLE_EQ(ParseSeconds("k", "2s"), 2.0);
    EXPECT_DOUBLE_EQ(ParseSeconds("k", "250us"), 250e-6);
    for (std::string bad : {"10", "fast", "10 parsecs", "-5Mbps", "", "0Mbps"})
    {
        EXPECT_NE(ErrorOf([&] { ParseDataRateBps("link.bandwidth", bad); }).find("link.bandwidth"),
                  std::string::npos)
            << bad;
    }
    EXPECT_NE(ErrorOf([] { ParseSeconds("link.latency", "10"); }).find("link.latency"),
              std::string::npos);
}

TEST(LinkModel, FixedValuesApplyToEveryLink)
{
    LinkModel model("20Mbps", "5ms");
    auto links = model.Draw({{0, 1}, {1, 2}});
    ASSERT_EQ(links.size(), 2u);
    for (const auto& l : links)
    {
        EXPECT_DOUBLE_EQ(l.bandwidthBps, 2e7);
        EXPECT_DOUBLE_EQ(l.latencySeconds, 0.005);
    }
}

TEST(LinkModel, RandomVariablesDrawPerLinkInMbpsAndMs)
{
    LinkModel model("ns3::UniformRandomVariable[Min=5|Max=20]",
                    "ns3::UniformRandomVariable[Min=1|Max=100]");
    model.AssignStreams(7);
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < 50; ++i)
    {
        pairs.emplace_back(i, i + 1);
    }
    auto links = model.Draw(pairs);
    double lo = 1e12;
    double hi = 0;
    for (const auto& l : links)
    {
        EXPECT_GE(l.bandwidthBps, 5e6);
        EXPECT_LE(l.bandwidthBps, 20e6);
        EXPECT_GE(l.latencySeconds, 0.001);
        EXPECT_LE(l.latencySeconds, 0.1);
        lo = std::min(lo, l.bandwidthBps);
        hi = std::max(hi, l.bandwidthBps);
    }
    EXPECT_GT(hi - lo, 5e6) << "draws should spread over the range";

    LinkModel again("ns3::UniformRandomVariable[Min=5|Max=20]",
                    "ns3::UniformRandomVariable[Min=1|Max=100]");
    again.AssignStreams(7);
    auto same = again.Draw(pairs);
    for (size_t i = 0; i < links.size(); ++i)
    {
        EXPECT_EQ(links[i].bandwidthBps, same[i].bandwidthBps);
        EXPECT_EQ(links[i].latencySeconds, same[i].latencySeconds);
    }
}

TEST(LinkModel, BadRandomVariablesNameTheKey)
{
    for (std::string bad : {"ns3::NoSuchRandomVariable",
                            "ns3::UniformRandomVariable[Mn=1]",
                            "ns3::UniformRandomVariable[Min=abc]",
                            "ns3::UniformRandomVariable[Min=1",
                            "ns3::Node",
                            "ns3::UniformRandomVariable[Min]"})
    {
        std::string message = ErrorOf([&] { LinkModel(bad, "10ms"); });
        EXPECT_NE(message.find("link.bandwidth"), std::string::npos) << bad << ": " << message;
        message = ErrorOf([&] { LinkModel("10Mbps", bad); });
        EXPECT_NE(message.find("link.latency"), std::string::npos) << bad << ": " << message;
    }
    LinkModel negative("ns3::NormalRandomVariable[Mean=-100|Variance=1]", "1ms");
    EXPECT_THROW(negative.Draw({{0, 1}}), ConfigValueError);
}

TEST(LinkModel, CsvFileGivesEveryLink)
{
    std::string path = std::filesystem::temp_directory_path() / "dlsim-links.csv";
    {
        std::ofstream f(path);
        f << "u,v,bandwidth,latency\n0,1,10Mbps,5ms\n2, 1, 1Gbps, 1us # reversed order is fine\n";
    }
    LinkModel model("1Mbps", "1ms");
    model.SetFile(path);
    auto links = model.Draw({{0, 1}, {1, 2}});
    EXPECT_DOUBLE_EQ(links[0].bandwidthBps, 1e7);
    EXPECT_DOUBLE_EQ(links[1].bandwidthBps, 1e9);
    EXPECT_DOUBLE_EQ(links[1].latencySeconds, 1e-6);

    EXPECT_NE(ErrorOf(
                  [&] {
                      model.Draw({{0, 1}, {1, 2}, {2, 3}});
                  })
                  .find("no line for link 2-3"),
              std::string::npos);
    // A file may list more links than the overlay uses.
    EXPECT_DOUBLE_EQ(model.Draw({{0, 1}})[0].bandwidthBps, 1e7);
    // A run's links.csv is read back as it is: its direct links, once per direction.
    {
        std::ofstream f(path);
        f << "from,to,role,bandwidth_bps,latency_s,loss,queue,trace,tx_bytes,utilisation\n"
             "0,1,direct,12500000,0.004,0,84p,,1000,0.1\n1,0,direct,12500000,0.004,0,84p,,900,0.1\n"
             "1,2,direct,1000000,0.02,0,9p,,100,0.2\n2,1,direct,1000000,0.02,0,9p,,100,0.2\n";
    }
    auto again = model.Draw({{0, 1}, {1, 2}});
    EXPECT_DOUBLE_EQ(again[0].bandwidthBps, 12.5e6);
    EXPECT_DOUBLE_EQ(again[1].latencySeconds, 0.02);
    {
        std::ofstream f(path);
        f << "0,1,10Mbps\n";
    }
    EXPECT_NE(ErrorOf([&] { model.Draw({{0, 1}}); }).find(path + ":1"), std::string::npos);
    {
        std::ofstream f(path);
        f << "0,1,10Mbps,5ms\n1,0,10Mbps,5ms\n";
    }
    EXPECT_NE(ErrorOf([&] { model.Draw({{0, 1}}); }).find("twice"), std::string::npos);
    std::filesystem::remove(path);
}

} // namespace
} // namespace ns3
