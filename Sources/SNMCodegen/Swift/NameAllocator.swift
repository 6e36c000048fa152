/// Hands out names within one scope so that no two collide: the second `userId` (from `userId`
/// after `user_id`) becomes `userId2`, and names already taken by the scope stay taken.
struct NameAllocator {
  private var taken: Set<String>

  init(reserved: Set<String> = []) {
    taken = reserved
  }

  /// `word` (an unescaped identifier), or it with the first free number after it.
  mutating func claim(_ word: String) -> String {
    var candidate = word
    var number = 2
    while taken.contains(candidate) {
      candidate = word + String(number)
      number += 1
    }
    taken.insert(candidate)
    return candidate
  }
}
