// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "idx-reader.h"

#include "user-file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <zlib.h>

namespace dlsim
{

namespace
{

const char* kHowToGetData = "install Debian's package dataset-fashion-mnist (apt-get install "
                            "dataset-fashion-mnist) or point dataset.path at a directory with "
                            "the IDX files";

// Fashion-MNIST's training-set pixel statistics after scaling to [0, 1].
constexpr float kFashionMnistMean = 0.2860f;
constexpr float kFashionMnistStd = 0.3530f;

// The header's dimensions are only a claim: data is read in pieces of this size and the array
// grows with what really arrives, so a short file never makes the reader allocate what the header
// announces.
constexpr size_t kReadChunkBytes = size_t(1) << 20;
// Far more data than any IDX dataset this reader is meant for (Fashion-MNIST's training images
// are 47 MB); a larger announced size is rejected before anything is read.
constexpr uint64_t kMaxIdxDataBytes = uint64_t(1) << 32;

/// RAII wrapper so every error path closes the file.
class GzFile
{
  public:
    explicit GzFile(const std::string& path) : m_file(gzopen(path.c_str(), "rb")) {}

    ~GzFile()
    {
        if (m_file)
        {
            gzclose(m_file);
        }
    }

    GzFile(const GzFile&) = delete;
    GzFile& operator=(const GzFile&) = delete;

    bool IsOpen() const
    {
        return m_file != nullptr;
    }

    /// True when the file is not gzipped and zlib passes its bytes through unchanged.
    bool IsDirect()
    {
        return gzdirect(m_file) == 1;
    }

    /// zlib's description of the last error, for messages (without the path zlib puts first).
    std::string ErrorMessage(const std::string& path)
    {
        int code = Z_OK;
        const char* message = gzerror(m_file, &code);
        if (code == Z_ERRNO)
        {
            return std::strerror(errno);
        }
        std::string text = message && *message ? message : "unknown error";
        if (text.rfind(path + ": ", 0) == 0)
        {
            text.erase(0, path.size() + 2);
        }
        return text;
    }

    /// Read up to n bytes; returns how many were read, or -1 on a stream error.
    long Read(uint8_t* buffer, size_t n)
    {
        size_t total = 0;
        while (total < n)
        {
            unsigned chunk = static_cast<unsigned>(std::min<size_t>(n - total, 1u << 30));
            int got = gzread(m_file, buffer + total, chunk);
            if (got < 0)
            {
                return -1;
            }
            if (got == 0)
            {
                break;
            }
            total += static_cast<size_t>(got);
        }
        return static_cast<long>(total);
    }

