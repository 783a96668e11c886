// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "nn-models.h"

#include "max-pool-2x2.h"

#include <stdexcept>

namespace dlsim
{

std::vector<std::string>
KnownModels()
{
    return ModelRegistry::Names();
}

namespace
{

/// One GN-LeNet stage, in the paper's order: conv, GroupNorm, max-pool, ReLU.
void
AddGnStage(torch::nn::Sequential& seq, int64_t in, int64_t out)
{
    seq->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 5).padding(2)));
    seq->push_back(torch::nn::GroupNorm(torch::nn::GroupNormOptions(2, out)));
    seq->push_back(MaxPool2x2()); // torch::nn::MaxPool2d(2)'s bits, faster (max-pool-2x2.h)
    seq->push_back(torch::nn::ReLU());
}

ModelRegistration
Logistic()
{
    ModelRegistration r;
    r.name = "logistic";
    r.help = "one linear layer";
    r.create = [](const RegisteredParameters&, const ModelShape& s)
    {
        torch::nn::Sequential seq;
        seq->push_back(torch::nn::Flatten());
        seq->push_back(torch::nn::Linear(s.channels * s.height * s.width, s.classes));
        return seq;
    };
    return r;
}

ModelRegistration
Mlp()
{
    ModelRegistration r;
    r.name = "mlp";
    r.help = "two linear layers, 128 hidden ReLU units";
    r.create = [](const RegisteredParameters&, const ModelShape& s)
    {
        torch::nn::Sequential seq;
        seq->push_back(torch::nn::Flatten());
        seq->push_back(torch::nn::Linear(s.channels * s.height * s.width, 128));
        seq->push_back(torch::nn::ReLU());
        seq->push_back(torch::nn::Linear(128, s.classes));
        return seq;
    };
    return r;
}

ModelRegistration
GnLenet()
{
    ModelRegistration r;
    r.name = "gn-lenet";
    r.help = "the JWINS paper's LeNet with GroupNorm: three conv stages, one linear layer";
    r.create = [](const RegisteredParameters&, const ModelShape& s)
    {
        if (s.height < 8 || s.width < 8)
        {
            throw std::invalid_argument("model gn-lenet needs images of at least 8x8 pixels");
        }
        torch::nn::Sequential seq;
        AddGnStage(seq, s.channels, 32);
        AddGnStage(seq, 32, 32);
        AddGnStage(seq, 32, 64);
        seq->push_back(torch::nn::Flatten());
        seq->push_back(torch::nn::Linear(64 * (s.height / 8) * (s.width / 8), s.classes));
        return seq;
    };
    return r;
}

} // namespace

std::vector<ModelRegistration>
ModelRegistration::Builtins()
{
    return {Logistic(), Mlp(), GnLenet()};
}

torch::nn::Sequential
MakeModel(const std::string& name,
          int64_t channels,
          int64_t height,
          int64_t width,
          int64_t classes,
          const std::map<std::string, std::string>& parameters)
{
    return ModelRegistry::Get(name).create(ModelRegistry::Parameters(name, parameters),
                                           ModelShape{channels, height, width, classes});
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
        else if (auto pool2x2 = child->as<MaxPool2x2>())
        {
            x = pool2x2->forward(in);
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

} // namespace dlsim
