#pragma once
// A fixed pool of worker threads running index ranges. Several callers may run
// jobs at once (launches from several threads); each caller also works on its
// own job, so a job always progresses even when every worker is busy.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace trident::sdk {

class ThreadPool {
public:
  explicit ThreadPool(unsigned workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  // Threads that run jobs: the workers plus the calling thread.
  unsigned concurrency() const { return static_cast<unsigned>(threads_.size()) + 1; }
  // Runs fn(0) ... fn(count - 1), spread over the pool; returns when all are done.
  void parallelFor(size_t count, const std::function<void(size_t)> &fn);

private:
  struct Job;
  void workerLoop();
  static void work(Job &job);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

} // namespace trident::sdk
