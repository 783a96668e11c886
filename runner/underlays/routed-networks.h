// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What the routed underlays (access, regions, file) share: every learner behind its own
 * up/down access link, given by the access.* keys, and a RoutedUnderlayHelper over routers.
 */
#ifndef DLSIM_ROUTED_NETWORKS_H
#define DLSIM_ROUTED_NETWORKS_H

#include "access-model.h"
#include "registry.h"
#include "routed-underlay-helper.h"
#include "scenario-config.h"
#include "underlay-registry.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// The access.* keys, declared once for every underlay that puts learners behind access links.
const std::vector<dlsim::AlgorithmKey>& AccessLinkKeys();

/// The access links of scenario `c` (access.file read when given).
AccessModel ReadAccessModel(const ScenarioConfig& c);

/// Check the access.* keys, and the file's rows for `learners` hosts.
void CheckAccessModel(const ScenarioConfig& c, uint32_t learners);

/// A rate key that may be "unlimited" (0).
double RateOrUnlimited(const ScenarioConfig& c, const std::string& key);

/// The helper that builds `network` with the setup's link behaviour, streams and progress log.
std::unique_ptr<UnderlayHelper> MakeRoutedHelper(const RouterNetwork& network,
                                                 const UnderlaySetup& setup);

/// An access model drawing from the streams routed underlays use for access links.
AccessModel AccessModelFor(const UnderlaySetup& setup);

} // namespace ns3

#endif // DLSIM_ROUTED_NETWORKS_H
