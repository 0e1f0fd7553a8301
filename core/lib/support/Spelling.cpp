// Edit distance (Levenshtein) over bytes, one row at a time.

#include "trident/support/Spelling.h"

#include <algorithm>

namespace trident {

std::optional<std::string> closestSpelling(const std::string &word, const std::vector<std::string> &candidates) {
  auto distance = [](const std::string &a, const std::string &b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
      row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = up;
      }
    }
    return row[b.size()];
  };
  const std::string *best = nullptr;
  size_t bestDistance = 0;
  for (const std::string &c : candidates) {
    size_t d = distance(word, c);
    if (!best || d < bestDistance) {
      best = &c;
      bestDistance = d;
    }
  }
  if (!best || bestDistance == 0 || bestDistance > std::max<size_t>(1, word.size() / 3))
    return std::nullopt;
  return *best;
}

} // namespace trident
