// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-folder.h"

#include "capture-config.h"
#include "grid-table.h"
#include "learning-replay.h"
#include "result-files.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/file.h>
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

/// The lock file a grid holds in its folder (GridFolderLock).
const char* const kGridLockFile = ".grid-lock";

/// The keys that change results and differ between two config.ini texts, comma-separated.
std::string
DifferingKeys(const std::string& previousIni, const std::string& ini)
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
    return differing;
}

/// The pid a grid wrote into its lock file (0: none readable).
long
GridLockOwner(const std::string& path)
{
    std::ifstream in(path);
    long pid = 0;
    in >> pid;
    return in ? pid : 0;
}

/// Whether another process holds the grid lock of `folder` (a lock file that no process
/// holds is what a finished grid leaves).
bool
GridLockHeld(const std::string& folder)
{
    const std::string path = folder + "/" + kGridLockFile;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0)
    {
        return false;
    }
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd); // drops the shared lock, if taken
    return held;
}

/// A name shortened for a message: its first bytes and its length.
std::string
Shortened(const std::string& name)
{
    return name.size() <= 60
               ? name
               : name.substr(0, 60) + "... (" + std::to_string(name.size()) + " bytes)";
}

} // namespace

void
CheckOutputFolder(const std::string& folder,
                  const std::string& ini,
                  bool overwrite,
                  FolderWriter writer,
                  const std::string& replayFrom)
{
    // Found before anything is written: otherwise "File name too long" comes after the grid's
    // config.ini or a parent folder exists.
    if (folder.size() >= PATH_MAX)
    {
        throw ScenarioError("out: the path " + Shortened(folder) + " is longer than the "
                            + std::to_string(PATH_MAX - 1)
                            + " bytes a path may have; choose a shorter `out`");
    }
    for (const auto& part : std::filesystem::path(folder))
    {
        if (part.native().size() > NAME_MAX)
        {
            throw ScenarioError("out: the folder name '" + Shortened(part.native())
                                + "' is longer than the " + std::to_string(NAME_MAX)
                                + " bytes a file system takes for one name; choose a shorter "
                                  "`out` (in a grid: shorter values of its axes)");
        }
    }
    std::error_code error;
    const auto status = std::filesystem::status(folder, error);
    if (status.type() == std::filesystem::file_type::not_found)
    {
        if (!replayFrom.empty())
        {
            CheckNotTheSource(folder, replayFrom);
        }
        return; // nothing there to protect
    }
    if (error)
    {
        throw ScenarioError("out: " + folder + ": " + error.message());
    }
    if (status.type() != std::filesystem::file_type::directory)
    {
        throw ScenarioError("out: " + folder + " is a file, not a folder");
    }
    if (!replayFrom.empty())
    {
        CheckNotTheSource(folder, replayFrom);
    }
    if (GridLockHeld(folder))
    {
        const long owner = GridLockOwner(folder + "/" + kGridLockFile);
        throw ScenarioError("out: " + folder + " is being written by a grid"
                            + (owner > 0 ? " (process " + std::to_string(owner) + ")" : "")
                            + "; wait for it to end or choose another `out`");
    }
    if (overwrite)
    {
        return;
    }
    const std::string previousIni = ReadConfigIni(folder);
    if (HasCompleteResults(folder) && !previousIni.empty() && !SameConfiguration(previousIni, ini))
    {
        const std::string differing = DifferingKeys(previousIni, ini);
        throw ScenarioError("run folder " + folder
                            + " holds the complete results of another configuration (it differs "
                              "in: "
                            + (differing.empty() ? std::string("the file's layout") : differing)
                            + "); choose another `out`, or pass --overwrite to replace them");
    }
    if (writer == FolderWriter::Run
        && (std::filesystem::exists(folder + "/" + kGridSummaryFile, error)
            || std::filesystem::exists(folder + "/" + kGridLockFile, error)))
    {
        throw ScenarioError("out: " + folder
                            + " holds a grid (its config.ini, index.csv and points); a run "
                              "there would replace its config.ini: choose another `out`, or "
                              "pass --overwrite");
    }
}

GridFolderLock::GridFolderLock(const std::string& folder)
{
    const std::string path = folder + "/" + kGridLockFile;
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (m_fd < 0)
    {
        throw ResultFileError("cannot lock grid folder " + folder + ": " + std::strerror(errno));
    }
    // Not blocking: a second grid on the folder is refused at once, not made to wait.
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0)
    {
        const int reason = errno;
        ::close(m_fd);
        if (reason == EWOULDBLOCK)
        {
            const long owner = GridLockOwner(path);
            throw ScenarioError("out: " + folder + " is being written by another grid"
                                + (owner > 0 ? " (process " + std::to_string(owner) + ")" : "")
                                + "; wait for it to end or choose another `out`");
        }
        throw ResultFileError("cannot lock grid folder " + folder + ": " + std::strerror(reason));
    }
    // The owner's pid, for the message of a grid refused; the lock itself is the flock.
    const std::string owner = std::to_string(::getpid()) + "\n";
    if (::ftruncate(m_fd, 0) != 0
        || ::pwrite(m_fd, owner.data(), owner.size(), 0) != static_cast<ssize_t>(owner.size()))
    {
        const int reason = errno;
        ::close(m_fd);
        throw ResultFileError("cannot write " + path + ": " + std::strerror(reason));
    }
}

GridFolderLock::~GridFolderLock()
{
    // The file stays (removing it would let a third grid lock a new file while a second still
    // waits on the old one); closing drops the lock.
    ::close(m_fd);
}

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

MadeRunFolder::MadeRunFolder(const std::string& folder, const std::string& what)
{
    std::error_code error;
    std::filesystem::path level = std::filesystem::absolute(folder, error).lexically_normal();
    if (!level.has_filename()) // "a/b/": its folder is "a/b"
    {
        level = level.parent_path();
    }
    for (; !error && level.has_filename() && !std::filesystem::exists(level, error);
         level = level.parent_path())
    {
        m_made.push_back(level.string());
    }
    CreateOutputFolder(folder, what);
}

MadeRunFolder::~MadeRunFolder()
{
    for (const auto& level : m_made)
    {
        std::error_code error;
        // remove() takes only an empty folder; the first that is not stays, with its parents.
        if (!std::filesystem::is_empty(level, error) || error
            || !std::filesystem::remove(level, error))
        {
            return;
        }
    }
}

void
PrepareRunFolder(const std::string& folder, const std::string& ini, bool overwrite)
{
    CheckOutputFolder(folder, ini, overwrite, FolderWriter::Run);
    ClearRunResults(folder);
}

void
ClearRunResults(const std::string& folder)
{
    for (const auto& file : RunResultFiles())
    {
        std::error_code ignored;
        std::filesystem::remove_all(folder + "/" + file, ignored); // capture/ is a folder
    }
}

} // namespace ns3
