// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The registry of sharing algorithms (see registry.h). An algorithm is one source file plus one
 * registration: its name, its scenario keys, whether it runs on directed graphs, its label in
 * figures and its factory. The runner's key table, `--help`, the checks of the keys, the figure
 * labels and the grid sweeps all read the registrations, so nothing else lists algorithms.
 */
#ifndef DLSIM_ALGORITHM_REGISTRY_H
#define DLSIM_ALGORITHM_REGISTRY_H

#include "registry.h"
#include "sharing-algorithm.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace dlsim
{

/**
 * The values of an algorithm's keys (defaults filled in, every value checked), which its
 * factory reads. Typed accessors throw std::invalid_argument naming the key and the value.
 */
class AlgorithmParameters : public RegisteredParameters
{
  public:
    /**
     * \param algorithm the algorithm's name
     * \param values every key's value, already checked
     * \param trainingRounds training rounds of the run
     */
    AlgorithmParameters(std::string algorithm,
                        std::map<std::string, std::string> values,
                        uint32_t trainingRounds);

    /// \return the algorithm's name
    const std::string& GetAlgorithm() const;
    /// \return training rounds of the run (for algorithms that do something after them, like
    /// SCSP)
    uint32_t GetTrainingRounds() const;

  private:
    uint32_t m_trainingRounds;
};

/// Out-neighbours of every node: adjacency[i] lists the nodes i sends to.
using Adjacency = std::vector<std::vector<uint32_t>>;

/// Everything dlsim knows about one algorithm.
struct AlgorithmRegistration
{
    static constexpr const char* kKind = "algorithm"; ///< the registry's kind, for messages
    /// \return dlsim's own algorithms (see Registry)
    static std::vector<AlgorithmRegistration> Builtins();

    /// The value of the `algorithm` key.
    std::string name;
    /// Optional: what it is, for the `algorithm` key's help.
    std::string help;
    /// Its keys, in the order scenarios and `--help` list them. Keys shared with another
    /// algorithm (SCSP reads Sparse-Push's) are declared identically by both.
    std::vector<AlgorithmKey> keys;
    /// Designed for directed (push) graphs; the runner refuses an overlay of the other kind.
    bool forDirectedGraphs = false;
    /// Every payload asks for an answer (SharingAlgorithm::AnswersMessages, which its
    /// instances return): what is learned depends on when answers arrive, so its runs are
    /// always trained, never replayed.
    bool answersMessages = false;
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
class AlgorithmRegistry : public Registry<AlgorithmRegistration>
{
  public:
    /**
     * \brief The checked parameters of an algorithm (see Registry::Parameters).
     * \param name the algorithm's name
     * \param values values of some of its keys, by key name
     * \param trainingRounds training rounds of the run
     * \return every key's checked value
     */
    static AlgorithmParameters Parameters(const std::string& name,
                                          const std::map<std::string, std::string>& values,
                                          uint32_t trainingRounds);
};

/**
 * \param config an algorithm and its values (typed fields, then `parameters`)
 * \return the checked parameters it describes
 */
AlgorithmParameters ParametersOf(const SharingConfig& config);

/**
 * \param parameters an algorithm's checked parameters
 * \return an instance of that algorithm (one per node)
 */
std::unique_ptr<SharingAlgorithm> CreateSharingAlgorithm(const AlgorithmParameters& parameters);

/**
 * Resolve the config's "auto" values on the overlay (see AlgorithmRegistration::resolve): the
 * resolved values go into config.parameters.
 * \param config the algorithm and its values; "auto" values are replaced
 * \param overlay every node's out-neighbours (the union of the overlay's phases)
 * \param seed the run's seed, for tuning that draws at random
 * \param log where tuning reports what it tried
 * \return the resolved values as the run's provenance shows them
 */
std::map<std::string, std::string> ResolveOnOverlay(SharingConfig& config,
                                                    const Adjacency& overlay,
                                                    uint64_t seed,
                                                    std::ostream& log);

/**
 * \param config a run's configuration (every scenario key, "algorithm" included)
 * \return the run's legend in figures
 */
std::string AlgorithmFigureLabel(const std::map<std::string, std::string>& config);

/**
 * \param algorithm a registered algorithm's name
 * \return the key of that algorithm's own learning rate ("choco.lr"), which its runs use
 * instead of `lr` when it is not empty
 */
std::string AlgorithmLearningRateKey(const std::string& algorithm);

/// Registers an algorithm when constructed: a static instance in the algorithm's source file.
using AlgorithmRegistrar = Registrar<AlgorithmRegistration>;

} // namespace dlsim

/// Register the algorithm `function()` describes (see DLSIM_REGISTER in registry.h).
#define DLSIM_REGISTER_ALGORITHM(function) DLSIM_REGISTER(dlsim::AlgorithmRegistration, function)

#endif // DLSIM_ALGORITHM_REGISTRY_H
