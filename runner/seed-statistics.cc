// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "seed-statistics.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The two-sided level of every interval dlsim reports.
constexpr double kConfidence = 0.95;

/// The sample standard deviation of `values` around `mean` (n - 1 in the denominator).
double
SampleDeviation(const std::vector<double>& values, double mean)
{
    double squares = 0.0;
    for (double v : values)
    {
        squares += (v - mean) * (v - mean);
    }
    return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

} // namespace

double
StudentTQuantile(double probability, double degreesOfFreedom)
{
    if (!(probability > 0.0 && probability < 1.0) || !(degreesOfFreedom > 0.0))
    {
        throw std::invalid_argument("Student t quantile: probability must be in (0, 1) and the "
                                    "degrees of freedom positive");
    }
    return boost::math::quantile(boost::math::students_t(degreesOfFreedom), probability);
}

double
StudentTTwoSidedP(double t, double degreesOfFreedom)
{
    if (std::isinf(t))
    {
        return 0.0;
    }
    // cdf of -|t| through the regularised incomplete beta, accurate in the far tail too
    // (1 - cdf(|t|) would lose the small p-values to rounding).
    return 2.0 * boost::math::cdf(boost::math::students_t(degreesOfFreedom), -std::fabs(t));
}

MeanCi
MeanWithCi(const std::vector<double>& values)
{
    MeanCi m;
    m.n = values.size();
    if (m.n == 0)
    {
        return m;
    }
    m.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(m.n);
    if (m.n >= 2)
    {
        const double n = static_cast<double>(m.n);
        m.halfWidth = StudentTQuantile(0.5 + kConfidence / 2, n - 1)
                      * SampleDeviation(values, m.mean) / std::sqrt(n);
    }
    return m;
}

PairedTest
PairedTTest(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
    {
        throw std::invalid_argument("paired t-test: the two samples differ in size");
    }
    std::vector<double> differences;
    for (size_t i = 0; i < a.size(); ++i)
    {
        differences.push_back(a[i] - b[i]);
    }
    PairedTest test;
    test.difference = MeanWithCi(differences);
    if (!test.Tested())
    {
        return test;
    }
    const double n = static_cast<double>(differences.size());
    const double error = SampleDeviation(differences, test.difference.mean) / std::sqrt(n);
    if (error == 0.0)
    {
        // No spread: every pair differs by the same amount, which is a certain difference unless
        // it is none.
        const bool none = test.difference.mean == 0.0;
        test.t = none
                     ? 0.0
                     : std::copysign(std::numeric_limits<double>::infinity(), test.difference.mean);
        test.p = none ? 1.0 : 0.0;
        return test;
    }
    test.t = test.difference.mean / error;
    test.p = StudentTTwoSidedP(test.t, n - 1);
    return test;
}

} // namespace ns3
