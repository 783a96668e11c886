// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Router-level topologies from files, read with ns-3's topology-read module.
 */
#ifndef DLSIM_ROUTER_TOPOLOGY_READER_H
#define DLSIM_ROUTER_TOPOLOGY_READER_H

#include "routed-underlay-helper.h"

#include <string>

namespace ns3
{

/**
 * Read a router-level topology (format "inet", "orbis" or "rocketfuel": Rocketfuel's weights
 * files) with ns-3's topology readers: the routers (named as in the file) and the links between
 * them (role "router", no rates yet: the caller sets them). ns-3's readers drop what they do not
 * understand in silence, so the whole file is first checked here against its format: an Inet
 * header that disagrees with its body, a line of another shape (the message then names the
 * format the file looks like), a link from a router to itself, a link listed twice, a node
 * without links and a topology that falls apart in pieces are errors. Errors name the key
 * underlay.file, the file and, where there is one, the line.
 * \param path the file
 * \param format "inet", "orbis" or "rocketfuel"
 * \return the routers and their links (no learners attached yet)
 */
RouterNetwork ReadRouterTopology(const std::string& path, const std::string& format);

/**
 * \brief Which router each learner attaches to.
 * \param network the routers
 * \param learners the number of learners
 * \param mode "random" (uniform, from `rng`) or "file": a CSV file "node,router" (router by its
 * name in the topology file), every learner once
 * \param file the file of "file"
 * \param rng the stream of "random"
 * \return each learner's router
 */
std::vector<uint32_t> AttachLearners(const RouterNetwork& network,
                                     uint32_t learners,
                                     const std::string& mode,
                                     const std::string& file,
                                     Ptr<UniformRandomVariable> rng);

} // namespace ns3

#endif // DLSIM_ROUTER_TOPOLOGY_READER_H
