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
    std::string path = kDefaultFashionMnistDir; ///< fashion-mnist: the IDX directory
    SyntheticSpec synthetic;                    ///< synthetic: the generator's parameters
};

/// The names accepted by the `dataset` key: fashion-mnist and synthetic.
std::vector<std::string> KnownDatasets();

/// Load the chosen dataset; throws DatasetError for an unknown name or unreadable files.
DatasetSplit LoadDataset(const DatasetChoice& choice);

} // namespace ns3

#endif // DLSIM_DATASET_CATALOG_H
