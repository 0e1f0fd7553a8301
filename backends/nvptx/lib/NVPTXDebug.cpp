// Printing and assertions through the device functions the CUDA driver provides to
// every PTX module (PTX "system calls"):
//
//   th.printf %p, %a, %b {format = "..."}
// ->
//   @fmt = internal addrspace(1) constant [N x i8] c"...\00"
//   %buf = alloca { i32, double }                ; in the entry block
//   store %a, %buf.0; store %b, %buf.1
//   call i32 @vprintf(ptr addrspacecast (@fmt), ptr %buf)
//
// vprintf reads its arguments from a buffer laid out as C's variadic calls promote
// them (each aligned to its size). __assertfail(message, file, line, function,
// char size) prints the failure and traps.
#include "NVPTXHooks.h"

#include <llvm/IR/Module.h>

namespace trident::nvptx {

// A NUL-terminated string in global memory, as a generic pointer; equal texts share one.
llvm::Value *NVPTXHooks::globalString(llvm::IRBuilder<> &b, std::string_view text, const char *name) {
  llvm::Module *m = b.GetInsertBlock()->getModule();
  llvm::GlobalVariable *&g = strings_[std::string(text)];
  if (!g) {
    llvm::Constant *init =
        llvm::ConstantDataArray::getString(m->getContext(), llvm::StringRef(text.data(), text.size()));
    g = new llvm::GlobalVariable(*m, init->getType(), /*isConstant=*/true, llvm::GlobalValue::InternalLinkage, init,
                                 name, nullptr, llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    g->setAlignment(llvm::Align(1));
  }
  return llvm::ConstantExpr::getAddrSpaceCast(g, llvm::PointerType::get(m->getContext(), 0));
}

bool NVPTXHooks::printf(llvm::IRBuilder<> &b, std::string_view format, llvm::ArrayRef<llvm::Value *> args) {
  llvm::Module *m = b.GetInsertBlock()->getModule();
  llvm::LLVMContext &ctx = m->getContext();
  llvm::Type *ptrType = llvm::PointerType::get(ctx, 0);
  llvm::Value *buffer = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptrType));
  if (!args.empty()) {
    std::vector<llvm::Type *> fields;
    for (llvm::Value *a : args)
      fields.push_back(a->getType());
    llvm::StructType *layout = llvm::StructType::get(ctx, fields);
    // The buffer lives in the entry block: an alloca elsewhere would grow the stack
    // every time it runs.
    llvm::BasicBlock &entry = b.GetInsertBlock()->getParent()->getEntryBlock();
    llvm::IRBuilder<> atEntry(&entry, entry.getFirstInsertionPt());
    llvm::AllocaInst *slot = atEntry.CreateAlloca(layout, nullptr, "printf.args");
    slot->setAlignment(llvm::Align(8));
    for (unsigned i = 0; i < args.size(); ++i)
      b.CreateStore(args[i], b.CreateStructGEP(layout, slot, i));
    buffer = slot;
  }
  llvm::FunctionCallee vprintf =
      m->getOrInsertFunction("vprintf", llvm::FunctionType::get(b.getInt32Ty(), {ptrType, ptrType}, false));
  b.CreateCall(vprintf, {globalString(b, format, "printf_format"), buffer});
  return true;
}

bool NVPTXHooks::assertFail(llvm::IRBuilder<> &b, std::string_view message, std::string_view file, unsigned line,
                            std::string_view function) {
  llvm::Module *m = b.GetInsertBlock()->getModule();
  llvm::Type *ptrType = llvm::PointerType::get(m->getContext(), 0);
  llvm::FunctionCallee assertfail = m->getOrInsertFunction(
      "__assertfail", llvm::FunctionType::get(b.getVoidTy(),
                                              {ptrType, ptrType, b.getInt32Ty(), ptrType, b.getInt64Ty()}, false));
  b.CreateCall(assertfail, {globalString(b, message, "assert_message"), globalString(b, file, "assert_file"),
                            b.getInt32(line), globalString(b, function, "assert_function"), b.getInt64(1)});
  return true;
}

} // namespace trident::nvptx
