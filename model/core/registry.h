// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What every registry of dlsim (algorithms, datasets, models, partitions) has in common: the
 * keys a registration declares (type, default, range, help) and how their values are checked,
 * the checked values a factory reads, and the list of registrations itself. The runner's key
 * table, `--help` and the checks of the keys read the registrations, so nothing else lists
 * the names or the keys.
 */
#ifndef DLSIM_REGISTRY_H
#define DLSIM_REGISTRY_H

#include "value-text.h"

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlsim
{

/// What kind of value a key takes, which decides how its value is checked.
enum class KeyType
{
    Number,      ///< a decimal number in [min, max]
    WholeNumber, ///< a whole number in [min, max]
    Bool,        ///< true/false (also 1/0, yes/no, on/off)
    Choice,      ///< one of `choices`
    NumberList,  ///< "[a, b, ...]" (or one bare number), every number in [min, max]
    Text,        ///< anything
    Path,        ///< a file or folder the run reads, or one of `choices` (words that name none)
};

/**
 * One key of a registration (an algorithm, dataset, model or partition), as scenarios write it:
 * "topk.alpha" is `alpha` in section [topk]. The name predates the other registries.
 */
struct AlgorithmKey
{
    std::string name;                 ///< the key's name in its section ("alpha")
    KeyType type = KeyType::Text;     ///< how its value is checked
    std::string defaultValue;         ///< the value when a scenario does not set it
    double min = 0.0;                 ///< Number, WholeNumber, NumberList: smallest value allowed
    double max = 0.0;                 ///< ... and the largest
    std::vector<std::string>
        choices; ///< Choice: the values allowed; Path: the words naming no file
    /// Number: "auto" is accepted too, and the registration's `resolve` replaces it before the
    /// run (e.g. a step size tuned on the overlay).
    bool allowsAuto = false;
    std::string help; ///< one line for `--help` and the doc's key table
    /// The ns-3 attributes (full names) the key sets, for keys of the ns-3 layer's registrations
    /// (an underlay's link rate sets ns3::PointToPointNetDevice::DataRate).
    std::vector<std::string> attributes = {};

    /**
     * \brief A decimal number in [min, max].
     * \param name the key's name in its section
     * \param defaultValue the value when a scenario does not set it (checked at registration)
     * \param min the smallest value allowed
     * \param max the largest value allowed
     * \param help one line for `--help`
     * \return the key
     */
    static AlgorithmKey Number(const std::string& name,
                               const std::string& defaultValue,
                               double min,
                               double max,
                               const std::string& help);
    /**
     * \brief A number in [min, max], or "auto" (resolved by the registration before the run).
     * \copydetails Number
     */
    static AlgorithmKey NumberOrAuto(const std::string& name,
                                     const std::string& defaultValue,
                                     double min,
                                     double max,
                                     const std::string& help);
    /**
     * \brief A whole number in [min, max].
     * \copydetails Number
     */
    static AlgorithmKey WholeNumber(const std::string& name,
                                    const std::string& defaultValue,
                                    uint64_t min,
                                    uint64_t max,
                                    const std::string& help);
    /**
     * \brief true/false (also 1/0, yes/no, on/off).
     * \param name the key's name in its section
     * \param defaultValue the value when a scenario does not set it
     * \param help one line for `--help`
     * \return the key
     */
    static AlgorithmKey Bool(const std::string& name,
                             const std::string& defaultValue,
                             const std::string& help);
    /**
     * \brief One of a fixed list of words.
     * \param name the key's name in its section
     * \param defaultValue the value when a scenario does not set it (one of `choices`)
     * \param choices the values allowed
     * \param help one line for `--help`
     * \return the key
     */
    static AlgorithmKey Choice(const std::string& name,
                               const std::string& defaultValue,
                               const std::vector<std::string>& choices,
                               const std::string& help);
    /**
     * \brief "[a, b, ...]" (or one bare number), every number in [min, max].
     * \copydetails Number
     */
    static AlgorithmKey NumberList(const std::string& name,
                                   const std::string& defaultValue,
                                   double min,
                                   double max,
                                   const std::string& help);
    /**
     * \brief Any text, checked by whoever reads it.
     * \copydetails Bool
     */
    static AlgorithmKey Text(const std::string& name,
                             const std::string& defaultValue,
                             const std::string& help);
    /**
     * \brief A file or folder the run reads. A relative path written in a scenario file is read
     * from that file's folder, one given on the command line from the working directory, so a
     * scenario and its data files can move together.
     * \param name the key's name in its section
     * \param defaultValue the value when a scenario does not set it
     * \param help one line for `--help`
     * \param words values that name no file ("builtin"), taken as they are
     * \return the key
     */
    static AlgorithmKey Path(const std::string& name,
                             const std::string& defaultValue,
                             const std::string& help,
                             const std::vector<std::string>& words = {});

    /**
     * \brief Check a value against the key's type and range.
     * \param value the text a scenario gives
     * \throws std::invalid_argument naming the key and the value when the value does not fit
     */
    void Check(const std::string& value) const;

    /**
     * \brief Bind the key to the ns-3 attributes it sets.
     * \param attributes full names of ns-3 attributes ("ns3::PointToPointNetDevice::DataRate")
     * \return the same key with `attributes` set
     */
    AlgorithmKey Sets(std::vector<std::string> attributes) const;
};

/**
 * \brief Whether two keys are declared identically (two registrations may share a key only so).
 * \param a one key
 * \param b the other key
 * \return true when name, type, default, range, choices, help and attributes agree
 */
bool SameKey(const AlgorithmKey& a, const AlgorithmKey& b);

/**
 * The values of a registration's keys (defaults filled in, every value checked), which its
 * factory reads. Typed accessors throw std::invalid_argument naming the key and the value.
 */
class RegisteredParameters
{
  public:
    /**
     * \param kind the registry's kind ("algorithm", "dataset", ...), only for messages
     * \param name the registration's name, only for messages
     * \param values every key's value, already checked
     */
    RegisteredParameters(std::string kind,
                         std::string name,
                         std::map<std::string, std::string> values);

    /// \return the registration's name
    const std::string& GetName() const;

    /**
     * \param key a key of the registration
     * \return its value as written
     */
    const std::string& GetString(const std::string& key) const;
    /// \copydoc GetString
    double GetDouble(const std::string& key) const;
    /// \copydoc GetString
    uint64_t GetUint(const std::string& key) const;
    /// \copydoc GetString
    bool GetBool(const std::string& key) const;
    /// \copydoc GetString
    std::vector<double> GetDoubleList(const std::string& key) const;
    /**
     * \param key a key of the registration
     * \return whether the value is "auto" (a NumberOrAuto key not yet resolved)
     */
    bool IsAuto(const std::string& key) const;

    /**
     * \brief Replace a value (a `resolve` function replacing "auto").
     * \param key a key of the registration (it must exist)
     * \param value its new value
     */
    void Set(const std::string& key, const std::string& value);

    /// \return every key's value, by key
    const std::map<std::string, std::string>& GetValues() const;

  private:
    std::string m_kind;
    std::string m_name;
    std::map<std::string, std::string> m_values;
};

/**
 * \param items names
 * \return them as "a, b, c", for messages
 */
std::string JoinNames(const std::vector<std::string>& items);

/**
 * \return a counter that grows with every registration in any registry: tables built from the
 * registries (the runner's key table) rebuild when it changes
 */
uint64_t& RegistryGeneration();

/**
 * The registrations of one kind, `Registration` being a struct with `name`, `keys` and `create`,
 * a `static constexpr const char* kKind` ("dataset") and a `static std::vector<Registration>
 * Builtins()`: dlsim's own, in the order their keys appear in scenarios and `--help`. Builtins()
 * names every built-in in one function because the linker drops the objects of a static library
 * that nothing references, and static registration objects in them with them.
 *
 * The built-ins are registered on first use, then any that a program registers. Register before
 * anything runs (at start-up or first thing in main): a registry is not locked against
 * concurrent changes.
 */
template<typename Registration>
class Registry
{
  public:
    /**
     * \brief Add a registration (after the built-ins).
     * \param registration its name, keys and factory
     * \throws std::invalid_argument for a taken name, a bad key or a key declared differently
     * by another registration of this kind
     */
    static void Register(Registration registration)
    {
        Add(TheList(), std::move(registration));
    }

    /**
     * \param name a registration's name
     * \return the registration, or nullptr when `name` is not known
     */
    static const Registration* Find(const std::string& name)
    {
        for (const auto& r : TheList())
        {
            if (r->name == name)
            {
                return r.get();
            }
        }
        return nullptr;
    }

    /**
     * \param name a registration's name
     * \return the registration
     * \throws std::invalid_argument naming the known ones when `name` is not one
     */
    static const Registration& Get(const std::string& name)
    {
        const Registration* registration = Find(name);
        if (!registration)
        {
            throw std::invalid_argument(std::string("unknown ") + Registration::kKind + " '"
                                        + ShownText(name) + "' (known: " + JoinNames(Names())
                                        + ")");
        }
        return *registration;
    }

    /// \return the registrations' names, in registration order
    static std::vector<std::string> Names()
    {
        std::vector<std::string> names;
        for (const auto& r : TheList())
        {
            names.push_back(r->name);
        }
        return names;
    }

    /// \return every registration's keys, each once, in registration order
    static std::vector<AlgorithmKey> Keys()
    {
        std::vector<AlgorithmKey> keys;
        for (const auto& r : TheList())
        {
            for (const auto& key : r->keys)
            {
                if (!FindIn(keys, key.name))
                {
                    keys.push_back(key);
                }
            }
        }
        return keys;
    }

    /**
     * \param name a key's name
     * \return the key of that name, or nullptr when no registration of this kind has it
     */
    static const AlgorithmKey* FindKey(const std::string& name)
    {
        for (const auto& r : TheList())
        {
            if (const AlgorithmKey* key = FindIn(r->keys, name))
            {
                return key;
            }
        }
        return nullptr;
    }

    /**
     * The parameters of registration `name`: its keys' defaults, overridden by `values`; every
     * value checked.
     * \param name a registration's name
     * \param values values of some of its keys, by key name
     * \return the checked values of all its keys
     * \throws std::invalid_argument for an unknown name, a key the registration does not have
     * or a value that does not fit its key
     */
    static RegisteredParameters Parameters(const std::string& name,
                                           const std::map<std::string, std::string>& values)
    {
        const Registration& registration = Get(name);
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
                throw std::invalid_argument(std::string(Registration::kKind) + " " + name
                                            + " has no key '" + key + "' (its keys: "
                                            + (names.empty() ? "none" : JoinNames(names)) + ")");
            }
            it->second = value;
        }
        for (const auto& key : registration.keys)
        {
            key.Check(resolved[key.name]);
        }
        return RegisteredParameters(Registration::kKind, name, resolved);
    }

  private:
    /// Pointers: a registration's address stays valid when more are added.
    using List = std::vector<std::unique_ptr<Registration>>;

    static List& TheList()
    {
        // Built on first use: registrations from static objects in other files may come first.
        static List list = []()
        {
            List l;
            for (auto& registration : Registration::Builtins())
            {
                Add(l, std::move(registration));
            }
            return l;
        }();
        return list;
    }

    static const AlgorithmKey* FindIn(const std::vector<AlgorithmKey>& keys,
                                      const std::string& name)
    {
        for (const auto& key : keys)
        {
            if (key.name == name)
            {
                return &key;
            }
        }
        return nullptr;
    }

    static void Add(List& list, Registration registration)
    {
        const std::string& name = registration.name;
        const std::string kind = Registration::kKind;
        if (name.empty() || name.find_first_of(" \t=,[]") != std::string::npos)
        {
            throw std::invalid_argument(kind + " name '" + name
                                        + "': must be non-empty, without blanks, '=', ',' or "
                                          "brackets");
        }
        for (const auto& r : list)
        {
            if (r->name == name)
            {
                throw std::invalid_argument(kind + " '" + name + "' is registered twice");
            }
        }
        if (!registration.create)
        {
            throw std::invalid_argument(kind + " '" + name + "' has no factory (create)");
        }
        for (const auto& key : registration.keys)
        {
            if (key.name.empty() || key.name.find_first_of(" \t=") != std::string::npos)
            {
                throw std::invalid_argument(kind + " '" + name + "': bad key name '" + key.name
                                            + "'");
            }
            for (const auto& r : list)
            {
                const AlgorithmKey* other = FindIn(r->keys, key.name);
                if (other && !SameKey(*other, key))
                {
                    throw std::invalid_argument(kind + " '" + name + "' declares key '" + key.name
                                                + "' differently from the " + kind
                                                + " that has it");
                }
            }
            key.Check(key.defaultValue);
        }
        list.push_back(std::make_unique<Registration>(std::move(registration)));
        ++RegistryGeneration();
    }
};

/// Registers `registration` in its registry when constructed: a static instance in the source
/// file of a program or test (see the DLSIM_REGISTER_* macros).
template<typename Registration>
class Registrar
{
  public:
    /// \param registration what to register (see Registry::Register)
    explicit Registrar(Registration registration)
    {
        Registry<Registration>::Register(std::move(registration));
    }
};

} // namespace dlsim

/**
 * Register what `function()` returns (a `Registration`, named with its namespace, e.g.
 * dlsim::PartitionRegistration) when the program starts. Use it in a source file that is linked
 * into the program as an object file (a program's own sources, a test): a linker drops the
 * objects of a static library that nothing references, and their registrations with them.
 */
#define DLSIM_REGISTER(Registration, function)                              \
    static const dlsim::Registrar<Registration> g_dlsimRegistrar_##function \
    {                                                                       \
        function()                                                          \
    }

#endif // DLSIM_REGISTRY_H
