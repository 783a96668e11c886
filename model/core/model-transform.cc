// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "model-transform.h"

#include "wavelet-transform.h"

#include <algorithm>

namespace dlsim
{

namespace
{

class IdentityTransform : public ModelTransform
{
  public:
    explicit IdentityTransform(size_t length) : m_length(length) {}

    size_t OutputLength() const override
    {
        return m_length;
    }

    void Forward(const float* x, float* coefficients) const override
    {
        std::copy(x, x + m_length, coefficients);
    }

    void Inverse(const float* coefficients, float* x) const override
    {
        std::copy(coefficients, coefficients + m_length, x);
    }

  private:
    size_t m_length;
};

class WaveletModelTransform : public ModelTransform
{
  public:
    WaveletModelTransform(const std::string& wavelet, uint32_t levels, size_t length)
        : m_dwt(wavelet, levels, length)
    {}

    size_t OutputLength() const override
    {
        return m_dwt.OutputLength();
    }

    void Forward(const float* x, float* coefficients) const override
    {
        m_dwt.Forward(x, coefficients);
    }

    void Inverse(const float* coefficients, float* x) const override
    {
        m_dwt.Inverse(coefficients, x);
    }

  private:
    WaveletTransform m_dwt;
};

} // namespace

std::unique_ptr<ModelTransform>
MakeModelTransform(const std::string& wavelet, uint32_t levels, size_t length)
{
    if (wavelet == "none")
    {
        return std::make_unique<IdentityTransform>(length);
    }
    return std::make_unique<WaveletModelTransform>(wavelet, levels, length);
}

} // namespace dlsim
