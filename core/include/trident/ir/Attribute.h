#pragma once
// Op attributes: compile-time data attached to an op by name.
//
//   {axis = 0, value = 1.5, predicate = "slt", order = [1, 0], callee = "f",
//    result_types = [i32, f32], type = f16, volatile = true,
//    layouts = [layout<8x64: reg [1, 2] lane [4, 8, 16, 32, 64] warp [128, 256]>]}

#include "trident/ir/Type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace trident {

// The bases of a linear layout (trident/simt/Layout.h) as IR text carries them on
// block-IR ops after layout assignment (docs/simt.md, "Layouts in IR text"):
//   layout<8x64: reg [1, 2] lane [4, 8, 16, 32, 64] warp [128, 256]>
// The IR only stores and prints them; the SIMT lowering gives them their meaning.
struct LayoutBases {
  std::vector<int64_t> shape, reg, lane, warp;
  std::string str() const;
  bool operator==(const LayoutBases &) const = default;
};

class Attribute {
public:
  using IntArray = std::vector<int64_t>;
  using TypeArray = std::vector<Type>;
  using LayoutArray = std::vector<LayoutBases>;

  Attribute() = default; // absent
  static Attribute integer(int64_t v) { return Attribute(v); }
  static Attribute floating(double v) { return Attribute(v); }
  static Attribute boolean(bool v) { return Attribute(v); }
  static Attribute string(std::string v) { return Attribute(std::move(v)); }
  static Attribute type(Type v) { return Attribute(v); }
  static Attribute ints(IntArray v) { return Attribute(std::move(v)); }
  static Attribute types(TypeArray v) { return Attribute(std::move(v)); }
  static Attribute layout(LayoutBases v) { return Attribute(std::move(v)); }
  static Attribute layouts(LayoutArray v) { return Attribute(std::move(v)); }

  bool present() const { return !std::holds_alternative<std::monostate>(v_); }
  bool isInt() const { return std::holds_alternative<int64_t>(v_); }
  bool isFloat() const { return std::holds_alternative<double>(v_); }
  bool isBool() const { return std::holds_alternative<bool>(v_); }
  bool isString() const { return std::holds_alternative<std::string>(v_); }
  bool isType() const { return std::holds_alternative<Type>(v_); }
  bool isInts() const { return std::holds_alternative<IntArray>(v_); }
  bool isTypes() const { return std::holds_alternative<TypeArray>(v_); }
  bool isLayout() const { return std::holds_alternative<LayoutBases>(v_); }
  bool isLayouts() const { return std::holds_alternative<LayoutArray>(v_); }

  int64_t getInt() const { return std::get<int64_t>(v_); }
  double getFloat() const { return std::get<double>(v_); }
  bool getBool() const { return std::get<bool>(v_); }
  const std::string &getString() const { return std::get<std::string>(v_); }
  Type getType() const { return std::get<Type>(v_); }
  const IntArray &getInts() const { return std::get<IntArray>(v_); }
  const TypeArray &getTypes() const { return std::get<TypeArray>(v_); }
  const LayoutBases &getLayout() const { return std::get<LayoutBases>(v_); }
  const LayoutArray &getLayouts() const { return std::get<LayoutArray>(v_); }

  // Textual form: 3, 1.5, true, "s", f32, [1, 2], [i32, f32], layout<...>,
  // [layout<...>, layout<...>]. Floats always
  // print with a '.', an exponent, inf or nan, and round-trip exactly.
  std::string str() const;

  bool operator==(const Attribute &) const = default;

private:
  template <class T> explicit Attribute(T v) : v_(std::move(v)) {}
  std::variant<std::monostate, int64_t, double, bool, std::string, Type, IntArray, TypeArray, LayoutBases,
               LayoutArray>
      v_;
};

struct NamedAttribute {
  std::string name;
  Attribute value;
  bool operator==(const NamedAttribute &) const = default;
};

// Attributes of one op, kept sorted by name so printing is deterministic.
class AttributeList {
public:
  AttributeList() = default;
  AttributeList(std::initializer_list<NamedAttribute> attrs);

  // Absent attributes read as a default Attribute (present() == false).
  const Attribute &get(std::string_view name) const;
  bool has(std::string_view name) const { return get(name).present(); }
  void set(std::string_view name, Attribute value);
  void erase(std::string_view name);

  const std::vector<NamedAttribute> &entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  bool operator==(const AttributeList &) const = default;

private:
  std::vector<NamedAttribute> entries_;
};

} // namespace trident
