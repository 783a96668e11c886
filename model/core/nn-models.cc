// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "nn-models.h"

#include "learner.h"

#include <stdexcept>

namespace ns3
{

std::vector<std::string>
KnownModels()
{
    return {"logistic", "mlp", "gn-lenet"};
}

namespace
{

/// One GN-LeNet stage, in the paper's order: conv, GroupNorm, max-pool, ReLU.
void
AddGnStage(torch::nn::Sequential& seq, int64_t in, int64_t out)
{
    seq->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 5).padding(2)));
    seq->push_back(torch::nn::GroupNorm(torch::nn::GroupNormOptions(2, out)));
    seq->push_back(torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)));
    seq->push_back(torch::nn::ReLU());
}

} // namespace

torch::nn::Sequential
MakeModel(const std::string& name, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    const int64_t inputs = channels * height * width;
    torch::nn::Sequential seq;
    if (name == "logistic")
    {
        seq->push_back(torch::nn::Flatten());
        seq->push_back(torch::nn::Linear(inputs, classes));
    }
    else if (name == "mlp")
    {
        seq->push_back(torch::nn::Flatten());
        seq->push_back(torch::nn::Linear(inputs, 128));
        seq->push_back(torch::nn::ReLU());
        seq->push_back(torch::nn::Linear(128, classes));
    }
    else if (name == "gn-lenet")
    {
        if (height < 8 || width < 8)
        {
            throw std::invalid_argument("model gn-lenet needs images of at least 8x8 pixels");
        }
        AddGnStage(seq, channels, 32);
        AddGnStage(seq, 32, 32);
        AddGnStage(seq, 32, 64);
        seq->push_back(torch::nn::Flatten());
        seq->push_back(torch::nn::Linear(64 * (height / 8) * (width / 8), classes));
    }
    else
    {
        std::string known;
        for (const auto& m : KnownModels())
        {
            known += (known.empty() ? "" : ", ") + m;
        }
        throw std::invalid_argument("unknown model '" + name + "' (known: " + known + ")");
    }
    return seq;
}

double
ForwardFlopsPerSample(torch::nn::Sequential& model, int64_t channels, int64_t height, int64_t width)
{
    torch::NoGradGuard noGrad;
    torch::Tensor x = torch::zeros({1, channels, height, width});
    double flops = 0.0;
    for (const auto& child : model->children())
    {
        torch::Tensor in = x;
        if (auto conv = child->as<torch::nn::Conv2d>())
        {
            x = conv->forward(in);
            const auto& o = conv->options;
            double macsPerOutput = static_cast<double>(o.in_channels() / o.groups())
                                   * o.kernel_size()->at(0) * o.kernel_size()->at(1);
            flops += 2.0 * macsPerOutput * x.numel();
        }
        else if (auto linear = child->as<torch::nn::Linear>())
        {
            x = linear->forward(in);
            flops += 2.0 * linear->options.in_features() * linear->options.out_features();
        }
        else if (auto gn = child->as<torch::nn::GroupNorm>())
        {
            x = gn->forward(in);
            flops += static_cast<double>(x.numel());
        }
        else if (auto pool = child->as<torch::nn::MaxPool2d>())
        {
            x = pool->forward(in);
            flops += static_cast<double>(x.numel());
        }
        else if (auto relu = child->as<torch::nn::ReLU>())
        {
            x = relu->forward(in);
            flops += static_cast<double>(x.numel());
        }
        else if (auto flatten = child->as<torch::nn::Flatten>())
        {
            x = flatten->forward(in);
        }
        else
        {
            throw std::logic_error("ForwardFlopsPerSample: layer " + child->name()
                                   + " not counted");
        }
    }
    return flops;
}

} // namespace ns3
