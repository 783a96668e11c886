// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The registry of sharing algorithms. An algorithm is one source file plus one registration:
 * its name, its scenario keys, whether it runs on directed graphs, its label in figures and its
 * factory. The runner's key table, `--help`, the checks of the keys, the figure labels and the
 * grid sweeps all read the registrations, so nothing else lists algorithms.
 */
#ifndef DLSIM_ALGORITHM_REGISTRY_H
#define DLSIM_ALGORITHM_REGISTRY_H

#include "sharing-algorithm.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// What kind of value a key takes, which decides how its value is checked.
enum class KeyType
{
    Number,      ///< a decimal number in [min, max]
    WholeNumber, ///< a whole number in [min, max]
    Bool,        ///< true/false (also 1/0, yes/no, on/off)
    Choice,      ///< one of `choices`
    NumberList,  ///< "[a, b, ...]" (or one bare number), every number in [min, max]
    Text,        ///< anything
};

/// One key of an algorithm, as scenarios write it: "topk.alpha" is `alpha` in section [topk].
struct AlgorithmKey
{
    std::string name;
    KeyType type = KeyType::Text;
    std::string defaultValue;
    double min = 0.0;                 ///< Number, WholeNumber, NumberList: smallest value allowed
    double max = 0.0;                 ///< ... and the largest
    std::vector<std::string> choices; ///< Choice: the values allowed
    /// Number: "auto" is accepted too, and the registration's `resolve` replaces it before the
    /// run (e.g. a step size tuned on the overlay).
    bool allowsAuto = false;
    std::string help;

    static AlgorithmKey Number(const std::string& name,
                               const std::string& defaultValue,
                               double min,
                               double max,
                               const std::string& help);
    /// A number in [min, max], or "auto".
    static AlgorithmKey NumberOrAuto(const std::string& name,
                                     const std::string& defaultValue,
                                     double min,
                                     double max,
                                     const std::string& help);
    static AlgorithmKey WholeNumber(const std::string& name,
                                    const std::string& defaultValue,
                                    uint64_t min,
                                    uint64_t max,
                                    const std::string& help);
    static AlgorithmKey Bool(const std::string& name,
                             const std::string& defaultValue,
                             const std::string& help);
    static AlgorithmKey Choice(const std::string& name,
                               const std::string& defaultValue,
                               const std::vector<std::string>& choices,
                               const std::string& help);
    static AlgorithmKey NumberList(const std::string& name,
                                   const std::string& defaultValue,
                                   double min,
                                   double max,
                                   const std::string& help);

    /// Throws std::invalid_argument naming the key and the value when the value does not fit.
    void Check(const std::string& value) const;
};

/**
 * The values of an algorithm's keys (defaults filled in, every value checked), which its
 * factory reads. Typed accessors throw std::invalid_argument naming the key and the value.
 */
class AlgorithmParameters
{
  public:
    AlgorithmParameters(std::string algorithm,
                        std::map<std::string, std::string> values,
                        uint32_t trainingRounds);

    const std::string& GetAlgorithm() const;
    /// Training rounds of the run (algorithms that do something after them, like SCSP).
    uint32_t GetTrainingRounds() const;

    const std::string& GetString(const std::string& key) const;
    double GetDouble(const std::string& key) const;
    uint64_t GetUint(const std::string& key) const;
    bool GetBool(const std::string& key) const;
    std::vector<double> GetDoubleList(const std::string& key) const;
    /// The value is "auto" (a NumberOrAuto key not yet resolved).
    bool IsAuto(const std::string& key) const;

    /// Replace a value (a `resolve` function replacing "auto"); the key must exist.
    void Set(const std::string& key, const std::string& value);

    const std::map<std::string, std::string>& GetValues() const;

  private:
    std::string m_algorithm;
    std::map<std::string, std::string> m_values;
    uint32_t m_trainingRounds;
};

/// Out-neighbours of every node: adjacency[i] lists the nodes i sends to.
using Adjacency = std::vector<std::vector<uint32_t>>;

