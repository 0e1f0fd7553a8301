#include "trident/sdk/ThreadPool.h"

#include <algorithm>
#include <atomic>

namespace trident::sdk {

struct ThreadPool::Job {
  const std::function<void(size_t)> *fn;
  size_t count;
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex doneMutex;
  std::condition_variable doneCv;
};

ThreadPool::ThreadPool(unsigned workers) {
  for (unsigned i = 0; i < workers; ++i)
    threads_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : threads_)
    t.join();
}

void ThreadPool::work(Job &job) {
  for (;;) {
    size_t i = job.next.fetch_add(1);
    if (i >= job.count)
      return;
    (*job.fn)(i);
    if (job.done.fetch_add(1) + 1 == job.count) {
      std::lock_guard lock(job.doneMutex);
      job.doneCv.notify_all();
    }
  }
}

void ThreadPool::workerLoop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_)
        return;
      job = jobs_.front();
      if (job->next.load() >= job->count) {
        jobs_.pop_front(); // fully handed out; its owner waits for completion
        continue;
      }
    }
    work(*job);
  }
}

void ThreadPool::parallelFor(size_t count, const std::function<void(size_t)> &fn) {
  if (count == 0)
    return;
  if (count == 1 || threads_.empty()) {
    for (size_t i = 0; i < count; ++i)
      fn(i);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->count = count;
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(job);
  }
  wake_.notify_all();
  work(*job);
  {
    std::unique_lock lock(job->doneMutex);
    job->doneCv.wait(lock, [&] { return job->done.load() == job->count; });
  }
  std::lock_guard lock(mutex_);
  auto it = std::find(jobs_.begin(), jobs_.end(), job);
  if (it != jobs_.end())
    jobs_.erase(it);
}

} // namespace trident::sdk
