// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Values written as text (scenario keys, algorithm parameters): one set of parsing rules, so a
 * key means the same whether the runner or the learning core reads it.
 */
#ifndef DLSIM_VALUE_TEXT_H
#define DLSIM_VALUE_TEXT_H

#include <cstdint>
#include <string>
#include <vector>

namespace dlsim
{

/**
 * The whole text as a decimal number: true only when strtod consumes every character (an
 * embedded NUL would otherwise end the text early), the text has no blanks, hexadecimal, "inf"
 * or "nan", and the value is finite (an overflow gives infinity).
 * \param text the text
 * \param[out] value the number (when true)
 * \return whether the text is such a number
 */
bool ParseDecimal(const std::string& text, double& value);

/**
 * \param text the text
 * \param[out] value the number (when true)
 * \return whether the whole text is a whole number: digits only (no sign, no blanks), no
 * overflow
 */
bool ParseWholeNumber(const std::string& text, uint64_t& value);

/**
 * \param text the text
 * \param[out] value the truth value (when true)
 * \return whether the text is true, 1, yes, on or false, 0, no, off
 */
bool ParseBool(const std::string& text, bool& value);

/**
 * A bracketed list "[a, b, c]" (or one bare value) as its items, blanks around them removed.
 * \param text the text
 * \param[out] items the items
 * \return an empty string, or what is wrong ("a list must end with ']'", "empty item")
 */
std::string SplitList(const std::string& text, std::vector<std::string>& items);

/**
 * A value as a message can show it: control characters (a NUL would end the message early) as
 * `\\xNN`, and a value of more than 80 bytes cut to its first 60, followed by "... (N bytes)".
 * \param text the value
 * \return the text to show
 */
std::string ShownText(const std::string& text);

/**
 * \param value a bound
 * \return it for messages: 1e-09 rather than std::to_string's 0.000000
 */
std::string FormatBound(double value);

/**
 * \param value a number
 * \return it as text that reads back as exactly the same double ("%.17g")
 */
std::string ExactText(double value);

} // namespace dlsim

#endif // DLSIM_VALUE_TEXT_H
