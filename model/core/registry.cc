// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "registry.h"

namespace dlsim
{

namespace
{

AlgorithmKey
MakeKey(const std::string& name,
        KeyType type,
        const std::string& defaultValue,
        double min,
        double max,
        const std::string& help)
{
    return AlgorithmKey{name, type, defaultValue, min, max, {}, false, help};
}

std::string
WholeBound(double value)
{
    return std::to_string(static_cast<uint64_t>(value));
}

} // namespace

std::string
JoinNames(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& item : items)
    {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

AlgorithmKey
AlgorithmKey::Sets(std::vector<std::string> names) const
{
    AlgorithmKey key = *this;
    key.attributes = std::move(names);
    return key;
}

bool
SameKey(const AlgorithmKey& a, const AlgorithmKey& b)
{
    return a.type == b.type && a.defaultValue == b.defaultValue && a.min == b.min && a.max == b.max
           && a.choices == b.choices && a.allowsAuto == b.allowsAuto && a.help == b.help
           && a.attributes == b.attributes;
}

uint64_t&
RegistryGeneration()
{
    static uint64_t generation = 0;
    return generation;
}

AlgorithmKey
AlgorithmKey::Number(const std::string& name,
                     const std::string& defaultValue,
                     double min,
                     double max,
                     const std::string& help)
{
    return MakeKey(name, KeyType::Number, defaultValue, min, max, help);
}

AlgorithmKey
AlgorithmKey::NumberOrAuto(const std::string& name,
                           const std::string& defaultValue,
                           double min,
                           double max,
                           const std::string& help)
{
    AlgorithmKey key = MakeKey(name, KeyType::Number, defaultValue, min, max, help);
    key.allowsAuto = true;
    return key;
}

AlgorithmKey
AlgorithmKey::WholeNumber(const std::string& name,
                          const std::string& defaultValue,
                          uint64_t min,
                          uint64_t max,
                          const std::string& help)
{
    return MakeKey(name,
                   KeyType::WholeNumber,
                   defaultValue,
                   static_cast<double>(min),
                   static_cast<double>(max),
                   help);
}

AlgorithmKey
AlgorithmKey::Bool(const std::string& name,
                   const std::string& defaultValue,
                   const std::string& help)
{
    return MakeKey(name, KeyType::Bool, defaultValue, 0.0, 0.0, help);
}

AlgorithmKey
AlgorithmKey::Choice(const std::string& name,
                     const std::string& defaultValue,
                     const std::vector<std::string>& choices,
                     const std::string& help)
{
    AlgorithmKey key = MakeKey(name, KeyType::Choice, defaultValue, 0.0, 0.0, help);
    key.choices = choices;
    return key;
}

AlgorithmKey
AlgorithmKey::NumberList(const std::string& name,
                         const std::string& defaultValue,
                         double min,
                         double max,
                         const std::string& help)
{
    return MakeKey(name, KeyType::NumberList, defaultValue, min, max, help);
}

void
AlgorithmKey::Check(const std::string& value) const
{
    auto fail = [this, &value](const std::string& expected)
    {
        throw std::invalid_argument(name + ": expected " + expected + ", got '" + ShownText(value)
                                    + "'");
    };
    switch (type)
    {
        case KeyType::Number:
        {
            double v = 0.0;
            if (!(allowsAuto && value == "auto") && (!ParseDecimal(value, v) || v < min || v > max))
            {
                fail("a number from " + FormatBound(min) + " to " + FormatBound(max)
                     + (allowsAuto ? ", or auto" : ""));
            }
            return;
        }
        case KeyType::WholeNumber:
        {
            uint64_t v = 0;
            if (!ParseWholeNumber(value, v) || v < min || v > max)
            {
                fail("a whole number from " + WholeBound(min) + " to " + WholeBound(max));
            }
            return;
        }
        case KeyType::Bool:
        {
            bool v = false;
            if (!ParseBool(value, v))
            {
                fail("true or false");
            }
            return;
        }
        case KeyType::Choice:
            for (const auto& c : choices)
            {
                if (value == c)
                {
                    return;
                }
            }
            fail("one of " + JoinNames(choices));
            return;
        case KeyType::NumberList:
        {
            std::vector<std::string> items;
            std::string problem = SplitList(value, items);
            if (!problem.empty())
            {
                fail("a list of numbers (" + problem + ")");
            }
            if (items.empty())
            {
                fail("a list of at least one number");
            }
            for (const auto& item : items)
            {
                double v = 0.0;
                if (!ParseDecimal(item, v) || v < min || v > max)
                {
                    fail("numbers from " + FormatBound(min) + " to " + FormatBound(max));
                }
            }
            return;
        }
        case KeyType::Text:
        case KeyType::Path: // read, and named in any error, by whoever opens it
            return;
    }
}

AlgorithmKey
AlgorithmKey::Text(const std::string& name,
                   const std::string& defaultValue,
                   const std::string& help)
{
    return MakeKey(name, KeyType::Text, defaultValue, 0.0, 0.0, help);
}

AlgorithmKey
AlgorithmKey::Path(const std::string& name,
                   const std::string& defaultValue,
                   const std::string& help,
                   const std::vector<std::string>& words)
{
    AlgorithmKey key = MakeKey(name, KeyType::Path, defaultValue, 0.0, 0.0, help);
    key.choices = words;
    return key;
}

RegisteredParameters::RegisteredParameters(std::string kind,
                                           std::string name,
                                           std::map<std::string, std::string> values)
    : m_kind(std::move(kind)), m_name(std::move(name)), m_values(std::move(values))
{}

const std::string&
RegisteredParameters::GetName() const
{
    return m_name;
}

const std::string&
RegisteredParameters::GetString(const std::string& key) const
{
    auto it = m_values.find(key);
    if (it == m_values.end())
    {
        throw std::invalid_argument(m_kind + " " + m_name + " has no key '" + key + "'");
    }
    return it->second;
}

double
RegisteredParameters::GetDouble(const std::string& key) const
{
    const std::string& text = GetString(key);
    double v = 0.0;
    if (!ParseDecimal(text, v))
    {
        throw std::invalid_argument(key + ": expected a number, got '" + ShownText(text) + "'");
    }
    return v;
}

uint64_t
RegisteredParameters::GetUint(const std::string& key) const
{
    const std::string& text = GetString(key);
    uint64_t v = 0;
    if (!ParseWholeNumber(text, v))
    {
        throw std::invalid_argument(key + ": expected a whole number, got '" + ShownText(text)
                                    + "'");
    }
    return v;
}

bool
RegisteredParameters::GetBool(const std::string& key) const
{
    const std::string& text = GetString(key);
    bool v = false;
    if (!ParseBool(text, v))
    {
        throw std::invalid_argument(key + ": expected true or false, got '" + ShownText(text)
                                    + "'");
    }
    return v;
}

std::vector<double>
RegisteredParameters::GetDoubleList(const std::string& key) const
{
    const std::string& text = GetString(key);
    std::vector<std::string> items;
    std::vector<double> values;
    bool ok = SplitList(text, items).empty() && !items.empty();
    for (const auto& item : items)
    {
        double v = 0.0;
        ok = ok && ParseDecimal(item, v);
        values.push_back(v);
    }
    if (!ok)
    {
        throw std::invalid_argument(key + ": expected a list of numbers, got '" + ShownText(text)
                                    + "'");
    }
    return values;
}

bool
RegisteredParameters::IsAuto(const std::string& key) const
{
    return GetString(key) == "auto";
}

void
RegisteredParameters::Set(const std::string& key, const std::string& value)
{
    GetString(key);
    m_values[key] = value;
}

const std::map<std::string, std::string>&
RegisteredParameters::GetValues() const
{
    return m_values;
}

} // namespace dlsim
