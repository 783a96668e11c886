/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "dataset-catalog.h"

namespace ns3
{

std::vector<std::string>
KnownDatasets()
{
    return {"fashion-mnist", "synthetic"};
}

DatasetSplit
LoadDataset(const DatasetChoice& choice)
{
    if (choice.name == "synthetic")
    {
        return MakeSyntheticDataset(choice.synthetic);
    }
    if (choice.name == "fashion-mnist")
    {
        return LoadFashionMnist(choice.path);
    }
    throw DatasetError("unknown dataset '" + choice.name + "' (known: fashion-mnist, synthetic)");
}

} // namespace ns3
