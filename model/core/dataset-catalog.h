// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The datasets a scenario or program can name, and loading one by name.
 */
#ifndef DLSIM_DATASET_CATALOG_H
#define DLSIM_DATASET_CATALOG_H

#include "idx-reader.h"
#include "synthetic-dataset.h"

#include <string>
#include <vector>

namespace ns3
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
};

/// The names accepted by the `dataset` key: fashion-mnist, cifar10 and synthetic.
std::vector<std::string> KnownDatasets();

/// The number of image channels of a known dataset: 3 for cifar10, 1 for the others.
uint32_t DatasetChannels(const std::string& name);

/**
 * Throws DatasetError naming the first file the chosen dataset needs that is missing from its
 * folder, and how to get it. Only checks that the files exist, so it is cheap; synthetic data
 * needs none.
 */
void CheckDatasetFiles(const DatasetChoice& choice);

/// Load the chosen dataset; throws DatasetError for an unknown name or unreadable files.
DatasetSplit LoadDataset(const DatasetChoice& choice);

} // namespace ns3

#endif // DLSIM_DATASET_CATALOG_H
