/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "scenario-config.h"

#include <boost/program_options.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace po = boost::program_options;

namespace ns3
{

const std::vector<ScenarioKey>&
ScenarioKeys()
{
    static const std::vector<ScenarioKey> keys = {
        {"nodes", "16", "number of learners (simulated hosts)"},
        {"rounds", "100", "synchronous communication rounds"},
        {"seed", "1", "seeds everything drawn at random: data split, topology, links, models"},
        {"topology", "random-regular", "random-regular, ring, directed-ring, complete or file"},
        {"degree", "4", "degree of the random-regular topology"},
        {"topology.file", "", "edge-list file (lines 'u v') for topology = file"},
        {"algorithm", "dpsgd", "model-sharing algorithm: dpsgd"},
        {"dataset", "fashion-mnist", "fashion-mnist or synthetic"},
        {"dataset.path", "/usr/share/datasets/fashion-mnist", "directory with the IDX files"},
        {"synthetic.train_samples", "4000", "training samples of the synthetic dataset"},
        {"synthetic.test_samples", "1000", "test samples of the synthetic dataset"},
        {"synthetic.classes", "10", "classes of the synthetic dataset"},
        {"synthetic.noise", "1.0", "pixel noise around the class prototypes (synthetic)"},
        {"partition", "shards", "iid, shards (label-sorted shards) or dirichlet"},
        {"partition.shards", "2", "shards per node for partition = shards"},
        {"partition.alpha", "1.0", "concentration for partition = dirichlet"},
        {"model", "gn-lenet", "logistic, mlp or gn-lenet"},
        {"model.same_init", "true", "all learners start from the same initial model"},
        {"lr", "0.01", "SGD learning rate"},
        {"momentum", "0", "SGD momentum"},
        {"weight_decay", "0", "SGD weight decay"},
        {"batch_size", "8", "mini-batch size"},
        {"local_steps", "3", "SGD steps per round"},
        {"link.bandwidth",
         "10Mbps",
         "link bandwidth, e.g. 10Mbps, or an ns-3 random variable in Mbit/s"},
        {"link.latency",
         "10ms",
         "one-way link latency, e.g. 10ms, or an ns-3 random variable in ms"},
        {"link.file",
         "",
         "CSV 'u,v,bandwidth,latency' giving every link (overrides the two above)"},
        {"link.mtu", "1500", "link MTU in bytes"},
        {"link.queue", "100000p", "device queue size per link direction (packets)"},
        {"tcp.segment_size", "0", "TCP MSS in bytes; 0: MTU - 52 (IP, TCP and timestamp headers)"},
        {"tcp.buffer", "4194304", "TCP send and receive buffer in bytes"},
        {"tcp.initial_cwnd", "10", "TCP initial congestion window in segments"},
        {"compute.model", "flops", "flops, fixed or measured (measured is not reproducible)"},
        {"compute.device_gflops", "10", "device speed in GFLOP/s, or an ns-3 random variable"},
        {"compute.step_seconds",
         "0.05",
         "simulated seconds per SGD step for compute.model = fixed"},
        {"compute.measured_scale",
         "1.0",
         "factor on measured CPU time for compute.model = measured"},
        {"eval.every", "10", "evaluate every this many rounds"},
        {"eval.test_samples", "0", "test samples to evaluate on (the first ones); 0: all"},
        {"eval.nodes", "0", "learners that evaluate, drawn at random; 0: all"},
        {"target_accuracy", "0.7", "mean test accuracy whose time and bytes to reach are reported"},
        {"out", "", "run directory; default results/<scenario name>"},
    };
    return keys;
}

namespace
{

std::string
StripDashes(const std::string& s)
{
    size_t i = 0;
    while (i < s.size() && i < 2 && s[i] == '-')
    {
        ++i;
    }
    return s.substr(i);
}

po::options_description
Describe()
{
    po::options_description desc("scenario keys");
    for (const auto& key : ScenarioKeys())
    {
        desc.add_options()(key.name.c_str(), po::value<std::string>(), key.help.c_str());
    }
    return desc;
}

} // namespace

ScenarioConfig
ScenarioConfig::Load(const std::string& file, const std::vector<std::string>& overrides)
{
    ScenarioConfig config;
    config.m_source = file;
    po::options_description desc = Describe();
    po::variables_map vm;
    // Command-line values are stored first: po::store keeps the first value it sees for a key.
    std::vector<std::string> args;
    for (const auto& o : overrides)
    {
        args.push_back("--" + StripDashes(o));
    }
    try
    {
        po::store(
            po::command_line_parser(args)
                .options(desc)
                .style(po::command_line_style::unix_style ^ po::command_line_style::allow_short)
                .run(),
            vm);
    }
    catch (const po::error& e)
    {
        throw ScenarioError(std::string("command line: ") + e.what());
    }
    if (!file.empty())
    {
        if (std::filesystem::is_directory(file))
        {
            throw ScenarioError("scenario file " + file + " is a directory");
        }
        std::ifstream in(file);
        if (!in)
        {
            throw ScenarioError("cannot open scenario file " + file);
        }
        try
        {
            po::store(po::parse_config_file(in, desc, false), vm);
        }
        catch (const po::error& e)
        {
            throw ScenarioError("scenario file " + file + ": " + e.what());
        }
    }
    for (const auto& key : ScenarioKeys())
    {
        config.m_values[key.name]
            = vm.count(key.name) ? vm[key.name].as<std::string>() : key.defaultValue;
    }
    if (config.m_values["out"].empty())
    {
        std::string stem = file.empty() ? "default" : std::filesystem::path(file).stem().string();
        config.m_values["out"] = "results/" + stem;
    }
    return config;
}

const std::string&
ScenarioConfig::GetString(const std::string& key) const
{
    auto it = m_values.find(key);
    if (it == m_values.end())
    {
        throw ScenarioError("unknown scenario key '" + key + "'");
    }
    return it->second;
}

uint64_t
ScenarioConfig::GetUint(const std::string& key, uint64_t min, uint64_t max) const
{
    const std::string& text = GetString(key);
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || text[0] == '+' || *end != '\0' || errno == ERANGE
        || v < min || v > max)
    {
        throw ScenarioError(key + ": expected a whole number from " + std::to_string(min)
                            + (max == UINT64_MAX ? " up" : " to " + std::to_string(max)) + ", got '"
                            + text + "'");
    }
    return v;
}

