/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "idx-reader.h"

#include <fstream>
#include <zlib.h>

namespace ns3
{

namespace
{

const char* kHowToGetData = "install Debian's package dataset-fashion-mnist (apt-get install "
                            "dataset-fashion-mnist) or point dataset.path at a directory with "
                            "the IDX files";

// Fashion-MNIST's training-set pixel statistics after scaling to [0, 1].
constexpr float kFashionMnistMean = 0.2860f;
constexpr float kFashionMnistStd = 0.3530f;

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

bool
FileExists(const std::string& path)
{
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

IdxArray
ReadIdxFile(const std::string& path)
{
    GzFile file(path);
    if (!file.IsOpen())
    {
        throw DatasetError("cannot open IDX file " + path + ": " + kHowToGetData);
    }
    uint8_t magic[4];
    if (file.Read(magic, 4) != 4)
    {
        throw DatasetError("IDX file " + path + " is truncated (no header): " + kHowToGetData);
    }
    if (magic[0] != 0 || magic[1] != 0 || magic[2] != 0x08 || magic[3] == 0 || magic[3] > 4)
    {
        throw DatasetError("file " + path
                           + " is not an IDX file of unsigned bytes (bad magic number)");
    }
    IdxArray result;
    size_t count = 1;
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
        count *= dim;
    }
    result.data.resize(count);
    long got = file.Read(result.data.data(), count);
    if (got < 0)
    {
        throw DatasetError("IDX file " + path
                           + " is corrupt (decompression failed): " + kHowToGetData);
    }
    if (static_cast<size_t>(got) != count)
    {
        throw DatasetError("IDX file " + path + " is truncated: its header announces "
                           + std::to_string(count) + " bytes of data but it holds "
                           + std::to_string(got) + "; " + kHowToGetData);
    }
    return result;
}

namespace
{

std::shared_ptr<Dataset>
LoadIdxPair(const std::string& directory, const std::string& prefix)
{
    std::string imagesPath = FindIdxFile(directory, prefix + "-images-idx3-ubyte");
    std::string labelsPath = FindIdxFile(directory, prefix + "-labels-idx1-ubyte");
    IdxArray images = ReadIdxFile(imagesPath);
    IdxArray labels = ReadIdxFile(labelsPath);
    if (images.dims.size() != 3)
    {
        throw DatasetError("IDX file " + imagesPath + " should hold 3-D images (N x H x W)");
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
    data->images.resize(images.data.size());
    for (size_t i = 0; i < images.data.size(); ++i)
    {
        data->images[i] = (images.data[i] / 255.0f - kFashionMnistMean) / kFashionMnistStd;
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
    DatasetSplit split;
    split.train = LoadIdxPair(directory, "train");
    split.test = LoadIdxPair(directory, "t10k");
    return split;
}

} // namespace ns3