  private:
    gzFile m_file;
};

/// Whether a dataset file is there to be read (a FIFO or device in its place is refused, not
/// opened: opening a FIFO waits for a writer).
bool
FileExists(const std::string& path)
{
    if (const std::string why = UnreadableFileReason(path); !why.empty())
    {
        throw DatasetError("cannot read dataset file " + path + ": " + why);
    }
    std::ifstream f(path);
    return f.good();
}

/// The path of an IDX file in a directory, gzipped or not.
std::string
FindIdxFile(const std::string& directory, const std::string& stem)
{
    for (const std::string& candidate : {directory + "/" + stem + ".gz", directory + "/" + stem})
    {
        if (FileExists(candidate))
        {
            return candidate;
        }
    }
    throw DatasetError("dataset file " + directory + "/" + stem
                       + "[.gz] not found: " + kHowToGetData);
}

} // namespace

namespace
{

/// ReadIdxFile and ReadIdxHeader: `withData` false stops after the header.
IdxArray
ReadIdx(const std::string& path, bool withData)
{
    GzFile file(path);
    if (!file.IsOpen())
    {
        throw DatasetError("cannot open IDX file " + path + ": " + kHowToGetData);
    }
    uint8_t magic[4];
    long gotMagic = file.Read(magic, 4);
    if (gotMagic < 0)
    {
        throw DatasetError("IDX file " + path + " is unreadable or corrupt ("
                           + file.ErrorMessage(path) + "): " + kHowToGetData);
    }
    if (gotMagic != 4)
    {
        throw DatasetError("IDX file " + path + " is truncated (no header): " + kHowToGetData);
    }
    if (magic[0] != 0 || magic[1] != 0 || magic[2] != 0x08 || magic[3] == 0 || magic[3] > 4)
    {
        throw DatasetError("file " + path
                           + " is not an IDX file of unsigned bytes (bad magic number)");
    }
    IdxArray result;
    std::string shape; // "4000000 x 28 x 28", for messages
    for (int d = 0; d < magic[3]; ++d)
    {
        uint8_t b[4];
        if (file.Read(b, 4) != 4)
        {
            throw DatasetError("IDX file " + path
                               + " is truncated inside its header: " + kHowToGetData);
        }
        uint32_t dim = (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8)
                       | uint32_t(b[3]);
        result.dims.push_back(dim);
        shape += (shape.empty() ? "" : " x ") + std::to_string(dim);
    }
    // The product of four 32-bit dimensions can overflow 64 bits: check before multiplying.
    uint64_t count = 1;
    if (std::find(result.dims.begin(), result.dims.end(), 0u) != result.dims.end())
    {
        count = 0;
    }
    for (uint32_t dim : result.dims)
    {
        if (count != 0 && count > kMaxIdxDataBytes / dim)
        {
            throw DatasetError("IDX file " + path + " has an impossible header: its dimensions "
                               + shape + " make more than " + std::to_string(kMaxIdxDataBytes)
                               + " bytes of data, the most this reader loads");
        }
        count *= dim;
    }
    if (!withData)
    {
        return result;
    }
    std::string announces
        = "its header announces " + shape + " = " + std::to_string(count) + " bytes of data";
    const uint64_t headerBytes = 4 + 4 * uint64_t(magic[3]);
    const bool plain = file.IsDirect();
    const std::string holds = plain ? " but it holds " : " but decompressed it holds ";
    bool sizeChecked = false;
    if (plain)
    {
        // A plain file: its size says at once whether the data is all there.
        std::error_code ec;
        uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && size >= headerBytes)
        {
            if (size - headerBytes < count)
            {
                throw DatasetError("IDX file " + path + " is truncated: " + announces + holds
                                   + std::to_string(size - headerBytes) + "; " + kHowToGetData);
            }
            sizeChecked = true;
        }
    }
    // A gzipped file's real size is known only once it is decompressed: read and grow piece by
    // piece, and stop at the first piece that comes up short. (A plain file whose size was
    // checked above holds the data, so it can have its room at once.)
    result.data.reserve(
        static_cast<size_t>(sizeChecked ? count : std::min<uint64_t>(count, kReadChunkBytes)));
    while (result.data.size() < count)
    {
        size_t old = result.data.size();
        size_t want = static_cast<size_t>(std::min<uint64_t>(count - old, kReadChunkBytes));
        result.data.resize(old + want);
        long got = file.Read(result.data.data() + old, want);
        if (got < 0)
        {
            throw DatasetError("IDX file " + path + " is corrupt (" + file.ErrorMessage(path)
                               + "): " + kHowToGetData);
        }
        result.data.resize(old + static_cast<size_t>(got));
        if (static_cast<size_t>(got) < want)
        {
            throw DatasetError("IDX file " + path + " is truncated: " + announces + holds
                               + std::to_string(result.data.size()) + "; " + kHowToGetData);
        }
    }
    // Reading one byte more also makes zlib check the gzip trailer (CRC and length).
    uint8_t extra;
    long more = file.Read(&extra, 1);
    if (more < 0)
    {
        throw DatasetError("IDX file " + path + " is corrupt (" + file.ErrorMessage(path)
                           + "): " + kHowToGetData);
    }
    if (more > 0)
    {
        throw DatasetError("IDX file " + path + " is longer than its header says: " + announces
                           + " and more follow");
    }
    result.data.shrink_to_fit();
    return result;
}

} // namespace

IdxArray
ReadIdxFile(const std::string& path)
{
    return ReadIdx(path, true);
}

IdxArray
ReadIdxHeader(const std::string& path)
{
    return ReadIdx(path, false);
}

