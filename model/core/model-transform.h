// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The transform T the partial-model sharing family works in: identity or a wavelet transform.
 */
#ifndef DLSIM_MODEL_TRANSFORM_H
#define DLSIM_MODEL_TRANSFORM_H

#include <memory>
#include <string>
#include <vector>

namespace dlsim
{

class WaveletTransform;

/// A linear, invertible map from the flat model (length N) to coefficients (length L >= N).
class ModelTransform
{
  public:
    virtual ~ModelTransform() = default;
    /// \return L, the number of coefficients
    virtual size_t OutputLength() const = 0;
    /**
     * Writes into buffers the caller keeps: a sharing step runs the transform several times per
     * learner and round, and fresh vectors of L values each time cost more than the arithmetic.
     * \param x the flat model (N values)
     * \param[out] coefficients its L coefficients
     */
    virtual void Forward(const float* x, float* coefficients) const = 0;
    /**
     * \param coefficients L coefficients
     * \param[out] x the inverse, truncated to the model length N
     */
    virtual void Inverse(const float* coefficients, float* x) const = 0;
};

/**
 * Make the transform for a model of `length` parameters: wavelet "none" gives the identity,
 * any other name the multilevel DWT with that wavelet and number of levels (PyWavelets layout).
 * \param wavelet "none" or a wavelet name
 * \param levels decomposition levels
 * \param length the model's number of parameters
 * \return the transform
 */
std::unique_ptr<ModelTransform> MakeModelTransform(const std::string& wavelet,
                                                   uint32_t levels,
                                                   size_t length);

} // namespace dlsim

#endif // DLSIM_MODEL_TRANSFORM_H
