// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Multilevel 1-D discrete wavelet transform (DWT) and its inverse, bit-for-bit
 * compatible in layout (and to float rounding in value) with PyWavelets:
 *
 *   Forward == pywt.coeffs_to_array(
 *                  pywt.wavedec(x, wavelet, mode='symmetric', level=J))[0]
 *   Inverse == pywt.waverec(<the same bands>, wavelet, mode='symmetric')[:N]
 *
 * Depends only on Eigen and the standard library, so it can be unit-tested
 * and benchmarked without ns-3.
 */

#ifndef DLSIM_WAVELET_TRANSFORM_H
#define DLSIM_WAVELET_TRANSFORM_H

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dlsim
{

/**
 * Analysis and synthesis filters of an orthogonal wavelet, exactly as
 * PyWavelets reports them in pywt.Wavelet(name).filter_bank (same order of
 * taps, same double values).
 */
struct WaveletFilterBank
{
    std::string name;          //!< PyWavelets name, e.g. "sym2"
    std::vector<double> decLo; //!< decomposition low-pass filter
    std::vector<double> decHi; //!< decomposition high-pass filter
    std::vector<double> recLo; //!< reconstruction low-pass filter
    std::vector<double> recHi; //!< reconstruction high-pass filter
};

/**
 * Multilevel 1-D DWT with PyWavelets' "symmetric" boundary mode (half-sample
 * symmetric extension, pywt's default) for a fixed wavelet, number of levels
 * and input length.
 *
 * Sizes. With a filter of length F, every level maps n values to
 * floor((n + F - 1) / 2) approximation and as many detail coefficients. The
 * flat coefficient array has length L = OutputLength() >= N and the layout
 * [cA_J, cD_J, cD_{J-1}, ..., cD_1] (coarsest first), whose band lengths are
 * given by BandLengths(). Example: N = 89834, sym2, J = 4 gives bands
 * 5617, 5617, 11231, 22460, 44918 and L = 89843.
 *
 * Any N >= 1 and any J >= 1 are accepted, including J beyond
 * MaxLevel() (pywt.dwt_max_level), which pywt allows with a warning. Bands
 * then stop shrinking: n -> floor((n + F - 1) / 2) has the fixed points
 * F - 2 and F - 1, and an input shorter than F - 2 even grows (N = 1 with
 * db4 gives 4, then 5, then 6 coefficients per band). In every case a level
 * replaces n values by n + F - 2 (n even) or n + F - 1 (n odd) values, so
 * N + J (F - 2) <= L <= N + J (F - 1).
 *
 * Precision. Input and output are float32 (model parameters); internally the
 * transform runs in double so that a forward/inverse round trip restores the
 * input to float rounding and the coefficients match pywt's float64 result.
 *
 * Threading. Forward() and Inverse() may run concurrently, on one instance
 * or many. Their scratch buffers belong to the calling thread, not to the
 * object: a run holds one transform per learner (a thousand learners, a
 * thousand transforms), and per-object buffers of several times the model's
 * size each would cost gigabytes and come cold from memory on every call.
 * A thread's buffers grow to the largest transform it has run and are then
 * reused, so the hot path does not allocate.
 */
class WaveletTransform
{
  public:
    /**
     * @param wavelet PyWavelets name; one of KnownWavelets()
     * @param levels number of decomposition levels J (>= 1)
     * @param inputLength signal length N (>= 1)
     * @throws std::invalid_argument for an unknown wavelet (the message names
     *         it and the known ones), levels == 0 or inputLength == 0
     */
    WaveletTransform(const std::string& wavelet, uint32_t levels, size_t inputLength);

    /** @return the wavelet name given to the constructor */
    const std::string& WaveletName() const;
    /** @return the number of decomposition levels J */
    uint32_t Levels() const;
    /** @return the filter length F of the wavelet */
    size_t FilterLength() const;
    /** @return the input (and reconstructed) signal length N */
    size_t InputLength() const;
    /** @return the flat coefficient array length L (sum of BandLengths()) */
    size_t OutputLength() const;
    /** @return [len cA_J, len cD_J, len cD_{J-1}, ..., len cD_1] */
    const std::vector<size_t>& BandLengths() const;

    /**
     * Forward multilevel DWT.
     * @param x the N input values
     * @param coeffs receives the L coefficients in the layout above
     */
    void Forward(const float* x, float* coeffs) const;

    /**
     * Run the transforms' loops on the x86-64 baseline's instructions even where the CPU has
     * AVX2 (for the whole process; by default each CPU runs its best). Both give the same bits,
     * and this switch is what lets a test show it.
     * @param baseline true for the baseline's loops, false for the CPU's best
     */
    static void UseBaselineKernels(bool baseline);

    /**
     * Inverse multilevel DWT. Any coefficient array is accepted (e.g. a
     * quantized or sparsified one), not only the output of Forward().
     * @param coeffs the L coefficients in the layout above
     * @param x receives the N reconstructed values (pywt.waverec may produce
     *          one extra value for odd lengths; it is dropped)
     */
    void Inverse(const float* coeffs, float* x) const;

    /**
     * Forward multilevel DWT.
     * @param x the N input values
     * @return the L coefficients
     * @throws std::invalid_argument if x.size() != N
     */
    std::vector<float> Forward(const std::vector<float>& x) const;
    /**
     * Inverse multilevel DWT.
     * @param coeffs the L coefficients
     * @return the N reconstructed values
     * @throws std::invalid_argument if coeffs.size() != L
     */
    std::vector<float> Inverse(const std::vector<float>& coeffs) const;

    /** @return the names of the supported wavelets */
    static std::vector<std::string> KnownWavelets();

    /**
     * @param wavelet PyWavelets name
     * @return its filter bank, as in pywt.Wavelet(wavelet).filter_bank
     * @throws std::invalid_argument for an unknown wavelet
     */
    static const WaveletFilterBank& GetFilterBank(const std::string& wavelet);

    /**
     * Same as pywt.dwt_max_level(inputLength, wavelet): the deepest level at
     * which some coefficient is still free of boundary effects. Only advisory;
     * the constructor accepts deeper levels.
     * @param wavelet PyWavelets name
     * @param inputLength signal length N
     * @return the level
     * @throws std::invalid_argument for an unknown wavelet
     */
    static uint32_t MaxLevel(const std::string& wavelet, size_t inputLength);

  private:
    const WaveletFilterBank* m_bank; //!< the wavelet's filters (static storage)
    uint32_t m_levels;               //!< J
    size_t m_inputLength;            //!< N
    size_t m_outputLength;           //!< L
    std::vector<size_t> m_bandLengths;
    /** m_levelLengths[j] = signal length entering level j + 1 (j = 0..J);
     *  m_levelLengths[0] = N and m_levelLengths[J] = len cA_J. */
    std::vector<size_t> m_levelLengths;
    /** m_bandOffsets[j] = offset of cD_{j+1} in the flat array (j = 0..J-1). */
    std::vector<size_t> m_bandOffsets;
    /** Length of the scratch buffers (approximation, phases, low-pass output) that the first,
     *  largest level needs. */
    size_t m_scratchLength;
};

} // namespace dlsim

#endif // DLSIM_WAVELET_TRANSFORM_H
