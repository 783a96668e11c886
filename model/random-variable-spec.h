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

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * Create a random variable from a string such as "ns3::UniformRandomVariable[Min=5|Max=20]".
 * Unlike ns-3's own parsing, which aborts the process, a bad type name, attribute or value
 * throws ConfigValueError naming `key`.
 */
Ptr<RandomVariableStream> ParseRandomVariable(const std::string& key, const std::string& spec);

/// True when the text looks like a random variable string ("ns3::...").
bool IsRandomVariableSpec(const std::string& spec);

/**
 * A data rate with a unit, e.g. "10Mbps", "1.5Gbps", "800kbps", "100Mb/s", in bit/s.
 * Throws ConfigValueError naming `key` for anything else (a unit is required).
 */
double ParseDataRateBps(const std::string& key, const std::string& text);

/// A duration with a unit (s, ms, us, ns), e.g. "10ms", in seconds. Throws ConfigValueError.
double ParseSeconds(const std::string& key, const std::string& text);

} // namespace ns3

#endif // DLSIM_RANDOM_VARIABLE_SPEC_H
