// DLPack (trident/DLPack.h): Buffers out and in without copies, and who frees what.

#include "TestUtil.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::dlpack;

namespace {

int deleted = 0;

// A tensor another library made: host memory it owns, freed by its deleter.
struct Foreign {
  DLManagedTensor managed{};
  std::vector<float> data;
  int64_t shape[2];
};

DLManagedTensor *foreignTensor(int64_t rows, int64_t cols) {
  auto *f = new Foreign;
  f->data.assign(size_t(rows * cols), 1.0f);
  f->shape[0] = rows;
  f->shape[1] = cols;
  DLTensor &t = f->managed.dl_tensor;
  t.data = f->data.data();
  t.device = {kDLCPU, 0};
  t.ndim = 2;
  t.dtype = {kDLFloat, 32, 1};
  t.shape = f->shape;
  t.strides = nullptr;
  f->managed.manager_ctx = f;
  f->managed.deleter = [](DLManagedTensor *m) {
    ++deleted;
    delete static_cast<Foreign *>(m->manager_ctx);
  };
  return &f->managed;
}

} // namespace

TEST_CASE("a buffer exported through DLPack describes its memory and keeps it alive") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  std::vector<float> values{1, 2, 3, 4, 5, 6};
  Buffer b = Buffer::fromHost(dev, std::span<const float>(values));
  const int64_t shape[] = {2, 3};
  DLManagedTensor *t = toDLPack(b, shape);
  CHECK(t->dl_tensor.device.device_type == kDLCPU);
  CHECK(t->dl_tensor.ndim == 2);
  CHECK(t->dl_tensor.dtype.code == kDLFloat);
  CHECK(t->dl_tensor.dtype.bits == 32);
  CHECK(t->dl_tensor.strides[0] == 3);
  CHECK(t->dl_tensor.strides[1] == 1);
  CHECK(reinterpret_cast<uint64_t>(t->dl_tensor.data) == b.address());
  b = Buffer(); // the tensor still holds the memory
  CHECK(static_cast<const float *>(t->dl_tensor.data)[5] == 6.0f);
  t->deleter(t);
  const int64_t wrong[] = {4, 4};
  CHECK_THROWS_AS(toDLPack(Buffer::fromHost(dev, std::span<const float>(values)), wrong), Error);
}

TEST_CASE("a DLPack tensor imported as a buffer is used in place and freed by its deleter once") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  deleted = 0;
  DLManagedTensor *t = foreignTensor(4, 50);
  float *data = static_cast<float *>(t->dl_tensor.data);
  {
    Buffer x = fromDLPack(t, dev);
    CHECK(x.size() == 200);
    CHECK(x.dtype() == DType::F32);
    CHECK(x.address() == reinterpret_cast<uint64_t>(data));
    Buffer y = Buffer::fromHost(dev, std::span<const float>(std::vector<float>(200, 2.0f)));
    Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
    add.launch(dev, Grid(4), {x, y, x, 200}); // x += y, into the foreign memory
    dev.synchronize();
    CHECK(data[199] == 3.0f);
    Buffer copy = x;
    x = Buffer();
    CHECK(deleted == 0);
  }
  CHECK(deleted == 1);
  // Refused tensors are still released.
  DLManagedTensor *vector4 = foreignTensor(2, 2);
  vector4->dl_tensor.dtype.lanes = 4;
  CHECK_THROWS_AS(fromDLPack(vector4, dev), Error);
  CHECK(deleted == 2);
  DLManagedTensor *strided = foreignTensor(2, 2);
  int64_t strides[] = {1, 2}; // column-major
  strided->dl_tensor.strides = strides;
  CHECK_THROWS_AS(fromDLPack(strided, dev), Error);
  CHECK(deleted == 3);
}
