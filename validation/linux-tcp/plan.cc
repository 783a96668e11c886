// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * plan: turns a finished dlsim run into the Linux emulation of the same run. Reads the run's
 * links.csv (every link direction dlsim built: rate, latency, loss, queue), the overlay's edges
 * and the run's rounds.csv (per learner and round: compute time and bytes sent), and writes to
 * OUT_DIR:
 *   setup.sh    ip/tc commands building one namespace per host and router and, per link, a
 *               middle namespace whose delay-line gives latency and loss and whose egress
 *               qdiscs (tbf at the link's rate, pfifo of the link's queue) give rate and queue;
 *               static routes along hop-count shortest paths (ns-3's global routing metric)
 *   lines.txt   one line per link: "NAMESPACE IF_A IF_B DELAY_AB DELAY_BA LOSS_AB LOSS_BA"
 *   hosts.txt   one line per learner: "NAMESPACE ID IP IN_COUNT OUT_LIST SCHEDULE"
 *   arith.txt   per round: "round compute_s transfer_s", the arithmetic transfer time: the
 *               busiest link direction's bytes on the wire (every MTU - 52 bytes of a message
 *               a packet with 52 bytes of IP and TCP headers with timestamps and ns-3's 2-byte
 *               PPP header) * 8 / rate, plus the longest overlay path's one-way latency (the
 *               doc's "Round time" formula, T - c)
 *
 *   plan LINKS_CSV EDGES DIRECTED(0|1) ROUNDS_CSV MTU PREFIX OUT_DIR
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <queue>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{

[[noreturn]] void
Fail(const std::string& what)
{
    std::cerr << "plan: " << what << "\n";
    std::exit(1);
}

std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> f;
    std::stringstream in(line);
    std::string part;
    while (std::getline(in, part, ','))
    {
        f.push_back(part);
    }
    return f;
}

/// Calls `row` with the fields of every line after the header of the CSV file `path`; fails
/// on a line with fewer than `fields` fields.
template<typename Row>
void
ForEachRow(const std::string& path, size_t fields, Row row)
{
    std::ifstream in(path);
    if (!in)
    {
        Fail("cannot read " + path);
    }
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line))
    {
        auto f = SplitCsv(line);
        if (f.size() < fields)
        {
            Fail(path + ": short line '" + line + "'");
        }
        row(f);
    }
}

struct Direction
{
    double bps = 0;
    double latency = 0;
    double loss = 0;
    uint64_t queuePackets = 0; ///< 0: no queue limit given
    std::string trace;         ///< rate trace file (CSV 'time_s,rate', looping), if any
};

/// A rate like 10Mbps, 500kbps or 2000000bps in bit/s.
double
ParseRate(const std::string& text)
{
    size_t used = 0;
    double value = std::stod(text, &used);
    const std::string unit = text.substr(used);
    const std::map<std::string, double> units
        = {{"bps", 1}, {"kbps", 1e3}, {"Kbps", 1e3}, {"Mbps", 1e6}, {"Gbps", 1e9}};
    auto it = units.find(unit);
    if (it == units.end())
    {
        Fail("rate '" + text + "': unit not one of bps, kbps, Mbps, Gbps");
    }
    return value * it->second;
}

/// A CSV rate trace as "PERIOD t:bps,t:bps,...", the period as dlsim's RateTrace takes it: the
/// last row holds for the gap before it (a single row: for ever, written as 0).
std::string
ReadTrace(const std::string& path, double& firstBps, double& maxBps)
{
    std::ifstream in(path);
    if (!in)
    {
        Fail("cannot read rate trace " + path);
    }
    std::vector<std::pair<double, double>> steps;
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty() || line[0] == '#' || line.rfind("time_s", 0) == 0)
        {
            continue;
        }
        auto f = SplitCsv(line);
        if (f.size() != 2)
        {
            Fail(path + ": expected time_s,rate, got '" + line + "'");
        }
        steps.push_back({std::stod(f[0]), ParseRate(f[1])});
    }
    if (steps.empty())
    {
        Fail(path + ": no rows");
    }
    firstBps = steps.front().second;
    maxBps = 0;
    std::string text;
    for (const auto& [t, bps] : steps)
    {
        maxBps = std::max(maxBps, bps);
        text += (text.empty() ? "" : ",") + std::to_string(t) + ":"
                + std::to_string(static_cast<uint64_t>(bps + 0.5));
    }
    const size_t n = steps.size();
    const double period = n == 1 ? 0 : 2 * steps[n - 1].first - steps[n - 2].first;
    return std::to_string(period) + " " + text;
}

