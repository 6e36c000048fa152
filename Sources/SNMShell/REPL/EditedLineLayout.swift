@preconcurrency import CLibEdit
import Foundation

/// Where libedit draws the characters of a prompt and the line being edited, in a window
/// `columns` wide, by its own rules: a character that does not fit at the end of a row goes to the
/// next (a wide one leaves a gap), a tab goes to the next multiple of 8, a control character shows
/// as `^X`, another one that cannot print as `\U+XXXX`, a newline starts a row.
///
/// ```swift
/// var layout = EditedLineLayout(columns: 40)
/// layout.add(prompt: "snm anon@local> ")
/// for character in typedBeforeCursor { layout.add(character) }
/// layout.row   // how many rows below the prompt's first the cursor is
/// ```
/// The prompt loop needs the cursor's row to go back to the prompt's first row, clear the line and
/// print above it.
struct EditedLineLayout: Equatable {
  /// The window's width; below 1 nothing wraps.
  let columns: Int
  /// The row the next character goes on, counted from the prompt's first.
  private(set) var row = 0
  /// The column the next character goes in.
  private(set) var column = 0

  /// Adds a prompt as libedit's `EL_PROMPT_ESC` draws it: what lies between two `\u{1}` takes no
  /// room (escape sequences).
  mutating func add(prompt: String) {
    var hidden = false
    for scalar in prompt.unicodeScalars {
      if scalar == "\u{1}" {
        hidden.toggle()
      } else if !hidden {
        add(wchar_t(bitPattern: scalar.value))
      }
    }
  }

  /// Adds one character of the line.
  mutating func add(_ character: wchar_t) {
    switch character {
    case 0x09:
      repeat { put(width: 1) } while column % 8 != 0
    case 0x0A:
      row += 1
      column = 0
    case 0..<0x20, 0x7F:
      put(width: 1)
      put(width: 1)
    default:
      let width = Int(snm_wcwidth(character))
      if width >= 0 && snm_iswprint(character) != 0 {
        put(width: width)
      } else {
        // `\U+` and at least four hexadecimal digits.
        let digits = max(4, String(UInt32(bitPattern: character), radix: 16).count)
        for _ in 0..<(3 + digits) { put(width: 1) }
      }
    }
  }

  private mutating func put(width: Int) {
    guard columns > 0 else { return }
    if width > 1 && width <= columns {
      while column + width > columns { put(width: 1) }
    }
    column += width
    if column >= columns {
      column = 0
      row += 1
    }
  }
}
