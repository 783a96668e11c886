// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Time-varying link bandwidth: a piecewise-constant data rate that repeats with a period, read
 * from a CSV file or from a Mahimahi delivery-opportunity trace.
 */
#ifndef DLSIM_RATE_TRACE_H
#define DLSIM_RATE_TRACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * A data rate that changes over time in steps and repeats with a period: step i holds from its
 * start until the next step's start (the last step until the period ends), then the trace starts
 * again from step 0. A trace of one step and an infinite period is a constant rate.
 *
 * Every rate is at least 1 bit/s and at most 1 Tbit/s (CheckDataRateBps): ns-3's point-to-point
 * device cannot send at rate 0, and its DataRate is a whole number of bit/s. Every step lasts at
 * least 1 ms (kMinPeriodSeconds), so that following the trace costs a bounded number of events.
 *
 * Reading never aborts the process: every problem in a file throws ConfigValueError (from
 * random-variable-spec.h) whose message names the file, the line and what is wrong.
 *
 * CSV format (ReadCsv):
 * \code
 *   # comment lines and blank lines are allowed, a '#' also starts a comment at the end of a line
 *   time_s,rate          <- optional header
 *   0,10Mbps             <- rate: bit/s as a plain number, or a number and a unit as in
 *   5,2000000               ParseDataRateBps (10Mbps, 800kbps, 1.5Gbps, 100Mb/s, 1MBps)
 *   10,800kbps
 * \endcode
 * Times are in seconds, start at 0 and increase by at least 1 ms. Each row's rate holds until the
 * next row's time. The rows are taken as samples of a uniformly sampled trace: the last row's rate
 * holds for as long as the gap between the last two rows, so the period is the last time plus the
 * last gap (15 s above). A single row (at time 0) is a constant rate with an infinite period.
 *
 * Mahimahi format (ReadMahimahi): one non-negative integer per line, milliseconds, not
 * decreasing; each line is one opportunity to deliver one packet of packetBytes (1500 in
 * Mahimahi), repeated timestamps are several packets in the same millisecond. As in Mahimahi, the
 * trace repeats with a period equal to its last timestamp, so an opportunity at the last
 * timestamp is one at time 0 of the next period. Blank lines and '#' lines are skipped.
 *
 * The opportunities are turned into a rate by counting them in windows of windowSeconds (a whole
 * number of milliseconds): rate = count * packetBytes * 8 / window length, where the last window
 * of a period may be shorter than the others and uses its real length. Resolution limit: a
 * window without any opportunity cannot get rate 0 (ns-3's device cannot send at rate 0), so it
 * gets the rate of one packet per window instead; GetFlooredWindows() says how many windows of a
 * period were floored like that. Traces with long outages are therefore not reproduced faithfully:
 * choose a window long enough that most windows see an opportunity. Adjacent windows of equal
 * rate are merged into one step.
 */
class RateTrace
{
  public:
    /// From startSeconds (within the period) until the next step starts, the rate is rateBps.
    struct Step
    {
        double startSeconds; ///< within the period
        double rateBps;      ///< bit/s
    };

    /**
     * A trace from its steps: the first starts at 0, starts strictly increase and stay below the
     * period; rates as in the class comment. The period may be infinite only for a single step.
     * \param steps the steps
     * \param periodSeconds the period
     * \throws ConfigValueError otherwise
     */
    RateTrace(std::vector<Step> steps, double periodSeconds);

    /// \return the steps of one period
    const std::vector<Step>& GetSteps() const;
    /// \return the period in seconds; infinity for a constant trace read from a single CSV row
    double GetPeriodSeconds() const;
    /**
     * \param seconds a time since the trace's start, looping with the period; negative times
     * loop too
     * \return the rate then (bit/s); a time that is not finite gives the first step's rate
     */
    double GetRateAt(double seconds) const;
    /// \return the time-weighted mean rate over one period (bit/s)
    double GetMeanRateBps() const;
    /// \return for Mahimahi traces, how many windows of a period had no delivery opportunity
    /// and got the rate of one packet per window instead of 0; always 0 for other traces
    uint32_t GetFlooredWindows() const;

    /**
     * \brief Read a CSV trace (format in the class comment).
     * \param path the file
     * \return the trace
     * \throws ConfigValueError naming the file and line
     */
    static RateTrace ReadCsv(const std::string& path);
    /**
     * Read a Mahimahi trace and convert it to rates per window of windowSeconds (format and
     * conversion in the class comment). windowSeconds must be a whole number of milliseconds, at
     * least 1 ms; packetBytes between 1 and 65535.
     * \param path the file
     * \param windowSeconds the window
     * \param packetBytes bytes per delivery opportunity
     * \return the trace
     * \throws ConfigValueError naming the file and line
     */
    static RateTrace ReadMahimahi(const std::string& path,
                                  double windowSeconds,
                                  uint32_t packetBytes = 1500);
    /**
     * Read a trace of the given format: "csv", "mahimahi", or "auto" (a .csv extension, in any
     * case, is CSV, anything else Mahimahi). windowSeconds is used by Mahimahi traces only.
     * \param path the file
     * \param format "csv", "mahimahi" or "auto"
     * \param windowSeconds the window of Mahimahi traces
     * \return the trace
     * \throws ConfigValueError, also for an unknown format
     */
    static RateTrace Read(const std::string& path, const std::string& format, double windowSeconds);

  private:
    std::vector<Step> m_steps;
    double m_periodSeconds;
    double m_meanRateBps;
    uint32_t m_flooredWindows;
};

} // namespace ns3

#endif // DLSIM_RATE_TRACE_H
