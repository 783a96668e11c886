// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * One node's learner: a LibTorch model, its optimiser and its share of the data.
 */
#ifndef DLSIM_LEARNER_H
#define DLSIM_LEARNER_H

#include "dataset.h"
#include "registry.h"
#include "trainable-model.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

// Declared only: this header stays free of torch (see Learner).
namespace torch
{
namespace nn
{
class Sequential;
} // namespace nn
} // namespace torch

namespace dlsim
{

/// How a learner trains.
struct TrainingConfig
{
    std::string model = "gn-lenet"; ///< one of KnownModels()
    /// Values of the model's keys (see ModelRegistration); the others keep their defaults.
    std::map<std::string, std::string> modelParameters;
    double lr = 0.01;         ///< SGD's learning rate
    double momentum = 0.0;    ///< SGD's momentum
    double weightDecay = 0.0; ///< SGD's weight decay (L2)
    uint32_t batchSize = 8;   ///< samples per mini-batch
    uint32_t localSteps = 3;  ///< SGD steps per round (Train)
    /// Initial parameters of every learner (flat, in registration order), or null: drawn by the
    /// model's initialisation from the learner's init seed.
    std::shared_ptr<const std::vector<float>> initialParameters;
    /// Where initialParameters came from, for messages (e.g. "model.init_file init.bin").
    std::string initialParametersSource;
};

/// Test accuracy (fraction in [0, 1]) and mean cross-entropy loss.
struct EvalResult
{
    double accuracy = 0.0; ///< fraction of the samples classified right
    double loss = 0.0;     ///< mean cross-entropy loss
    uint32_t samples = 0;  ///< samples evaluated
};

/**
 * A frozen copy of a learner's model (its structure and parameters): evaluated on any thread
 * while the learner it came from trains on, with the same results as evaluating the learner
 * itself at the moment the copy was made.
 */
class ModelSnapshot
{
  public:
    ~ModelSnapshot();
    ModelSnapshot(const ModelSnapshot&) = delete;
    ModelSnapshot& operator=(const ModelSnapshot&) = delete;

    /**
     * \brief Evaluate; several threads may evaluate one snapshot at once.
     * \param test the test set
     * \param maxSamples evaluate its first `maxSamples` samples (0: all of them)
     * \return accuracy and loss
     */
    EvalResult Evaluate(const Dataset& test, size_t maxSamples) const;

