// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: every kind of bad input, as a table: what the user gives, the exit status expected
 * (2: input that cannot run; 1: a run that could not be carried out), and the words the
 * message must contain (the key, the file, the line, the problem). Nothing may crash, abort or
 * hang.
 */
#include "ns3-attribute-defaults.h"
#include "run-command.h"
#include "scenario-config.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

struct BadInput
{
    std::string name;
    std::string args; ///< {DIR} stands for the test's folder of generated files
    int status;
    std::vector<std::string> words;
};

/// Files the cases refer to: each one broken in one way.
void
WriteFiles(const std::string& dir)
{
    fs::create_directories(dir + "/idx");
    auto write = [&dir](const std::string& name, const std::string& text)
    {
        std::ofstream(dir + "/" + name, std::ios::binary) << text;
    };
    write("edges.txt", "0 1\n1 2\n2 9\n");
    write("links.csv", "u,v,bandwidth,latency\n0,1,10Mbps,5ms\n");
    write("access.csv", "host,up,down,latency\n0,1Mbps,10Mbps,5ms\n1,fast,10Mbps,5ms\n");
    write("matrix.csv", "region,a,b\na,0,10\nb,20,0\n");
    write("regions.csv", "node,region\n0,us-east\n1,atlantis\n");
    write("positions.csv", "node,x,y,z\n0,1,0,0\n1,nowhere,0,0\n");
    write("trace.csv", "time_s,rate\n0,10Mbps\n5,2Mbps\n3,4Mbps\n");
    write("trace.mahimahi", "10\n20\n15\n");
    write("steps.csv", "time_s,rate\n0,10Mbps\n1,5Mbps\n");
    write("cut.inet", "4 3\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n0 1 1\n");
    write("isp.orbis", "0 1\n1 2\n0 3\n1 4\n2 5\n3 4\n4 5\n3 6\n4 7\n6 7\n");
    write("long.inet", "4 3\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n0 1 1\n1 2 1\n2 3 1\n3 0 1\n");
    write("stranger.inet", "3 2\n0 0 0\n1 0 0\n2 0 0\n0 1 1\n1 5 1\n");
    write("twice.orbis", "0 1\n1 2\n2 3\n2 1\n");
    write("twice.csv", "region,a,a\na,0,10\na,10,0\n");
    write("diagonal.csv", "region,a,b\na,5,10\nb,10,0\n");
    std::string line;
    for (int r = 0; r < 70; ++r)
    {
        line += std::to_string(r) + " " + std::to_string(r + 1) + "\n";
    }
    write("line.orbis", line);
    write("ends.csv", "node,router\n0,0\n1,70\n2,1\n3,69\n");
    write("bad.ini", "nodes = 4\nthis line has no equals sign\n");
    write("twice.ini", "nodes = 4\nnodes = 5\n");
    write("tiny-step.csv", "time_s,rate\n0,10Mbps\n1e-12,2Mbps\n");
    write("access-fast.csv", "host,up,down,latency\n0,1e30bps,10Mbps,5ms\n");
    write("huge.ini", "topology = " + std::string(2000000, 'x') + "\n");
    write("huge-key.ini", std::string(10000000, 'k') + " = 1\n");
    // An IDX image file whose header claims four million 28x28 images, in 57 bytes.
    std::string idx = std::string("\x00\x00\x08\x03", 4) + std::string("\x00\x3d\x09\x00", 4)
                      + std::string("\x00\x00\x00\x1c", 4) + std::string("\x00\x00\x00\x1c", 4);
    idx += std::string(57 - idx.size(), '\x01');
    for (const char* stem : {"train-images-idx3-ubyte", "t10k-images-idx3-ubyte"})
    {
        write(std::string("idx/") + stem, idx);
    }
    for (const char* stem : {"train-labels-idx1-ubyte", "t10k-labels-idx1-ubyte"})
    {
        write(std::string("idx/") + stem,
              std::string("\x00\x00\x08\x01\x00\x00\x00\x02\x01\x02", 10));
    }
}

std::string
Replace(std::string text, const std::string& from, const std::string& to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    {
        text.replace(at, from.size(), to);
    }
    return text;
}

