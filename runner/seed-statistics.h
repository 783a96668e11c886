// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Statistics over the seeds of a grid point: the mean with its 95% confidence interval
 * (Student t), and the paired t-test between two points over the seeds they share.
 */
#ifndef DLSIM_SEED_STATISTICS_H
#define DLSIM_SEED_STATISTICS_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * The quantile of Student's t distribution with `degreesOfFreedom` (> 0): the t with
 * P(T <= t) = `probability` (0 < probability < 1), through the inverse of the regularised
 * incomplete beta function (Boost.Math). t(0.975, 1) = 12.706, t(0.975, 4) = 2.776.
 */
double StudentTQuantile(double probability, double degreesOfFreedom);

/// P(|T| >= |t|) for Student's t with `degreesOfFreedom`: the two-sided p-value of `t`.
double StudentTTwoSidedP(double t, double degreesOfFreedom);

/// A mean over `n` values with the half-width of its 95% confidence interval.
struct MeanCi
{
    size_t n = 0;
    double mean = 0.0; ///< meaningful when n >= 1
    /// t(0.975, n-1) s / sqrt(n), with s the sample standard deviation; meaningful when n >= 2
    double halfWidth = 0.0;

    /// Whether there is an interval: at least two values.
    bool HasCi() const
    {
        return n >= 2;
    }

    double Low() const
    {
        return mean - halfWidth;
    }

    double High() const
    {
        return mean + halfWidth;
    }
};

/// The mean of `values` and its 95% confidence interval (Student t, n-1 degrees of freedom).
MeanCi MeanWithCi(const std::vector<double>& values);

/// The paired t-test of a - b over pairs (a[i], b[i]).
struct PairedTest
{
    MeanCi difference; ///< of a[i] - b[i]: n pairs, mean difference, its 95% interval
    double t = 0.0;    ///< mean / (s / sqrt(n)); infinite when every difference is the same
    double p = 1.0;    ///< two-sided, n-1 degrees of freedom

    /// At least two pairs: a test was made.
    bool Tested() const
    {
        return difference.n >= 2;
    }
};

/**
 * Student's paired t-test of `a` against `b` (equal sizes): the differences a[i] - b[i], their
 * mean and 95% interval, t and the two-sided p-value. When every difference is the same (no
 * spread), p is 0 if they are not zero and 1 if they are.
 */
PairedTest PairedTTest(const std::vector<double>& a, const std::vector<double>& b);

} // namespace ns3

#endif // DLSIM_SEED_STATISTICS_H