namespace
{

/// `withImages` false: labels and shapes only, the images' file read no further than its header.
std::shared_ptr<Dataset>
LoadIdxPair(const std::string& directory, const std::string& prefix, bool withImages)
{
    std::string imagesPath = FindIdxFile(directory, prefix + "-images-idx3-ubyte");
    std::string labelsPath = FindIdxFile(directory, prefix + "-labels-idx1-ubyte");
    IdxArray images = withImages ? ReadIdxFile(imagesPath) : ReadIdxHeader(imagesPath);
    IdxArray labels = ReadIdxFile(labelsPath);
    if (images.dims.size() != 3)
    {
        throw DatasetError("IDX file " + imagesPath + " should hold 3-D images (N x H x W)");
    }
    if (images.dims[1] == 0 || images.dims[2] == 0)
    {
        throw DatasetError("IDX file " + imagesPath + " holds images of "
                           + std::to_string(images.dims[1]) + " x " + std::to_string(images.dims[2])
                           + " pixels; both sides must be at least 1");
    }
    if (labels.dims.size() != 1 || labels.dims[0] != images.dims[0])
    {
        throw DatasetError("IDX file " + labelsPath + " should hold one label per image of "
                           + imagesPath);
    }
    auto data = std::make_shared<Dataset>();
    data->name = prefix;
    data->channels = 1;
    data->height = images.dims[1];
    data->width = images.dims[2];
    data->numClasses = 10;
    // Scaled to [0, 1] here; normalised by the caller (ApplyNormalization).
    data->images.resize(images.data.size());
    for (size_t i = 0; i < images.data.size(); ++i)
    {
        data->images[i] = images.data[i] / 255.0f;
    }
    data->labels.resize(labels.data.size());
    for (size_t i = 0; i < labels.data.size(); ++i)
    {
        if (labels.data[i] >= data->numClasses)
        {
            throw DatasetError("IDX file " + labelsPath + " has label "
                               + std::to_string(labels.data[i]) + " outside 0..9 at index "
                               + std::to_string(i));
        }
        data->labels[i] = labels.data[i];
    }
    return data;
}

} // namespace

DatasetSplit
LoadFashionMnist(const std::string& directory)
{
    return LoadFashionMnist(directory, Normalization());
}

namespace
{

DatasetSplit
LoadFashionMnist(const std::string& directory, const Normalization& how, bool withImages)
{
    std::shared_ptr<Dataset> train = LoadIdxPair(directory, "train", withImages);
    std::shared_ptr<Dataset> test = LoadIdxPair(directory, "t10k", withImages);
    // (x - 0.2860f) / 0.3530f in float32: the values the loader always produced.
    ApplyNormalization(*train, *test, how, {kFashionMnistMean}, {kFashionMnistStd});
    DatasetSplit split;
    split.train = train;
    split.test = test;
    return split;
}

} // namespace

DatasetSplit
LoadFashionMnist(const std::string& directory, const Normalization& how)
{
    return LoadFashionMnist(directory, how, true);
}

DatasetSplit
LoadFashionMnistLabels(const std::string& directory, const Normalization& how)
{
    return LoadFashionMnist(directory, how, false);
}

void
CheckFashionMnistFiles(const std::string& directory)
{
    for (const char* stem : {"train-images-idx3-ubyte",
                             "train-labels-idx1-ubyte",
                             "t10k-images-idx3-ubyte",
                             "t10k-labels-idx1-ubyte"})
    {
        FindIdxFile(directory, stem);
    }
}

namespace
{

const char* kCifar10HowToGetData
    = "Debian does not package CIFAR-10: on a machine with internet access, download the "
      "\"CIFAR-10 binary version\" (cifar-10-binary.tar.gz, about 160 MB) from the dataset "
      "authors' page at the University of Toronto, unpack it (tar xzf cifar-10-binary.tar.gz), "
      "copy the folder cifar-10-batches-bin it makes to this machine and point dataset.path at "
      "it (or at the folder that holds it)";

constexpr size_t kCifar10Pixels = kCifar10RecordBytes - 1;
// A real batch has 10,000 records (30.7 MB); a file far larger is not one.
constexpr uintmax_t kMaxCifar10FileBytes = uintmax_t(1) << 30;

/// The number of records of a batch file, after checking that it can be one.
size_t
Cifar10Records(const std::string& path)
{
    std::error_code ec;
    std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
    {
        throw DatasetError("CIFAR-10 file " + path + " not found: " + kCifar10HowToGetData);
    }
    if (!std::filesystem::is_regular_file(status))
    {
        throw DatasetError("CIFAR-10 file " + path + " is not a regular file");
    }
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec)
    {
        throw DatasetError("cannot read CIFAR-10 file " + path + ": " + ec.message());
    }
    if (size == 0 || size % kCifar10RecordBytes != 0)
    {
        throw DatasetError("CIFAR-10 file " + path + " has " + std::to_string(size)
                           + " bytes, not a whole number of 3073-byte records (1 label byte and "
                             "3 x 32 x 32 pixel bytes): it is not a batch of CIFAR-10's binary "
                             "version (the Python and MATLAB versions are other formats)");
    }
    if (size > kMaxCifar10FileBytes)
    {
        throw DatasetError("CIFAR-10 file " + path + " has " + std::to_string(size)
                           + " bytes, more than the " + std::to_string(kMaxCifar10FileBytes)
                           + " this reader loads (a real batch has 30,730,000)");
    }
    return static_cast<size_t>(size / kCifar10RecordBytes);
}

} // namespace