struct Link
{
    std::string a;
    std::string b;
    Direction ab;
    Direction ba;
};

std::string
Address(size_t link, int end)
{
    // 10.16.0.0/16 in /30s: link k's ends are .4k+1 (a) and .4k+2 (b).
    const size_t base = link * 4 + static_cast<size_t>(end) + 1;
    return "10." + std::to_string(16 + base / 65536) + "." + std::to_string(base / 256 % 256) + "."
           + std::to_string(base % 256);
}

std::string
Subnet(size_t link)
{
    const size_t base = link * 4;
    return "10." + std::to_string(16 + base / 65536) + "." + std::to_string(base / 256 % 256) + "."
           + std::to_string(base % 256) + "/30";
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 8)
    {
        std::cerr << "usage: plan LINKS_CSV EDGES DIRECTED ROUNDS_CSV MTU PREFIX OUT_DIR\n";
        return 2;
    }
    const uint64_t mss = std::stoull(argv[5]) - 52;
    const std::string prefix = argv[6];
    const std::string out = argv[7];
    const bool directed = std::string(argv[3]) == "1";

    // Link directions, paired into links.
    std::vector<Link> links;
    std::map<std::pair<std::string, std::string>, size_t> linkOf;
    ForEachRow(argv[1],
               7,
               [&](const std::vector<std::string>& f)
               {
                   Direction d;
                   d.bps = std::stod(f[3]);
                   d.latency = std::stod(f[4]);
                   d.loss = std::stod(f[5]);
                   d.trace = f.size() > 7 ? f[7] : "";
                   if (!f[6].empty() && f[6].back() == 'p')
                   {
                       d.queuePackets = std::stoull(f[6]);
                   }
                   else
                   {
                       Fail("links.csv: queue '" + f[6]
                            + "' is not a packet count (only drop-tail "
                              "queues in packets are emulated)");
                   }
                   auto back = linkOf.find({f[1], f[0]});
                   if (back != linkOf.end())
                   {
                       links[back->second].ba = d;
                   }
                   else
                   {
                       linkOf[{f[0], f[1]}] = links.size();
                       links.push_back({f[0], f[1], d, {}});
                   }
               });

    // Nodes: learners are named by their number, routers by name.
    std::vector<std::string> names;
    std::map<std::string, size_t> index;
    for (const auto& l : links)
    {
        for (const auto& n : {l.a, l.b})
        {
            if (!index.count(n))
            {
                index[n] = names.size();
                names.push_back(n);
            }
        }
    }
    auto isHost = [](const std::string& n)
    {
        return !n.empty() && n.find_first_not_of("0123456789") == std::string::npos;
    };
    auto ns = [&](size_t node)
    {
        return prefix + "n" + std::to_string(node);
    };
    auto lns = [&](size_t link)
    {
        return prefix + "l" + std::to_string(link);
    };

    // adjacency: node -> (neighbour, link)
    std::vector<std::vector<std::pair<size_t, size_t>>> adj(names.size());
    for (size_t k = 0; k < links.size(); ++k)
    {
        adj[index[links[k].a]].push_back({index[links[k].b], k});
        adj[index[links[k].b]].push_back({index[links[k].a], k});
    }
    auto addressOn = [&](size_t node, size_t link)
    {
        return Address(link, names[node] == links[link].a ? 0 : 1);
    };

    // Hop-count shortest paths: first hop (neighbour, link) from every node to every node.
    const size_t n = names.size();
    std::vector<std::vector<std::pair<size_t, size_t>>> firstHop(
        n, std::vector<std::pair<size_t, size_t>>(n, {SIZE_MAX, SIZE_MAX}));
    std::vector<std::vector<size_t>> dist(n, std::vector<size_t>(n, SIZE_MAX));
    for (size_t s = 0; s < n; ++s)
    {
        std::queue<size_t> q;
        dist[s][s] = 0;
        q.push(s);
        while (!q.empty())
        {
            size_t u = q.front();
            q.pop();
            for (auto [v, k] : adj[u])
            {
                if (dist[s][v] == SIZE_MAX)
                {
                    dist[s][v] = dist[s][u] + 1;
                    firstHop[s][v] = u == s ? std::make_pair(v, k) : firstHop[s][u];
                    q.push(v);
                }
            }
        }
    }

    std::ofstream setup(out + "/setup.sh");
    std::ofstream lines(out + "/lines.txt");
    std::ofstream traces(out + "/traces.txt");
    setup << "set -e\n";
    for (size_t v = 0; v < n; ++v)
    {
        setup << "ip netns add " << ns(v) << "\n"
              << "ip -n " << ns(v) << " link set lo up\n";
        if (!isHost(names[v]))
        {
            setup << "ip netns exec " << ns(v) << " sysctl -qw net.ipv4.ip_forward=1\n";
        }
    }
    for (size_t k = 0; k < links.size(); ++k)
    {
        const Link& l = links[k];
        const size_t ends[2] = {index[l.a], index[l.b]};
        const Direction* into[2] = {&l.ba, &l.ab}; // the direction arriving at end 0, end 1
        setup << "ip netns add " << lns(k) << "\n";
        for (int e = 0; e < 2; ++e)
        {
            const std::string side = e == 0 ? "a" : "b";
            const std::string dev = "e" + std::to_string(k);
            setup << "ip -n " << lns(k) << " link add name " << side << " type veth peer name "
                  << dev << " netns " << ns(ends[e]) << "\n";
            for (const auto& [space, name] :
                 {std::make_pair(lns(k), side), std::make_pair(ns(ends[e]), dev)})
            {
                setup << "ip netns exec " << space << " ethtool -K " << name
                      << " tso off gso off gro off tx off rx off\n"
                      << "ip -n " << space << " link set dev " << name << " up\n";
            }
            setup << "ip -n " << ns(ends[e]) << " addr add " << Address(k, e) << "/30 dev " << dev
                  << "\n";
            // Rate and drop-tail queue of the direction leaving the middle namespace towards
            // this end, behind the delay line (a constant delay before or after a FIFO queue
            // gives the same departures). tbf counts Ethernet frames (14 bytes of header), ns-3
            // point-to-point packets carry a 2-byte PPP header: the size table takes off 12.
            // ns-3's device queue does not hold the packet on the wire, tbf's child does (at
            // its head until the tokens allow it out): one more packet in the pfifo.
            const Direction& d = *into[e];
            // A traced direction starts at the trace's first rate (links.csv gives its mean);
            // the driver plays the trace (traces.txt: NAMESPACE DEV PFIFO_LIMIT BURST PERIOD
            // STEPS).
            double bps = d.bps;
            double maxBps = d.bps;
            std::string trace;
            if (!d.trace.empty())
            {
                trace = ReadTrace(d.trace, bps, maxBps);
            }
            if (maxBps < 1e11)
            {
                const uint64_t burst
                    = std::max<uint64_t>(1600, static_cast<uint64_t>(maxBps / 8 * 0.0005));
                setup << "tc -n " << lns(k) << " qdisc add dev " << side
                      << " root handle 1: stab overhead -12 linklayer ethernet tbf rate "
                      << static_cast<uint64_t>(bps + 0.5) << "bit burst " << burst
                      << " latency 100s\n";
                if (d.queuePackets > 0)
                {
                    setup << "tc -n " << lns(k) << " qdisc add dev " << side
                          << " parent 1:1 handle 10: pfifo limit " << d.queuePackets + 1 << "\n";
                }
                if (!trace.empty())
                {
                    traces << lns(k) << " " << side << " " << d.queuePackets + 1 << " " << burst
                           << " " << trace << "\n";
                }
            }
        }
        lines << lns(k) << " a b " << l.ab.latency << " " << l.ba.latency << " " << l.ab.loss << " "
              << l.ba.loss << "\n";
    }
    // Routes to every link subnet not attached, along the shortest path.
    for (size_t v = 0; v < n; ++v)
    {
        for (size_t k = 0; k < links.size(); ++k)
        {
            const size_t a = index[links[k].a];
            const size_t b = index[links[k].b];
            if (a == v || b == v)
            {
                continue;
            }
            const size_t target = dist[v][a] <= dist[v][b] ? a : b;
            if (dist[v][target] == SIZE_MAX)
            {
                continue;
            }
            auto [hop, via] = firstHop[v][target];
            setup << "ip -n " << ns(v) << " route add " << Subnet(k) << " via "
                  << addressOn(hop, via) << "\n";
        }
    }

    // Overlay: out-neighbours of every learner.
    std::map<uint32_t, std::set<uint32_t>> outs;
    std::map<uint32_t, uint32_t> inCount;
    {
        std::ifstream in(argv[2]);
        if (!in)
        {
            Fail(std::string("cannot read ") + argv[2]);
        }
        uint32_t u;
        uint32_t v;
        while (in >> u >> v)
        {
            outs[u].insert(v);
            if (!directed)
            {
                outs[v].insert(u);
            }
        }
        for (const auto& [u2, vs] : outs)
        {
            for (uint32_t v2 : vs)
            {
                ++inCount[v2];
            }
        }
    }
    // Per learner and round: compute time and bytes per message.
    std::map<uint32_t, std::map<uint32_t, std::pair<double, uint64_t>>> schedule;
    ForEachRow(argv[4],
               7,
               [&](const std::vector<std::string>& f)
               {
                   const auto node = static_cast<uint32_t>(std::stoul(f[0]));
                   const auto round = static_cast<uint32_t>(std::stoul(f[1]));
                   const uint64_t sent = std::stoull(f[5]) + std::stoull(f[6]);
                   const size_t deg = outs[node].size();
                   schedule[node][round] = {std::stod(f[3]), deg ? sent / deg : 0};
               });

    auto hostAddress = [&](uint32_t h, uint32_t from)
    {
        const std::string name = std::to_string(h);
        if (!index.count(name))
        {
            Fail("learner " + name + " has no link in links.csv");
        }
        const size_t node = index[name];
        // A link of its own to `from` (network = direct), else its first link.
        for (auto [v, k] : adj[node])
        {
            if (names[v] == std::to_string(from))
            {
                return addressOn(node, k);
            }
        }
        return addressOn(node, adj[node].front().second);
    };
    std::ofstream hosts(out + "/hosts.txt");
    for (const auto& [h, rounds] : schedule)
    {
        std::string outList;
        for (uint32_t v : outs[h])
        {
            outList += (outList.empty() ? "" : ",") + hostAddress(v, h) + ":7000";
        }
        std::string plan;
        for (const auto& [r, cb] : rounds)
        {
            plan += (plan.empty() ? "" : ",") + std::to_string(cb.first) + ":"
                    + std::to_string(cb.second);
        }
        hosts << ns(index[std::to_string(h)]) << " " << h << " 0.0.0.0 " << inCount[h] << " "
              << (outList.empty() ? "-" : outList) << " " << plan << "\n";
    }

    // Arithmetic: per round, the busiest link direction's bytes at its rate, plus the longest
    // overlay path's one-way latency.
    std::ofstream arith(out + "/arith.txt");
    std::map<uint32_t, std::map<std::pair<size_t, int>, double>> bytesOn; // round -> dir -> bytes
    double longestPath = 0;
    std::map<uint32_t, double> computeOf;
    for (const auto& [h, rounds] : schedule)
    {
        for (uint32_t v : outs[h])
        {
            // walk the path h -> v
            size_t u = index[std::to_string(h)];
            const size_t t = index[std::to_string(v)];
            double latency = 0;
            std::vector<std::pair<size_t, int>> dirs;
            // direct link if there is one (as hostAddress picks it)
            size_t guard = 0;
            while (u != t && guard++ < n)
            {
                size_t next = SIZE_MAX;
                size_t via = SIZE_MAX;
                for (auto [w, k] : adj[u])
                {
                    if (w == t)
                    {
                        next = w;
                        via = k;
                    }
                }
                if (next == SIZE_MAX)
                {
                    std::tie(next, via) = firstHop[u][t];
                }
                const bool forward = names[u] == links[via].a;
                dirs.push_back({via, forward ? 0 : 1});
                latency += forward ? links[via].ab.latency : links[via].ba.latency;
                u = next;
            }
            longestPath = std::max(longestPath, latency);
            for (const auto& [r, cb] : rounds)
            {
                for (const auto& d : dirs)
                {
                    const uint64_t packets = (cb.second + mss - 1) / mss;
                    bytesOn[r][d] += static_cast<double>(cb.second + packets * (52 + 2));
                }
                computeOf[r] = std::max(computeOf[r], cb.first);
            }
        }
    }
    for (const auto& [r, dirs] : bytesOn)
    {
        double worst = 0;
        for (const auto& [d, bytes] : dirs)
        {
            const Direction& dir = d.second == 0 ? links[d.first].ab : links[d.first].ba;
            worst = std::max(worst, bytes * 8 / dir.bps);
        }
        arith << r << " " << computeOf[r] << " " << worst + longestPath << "\n";
    }
    return 0;
}
