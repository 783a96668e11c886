/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Reader for the IDX format of MNIST and Fashion-MNIST, plain or gzipped.
 */
#ifndef DLSIM_IDX_READER_H
#define DLSIM_IDX_READER_H

#include "dataset.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// The contents of one IDX file of unsigned bytes.
struct IdxArray
{
    std::vector<uint32_t> dims;
    std::vector<uint8_t> data;
};

/**
 * Read an IDX file of unsigned bytes (type code 0x08). zlib reads gzipped and plain files alike.
 * Throws DatasetError naming the file when it is missing, not IDX, corrupt, shorter or longer
 * than its header announces, or when the header announces more than 4 GiB of data. Memory grows
 * with the data actually read, never with what the header claims.
 */
IdxArray ReadIdxFile(const std::string& path);

/// Where Debian's dataset-fashion-mnist package puts the files.
constexpr const char* kDefaultFashionMnistDir = "/usr/share/datasets/fashion-mnist";

/**
 * Load Fashion-MNIST (or MNIST: same file names) from a directory holding
 * {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz]. Pixels are scaled to [0, 1] and normalised
 * with the training set's mean and standard deviation.
 */
DatasetSplit LoadFashionMnist(const std::string& directory);

} // namespace ns3

#endif // DLSIM_IDX_READER_H
