// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: MaxPool2x2 against torch's own max-pool (at::max_pool2d_with_indices and its backward):
 * the same outputs, indices and gradients bit for bit, on windows with ties, NaN and infinities,
 * and GN-LeNet trained with either pool ending with the same parameters.
 */
#include "max-pool-2x2.h"

#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <torch/torch.h>

using namespace dlsim; // the learning core (model/core)

namespace
{

/// Same bits (NaN payloads included), not just equal values.
bool
SameBits(const torch::Tensor& a, const torch::Tensor& b)
{
    return a.sizes() == b.sizes() && a.scalar_type() == b.scalar_type()
           && std::memcmp(a.contiguous().data_ptr(),
                          b.contiguous().data_ptr(),
                          a.numel() * a.element_size())
                  == 0;
}

/// Values from a handful of levels, so that windows tie often, with NaN, +inf and -inf sprinkled
/// in, and a few windows of nothing but -inf (torch keeps the first element of those).
torch::Tensor
HardInput(std::vector<int64_t> shape, uint64_t seed)
{
    torch::manual_seed(seed);
    torch::Tensor x = torch::randint(-3, 4, shape).to(torch::kFloat32) * 0.5;
    torch::Tensor u = torch::rand(shape);
    const float inf = std::numeric_limits<float>::infinity();
    x.masked_fill_(u < 0.03, std::numeric_limits<float>::quiet_NaN());
    x.masked_fill_((u >= 0.03) & (u < 0.06), inf);
    x.masked_fill_((u >= 0.06) & (u < 0.12), -inf);
    x.index_put_({0, 0, torch::indexing::Slice(0, 2), torch::indexing::Slice(0, 2)}, -inf);
    return x;
}

const std::vector<std::vector<int64_t>> kShapes = {
    {2, 3, 28, 28}, // GN-LeNet's first stage (four windows at a time)
    {2, 3, 14, 14}, // second: 7 outputs a row, four at a time and three one by one
    {2, 3, 7, 7},   // third: odd sizes drop the last row and column, as torch's floor does
    {1, 2, 5, 2},   // one window a row
    {3, 1, 2, 19},  // one row of windows, an odd width
};

} // namespace

TEST(MaxPool2x2, OutputsAndIndicesAreTorchs)
{
    uint64_t seed = 1;
    for (const auto& shape : kShapes)
    {
        torch::Tensor x = HardInput(shape, seed++);
        auto [values, indices] = at::max_pool2d_with_indices(x, {2, 2}, {2, 2}, {0, 0}, {1, 1});
        torch::Tensor ourIndices;
        torch::Tensor ours = MaxPool2x2Forward(x, &ourIndices);
        EXPECT_TRUE(SameBits(ours, values)) << "shape " << x.sizes();
        EXPECT_TRUE(SameBits(ourIndices, indices)) << "shape " << x.sizes();
        EXPECT_TRUE(SameBits(MaxPool2x2Forward(x, nullptr), values)) << "shape " << x.sizes();
    }
}

TEST(MaxPool2x2, GradientsAreTorchs)
{
    MaxPool2x2 pool;
    uint64_t seed = 100;
    for (const auto& shape : kShapes)
    {
        // Finite inputs: a NaN would make every gradient NaN and hide a wrong index.
        torch::Tensor base = torch::nan_to_num(HardInput(shape, seed++), 0.0, 1e30, -1e30);
        torch::Tensor weights = torch::randn({shape[0], shape[1], shape[2] / 2, shape[3] / 2});
        torch::Tensor a = base.clone().requires_grad_(true);
        torch::Tensor b = base.clone().requires_grad_(true);
        (torch::max_pool2d(a, 2) * weights).sum().backward();
        torch::Tensor out = pool->forward(b);
        (out * weights).sum().backward();
        EXPECT_TRUE(SameBits(out.detach(), torch::max_pool2d(base, 2))) << "shape " << base.sizes();
        EXPECT_TRUE(SameBits(b.grad(), a.grad())) << "shape " << base.sizes();
    }
}

TEST(MaxPool2x2, OtherInputsGoToTorch)
{
    MaxPool2x2 pool;
    torch::Tensor d = torch::randn({1, 2, 6, 6}, torch::kFloat64);
    EXPECT_TRUE(SameBits(pool->forward(d), torch::max_pool2d(d, 2)));
    torch::Tensor strided = torch::randn({1, 2, 6, 12}).slice(3, 0, 12, 2); // not contiguous
    EXPECT_TRUE(SameBits(pool->forward(strided), torch::max_pool2d(strided, 2)));
    EXPECT_THROW(pool->forward(torch::randn({1, 1, 1, 4})), c10::Error); // torch's own error
}

TEST(MaxPool2x2, GnLenetTrainsToTheSameBits)
{
    // GN-LeNet's stages (nn-models.cc) with either pool, from the same initial values and on the
    // same batches: after a few SGD steps every parameter has the same bits.
    auto build = [](bool ours)
    {
        torch::manual_seed(7);
        torch::nn::Sequential seq;
        int64_t in = 1;
        for (int64_t out : {32, 32, 64})
        {
            seq->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 5).padding(2)));
            seq->push_back(torch::nn::GroupNorm(torch::nn::GroupNormOptions(2, out)));
            if (ours)
            {
                seq->push_back(MaxPool2x2());
            }
            else
            {
                seq->push_back(torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)));
            }
            seq->push_back(torch::nn::ReLU());
            in = out;
        }
        seq->push_back(torch::nn::Flatten());
        seq->push_back(torch::nn::Linear(64 * 3 * 3, 10));
        return seq;
    };
    torch::nn::Sequential reference = build(false);
    torch::nn::Sequential model = build(true);
    torch::optim::SGD referenceSgd(reference->parameters(), torch::optim::SGDOptions(0.05));
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.05));
    torch::manual_seed(8);
    for (int step = 0; step < 4; ++step)
    {
        torch::Tensor images = torch::randn({8, 1, 28, 28});
        torch::Tensor labels = torch::randint(0, 10, {8});
        for (auto [m, opt] : {std::pair{reference, &referenceSgd}, std::pair{model, &sgd}})
        {
            opt->zero_grad();
            torch::nn::functional::cross_entropy(m->forward(images), labels).backward();
            opt->step();
        }
    }
    auto p = model->parameters();
    auto q = reference->parameters();
    ASSERT_EQ(p.size(), q.size());
    for (size_t i = 0; i < p.size(); ++i)
    {
        EXPECT_TRUE(SameBits(p[i], q[i])) << "parameter " << i;
    }
    torch::NoGradGuard noGrad;
    model->eval();
    reference->eval();
    torch::Tensor test = torch::randn({16, 1, 28, 28});
    EXPECT_TRUE(SameBits(model->forward(test), reference->forward(test)));
}
