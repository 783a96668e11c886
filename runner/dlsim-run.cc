/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * dlsim-run [SCENARIO.ini] [--key=value ...]: run a scenario and write its run directory.
 */
#include "scenario-runner.h"

#include <cstdlib>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

void
PrintUsage(std::ostream& out)
{
    out << "usage: dlsim run [SCENARIO.ini] [--key=value ...]\n\n"
        << "Runs a scenario (default scenarios/quickstart.ini) and writes its results.\n"
        << "Any key can be set in the file or overridden on the command line:\n\n";
    for (const auto& key : ScenarioKeys())
    {
        out << "  --" << key.name << " (default '" << key.defaultValue << "')\n      " << key.help
            << "\n";
    }
}

} // namespace

int
main(int argc, char** argv)
{
    std::string file;
    std::vector<std::string> overrides;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg == "-h" || arg == "--help")
        {
            PrintUsage(std::cout);
            return 0;
        }
        if (arg.rfind("--", 0) == 0)
        {
            // Accept both --key=value and --key value.
            if (arg.find('=') == std::string::npos && i + 1 < argc
                && std::string(argv[i + 1]).rfind("--", 0) != 0)
            {
                arg += "=" + std::string(argv[++i]);
            }
            overrides.push_back(arg);
        }
        else if (file.empty())
        {
            file = arg;
        }
        else
        {
            std::cerr << "dlsim: error: more than one scenario file given ('" << file << "' and '"
                      << arg << "')\n";
            return 2;
        }
    }
    if (file.empty() && std::getenv("DLSIM_DEFAULT_SCENARIO"))
    {
        file = std::getenv("DLSIM_DEFAULT_SCENARIO"); // set by ./dlsim run
    }
    try
    {
        ScenarioConfig config = ScenarioConfig::Load(file, overrides);
        RunSummary summary = RunScenario(config, std::cout);
        const std::string out = config.GetString("out");
        std::cout << std::fixed << std::setprecision(4)
                  << "dlsim: done: final mean accuracy " << summary.finalAccuracyMean
                  << ", simulated time " << summary.simulatedSeconds << " s, "
                  << std::setprecision(2)
                  << (summary.valueBytesPerNode + summary.metadataBytesPerNode) / 1e6
                  << " MB sent per node, wall time " << summary.wallSeconds << " s\n"
                  << "dlsim: results in " << out << "/ (summary.json, rounds.csv, eval.csv, "
                  << "config.ini)" << std::endl;
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "dlsim: error: " << e.what() << std::endl;
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "dlsim: error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
