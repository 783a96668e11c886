// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "ns3-attribute-defaults.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"
#include "random-variable-spec.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/**
 * Values an attribute's type accepts but ns-3 cannot run with (a TCP window of 0 crashes it, a
 * time-out of 0 retries at the same instant for ever): the least and the most, in the
 * attribute's unit (seconds for times).
 */
struct Limit
{
    double min;
    double max;
};

const std::map<std::string, Limit>&
Limits()
{
    static const std::map<std::string, Limit> limits = {
        {"ns3::TcpSocketBase::MaxWindowSize", {1, 65535}},
        {"ns3::TcpSocketBase::ReTxThreshold", {1, 65535}},
        {"ns3::TcpSocket::InitialSlowStartThreshold", {1, 4294967295.0}},
        {"ns3::TcpSocket::ConnCount", {1, 1000}},
        {"ns3::TcpSocket::DataRetries", {1, 1000}},
        {"ns3::TcpSocket::DelAckCount", {1, 65535}},
        {"ns3::TcpSocket::ConnTimeout", {1e-3, 3600}},
        {"ns3::TcpSocket::PersistTimeout", {1e-3, 3600}},
        {"ns3::RttEstimator::InitialEstimation", {1e-6, 3600}},
    };
    return limits;
}

/// Throws naming `key` unless the value is within the attribute's Limit, if it has one.
void
CheckLimit(const std::string& key, const std::string& text, const AttributeValue& value)
{
    auto limit = Limits().find(key.substr(4));
    if (limit == Limits().end())
    {
        return;
    }
    double number = 0;
    if (const auto* t = dynamic_cast<const TimeValue*>(&value))
    {
        number = t->Get().GetSeconds();
    }
    else if (const auto* u = dynamic_cast<const UintegerValue*>(&value))
    {
        number = static_cast<double>(u->Get());
    }
    else if (const auto* i = dynamic_cast<const IntegerValue*>(&value))
    {
        number = static_cast<double>(i->Get());
    }
    else if (const auto* d = dynamic_cast<const DoubleValue*>(&value))
    {
        number = d->Get();
    }
    if (!(number >= limit->second.min && number <= limit->second.max))
    {
        throw ConfigValueError(
            key + ": " + ShownText(text) + " is outside " + FormatBound(limit->second.min) + " to "
            + FormatBound(limit->second.max) + (dynamic_cast<const TimeValue*>(&value) ? " s" : "")
            + ", what ns-3's TCP can run with");
    }
}

bool
IsNumber(const std::string& text, bool integer, bool allowSign)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    {
        return false;
    }
    if (!allowSign && (text[0] == '-' || text[0] == '+'))
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    if (integer)
    {
        if (allowSign)
        {
            std::strtoll(text.c_str(), &end, 10);
        }
        else
        {
            std::strtoull(text.c_str(), &end, 10);
        }
        return *end == '\0' && errno != ERANGE;
    }
    double v = std::strtod(text.c_str(), &end);
    return *end == '\0' && std::isfinite(v);
}

