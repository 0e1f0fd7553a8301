#pragma once
// "Did you mean" hints: the known name nearest to a misspelled one.

#include <optional>
#include <string>
#include <vector>

namespace trident {

// The candidate closest to `word` by edit distance when it is close enough to be a
// misspelling (distance 1, or up to a third of the word's length); nullopt otherwise
// and when `word` is itself a candidate.
std::optional<std::string> closestSpelling(const std::string &word, const std::vector<std::string> &candidates);

} // namespace trident
