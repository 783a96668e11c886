// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "dataset-catalog.h"

namespace ns3
{

std::vector<std::string>
KnownDatasets()
{
    return {"fashion-mnist", "cifar10", "synthetic"};
}

uint32_t
DatasetChannels(const std::string& name)
{
    return name == "cifar10" ? 3 : 1;
}

void
CheckDatasetFiles(const DatasetChoice& choice)
{
    if (choice.name == "fashion-mnist")
    {
        CheckFashionMnistFiles(choice.path);
    }
    else if (choice.name == "cifar10")
    {
        CheckCifar10Files(choice.path);
    }
}

DatasetSplit
LoadDataset(const DatasetChoice& choice)
{
    if (choice.name == "synthetic")
    {
        DatasetSplit split = MakeSyntheticDataset(choice.synthetic);
        if (choice.normalization.mode == Normalization::Mode::Fixed)
        {
            auto train = std::make_shared<Dataset>(*split.train);
            auto test = std::make_shared<Dataset>(*split.test);
            ApplyNormalization(*train, *test, choice.normalization, {}, {});
            split.train = train;
            split.test = test;
        }
        return split;
    }
    if (choice.name == "fashion-mnist")
    {
        return LoadFashionMnist(choice.path, choice.normalization);
    }
    if (choice.name == "cifar10")
    {
        return LoadCifar10(choice.path, choice.normalization);
    }
    throw DatasetError("unknown dataset '" + choice.name
                       + "' (known: fashion-mnist, cifar10, synthetic)");
}

} // namespace ns3