  private:
    friend class Learner;
    struct Impl;
    explicit ModelSnapshot(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

/**
 * Trains a real LibTorch model with SGD on mini-batches drawn afresh every round from the node's
 * partition, and exposes the parameters as one float32 vector in registration order (the form
 * the sharing algorithms work on). The header is free of torch so that the rest of the code
 * compiles fast; the model lives behind a pointer to an implementation.
 */
class Learner final : public TrainableModel
{
  public:
    /**
     * \param config model, optimiser and batches
     * \param train the training set (shared by all learners)
     * \param partition indices of the samples of `train` this learner trains on
     * \param initSeed seeds torch's generator right before the model is built: learners given
     *        the same seed start from the same model.
     * \param sampleSeed seeds this learner's mini-batch sampling.
     */
    Learner(const TrainingConfig& config,
            std::shared_ptr<const Dataset> train,
            std::vector<uint32_t> partition,
            uint64_t initSeed,
            uint64_t sampleSeed);
    ~Learner() override;
    Learner(const Learner&) = delete;
    Learner& operator=(const Learner&) = delete;

    /**
     * \brief Run `localSteps` SGD steps.
     * \return the mean training loss over them
     */
    double Train() override;

    /// \return the model's number of parameters
    size_t NumParameters() const;
    /// \return the parameters, flat, in registration order
    std::vector<float> GetParameters() const override;
    void GetParametersInto(std::vector<float>& flat) const override;
    /**
     * \brief Overwrite the parameters in place (the optimiser's momentum buffers persist).
     * \param flat NumParameters() values, as GetParameters gives them
     */
    void SetParameters(const std::vector<float>& flat) override;

    /**
     * \param test the test set
     * \param maxSamples evaluate its first `maxSamples` samples (0: all of them)
     * \return accuracy and loss
     */
    EvalResult Evaluate(const Dataset& test, size_t maxSamples) const override;
    /**
     * A copy of the model to evaluate elsewhere: with the learner's parameters, or with
     * `parameters` (flat, as GetParameters gives them) if not null. Not while Train runs.
     * Null if the model cannot be copied (a registered model with buffers, such as batch
     * normalisation's running statistics, or with a module that is not torch::nn::Cloneable):
     * then only Evaluate can evaluate it. Leaves torch's global generator as it was.
     * \param parameters the snapshot's parameters, or null: the learner's
     * \return the snapshot, or null
     */
    std::shared_ptr<const ModelSnapshot> Snapshot(const std::vector<float>* parameters
                                                  = nullptr) const override;

    /// \return floating point operations of one training sample: forward plus backward (2x
    /// forward), which the compute-time model charges
    double TrainFlopsPerSample() const;
    /// \return the number of samples this learner trains on
    size_t PartitionSize() const;
    /// \return how it trains
    const TrainingConfig& Config() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// The input and output shape a model is built for: channels x height x width, `classes`.
struct ModelShape
{
    int64_t channels = 1; ///< input channels
    int64_t height = 28;  ///< input height
    int64_t width = 28;   ///< input width
    int64_t classes = 10; ///< outputs
};

/**
 * Everything dlsim knows about one model: the value of the `model` key, its keys (in the order
 * scenarios and `--help` list them), a line of help and its factory. A model registered by a
 * program (DLSIM_REGISTER_MODEL, in a file that includes nn-models.h) is selectable by name like
 * dlsim's own.
 */
struct ModelRegistration
{
    static constexpr const char* kKind = "model"; ///< the registry's kind, for messages
    /// \return dlsim's own models: logistic, mlp, gn-lenet (see Registry; defined in
    /// nn-models.cc)
    static std::vector<ModelRegistration> Builtins();

    std::string name;               ///< the value of the `model` key
    std::vector<AlgorithmKey> keys; ///< its keys, in the order scenarios and `--help` list them
    /// What it is, for `--help` and the `model` key's help.
    std::string help;
    /**
     * Build the model, its parameters registered in the order Learner::GetParameters flattens
     * them, initialised from torch's global generator; throws std::invalid_argument for a shape
     * it cannot take.
     */
    std::function<torch::nn::Sequential(const RegisteredParameters& parameters,
                                        const ModelShape& shape)>
        create;
};

/// Every known model: dlsim's own, then any a program registers (DLSIM_REGISTER_MODEL).
using ModelRegistry = Registry<ModelRegistration>;

/// \return the names accepted by the `model` key (the registered models)
std::vector<std::string> KnownModels();

/**
 * \brief The number of parameters of a model (see MakeModel in nn-models.h). Builds the model
 * once, drawing from torch's generator.
 * \param name a registered model
 * \param channels input channels
 * \param height input height
 * \param width input width
 * \param classes outputs
 * \param parameters values of the model's keys (the others keep their defaults)
 * \return its number of parameters
 */
size_t CountModelParameters(const std::string& name,
                            int64_t channels,
                            int64_t height,
                            int64_t width,
                            int64_t classes,
                            const std::map<std::string, std::string>& parameters = {});

/**
 * Read a parameter file: float32 values, little-endian, one after the other and nothing else, in
 * the order of Learner::GetParameters (the model's registration order, the order of PyTorch's
 * model.parameters() for the same layers). Throws DatasetError naming the file when it is
 * missing, not a regular file, empty, not a whole number of 4-byte values, larger than 4 GiB, or
 * holds a value that is not finite.
 * \param path the file
 * \return its values
 */
std::vector<float> ReadParameterFile(const std::string& path);

/**
 * \brief Write a parameter file that ReadParameterFile reads back.
 * \param path the file
 * \param parameters the values (e.g. Learner::GetParameters())
 * \throws DatasetError naming the file and the reason when it cannot be written
 */
void WriteParameterFile(const std::string& path, const std::vector<float>& parameters);

/**
 * Make every torch call of this process single-threaded. Results then do not depend on the
 * thread count, and sweeps can run one process per core. Call once before creating learners.
 */
void UseSingleThreadedTorch();

} // namespace dlsim

/// Register the model `function()` describes (see DLSIM_REGISTER in registry.h).
#define DLSIM_REGISTER_MODEL(function) DLSIM_REGISTER(dlsim::ModelRegistration, function)

#endif // DLSIM_LEARNER_H
