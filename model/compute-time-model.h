// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * How much simulated time a node's local training takes.
 */
#ifndef DLSIM_COMPUTE_TIME_MODEL_H
#define DLSIM_COMPUTE_TIME_MODEL_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * Three ways to charge simulated time for a round of local training:
 * - "flops" (default, deterministic): samples * FLOPs per training sample / device speed, where
 *   each node's device speed in GFLOP/s is drawn once from a random variable stream (a
 *   ConstantRandomVariable gives identical devices; others make them heterogeneous);
 * - "fixed" (deterministic): local_steps * a fixed number of seconds per step;
 * - "measured": the host CPU time the real training step took, times a scale factor. It follows
 *   the real cost of the model but is NOT reproducible: the same seed gives different timings.
 */
class ComputeTimeModel
{
  public:
    /// Device speeds, fixed, read or drawn, in GFLOP/s: 1 FLOP/s to 1e15 GFLOP/s.
    static constexpr double kMinGflops = 1e-9;
    static constexpr double kMaxGflops = 1e15; ///< the fastest device (see kMinGflops)

    /// How a round's time is charged (see the class).
    enum class Mode
    {
        Flops,    ///< samples * FLOPs per sample / device speed
        Fixed,    ///< local steps * seconds per step
        Measured, ///< host CPU time times a scale (not reproducible)
    };

    /**
     * \param mode "flops", "fixed" or "measured"
     * \param deviceGflops flops: device speed in GFLOP/s, a number or an ns-3 random variable
     * \param stepSeconds fixed: seconds per local step
     * \param measuredScale measured: the factor on the host's CPU time
     * \throws ConfigValueError naming compute.* keys on a bad mode or random variable
     */
    ComputeTimeModel(const std::string& mode,
                     const std::string& deviceGflops,
                     double stepSeconds,
                     double measuredScale);

    /**
     * \param stream the device speeds' random stream
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Give every node its own device speed (Flops mode; the random variable is still
     * drawn, so other streams do not shift).
     * \param gflops node i's speed in GFLOP/s at index i
     */
    void SetDeviceSpeeds(std::vector<double> gflops);

    /// \return how a round's time is charged
    Mode GetMode() const;
    /// \return the factor on the host's CPU time (Measured mode)
    double GetMeasuredScale() const;

    /**
     * The simulated duration of one round of local training on the next node (call once per
     * node, in node order: Flops mode draws that node's device speed). Throws
     * ConfigValueError naming the key when the speed is outside kMinGflops to kMaxGflops or the
     * time beyond kMaxSeconds.
     * \param trainFlopsPerSample the model's FLOPs per training sample
     * \param batchSize samples per step
     * \param localSteps steps per round
     * \return the duration (Measured mode: zero; the caller measures)
     */
    Time NextNodeRoundTime(double trainFlopsPerSample, uint32_t batchSize, uint32_t localSteps);

  private:
    Mode m_mode;
    Ptr<RandomVariableStream> m_deviceGflops;
    double m_stepSeconds;
    double m_measuredScale;
    std::vector<double> m_speeds;
    size_t m_nextNode = 0;
};

} // namespace ns3

#endif // DLSIM_COMPUTE_TIME_MODEL_H
