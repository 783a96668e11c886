// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * delay-line: the latency and random loss of one emulated link, for a kernel without sch_netem.
 * Bridges two interfaces of the link's middle network namespace with AF_PACKET raw sockets; per
 * direction a FIFO holds every frame until arrival + delay and then writes it out of the other
 * interface, whose tbf + pfifo qdisc (set up by the driver) gives the rate and the drop-tail
 * queue. A seeded Bernoulli draw drops IPv4 frames (ns-3's point-to-point links carry no ARP, so
 * only IP packets are ever lost in dlsim). One FIFO per direction and one thread: frames never
 * overtake each other.
 *
 *   delay-line IF_A IF_B DELAY_AB_S DELAY_BA_S LOSS_AB LOSS_BA SEED LIFETIME_S
 */
#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <random>
#include <sched.h>
#include <signal.h>
#include <string>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace
{

volatile sig_atomic_t g_stop = 0;

void
OnSignal(int)
{
    g_stop = 1;
}

int64_t
NowNs()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

[[noreturn]] void
Die(const std::string& what)
{
    std::fprintf(stderr, "delay-line: %s: %s\n", what.c_str(), std::strerror(errno));
    std::exit(1);
}

double
ParseNumber(const char* text, const char* what, double lo, double hi)
{
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(v >= lo && v <= hi))
    {
        std::fprintf(
            stderr, "delay-line: %s: '%s' is not a number in [%g, %g]\n", what, text, lo, hi);
        std::exit(2);
    }
    return v;
}

/// A raw socket that sees every frame arriving on `name` (promiscuous: the frames are addressed
/// to the far end's MAC), but not the ones it sends itself.
int
OpenPort(const char* name, int& ifindex)
{
    ifindex = static_cast<int>(if_nametoindex(name));
    if (ifindex == 0)
    {
        Die(std::string("no interface ") + name);
    }
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
    if (fd < 0)
    {
        Die("socket(AF_PACKET)");
    }
    sockaddr_ll addr{};
    addr.sll_family = AF_PACKET;
    addr.sll_protocol = htons(ETH_P_ALL);
    addr.sll_ifindex = ifindex;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0)
    {
        Die(std::string("bind to ") + name);
    }
    packet_mreq mr{};
    mr.mr_ifindex = ifindex;
    mr.mr_type = PACKET_MR_PROMISC;
    if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) != 0)
    {
        Die("promiscuous mode");
    }
    int one = 1;
    if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) != 0)
    {
        Die("PACKET_IGNORE_OUTGOING");
    }
    // A whole window may arrive at once (the sender's veth has no queue), and everything in the
    // far side's pfifo is charged to this socket's send buffer: neither may limit the link.
    int big = 64 << 20;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)) != 0
        || setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big)) != 0)
    {
        Die("socket buffers");
    }
    return fd;
}

struct Frame
{
    int64_t due;
    std::vector<uint8_t> bytes;
};