/// Everything dlsim knows about one algorithm.
struct AlgorithmRegistration
{
    /// The value of the `algorithm` key.
    std::string name;
    /// Its keys, in the order scenarios and `--help` list them. Keys shared with another
    /// algorithm (SCSP reads Sparse-Push's) are declared identically by both.
    std::vector<AlgorithmKey> keys;
    /// Designed for directed (push) graphs; the runner refuses an overlay of the other kind.
    bool forDirectedGraphs = false;
    /// Its name in figure legends, with the values that matter, from a run's configuration
    /// (every scenario key). Empty: the name alone.
    std::function<std::string(const std::map<std::string, std::string>& config)> label;
    /// One instance per node.
    std::function<std::unique_ptr<SharingAlgorithm>(const AlgorithmParameters& parameters)> create;
    /**
     * Optional: replace "auto" values once the overlay is known (the union of its phases, every
     * node's out-neighbours). Returns the resolved values as the run's provenance shows them.
     */
    std::function<std::map<std::string, std::string>(AlgorithmParameters& parameters,
                                                     const Adjacency& overlay,
                                                     uint64_t seed,
                                                     std::ostream& log)>
        resolve;
    /**
     * Optional, for the algorithms that predate the registry: their keys' values from the typed
     * fields of SharingConfig, so that C++ programs setting those fields keep working.
     */
    std::function<void(const SharingConfig& config, std::map<std::string, std::string>& values)>
        fromSharingConfig;
};

/**
 * Every known algorithm: dlsim's own, registered on first use in a fixed order, then any that a
 * program registers (AlgorithmRegistry::Register, or DLSIM_REGISTER_ALGORITHM in its own source
 * file). Register before anything runs (at start-up or first thing in main): the registry is
 * not locked against concurrent changes.
 */
class AlgorithmRegistry
{
  public:
    /// Throws std::invalid_argument for a taken name, a bad key or a key declared differently
    /// by another algorithm.
    static void Register(AlgorithmRegistration registration);

    /// Throws std::invalid_argument naming the known algorithms when `name` is not one.
    static const AlgorithmRegistration& Get(const std::string& name);
    /// nullptr when `name` is not known.
    static const AlgorithmRegistration* Find(const std::string& name);

    static std::vector<std::string> Names();
    /// Every algorithm's keys, each once, in registration order.
    static std::vector<AlgorithmKey> Keys();
    /// The key of that name, or nullptr when no algorithm has it.
    static const AlgorithmKey* FindKey(const std::string& name);

    /// Grows with every registration: tables built from the registry rebuild when it changes.
    static uint64_t Generation();

    /**
     * The parameters of algorithm `name`: its keys' defaults, overridden by `values`; every
     * value checked. A key the algorithm does not have is an error.
     */
    static AlgorithmParameters Parameters(const std::string& name,
                                          const std::map<std::string, std::string>& values,
                                          uint32_t trainingRounds);
};

/// The parameters a SharingConfig describes: the typed fields, then `parameters`.
AlgorithmParameters ParametersOf(const SharingConfig& config);

/// An instance of the algorithm the parameters belong to.
std::unique_ptr<SharingAlgorithm> CreateSharingAlgorithm(const AlgorithmParameters& parameters);

/**
 * Resolve the config's "auto" values on the overlay (see AlgorithmRegistration::resolve): the
 * resolved values go into config.parameters; returns them as the run's provenance shows them.
 */
std::map<std::string, std::string> ResolveOnOverlay(SharingConfig& config,
                                                    const Adjacency& overlay,
                                                    uint64_t seed,
                                                    std::ostream& log);

/// The legend of a run, from its configuration (every scenario key, "algorithm" included).
std::string AlgorithmFigureLabel(const std::map<std::string, std::string>& config);

/// Registers an algorithm when constructed: a static instance in the algorithm's source file.
class AlgorithmRegistrar
{
  public:
    explicit AlgorithmRegistrar(AlgorithmRegistration registration);
};

} // namespace ns3

/**
 * Register the algorithm `function()` describes (a function returning AlgorithmRegistration),
 * when the program starts. Use it in a source file that is linked into the program as an object
 * file (a program's own sources, a test): a linker drops the objects of a static library that
 * nothing references, and their registrations with them. dlsim's own algorithms are listed in
 * algorithm-registry.cc instead, for that reason.
 */
#define DLSIM_REGISTER_ALGORITHM(function)                                    \
    static const ns3::AlgorithmRegistrar g_dlsimAlgorithmRegistrar_##function \
    {                                                                         \
        function()                                                            \
    }

#endif // DLSIM_ALGORITHM_REGISTRY_H
