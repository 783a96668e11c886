// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * network = own: the network an own program built itself with ns-3's helpers (Wi-Fi, CSMA,
 * LTE, ...), which no scenario key describes. Its run folder's config.ini says so, in the
 * program's words, rather than claiming the default `direct` links; dlsim-run cannot build it.
 */
#include "underlay-registry.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

UnderlayRegistration
OwnUnderlay()
{
    UnderlayRegistration r;
    r.name = "own";
    r.help = "the network an own program built, recorded in its run folder; not runnable here";
    r.keys = {
        AlgorithmKey::Text("own.description",
                           "",
                           "what the own program's network is, in its words (e.g. '802.11ac, 8 "
                           "stations around one AP')"),
    };
    r.linkRoles = {};
    r.check = [](const ScenarioConfig& c, uint32_t)
    {
        throw ScenarioError("network = own describes the network of an own program ('"
                            + c.GetString("own.description")
                            + "'); dlsim-run cannot build it: run that program again, or "
                              "choose a network dlsim builds (see --help)");
    };
    r.create = [](const UnderlaySetup&) -> std::unique_ptr<UnderlayHelper>
    {
        throw ScenarioError("network = own cannot be built by dlsim-run");
    };
    return r;
}

} // namespace ns3
