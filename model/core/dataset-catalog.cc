// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "dataset-catalog.h"

#include "csv-rows.h"

#include <sstream>

namespace dlsim
{

namespace
{

/// The folder key of the datasets read from files.
AlgorithmKey
PathKey()
{
    return AlgorithmKey::Path("dataset.path",
                              kDefaultFashionMnistDir,
                              "folder with the dataset's files (fashion-mnist: the IDX files; "
                              "cifar10: the binary version's data_batch_1.bin ... test_batch.bin)");
}

/// A dataset read from the files in dataset.path by `load`, whose presence `check` checks.
DatasetRegistration
FileDataset(const std::string& name,
            const std::string& help,
            uint32_t channels,
            DatasetSplit (*load)(const std::string& directory, const Normalization& how),
            void (*check)(const std::string& directory),
            DatasetSplit (*loadLabels)(const std::string& directory, const Normalization& how)
            = nullptr)
{
    DatasetRegistration r;
    r.name = name;
    r.keys = {PathKey()};
    for (const auto& key : NormalizationKeys())
    {
        r.keys.push_back(key);
    }
    r.help = help;
    r.channels = channels;
    r.create = [load](const RegisteredParameters& p, const Normalization& how, uint64_t)
    {
        return load(p.GetString("dataset.path"), how);
    };
    if (loadLabels)
    {
        r.labelsOnly
            = [loadLabels](const RegisteredParameters& p, const Normalization& how, uint64_t)
        {
            return loadLabels(p.GetString("dataset.path"), how);
        };
    }
    r.check = [check](const RegisteredParameters& p)
    {
        try
        {
            check(p.GetString("dataset.path"));
        }
        catch (const DatasetError& e)
        {
            // Named after the key the folder comes from.
            throw DatasetError(std::string("dataset.path: ") + e.what());
        }
    };
    return r;
}

std::string
Exact(double value)
{
    std::ostringstream text;
    text.precision(17);
    text << value;
    return text.str();
}

DatasetRegistration
Synthetic()
{
    DatasetRegistration r;
    r.name = "synthetic";
    r.keys = NormalizationKeys();
    r.keys.push_back(AlgorithmKey::WholeNumber("synthetic.train_samples",
                                               "4000",
                                               1,
                                               10000000,
                                               "training samples of the synthetic dataset"));
    r.keys.push_back(AlgorithmKey::WholeNumber(
        "synthetic.test_samples", "1000", 1, 10000000, "test samples of the synthetic dataset"));
    r.keys.push_back(AlgorithmKey::WholeNumber(
        "synthetic.classes", "10", 2, 1000, "classes of the synthetic dataset"));
    r.keys.push_back(AlgorithmKey::Number(
        "synthetic.noise", "1.0", 0.0, 1e6, "pixel noise around the class prototypes (synthetic)"));
    r.help = "generated Gaussian clusters of 28x28 images, no files";
    r.create = [](const RegisteredParameters& p, const Normalization& how, uint64_t seed)
    {
        SyntheticSpec spec;
        spec.trainSamples = static_cast<uint32_t>(p.GetUint("synthetic.train_samples"));
        spec.testSamples = static_cast<uint32_t>(p.GetUint("synthetic.test_samples"));
        spec.numClasses = static_cast<uint32_t>(p.GetUint("synthetic.classes"));
        spec.noise = static_cast<float>(p.GetDouble("synthetic.noise"));
        spec.seed = seed;
        DatasetSplit split = MakeSyntheticDataset(spec);
        // Generated as inputs already: only fixed values are applied.
        if (how.mode == Normalization::Mode::Fixed)
        {
            auto train = std::make_shared<Dataset>(*split.train);
            auto test = std::make_shared<Dataset>(*split.test);
            ApplyNormalization(*train, *test, how, {}, {});
            split.train = train;
            split.test = test;
        }
        return split;
    };
    r.fromChoice = [](const DatasetChoice& choice, std::map<std::string, std::string>& values)
    {
        values["synthetic.train_samples"] = std::to_string(choice.synthetic.trainSamples);
        values["synthetic.test_samples"] = std::to_string(choice.synthetic.testSamples);
        values["synthetic.classes"] = std::to_string(choice.synthetic.numClasses);
        values["synthetic.noise"] = Exact(choice.synthetic.noise);
    };
    return r;
}

/// The parameters a DatasetChoice describes: its path and typed fields, then `parameters`.
RegisteredParameters
ParametersOf(const DatasetChoice& choice, const DatasetRegistration& registration)
{
    std::map<std::string, std::string> values;
    for (const auto& key : registration.keys)
    {
        if (key.name == "dataset.path")
        {
            values[key.name] = choice.path;
        }
    }
    if (registration.fromChoice)
    {
        registration.fromChoice(choice, values);
    }
    for (const auto& [key, value] : choice.parameters)
    {
        values[key] = value;
    }
    try
    {
        return DatasetRegistry::Parameters(choice.name, values);
    }
    catch (const std::invalid_argument& e)
    {
        throw DatasetError(e.what());
    }
}

const DatasetRegistration&
RegistrationOf(const std::string& name)
{
    try
    {
        return DatasetRegistry::Get(name);
    }
    catch (const std::invalid_argument& e)
    {
        throw DatasetError(e.what());
    }
}

} // namespace

std::vector<DatasetRegistration>
DatasetRegistration::Builtins()
{
    return {FileDataset("fashion-mnist",
                        "28x28 grey images of clothing, 10 classes, IDX files in dataset.path",
                        1,
                        LoadFashionMnist,
                        CheckFashionMnistFiles,
                        LoadFashionMnistLabels),
            FileDataset("cifar10",
                        "32x32 colour images, 10 classes, binary batches in dataset.path",
                        3,
                        LoadCifar10,
                        CheckCifar10Files),
            Synthetic()};
}

std::vector<AlgorithmKey>
NormalizationKeys()
{
    return {AlgorithmKey::Choice("dataset.normalize",
                                 "dataset",
                                 {"dataset", "fixed", "none"},
                                 "input normalisation after scaling pixels to [0, 1]: dataset (the "
                                 "training set's mean and standard deviation), fixed (dataset.mean "
                                 "and dataset.std) or none"),
            AlgorithmKey::NumberList("dataset.mean",
                                     "0.5",
                                     -1e6,
                                     1e6,
                                     "normalize = fixed: mean subtracted, one value or one per "
                                     "channel, e.g. [0.4914, 0.4822, 0.4465]"),
            AlgorithmKey::NumberList("dataset.std",
                                     "0.5",
                                     1e-6,
                                     1e6,
                                     "normalize = fixed: standard deviation (the divisor), one "
                                     "value or one per channel")};
}

Normalization
NormalizationOf(const RegisteredParameters& parameters, uint32_t channels)
{
    Normalization how;
    const std::string& mode = parameters.GetString("dataset.normalize");
    if (mode == "none")
    {
        how.mode = Normalization::Mode::None;
    }
    else if (mode == "fixed")
    {
        how.mode = Normalization::Mode::Fixed;
        const std::vector<double> mean = parameters.GetDoubleList("dataset.mean");
        const std::vector<double> stddev = parameters.GetDoubleList("dataset.std");
        for (const auto& [key, list] :
             {std::make_pair("dataset.mean", &mean), std::make_pair("dataset.std", &stddev)})
        {
            if (list->size() != 1 && list->size() != channels)
            {
                throw ConfigValueError(std::string(key) + ": " + std::to_string(list->size())
                                       + " values, but dataset " + parameters.GetName() + " has "
                                       + std::to_string(channels)
                                       + (channels == 1 ? " channel" : " channels")
                                       + ": give one value for all channels, or one per channel");
            }
        }
        // float32, as PyTorch keeps them: the same inputs as a PyTorch pipeline's Normalize.
        how.mean.assign(mean.begin(), mean.end());
        how.stddev.assign(stddev.begin(), stddev.end());
    }
    return how;
}

std::vector<std::string>
KnownDatasets()
{
    return DatasetRegistry::Names();
}

uint32_t
DatasetChannels(const std::string& name)
{
    return RegistrationOf(name).channels;
}

void
CheckDatasetFiles(const DatasetChoice& choice)
{
    const DatasetRegistration& registration = RegistrationOf(choice.name);
    if (registration.check)
    {
        registration.check(ParametersOf(choice, registration));
    }
}

DatasetSplit
LoadDataset(const DatasetChoice& choice)
{
    const DatasetRegistration& registration = RegistrationOf(choice.name);
    return registration.create(
        ParametersOf(choice, registration), choice.normalization, choice.synthetic.seed);
}

} // namespace dlsim
