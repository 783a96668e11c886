// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "algorithm-registry.h"

#include "adpsgd-sharing.h"
#include "choco-sharing.h"
#include "dpsgd-sharing.h"
#include "partial-model-sharing.h"
#include "sparse-push-sharing.h"
#include "value-text.h"

#include <stdexcept>

namespace dlsim
{

/**
 * dlsim's own algorithms, in the order their keys appear in scenarios and `--help`. They live in
 * the static library dlsim-core, so they are named here rather than registered by static objects
 * in their own files: the linker would drop those files' objects, since nothing references them.
 */
std::vector<AlgorithmRegistration>
AlgorithmRegistration::Builtins()
{
    return {DpsgdRegistration(),
            RandomSamplingRegistration(),
            TopkRegistration(),
            JwinsRegistration(),
            ChocoRegistration(),
            SparsePushRegistration(),
            ScspRegistration(),
            AdpsgdRegistration()};
}

AlgorithmParameters::AlgorithmParameters(std::string algorithm,
                                         std::map<std::string, std::string> values,
                                         uint32_t trainingRounds)
    : RegisteredParameters(AlgorithmRegistration::kKind, std::move(algorithm), std::move(values)),
      m_trainingRounds(trainingRounds)
{}

const std::string&
AlgorithmParameters::GetAlgorithm() const
{
    return GetName();
}

uint32_t
AlgorithmParameters::GetTrainingRounds() const
{
    return m_trainingRounds;
}

AlgorithmParameters
AlgorithmRegistry::Parameters(const std::string& name,
                              const std::map<std::string, std::string>& values,
                              uint32_t trainingRounds)
{
    return AlgorithmParameters(
        name,
        Registry<AlgorithmRegistration>::Parameters(name, values).GetValues(),
        trainingRounds);
}

AlgorithmParameters
ParametersOf(const SharingConfig& config)
{
    const AlgorithmRegistration& registration = AlgorithmRegistry::Get(config.algorithm);
    std::map<std::string, std::string> values;
    if (registration.fromSharingConfig)
    {
        registration.fromSharingConfig(config, values);
    }
    for (const auto& [key, value] : config.parameters)
    {
        values[key] = value;
    }
    return AlgorithmRegistry::Parameters(config.algorithm, values, config.trainingRounds);
}

std::unique_ptr<SharingAlgorithm>
CreateSharingAlgorithm(const AlgorithmParameters& parameters)
{
    return AlgorithmRegistry::Get(parameters.GetAlgorithm()).create(parameters);
}

std::map<std::string, std::string>
ResolveOnOverlay(SharingConfig& config, const Adjacency& overlay, uint64_t seed, std::ostream& log)
{
    const AlgorithmRegistration& registration = AlgorithmRegistry::Get(config.algorithm);
    if (!registration.resolve)
    {
        return {};
    }
    AlgorithmParameters parameters = ParametersOf(config);
    std::map<std::string, std::string> shown = registration.resolve(parameters, overlay, seed, log);
    config.parameters = parameters.GetValues();
    return shown;
}

std::string
AlgorithmFigureLabel(const std::map<std::string, std::string>& config)
{
    const std::string& name = config.at("algorithm");
    const AlgorithmRegistration* registration = AlgorithmRegistry::Find(name);
    std::string label = registration && registration->label ? registration->label(config) : name;
    // An algorithm's own learning rate (./dlsim tune's choice) is part of what was compared.
    if (const auto lr = config.find(AlgorithmLearningRateKey(name));
        lr != config.end() && !lr->second.empty())
    {
        label += ", lr " + lr->second;
    }
    return label;
}

std::string
AlgorithmLearningRateKey(const std::string& algorithm)
{
    return algorithm + ".lr";
}

} // namespace dlsim
