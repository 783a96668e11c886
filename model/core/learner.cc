// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learner.h"

#include "nn-models.h"
#include "user-file.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <torch/optim/sgd.h>
#include <torch/torch.h>

namespace dlsim
{

struct Learner::Impl
{
    TrainingConfig config;
    std::shared_ptr<const Dataset> train;
    std::vector<uint32_t> partition;
    torch::nn::Sequential model{nullptr};
    std::unique_ptr<torch::optim::SGD> optimizer;
    std::vector<torch::Tensor> parameters;
    size_t numParameters = 0;
    double trainFlopsPerSample = 0.0;
    std::mt19937_64 rng;
    std::vector<uint32_t> order; // partition positions, partially reshuffled for every batch
    std::vector<float> batchImages;
    std::vector<int64_t> batchLabels;

    std::vector<int64_t> Shape(int64_t batch) const
    {
        return {batch, train->channels, train->height, train->width};
    }

    /// Draw batchSize distinct samples uniformly: a partial Fisher-Yates over `order`.
    void DrawBatch()
    {
        const size_t n = order.size();
        const size_t b = std::min<size_t>(config.batchSize, n);
        const size_t sampleSize = train->SampleSize();
        batchImages.resize(b * sampleSize);
        batchLabels.resize(b);
        for (size_t k = 0; k < b; ++k)
        {
            size_t j = k + rng() % (n - k);
            std::swap(order[k], order[j]);
            uint32_t index = partition[order[k]];
            std::copy_n(train->Sample(index), sampleSize, batchImages.data() + k * sampleSize);
            batchLabels[k] = train->labels[index];
        }
    }
};

Learner::Learner(const TrainingConfig& config,
                 std::shared_ptr<const Dataset> train,
                 std::vector<uint32_t> partition,
                 uint64_t initSeed,
                 uint64_t sampleSeed)
    : m_impl(std::make_unique<Impl>())
{
    if (partition.empty())
    {
        throw DatasetError("a learner needs at least one training sample");
    }
    if (config.batchSize == 0 || config.localSteps == 0)
    {
        throw std::invalid_argument("batch_size and local_steps must be at least 1");
    }
    Impl& d = *m_impl;
    d.config = config;
    d.train = std::move(train);
    d.partition = std::move(partition);
    d.rng.seed(sampleSeed);
    d.order.resize(d.partition.size());
    for (size_t i = 0; i < d.order.size(); ++i)
    {
        d.order[i] = static_cast<uint32_t>(i);
    }
    torch::manual_seed(initSeed);
    d.model = MakeModel(config.model,
                        d.train->channels,
                        d.train->height,
                        d.train->width,
                        d.train->numClasses,
                        config.modelParameters);
    d.parameters = d.model->parameters();
    for (const auto& p : d.parameters)
    {
        if (!p.is_contiguous() || p.scalar_type() != torch::kFloat32)
        {
            throw std::logic_error("model " + config.model
                                   + " has a parameter that is not a contiguous float tensor");
        }
        d.numParameters += static_cast<size_t>(p.numel());
    }
    d.optimizer = std::make_unique<torch::optim::SGD>(d.parameters,
                                                      torch::optim::SGDOptions(config.lr)
                                                          .momentum(config.momentum)
                                                          .weight_decay(config.weightDecay));
    d.trainFlopsPerSample
        = 3.0 * ForwardFlopsPerSample(d.model, d.train->channels, d.train->height, d.train->width);
    if (config.initialParameters)
    {
        if (config.initialParameters->size() != d.numParameters)
        {
            throw DatasetError(
                (config.initialParametersSource.empty() ? std::string("initial parameters")
                                                        : config.initialParametersSource)
                + " holds " + std::to_string(config.initialParameters->size())
                + " parameters, but model " + config.model + " for "
                + std::to_string(d.train->channels) + "x" + std::to_string(d.train->height) + "x"
                + std::to_string(d.train->width) + " inputs has "
                + std::to_string(d.numParameters));
        }
        SetParameters(*config.initialParameters);
    }
}

Learner::~Learner() = default;

double
Learner::Train()
{
    Impl& d = *m_impl;
    d.model->train();
    double lossSum = 0.0;
    for (uint32_t step = 0; step < d.config.localSteps; ++step)
    {
        d.DrawBatch();
        const int64_t b = static_cast<int64_t>(d.batchLabels.size());
        torch::Tensor images = torch::from_blob(d.batchImages.data(), d.Shape(b), torch::kFloat32);
        torch::Tensor labels = torch::from_blob(d.batchLabels.data(), {b}, torch::kInt64);
        d.optimizer->zero_grad();
        torch::Tensor loss = torch::nn::functional::cross_entropy(d.model->forward(images), labels);
        loss.backward();
        d.optimizer->step();
        lossSum += loss.item<double>();
    }
    // The gradients are not needed until the next round's first backward pass, which then
    // writes them afresh (zero_grad skips undefined ones): a model's worth less per learner.
    for (auto& p : d.parameters)
    {
        p.mutable_grad() = torch::Tensor();
    }
    return lossSum / d.config.localSteps;
}

size_t
Learner::NumParameters() const
{
    return m_impl->numParameters;
}

std::vector<float>
Learner::GetParameters() const
{
    std::vector<float> flat;
    GetParametersInto(flat);
    return flat;
}

void
Learner::GetParametersInto(std::vector<float>& flat) const
{
    flat.resize(m_impl->numParameters);
    size_t offset = 0;
    for (const auto& p : m_impl->parameters)
    {
        // The model's own parameters are contiguous float tensors: a plain copy, no torch
        // dispatch (this runs every round for every learner, in the simulator's thread).
        std::memcpy(flat.data() + offset, p.data_ptr<float>(), p.numel() * sizeof(float));
        offset += static_cast<size_t>(p.numel());
    }
}

namespace
{

/// `flat` must hold one value per parameter of the model; `caller` names the call for the error.
void
CheckParameterCount(const char* caller, const std::vector<float>& flat, size_t count)
{
    if (flat.size() != count)
    {
        throw std::invalid_argument(std::string(caller) + ": got " + std::to_string(flat.size())
                                    + " values for a model of " + std::to_string(count)
                                    + " parameters");
    }
}

/// Write `flat` (in registration order) into `parameters`. Outside any autograd graph a plain
/// copy into the storage does what copy_ under NoGradGuard does, without torch's dispatch and
/// element loops.
void
CopyIntoParameters(const std::vector<torch::Tensor>& parameters, const std::vector<float>& flat)
{
    size_t offset = 0;
    for (const auto& p : parameters)
    {
        std::memcpy(p.data_ptr<float>(), flat.data() + offset, p.numel() * sizeof(float));
        offset += static_cast<size_t>(p.numel());
    }
}

} // namespace

void
Learner::SetParameters(const std::vector<float>& flat)
{
    CheckParameterCount("SetParameters", flat, m_impl->numParameters);
    CopyIntoParameters(m_impl->parameters, flat); // between rounds: no graph holds them
}

namespace
{

/// Test accuracy and loss of `model` (in evaluation mode) on the first `maxSamples` samples of
/// `test`: one loop for learners and their snapshots, so both give the same bits. Reads the
/// model only.
EvalResult
EvaluateModel(torch::nn::Sequential model, const Dataset& test, size_t maxSamples)
{
    torch::NoGradGuard noGrad;
    size_t n = maxSamples == 0 ? test.Size() : std::min(maxSamples, test.Size());
    const size_t chunk = 16; // small chunks: conv intermediates of big ones cost more in page
                             // faults than they save
    size_t correct = 0;
    double lossSum = 0.0;
    std::vector<int64_t> labels;
    for (size_t begin = 0; begin < n; begin += chunk)
    {
        int64_t b = static_cast<int64_t>(std::min(chunk, n - begin));
        torch::Tensor images = torch::from_blob(const_cast<float*>(test.Sample(begin)),
                                                {b, test.channels, test.height, test.width},
                                                torch::kFloat32);
        labels.assign(test.labels.begin() + begin, test.labels.begin() + begin + b);
        torch::Tensor target = torch::from_blob(labels.data(), {b}, torch::kInt64);
        torch::Tensor logits = model->forward(images);
        lossSum += torch::nn::functional::cross_entropy(
                       logits,
                       target,
                       torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                       .item<double>();
        correct += static_cast<size_t>(logits.argmax(1).eq(target).sum().item<int64_t>());
    }
    EvalResult result;
    result.samples = static_cast<uint32_t>(n);
    result.accuracy = n ? static_cast<double>(correct) / n : 0.0;
    result.loss = n ? lossSum / n : 0.0;
    return result;
}

} // namespace

EvalResult
Learner::Evaluate(const Dataset& test, size_t maxSamples) const
{
    m_impl->model->eval(); // the mode, not the parameters: Train switches it back
    return EvaluateModel(m_impl->model, test, maxSamples);
}

struct ModelSnapshot::Impl
{
    torch::nn::Sequential model{nullptr}; ///< in evaluation mode from the start
};

ModelSnapshot::ModelSnapshot(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

ModelSnapshot::~ModelSnapshot() = default;

EvalResult
ModelSnapshot::Evaluate(const Dataset& test, size_t maxSamples) const
{
    return EvaluateModel(m_impl->model, test, maxSamples);
}

std::shared_ptr<const ModelSnapshot>
Learner::Snapshot(const std::vector<float>* parameters) const
{
    if (parameters)
    {
        CheckParameterCount("Snapshot", *parameters, m_impl->numParameters);
    }
    if (!m_impl->model->buffers().empty())
    {
        // Running statistics and the like are not in the flat parameters: a copy taken before a
        // training could not match one taken after it, and results would depend on threads.
        return nullptr;
    }
    auto impl = std::make_unique<ModelSnapshot::Impl>();
    // clone() builds the copy's modules afresh, drawing their initial values from torch's
    // global generator before it overwrites them: the generator is put back as it was, so a copy
    // changes no later draw.
    auto generator = at::detail::getDefaultCPUGenerator();
    at::Tensor generatorState;
    {
        std::lock_guard<std::mutex> lock(generator.mutex());
        generatorState = generator.get_state();
    }
    try
    {
        impl->model = torch::nn::Sequential(
            std::dynamic_pointer_cast<torch::nn::SequentialImpl>(m_impl->model->clone()));
    }
    catch (const c10::Error&)
    {
        impl->model = nullptr; // a module of a registered model that is not torch::nn::Cloneable
    }
    {
        std::lock_guard<std::mutex> lock(generator.mutex());
        generator.set_state(generatorState);
    }
    if (!impl->model)
    {
        return nullptr;
    }
    impl->model->eval();
    if (parameters)
    {
        CopyIntoParameters(impl->model->parameters(), *parameters);
    }
    return std::shared_ptr<const ModelSnapshot>(new ModelSnapshot(std::move(impl)));
}

double
Learner::TrainFlopsPerSample() const
{
    return m_impl->trainFlopsPerSample;
}

size_t
Learner::PartitionSize() const
{
    return m_impl->partition.size();
}

const TrainingConfig&
Learner::Config() const
{
    return m_impl->config;
}

void
UseSingleThreadedTorch()
{
    torch::set_num_threads(1);
}

size_t
CountModelParameters(const std::string& name,
                     int64_t channels,
                     int64_t height,
                     int64_t width,
                     int64_t classes,
                     const std::map<std::string, std::string>& parameters)
{
    torch::nn::Sequential model = MakeModel(name, channels, height, width, classes, parameters);
    size_t count = 0;
    for (const auto& p : model->parameters())
    {
        count += static_cast<size_t>(p.numel());
    }
    return count;
}

namespace
{

// More than any model here needs (a billion parameters); a larger file is not a parameter file.
constexpr uintmax_t kMaxParameterFileBytes = uintmax_t(1) << 32;

} // namespace

std::vector<float>
ReadParameterFile(const std::string& path)
{
    std::error_code ec;
    std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
    {
        throw DatasetError("parameter file " + path + " not found");
    }
    if (const std::string why = UnreadableFileReason(path); !why.empty())
    {
        throw DatasetError("parameter file " + path + ": " + why);
    }
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec)
    {
        throw DatasetError("cannot read parameter file " + path + ": " + ec.message());
    }
    if (size == 0 || size % 4 != 0 || size > kMaxParameterFileBytes)
    {
        throw DatasetError("parameter file " + path + " has " + std::to_string(size)
                           + " bytes: a parameter file holds float32 values, 4 bytes each, and "
                             "nothing else (at least one value, at most 4 GiB)");
    }
    std::vector<unsigned char> bytes(static_cast<size_t>(size));
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!in || static_cast<size_t>(in.gcount()) != bytes.size())
    {
        throw DatasetError("cannot read parameter file " + path + " to its end");
    }
    std::vector<float> values(bytes.size() / 4);
    for (size_t i = 0; i < values.size(); ++i)
    {
        const unsigned char* b = bytes.data() + 4 * i;
        uint32_t bits = uint32_t(b[0]) | (uint32_t(b[1]) << 8) | (uint32_t(b[2]) << 16)
                        | (uint32_t(b[3]) << 24);
        std::memcpy(&values[i], &bits, 4);
        if (!std::isfinite(values[i]))
        {
            throw DatasetError("parameter file " + path + ": value " + std::to_string(i)
                               + " (at byte " + std::to_string(4 * i) + ") is not a finite number");
        }
    }
    return values;
}

void
WriteParameterFile(const std::string& path, const std::vector<float>& parameters)
{
    std::vector<unsigned char> bytes(4 * parameters.size());
    for (size_t i = 0; i < parameters.size(); ++i)
    {
        uint32_t bits = 0;
        std::memcpy(&bits, &parameters[i], 4);
        for (int k = 0; k < 4; ++k)
        {
            bytes[4 * i + k] = static_cast<unsigned char>(bits >> (8 * k));
        }
    }
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out)
    {
        throw DatasetError("cannot write parameter file " + path + ": "
                           + (errno ? std::strerror(errno) : "write error"));
    }
}

} // namespace dlsim
