#include "graph/ascend_string.h"

#include <cstring>

namespace ge {

namespace {
const std::string &Text(const std::shared_ptr<const std::string> &s) {
    static const std::string empty;
    return s ? *s : empty;
}
} // namespace

AscendString::AscendString(const char_t *const name)
    : name_(name ? std::make_shared<const std::string>(name) : nullptr) {}

AscendString::AscendString(const char_t *const name, size_t length)
    : name_(name ? std::make_shared<const std::string>(name, length) : nullptr) {}

const char_t *AscendString::GetString() const {
    return Text(name_).c_str();
}
size_t AscendString::GetLength() const {
    return Text(name_).size();
}
size_t AscendString::Find(const AscendString &ascend_string) const {
    return Text(name_).find(Text(ascend_string.name_));
}
size_t AscendString::Hash() const {
    return std::hash<std::string>()(Text(name_));
}

bool AscendString::operator<(const AscendString &d) const {
    return Text(name_) < Text(d.name_);
}
bool AscendString::operator>(const AscendString &d) const {
    return Text(name_) > Text(d.name_);
}
bool AscendString::operator<=(const AscendString &d) const {
    return Text(name_) <= Text(d.name_);
}
bool AscendString::operator>=(const AscendString &d) const {
    return Text(name_) >= Text(d.name_);
}
bool AscendString::operator==(const AscendString &d) const {
    return Text(name_) == Text(d.name_);
}
bool AscendString::operator!=(const AscendString &d) const {
    return Text(name_) != Text(d.name_);
}
bool AscendString::operator==(const char_t *const d) const {
    return Text(name_) == (d ? d : "");
}
bool AscendString::operator!=(const char_t *const d) const {
    return !(*this == d);
}

} // namespace ge
