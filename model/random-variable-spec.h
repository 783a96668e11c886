// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Safe parsing of user-given quantities: ns-3 random variable strings, data rates and times.
 */
#ifndef DLSIM_RANDOM_VARIABLE_SPEC_H
#define DLSIM_RANDOM_VARIABLE_SPEC_H

#include "csv-rows.h" // ConfigValueError
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "value-text.h" // ShownText, for the values quoted in errors

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * Create a random variable from a string such as "ns3::UniformRandomVariable[Min=5|Max=20]".
 * Unlike ns-3's own parsing, which aborts the process, a bad type name, attribute or value
 * throws ConfigValueError naming `key`.
 * \param key the scenario key, for messages
 * \param spec the string
 * \return the random variable (its stream not yet assigned)
 */
Ptr<RandomVariableStream> ParseRandomVariable(const std::string& key, const std::string& spec);

/**
 * \param spec a value
 * \return true when it looks like a random variable string ("ns3::...")
 */
bool IsRandomVariableSpec(const std::string& spec);

/**
 * Limits of the quantities dlsim gives ns-3, whether fixed, read from a file or drawn from a
 * random variable (the key table states them).
 *
 * Rates: ns-3's DataRate is a whole number of bit/s (below 1 it would be 0, and ns-3 divides by
 * it); at 1 Tbit/s a 1500-byte packet still takes 12 ns to send, above ns-3's 1 ns resolution.
 */
constexpr double kMinDataRateBps = 1.0;
constexpr double kMaxDataRateBps = 1e12; ///< the largest rate (see kMinDataRateBps)
/// Durations: ns-3's Time holds about 9.2e9 s in nanoseconds; 1e9 s leaves room for sums.
constexpr double kMaxSeconds = 1e9;
/**
 * One-way latencies: at most 10 s, far beyond any path on Earth or to a geostationary satellite
 * (0.27 s). Measured with ns-3's TCP defaults: a small dlsim run completes at 22 s one way, and
 * at 25 s TCP gives its connections up (its retransmissions run out before an ACK can return),
 * which dlsim could only report as a lost connection; 10 s leaves a margin for larger messages.
 */
constexpr double kMaxLatencySeconds = 10.0;
/**
 * Periods that make events (on/off times of cross traffic, evaluation intervals): at least 1 ms,
 * so that they cost no more than about 1,000 events per simulated second each, the order of the
 * packets of a 10 Mbit/s flow; shorter ones would let the events of one instant grow without
 * simulated time advancing.
 */
constexpr double kMinPeriodSeconds = 1e-3;
/// What comparisons of differences of times written in decimal forgive (1.001 - 1.0 is just
/// under 1e-3 in binary floating point): one nanosecond, ns-3's time resolution.
constexpr double kTimeSlack = 1e-9;

/**
 * \brief Throws ConfigValueError, "<where>: rate ... bit/s ...", unless kMinDataRateBps <= bps
 * <= kMaxDataRateBps.
 * \param where names the value in messages
 * \param bps the rate
 */
void CheckDataRateBps(const std::string& where, double bps);

/**
 * \param bps a rate
 * \return it for people, in Mbit/s with four significant digits, e.g. "10 Mbit/s"
 */
std::string RateText(double bps);

/**
 * \brief Throws ConfigValueError, "<where>: latency ... s ...", unless 0 <= seconds <=
 * kMaxLatencySeconds.
 * \param where names the value in messages
 * \param seconds the latency
 */
void CheckLatencySeconds(const std::string& where, double seconds);

/**
 * A data rate with a unit, e.g. "10Mbps", "1.5Gbps", "800kbps", "100Mb/s", in bit/s, from
 * kMinDataRateBps to kMaxDataRateBps. Throws ConfigValueError naming `key` for anything else (a
 * unit is required).
 * \param key the scenario key, for messages
 * \param text the value
 * \return the rate
 */
double ParseDataRateBps(const std::string& key, const std::string& text);

/**
 * A duration with a unit (s, ms, us, ns), e.g. "10ms", in seconds, from 0 to kMaxSeconds.
 * Throws ConfigValueError naming `key` otherwise.
 * \param key the scenario key, for messages
 * \param text the value
 * \return the duration
 */
double ParseSeconds(const std::string& key, const std::string& text);

/**
 * \param key the scenario key, for messages
 * \param text the value
 * \return a one-way latency with a unit, from 0 to kMaxLatencySeconds
 * \throws ConfigValueError naming the key otherwise
 */
double ParseLatencySeconds(const std::string& key, const std::string& text);

/**
 * \param key the scenario key, for messages
 * \param text the value
 * \return a period with a unit, from kMinPeriodSeconds to kMaxSeconds
 * \throws ConfigValueError naming the key otherwise
 */
double ParsePeriodSeconds(const std::string& key, const std::string& text);

/**
 * The value a random variable always gives when it is an ns3::ConstantRandomVariable (its
 * draws can then be checked when it is parsed), or NaN.
 * \param variable a random variable
 * \return its constant, or NaN
 */
double ConstantValueOf(Ptr<RandomVariableStream> variable);

} // namespace ns3

#endif // DLSIM_RANDOM_VARIABLE_SPEC_H
