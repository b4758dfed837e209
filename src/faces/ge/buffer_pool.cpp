#include "buffer_pool.h"

#include <cstdlib>
#include <map>
#include <mutex>

namespace ropekit_ge {
namespace {

const size_t kAlign = 64;
const size_t kPooledFrom = size_t(1) << 20; /* smaller blocks come from malloc's own bins */
const size_t kIdleLimit = size_t(1) << 30;  /* idle bytes kept at most */
const size_t kIdleBuffersLimit = 32;

class BufferPool {
  public:
    void *Take(size_t rounded) {
        std::lock_guard<std::mutex> hold(lock_);
        auto it = idle_.find(rounded);
        if (it == idle_.end())
            return nullptr;
        void *p = it->second;
        idle_.erase(it);
        idle_bytes_ -= rounded;
        return p;
    }

    void Give(void *p, size_t rounded) {
        {
            std::lock_guard<std::mutex> hold(lock_);
            if (idle_bytes_ + rounded <= kIdleLimit && idle_.size() < kIdleBuffersLimit) {
                idle_.insert(std::make_pair(rounded, p));
                idle_bytes_ += rounded;
                return;
            }
        }
        std::free(p);
    }

    void Release() {
        std::multimap<size_t, void *> idle;
        {
            std::lock_guard<std::mutex> hold(lock_);
            idle.swap(idle_);
            idle_bytes_ = 0;
        }
        for (auto &kv : idle)
            std::free(kv.second);
    }

    size_t IdleBytes() {
        std::lock_guard<std::mutex> hold(lock_);
        return idle_bytes_;
    }

  private:
    std::mutex lock_;
    std::multimap<size_t, void *> idle_;
    size_t idle_bytes_ = 0;
};

BufferPool &Pool() {
    static BufferPool *pool = new BufferPool; /* buffers may be released until exit */
    return *pool;
}

} // namespace

std::shared_ptr<uint8_t> AllocateBuffer(size_t bytes) {
    size_t rounded = bytes < kAlign ? kAlign : bytes;
    if (rounded % kAlign != 0) {
        if (rounded > SIZE_MAX - kAlign)
            return nullptr;
        rounded += kAlign - rounded % kAlign;
    }
    if (rounded < kPooledFrom) {
        void *p = nullptr;
        if (posix_memalign(&p, kAlign, rounded) != 0)
            return nullptr;
        return std::shared_ptr<uint8_t>(static_cast<uint8_t *>(p),
                                        [](uint8_t *q) { std::free(q); });
    }
    void *p = Pool().Take(rounded);
    if (!p && posix_memalign(&p, kAlign, rounded) != 0)
        return nullptr;
    try {
        return std::shared_ptr<uint8_t>(static_cast<uint8_t *>(p),
                                        [rounded](uint8_t *q) { Pool().Give(q, rounded); });
    } catch (...) {
        std::free(p);
        throw;
    }
}

void ReleaseIdleBuffers() {
    Pool().Release();
}

size_t IdleBufferBytes() {
    return Pool().IdleBytes();
}

} // namespace ropekit_ge
