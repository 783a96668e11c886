// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A swept value (a grid axis's value) as a number: for sweep figures' x axes, index.csv's
 * numeric columns and the order of index.csv's rows.
 */
#ifndef DLSIM_SWEPT_VALUES_H
#define DLSIM_SWEPT_VALUES_H

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * `value` of `key` as a number for an axis, with the unit for the axis title (`unit`): a rate in
 * Mbit/s, a latency in ms, else the number itself (empty unit). NaN when it is no one number (a
 * random variable, a file name, text).
 */
double SweptNumber(const std::string& key, const std::string& value, std::string& unit);

/**
 * A swept value as a number in base units, for index.csv: a rate ("10Mbps") in bit/s with column
 * suffix "_bps", a latency ("10ms") in seconds with "_s"; empty suffix when the key has no unit.
 */
std::string NumericColumnSuffix(const std::string& key);
double NumericValue(const std::string& key, const std::string& value);

/**
 * The first columns of index.csv and points.csv, each followed by a comma: every axis, then the
 * swept rates and latencies once more as numbers in base units (NumericColumnSuffix), for
 * plotting tools.
 */
std::string AxisColumnsHeader(const std::vector<std::string>& axes);

/// The fields of those columns for the values `valueOf(axis)`, each followed by a comma.
std::string AxisColumns(const std::vector<std::string>& axes,
                        const std::function<std::string(const std::string&)>& valueOf);

/// Whether `a` comes before `b` on `axis`: rates and latencies by their value, other numbers as
/// numbers, the rest as text; so a grid's points and `collect` list runs in one order.
bool SweptValueBefore(const std::string& axis, const std::string& a, const std::string& b);

/// Whether `a` and `b` are one value of `axis` written two ways (0.01 and 0.010, 1Mbps and
/// 1000kbps): the same number, or the same text where they are no one number.
bool SameSweptValue(const std::string& axis, const std::string& a, const std::string& b);

} // namespace ns3

#endif // DLSIM_SWEPT_VALUES_H
