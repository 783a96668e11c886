// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "algorithm-registry.h"

#include "choco-sharing.h"
#include "dpsgd-sharing.h"
#include "partial-model-sharing.h"
#include "sparse-push-sharing.h"
#include "value-text.h"

#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * dlsim's own algorithms, in the order their keys appear in scenarios and `--help`. They live in
 * the static library dlsim-core, so they are named here rather than registered by static objects
 * in their own files: the linker would drop those files' objects, since nothing references them.
 */
std::vector<AlgorithmRegistration>
BuiltinAlgorithms()
{
    return {DpsgdRegistration(),
            RandomSamplingRegistration(),
            TopkRegistration(),
            JwinsRegistration(),
            ChocoRegistration(),
            SparsePushRegistration(),
            ScspRegistration()};
}

std::string
Join(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& item : items)
    {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

bool
SameKey(const AlgorithmKey& a, const AlgorithmKey& b)
{
    return a.type == b.type && a.defaultValue == b.defaultValue && a.min == b.min && a.max == b.max
           && a.choices == b.choices && a.allowsAuto == b.allowsAuto && a.help == b.help;
}

struct Registry
{
    /// Pointers: a registration's address stays valid when more are added.
    std::vector<std::unique_ptr<AlgorithmRegistration>> algorithms;
    uint64_t generation = 0;

    const AlgorithmRegistration* Find(const std::string& name) const
    {
        for (const auto& a : algorithms)
        {
            if (a->name == name)
            {
                return a.get();
            }
        }
        return nullptr;
    }

    const AlgorithmKey* FindKey(const std::string& name) const
    {
        for (const auto& a : algorithms)
        {
            for (const auto& key : a->keys)
            {
                if (key.name == name)
                {
                    return &key;
                }
            }
        }
        return nullptr;
    }

    void Add(AlgorithmRegistration registration)
    {
        const std::string& name = registration.name;
        if (name.empty() || name.find_first_of(" \t=,[]") != std::string::npos)
        {
            throw std::invalid_argument("algorithm name '" + name
                                        + "': must be non-empty, without blanks, '=', ',' or "
                                          "brackets");
        }
        if (Find(name))
        {
            throw std::invalid_argument("algorithm '" + name + "' is registered twice");
        }
        if (!registration.create)
        {
            throw std::invalid_argument("algorithm '" + name + "' has no factory (create)");
        }
        for (const auto& key : registration.keys)
        {
            if (key.name.empty() || key.name.find_first_of(" \t=") != std::string::npos)
            {
                throw std::invalid_argument("algorithm '" + name + "': bad key name '" + key.name
                                            + "'");
            }
            const AlgorithmKey* other = FindKey(key.name);
            if (other && !SameKey(*other, key))
            {
                throw std::invalid_argument("algorithm '" + name + "' declares key '" + key.name
                                            + "' differently from the algorithm that has it");
            }
            key.Check(key.defaultValue);
        }
        algorithms.push_back(std::make_unique<AlgorithmRegistration>(std::move(registration)));
        ++generation;
    }
};

Registry&
TheRegistry()
{
    // Built on first use: registrations from static objects in other files may come first.
    static Registry registry = []()
    {
        Registry r;
        for (auto& registration : BuiltinAlgorithms())
        {
            r.Add(std::move(registration));
        }
        return r;
    }();
    return registry;
}

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
            fail("one of " + Join(choices));
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
            return;
    }
}

AlgorithmParameters::AlgorithmParameters(std::string algorithm,
                                         std::map<std::string, std::string> values,
                                         uint32_t trainingRounds)
    : m_algorithm(std::move(algorithm)), m_values(std::move(values)),
      m_trainingRounds(trainingRounds)
{}

const std::string&
AlgorithmParameters::GetAlgorithm() const
{
    return m_algorithm;
}

uint32_t
AlgorithmParameters::GetTrainingRounds() const
{
    return m_trainingRounds;
}

const std::string&
AlgorithmParameters::GetString(const std::string& key) const
{
    auto it = m_values.find(key);
    if (it == m_values.end())
    {
        throw std::invalid_argument("algorithm " + m_algorithm + " has no key '" + key + "'");
    }
    return it->second;
}

double
AlgorithmParameters::GetDouble(const std::string& key) const
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
AlgorithmParameters::GetUint(const std::string& key) const
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
AlgorithmParameters::GetBool(const std::string& key) const
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
AlgorithmParameters::GetDoubleList(const std::string& key) const
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
AlgorithmParameters::IsAuto(const std::string& key) const
{
    return GetString(key) == "auto";
}

