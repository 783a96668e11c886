// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Scenario files: INI read with Boost.Program_options, every key overridable on the command line.
 */
#ifndef DLSIM_SCENARIO_CONFIG_H
#define DLSIM_SCENARIO_CONFIG_H

#include <cstdint>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/// A scenario that cannot run as written; the message names the key, file or value.
class ScenarioError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// One scenario key: its name ("link.bandwidth" is `bandwidth` in section [link]), default, help.
struct ScenarioKey
{
    std::string name;
    std::string defaultValue;
    std::string help;
    /// The ns-3 attributes (full names) dlsim sets from this key: an `--ns3.` default of one of
    /// them would have no effect, so it is refused with the key to use.
    std::vector<std::string> attributes = {};
    /// A key of the network only (the underlay's keys, link.*, cross.*, trace.*, tcp.*,
    /// capture.*): in synchronous rounds what is learned does not depend on it, so a grid
    /// trains once for points that differ only in such keys and replays the learning over the
    /// others' networks (learning-replay.h). Follows from the group that declares the key
    /// (the underlays' and the network model's registrations, NetworkKeys in scenario-config.cc).
    bool network = false;
    /// A file or folder the run reads: a relative path written in a scenario file is read from
    /// that file's folder (ScenarioConfig::Load). Declared with the key (PathKey,
    /// AlgorithmKey::Path).
    bool path = false;
    /// The values of a path key that name no file ("builtin"), taken as they are.
    std::vector<std::string> words = {};
    /// Whether its value changes what a run computes. False (BookkeepingKey) for where results
    /// go, how a run is carried out or watched, and what a grid or ./dlsim tune makes of
    /// runs: runs differing only in such keys are the same run when a grid resumes, a folder is
    /// overwritten, a recording is replayed or grid axes are found (ChangesResults).
    bool changesResults = true;
};

/**
 * \param name the key's name
 * \param defaultValue its default
 * \param help one line for `--help`
 * \return a key naming a file or folder the run reads (ScenarioKey::path)
 */
ScenarioKey PathKey(const std::string& name,
                    const std::string& defaultValue,
                    const std::string& help);

/**
 * \param key a key as declared
 * \return the key, marked as one whose value changes no result (ScenarioKey::changesResults)
 */
ScenarioKey BookkeepingKey(ScenarioKey key);

/**
 * Split a value at the commas outside brackets: "a, b" is two values (a grid axis), "[0.1, 0.2]"
 * one list.
 */
std::vector<std::string> SplitGridValues(const std::string& value);

/// Every key a scenario may set, in the order the resolved configuration is written.
const std::vector<ScenarioKey>& ScenarioKeys();

/**
 * The ns-3 attributes dlsim sets itself (full name), each with the keys that set it
 * ("link.bandwidth or access.up"): the `attributes` of the key table's rows, the one list of them.
 */
std::map<std::string, std::string> AttributesSetByKeys();

/// The key table as a reStructuredText list-table (the doc's "Scenario keys" section).
void WriteKeyTableRst(std::ostream& out);

/**
 * Whether `key` can change a run's results, as its declaration says (ScenarioKey::changesResults):
 * not `out` (where they go), `run.*` (how fast they come, and the watchdog's limits: a run that
 * finished is the same whatever they were), `repeat` (how many runs a grid makes, each one run
 * of its own seed), `capture.*` (they only watch the packets) nor `tune.*` (what ./dlsim tune
 * tries; a run uses the values chosen). A key no declaration names counts as changing them.
 * \param key a key's name
 * \return whether runs that differ in it can differ in their results
 */
bool ChangesResults(const std::string& key);

/**
 * \param name a key's name
 * \return its entry in the key table (ScenarioKeys), or null when there is no such key
 */
const ScenarioKey* FindScenarioKey(const std::string& name);

/**
 * \param key a scenario key
 * \return the algorithms whose runs read it (its registrations' keys and their `.lr` keys);
 * empty for a key every run reads. A grid axis of such a key varies only those runs.
 */
std::vector<std::string> AlgorithmsOfKey(const std::string& key);

/**
 * The resolved values of every key (defaults included), as text, with typed accessors that
 * reject a bad value with a ScenarioError naming the key.
 */
class ScenarioConfig
{
  public:
    /**
     * Read `file` (may be empty: defaults only) and apply `overrides` of the form
     * "--key=value" or "key=value", which win over the file. Unknown keys, repeated keys and
     * unreadable files are errors. A relative path of a path key (ScenarioKey::path) written in
     * a scenario file is read from the file's folder; a value on the command line from the
     * working directory. Where the former names no file but the latter would, the error says so
     * rather than reading another file than the one the scenario means. A configuration dlsim
     * wrote (WriteIni: a run folder's config.ini, a grid point's point.ini) holds the paths as
     * the run read them, from its working directory, and is read so: a run folder stays as
     * portable as its project (moved together, or sent to another host as a job).
     */
    static ScenarioConfig Load(const std::string& file, const std::vector<std::string>& overrides);

    const std::string& GetString(const std::string& key) const;
    uint64_t GetUint(const std::string& key, uint64_t min = 0, uint64_t max = UINT64_MAX) const;
    double GetDouble(const std::string& key, double min, double max) const;
    bool GetBool(const std::string& key) const;
    /// The value, which must be one of `allowed`.
    const std::string& GetChoice(const std::string& key,
                                 const std::vector<std::string>& allowed) const;

    /// A bracketed list "[a, b, c]" (or one bare value) as its items.
    std::vector<std::string> GetList(const std::string& key) const;
    /// A list of numbers, each in [min, max].
    std::vector<double> GetDoubleList(const std::string& key, double min, double max) const;

    void Set(const std::string& key, const std::string& value);

    /**
     * ns-3 attribute defaults the scenario sets: section [ns3] of the file ("ns3::TcpSocketBase::
     * MinRto = 1s") or "--ns3.ns3::TcpSocketBase::MinRto=1s" on the command line, by full name.
     */
    const std::map<std::string, std::string>& GetNs3Attributes() const;

    /// Write every key with its resolved value as an INI file that Load reads back (its paths
    /// from the working directory, as the run read them).
    void WriteIni(std::ostream& out) const;

  private:
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::string> m_ns3;
};

} // namespace ns3

#endif // DLSIM_SCENARIO_CONFIG_H
