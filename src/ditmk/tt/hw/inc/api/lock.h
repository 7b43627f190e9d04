#pragma once
// A scope guard: the function given runs when the Lock goes out of scope (CircularBuffer::scoped_lock).
template <typename ReleaseFunc>
class Lock {
 public:
  Lock(ReleaseFunc release_func) : release_func_(release_func) {}
  ~Lock() { release_func_(); }
  Lock(const Lock&) = delete;
  Lock(Lock&&) = delete;
  Lock& operator=(const Lock&) = delete;
  Lock& operator=(Lock&&) = delete;

 private:
  ReleaseFunc release_func_;
};
