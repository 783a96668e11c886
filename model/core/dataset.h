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

} // namespace ns3

#endif // DLSIM_DATASET_H
