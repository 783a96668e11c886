// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of scenario files: defaults, sections, overrides and errors naming the key.
 */
#include "run-command.h"
#include "scenario-config.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace ns3
{
namespace
{

std::string
WriteScenario(const std::string& text)
{
    std::string path = std::filesystem::temp_directory_path()
                       / ("dlsim-scenario-" + std::to_string(::getpid()) + ".ini");
    std::ofstream(path) << text;
    return path;
}

std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

TEST(ScenarioConfig, DefaultsFileSectionsAndOverrides)
{
    std::string path = WriteScenario("nodes = 8\nrounds = 5\n[link]\nbandwidth = 1Gbps\n"
                                     "latency = 2ms\n[eval]\nevery = 3\n");
    ScenarioConfig c = ScenarioConfig::Load(path, {"--rounds=7", "link.latency=9ms"});
    EXPECT_EQ(c.GetUint("nodes"), 8u);
    EXPECT_EQ(c.GetUint("rounds"), 7u) << "the command line wins over the file";
    EXPECT_EQ(c.GetString("link.bandwidth"), "1Gbps");
    EXPECT_EQ(c.GetString("link.latency"), "9ms");
    EXPECT_EQ(c.GetUint("eval.every"), 3u);
    EXPECT_EQ(c.GetString("algorithm"), "dpsgd"); // default
    EXPECT_EQ(c.GetString("out"), "results/" + std::filesystem::path(path).stem().string());
    std::filesystem::remove(path);
}

TEST(ScenarioConfig, UnknownKeysAreRejectedByName)
{
    std::string path = WriteScenario("nodes = 8\nbandwith = 10Mbps\n");
    EXPECT_NE(ErrorOf([&] { ScenarioConfig::Load(path, {}); }).find("bandwith"), std::string::npos);
    std::filesystem::remove(path);
    EXPECT_NE(ErrorOf([] { ScenarioConfig::Load("", {"--link.bandwith=1Mbps"}); }).find("bandwith"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf([] { ScenarioConfig::Load("/no/such/file.ini", {}); }).find("/no/such/file.ini"),
        std::string::npos);
}

TEST(ScenarioConfig, InvalidValuesAreRejectedByName)
{
    ScenarioConfig c = ScenarioConfig::Load(
        "",
        {"--nodes=abc", "--lr=-1", "--model.same_init=maybe", "--topology=torus", "--rounds=5x"});
    EXPECT_NE(ErrorOf([&] { c.GetUint("nodes", 2); }).find("nodes"), std::string::npos);
    EXPECT_NE(ErrorOf([&] { c.GetUint("rounds", 1); }).find("rounds"), std::string::npos);
    EXPECT_NE(ErrorOf([&] { c.GetDouble("lr", 0.0, 10.0); }).find("lr"), std::string::npos);
    EXPECT_NE(ErrorOf([&] { c.GetBool("model.same_init"); }).find("model.same_init"),
              std::string::npos);
    std::string message = ErrorOf([&] { c.GetChoice("topology", {"ring", "complete"}); });
    EXPECT_NE(message.find("topology"), std::string::npos);
    EXPECT_NE(message.find("torus"), std::string::npos);
    EXPECT_NE(ErrorOf([&] { c.GetUint("nodes", 2); }).find("abc"), std::string::npos);
    ScenarioConfig negative = ScenarioConfig::Load("", {"--nodes=-3"});
    EXPECT_FALSE(ErrorOf([&] { negative.GetUint("nodes", 2); }).empty());
}

TEST(ScenarioConfig, RepeatedKeyIsAnError)
{
    std::string path = WriteScenario("nodes = 8\nnodes = 9\n");
    EXPECT_NE(ErrorOf([&] { ScenarioConfig::Load(path, {}); }).find("nodes"), std::string::npos);
    std::filesystem::remove(path);
}

TEST(ScenarioConfig, ResolvedIniReadsBackIdentically)
{
    ScenarioConfig c = ScenarioConfig::Load(
        "", {"--nodes=12", "--link.bandwidth=ns3::UniformRandomVariable[Min=1|Max=2]"});
    std::ostringstream ini;
    c.WriteIni(ini);
    std::string path = WriteScenario(ini.str());
    ScenarioConfig back = ScenarioConfig::Load(path, {});
    for (const auto& key : ScenarioKeys())
    {
        EXPECT_EQ(back.GetString(key.name), c.GetString(key.name)) << key.name;
    }
    std::filesystem::remove(path);
}

// The doc's key table is the key list: one declaration per key, printed, not copied by hand.
TEST(ScenarioConfig, TheDocsKeyTableIsTheKeyList)
{
    // From dlsim-run: this test program registers algorithms and partitions of its own.
    std::string table;
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " --key-table", table), 0) << table;
    std::ifstream doc(std::string(DLSIM_SOURCE_DIR) + "/doc/dlsim.rst");
    std::stringstream text;
    text << doc.rdbuf();
    EXPECT_NE(text.str().find(table), std::string::npos)
        << "doc/dlsim.rst's key table differs from the keys: replace it with the output of "
           "dlsim-run --key-table";
}

// Every attribute a key binds is refused as an --ns3. default, naming every key that sets it.
TEST(ScenarioConfig, AttributesBoundToKeysNameTheirKeys)
{
    const auto refused = AttributesSetByKeys();
    EXPECT_EQ(refused.at("ns3::PointToPointNetDevice::DataRate"),
              "link.bandwidth or access.up or access.down");
    EXPECT_EQ(refused.at("ns3::LearnerApplication::RoundTimeout"), "rounds.timeout");
    EXPECT_EQ(refused.at("ns3::TcpSocket::SndBufSize"), "tcp.buffer");
}

} // namespace
} // namespace ns3
