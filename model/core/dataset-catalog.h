// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The datasets a scenario or program can name (the registry of datasets), and loading one by
 * name.
 */
#ifndef DLSIM_DATASET_CATALOG_H
#define DLSIM_DATASET_CATALOG_H

#include "idx-reader.h"
#include "registry.h"
#include "synthetic-dataset.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace dlsim
{

/// Which dataset to load and its parameters.
struct DatasetChoice
{
    std::string name = "fashion-mnist";         ///< one of KnownDatasets()
    std::string path = kDefaultFashionMnistDir; ///< fashion-mnist, cifar10: the files' folder
    SyntheticSpec synthetic;                    ///< synthetic: the generator's parameters
    /// How pixels become inputs. Synthetic data is generated as inputs already: Dataset and None
    /// leave it as it is, Fixed applies the given values to it.
    Normalization normalization;
    /// Values of the dataset's keys (see DatasetRegistration), over the fields above.
    std::map<std::string, std::string> parameters;
};

/**
 * Everything dlsim knows about one dataset: the value of the `dataset` key, its keys (in the
 * order scenarios and `--help` list them), a line of help, its channels and its loader. A
 * dataset registered by a program (DLSIM_REGISTER_DATASET) is selectable by name like dlsim's
 * own. Every dataset takes the normalisation keys (NormalizationKeys()), which the runner turns
 * into the Normalization it loads with.
 */
struct DatasetRegistration
{
    static constexpr const char* kKind = "dataset"; ///< the registry's kind, for messages
    /// \return dlsim's own datasets: fashion-mnist, cifar10, synthetic (see Registry)
    static std::vector<DatasetRegistration> Builtins();

    std::string name;               ///< the value of the `dataset` key
    std::vector<AlgorithmKey> keys; ///< its keys, in the order scenarios and `--help` list them
    /// What it is, for `--help` and the `dataset` key's help.
    std::string help;
    /// Image channels (for the normalisation keys' per-channel values before loading).
    uint32_t channels = 1;
    /// Load it. `seed` is the run's seed (for generated data).
    std::function<DatasetSplit(
        const RegisteredParameters& parameters, const Normalization& normalization, uint64_t seed)>
        create;
    /// Optional: the same split with labels, shapes and normalisation values but no inputs
    /// (Dataset::images empty), cheaper than `create`. A replay, which partitions the data but
    /// trains on none of it, uses it where the dataset has it.
    std::function<DatasetSplit(
        const RegisteredParameters& parameters, const Normalization& normalization, uint64_t seed)>
        labelsOnly;
    /// Optional: throw DatasetError naming the first input file that is missing; cheap, for the
    /// checks before a run.
    std::function<void(const RegisteredParameters& parameters)> check;
    /// Optional, for the datasets that predate the registry: their keys' values from the typed
    /// fields of DatasetChoice, so that programs setting those fields keep working.
    std::function<void(const DatasetChoice& choice, std::map<std::string, std::string>& values)>
        fromChoice;
};

/// Every known dataset: dlsim's own, then any a program registers (DLSIM_REGISTER_DATASET).
using DatasetRegistry = Registry<DatasetRegistration>;

/// \return the keys every dataset takes: dataset.normalize, dataset.mean, dataset.std
std::vector<AlgorithmKey> NormalizationKeys();

/**
 * \param parameters the values of the keys of NormalizationKeys()
 * \param channels the dataset's image channels
 * \return the normalisation they describe
 * \throws ConfigValueError naming the key when fixed values do not fit the channels
 */
Normalization NormalizationOf(const RegisteredParameters& parameters, uint32_t channels);

/// \return the names accepted by the `dataset` key (the registered datasets)
std::vector<std::string> KnownDatasets();

/**
 * \param name a registered dataset
 * \return its number of image channels: 3 for cifar10, 1 for the others
 */
uint32_t DatasetChannels(const std::string& name);

/**
 * Throws DatasetError naming the first file the chosen dataset needs that is missing from its
 * folder, and how to get it. Only checks that the files exist, so it is cheap; synthetic data
 * needs none.
 * \param choice the dataset and its folder
 * \throws DatasetError for a missing file
 */
void CheckDatasetFiles(const DatasetChoice& choice);

/**
 * \param choice the dataset and its parameters
 * \return its training and test sets
 * \throws DatasetError for an unknown name or unreadable files
 */
DatasetSplit LoadDataset(const DatasetChoice& choice);

} // namespace dlsim

/// Register the dataset `function()` describes (see DLSIM_REGISTER in registry.h).
#define DLSIM_REGISTER_DATASET(function) DLSIM_REGISTER(dlsim::DatasetRegistration, function)

#endif // DLSIM_DATASET_CATALOG_H