TEST(BadInput, EveryCaseGetsItsExitStatusAndAMessageNamingTheProblem)
{
    const std::string dir
        = (fs::temp_directory_path() / ("dlsim-bad-" + std::to_string(::getpid()))).string();
    fs::remove_all(dir);
    WriteFiles(dir);
    // A small run, except for the keys a case sets itself (a key may be given only once).
    const std::vector<std::pair<std::string, std::string>> small
        = {{"dataset", "synthetic"},
           {"synthetic.train_samples", "200"},
           {"model", "logistic"},
           {"nodes", "4"},
           {"degree", "2"},
           {"rounds", "1"},
           {"out", "{DIR}/run"}};
    const std::vector<BadInput> cases = {
        // Keys and values.
        {"not a number", "--nodes=abc", 2, {"nodes"}},
        {"too few nodes", "--nodes=1", 2, {"nodes"}},
        {"unknown key", "--bandwith=10Mbps", 2, {"bandwith"}},
        {"a key of 10 MB, shown shortened", "{DIR}/huge-key.ini", 2, {"kkkk", "bytes left out"}},
        {"one grid value written twice", "--lr=0.01,0.010", 2, {"lr", "'0.01' and '0.010'"}},
        {"one rate written twice",
         "--link.bandwidth=1Mbps,1000kbps",
         2,
         {"link.bandwidth", "are the same"}},
        {"a device as the log file",
         "--log-file=/dev/full",
         2,
         {"--log-file /dev/full", "not a regular file"}},
        {"bad rate", "--link.bandwidth=fast", 2, {"link.bandwidth", "fast"}},
        {"bad random variable",
         "--link.latency='ns3::UniformRandomVariable[Mn=1]'",
         2,
         {"link.latency"}},
        {"unknown topology", "--topology=torus", 2, {"topology"}},
        {"unknown network model", "--network.model=fluid", 2, {"network.model", "fluid"}},
        {"flow model over Wi-Fi",
         "--network.model=flow --network=wifi",
         2,
         {"network.model = flow", "network = wifi"}},
        {"flow model with TCP cross traffic",
         "--network.model=flow --network=regions --cross.traffic=bulk",
         2,
         {"cross.traffic = bulk", "network.model = packet"}},
        {"flow model with captures",
         "--network.model=flow --capture.pcap=[0:1]",
         2,
         {"capture.pcap", "packets to capture"}},
        {"odd regular graph", "--nodes=7 --degree=3", 2, {"even"}},
        {"directed overlay for D-PSGD", "--topology=directed-ring", 2, {"directed"}},
        {"empty queue", "--link.queue=0p", 2, {"link.queue"}},
        {"queue without unit", "--link.queue=100", 2, {"link.queue"}},
        {"unknown queue discipline", "--link.queue_disc=red", 2, {"link.queue_disc"}},
        {"loss of one", "--link.loss=1", 2, {"link.loss"}},
        {"huge TCP buffer", "--tcp.buffer=2147483648", 2, {"tcp.buffer"}},
        {"tiny segments", "--tcp.segment_size=10", 2, {"tcp.segment_size"}},
        {"segments larger than the MTU", "--tcp.segment_size=9000", 2, {"tcp.segment_size"}},
        {"zero RTO", "--tcp.min_rto=0ms", 2, {"tcp.min_rto"}},
        {"unknown TCP profile", "--tcp.profile=bbr", 2, {"tcp.profile", "bbr"}},
        {"unknown policy for missing models",
         "--rounds.mode=async --eval.interval=1s --rounds.missing=average",
         2,
         {"rounds.missing", "average", "cache", "self"}},
        {"delayed ACK beyond the linux profile's RTO",
         "--tcp.profile=linux --tcp.delayed_ack=300ms",
         2,
         {"tcp.delayed_ack (300ms)", "tcp.min_rto (auto (200ms))"}},
        {"RTO without unit", "--tcp.min_rto=200", 2, {"tcp.min_rto"}},
        {"ns-3 attribute the profile sets",
         "--ns3.ns3::LearnerApplication::TcpProfile=linux",
         2,
         {"tcp.profile"}},
        {"stall timeout without unit", "--run.stall_timeout=soon", 2, {"run.stall_timeout"}},
        {"a time limit of nothing", "--run.time_limit=0s", 2, {"run.time_limit", "'0s'"}},
        // Flows finished in a fraction of a second where TCP over packets took seconds or gave up.
        {"flows at a loss their model is not validated for",
         "--network.model=flow --link.loss=0.2",
         2,
         {"link.loss", "up to 0.02", "link 0:1 loses 0.2", "network.model = packet, or auto"}},
        // ./dlsim tune: candidates named by the tune key the user gave, not the key they became.
        {"tuning with nothing to tune",
         "--tune --tune.lr=[] --tune.gamma=[]",
         2,
         {"tune: nothing to tune", "dpsgd"}},
        {"tuning candidates as a grid axis",
         "--tune --tune.lr=0.01,0.03",
         2,
         {"tune.lr", "one list in brackets", "'0.01,0.03'"}},
        {"a tuning candidate that is no learning rate",
         "--tune --tune.lr=[nan]",
         2,
         {"tune.lr: a candidate of [nan] cannot run as dpsgd.lr", "nan"}},
        {"unknown network", "--network=mesh", 2, {"network"}},
        {"evaluation on no set", "--eval.on=train", 2, {"eval.on", "train"}},
        {"churn without a time",
         "--rounds.mode=async --eval.interval=1s --faults.mean_up=fast",
         2,
         {"faults.mean_up", "fast"}},
        {"churn and a crash list",
         "--rounds.mode=async --eval.interval=1s --faults.mean_up=60s --faults.crash=[1@5s]",
         2,
         {"faults.mean_up", "faults.crash"}},
        {"availability trace missing",
         "--rounds.mode=async --eval.interval=1s --faults.availability=/nonexistent/trace.csv",
         2,
         {"faults.availability", "/nonexistent/trace.csv"}},
        {"validation share too large",
         "--eval.on=validation --eval.validation=0.9",
         2,
         {"eval.validation", "0.9"}},
        {"an algorithm's own learning rate", "--algorithm=choco --choco.lr=fast", 2, {"choco.lr"}},
        {"an own program's network",
         "--network=own --own.description=wifi",
         2,
         {"network = own", "'wifi'", "cannot build it"}},
        {"bad uplink", "--network=access --access.up=fast", 2, {"access.up"}},
        {"too many regions", "--network=regions --regions.count=9", 2, {"regions.count"}},
        {"file network without file", "--network=file", 2, {"underlay.file"}},
        {"cross traffic without routers", "--cross.traffic=cbr", 2, {"cross.links"}},
        {"cbr cross traffic faster than its link",
         "--network=access --core.bandwidth=10Mbps --cross.traffic=cbr --cross.rate=1Gbps",
         2,
         {"cross.rate", "1000 Mbit/s", "not below the 10 Mbit/s", "core"}},
        {"cbr cross traffic below its link's rate but not with its headers",
         "--network=regions --cross.traffic=cbr --cross.rate=999Mbps",
         2,
         {"cross.rate",
          "999 Mbit/s",
          "with its UDP, IP and PPP headers",
          "not below the 1000 Mbit/s",
          "wan"}},
        {"a fault on a link the network does not have",
         "--eval.interval=1s --rounds.mode=async --faults.links=[0:7@1s-2s]",
         2,
         {"faults.links", "no link joins 0 and 7"}},
        {"automatic stall timeout given as none",
         "--run.stall_timeout=none",
         2,
         {"run.stall_timeout"}},
        {"trace on missing links", "--trace.file={DIR}/../nonexistent.csv", 2, {"nonexistent.csv"}},
        {"rate trace on a link direction the network does not have",
         "--network=access --trace.file={DIR}/steps.csv --trace.links=[7:core]",
         2,
         {"trace.links", "no link direction 7:core", "links.csv"}},
        // Captures: the links they watch, named as rate traces name them.
        {"capture of a link that is neither a role nor FROM:TO",
         "--capture.pcap=[uplink]",
         2,
         {"capture.pcap", "'uplink'", "link role", "FROM:TO"}},
        {"capture of a link direction the network does not have",
         "--capture.ascii=[0:9]",
         2,
         {"capture.ascii", "network direct has no link direction 0:9"}},
        {"capture of link roles the network does not have",
         "--network=access --capture.pcap='[wan, core]'",
         2,
         {"capture.pcap", "network access has no such links", "it has: up, down"}},
        {"capture list cut short", "--capture.pcap=[up", 2, {"capture.pcap", "]"}},
        {"capture snapshot length beyond libpcap's",
         "--capture.snaplen=300000",
         2,
         {"capture.snaplen", "0 to 262144", "300000"}},
        {"FlowMonitor switch that is not true or false",
         "--capture.flowmon=maybe",
         2,
         {"capture.flowmon", "true or false", "maybe"}},
        {"unknown ns-3 type", "--ns3.ns3::Foo::Bar=1", 2, {"ns3.ns3::Foo::Bar", "no ns-3 type"}},
        {"unknown ns-3 attribute", "--ns3.ns3::TcpSocket::Nope=1", 2, {"has no attribute Nope"}},
        {"bad ns-3 value", "--ns3.ns3::TcpSocket::ConnTimeout=2x", 2, {"ConnTimeout", "2x"}},
        {"ns-3 type of the wrong kind",
         "--ns3.ns3::TcpL4Protocol::SocketType=ns3::Node",
         2,
         {"TcpCongestionOps"}},
        {"ns-3 attribute dlsim sets", "--ns3.ns3::TcpSocketBase::MinRto=1s", 2, {"tcp.min_rto"}},
        // Files.
        {"scenario file missing", "/nonexistent/scenario.ini", 2, {"/nonexistent/scenario.ini"}},
        {"scenario line without =", "{DIR}/bad.ini", 2, {"bad.ini"}},
        {"scenario key twice", "{DIR}/twice.ini", 2, {"twice.ini", "nodes"}},
        {"edge list node out of range",
         "--topology=file --topology.file={DIR}/edges.txt",
         2,
         {"edges.txt"}},
        {"link file without every link",
         "--link.file={DIR}/links.csv",
         2,
         {"links.csv", "has no line for link"}},
        {"access file with a bad rate",
         "--network=access --access.file={DIR}/access.csv",
         2,
         {"access.csv:3", "fast"}},
        {"asymmetric latency matrix",
         "--network=regions --regions.latency={DIR}/matrix.csv",
         2,
         {"matrix.csv", "not symmetric"}},
        {"unknown region",
         "--network=regions --regions.assign=file --regions.file={DIR}/regions.csv",
         2,
         {"regions.csv:3", "atlantis"}},
        {"Wi-Fi standard dlsim does not model",
         "--network=wifi --wifi.standard=80211g",
         2,
         {"wifi.standard", "80211g"}},
        {"Wi-Fi station out of its access point's reach",
         "--network=wifi --wifi.distance=80",
         2,
         {"wifi.distance", "could never associate"}},
        {"Wi-Fi constant mode the standard lacks",
         "--network=wifi --wifi.standard=80211a --wifi.rate_manager=constant:VhtMcs7",
         2,
         {"wifi.rate_manager", "VhtMcs7"}},
        {"Wi-Fi position that is no number",
         "--network=wifi --nodes=2 --topology=complete --wifi.positions={DIR}/positions.csv",
         2,
         {"positions.csv:3", "nowhere"}},
        {"rate trace on a shared medium",
         "--network=wifi --trace.file={DIR}/steps.csv --trace.links=wifi-up",
         2,
         {"trace.links", "not a point-to-point link"}},
        {"trace going back in time",
         "--network=access --trace.file={DIR}/trace.csv",
         2,
         {"trace.csv:4"}},
        {"Mahimahi trace going back in time",
         "--network=access --trace.file={DIR}/trace.mahimahi",
         2,
         {"trace.mahimahi:3"}},
        {"router topology cut short",
         "--network=file --underlay.file={DIR}/cut.inet",
         2,
         {"cut.inet", "announces 4 nodes and 3 links"}},
        {"dataset folder missing",
         "--dataset=fashion-mnist --dataset.path=/nonexistent",
         2,
         {"/nonexistent", "dataset-fashion-mnist"}},
        {"IDX header claiming four million images in 57 bytes",
         "--dataset=fashion-mnist --dataset.path={DIR}/idx",
         2,
         {"train-images-idx3-ubyte"}},
        // Folders.
        {"run folder under a file", "--out=/etc/hostname/run", 1, {"Not a directory"}},
        // Numbers that reach ns-3: rates, latencies, draws, periods, ns-3 attributes.
        {"rate that would wrap to 0",
         "--link.bandwidth=1e30bps",
         2,
         {"link.bandwidth", "1 Tbit/s"}},
        {"core rate that would wrap to 0",
         "--network=access --core.bandwidth=1e30bps",
         2,
         {"core.bandwidth", "1 Tbit/s"}},
        {"router link rate that would wrap to 0",
         "--network=file --underlay.format=orbis --underlay.file={DIR}/isp.orbis"
         " --underlay.bandwidth=1e30bps",
         2,
         {"underlay.bandwidth", "1 Tbit/s"}},
        {"WAN rate that would wrap to 0",
         "--network=regions --regions.bandwidth=1e30bps",
         2,
         {"regions.bandwidth", "1 Tbit/s"}},
        {"access file rate that would wrap to 0",
         "--network=access --access.file={DIR}/access-fast.csv",
         2,
         {"access-fast.csv:2", "1 Tbit/s"}},
        {"latency beyond ns-3's time", "--link.latency=1e30s", 2, {"link.latency", "1e+09 s"}},
        {"latency TCP cannot connect across", "--link.latency=11s", 2, {"link.latency", "10 s"}},
        {"constant random rate too high",
         "--link.bandwidth='ns3::ConstantRandomVariable[Constant=1e14]'",
         2,
         {"link.bandwidth", "constant", "1 Tbit/s"}},
        {"heavy-tailed latency drawn too high",
         "--link.latency='ns3::ParetoRandomVariable[Scale=1|Shape=0.01]'",
         2,
         {"link.latency", "drawn for link"}},
        {"constant device speed too low",
         "--compute.device_gflops='ns3::ConstantRandomVariable[Constant=1e-300]'",
         2,
         {"compute.device_gflops", "1e-300"}},
        {"TCP window of 0",
         "--ns3.ns3::TcpSocketBase::MaxWindowSize=0",
         2,
         {"MaxWindowSize", "outside 1 to 65535"}},
        {"TCP connection time-out of 0",
         "--ns3.ns3::TcpSocket::ConnTimeout=0s",
         2,
         {"ConnTimeout", "outside"}},
        {"ns-3 attribute dlsim sets from a round key",
         "--rounds.mode=deadline --ns3.ns3::LearnerApplication::RoundTimeout=1ns",
         2,
         {"rounds.timeout"}},
        {"ns-3 attribute that would invent an accuracy",
         "--ns3.ns3::LearnerApplication::Evaluate=false",
         2,
         {"eval.nodes"}},
        {"on/off periods faster than events",
         "--network=regions --cross.traffic=onoff --cross.on=1ns",
         2,
         {"cross.on", "1ms"}},
        {"evaluation interval that freezes time",
         "--rounds.mode=async --eval.interval=1ns",
         2,
         {"eval.interval", "1ms"}},
        {"trace rows closer than 1 ms",
         "--network=access --trace.file={DIR}/tiny-step.csv",
         2,
         {"tiny-step.csv:3", "1 ms"}},
        {"value of 2 MB quoted in the error", "{DIR}/huge.ini", 2, {"topology", "(2000000 bytes)"}},
        // Files that cannot be read are input that cannot run, like any other bad file.
        {"scenario file is a folder", "{DIR}/idx", 2, {"idx", "is a directory"}},
        {"edge list is a folder",
         "--topology=file --topology.file={DIR}/idx",
         2,
         {"idx", "is a directory"}},
        {"rate trace is a folder",
         "--network=access --trace.file={DIR}/idx",
         2,
         {"idx", "is a directory"}},
        // A jobs file holds one command per line.
        {"jobs for a folder with a line break",
         "--seed='1, 2' --emit-jobs={DIR}/jobs.txt --out='{DIR}/line\nbreak'",
         2,
         {"--emit-jobs", "line break"}},
        // Repeated seeds: `repeat` runs N seeds from each listed seed.
        {"repeat of 0", "--repeat=0", 2, {"repeat", "from 1 to 100", "got '0'"}},
        {"repeat beyond 100", "--repeat=101", 2, {"repeat", "from 1 to 100", "got '101'"}},
        {"repeat that is no number", "--repeat=three", 2, {"repeat", "got 'three'"}},
        {"repeat given as a grid axis", "--repeat='2, 3'", 2, {"repeat", "got '2, 3'"}},
        {"repeat running seeds beyond the largest",
         "--seed=4294967295 --repeat=2",
         2,
         {"repeat", "from seed 4294967295", "beyond the largest seed, 4294967295"}},
        {"repeat running a listed seed twice",
         "--seed='1, 2' --repeat=3",
         2,
         {"repeat", "from seed 1 and from seed 2", "both run seed 2", "at least 3 apart"}},
        {"repeat of a seed that is no number", "--seed='1, x' --repeat=2", 2, {"seed", "got 'x'"}},
        // dlsim-run's own options (read with Boost.Program_options): each bad one is named.
        {"-j out of range", "-j 0", 2, {"-j expects a number of parallel runs", "got '0'"}},
        {"--jobs without a number", "--jobs=", 2, {"-j expects", "got ''"}},
        {"--emit-jobs without a file", "--emit-jobs=", 2, {"--emit-jobs needs a file name"}},
        {"unknown figure style", "--figure-style=poster", 2, {"--figure-style 'poster'"}},
        {"unknown band around the curves",
         "--band=wide",
         2,
         {"--band 'wide'", "auto", "seeds", "nodes", "none"}},
        {"--band without a value", "--band=", 2, {"--band needs a value"}},
        {"two scenario files",
         "a.ini b.ini",
         2,
         {"more than one scenario file", "'a.ini' and 'b.ini'"}},
        {"unknown short option", "-x", 2, {"unknown option '-x'"}},
        {"a flag given a value", "--overwrite=yes", 2, {"--overwrite", "does not take"}},
        // Router and region files that say something else than they mean.
        {"Orbis file read as Inet",
         "--network=file --underlay.file={DIR}/isp.orbis",
         2,
         {"isp.orbis:", "set underlay.format = orbis"}},
        {"Inet header announcing fewer links than listed",
         "--network=file --underlay.file={DIR}/long.inet",
         2,
         {"long.inet:9", "announces 4 nodes and 3 links", "more lines follow"}},
        {"Inet link to an undeclared node",
         "--network=file --underlay.file={DIR}/stranger.inet",
         2,
         {"stranger.inet:6", "node 5 does not exist"}},
        {"Orbis link listed twice",
         "--network=file --underlay.format=orbis --underlay.file={DIR}/twice.orbis",
         2,
         {"twice.orbis:4", "listed twice (first on line 2)"}},
        {"region named twice",
         "--network=regions --regions.latency={DIR}/twice.csv",
         2,
         {"twice.csv:1", "'a' is named twice"}},
        {"latency from a region to itself",
         "--network=regions --regions.latency={DIR}/diagonal.csv",
         2,
         {"diagonal.csv:2", "diagonal must be 0"}},
        {"path longer than the IP TTL",
         "--network=file --underlay.format=orbis --underlay.file={DIR}/line.orbis"
         " --underlay.attach=file --underlay.attach_file={DIR}/ends.csv",
         2,
         {"line.orbis", "from learner", "routers (", "Ipv4L3Protocol::DefaultTtl is 64"}},
    };
    for (const BadInput& c : cases)
    {
        std::string command = std::string(DLSIM_RUN_BINARY) + " " + c.args + " --no-plot";
        for (const auto& [key, value] : small)
        {
            if (c.args.find("--" + key + "=") == std::string::npos)
            {
                command += " --" + key + "=" + value;
            }
        }
        command = Replace(command, "{DIR}", dir);
        std::string output;
        int status = RunCommand("timeout 60 " + command, output);
        EXPECT_EQ(status, c.status) << c.name << ": " << command << "\n" << output;
        EXPECT_NE(output.find("dlsim: error: "), std::string::npos) << c.name << ": " << output;
        // Values quoted in messages are shortened: no case echoes a value of megabytes.
        EXPECT_LT(output.size(), 20000u) << c.name;
        for (const auto& word : c.words)
        {
            EXPECT_NE(output.find(word), std::string::npos)
                << c.name << ": no '" << word << "' in: " << output;
        }
    }
    fs::remove_all(dir);
}

