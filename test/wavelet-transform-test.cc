// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Tests of dlsim::WaveletTransform against PyWavelets reference vectors
 * (test/data/wavelet/pywt-vectors.txt, written by make-wavelet-vectors.py;
 * see that script for the file format and how the references were computed).
 */

#include "wavelet-transform.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using namespace dlsim; // the learning core (model/core)

#ifndef DLSIM_TEST_DATA_DIR
#    error "DLSIM_TEST_DATA_DIR must be defined (string path to <repo>/test/data)"
#endif

namespace ns3
{
namespace
{

/// A forward, inverse or lengths record of the reference file.
struct Case
{
    std::string wavelet;
    uint32_t level = 0;
    size_t n = 0;
    std::vector<size_t> bands;
    std::vector<double> coeffs;   //!< forward: pywt coeffs; inverse: input coeffs
    std::vector<float> coeffsF;   //!< inverse: the same coefficients as float32
    std::vector<double> expected; //!< inverse: pywt.waverec(...)[:n]
};

struct MaxLevelRecord
{
    std::string wavelet;
    size_t n;
    uint32_t level;
};

struct ReferenceData
{
    std::map<std::string, std::vector<std::vector<double>>> filters; //!< name -> 4 filters
    std::map<size_t, std::vector<float>> inputs;
    std::vector<MaxLevelRecord> maxLevels;
    std::vector<Case> forward;
    std::vector<Case> inverse;
    std::vector<Case> lengths;
    std::string error; //!< non-empty if the file could not be read
};

std::string
DataPath()
{
    return std::string(DLSIM_TEST_DATA_DIR) + "/wavelet/pywt-vectors.txt";
}

/// Reads "<wavelet> <level> <n> <nbands> <bands...>", common to three records.
void
ReadCaseHeader(std::istringstream& in, Case& c)
{
    size_t nbands = 0;
    in >> c.wavelet >> c.level >> c.n >> nbands;
    c.bands.resize(nbands);
    for (auto& b : c.bands)
    {
        in >> b;
    }
}

template<typename T>
std::vector<T>
ReadCountedValues(std::istringstream& in)
{
    size_t count = 0;
    in >> count;
    std::vector<T> values(count);
    for (auto& v : values)
    {
        // Via strtod/strtof so that %.9g float32 values round-trip exactly.
        std::string token;
        in >> token;
        v = std::is_same<T, float>::value ? std::strtof(token.c_str(), nullptr)
                                          : std::strtod(token.c_str(), nullptr);
    }
    return values;
}

ReferenceData
Load()
{
    ReferenceData data;
    std::ifstream file(DataPath());
    if (!file)
    {
        data.error = "cannot open " + DataPath();
        return data;
    }
    std::string line;
    while (std::getline(file, line))
    {
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::istringstream in(line);
        std::string kind;
        in >> kind;
        if (kind == "filter")
        {
            std::string name;
            size_t f = 0;
            in >> name >> f;
            std::vector<std::vector<double>> bank(4, std::vector<double>(f));
            for (auto& filter : bank)
            {
                for (auto& v : filter)
                {
                    std::string token;
                    in >> token;
                    v = std::strtod(token.c_str(), nullptr);
                }
            }
            data.filters[name] = bank;
        }
        else if (kind == "input")
        {
            // "input <N> <values>": the count doubles as the key.
            auto values = ReadCountedValues<float>(in);
            data.inputs[values.size()] = values;
        }
        else if (kind == "maxlevel")
        {
            MaxLevelRecord r;
            in >> r.wavelet >> r.n >> r.level;
            data.maxLevels.push_back(r);
        }
        else if (kind == "forward")
        {
            Case c;
            ReadCaseHeader(in, c);
            c.coeffs = ReadCountedValues<double>(in);
            data.forward.push_back(c);
        }
        else if (kind == "inverse")
        {
            Case c;
            ReadCaseHeader(in, c);
            c.coeffsF = ReadCountedValues<float>(in);
            c.expected = ReadCountedValues<double>(in);
            data.inverse.push_back(c);
        }
        else if (kind == "lengths")
        {
            Case c;
            ReadCaseHeader(in, c);
            data.lengths.push_back(c);
        }
        else
        {
            data.error = "unknown record '" + kind + "' in " + DataPath();
            return data;
        }
        if (in.fail())
        {
            data.error = "malformed '" + kind + "' record in " + DataPath();
            return data;
        }
    }
    return data;
}

/// Parsed once and shared by all tests.
const ReferenceData&
Data()
{
    static const ReferenceData data = Load();
    return data;
}

#define REQUIRE_DATA() ASSERT_TRUE(Data().error.empty()) << Data().error

std::string
Describe(const Case& c)
{
    std::ostringstream s;
    s << c.wavelet << " level=" << c.level << " N=" << c.n;
    return s.str();
}

/// Coefficient tolerance from the task: 1e-5 relative, absolute below 1.
double
Tolerance(double ref)
{
    return 1e-5 * std::max(1.0, std::fabs(ref));
}

/// Round-trip tolerance. Forward() rounds every coefficient to float32
/// (relative error 2^-24 of values of the size of the signal), and the
/// orthogonal inverse maps that error back with gain ~1, so the reconstruction
/// is off by a few float32 ulps of max|x|; 16 ulps leaves room for the sum
/// of a handful of rounded terms per output.
double
RoundTripTolerance(const std::vector<float>& x)
{
    float maxAbs = 0.0F;
    for (float v : x)
    {
        maxAbs = std::max(maxAbs, std::fabs(v));
    }
    return 16.0 * FLT_EPSILON * std::max(maxAbs, FLT_MIN);
}

TEST(WaveletTransformData, ReferenceFileLoads)
{
    REQUIRE_DATA();
    EXPECT_EQ(Data().filters.size(), 5U);
    EXPECT_GE(Data().forward.size(), 150U);
    EXPECT_GE(Data().inverse.size(), 100U);
    EXPECT_GE(Data().lengths.size(), 20U);
    EXPECT_GE(Data().maxLevels.size(), 50U);
}

TEST(WaveletTransformData, FilterBanksEqualPywtExactly)
{
    REQUIRE_DATA();
    auto known = WaveletTransform::KnownWavelets();
    for (const std::string name : {"haar", "db2", "db4", "sym2", "sym4"})
    {
        EXPECT_NE(std::find(known.begin(), known.end(), name), known.end()) << name;
    }
    for (const auto& [name, ref] : Data().filters)
    {
        const auto& bank = WaveletTransform::GetFilterBank(name);
        const std::vector<const std::vector<double>*> ours
            = {&bank.decLo, &bank.decHi, &bank.recLo, &bank.recHi};
        for (size_t i = 0; i < 4; ++i)
        {
            // repr() round-trips doubles, so the constants must match exactly.
            EXPECT_EQ(*ours[i], ref[i]) << name << " filter " << i;
        }
        EXPECT_EQ(WaveletTransform(name, 1, 10).FilterLength(), ref[0].size());
    }
}

TEST(WaveletTransform, MaxLevelMatchesPywt)
{
    REQUIRE_DATA();
    for (const auto& r : Data().maxLevels)
    {
        EXPECT_EQ(WaveletTransform::MaxLevel(r.wavelet, r.n), r.level) << r.wavelet << " N=" << r.n;
    }
}

TEST(WaveletTransform, ForwardMatchesPywt)
{
    REQUIRE_DATA();
    size_t beyondMax = 0;
    for (const auto& c : Data().forward)
    {
        SCOPED_TRACE(Describe(c));
        auto it = Data().inputs.find(c.n);
        ASSERT_NE(it, Data().inputs.end());
        const std::vector<float>& x = it->second;

        WaveletTransform wt(c.wavelet, c.level, c.n);
        ASSERT_EQ(wt.InputLength(), c.n);
        ASSERT_EQ(wt.BandLengths(), c.bands);
        ASSERT_EQ(wt.OutputLength(), c.coeffs.size());
        beyondMax += c.level > WaveletTransform::MaxLevel(c.wavelet, c.n) ? 1 : 0;

        std::vector<float> coeffs = wt.Forward(x);
        size_t bad = 0;
        for (size_t i = 0; i < coeffs.size(); ++i)
        {
            if (!(std::fabs(coeffs[i] - c.coeffs[i]) <= Tolerance(c.coeffs[i])) && bad++ < 3)
            {
                ADD_FAILURE() << "coefficient " << i << ": ours " << coeffs[i] << " pywt "
                              << c.coeffs[i];
            }
        }
        EXPECT_EQ(bad, 0U);
    }
    // The data must exercise levels that pywt only allows with a warning.
    EXPECT_GE(beyondMax, 50U);
}

TEST(WaveletTransform, InverseRestoresInput)
{
    REQUIRE_DATA();
    for (const auto& c : Data().forward)
    {
        SCOPED_TRACE(Describe(c));
        const std::vector<float>& x = Data().inputs.at(c.n);
        WaveletTransform wt(c.wavelet, c.level, c.n);
        std::vector<float> back = wt.Inverse(wt.Forward(x));
        ASSERT_EQ(back.size(), x.size());
        const double tol = RoundTripTolerance(x);
        for (size_t i = 0; i < x.size(); ++i)
        {
            ASSERT_NEAR(back[i], x[i], tol) << "index " << i;
        }
    }
}

TEST(WaveletTransform, InverseOfArbitraryCoefficientsMatchesPywt)
{
    // Coefficients that are not the image of any signal (as after
    // quantization or sparsification) check the inverse on its own.
    REQUIRE_DATA();
    for (const auto& c : Data().inverse)
    {
        SCOPED_TRACE(Describe(c));
        WaveletTransform wt(c.wavelet, c.level, c.n);
        ASSERT_EQ(wt.BandLengths(), c.bands);
        ASSERT_EQ(wt.OutputLength(), c.coeffsF.size());
        ASSERT_EQ(c.expected.size(), c.n);
        std::vector<float> x = wt.Inverse(c.coeffsF);
        for (size_t i = 0; i < x.size(); ++i)
        {
            EXPECT_NEAR(x[i], c.expected[i], Tolerance(c.expected[i])) << "index " << i;
        }
    }
}

TEST(WaveletTransform, LengthsMatchPywt)
{
    REQUIRE_DATA();
    for (const auto& c : Data().lengths)
    {
        SCOPED_TRACE(Describe(c));
        WaveletTransform wt(c.wavelet, c.level, c.n);
        EXPECT_EQ(wt.BandLengths(), c.bands);
        size_t total = 0;
        for (size_t b : c.bands)
        {
            total += b;
        }
        EXPECT_EQ(wt.OutputLength(), total);
    }
}

TEST(WaveletTransform, KnownLengthsSym2Level4)
{
    // Values from pywt.wavedec(np.zeros(N), 'sym2', level=4).
    WaveletTransform a("sym2", 4, 89834);
    EXPECT_EQ(a.BandLengths(), (std::vector<size_t>{5617, 5617, 11231, 22460, 44918}));
    EXPECT_EQ(a.OutputLength(), 89843U);

    // GN-LeNet for 28x28 inputs has 83,754 parameters.
    WaveletTransform b("sym2", 4, 83754);
    EXPECT_EQ(b.BandLengths(), (std::vector<size_t>{5237, 5237, 10471, 20940, 41878}));
    EXPECT_EQ(b.OutputLength(), 83763U);
    std::cout << "[ info     ] sym2 level 4, N=83754: bands";
    for (size_t len : b.BandLengths())
    {
        std::cout << ' ' << len;
    }
    std::cout << ", L=" << b.OutputLength() << std::endl;
}

TEST(WaveletTransform, LengthRecurrenceAndBounds)
{
    // Each level maps n to floor((n + F - 1) / 2) (checked against pywt
    // above); hence every level adds F - 2 or F - 1 values, as documented.
    for (const auto& name : WaveletTransform::KnownWavelets())
    {
        for (size_t n = 1; n <= 64; ++n)
        {
            for (uint32_t levels = 1; levels <= 10; ++levels)
            {
                WaveletTransform wt(name, levels, n);
                const size_t f = wt.FilterLength();
                size_t len = n;
                for (uint32_t j = 0; j < levels; ++j)
                {
                    len = (len + f - 1) / 2;
                    EXPECT_EQ(wt.BandLengths()[levels - j], len);
                }
                EXPECT_EQ(wt.BandLengths()[0], len);
                EXPECT_GE(wt.OutputLength(), n + levels * (f - 2));
                EXPECT_LE(wt.OutputLength(), n + levels * (f - 1));
            }
        }
    }
}

TEST(WaveletTransform, LargeRoundTripAndNoStateBetweenCalls)
{
    // A GN-LeNet-sized vector: round trip, and the reused scratch buffers must
    // not leak anything from one call into the next.
    const size_t n = 89834;
    std::mt19937 rng(7);
    std::normal_distribution<float> dist(0.0F, 0.1F);
    std::vector<float> x(n);
    std::vector<float> y(n);
    for (size_t i = 0; i < n; ++i)
    {
        x[i] = dist(rng);
        y[i] = dist(rng);
    }
    WaveletTransform wt("sym2", 4, n);
    const std::vector<float> cx = wt.Forward(x);
    const std::vector<float> cy = wt.Forward(y);
    EXPECT_EQ(wt.Forward(x), cx);
    EXPECT_EQ(WaveletTransform("sym2", 4, n).Forward(y), cy);

    const std::vector<float> bx = wt.Inverse(cx);
    const std::vector<float> by = wt.Inverse(cy);
    EXPECT_EQ(wt.Inverse(cx), bx);
    const double tol = RoundTripTolerance(x);
    for (size_t i = 0; i < n; ++i)
    {
        ASSERT_NEAR(bx[i], x[i], tol) << i;
        ASSERT_NEAR(by[i], y[i], tol) << i;
    }
}

namespace
{

/// Values in [-1, 1) from a fixed 64-bit LCG: the same on every platform, unlike <random>'s
/// distributions.
std::vector<float>
FixedSignal(size_t n, uint64_t seed)
{
    std::vector<float> x(n);
    for (float& v : x)
    {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        v = static_cast<float>(static_cast<int32_t>(seed >> 32)) * 0x1.0p-31F;
    }
    return x;
}

/// FNV-1a over the bits of every wavelet's forward and inverse transform of fixed signals.
uint64_t
TransformBitsHash()
{
    uint64_t hash = 0xcbf29ce484222325ULL;
    auto add = [&hash](const std::vector<float>& v)
    {
        const auto* bytes = reinterpret_cast<const uint8_t*>(v.data());
        for (size_t i = 0; i < v.size() * sizeof(float); ++i)
        {
            hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
        }
    };
    for (const std::string& name : WaveletTransform::KnownWavelets())
    {
        for (size_t n : {7, 1000, 10007})
        {
            for (uint32_t levels : {1U, 4U})
            {
                WaveletTransform wt(name, levels, n);
                const std::vector<float> c = wt.Forward(FixedSignal(n, n + levels));
                add(c);
                add(wt.Inverse(FixedSignal(wt.OutputLength(), n * levels)));
            }
        }
    }
    return hash;
}

} // namespace

TEST(WaveletTransform, BitsAreTheSameOnEveryInstructionSet)
{
    // The loops run on AVX2 where the CPU has it, on the x86-64 baseline elsewhere; a run's
    // results must not depend on the machine, so both must give every bit the same. The hash
    // is also fixed: the value the transform gave when it was written with Eigen's
    // expressions, which JWINS's recorded runs and figures come from.
    constexpr uint64_t kBits = 0x3c69daf4e741568cULL;
    WaveletTransform::UseBaselineKernels(true);
    const uint64_t baseline = TransformBitsHash();
    WaveletTransform::UseBaselineKernels(false);
    const uint64_t best = TransformBitsHash();
    EXPECT_EQ(baseline, best);
    EXPECT_EQ(best, kBits) << std::hex << best;
}

TEST(WaveletTransform, ErrorsUnknownWavelet)
{
    try
    {
        WaveletTransform wt("db3x", 2, 100);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("db3x"), std::string::npos) << msg;
        for (const auto& name : WaveletTransform::KnownWavelets())
        {
            EXPECT_NE(msg.find(name), std::string::npos) << msg;
        }
    }
    EXPECT_THROW(WaveletTransform::GetFilterBank("morl"), std::invalid_argument);
    EXPECT_THROW(WaveletTransform::MaxLevel("", 100), std::invalid_argument);
}

TEST(WaveletTransform, ErrorsLevelZeroAndLengthZero)
{
    EXPECT_THROW(WaveletTransform("sym2", 0, 100), std::invalid_argument);
    EXPECT_THROW(WaveletTransform("sym2", 4, 0), std::invalid_argument);
}

TEST(WaveletTransform, ErrorsWrongVectorSize)
{
    WaveletTransform wt("haar", 2, 10);
    EXPECT_THROW(wt.Forward(std::vector<float>(9)), std::invalid_argument);
    EXPECT_THROW(wt.Inverse(std::vector<float>(10)), std::invalid_argument);
    EXPECT_NO_THROW(wt.Inverse(std::vector<float>(wt.OutputLength())));
}

} // namespace
} // namespace ns3
