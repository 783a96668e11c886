// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Multilevel 1-D DWT / inverse DWT compatible with PyWavelets (mode
 * "symmetric"). See wavelet-transform.h for the contract.
 *
 * Implementation notes. Both directions are written in polyphase form so that
 * every filter tap reads a contiguous, shifted segment and a level is one
 * vectorizable loop over its outputs:
 *  - Forward: pywt computes out[k] = sum_j h[j] * ext[2k + 1 - j + (F - 1)]
 *    over the symmetric extension ext of the input (F - 1 values each side).
 *    Splitting ext into its even and odd samples turns the stride-2
 *    convolution into F shifted contiguous segments.
 *  - Inverse: pywt's upsampling_convolution_valid_sf produces the even and
 *    odd output samples from the even and odd filter taps respectively, again
 *    contiguous segments of cA and cD, interleaved as they are written.
 * The level loops are compiled twice, for the x86-64 baseline and for AVX2,
 * and the CPU picks; both sum every output's products in the same order, and
 * no multiply-add is fused (CMakeLists.txt), so both give the same bits.
 */

#include "wavelet-transform.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <sstream>
#include <stdexcept>

namespace dlsim
{

namespace
{

/// The calling thread's scratch buffers (see the class comment, Threading).
struct Scratch
{
    Eigen::VectorXd approx; //!< approximation entering/leaving a level
    Eigen::VectorXd even;   //!< even phase of the extended signal
    Eigen::VectorXd odd;    //!< odd phase of the extended signal
    Eigen::VectorXd lo;     //!< the inverse's next approximation
};

/// The calling thread's scratch, grown to at least length values.
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

/**
 * One level of the forward transform for a filter of F taps (every supported wavelet has 2, 4
 * or 8), from the polyphase components of
 * the extended signal: lo[k] = sum_t h[t] ext[2k + F - t] (the next level's approximation) and
 * detail[k] = the same with g, where ext[2k + F - t] is even[k + (F - t) / 2] for even t and
 * odd[k + (F - 1 - t) / 2] for odd t. F is a constant, so the taps unroll and each output is
 * one pass over the inputs, the products summed in tap order (the results do not depend on how
 * the loop is vectorized: every lane does the same operations in the same order).
 */
template<int F>
inline __attribute__((always_inline)) void
ForwardLevelKernel(const double* __restrict even,
                   const double* __restrict odd,
                   const double* __restrict h,
                   const double* __restrict g,
                   std::ptrdiff_t count,
                   double* __restrict lo,
                   float* __restrict detail)
{
    for (std::ptrdiff_t k = 0; k < count; ++k)
    {
        double l = h[0] * even[k + F / 2];
        double d = g[0] * even[k + F / 2];
        for (int t = 1; t < F; ++t)
        {
            const double v = (t % 2 == 0) ? even[k + (F - t) / 2] : odd[k + (F - 1 - t) / 2];
            l += h[t] * v;
            d += g[t] * v;
        }
        lo[k] = l;
        detail[k] = static_cast<float>(d);
    }
}

/**
 * One level of the inverse for a filter of F taps: out[2i] = sum_t (h[2t] a[i + F/2 - 1 - t]
 * + g[2t] d[i + F/2 - 1 - t]) and out[2i + 1] the same with the odd taps, summed in tap order
 * from zero; `evenCount` even and `oddCount` odd outputs (oddCount is evenCount or one less),
 * written interleaved to out.
 */
template<int F, typename Out>
inline __attribute__((always_inline)) void
InverseLevelKernel(const double* __restrict a,
                   const float* __restrict d,
                   const double* __restrict h,
                   const double* __restrict g,
                   std::ptrdiff_t evenCount,
                   std::ptrdiff_t oddCount,
                   Out* __restrict out)
{
    constexpr int half = F / 2;
    auto pair = [&](std::ptrdiff_t i, double& e, double& o)
    {
        e = 0.0;
        o = 0.0;
        for (int t = 0; t < half; ++t)
        {
            const double av = a[i + half - 1 - t];
            const double dv = static_cast<double>(d[i + half - 1 - t]);
            e += h[2 * t] * av + g[2 * t] * dv;
            o += h[2 * t + 1] * av + g[2 * t + 1] * dv;
        }
    };
    for (std::ptrdiff_t i = 0; i < oddCount; ++i)
    {
        double e;
        double o;
        pair(i, e, o);
        out[2 * i] = static_cast<Out>(e);
        out[2 * i + 1] = static_cast<Out>(o);
    }
    for (std::ptrdiff_t i = oddCount; i < evenCount; ++i)
    {
        double e;
        double o;
        pair(i, e, o);
        out[2 * i] = static_cast<Out>(e); // the odd sample past the end is pywt's surplus
    }
}

/// A forward level's kernel for one filter length and instruction set.
using ForwardLevelFn = void (*)(
    const double*, const double*, const double*, const double*, std::ptrdiff_t, double*, float*);
/// An inverse level's kernel for one filter length and instruction set, writing Out.
template<typename Out>
using InverseLevelFn = void (*)(const double*,
                                const float*,
                                const double*,
                                const double*,
                                std::ptrdiff_t,
                                std::ptrdiff_t,
                                Out*);

/**
 * The kernels compiled for one instruction set: NAME##Forward<F> and NAME##Inverse<F, Out>,
 * with ATTRIBUTES (a target) on both. Expanded once for the x86-64 baseline (2 doubles a
 * vector) and once for AVX2 (4).
 */
#define DLSIM_WAVELET_KERNELS(NAME, ATTRIBUTES)                      \
    template<int F>                                                  \
    ATTRIBUTES void NAME##Forward(const double* even,                \
                                  const double* odd,                 \
                                  const double* h,                   \
                                  const double* g,                   \
                                  std::ptrdiff_t count,              \
                                  double* lo,                        \
                                  float* detail)                     \
    {                                                                \
        ForwardLevelKernel<F>(even, odd, h, g, count, lo, detail);   \
    }                                                                \
    template<int F, typename Out>                                    \
    ATTRIBUTES void NAME##Inverse(const double* a,                   \
                                  const float* d,                    \
                                  const double* h,                   \
                                  const double* g,                   \
                                  std::ptrdiff_t evenCount,          \
                                  std::ptrdiff_t oddCount,           \
                                  Out* out)                          \
    {                                                                \
        InverseLevelKernel<F>(a, d, h, g, evenCount, oddCount, out); \
    }

