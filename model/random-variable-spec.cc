// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "random-variable-spec.h"

#include "ns3/object-factory.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// Whether ns-3 can parse `text` as a value of the given attribute type without aborting.
bool
IsWellFormed(const std::string& valueType, const std::string& text)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    {
        return false;
    }
    char* end = nullptr;
    if (valueType == "ns3::DoubleValue")
    {
        double v = std::strtod(text.c_str(), &end);
        return *end == '\0' && std::isfinite(v);
    }
    if (valueType == "ns3::IntegerValue")
    {
        std::strtoll(text.c_str(), &end, 10);
        return *end == '\0';
    }
    if (valueType == "ns3::UintegerValue")
    {
        std::strtoull(text.c_str(), &end, 10);
        return *end == '\0' && text[0] != '-';
    }
    if (valueType == "ns3::BooleanValue")
    {
        return text == "true" || text == "false" || text == "1" || text == "0";
    }
    return false; // other attribute types cannot be given as text here
}

} // namespace

bool
IsRandomVariableSpec(const std::string& spec)
{
    return spec.rfind("ns3::", 0) == 0;
}

Ptr<RandomVariableStream>
ParseRandomVariable(const std::string& key, const std::string& spec)
{
    auto fail = [&key, &spec](const std::string& why)
    {
        return ConfigValueError(key + ": invalid random variable '" + ShownText(spec)
                                + "': " + why);
    };
    std::string name = spec;
    std::string attributes;
    size_t open = spec.find('[');
    if (open != std::string::npos)
    {
        if (spec.back() != ']')
        {
            throw fail("expected Name[Attribute=value|...]");
        }
        name = spec.substr(0, open);
        attributes = spec.substr(open + 1, spec.size() - open - 2);
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid)
        || !tid.IsChildOf(RandomVariableStream::GetTypeId()) || !tid.HasConstructor())
    {
        throw fail("'" + ShownText(name)
                   + "' is not an ns-3 random variable type (e.g. "
                     "ns3::UniformRandomVariable, ns3::ConstantRandomVariable)");
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    size_t begin = 0;
    while (begin < attributes.size())
    {
        size_t end = attributes.find('|', begin);
        std::string item = attributes.substr(begin, end == std::string::npos ? end : end - begin);
        begin = end == std::string::npos ? attributes.size() : end + 1;
        size_t eq = item.find('=');
        if (eq == std::string::npos)
        {
            throw fail("expected Attribute=value, got '" + ShownText(item) + "'");
        }
        std::string attribute = item.substr(0, eq);
        std::string value = item.substr(eq + 1);
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(attribute, &info))
        {
            throw fail(ShownText(name) + " has no attribute '" + ShownText(attribute) + "'");
        }
        // ns-3 aborts the process on a malformed number, so check the text first.
        if (!IsWellFormed(info.checker->GetValueTypeName(), value))
        {
            throw fail("bad value '" + ShownText(value) + "' for attribute " + attribute);
        }
        Ptr<AttributeValue> parsed = info.checker->CreateValidValue(StringValue(value));
        if (!parsed)
        {
            throw fail("bad value '" + ShownText(value) + "' for attribute " + attribute);
        }
        factory.Set(attribute, *parsed);
    }
    return factory.Create<RandomVariableStream>();
}

namespace
{

/// "12.5e3" at the start of `text` (digits, an optional point, an optional exponent): its length.
size_t
NumberLength(const std::string& text, size_t start)
{
    size_t i = start;
    size_t digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        ++i;
        ++digits;
    }
    if (i < text.size() && text[i] == '.')
    {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return 0;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E'))
    {
        size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-'))
        {
            ++j;
        }
        size_t exponentDigits = 0;
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
        {
            ++j;
            ++exponentDigits;
        }
        if (exponentDigits > 0)
        {
            i = j;
        }
    }
    return i - start;
}

// Parsed by hand rather than with std::regex: Debian's libns3-topology-read compiles a regex
// when it is loaded, and this program's own std::regex instantiations (from a newer
// libstdc++) would be bound in its place and reject that pattern, aborting at start-up.
double
ParseWithUnit(const std::string& key,
              const std::string& text,
              const std::map<std::string, double>& units,
              const std::string& example)
{
    auto isSpace = [](char c)
    {
        return std::isspace(static_cast<unsigned char>(c)) != 0;
    };
    size_t begin = 0;
    while (begin < text.size() && isSpace(text[begin]))
    {
        ++begin;
    }
    size_t end = text.size();
    while (end > begin && isSpace(text[end - 1]))
    {
        --end;
    }
    const std::string trimmed = text.substr(begin, end - begin);
    const size_t numberLength = NumberLength(trimmed, 0);
    if (numberLength > 0)
    {
        size_t unitStart = numberLength;
        while (unitStart < trimmed.size() && isSpace(trimmed[unitStart]))
        {
            ++unitStart;
        }
        auto unit = units.find(trimmed.substr(unitStart));
        if (unit != units.end())
        {
            double value
                = std::strtod(trimmed.substr(0, numberLength).c_str(), nullptr) * unit->second;
            if (std::isfinite(value))
            {
                return value;
            }
        }
    }
    throw ConfigValueError(key + ": cannot read '" + ShownText(text)
                           + "' (expected a number and a unit, e.g. " + example + ")");
}

} // namespace

