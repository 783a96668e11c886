// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The LibTorch version the learning core was built with, for the provenance of results.
 */
#ifndef DLSIM_TORCH_VERSION_H
#define DLSIM_TORCH_VERSION_H

#include <string>

namespace dlsim
{

/// \return the LibTorch version, e.g. "1.13.0"
std::string TorchVersion();

} // namespace dlsim

#endif // DLSIM_TORCH_VERSION_H
