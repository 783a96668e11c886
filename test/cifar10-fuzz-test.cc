// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: CIFAR-10's reader on hostile files, run under AddressSanitizer and UBSan: every
 * truncation of a small batch and thousands of seeded corruptions are either read or refused
 * with a DatasetError, never a crash or an out-of-bounds access.
 */
#include "dataset.h"
#include "idx-reader.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <unistd.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

void
WriteBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(Cifar10Fuzz, TruncatedAndCorruptedBatchesAreReadOrRefused)
{
    const fs::path dir
        = fs::temp_directory_path() / ("dlsim-cifar-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::string batch;
    for (int r = 0; r < 3; ++r)
    {
        batch.push_back(static_cast<char>(r));
        for (int k = 0; k < 3072; ++k)
        {
            batch.push_back(static_cast<char>((r * 3 + k) % 256));
        }
    }
    const std::string path = (dir / "batch.bin").string();
    size_t read = 0;
    size_t refused = 0;
    auto attempt = [&](const std::string& bytes)
    {
        WriteBytes(path, bytes);
        try
        {
            std::shared_ptr<Dataset> data = ReadCifar10Files({path}, "fuzz");
            ASSERT_EQ(data->images.size(), data->Size() * 3072);
            for (int64_t label : data->labels)
            {
                ASSERT_LT(label, 10);
            }
            ++read;
        }
        catch (const DatasetError&)
        {
            ++refused;
        }
    };
    // Every cut at a record boundary and around it.
    for (size_t cut = 0; cut <= batch.size();
         cut += (cut % 3073 < 2 || cut % 3073 > 3070) ? 1 : 257)
    {
        attempt(batch.substr(0, cut));
    }
    // Seeded corruptions: random bytes overwritten, appended or removed.
    std::mt19937_64 rng(7);
    for (int i = 0; i < 2000; ++i)
    {
        std::string bytes = batch;
        switch (rng() % 3)
        {
            case 0:
                for (int k = 0; k < 4; ++k)
                {
                    bytes[rng() % bytes.size()] = static_cast<char>(rng());
                }
                break;
            case 1:
                bytes.append(rng() % 7000, static_cast<char>(rng()));
                break;
            default:
                bytes.resize(rng() % bytes.size());
                break;
        }
        attempt(bytes);
    }
    std::cout << "CIFAR-10 fuzz: " << read << " files read, " << refused << " refused" << std::endl;
    EXPECT_GT(read, 0u);
    EXPECT_GT(refused, 0u);
    fs::remove_all(dir);
}

} // namespace
} // namespace ns3