double
ParseDataRateBps(const std::string& key, const std::string& text)
{
    static const std::map<std::string, double> units = {
        {"bps", 1.0},
        {"b/s", 1.0},
        {"kbps", 1e3},
        {"Kbps", 1e3},
        {"kb/s", 1e3},
        {"Kb/s", 1e3},
        {"Mbps", 1e6},
        {"Mb/s", 1e6},
        {"Gbps", 1e9},
        {"Gb/s", 1e9},
        {"Tbps", 1e12}, // the fastest rate dlsim gives (kMaxDataRateBps) must be writable
        {"Tb/s", 1e12},
        {"Bps", 8.0},
        {"KBps", 8e3},
        {"kBps", 8e3},
        {"MBps", 8e6},
        {"GBps", 8e9},
    };
    double bps = ParseWithUnit(key, text, units, "10Mbps");
    CheckDataRateBps(key, bps);
    return bps;
}

double
ParseSeconds(const std::string& key, const std::string& text)
{
    static const std::map<std::string, double> units = {
        {"s", 1.0},
        {"ms", 1e-3},
        {"us", 1e-6},
        {"ns", 1e-9},
    };
    const double seconds = ParseWithUnit(key, text, units, "10ms");
    if (seconds > kMaxSeconds)
    {
        throw ConfigValueError(key + ": '" + ShownText(text) + "' is beyond "
                               + FormatBound(kMaxSeconds)
                               + " s, the longest time dlsim gives ns-3");
    }
    return seconds;
}

double
ParseLatencySeconds(const std::string& key, const std::string& text)
{
    const double seconds = ParseSeconds(key, text);
    CheckLatencySeconds(key, seconds);
    return seconds;
}

double
ParsePeriodSeconds(const std::string& key, const std::string& text)
{
    const double seconds = ParseSeconds(key, text);
    if (seconds < kMinPeriodSeconds)
    {
        throw ConfigValueError(key + ": '" + ShownText(text)
                               + "' is shorter than 1ms, the shortest period dlsim allows (it "
                                 "would make events faster than simulated time advances)");
    }
    return seconds;
}

void
CheckDataRateBps(const std::string& where, double bps)
{
    const std::string shown = FormatBound(bps) + " bit/s";
    if (!std::isfinite(bps))
    {
        throw ConfigValueError(where + ": rate is not a finite number");
    }
    if (bps <= 0)
    {
        throw ConfigValueError(where + (bps < 0 ? ": negative rate " : ": rate ") + shown
                               + ": rates must be positive (ns-3's point-to-point device cannot "
                                 "send at rate 0)");
    }
    if (bps < kMinDataRateBps)
    {
        throw ConfigValueError(where + ": rate " + shown
                               + " is below 1 bit/s, the smallest rate ns-3 can use");
    }
    if (bps > kMaxDataRateBps)
    {
        throw ConfigValueError(where + ": rate " + shown
                               + " is above 1 Tbit/s (1e12 bit/s), the fastest rate dlsim gives "
                                 "ns-3");
    }
}

void
CheckLatencySeconds(const std::string& where, double seconds)
{
    if (!(seconds >= 0.0) || seconds > kMaxLatencySeconds)
    {
        throw ConfigValueError(where + ": latency " + FormatBound(seconds) + " s is outside 0 s to "
                               + FormatBound(kMaxLatencySeconds)
                               + " s (TCP could not connect across it)");
    }
}

double
ConstantValueOf(Ptr<RandomVariableStream> variable)
{
    Ptr<ConstantRandomVariable> constant = DynamicCast<ConstantRandomVariable>(variable);
    return constant ? constant->GetConstant() : std::nan("");
}

std::string
RateText(double bps)
{
    std::ostringstream s;
    s << std::setprecision(4) << bps / 1e6 << " Mbit/s";
    return s.str();
}

} // namespace ns3
