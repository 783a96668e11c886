// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A generated classification dataset for tests and quick runs: no files needed.
 */
#ifndef DLSIM_SYNTHETIC_DATASET_H
#define DLSIM_SYNTHETIC_DATASET_H

#include "dataset.h"

#include <cstdint>

namespace dlsim
{

/// Parameters of the generated dataset.
struct SyntheticSpec
{
    uint32_t trainSamples = 4000; ///< samples of the training set
    uint32_t testSamples = 1000;  ///< samples of the test set
    uint32_t numClasses = 10;     ///< classes (and prototypes)
    uint32_t side = 28;           ///< images are 1 x side x side, so every model accepts them
    float noise = 1.0f; ///< standard deviation of the per-pixel noise around the class prototype
    uint64_t seed = 1;  ///< seeds the prototypes and the noise
};

/**
 * Gaussian clusters: each class has a random prototype image (standard normal pixels) and a
 * sample is its prototype plus independent N(0, noise^2) pixels. Classes are balanced and
 * interleaved (sample i has label i mod numClasses). Deterministic for a seed.
 * \param spec sizes, classes, noise and seed
 * \return the training and test sets
 */
DatasetSplit MakeSyntheticDataset(const SyntheticSpec& spec);

} // namespace dlsim

#endif // DLSIM_SYNTHETIC_DATASET_H