DLSIM_WAVELET_KERNELS(Baseline, )
#if defined(__GNUC__) && defined(__x86_64__)
#    define DLSIM_WAVELET_AVX2 1
DLSIM_WAVELET_KERNELS(Avx2, __attribute__((target("avx2"))))
#endif
#undef DLSIM_WAVELET_KERNELS

/// Set by WaveletTransform::UseBaselineKernels.
std::atomic<bool> g_baselineKernels{false};

/// Whether to run the AVX2 kernels: the CPU has AVX2 (asked once) and no test said otherwise.
bool
UseAvx2()
{
#ifdef DLSIM_WAVELET_AVX2
    static const bool avx2 = []()
    {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return avx2 && !g_baselineKernels.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

/// \return the forward kernel for F taps (2, 4 or 8) on the best instruction set this CPU has
template<int F>
ForwardLevelFn
ForwardKernelFor()
{
#ifdef DLSIM_WAVELET_AVX2
    if (UseAvx2())
    {
        return &Avx2Forward<F>;
    }
#endif
    return &BaselineForward<F>;
}

/// \return the inverse kernel for F taps on the best instruction set this CPU has
template<int F, typename Out>
InverseLevelFn<Out>
InverseKernelFor()
{
#ifdef DLSIM_WAVELET_AVX2
    if (UseAvx2())
    {
        return &Avx2Inverse<F, Out>;
    }
#endif
    return &BaselineInverse<F, Out>;
}

/// \return the forward kernel for a filter of f taps
ForwardLevelFn
ForwardKernel(std::ptrdiff_t f)
{
    switch (f)
    {
        case 2:
            return ForwardKernelFor<2>();
        case 4:
            return ForwardKernelFor<4>();
        default:
            return ForwardKernelFor<8>();
    }
}

/// \return the inverse kernel for a filter of f taps, writing Out
template<typename Out>
InverseLevelFn<Out>
InverseKernel(std::ptrdiff_t f)
{
    switch (f)
    {
        case 2:
            return InverseKernelFor<2, Out>();
        case 4:
            return InverseKernelFor<4, Out>();
        default:
            return InverseKernelFor<8, Out>();
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
    const ForwardLevelFn forwardLevel = ForwardKernel(f);
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
        forwardLevel(scratch.even.data(),
                     scratch.odd.data(),
                     h,
                     g,
                     nOut,
                     scratch.approx.data(),
                     coeffs + m_bandOffsets[j]);
    }

    const auto lenA = static_cast<Eigen::Index>(m_levelLengths[m_levels]);
    Eigen::Map<Eigen::VectorXf>(coeffs, lenA) = scratch.approx.head(lenA).cast<float>();
}

void
WaveletTransform::Inverse(const float* coeffs, float* x) const
{
    const std::ptrdiff_t f = static_cast<std::ptrdiff_t>(m_bank->recLo.size());
    const double* h = m_bank->recLo.data();
    const double* g = m_bank->recHi.data();
    const InverseLevelFn<double> innerLevel = InverseKernel<double>(f);
    const InverseLevelFn<float> lastLevel = InverseKernel<float>(f);
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
        const float* cD = coeffs + m_bandOffsets[j - 1];
        const std::ptrdiff_t evenCount = (n + 1) / 2;
        const std::ptrdiff_t oddCount = n / 2;

        if (j > 1)
        {
            innerLevel(cA->data(), cD, h, g, evenCount, oddCount, next->data());
        }
        else
        {
            lastLevel(cA->data(), cD, h, g, evenCount, oddCount, x);
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

void
WaveletTransform::UseBaselineKernels(bool baseline)
{
    g_baselineKernels.store(baseline, std::memory_order_relaxed);
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
