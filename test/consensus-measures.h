// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: how far a set of models is from agreeing, for the consensus tests in memory and in
 * simulations.
 */
#ifndef DLSIM_CONSENSUS_MEASURES_H
#define DLSIM_CONSENSUS_MEASURES_H

#include <algorithm>
#include <cmath>
#include <vector>

namespace ns3
{

/// The mean model, in double precision.
template<typename T>
std::vector<double>
Mean(const std::vector<std::vector<T>>& x)
{
    std::vector<double> mean(x[0].size(), 0.0);
    for (const auto& xi : x)
    {
        for (size_t k = 0; k < mean.size(); ++k)
        {
            mean[k] += static_cast<double>(xi[k]) / x.size();
        }
    }
    return mean;
}

/// Largest distance of any model from `centre`.
template<typename T>
double
MaxDistance(const std::vector<std::vector<T>>& x, const std::vector<double>& centre)
{
    double worst = 0.0;
    for (const auto& xi : x)
    {
        double s = 0.0;
        for (size_t k = 0; k < centre.size(); ++k)
        {
            s += (xi[k] - centre[k]) * (xi[k] - centre[k]);
        }
        worst = std::max(worst, std::sqrt(s));
    }
    return worst;
}

/// How far final models are from consensus, both relative to the initial models' spread.
struct Consensus
{
    double spread; ///< the largest distance of a final model from the final mean
    double drift;  ///< the distance of the final mean from the initial average
};

template<typename T>
Consensus
MeasureConsensus(const std::vector<std::vector<T>>& initial,
                 const std::vector<std::vector<T>>& final)
{
    const std::vector<double> average = Mean(initial);
    const double initialSpread = MaxDistance(initial, average);
    const std::vector<double> finalMean = Mean(final);
    return Consensus{MaxDistance(final, finalMean) / initialSpread,
                     MaxDistance(std::vector<std::vector<double>>{finalMean}, average)
                         / initialSpread};
}

} // namespace ns3

#endif // DLSIM_CONSENSUS_MEASURES_H
