// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The LibTorch models a learner can train. Include only from translation units that need torch.
 */
#ifndef DLSIM_NN_MODELS_H
#define DLSIM_NN_MODELS_H

#include "learner.h"

#include <map>
#include <string>
#include <torch/nn.h>
#include <vector>

namespace dlsim
{

/**
 * Build registered model `name` (see ModelRegistration in learner.h) for inputs of shape
 * channels x height x width and `classes` outputs, its keys set from `parameters` (defaults for
 * the others). dlsim's own models:
 * - "logistic": a single linear layer;
 * - "mlp": linear(in, 128), ReLU, linear(128, classes);
 * - "gn-lenet": the GN-LeNet of the JWINS paper: three times conv 5x5 (32, 32, 64 channels,
 *   padding 2), GroupNorm(2), max-pool 2, ReLU; then linear(64 * (height/8) * (width/8),
 *   classes). For 1x28x28 inputs (Fashion-MNIST) that is linear(576, 10) and 83,754 parameters,
 *   for 3x32x32 (CIFAR-10) linear(1024, 10) and 89,834 parameters. Max-pool and ReLU commute, so
 *   the order of those two does not change the outputs.
 * The input shape comes from the dataset (the learner passes its training set's shape).
 * Parameters are registered layer by layer (weight, then bias), the order of PyTorch's
 * model.parameters() for the same layers declared in the same order.
 * Parameters are initialised from torch's global generator: seed it first.
 * Throws std::invalid_argument for an unknown name, a bad key value or a shape the model cannot
 * take.
 * \param name a registered model
 * \param channels input channels
 * \param height input height
 * \param width input width
 * \param classes outputs
 * \param parameters values of the model's keys
 * \return the model
 */
torch::nn::Sequential MakeModel(const std::string& name,
                                int64_t channels,
                                int64_t height,
                                int64_t width,
                                int64_t classes,
                                const std::map<std::string, std::string>& parameters = {});

/**
 * Forward-pass floating point operations for one sample: 2 per multiply-accumulate of every
 * convolution and linear layer, plus one per output element of the other layers.
 * \param model the model
 * \param channels input channels
 * \param height input height
 * \param width input width
 * \return the operations
 */
double ForwardFlopsPerSample(torch::nn::Sequential& model,
                             int64_t channels,
                             int64_t height,
                             int64_t width);

} // namespace dlsim

#endif // DLSIM_NN_MODELS_H
