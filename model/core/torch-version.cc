// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "torch-version.h"

#include <torch/version.h>

namespace dlsim
{

std::string
TorchVersion()
{
    return TORCH_VERSION;
}

} // namespace dlsim
