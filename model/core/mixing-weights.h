// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Gossip mixing weights (the module documentation, "Mixing weights").
 */
#ifndef DLSIM_MIXING_WEIGHTS_H
#define DLSIM_MIXING_WEIGHTS_H

#include <algorithm>
#include <cstdint>

namespace dlsim
{

/**
 * Metropolis-Hastings weight w_ij = 1 / (max(d_i, d_j) + 1) of neighbour j at node i on an
 * undirected graph. The self weight is 1 minus the sum over the neighbours, which makes the
 * mixing matrix symmetric and doubly stochastic.
 * \param degreeI d_i
 * \param degreeJ d_j
 * \return w_ij
 */
inline double
MetropolisHastingsWeight(uint32_t degreeI, uint32_t degreeJ)
{
    return 1.0 / (std::max(degreeI, degreeJ) + 1.0);
}

/**
 * \param outDegree the sender's out-degree d
 * \return the push-sum weight it gives itself and each out-neighbour: 1 / (d + 1)
 */
inline double
PushSumWeight(uint32_t outDegree)
{
    return 1.0 / (outDegree + 1.0);
}

} // namespace dlsim

#endif // DLSIM_MIXING_WEIGHTS_H
