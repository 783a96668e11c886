// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * ns-3 attribute defaults given by name and text, checked so that no value can abort ns-3.
 */
#ifndef DLSIM_NS3_ATTRIBUTE_DEFAULTS_H
#define DLSIM_NS3_ATTRIBUTE_DEFAULTS_H

#include <map>
#include <string>

namespace ns3
{

/**
 * Set the default value of every attribute named by its full name ("ns3::TcpSocketBase::
 * MinRto") to the value given as text, for every object created afterwards (Config::SetDefault).
 * The text is checked for the attribute's type first (numbers, booleans, times with a unit,
 * data rates with a unit, queue sizes, enum names, type names, strings), because ns-3 aborts
 * the process on some malformed values. Attributes that dlsim sets itself from its own keys
 * (e.g. the learners' TCP segment size, or a link's data rate), given as `setByKeys` (full
 * name to the keys that set it), are refused with the key to use instead, since their default
 * would have no effect. Throws ConfigValueError naming
 * "ns3.<full name>" on an unknown type, attribute or value.
 * \param attributes full attribute name to value
 * \param setByKeys full attribute name to the dlsim keys that set it
 */
void SetNs3AttributeDefaults(const std::map<std::string, std::string>& attributes,
                             const std::map<std::string, std::string>& setByKeys);

} // namespace ns3

#endif // DLSIM_NS3_ATTRIBUTE_DEFAULTS_H
