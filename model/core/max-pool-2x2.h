// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A 2x2 max-pool with stride 2 that gives torch's outputs, indices and gradients bit for bit,
 * without the branch per window element of torch's CPU kernel for NCHW tensors (LibTorch 1.13).
 * Include only from translation units that need torch.
 */
#ifndef DLSIM_MAX_POOL_2X2_H
#define DLSIM_MAX_POOL_2X2_H

#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>

namespace dlsim
{

/**
 * torch::nn::MaxPool2d(2) with the same results: every output is the maximum of its window, a NaN
 * in a window gives NaN, and the index it keeps (for the gradient) is the one torch's kernel keeps:
 * the first strict maximum in row-major order, or the last NaN. The gradient is torch's own
 * max_pool2d_with_indices_backward over those indices, so training gives the same bits.
 *
 * Why: torch's NCHW kernel compares each element of a window with a data-dependent branch. After
 * GroupNorm the comparisons are coin flips, so the branches mispredict half the time: the pools
 * were about 45% of a GN-LeNet training step and of an evaluation here. Comparing four windows at
 * once with SSE2 masks and no branch is about 6 times faster on the first stage.
 *
 * Inputs that are not float32, 4-dimensional and contiguous go to torch's own max-pool.
 */
class MaxPool2x2Impl : public torch::nn::Cloneable<MaxPool2x2Impl>
{
  public:
    /// No state: nothing to build again.
    void reset() override;
    /// \param input N x C x H x W \return N x C x floor(H/2) x floor(W/2)
    torch::Tensor forward(const torch::Tensor& input);
    /// Prints "dlsim::MaxPool2x2". \param stream where
    void pretty_print(std::ostream& stream) const override;
};

/// The module holder, as torch::nn::MaxPool2d is MaxPool2dImpl's.
TORCH_MODULE(MaxPool2x2);

/**
 * The pool's outputs and, if `indices` is not null, torch's flat indices (row * W + column in each
 * plane) of the elements they came from.
 * \param input contiguous float32 N x C x H x W
 * \param indices where to put the indices (int64, same shape as the result), or null
 * \return N x C x floor(H/2) x floor(W/2)
 */
torch::Tensor MaxPool2x2Forward(const torch::Tensor& input, torch::Tensor* indices);

} // namespace dlsim

#endif // DLSIM_MAX_POOL_2X2_H