std::vector<std::string>
Cifar10TrainFiles()
{
    return {"data_batch_1.bin",
            "data_batch_2.bin",
            "data_batch_3.bin",
            "data_batch_4.bin",
            "data_batch_5.bin"};
}

std::string
FindCifar10Directory(const std::string& directory)
{
    const std::string nested = directory + "/cifar-10-batches-bin";
    if (!FileExists(directory + "/" + Cifar10TrainFiles().front())
        && FileExists(nested + "/" + Cifar10TrainFiles().front()))
    {
        return nested;
    }
    return directory;
}

void
CheckCifar10Files(const std::string& directory)
{
    const std::string folder = FindCifar10Directory(directory);
    std::vector<std::string> files = Cifar10TrainFiles();
    files.push_back(kCifar10TestFile);
    for (const auto& file : files)
    {
        if (!FileExists(folder + "/" + file))
        {
            throw DatasetError("CIFAR-10 file " + folder + "/" + file
                               + " not found: " + kCifar10HowToGetData);
        }
    }
}

std::shared_ptr<Dataset>
ReadCifar10Files(const std::vector<std::string>& paths, const std::string& name)
{
    auto data = std::make_shared<Dataset>();
    data->name = name;
    data->channels = 3;
    data->height = 32;
    data->width = 32;
    data->numClasses = 10;
    // Every file is checked before any is read, and the arrays get their room at once.
    size_t total = 0;
    for (const auto& path : paths)
    {
        total += Cifar10Records(path);
    }
    data->labels.reserve(total);
    data->images.reserve(total * kCifar10Pixels);
    std::vector<uint8_t> bytes;
    for (const auto& path : paths)
    {
        const size_t records = Cifar10Records(path);
        bytes.resize(records * kCifar10RecordBytes);
        std::ifstream in(path, std::ios::binary);
        if (!in)
        {
            throw DatasetError("cannot open CIFAR-10 file " + path + ": " + std::strerror(errno));
        }
        in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (static_cast<size_t>(in.gcount()) != bytes.size())
        {
            throw DatasetError("CIFAR-10 file " + path + " could be read only up to byte "
                               + std::to_string(in.gcount()) + " of "
                               + std::to_string(bytes.size()));
        }
        for (size_t r = 0; r < records; ++r)
        {
            const uint8_t* record = bytes.data() + r * kCifar10RecordBytes;
            if (record[0] >= data->numClasses)
            {
                throw DatasetError("CIFAR-10 file " + path + ": record " + std::to_string(r)
                                   + " (at byte " + std::to_string(r * kCifar10RecordBytes)
                                   + ") has label " + std::to_string(record[0])
                                   + "; CIFAR-10's labels are 0 to 9 (CIFAR-100's binary "
                                     "version, with two label bytes per record, is another "
                                     "format)");
            }
            data->labels.push_back(record[0]);
            for (size_t k = 1; k <= kCifar10Pixels; ++k)
            {
                data->images.push_back(record[k] / 255.0f);
            }
        }
    }
    return data;
}

DatasetSplit
LoadCifar10(const std::string& directory, const Normalization& how)
{
    CheckCifar10Files(directory);
    const std::string folder = FindCifar10Directory(directory);
    std::vector<std::string> trainPaths;
    for (const auto& file : Cifar10TrainFiles())
    {
        trainPaths.push_back(folder + "/" + file);
    }
    std::shared_ptr<Dataset> train = ReadCifar10Files(trainPaths, "cifar10-train");
    std::shared_ptr<Dataset> test
        = ReadCifar10Files({folder + "/" + kCifar10TestFile}, "cifar10-test");
    std::vector<float> mean;
    std::vector<float> stddev;
    if (how.mode == Normalization::Mode::Dataset)
    {
        ChannelStatistics(*train, mean, stddev);
        for (size_t c = 0; c < stddev.size(); ++c)
        {
            if (!(stddev[c] > 0.0f))
            {
                throw DatasetError("CIFAR-10 in " + folder + ": channel " + std::to_string(c)
                                   + " of the training set is constant, so it cannot be "
                                     "normalised with its own statistics; use "
                                     "dataset.normalize = fixed or none");
            }
        }
    }
    ApplyNormalization(*train, *test, how, mean, stddev);
    DatasetSplit split;
    split.train = train;
    split.test = test;
    return split;
}

} // namespace dlsim
