// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "synthetic-dataset.h"

#include <random>

namespace dlsim
{

namespace
{

std::shared_ptr<Dataset>
Draw(const SyntheticSpec& spec,
     const std::vector<std::vector<float>>& prototypes,
     uint32_t samples,
     std::mt19937_64& rng,
     const std::string& name)
{
    auto data = std::make_shared<Dataset>();
    data->name = name;
    data->channels = 1;
    data->height = spec.side;
    data->width = spec.side;
    data->numClasses = spec.numClasses;
    size_t sampleSize = data->SampleSize();
    data->images.resize(static_cast<size_t>(samples) * sampleSize);
    data->labels.resize(samples);
    std::normal_distribution<float> noise(0.0f, spec.noise);
    for (uint32_t i = 0; i < samples; ++i)
    {
        uint32_t label = i % spec.numClasses;
        data->labels[i] = label;
        float* image = data->images.data() + i * sampleSize;
        for (size_t p = 0; p < sampleSize; ++p)
        {
            image[p] = prototypes[label][p] + noise(rng);
        }
    }
    return data;
}

} // namespace

DatasetSplit
MakeSyntheticDataset(const SyntheticSpec& spec)
{
    if (spec.numClasses < 2 || spec.side == 0 || spec.trainSamples == 0 || spec.testSamples == 0)
    {
        throw DatasetError("synthetic dataset needs at least 2 classes, 1 train and 1 test "
                           "sample and a positive image side");
    }
    std::mt19937_64 rng(spec.seed);
    std::normal_distribution<float> standard(0.0f, 1.0f);
    size_t sampleSize = static_cast<size_t>(spec.side) * spec.side;
    std::vector<std::vector<float>> prototypes(spec.numClasses, std::vector<float>(sampleSize));
    for (auto& prototype : prototypes)
    {
        for (float& p : prototype)
        {
            p = standard(rng);
        }
    }
    DatasetSplit split;
    split.train = Draw(spec, prototypes, spec.trainSamples, rng, "synthetic-train");
    split.test = Draw(spec, prototypes, spec.testSamples, rng, "synthetic-test");
    return split;
}

} // namespace dlsim