double
ScenarioConfig::GetDouble(const std::string& key, double min, double max) const
{
    const std::string& text = GetString(key);
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < min || v > max)
    {
        throw ScenarioError(key + ": expected a number from " + std::to_string(min) + " to "
                            + std::to_string(max) + ", got '" + text + "'");
    }
    return v;
}

bool
ScenarioConfig::GetBool(const std::string& key) const
{
    const std::string& text = GetString(key);
    if (text == "true" || text == "1" || text == "yes" || text == "on")
    {
        return true;
    }
    if (text == "false" || text == "0" || text == "no" || text == "off")
    {
        return false;
    }
    throw ScenarioError(key + ": expected true or false, got '" + text + "'");
}

const std::string&
ScenarioConfig::GetChoice(const std::string& key, const std::vector<std::string>& allowed) const
{
    const std::string& text = GetString(key);
    for (const auto& a : allowed)
    {
        if (text == a)
        {
            return text;
        }
    }
    std::string list;
    for (const auto& a : allowed)
    {
        list += (list.empty() ? "" : ", ") + a;
    }
    throw ScenarioError(key + ": unknown value '" + text + "' (expected one of: " + list + ")");
}

void
ScenarioConfig::Set(const std::string& key, const std::string& value)
{
    GetString(key);
    m_values[key] = value;
}

const std::string&
ScenarioConfig::GetSource() const
{
    return m_source;
}

void
ScenarioConfig::WriteIni(std::ostream& out) const
{
    out << "# dlsim resolved configuration: every key with the value this run used\n";
    // Keys without a section first: INI puts everything after a [section] header into it.
    for (const auto& key : ScenarioKeys())
    {
        if (key.name.find('.') == std::string::npos)
        {
            out << key.name << " = " << m_values.at(key.name) << "\n";
        }
    }
    std::string section;
    for (const auto& key : ScenarioKeys())
    {
        size_t dot = key.name.find('.');
        if (dot == std::string::npos)
        {
            continue;
        }
        std::string s = key.name.substr(0, dot);
        if (s != section)
        {
            out << "\n[" << s << "]\n";
            section = s;
        }
        out << key.name.substr(dot + 1) << " = " << m_values.at(key.name) << "\n";
    }
}

} // namespace ns3
