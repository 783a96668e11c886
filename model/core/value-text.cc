// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "value-text.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace dlsim
{

bool
ParseDecimal(const std::string& text, double& value)
{
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
    {
        return false;
    }
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(value);
}

bool
ParseWholeNumber(const std::string& text, uint64_t& value)
{
    // Digits only: strtoull would skip leading blanks and then accept a sign, turning " -5" into
    // 2^64 - 5; and it stops at an embedded NUL, so `end` must reach the real end of the text.
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    value = std::strtoull(text.c_str(), &end, 10);
    return end == text.c_str() + text.size() && errno != ERANGE;
}

bool
ParseBool(const std::string& text, bool& value)
{
    if (text == "true" || text == "1" || text == "yes" || text == "on")
    {
        value = true;
        return true;
    }
    if (text == "false" || text == "0" || text == "no" || text == "off")
    {
        value = false;
        return true;
    }
    return false;
}

std::string
SplitList(const std::string& text, std::vector<std::string>& items)
{
    auto trim = [](std::string t)
    {
        t.erase(0, t.find_first_not_of(" \t"));
        t.erase(t.find_last_not_of(" \t") + 1);
        return t;
    };
    std::string body = trim(text);
    if (!body.empty() && body.front() == '[')
    {
        if (body.back() != ']')
        {
            return "a list must end with ']'";
        }
        body = body.substr(1, body.size() - 2);
    }
    items.clear();
    std::stringstream ss(body);
    for (std::string item; std::getline(ss, item, ',');)
    {
        item = trim(item);
        if (item.empty())
        {
            return "empty item";
        }
        items.push_back(item);
    }
    return "";
}

std::string
ShownText(const std::string& text)
{
    // A value of megabytes would bury the message: its start says which value it is.
    constexpr size_t kShownBytes = 60;
    size_t shown = text.size();
    if (text.size() > kShownBytes + 20)
    {
        shown = kShownBytes;
        while (shown > 0 && (static_cast<unsigned char>(text[shown]) & 0xc0) == 0x80)
        {
            --shown; // not in the middle of a UTF-8 character
        }
    }
    std::string out;
    for (unsigned char c : text.substr(0, shown))
    {
        if (c < 0x20 || c == 0x7f)
        {
            const char* hex = "0123456789abcdef";
            out += std::string("\\x") + hex[c >> 4] + hex[c & 0xf];
        }
        else
        {
            out.push_back(static_cast<char>(c));
        }
    }
    if (shown < text.size())
    {
        out += "... (" + std::to_string(text.size()) + " bytes)";
    }
    return out;
}

std::string
FormatBound(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string
ExactText(double value)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", value);
    return text;
}

} // namespace dlsim
