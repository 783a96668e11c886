// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Multilevel 1-D DWT / inverse DWT compatible with PyWavelets (mode
 * "symmetric"). See wavelet-transform.h for the contract.
 *
 * Implementation notes. Both directions are written in polyphase form so that
 * every filter tap becomes one contiguous, vectorizable Eigen axpy:
 *  - Forward: pywt computes out[k] = sum_j h[j] * ext[2k + 1 - j + (F - 1)]
 *    over the symmetric extension ext of the input (F - 1 values each side).
 *    Splitting ext into its even and odd samples turns the stride-2
 *    convolution into F shifted contiguous segments.
 *  - Inverse: pywt's upsampling_convolution_valid_sf produces the even and
 *    odd output samples from the even and odd filter taps respectively, again
 *    contiguous segments of cA and cD; the two phases are interleaved last.
 * The outputs are processed in blocks of kBlock values so that the segments
 * read by all taps of a block stay in L1 cache.
 */

#include "wavelet-transform.h"

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <stdexcept>

namespace dlsim
{

namespace
{

/// Outputs per block; 4 double buffers of this size fit easily in L1.
constexpr std::ptrdiff_t kBlock = 512;

/// The calling thread's scratch buffers (see the class comment, Threading).
struct Scratch
{
    Eigen::VectorXd approx; //!< approximation entering/leaving a level
    Eigen::VectorXd even;   //!< even phase of the extended signal
    Eigen::VectorXd odd;    //!< odd phase of the extended signal
    Eigen::VectorXd lo;     //!< low-pass output of a level
    Eigen::VectorXd hi;     //!< high-pass output / detail input
};

/// The calling thread's scratch, grown to at least length values (the block buffer to kBlock).
Scratch&
ThreadScratch(size_t length)
{
    thread_local Scratch scratch;
    const auto n = static_cast<Eigen::Index>(length);
    if (scratch.approx.size() < n)
    {
        scratch.approx.resize(n);
        scratch.even.resize(n);
        scratch.odd.resize(n);
        scratch.lo.resize(n);
    }
    if (scratch.hi.size() < kBlock)
    {
        scratch.hi.resize(kBlock);
    }
    return scratch;
}

/**
 * The supported filter banks, copied with full precision (repr) from
 * pywt.Wavelet(name).filter_bank of PyWavelets 1.1.1. The four filters are
 * stored as pywt reports them rather than derived from dec_lo, so that no
 * sign or order convention can drift. Note that db2 and sym2 are the same
 * wavelet but pywt's tabulated values differ in the last ~12 digits; each is
 * reproduced as is.
 */
const std::vector<WaveletFilterBank>&
FilterBanks()
{
    static const std::vector<WaveletFilterBank> banks = {
        {"haar",
         {0.7071067811865476, 0.7071067811865476},
         {-0.7071067811865476, 0.7071067811865476},
         {0.7071067811865476, 0.7071067811865476},
         {0.7071067811865476, -0.7071067811865476}},
        {"db2",
         {-0.12940952255126037, 0.2241438680420134, 0.8365163037378079, 0.48296291314453416},
         {-0.48296291314453416, 0.8365163037378079, -0.2241438680420134, -0.12940952255126037},
         {0.48296291314453416, 0.8365163037378079, 0.2241438680420134, -0.12940952255126037},
         {-0.12940952255126037, -0.2241438680420134, 0.8365163037378079, -0.48296291314453416}},
        {"db4",
         {-0.010597401785069032,
          0.0328830116668852,
          0.030841381835560764,
          -0.18703481171909309,
          -0.027983769416859854,
          0.6308807679298589,
          0.7148465705529157,
          0.2303778133088965},
         {-0.2303778133088965,
          0.7148465705529157,
          -0.6308807679298589,
          -0.027983769416859854,
          0.18703481171909309,
          0.030841381835560764,
          -0.0328830116668852,
          -0.010597401785069032},
         {0.2303778133088965,
          0.7148465705529157,
          0.6308807679298589,
          -0.027983769416859854,
          -0.18703481171909309,
          0.030841381835560764,
          0.0328830116668852,
          -0.010597401785069032},
         {-0.010597401785069032,
          -0.0328830116668852,
          0.030841381835560764,
          0.18703481171909309,
          -0.027983769416859854,
          -0.6308807679298589,
          0.7148465705529157,
          -0.2303778133088965}},
        {"sym2",
         {-0.12940952255092145, 0.22414386804185735, 0.836516303737469, 0.48296291314469025},
         {-0.48296291314469025, 0.836516303737469, -0.22414386804185735, -0.12940952255092145},
         {0.48296291314469025, 0.836516303737469, 0.22414386804185735, -0.12940952255092145},
         {-0.12940952255092145, -0.22414386804185735, 0.836516303737469, -0.48296291314469025}},
        {"sym4",
         {-0.07576571478927333,
          -0.02963552764599851,
          0.49761866763201545,
          0.8037387518059161,
          0.29785779560527736,
          -0.09921954357684722,
          -0.012603967262037833,
          0.0322231006040427},
         {-0.0322231006040427,
          -0.012603967262037833,
          0.09921954357684722,
          0.29785779560527736,
          -0.8037387518059161,
          0.49761866763201545,
          0.02963552764599851,
          -0.07576571478927333},
         {0.0322231006040427,
          -0.012603967262037833,
          -0.09921954357684722,
          0.29785779560527736,
          0.8037387518059161,
          0.49761866763201545,
          -0.02963552764599851,
          -0.07576571478927333},
         {-0.07576571478927333,
          0.02963552764599851,
          0.49761866763201545,
          -0.8037387518059161,
          0.29785779560527736,
          0.09921954357684722,
          -0.012603967262037833,
          -0.0322231006040427}},
    };
    return banks;
}

/**
 * Index into a signal of length n of position i of its half-sample symmetric
 * extension (... x1 x0 | x0 x1 ... x{n-1} | x{n-1} x{n-2} ...). The
 * extension is periodic with period 2n, which also reproduces what pywt does
 * when the filter is longer than the signal (reflections of reflections).
 */
std::ptrdiff_t
Reflect(std::ptrdiff_t i, std::ptrdiff_t n)
{
    const std::ptrdiff_t period = 2 * n;
    i %= period;
    if (i < 0)
    {
        i += period;
    }
    return i < n ? i : period - 1 - i;
}

/**
 * Fill phase[p] = a[Reflect(2p + offset, n)] for p in [0, count): one
 * polyphase component of the symmetric extension of a. The interior
 * (no reflection) is a single strided Eigen copy; only the at most F - 1
 * boundary values per side go through Reflect.
 */
template<typename T>
void
FillPhase(const T* a,
          std::ptrdiff_t n,
          std::ptrdiff_t offset,
          std::ptrdiff_t count,
          Eigen::VectorXd& phase)
{
    // Interior: 0 <= 2p + offset <= n - 1.
    std::ptrdiff_t lo = offset >= 0 ? 0 : (-offset + 1) / 2;
    std::ptrdiff_t hi = n - 1 - offset >= 0 ? (n - 1 - offset) / 2 + 1 : 0;
    lo = std::min(lo, count);
    hi = std::max(lo, std::min(hi, count));
    for (std::ptrdiff_t p = 0; p < lo; ++p)
    {
        phase[p] = static_cast<double>(a[Reflect(2 * p + offset, n)]);
    }
    if (hi > lo)
    {
        using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
        using Strided = Eigen::Map<const Vector, Eigen::Unaligned, Eigen::InnerStride<2>>;
        phase.segment(lo, hi - lo) = Strided(a + 2 * lo + offset, hi - lo).template cast<double>();
    }
    for (std::ptrdiff_t p = hi; p < count; ++p)
    {
        phase[p] = static_cast<double>(a[Reflect(2 * p + offset, n)]);
    }
}

const WaveletFilterBank&
FindBank(const std::string& wavelet)
{
    for (const auto& bank : FilterBanks())
    {
        if (bank.name == wavelet)
        {
            return bank;
        }
    }
    std::ostringstream msg;
    msg << "WaveletTransform: unknown wavelet '" << wavelet << "'; known wavelets:";
    for (const auto& bank : FilterBanks())
    {
        msg << ' ' << bank.name;
    }
    throw std::invalid_argument(msg.str());
}

} // namespace

WaveletTransform::WaveletTransform(const std::string& wavelet, uint32_t levels, size_t inputLength)
    : m_bank(&FindBank(wavelet)), m_levels(levels), m_inputLength(inputLength), m_outputLength(0),
      m_scratchLength(0)
{
    if (levels == 0)
    {
        throw std::invalid_argument("WaveletTransform: levels must be >= 1");
    }
    if (inputLength == 0)
    {
        throw std::invalid_argument("WaveletTransform: input length must be >= 1");
    }
    const size_t f = m_bank->decLo.size();

    m_levelLengths.resize(levels + 1);
    m_levelLengths[0] = inputLength;
    for (uint32_t j = 0; j < levels; ++j)
    {
        // pywt.dwt_coeff_len for every mode except periodization.
        m_levelLengths[j + 1] = (m_levelLengths[j] + f - 1) / 2;
    }

    // Layout [cA_J, cD_J, ..., cD_1]: cD_{j+1} has length m_levelLengths[j+1].
    m_bandLengths.push_back(m_levelLengths[levels]);
    for (uint32_t j = levels; j >= 1; --j)
    {
        m_bandLengths.push_back(m_levelLengths[j]);
    }
    m_bandOffsets.resize(levels);
    size_t offset = m_levelLengths[levels];
    for (uint32_t j = levels; j >= 1; --j)
    {
        m_bandOffsets[j - 1] = offset;
        offset += m_levelLengths[j];
    }
    m_outputLength = offset;

    // The largest buffers are needed at the first level (or, beyond the max
    // level, where lengths settle near F, by the F-dependent terms).
    size_t maxLen = 0;
    for (size_t len : m_levelLengths)
    {
        maxLen = std::max(maxLen, len);
    }
    m_scratchLength = maxLen + f; // >= nOut + F/2 for every level
}

const std::string&
WaveletTransform::WaveletName() const
{
    return m_bank->name;
}

uint32_t
WaveletTransform::Levels() const
{
    return m_levels;
}

size_t
WaveletTransform::FilterLength() const
{
    return m_bank->decLo.size();
}

size_t
WaveletTransform::InputLength() const
{
    return m_inputLength;
}

size_t
WaveletTransform::OutputLength() const
{
    return m_outputLength;
}

const std::vector<size_t>&
WaveletTransform::BandLengths() const
{
    return m_bandLengths;
}

void
WaveletTransform::Forward(const float* x, float* coeffs) const
{
    const std::ptrdiff_t f = static_cast<std::ptrdiff_t>(m_bank->decLo.size());
    const std::ptrdiff_t half = f / 2;
    const double* h = m_bank->decLo.data();
    const double* g = m_bank->decHi.data();
    Scratch& scratch = ThreadScratch(m_scratchLength);

    for (uint32_t j = 0; j < m_levels; ++j)
    {
        const auto n = static_cast<std::ptrdiff_t>(m_levelLengths[j]);
        const auto nOut = static_cast<std::ptrdiff_t>(m_levelLengths[j + 1]);

        // ext[m] = a[Reflect(m - (F - 1))]; even phase E[p] = ext[2p],
        // odd phase O[p] = ext[2p + 1]. out[k] = sum_t h[t] ext[2k + F - t]
        // reads E[k + (F - t) / 2] for even t and O[k + (F - 1 - t) / 2]
        // for odd t (F is even for all supported wavelets).
        const std::ptrdiff_t evenLen = nOut + half;
        const std::ptrdiff_t oddLen = nOut + half - 1;
        if (j == 0)
        {
            FillPhase(x, n, 1 - f, evenLen, scratch.even);
            FillPhase(x, n, 2 - f, oddLen, scratch.odd);
        }
        else
        {
            FillPhase(scratch.approx.data(), n, 1 - f, evenLen, scratch.even);
            FillPhase(scratch.approx.data(), n, 2 - f, oddLen, scratch.odd);
        }

        // The approximation input has been consumed into the phases, so the
        // low-pass output can overwrite it and feed the next level.
        float* detail = coeffs + m_bandOffsets[j];
        for (std::ptrdiff_t b = 0; b < nOut; b += kBlock)
        {
            const std::ptrdiff_t s = std::min(kBlock, nOut - b);
            auto lo = scratch.approx.segment(b, s);
            auto hi = scratch.hi.head(s);
            lo.noalias() = h[0] * scratch.even.segment(b + half, s);
            hi.noalias() = g[0] * scratch.even.segment(b + half, s);
            for (std::ptrdiff_t t = 1; t < f; ++t)
            {
                const auto seg = (t % 2 == 0) ? scratch.even.segment(b + (f - t) / 2, s)
                                              : scratch.odd.segment(b + (f - 1 - t) / 2, s);
                lo.noalias() += h[t] * seg;
                hi.noalias() += g[t] * seg;
            }
            Eigen::Map<Eigen::VectorXf>(detail + b, s) = hi.cast<float>();
        }
    }

    const auto lenA = static_cast<Eigen::Index>(m_levelLengths[m_levels]);
    Eigen::Map<Eigen::VectorXf>(coeffs, lenA) = scratch.approx.head(lenA).cast<float>();
}

void
WaveletTransform::Inverse(const float* coeffs, float* x) const
{
    const std::ptrdiff_t f = static_cast<std::ptrdiff_t>(m_bank->recLo.size());
    const std::ptrdiff_t half = f / 2;
    const double* h = m_bank->recLo.data();
    const double* g = m_bank->recHi.data();
    Scratch& scratch = ThreadScratch(m_scratchLength);

    // Ping-pong between two double buffers for the approximation so that a
    // level can read cA from one while writing the next cA into the other.
    Eigen::VectorXd* cA = &scratch.approx;
    Eigen::VectorXd* next = &scratch.lo;
    const auto lenA = static_cast<Eigen::Index>(m_levelLengths[m_levels]);
    cA->head(lenA) = Eigen::Map<const Eigen::VectorXf>(coeffs, lenA).cast<double>();

    for (uint32_t j = m_levels; j >= 1; --j)
    {
        // Bands of length m reconstruct 2m - F + 2 >= n values; pywt.waverec
        // drops the surplus (at most one) to match the next band, we keep n.
        const auto n = static_cast<std::ptrdiff_t>(m_levelLengths[j - 1]);
        const auto m = static_cast<Eigen::Index>(m_levelLengths[j]);
        const Eigen::Map<const Eigen::VectorXf> cD(coeffs + m_bandOffsets[j - 1], m);
        const std::ptrdiff_t evenCount = (n + 1) / 2;
        const std::ptrdiff_t oddCount = n / 2;

        // out[2k]   = sum_t h[2t]   cA[k + F/2 - 1 - t] + g[2t]   cD[...]
        // out[2k+1] = sum_t h[2t+1] cA[k + F/2 - 1 - t] + g[2t+1] cD[...]
        for (std::ptrdiff_t b = 0; b < evenCount; b += kBlock)
        {
            const std::ptrdiff_t s = std::min(kBlock, evenCount - b);
            auto even = scratch.even.head(s);
            auto odd = scratch.odd.head(s);
            even.setZero();
            odd.setZero();
            for (std::ptrdiff_t t = 0; t < half; ++t)
            {
                const std::ptrdiff_t start = b + half - 1 - t;
                const auto a = cA->segment(start, s);
                const auto d = cD.segment(start, s).cast<double>();
                even.noalias() += h[2 * t] * a + g[2 * t] * d;
                odd.noalias() += h[2 * t + 1] * a + g[2 * t + 1] * d;
            }
            // Interleave the phases; the last odd sample is dropped when n is
            // odd (it is pywt's surplus value).
            const std::ptrdiff_t sOdd = std::max<std::ptrdiff_t>(0, std::min(s, oddCount - b));
            using StridedD = Eigen::Map<Eigen::VectorXd, Eigen::Unaligned, Eigen::InnerStride<2>>;
            using StridedF = Eigen::Map<Eigen::VectorXf, Eigen::Unaligned, Eigen::InnerStride<2>>;
            if (j > 1)
            {
                StridedD(next->data() + 2 * b, s) = even;
                StridedD(next->data() + 2 * b + 1, sOdd) = odd.head(sOdd);
            }
            else
            {
                StridedF(x + 2 * b, s) = even.cast<float>();
                StridedF(x + 2 * b + 1, sOdd) = odd.head(sOdd).cast<float>();
            }
        }
        std::swap(cA, next);
    }
}

std::vector<float>
WaveletTransform::Forward(const std::vector<float>& x) const
{
    if (x.size() != m_inputLength)
    {
        throw std::invalid_argument("WaveletTransform::Forward: expected "
                                    + std::to_string(m_inputLength) + " values, got "
                                    + std::to_string(x.size()));
    }
    std::vector<float> coeffs(m_outputLength);
    Forward(x.data(), coeffs.data());
    return coeffs;
}

std::vector<float>
WaveletTransform::Inverse(const std::vector<float>& coeffs) const
{
    if (coeffs.size() != m_outputLength)
    {
        throw std::invalid_argument("WaveletTransform::Inverse: expected "
                                    + std::to_string(m_outputLength) + " coefficients, got "
                                    + std::to_string(coeffs.size()));
    }
    std::vector<float> x(m_inputLength);
    Inverse(coeffs.data(), x.data());
    return x;
}

std::vector<std::string>
WaveletTransform::KnownWavelets()
{
    std::vector<std::string> names;
    for (const auto& bank : FilterBanks())
    {
        names.push_back(bank.name);
    }
    return names;
}

const WaveletFilterBank&
WaveletTransform::GetFilterBank(const std::string& wavelet)
{
    return FindBank(wavelet);
}

uint32_t
WaveletTransform::MaxLevel(const std::string& wavelet, size_t inputLength)
{
    // pywt: floor(log2(data_len / (filter_len - 1))), 0 if data_len is
    // shorter than filter_len - 1. floor(log2(q)) of the real quotient q
    // equals that of floor(q), so integer arithmetic is exact here.
    const size_t f = FindBank(wavelet).decLo.size();
    if (f < 2 || inputLength < f - 1)
    {
        return 0;
    }
    size_t q = inputLength / (f - 1);
    uint32_t level = 0;
    while (q > 1)
    {
        q >>= 1;
        ++level;
    }
    return level;
}

} // namespace dlsim
