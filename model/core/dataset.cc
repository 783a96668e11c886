// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "dataset.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>

namespace dlsim
{

namespace
{

/// The samples `indices` of `data`, in that order, named `name`.
std::shared_ptr<const Dataset>
Subset(const Dataset& data, const std::vector<uint32_t>& indices, const std::string& name)
{
    auto subset = std::make_shared<Dataset>();
    subset->name = name;
    subset->channels = data.channels;
    subset->height = data.height;
    subset->width = data.width;
    subset->numClasses = data.numClasses;
    subset->inputMean = data.inputMean;
    subset->inputStd = data.inputStd;
    const size_t sample = data.SampleSize();
    // A dataset of labels only (a replay's) stays one.
    const bool withImages = !data.images.empty();
    subset->images.reserve(withImages ? indices.size() * sample : 0);
    subset->labels.reserve(indices.size());
    for (uint32_t i : indices)
    {
        if (withImages)
        {
            subset->images.insert(subset->images.end(),
                                  data.images.begin() + static_cast<std::ptrdiff_t>(i * sample),
                                  data.images.begin()
                                      + static_cast<std::ptrdiff_t>((i + 1) * sample));
        }
        subset->labels.push_back(data.labels[i]);
    }
    return subset;
}

} // namespace

DatasetSplit
HoldOutValidation(const DatasetSplit& data, double fraction, uint64_t seed)
{
    const Dataset& train = *data.train;
    const size_t n = train.Size();
    const auto held = static_cast<size_t>(std::llround(fraction * static_cast<double>(n)));
    if (!(fraction > 0.0 && fraction < 1.0) || held == 0 || held >= n)
    {
        std::ostringstream why;
        why << "a validation set of " << fraction << " of " << n << " training samples would leave "
            << (held == 0 ? "no validation sample" : "no training sample");
        throw DatasetError(why.str());
    }
    // A partial Fisher-Yates shuffle with a fixed generator: the same draw on every platform.
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < held; ++i)
    {
        const size_t j = i + static_cast<size_t>(rng() % (n - i));
        std::swap(order[i], order[j]);
    }
    std::vector<uint32_t> validation(order.begin(),
                                     order.begin() + static_cast<std::ptrdiff_t>(held));
    std::sort(validation.begin(), validation.end());
    std::vector<uint32_t> rest;
    rest.reserve(n - held);
    for (size_t i = 0, v = 0; i < n; ++i)
    {
        if (v < validation.size() && validation[v] == i)
        {
            ++v;
            continue;
        }
        rest.push_back(static_cast<uint32_t>(i));
    }
    std::string base = train.name;
    if (const size_t space = base.rfind(' '); space != std::string::npos)
    {
        base = base.substr(0, space); // "fashion-mnist train" -> "fashion-mnist"
    }
    return {Subset(train, rest, train.name), Subset(train, validation, base + " validation")};
}

std::vector<uint32_t>
ClassHistogram(const Dataset& data, const std::vector<uint32_t>& indices)
{
    std::vector<uint32_t> histogram(data.numClasses, 0);
    for (uint32_t i : indices)
    {
        histogram.at(static_cast<size_t>(data.labels.at(i)))++;
    }
    return histogram;
}

namespace
{

/// A list of numbers for messages: "[0.5, 0.25]".
std::string
ShowList(const std::vector<float>& values)
{
    std::ostringstream out;
    out << "[";
    for (size_t i = 0; i < values.size(); ++i)
    {
        out << (i ? ", " : "") << values[i];
    }
    out << "]";
    return out.str();
}

} // namespace

