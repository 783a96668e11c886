// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "max-pool-2x2.h"

#include <cmath>
#include <cstdint>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/nn/functional/pooling.h>
#if defined(__SSE2__)
#    include <emmintrin.h>
#endif

namespace dlsim
{

namespace
{

/// Which window element (0: top left, 1: top right, 2: bottom left, 3: bottom right) torch's
/// kernel keeps for one window: it starts from -inf and takes an element that is greater than the
/// kept one or is NaN, in row-major order. Starting from element 0 instead gives the same.
inline int
WinnerOf(const float v[4])
{
    float kept = v[0];
    int winner = 0;
    for (int j = 1; j < 4; ++j)
    {
        bool take = (v[j] > kept) | std::isnan(v[j]);
        kept = take ? v[j] : kept;
        winner = take ? j : winner;
    }
    return winner;
}

/// One plane: `in` is H x W, `out` and `index` (may be null) floor(H/2) x floor(W/2).
void
PoolPlane(const float* in, int64_t height, int64_t width, float* out, int64_t* index)
{
    const int64_t outHeight = height / 2;
    const int64_t outWidth = width / 2;
    const int64_t offset[4] = {0, 1, width, width + 1};
    for (int64_t r = 0; r < outHeight; ++r)
    {
        const float* top = in + 2 * r * width;
        const float* bottom = top + width;
        float* o = out + r * outWidth;
        int64_t* k = index ? index + r * outWidth : nullptr;
        int64_t c = 0;
#if defined(__SSE2__)
        // Four windows at a time: the even and odd columns of two rows, split by shuffles.
        for (; c + 4 <= outWidth; c += 4)
        {
            const __m128 t0 = _mm_loadu_ps(top + 2 * c);
            const __m128 t1 = _mm_loadu_ps(top + 2 * c + 4);
            const __m128 b0 = _mm_loadu_ps(bottom + 2 * c);
            const __m128 b1 = _mm_loadu_ps(bottom + 2 * c + 4);
            __m128 kept = _mm_shuffle_ps(t0, t1, _MM_SHUFFLE(2, 0, 2, 0));
            __m128i winner = _mm_setzero_si128();
            const __m128 rest[3] = {_mm_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 1, 3, 1)),
                                    _mm_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0)),
                                    _mm_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1))};
            for (int j = 0; j < 3; ++j)
            {
                const __m128 take
                    = _mm_or_ps(_mm_cmpgt_ps(rest[j], kept), _mm_cmpunord_ps(rest[j], rest[j]));
                kept = _mm_or_ps(_mm_and_ps(take, rest[j]), _mm_andnot_ps(take, kept));
                const __m128i takeBits = _mm_castps_si128(take);
                winner = _mm_or_si128(_mm_and_si128(takeBits, _mm_set1_epi32(j + 1)),
                                      _mm_andnot_si128(takeBits, winner));
            }
            _mm_storeu_ps(o + c, kept);
            if (k)
            {
                alignas(16) int32_t w[4];
                _mm_store_si128(reinterpret_cast<__m128i*>(w), winner);
                for (int l = 0; l < 4; ++l)
                {
                    k[c + l] = 2 * r * width + 2 * (c + l) + offset[w[l]];
                }
            }
        }
#endif
        for (; c < outWidth; ++c)
        {
            const float v[4] = {top[2 * c], top[2 * c + 1], bottom[2 * c], bottom[2 * c + 1]};
            const int winner = WinnerOf(v);
            o[c] = v[winner];
            if (k)
            {
                k[c] = 2 * r * width + 2 * c + offset[winner];
            }
        }
    }
}

bool
TakesFastPath(const torch::Tensor& input)
{
    return input.dim() == 4 && input.scalar_type() == torch::kFloat32 && input.is_contiguous()
           && input.device().is_cpu() && input.size(2) >= 2 && input.size(3) >= 2;
}

/// The pool as an autograd function whose backward is torch's own.
class MaxPool2x2Function : public torch::autograd::Function<MaxPool2x2Function>
{
  public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& input)
    {
        torch::Tensor indices;
        torch::Tensor output = MaxPool2x2Forward(input, &indices);
        ctx->save_for_backward({input, indices});
        ctx->mark_non_differentiable({indices});
        return output;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list gradOutputs)
    {
        auto saved = ctx->get_saved_variables();
        return {at::max_pool2d_with_indices_backward(
            gradOutputs[0], saved[0], {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, saved[1])};
    }
};

} // namespace

torch::Tensor
MaxPool2x2Forward(const torch::Tensor& input, torch::Tensor* indices)
{
    TORCH_CHECK(TakesFastPath(input), "MaxPool2x2Forward: needs contiguous float32 N x C x H x W");
    const int64_t height = input.size(2);
    const int64_t width = input.size(3);
    const int64_t planes = input.size(0) * input.size(1);
    const std::vector<int64_t> shape{input.size(0), input.size(1), height / 2, width / 2};
    torch::Tensor output = torch::empty(shape, input.options());
    int64_t* index = nullptr;
    if (indices)
    {
        *indices = torch::empty(shape, input.options().dtype(torch::kInt64));
        index = indices->data_ptr<int64_t>();
    }
    const float* in = input.data_ptr<float>();
    float* out = output.data_ptr<float>();
    const int64_t outPlane = (height / 2) * (width / 2);
    for (int64_t p = 0; p < planes; ++p)
    {
        PoolPlane(in + p * height * width,
                  height,
                  width,
                  out + p * outPlane,
                  index ? index + p * outPlane : nullptr);
    }
    return output;
}

void
MaxPool2x2Impl::reset()
{}

torch::Tensor
MaxPool2x2Impl::forward(const torch::Tensor& input)
{
    if (!TakesFastPath(input))
    {
        return torch::max_pool2d(input, 2);
    }
    if (torch::GradMode::is_enabled() && input.requires_grad())
    {
        return MaxPool2x2Function::apply(input);
    }
    return MaxPool2x2Forward(input, nullptr); // evaluation: no gradient, no indices
}

void
MaxPool2x2Impl::pretty_print(std::ostream& stream) const
{
    stream << "dlsim::MaxPool2x2";
}

} // namespace dlsim
