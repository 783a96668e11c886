// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: small inputs the tests build for themselves (no files from elsewhere needed).
 */
#ifndef DLSIM_TEST_DATA_H
#define DLSIM_TEST_DATA_H

#include "learner.h"
#include "synthetic-dataset.h"

#include <cstdint>
#include <numeric>
#include <vector>

namespace ns3
{

/// An IDX byte array: magic, big-endian dimensions, data.
inline std::vector<uint8_t>
MakeIdx(const std::vector<uint32_t>& dims, const std::vector<uint8_t>& data)
{
    std::vector<uint8_t> bytes = {0, 0, 0x08, static_cast<uint8_t>(dims.size())};
    for (uint32_t d : dims)
    {
        for (int shift = 24; shift >= 0; shift -= 8)
        {
            bytes.push_back(static_cast<uint8_t>(d >> shift));
        }
    }
    bytes.insert(bytes.end(), data.begin(), data.end());
    return bytes;
}

/// A generated dataset of 1x28x28 samples for building learners, with torch single-threaded as
/// the module runs it.
inline dlsim::DatasetSplit
SyntheticData(uint32_t trainSamples, uint32_t testSamples)
{
    dlsim::UseSingleThreadedTorch();
    dlsim::SyntheticSpec spec;
    spec.trainSamples = trainSamples;
    spec.testSamples = testSamples;
    return dlsim::MakeSyntheticDataset(spec);
}

/// A tiny one: 20 training and 5 test samples.
inline dlsim::DatasetSplit
TinySyntheticData()
{
    return SyntheticData(20, 5);
}

/// A partition holding samples 0..n-1.
inline std::vector<uint32_t>
AllSamples(uint32_t n)
{
    std::vector<uint32_t> samples(n);
    std::iota(samples.begin(), samples.end(), 0u);
    return samples;
}

} // namespace ns3

#endif // DLSIM_TEST_DATA_H
