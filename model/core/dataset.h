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

namespace dlsim
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
    std::string name;            ///< for messages ("fashion-mnist train")
    uint32_t channels = 1;       ///< C
    uint32_t height = 1;         ///< H
    uint32_t width = 1;          ///< W
    uint32_t numClasses = 0;     ///< labels are in [0, numClasses)
    std::vector<float> images;   ///< Size() * SampleSize() values
    std::vector<int64_t> labels; ///< one per sample
    /// The normalisation the loader applied, per channel (empty: none): value = (x - mean) / std.
    std::vector<float> inputMean;
    std::vector<float> inputStd; ///< as inputMean

    /// \return the number of samples
    size_t Size() const
    {
        return labels.size();
    }

    /// \return the floats per sample (C * H * W)
    size_t SampleSize() const
    {
        return static_cast<size_t>(channels) * height * width;
    }

    /**
     * \param i a sample's index, below Size()
     * \return its first value (SampleSize() values follow)
     */
    const float* Sample(size_t i) const
    {
        return images.data() + i * SampleSize();
    }
};

/// The train and test split of one dataset.
struct DatasetSplit
{
    std::shared_ptr<const Dataset> train; ///< partitioned among the learners
    std::shared_ptr<const Dataset> test;  ///< for evaluation
};

/**
 * \brief Hold out a validation set from the training data, so that settings can be chosen
 * without looking at the test set: a seeded uniform draw of round(fraction * N) training samples
 * (without replacement) becomes the evaluation set, the rest (in their order) the training set.
 * \param data a dataset's training and test sets
 * \param fraction of the training samples held out, in (0, 1)
 * \param seed the draw's seed
 * \return the remaining training samples as `train`, the held-out ones as `test` (its name ends
 * in "validation")
 * \throws DatasetError when either part would be empty
 */
DatasetSplit HoldOutValidation(const DatasetSplit& data, double fraction, uint64_t seed);

/**
 * \param data a dataset
 * \param indices sample indices into it
 * \return the count of those samples per class (numClasses entries)
 */
std::vector<uint32_t> ClassHistogram(const Dataset& data, const std::vector<uint32_t>& indices);

/**
 * How the loaders turn pixels into model inputs. Pixels are first scaled to [0, 1] (byte / 255 in
 * float32, as torchvision's ToTensor does); then every value x of channel c becomes
 * (x - mean[c]) / std[c], computed in float32 (as torchvision's Normalize does).
 */
struct Normalization
{
    /// Where the mean and standard deviation come from.
    enum class Mode
    {
        Dataset, ///< the training set's own statistics (the default; see each loader)
        Fixed,   ///< `mean` and `stddev` as given
        None,    ///< pixels stay in [0, 1]
    };

    Mode mode = Mode::Dataset; ///< where the values come from
    std::vector<float> mean;   ///< Fixed: one value for every channel, or one per channel
    std::vector<float> stddev; ///< Fixed: as `mean`; every value above 0
};

/**
 * Normalise `data` in place: every value x of channel c becomes (x - mean[c]) / stddev[c], in
 * float32, and the values used are recorded in inputMean and inputStd. Each list holds one value
 * (for every channel) or one per channel. Throws DatasetError naming dataset.mean or dataset.std
 * when a list has another length, a mean is not finite or a standard deviation is not above 0.
 * \param data the dataset, changed in place
 * \param mean the means
 * \param stddev the standard deviations
 */
void NormalizeChannels(Dataset& data,
                       const std::vector<float>& mean,
                       const std::vector<float>& stddev);

/**
 * Per-channel mean and standard deviation of all of `data`'s values (over every sample and
 * pixel, dividing by their count, as numpy's mean() and std() do), computed in double precision.
 * \param data a dataset
 * \param[out] mean one value per channel
 * \param[out] stddev one value per channel
 */
void ChannelStatistics(const Dataset& data, std::vector<float>& mean, std::vector<float>& stddev);

/**
 * Apply `how` to a train and test split: Dataset mode uses `datasetMean` and `datasetStd` (the
 * loader's statistics of the training set; empty: leave the values as they are), Fixed mode the
 * values in `how`, None nothing.
 * \param train the training set, changed in place
 * \param test the test set, changed in place (with the training set's values)
 * \param how the mode and, for Fixed, the values
 * \param datasetMean the training set's per-channel means
 * \param datasetStd the training set's per-channel standard deviations
 */
void ApplyNormalization(Dataset& train,
                        Dataset& test,
                        const Normalization& how,
                        const std::vector<float>& datasetMean,
                        const std::vector<float>& datasetStd);

} // namespace dlsim

#endif // DLSIM_DATASET_H
