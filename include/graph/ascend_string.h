/* GE graph API (ropekit): AscendString, an immutable string with value semantics. */
#ifndef ROPEKIT_GRAPH_ASCEND_STRING_H_
#define ROPEKIT_GRAPH_ASCEND_STRING_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "graph/types.h"

namespace ge {

class GE_FUNC_VISIBILITY AscendString {
  public:
    AscendString() = default;
    /* NULL gives the empty string. */
    AscendString(const char_t *const name);
    AscendString(const char_t *const name, size_t length);

    /* Never NULL: "" for an empty string. */
    const char_t *GetString() const;
    size_t GetLength() const;
    /* Position of the first occurrence, or std::string::npos. */
    size_t Find(const AscendString &ascend_string) const;
    size_t Hash() const;

    bool operator<(const AscendString &d) const;
    bool operator>(const AscendString &d) const;
    bool operator<=(const AscendString &d) const;
    bool operator>=(const AscendString &d) const;
    bool operator==(const AscendString &d) const;
    bool operator!=(const AscendString &d) const;
    bool operator==(const char_t *const d) const;
    bool operator!=(const char_t *const d) const;

  private:
    std::shared_ptr<const std::string> name_;
};

} // namespace ge

namespace std {
template <> struct hash<ge::AscendString> {
    size_t operator()(const ge::AscendString &name) const { return name.Hash(); }
};
} // namespace std

#endif /* ROPEKIT_GRAPH_ASCEND_STRING_H_ */