// An attribute dlsim sets from its own keys ignores any default a user gives it: every one that
// the runner, the learner helper or the learners' sockets set must be refused by name.
TEST(BadInput, EveryAttributeDlsimSetsIsRefusedAsAnNs3Default)
{
    const auto refused = AttributesSetByKeys();
    struct Setter
    {
        std::string file;
        std::string call;               ///< the call that sets an attribute by name
        std::vector<std::string> types; ///< the attribute is one of these types'
    };
    const std::vector<Setter> setters = {
        {"runner/scenario-runner.cc", "learners.SetAttribute", {"ns3::LearnerApplication"}},
        {"helper/learner-helper.cc", "app->SetAttribute", {"ns3::LearnerApplication"}},
        {"model/tcp-message-transport.cc",
         "socket->SetAttribute",
         {"ns3::TcpSocket", "ns3::TcpSocketBase"}},
    };
    for (const auto& setter : setters)
    {
        const std::string text = ReadWholeFile(std::string(DLSIM_SOURCE_DIR) + "/" + setter.file);
        // Plain search: std::regex must not be instantiated in a program linked with ns-3 (see
        // random-variable-spec.cc).
        const std::string call = setter.call + "(\"";
        size_t found = 0;
        for (size_t at = text.find(call); at != std::string::npos;
             at = text.find(call, at + 1), ++found)
        {
            const size_t begin = at + call.size();
            const std::string attribute = text.substr(begin, text.find('"', begin) - begin);
            bool listed = false;
            for (const auto& type : setter.types)
            {
                listed = listed || refused.count(type + "::" + attribute) > 0;
            }
            EXPECT_TRUE(listed) << setter.file << " sets " << attribute
                                << ", bound to no key (ScenarioKey::attributes)";
        }
        EXPECT_GT(found, 0u) << "no " << setter.call << " in " << setter.file;
    }
}