/// The value as ns-3 text of the attribute's own type, or throws naming `key`.
Ptr<AttributeValue>
ParseValue(const std::string& key,
           const std::string& text,
           const TypeId::AttributeInformation& info)
{
    // ns-3 names some value types with their namespace and some without.
    std::string type = info.checker->GetValueTypeName();
    if (type.rfind("ns3::", 0) == 0)
    {
        type = type.substr(5);
    }
    auto bad = [&key, &text, &type](const std::string& expected)
    {
        return ConfigValueError(key + ": cannot read '" + ShownText(text) + "' as " + type
                                + " (expected " + expected + ")");
    };
    Ptr<AttributeValue> value;
    if (type == "TimeValue")
    {
        value = Create<TimeValue>(Seconds(ParseSeconds(key, text)));
    }
    else if (type == "DataRateValue")
    {
        value = Create<DataRateValue>(DataRate(static_cast<uint64_t>(ParseDataRateBps(key, text))));
    }
    else if (type == "QueueSizeValue")
    {
        const bool ok = text.size() > 1 && (text.back() == 'p' || text.back() == 'B')
                        && IsNumber(text.substr(0, text.size() - 1), true, false);
        if (!ok)
        {
            throw bad("a packet or byte count like 100p or 150000B");
        }
        value = Create<QueueSizeValue>(QueueSize(text));
    }
    else if (type == "DoubleValue" || type == "IntegerValue" || type == "UintegerValue")
    {
        if (!IsNumber(text, type != "DoubleValue", type != "UintegerValue"))
        {
            throw bad("a number");
        }
        value = info.checker->CreateValidValue(StringValue(text));
    }
    else if (type == "BooleanValue")
    {
        if (text != "true" && text != "false" && text != "1" && text != "0")
        {
            throw bad("true or false");
        }
        value = Create<BooleanValue>(text == "true" || text == "1");
    }
    else if (type == "TypeIdValue")
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(text, &tid))
        {
            throw bad("the name of an ns-3 type, e.g. ns3::TcpNewReno");
        }
        // ns-3 creates whatever type it is given and crashes on using the wrong kind. Type
        // parents cannot tell the kinds apart in general (ns-3 3.37 registers TcpCubic under
        // TcpSocketBase), so the kinds of the attributes that choose TCP's parts are listed.
        static const std::map<std::string, std::string> kinds = {
            {"ns3::TcpL4Protocol::SocketType", "ns3::TcpCongestionOps"},
            {"ns3::TcpL4Protocol::RecoveryType", "ns3::TcpRecoveryOps"},
            {"ns3::TcpL4Protocol::RttEstimatorType", "ns3::RttEstimator"},
        };
        if (!tid.HasConstructor())
        {
            throw bad("the name of an ns-3 type that can be created");
        }
        auto kind = kinds.find(key.substr(4));
        TypeId base;
        if (kind != kinds.end() && TypeId::LookupByNameFailSafe(kind->second, &base) && tid != base
            && !tid.IsChildOf(base) && text != "ns3::TcpCubic")
        {
            throw bad("a kind of " + kind->second);
        }
        value = Create<TypeIdValue>(tid);
    }
    else if (type == "EnumValue" || type == "StringValue")
    {
        // Both read their text without aborting: an unknown enum name is refused below.
        value = info.checker->CreateValidValue(StringValue(text));
    }
    else
    {
        throw ConfigValueError(key + ": attributes of type " + type
                               + " cannot be set from a scenario");
    }
    if (!value)
    {
        throw bad("a value this attribute accepts");
    }
    // Ranges: the attribute's own checker decides (e.g. a minimum of 1 segment).
    Ptr<AttributeValue> checked = info.checker->CreateValidValue(*value);
    if (!checked)
    {
        throw ConfigValueError(key + ": " + ShownText(text)
                               + " is outside what this attribute accepts");
    }
    CheckLimit(key, text, *checked);
    return checked;
}

} // namespace

void
SetNs3AttributeDefaults(const std::map<std::string, std::string>& attributes,
                        const std::map<std::string, std::string>& setByKeys)
{
    for (const auto& [name, text] : attributes)
    {
        const std::string key = "ns3." + ShownText(name);
        auto own = setByKeys.find(name);
        if (own != setByKeys.end())
        {
            throw ConfigValueError(key + ": dlsim sets this attribute itself; use " + own->second);
        }
        size_t split = name.rfind("::");
        if (split == std::string::npos || split == 0)
        {
            throw ConfigValueError(key
                                   + ": expected TYPE::ATTRIBUTE, e.g. "
                                     "ns3::TcpSocketBase::MinRto");
        }
        const std::string typeName = name.substr(0, split);
        const std::string attribute = name.substr(split + 2);
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(typeName, &tid))
        {
            throw ConfigValueError(key + ": no ns-3 type " + ShownText(typeName));
        }
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(attribute, &info))
        {
            throw ConfigValueError(key + ": ns-3 type " + typeName + " has no attribute "
                                   + attribute);
        }
        Ptr<AttributeValue> value = ParseValue(key, text, info);
        if (!Config::SetDefaultFailSafe(name, *value))
        {
            throw ConfigValueError(key + ": ns-3 refused the value " + ShownText(text));
        }
    }
}

} // namespace ns3
