// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "model-transform.h"

#include "wavelet-transform.h"

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

    std::vector<float> Forward(const std::vector<float>& x) const override
    {
        return x;
    }

    std::vector<float> Inverse(const std::vector<float>& coefficients) const override
    {
        return coefficients;
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

    std::vector<float> Forward(const std::vector<float>& x) const override
    {
        return m_dwt.Forward(x);
    }

    std::vector<float> Inverse(const std::vector<float>& coefficients) const override
    {
        return m_dwt.Inverse(coefficients);
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