// What cannot be checked ahead is still caught: a crash of the simulation releases the run
// folder's lock, keeps the partial results and says in which step it came (the signal is sent
// from outside, to the real program in the middle of its simulation).
TEST(BadInput, CrashSignalsReleaseTheLockKeepThePartialFilesAndNameTheStep)
{
    const std::string dir = FreshTempFolder("crash");
    for (const char* signal : {"SEGV", "FPE", "BUS"})
    {
        const std::string out = dir + "/" + signal;
        const std::string run = std::string(DLSIM_RUN_BINARY)
                                + " --dataset=synthetic --synthetic.train_samples=200 "
                                  "--model=logistic --nodes=4 --degree=2 --rounds=1000000 "
                                  "--eval.every=1 --eval.test_samples=10 --no-plot --out="
                                + out;
        // Wait until rounds are in rounds.csv.partial (each evaluation writes them out): the
        // simulation is running.
        const std::string command = "(" + run
                                    + " & pid=$!; for i in $(seq 300); do "
                                      "[ $(cat "
                                    + out
                                    + "/rounds.csv.partial 2>/dev/null | wc -l) "
                                      "-ge 3 ] && break; sleep 0.1; done; kill -"
                                    + signal + " $pid; wait $pid; echo status=$?)";
        std::string output;
        RunCommand("timeout 60 sh -c '" + command + "'", output);
        EXPECT_NE(output.find("status=1\n"), std::string::npos) << signal << ": " << output;
        EXPECT_NE(output.find(std::string("(SIG") + signal + ")"), std::string::npos) << output;
        EXPECT_NE(output.find("while running the simulation"), std::string::npos) << output;
        EXPECT_FALSE(fs::exists(out + "/.lock")) << signal;
        EXPECT_TRUE(fs::exists(out + "/rounds.csv.partial")) << signal;
    }
    fs::remove_all(dir);
}

} // namespace
} // namespace ns3
