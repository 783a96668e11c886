// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "underlay-registry.h"

namespace ns3
{

// Each in its own file under runner/underlays/.
UnderlayRegistration DirectUnderlay();
UnderlayRegistration AccessUnderlay();
UnderlayRegistration RegionsUnderlay();
UnderlayRegistration RouterFileUnderlay();
UnderlayRegistration WifiUnderlay();
UnderlayRegistration OwnUnderlay();

std::vector<UnderlayRegistration>
UnderlayRegistration::Builtins()
{
    return {DirectUnderlay(),
            AccessUnderlay(),
            RegionsUnderlay(),
            RouterFileUnderlay(),
            WifiUnderlay(),
            OwnUnderlay()};
}

std::vector<std::string>
RolesOf(const UnderlayRegistration& network, const ScenarioConfig& c)
{
    return network.roles ? network.roles(c) : network.linkRoles;
}

} // namespace ns3
