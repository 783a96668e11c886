// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Readers of the image datasets' files: the IDX format of MNIST and Fashion-MNIST (plain or
 * gzipped) and the binary version of CIFAR-10.
 */
#ifndef DLSIM_IDX_READER_H
#define DLSIM_IDX_READER_H

#include "dataset.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dlsim
{

/// The contents of one IDX file of unsigned bytes.
struct IdxArray
{
    std::vector<uint32_t> dims; ///< the dimensions, outermost first
    std::vector<uint8_t> data;  ///< the values, row-major
};

/**
 * Read an IDX file of unsigned bytes (type code 0x08). zlib reads gzipped and plain files alike.
 * Throws DatasetError naming the file when it is missing, not IDX, corrupt, shorter or longer
 * than its header announces, or when the header announces more than 4 GiB of data. Memory grows
 * with the data actually read, never with what the header claims.
 * \param path the file
 * \return its dimensions and bytes
 */
IdxArray ReadIdxFile(const std::string& path);

/**
 * Only the dimensions of an IDX file (data left empty), checked as ReadIdxFile checks them; reads
 * no further than the header.
 * \param path the file
 * \return its dimensions
 */
IdxArray ReadIdxHeader(const std::string& path);

/// Where Debian's dataset-fashion-mnist package puts the files.
constexpr const char* kDefaultFashionMnistDir = "/usr/share/datasets/fashion-mnist";

/**
 * Load Fashion-MNIST (or MNIST: same file names) from a directory holding
 * {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz]. Pixels are scaled to [0, 1] and normalised
 * with the training set's mean and standard deviation.
 * \param directory the folder
 * \return the training and test sets
 */
DatasetSplit LoadFashionMnist(const std::string& directory);

/**
 * The same, normalised as `how` says. Normalization::Mode::Dataset uses Fashion-MNIST's
 * training-set statistics, mean 0.2860 and standard deviation 0.3530 (fixed values, so MNIST read
 * this way gets them too: give it Mode::Fixed with its own).
 * \param directory the folder
 * \param how the normalisation
 * \return the training and test sets
 */
DatasetSplit LoadFashionMnist(const std::string& directory, const Normalization& how);

/**
 * The same without the images (Dataset::images empty): labels, shapes and normalisation values,
 * for a replay, which partitions the data but trains on none of it. Reads the label files and the
 * image files' headers only.
 * \param directory the folder
 * \param how the normalisation
 * \return the training and test sets, labels only
 */
DatasetSplit LoadFashionMnistLabels(const std::string& directory, const Normalization& how);

/**
 * \brief Throws DatasetError naming the first of the four IDX files missing from `directory`
 * (plain or .gz) and how to get them; only checks that they exist.
 * \param directory the folder
 */
void CheckFashionMnistFiles(const std::string& directory);

/// Bytes of one CIFAR-10 record: a label byte, then 3 x 32 x 32 pixel bytes.
constexpr size_t kCifar10RecordBytes = 1 + 3 * 32 * 32;

/// \return the files of CIFAR-10's binary version: the five training batches, in order
std::vector<std::string> Cifar10TrainFiles();

/// The file of CIFAR-10's binary version that holds the test set.
constexpr const char* kCifar10TestFile = "test_batch.bin";

/**
 * The folder holding CIFAR-10's files: `directory` itself, or its subfolder cifar-10-batches-bin
 * (the folder the archive unpacks to) when only that one holds them.
 * \param directory the folder a scenario names
 * \return the folder holding the files
 */
std::string FindCifar10Directory(const std::string& directory);

/**
 * \brief Throws DatasetError naming the first of the six files missing from
 * FindCifar10Directory(directory) and how to get them; only checks that they exist.
 * \param directory the folder a scenario names
 */
void CheckCifar10Files(const std::string& directory);

/**
 * Read CIFAR-10 batch files of the binary version, in the order given, into one dataset named
 * `name`: 3 x 32 x 32 images, channel-major (the 1024 red pixels row by row, then green, then
 * blue), exactly as the records store them, scaled to [0, 1]; not normalised. Throws DatasetError
 * naming the file when it is missing or not a regular file, its size is not a positive multiple
 * of 3073 bytes (or above 1 GiB), or a record's label is above 9 (naming the record).
 * \param paths the batch files
 * \param name the dataset's name
 * \return their records
 */
std::shared_ptr<Dataset> ReadCifar10Files(const std::vector<std::string>& paths,
                                          const std::string& name);

/**
 * Load CIFAR-10's binary version from `directory` (see FindCifar10Directory): the training set is
 * data_batch_1.bin to data_batch_5.bin in this order (sample i of the training set is record
 * i mod 10000 of batch i / 10000 + 1 with the real files), the test set test_batch.bin.
 * Normalization::Mode::Dataset uses the per-channel mean and standard deviation of the training
 * set as read (ChannelStatistics).
 * \param directory the folder
 * \param how the normalisation
 * \return the training and test sets
 */
DatasetSplit LoadCifar10(const std::string& directory, const Normalization& how = Normalization());

} // namespace dlsim

#endif // DLSIM_IDX_READER_H
