// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "compute-time-model.h"

#include "ns3/double.h"
#include "random-variable-spec.h"

#include <cmath>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

ComputeTimeModel::ComputeTimeModel(const std::string& mode,
                                   const std::string& deviceGflops,
                                   double stepSeconds,
                                   double measuredScale)
    : m_stepSeconds(stepSeconds), m_measuredScale(measuredScale)
{
    if (mode == "flops")
    {
        m_mode = Mode::Flops;
    }
    else if (mode == "fixed")
    {
        m_mode = Mode::Fixed;
    }
    else if (mode == "measured")
    {
        m_mode = Mode::Measured;
    }
    else
    {
        throw ConfigValueError("compute.model: unknown mode '" + ShownText(mode)
                               + "' (known: flops, fixed, measured)");
    }
    double value = std::nan("");
    if (IsRandomVariableSpec(deviceGflops))
    {
        m_deviceGflops = ParseRandomVariable("compute.device_gflops", deviceGflops);
        value = ConstantValueOf(m_deviceGflops); // a constant is checked now, NaN otherwise
    }
    else
    {
        value = 0.0;
        try
        {
            size_t used = 0;
            value = std::stod(deviceGflops, &used);
            if (used != deviceGflops.size())
            {
                value = 0.0;
            }
        }
        catch (const std::exception&)
        {}
        if (!(value > 0.0))
        {
            throw ConfigValueError("compute.device_gflops: expected a positive number of GFLOP/s "
                                   "or an ns-3 random variable, got '"
                                   + ShownText(deviceGflops) + "'");
        }
        m_deviceGflops = CreateObject<ConstantRandomVariable>();
        m_deviceGflops->SetAttribute("Constant", DoubleValue(value));
    }
    if (!std::isnan(value) && !(value >= kMinGflops && value <= kMaxGflops))
    {
        throw ConfigValueError("compute.device_gflops: " + FormatBound(value)
                               + " GFLOP/s is outside " + FormatBound(kMinGflops) + " to "
                               + FormatBound(kMaxGflops) + " GFLOP/s");
    }
    if (!(stepSeconds >= 0.0))
    {
        throw ConfigValueError("compute.step_seconds must be >= 0");
    }
    if (!(measuredScale > 0.0))
    {
        throw ConfigValueError("compute.measured_scale must be > 0");
    }
}

int64_t
ComputeTimeModel::AssignStreams(int64_t stream)
{
    m_deviceGflops->SetStream(stream);
    return 1;
}

void
ComputeTimeModel::SetDeviceSpeeds(std::vector<double> gflops)
{
    m_speeds = std::move(gflops);
}

ComputeTimeModel::Mode
ComputeTimeModel::GetMode() const
{
    return m_mode;
}

double
ComputeTimeModel::GetMeasuredScale() const
{
    return m_measuredScale;
}

Time
ComputeTimeModel::NextNodeRoundTime(double trainFlopsPerSample,
                                    uint32_t batchSize,
                                    uint32_t localSteps)
{
    // Draw for every node in every mode so that switching modes does not shift other streams.
    double gflops = m_deviceGflops->GetValue();
    if (m_nextNode < m_speeds.size())
    {
        gflops = m_speeds[m_nextNode];
    }
    ++m_nextNode;
    const std::string learner = " for learner " + std::to_string(m_nextNode - 1);
    // A round's compute time becomes an ns-3 Time: it must stay within what one holds.
    auto checked = [&learner](double seconds, const std::string& key)
    {
        if (!(seconds <= kMaxSeconds))
        {
            throw ConfigValueError(key + ": a round's compute time of " + FormatBound(seconds)
                                   + " s" + learner + " is beyond " + FormatBound(kMaxSeconds)
                                   + " s");
        }
        return Seconds(seconds);
    };
    switch (m_mode)
    {
        case Mode::Flops:
            if (!(gflops >= kMinGflops && gflops <= kMaxGflops))
            {
                throw ConfigValueError("compute.device_gflops: device speed " + FormatBound(gflops)
                                       + " GFLOP/s" + (m_speeds.empty() ? " drawn" : "") + learner
                                       + " is outside " + FormatBound(kMinGflops) + " to "
                                       + FormatBound(kMaxGflops) + " GFLOP/s");
            }
            return checked(trainFlopsPerSample * batchSize * localSteps / (gflops * 1e9),
                           "compute.device_gflops");
        case Mode::Fixed:
            return checked(m_stepSeconds * localSteps, "compute.step_seconds");
        case Mode::Measured:
            return Time(0); // charged per round from the measured CPU time
    }
    return Time(0);
}

} // namespace ns3
