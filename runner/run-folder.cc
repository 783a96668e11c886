// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-folder.h"

#include "capture-config.h"
#include "learning-replay.h"
#include "result-files.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

/// The lock of the run in progress, for ReleaseFromSignalHandler (no allocation there).
char g_lockPath[4096] = {};

/// What the run is doing, for the message of a fatal signal (lock-free: read in the handler).
std::atomic<const char*> g_runStep{"reading the scenario"};

/// "key = value" lines of an INI written by ScenarioConfig::WriteIni, by full key name.
std::map<std::string, std::string>
ReadIniValues(const std::string& text)
{
    std::map<std::string, std::string> values;
    std::istringstream in(text);
    std::string section;
    for (std::string line; std::getline(in, line);)
    {
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        if (line[0] == '[')
        {
            section = line.substr(1, line.find(']') - 1);
            continue;
        }
        size_t eq = line.find(" = ");
        if (eq == std::string::npos)
        {
            continue;
        }
        std::string key = line.substr(0, eq);
        values[section.empty() ? key : section + "." + key] = line.substr(eq + 3);
    }
    return values;
}

} // namespace

bool
SameConfiguration(const std::string& a, const std::string& b)
{
    // A key that one file lacks (written before the key existed) counts with its default.
    auto withDefaults = [](std::map<std::string, std::string> values)
    {
        for (const auto& key : ScenarioKeys())
        {
            values.emplace(key.name, key.defaultValue);
        }
        for (auto it = values.begin(); it != values.end();)
        {
            it = ChangesResults(it->first) ? std::next(it) : values.erase(it);
        }
        return values;
    };
    return withDefaults(ReadIniValues(a)) == withDefaults(ReadIniValues(b));
}

unsigned long long
ProcessStartTime(long pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!in || !std::getline(in, stat))
    {
        return 0;
    }
    // Fields after the command name (which may hold spaces) start after the last ')'.
    size_t close = stat.rfind(')');
    if (close == std::string::npos)
    {
        return 0;
    }
    std::istringstream fields(stat.substr(close + 2));
    std::string state;
    fields >> state;
    if (state == "Z" || state == "X")
    {
        return 0;
    }
    // Field 22 of /proc/PID/stat is the start time; `state` was field 3.
    std::string skip;
    for (int field = 4; field < 22; ++field)
    {
        fields >> skip;
    }
    unsigned long long start = 0;
    fields >> start;
    return start;
}

RunFolderLock::RunFolderLock(const std::string& folder) : m_path(folder + "/.lock")
{
    for (int attempt = 0; attempt < 2; ++attempt)
    {
        int fd = ::open(m_path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0)
        {
            std::string owner = std::to_string(::getpid()) + " "
                                + std::to_string(ProcessStartTime(::getpid())) + "\n";
            ssize_t written = ::write(fd, owner.data(), owner.size());
            int error = errno;
            ::close(fd);
            if (written != static_cast<ssize_t>(owner.size()))
            {
                ::unlink(m_path.c_str());
                throw ResultFileError("cannot write " + m_path + ": " + std::strerror(error));
            }
            if (m_path.size() < sizeof(g_lockPath))
            {
                std::memcpy(g_lockPath, m_path.c_str(), m_path.size() + 1);
            }
            return;
        }
        if (errno != EEXIST)
        {
            throw ResultFileError("cannot lock run folder " + folder + ": " + std::strerror(errno));
        }
        std::ifstream in(m_path);
        long owner = 0;
        unsigned long long started = 0;
        in >> owner >> started;
        const unsigned long long now = owner > 0 ? ProcessStartTime(owner) : 0;
        // Alive, and the same process that took the lock (a lock from before start times were
        // recorded has none: then the pid alone decides).
        if (now != 0 && (started == 0 || started == now))
        {
            throw ScenarioError("run folder " + folder + " is being written by process "
                                + std::to_string(owner) + "; choose another `out`");
        }
        std::error_code ignored;
        std::filesystem::remove(m_path, ignored); // stale: its process is gone
    }
    throw ScenarioError("cannot lock run folder " + folder);
}

RunFolderLock::~RunFolderLock()
{
    g_lockPath[0] = '\0';
    std::error_code ignored;
    std::filesystem::remove(m_path, ignored);
}

void
SetRunStep(const char* step)
{
    g_runStep.store(step);
}

const char*
GetRunStep()
{
    return g_runStep.load();
}

void
RunFolderLock::ReleaseFromSignalHandler()
{
    if (g_lockPath[0] != '\0')
    {
        ::unlink(g_lockPath);
        g_lockPath[0] = '\0';
    }
}

const std::vector<std::string>&
RunResultFiles()
{
    static const std::vector<std::string> files = {"summary.json",
                                                   "summary.csv",
                                                   "rounds.csv",
                                                   "eval.csv",
                                                   "curve.csv",
                                                   "rounds.csv.partial",
                                                   "eval.csv.partial",
                                                   "curve.csv.partial",
                                                   "links.csv",
                                                   "partition.csv",
                                                   kLearningRecordFile,
                                                   CaptureConfig::FlowMonitorXml(),
                                                   CaptureConfig::FlowsCsvName(),
                                                   CaptureConfig::FlowMonitorXml() + ".partial",
                                                   CaptureConfig::FlowsCsvName() + ".partial",
                                                   CaptureConfig::Folder()};
    return files;
}

void
CreateOutputFolder(const std::string& folder, const std::string& what)
{
    if (std::filesystem::exists(folder) && !std::filesystem::is_directory(folder))
    {
        throw ScenarioError("out: " + folder + " is a file, not a folder");
    }
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
    {
        throw ResultFileError("cannot create " + what + folder + ": " + error.message());
    }
}

void
PrepareRunFolder(const std::string& folder, const std::string& ini, bool overwrite)
{
    const std::string previousIni = ReadConfigIni(folder);
    if (HasCompleteResults(folder) && !overwrite && !previousIni.empty()
        && !SameConfiguration(previousIni, ini))
    {
        auto before = ReadIniValues(previousIni);
        auto after = ReadIniValues(ini);
        std::string differing;
        for (const auto& [key, value] : after)
        {
            auto it = before.find(key);
            if (ChangesResults(key) && (it == before.end() || it->second != value))
            {
                differing += (differing.empty() ? "" : ", ") + key;
            }
        }
        for (const auto& [key, value] : before)
        {
            if (ChangesResults(key) && !after.count(key))
            {
                differing += (differing.empty() ? "" : ", ") + key;
            }
        }
        throw ScenarioError("run folder " + folder
                            + " holds the complete results of another configuration (it differs "
                              "in: "
                            + (differing.empty() ? std::string("the file's layout") : differing)
                            + "); choose another `out`, or pass --overwrite to replace them");
    }
    for (const auto& file : RunResultFiles())
    {
        std::error_code ignored;
        std::filesystem::remove_all(folder + "/" + file, ignored); // capture/ is a folder
    }
}

} // namespace ns3