void
AlgorithmParameters::Set(const std::string& key, const std::string& value)
{
    GetString(key);
    m_values[key] = value;
}

const std::map<std::string, std::string>&
AlgorithmParameters::GetValues() const
{
    return m_values;
}

void
AlgorithmRegistry::Register(AlgorithmRegistration registration)
{
    TheRegistry().Add(std::move(registration));
}

const AlgorithmRegistration*
AlgorithmRegistry::Find(const std::string& name)
{
    return TheRegistry().Find(name);
}

const AlgorithmRegistration&
AlgorithmRegistry::Get(const std::string& name)
{
    const AlgorithmRegistration* registration = Find(name);
    if (!registration)
    {
        throw std::invalid_argument("unknown algorithm '" + ShownText(name)
                                    + "' (known: " + Join(Names()) + ")");
    }
    return *registration;
}

std::vector<std::string>
AlgorithmRegistry::Names()
{
    std::vector<std::string> names;
    for (const auto& a : TheRegistry().algorithms)
    {
        names.push_back(a->name);
    }
    return names;
}

std::vector<AlgorithmKey>
AlgorithmRegistry::Keys()
{
    std::vector<AlgorithmKey> keys;
    for (const auto& a : TheRegistry().algorithms)
    {
        for (const auto& key : a->keys)
        {
            bool seen = false;
            for (const auto& k : keys)
            {
                seen = seen || k.name == key.name;
            }
            if (!seen)
            {
                keys.push_back(key);
            }
        }
    }
    return keys;
}

const AlgorithmKey*
AlgorithmRegistry::FindKey(const std::string& name)
{
    return TheRegistry().FindKey(name);
}

uint64_t
AlgorithmRegistry::Generation()
{
    return TheRegistry().generation;
}

AlgorithmParameters
AlgorithmRegistry::Parameters(const std::string& name,
                              const std::map<std::string, std::string>& values,
                              uint32_t trainingRounds)
{
    const AlgorithmRegistration& registration = Get(name);
    std::map<std::string, std::string> resolved;
    std::vector<std::string> names;
    for (const auto& key : registration.keys)
    {
        resolved[key.name] = key.defaultValue;
        names.push_back(key.name);
    }
    for (const auto& [key, value] : values)
    {
        auto it = resolved.find(key);
        if (it == resolved.end())
        {
            throw std::invalid_argument("algorithm " + name + " has no key '" + key
                                        + "' (its keys: " + (names.empty() ? "none" : Join(names))
                                        + ")");
        }
        it->second = value;
    }
    for (const auto& key : registration.keys)
    {
        key.Check(resolved[key.name]);
    }
    return AlgorithmParameters(name, resolved, trainingRounds);
}

AlgorithmParameters
ParametersOf(const SharingConfig& config)
{
    const AlgorithmRegistration& registration = AlgorithmRegistry::Get(config.algorithm);
    std::map<std::string, std::string> values;
    if (registration.fromSharingConfig)
    {
        registration.fromSharingConfig(config, values);
    }
    for (const auto& [key, value] : config.parameters)
    {
        values[key] = value;
    }
    return AlgorithmRegistry::Parameters(config.algorithm, values, config.trainingRounds);
}

std::unique_ptr<SharingAlgorithm>
CreateSharingAlgorithm(const AlgorithmParameters& parameters)
{
    return AlgorithmRegistry::Get(parameters.GetAlgorithm()).create(parameters);
}

std::map<std::string, std::string>
ResolveOnOverlay(SharingConfig& config, const Adjacency& overlay, uint64_t seed, std::ostream& log)
{
    const AlgorithmRegistration& registration = AlgorithmRegistry::Get(config.algorithm);
    if (!registration.resolve)
    {
        return {};
    }
    AlgorithmParameters parameters = ParametersOf(config);
    std::map<std::string, std::string> shown = registration.resolve(parameters, overlay, seed, log);
    config.parameters = parameters.GetValues();
    return shown;
}

std::string
AlgorithmFigureLabel(const std::map<std::string, std::string>& config)
{
    const std::string& name = config.at("algorithm");
    const AlgorithmRegistration* registration = AlgorithmRegistry::Find(name);
    return registration && registration->label ? registration->label(config) : name;
}

AlgorithmRegistrar::AlgorithmRegistrar(AlgorithmRegistration registration)
{
    AlgorithmRegistry::Register(std::move(registration));
}

} // namespace ns3
