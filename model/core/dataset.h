// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * In-memory classification datasets shared by all learners of a run.
 */
#ifndef DLSIM_DATASET_H
#define DLSIM_DATASET_H

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * A dataset problem the user can fix (missing or malformed file, bad parameter).
 */
class DatasetError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * Samples stored as normalised float32 images (N x C x H x W, row-major) and int64 labels.
 *
 * Kept free of LibTorch on purpose: only the learner turns samples into tensors, so most of the
 * code base compiles without torch headers. Learners share one instance (read-only).
 */
struct Dataset
{
    std::string name;
    uint32_t channels = 1;
    uint32_t height = 1;
    uint32_t width = 1;
    uint32_t numClasses = 0;
    std::vector<float> images;
    std::vector<int64_t> labels;
    /// The normalisation the loader applied, per channel (empty: none): value = (x - mean) / std.
    std::vector<float> inputMean;
    std::vector<float> inputStd;

    size_t Size() const
    {
        return labels.size();
    }

    size_t SampleSize() const
    {
        return static_cast<size_t>(channels) * height * width;
    }

    const float* Sample(size_t i) const
    {
        return images.data() + i * SampleSize();
    }
};

/// The train and test split of one dataset.
struct DatasetSplit
{
    std::shared_ptr<const Dataset> train;
    std::shared_ptr<const Dataset> test;
};

/// Count of samples per class among the given sample indices.
std::vector<uint32_t> ClassHistogram(const Dataset& data, const std::vector<uint32_t>& indices);

/**
 * How the loaders turn pixels into model inputs. Pixels are first scaled to [0, 1] (byte / 255 in
 * float32, as torchvision's ToTensor does); then every value x of channel c becomes
 * (x - mean[c]) / std[c], computed in float32 (as torchvision's Normalize does).
 */
struct Normalization
{
    enum class Mode
    {
        Dataset, ///< the training set's own statistics (the default; see each loader)
        Fixed,   ///< `mean` and `stddev` as given
        None,    ///< pixels stay in [0, 1]
    };

    Mode mode = Mode::Dataset;
    std::vector<float> mean;   ///< Fixed: one value for every channel, or one per channel
    std::vector<float> stddev; ///< Fixed: as `mean`; every value above 0
};

/**
 * Normalise `data` in place: every value x of channel c becomes (x - mean[c]) / stddev[c], in
 * float32, and the values used are recorded in inputMean and inputStd. Each list holds one value
 * (for every channel) or one per channel. Throws DatasetError naming dataset.mean or dataset.std
 * when a list has another length, a mean is not finite or a standard deviation is not above 0.
 */
void NormalizeChannels(Dataset& data,
                       const std::vector<float>& mean,
                       const std::vector<float>& stddev);

/**
 * Per-channel mean and standard deviation of all of `data`'s values (over every sample and
 * pixel, dividing by their count, as numpy's mean() and std() do), computed in double precision.
 */
void ChannelStatistics(const Dataset& data, std::vector<float>& mean, std::vector<float>& stddev);

/**
 * Apply `how` to a train and test split: Dataset mode uses `datasetMean` and `datasetStd` (the
 * loader's statistics of the training set; empty: leave the values as they are), Fixed mode the
 * values in `how`, None nothing.
 */
void ApplyNormalization(Dataset& train,
                        Dataset& test,
                        const Normalization& how,
                        const std::vector<float>& datasetMean,
                        const std::vector<float>& datasetStd);

} // namespace ns3

#endif // DLSIM_DATASET_H
