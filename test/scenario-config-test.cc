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

// A file saved with a UTF-8 byte order mark (as some editors save) is read as without it: the
// mark is not part of its first key ("unrecognised option '\ufeffnodes'" before).
TEST(ScenarioConfig, AByteOrderMarkIsNoPartOfTheFirstKey)
{
    std::string path = WriteScenario("\xEF\xBB\xBFnodes = 8\nrounds = 5\n");
    ScenarioConfig c = ScenarioConfig::Load(path, {});
    EXPECT_EQ(c.GetUint("nodes"), 8u);
    EXPECT_EQ(c.GetUint("rounds"), 5u);
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

/// A folder of one test's own, removed with everything in it when the test ends.
class TempFolder
{
  public:
    explicit TempFolder(const std::string& name) : m_path(FreshTempFolder(name)) {}

    ~TempFolder()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }

    /// \return the folder's path, absolute
    const std::filesystem::path& Path() const
    {
        return m_path;
    }

    /// Write `text` to `name` inside the folder. \return the file's path
    std::string Write(const std::string& name, const std::string& text) const
    {
        const std::filesystem::path file = m_path / name;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file) << text;
        return file.string();
    }

  private:
    std::filesystem::path m_path;
};

// A relative path in a scenario file is read from the file's folder, so that a scenario and
// its data files can move together; a path on the command line from the working directory. A
// configuration dlsim wrote (config.ini, point.ini) holds the paths as the run read them, from
// its working directory, wherever the file lies.
TEST(ScenarioConfig, RelativePathsInAFileAreReadFromItsFolder)
{
    ASSERT_NE(FindScenarioKey("access.file"), nullptr);
    ASSERT_NE(FindScenarioKey("regions.latency"), nullptr);
    TempFolder folder("paths");
    const std::string f = folder.Path().string();
    folder.Write("data/a.csv", "node,up,down,latency\n");
    const std::string scenario
        = folder.Write("study/s.ini",
                       "[topology]\n"
                       "schedule = [../data/a.csv, ../data/b.csv], [/c.csv]\n"
                       "[access]\n"
                       "file = ../data/a.csv\n"
                       "[trace]\n"
                       "file = x.csv,y.csv\n"
                       "[regions]\n"
                       "latency = builtin\n"
                       "[own]\n"
                       "description = ../data/a.csv\n");
    ScenarioConfig c = ScenarioConfig::Load(scenario, {"--compute.file=data/b.csv"});
    const std::string s = f + "/study/";
    EXPECT_EQ(c.GetString("topology.schedule"),
              "[" + s + "../data/a.csv, " + s + "../data/b.csv], [/c.csv]")
        << "every path of a grid of lists, an absolute one as written";
    EXPECT_EQ(c.GetString("access.file"), s + "../data/a.csv");
    EXPECT_EQ(c.GetString("trace.file"), f + "/study/x.csv, " + f + "/study/y.csv")
        << "every value of a grid axis";
    EXPECT_EQ(c.GetString("regions.latency"), "builtin") << "a word that names no file";
    EXPECT_EQ(c.GetString("own.description"), "../data/a.csv") << "not a path key";
    EXPECT_EQ(c.GetString("compute.file"), "data/b.csv") << "the command line's is as given";

    // A config.ini (a comment before WriteIni's, as a run folder's has) in a folder of its own
    // is read as written: the files the run read.
    std::ostringstream ini;
    ini << "# dlsim 1.0\n";
    c.WriteIni(ini);
    const ScenarioConfig back
        = ScenarioConfig::Load(folder.Write("results/run/config.ini", ini.str()), {});
    for (const auto& key : ScenarioKeys())
    {
        EXPECT_EQ(back.GetString(key.name), c.GetString(key.name)) << key.name;
    }
    // The same text without WriteIni's header is a scenario, read from its folder.
    std::string text = ini.str();
    const size_t header = text.find("# dlsim resolved configuration");
    ASSERT_NE(header, std::string::npos);
    text.erase(header, text.find('\n', header) + 1 - header);
    const ScenarioConfig edited = ScenarioConfig::Load(folder.Write("edited/s.ini", text), {});
    EXPECT_EQ(edited.GetString("compute.file"), f + "/edited/data/b.csv");
}

// A scenario written when relative paths were read from the working directory names its files
// so: where such a path names a file from there but none from the scenario's folder, the error
// says so and how to write it, rather than reading a file the folder does not hold.
TEST(ScenarioConfig, APathMeantFromTheWorkingDirectoryIsNamedNotRead)
{
    TempFolder folder("old-paths");
    folder.Write("work/scenarios/hosts.csv", "node,up,down,latency\n");
    const std::string scenario
        = folder.Write("work/scenarios/s.ini", "[access]\nfile = scenarios/hosts.csv\n");
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(folder.Path() / "work");
    const std::string error = ErrorOf([&] { ScenarioConfig::Load(scenario, {}); });
    const std::string fromWorkingDirectory
        = ScenarioConfig::Load(scenario, {"--access.file=scenarios/hosts.csv"})
              .GetString("access.file");
    std::filesystem::current_path(before);
    EXPECT_NE(error.find("access.file = scenarios/hosts.csv"), std::string::npos) << error;
    EXPECT_NE(error.find("not from the working directory"), std::string::npos) << error;
    EXPECT_NE(error.find("write hosts.csv"), std::string::npos) << error;
    EXPECT_EQ(fromWorkingDirectory, "scenarios/hosts.csv");
}

// Keys named like files are declared as paths (PathKey, AlgorithmKey::Path), so that a new one
// cannot be read from the working directory by mistake.
TEST(ScenarioConfig, EveryKeyNamedLikeAFileIsAPathKey)
{
    auto endsWith = [](const std::string& s, const std::string& tail)
    {
        return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    size_t paths = 0;
    for (const auto& key : ScenarioKeys())
    {
        if (endsWith(key.name, ".file") || endsWith(key.name, "_file")
            || endsWith(key.name, ".path"))
        {
            EXPECT_TRUE(key.path) << key.name;
        }
        paths += key.path ? 1 : 0;
    }
    EXPECT_GE(paths, 15u);
}

} // namespace
} // namespace ns3