struct Direction
{
    int in;
    int out;
    int64_t delayNs;
    double loss;
    std::deque<Frame> fifo;
    uint64_t passed = 0;
    uint64_t dropped = 0;
    uint64_t queueDrops = 0;
    int64_t lateSumNs = 0; ///< how much later than due frames went out: the emulation's error
    int64_t lateMaxNs = 0;
};

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 9)
    {
        std::fprintf(stderr,
                     "usage: delay-line IF_A IF_B DELAY_AB_S DELAY_BA_S LOSS_AB LOSS_BA SEED "
                     "LIFETIME_S\n");
        return 2;
    }
    const double delayAb = ParseNumber(argv[3], "DELAY_AB_S", 0, 100);
    const double delayBa = ParseNumber(argv[4], "DELAY_BA_S", 0, 100);
    const double lossAb = ParseNumber(argv[5], "LOSS_AB", 0, 0.999);
    const double lossBa = ParseNumber(argv[6], "LOSS_BA", 0, 0.999);
    const auto seed = static_cast<uint64_t>(ParseNumber(argv[7], "SEED", 0, 1e15));
    const double lifetime = ParseNumber(argv[8], "LIFETIME_S", 0.1, 86400);

    signal(SIGTERM, OnSignal);
    signal(SIGINT, OnSignal);
    // Wake-ups late by the default 50 us slack would add up to a visible latency error.
    prctl(PR_SET_TIMERSLACK, 1000UL);
    // The tbf behind this process idles whenever it is late: on a machine busy with other work
    // a late wake-up would cost the link its rate. A real-time priority keeps it on time; it
    // sleeps between frames, so it takes little CPU.
    sched_param priority{};
    priority.sched_priority = 10;
    if (sched_setscheduler(0, SCHED_FIFO, &priority) != 0)
    {
        std::fprintf(stderr,
                     "delay-line: no real-time priority (%s): timing may suffer\n",
                     std::strerror(errno));
    }

    int ifA = 0;
    int ifB = 0;
    int fdA = OpenPort(argv[1], ifA);
    int fdB = OpenPort(argv[2], ifB);
    Direction dirs[2] = {{fdA, fdB, static_cast<int64_t>(delayAb * 1e9), lossAb, {}},
                         {fdB, fdA, static_cast<int64_t>(delayBa * 1e9), lossBa, {}}};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    const int64_t end = NowNs() + static_cast<int64_t>(lifetime * 1e9);
    std::vector<uint8_t> buffer(65536);

    while (!g_stop && NowNs() < end)
    {
        int64_t now = NowNs();
        int64_t next = end;
        for (auto& d : dirs)
        {
            while (!d.fifo.empty() && d.fifo.front().due <= now)
            {
                const auto& f = d.fifo.front();
                d.lateSumNs += now - f.due;
                d.lateMaxNs = std::max(d.lateMaxNs, now - f.due);
                // ENOBUFS: the far side's pfifo is full, which is the drop-tail queue dropping.
                if (send(d.out, f.bytes.data(), f.bytes.size(), MSG_DONTWAIT) < 0)
                {
                    if (errno != ENOBUFS && errno != EAGAIN)
                    {
                        Die("send");
                    }
                    ++d.queueDrops;
                }
                else
                {
                    ++d.passed;
                }
                d.fifo.pop_front();
            }
            if (!d.fifo.empty())
            {
                next = std::min(next, d.fifo.front().due);
            }
        }
        pollfd fds[2] = {{fdA, POLLIN, 0}, {fdB, POLLIN, 0}};
        int64_t wait = std::max<int64_t>(0, next - now);
        timespec timeout{static_cast<time_t>(wait / 1000000000),
                         static_cast<long>(wait % 1000000000)};
        int n = ppoll(fds, 2, &timeout, nullptr);
        if (n < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            Die("ppoll");
        }
        for (int i = 0; i < 2; ++i)
        {
            if (!(fds[i].revents & POLLIN))
            {
                continue;
            }
            Direction& d = dirs[i];
            for (;;)
            {
                ssize_t len = recv(d.in, buffer.data(), buffer.size(), MSG_DONTWAIT);
                if (len < 0)
                {
                    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                    {
                        break;
                    }
                    Die("recv");
                }
                const int64_t arrival = NowNs();
                const bool ip = len >= 14 && buffer[12] == 0x08 && buffer[13] == 0x00;
                if (ip && d.loss > 0 && uniform(rng) < d.loss)
                {
                    ++d.dropped;
                    continue;
                }
                d.fifo.push_back({arrival + d.delayNs,
                                  std::vector<uint8_t>(buffer.begin(), buffer.begin() + len)});
            }
        }
    }
    for (int i = 0; i < 2; ++i)
    {
        const Direction& d = dirs[i];
        const uint64_t out = d.passed + d.queueDrops;
        std::fprintf(stderr,
                     "delay-line %s->%s: %llu frames passed, %llu lost, %llu dropped by the "
                     "full queue; late by %.0f us on average, %.0f us at most\n",
                     argv[1 + i],
                     argv[2 - i],
                     static_cast<unsigned long long>(d.passed),
                     static_cast<unsigned long long>(d.dropped),
                     static_cast<unsigned long long>(d.queueDrops),
                     out ? d.lateSumNs / 1e3 / static_cast<double>(out) : 0.0,
                     d.lateMaxNs / 1e3);
    }
    return 0;
}