void
NormalizeChannels(Dataset& data, const std::vector<float>& mean, const std::vector<float>& stddev)
{
    const uint32_t channels = data.channels;
    for (const auto& [key, list] :
         {std::make_pair("dataset.mean", &mean), std::make_pair("dataset.std", &stddev)})
    {
        if (list->size() != 1 && list->size() != channels)
        {
            throw DatasetError(std::string(key) + " " + ShowList(*list) + " has "
                               + std::to_string(list->size()) + " values, but dataset " + data.name
                               + " has " + std::to_string(channels)
                               + " channels: give one value for all of them, or one per channel");
        }
    }
    for (float m : mean)
    {
        if (!std::isfinite(m))
        {
            throw DatasetError("dataset.mean " + ShowList(mean) + ": every mean must be finite");
        }
    }
    for (float s : stddev)
    {
        if (!(s > 0.0f) || !std::isfinite(s))
        {
            throw DatasetError("dataset.std " + ShowList(stddev)
                               + ": every standard deviation must be above 0 and finite");
        }
    }
    std::vector<float> m(channels);
    std::vector<float> s(channels);
    for (uint32_t c = 0; c < channels; ++c)
    {
        m[c] = mean.size() == 1 ? mean[0] : mean[c];
        s[c] = stddev.size() == 1 ? stddev[0] : stddev[c];
    }
    const size_t plane = static_cast<size_t>(data.height) * data.width;
    const size_t planes = data.images.size() / plane;
    for (size_t p = 0; p < planes; ++p)
    {
        const float mc = m[p % channels];
        const float sc = s[p % channels];
        float* values = data.images.data() + p * plane;
        for (size_t k = 0; k < plane; ++k)
        {
            values[k] = (values[k] - mc) / sc;
        }
    }
    data.inputMean = m;
    data.inputStd = s;
}

void
ChannelStatistics(const Dataset& data, std::vector<float>& mean, std::vector<float>& stddev)
{
    const uint32_t channels = data.channels;
    const size_t plane = static_cast<size_t>(data.height) * data.width;
    const size_t planes = plane ? data.images.size() / plane : 0;
    std::vector<double> sum(channels, 0.0);
    std::vector<double> count(channels, 0.0);
    for (size_t p = 0; p < planes; ++p)
    {
        const float* values = data.images.data() + p * plane;
        double s = 0.0;
        for (size_t k = 0; k < plane; ++k)
        {
            s += values[k];
        }
        sum[p % channels] += s;
        count[p % channels] += static_cast<double>(plane);
    }
    std::vector<double> mu(channels, 0.0);
    for (uint32_t c = 0; c < channels; ++c)
    {
        mu[c] = count[c] > 0 ? sum[c] / count[c] : 0.0;
    }
    // Two passes: the squared deviations from the mean, not the difference of large sums.
    std::vector<double> squares(channels, 0.0);
    for (size_t p = 0; p < planes; ++p)
    {
        const float* values = data.images.data() + p * plane;
        const double m = mu[p % channels];
        double s = 0.0;
        for (size_t k = 0; k < plane; ++k)
        {
            s += (values[k] - m) * (values[k] - m);
        }
        squares[p % channels] += s;
    }
    mean.assign(channels, 0.0f);
    stddev.assign(channels, 0.0f);
    for (uint32_t c = 0; c < channels; ++c)
    {
        mean[c] = static_cast<float>(mu[c]);
        stddev[c] = static_cast<float>(count[c] > 0 ? std::sqrt(squares[c] / count[c]) : 0.0);
    }
}

void
ApplyNormalization(Dataset& train,
                   Dataset& test,
                   const Normalization& how,
                   const std::vector<float>& datasetMean,
                   const std::vector<float>& datasetStd)
{
    switch (how.mode)
    {
        case Normalization::Mode::None:
            return;
        case Normalization::Mode::Dataset:
            if (!datasetMean.empty())
            {
                NormalizeChannels(train, datasetMean, datasetStd);
                NormalizeChannels(test, datasetMean, datasetStd);
            }
            return;
        case Normalization::Mode::Fixed:
            NormalizeChannels(train, how.mean, how.stddev);
            NormalizeChannels(test, how.mean, how.stddev);
            return;
    }
}

} // namespace dlsim
