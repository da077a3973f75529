// csrc/http/engine/resolver.cpp: the resolver thread pool behind submit_resolve().
#include "http/engine/resolver.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace boltwire::http::engine {

namespace {

constexpr int kMaxResolverThreads = 4;

struct ResolverPool {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::shared_ptr<ResolveJob>> jobs;
  int threads = 0;
  int idle = 0;
};

// Replaced (the old one leaked: its lock may be held by a thread that does not exist) in a forked child.
ResolverPool *g_pool = new ResolverPool();

void run_resolver(ResolverPool *pool) {
  for (;;) {
    std::shared_ptr<ResolveJob> job;
    {
      std::unique_lock lock(pool->mutex);
      ++pool->idle;
      pool->ready.wait(lock, [pool] { return !pool->jobs.empty(); });
      --pool->idle;
      job = std::move(pool->jobs.front());
      pool->jobs.pop_front();
    }
    run_lookup(*job);
    job->on_done();
  }
}

}  // namespace

bool needs_target_lookup(const proxy::ProxyRoute &route) noexcept {
  return route.resolve_target && !route.target.empty() && !conn::is_ip_literal(route.target);
}

void run_lookup(ResolveJob &job) noexcept {
  job.ok = conn::resolve_addresses(job.host, job.port, job.addresses, job.error);
  if (!job.ok || job.target_host.empty()) return;
  try {
    std::vector<conn::SocketAddress> found;
    std::string error;
    if (conn::resolve_addresses(job.target_host, job.port, found, error) && !found.empty())
      job.target_address = conn::numeric_host(found.front());
    if (job.target_address.empty()) {
      job.ok = false;
      job.error = "cannot resolve " + job.target_host + " for the socks5 proxy: " + error;
    }
  } catch (...) {
    job.ok = false;  // out of memory: the error text stays empty
  }
}

void submit_resolve(std::shared_ptr<ResolveJob> job) {
  ResolverPool *pool = g_pool;
  ResolveJob *raw = job.get();
  bool start = false;
  {
    std::lock_guard lock(pool->mutex);
    pool->jobs.push_back(std::move(job));
    if (pool->idle < static_cast<int>(pool->jobs.size()) && pool->threads < kMaxResolverThreads) {
      ++pool->threads;
      start = true;
    }
  }
  if (start) {
    try {
      std::thread(run_resolver, pool).detach();
    } catch (...) {
      std::lock_guard lock(pool->mutex);
      --pool->threads;
      if (pool->threads == 0) {  // nobody would ever run it
        for (auto it = pool->jobs.begin(); it != pool->jobs.end(); ++it)
          if (it->get() == raw) {
            pool->jobs.erase(it);
            break;
          }
        throw;
      }
    }
  }
  pool->ready.notify_one();
}

void resolver_after_fork_in_child() noexcept { g_pool = new ResolverPool(); }

}  // namespace boltwire::http::engine
